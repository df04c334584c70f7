#!/usr/bin/env python3
"""Convolutional codes in GNU Radio (issue 23, the fourth family): the encoder emits exactly what
gr-fec's cc_encoder emits for the K = 7 (171, 133) code; our decoder definition is a drop-in for
gr-fec's cc_decoder in fec.extended_decoder, and decodes the same noisy frames as well as it does;
the stream blocks (generated from the library like every family's) round-trip through noise."""
import numpy as np
from gnuradio import analog, blocks, fec, gr, gr_unittest

from gnuradio import gpufec
from flowgraph_chain import random_bits
from qa_grfec_swap import run

K7 = [79, 109]  # gr-fec's bit-reversed (171, 133), in our output order


def stream(blocks_chain, bits):
    tb = gr.top_block()
    src, snk = blocks.vector_source_b(bits.tolist()), blocks.vector_sink_b()
    tb.connect(src, *blocks_chain, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8)


class qa_conv_blocks(gr_unittest.TestCase):
    def test_encoder_equals_grfec(self):
        """The same coded bits as gr-fec's cc_encoder: terminated frames and (with gr-fec's
        tail-biting mode) tail biting."""
        for frame, mode, suffix in ((1024, fec.CC_TERMINATED, ""), (200, fec.CC_TAILBITING, ":term=tb")):
            bits = random_bits(3 * frame)
            theirs = stream([fec.encoder(fec.cc_encoder.make(frame, 7, 2, K7, 0, mode, False),
                                         gr.sizeof_char, gr.sizeof_char)], bits)
            ours = stream([gpufec.conv_encoder(f"conv-k7-171-133:k={frame}{suffix}")], bits)
            self.assertEqual(len(ours), len(theirs), suffix)
            self.assertTrue(np.array_equal(ours, theirs), f"coded bits differ {suffix}")

    def test_decoder_definition_drop_in(self):
        """fec.extended_decoder with gpufec.conv_decoder_def instead of cc_decoder: the same
        frames, at 3.5 dB, decoded at least as well (ours keeps float metrics, gr-fec bytes)."""
        frame = 1024
        enc_def = fec.cc_encoder.make(frame, 7, 2, K7, 0, fec.CC_TERMINATED, False)
        bits = random_bits(40 * frame)
        noise = np.sqrt(1.0 / (2 * 0.5 * 10 ** 0.35))
        code = f"conv-k7-171-133:k={frame}"
        ours = run(enc_def, gpufec.conv_decoder_def(code, backend="cpu"), bits, noise)
        err_ours = int(np.count_nonzero(ours != bits))
        theirs = run(enc_def, fec.cc_decoder.make(frame, 7, 2, K7, 0, -1, fec.CC_TERMINATED, False), bits, noise)
        err_theirs = int(np.count_nonzero(theirs != bits))
        # each run draws its own noise: compare rates with room for chance (about 1e-4 here)
        self.assertLess(err_ours, 60, f"ours {err_ours} errors, gr-fec {err_theirs}")
        self.assertLess(err_theirs, 80, f"gr-fec {err_theirs} errors: the reference chain is wrong")

    def test_stream_blocks_round_trip(self):
        """Encoder -> BPSK -> noise -> decoder blocks for a punctured, a tail-biting and a K = 9
        code: every frame decoded, the bits back. One frame more is sent than checked (the last
        items of a finite stream through VOLK-aligned blocks may stay behind, qa_grfec_swap.run)."""
        for code, noise in (("cc-k7-3_4", 0.3), ("lte-tbcc-40", 0.3), ("conv-k9-561-753:k=500:term=trunc", 0.35)):
            info = gpufec.code_info(code)
            bits = random_bits(21 * info["k"])
            tb = gr.top_block()
            src = blocks.vector_source_b(bits.tolist())
            enc = gpufec.conv_encoder(code)
            c2f, bpsk, shift, add = blocks.char_to_float(1, 1), blocks.multiply_const_ff(2.0), \
                blocks.add_const_ff(-1.0), blocks.add_ff()
            nsrc = analog.noise_source_f(analog.GR_GAUSSIAN, noise, 7)
            head = blocks.head(gr.sizeof_float, 21 * info["n"])
            dec = gpufec.conv_decoder(code, backend="cpu", max_iterations=4)
            snk = blocks.vector_sink_b()
            tb.connect(src, enc, c2f, bpsk, shift, (add, 0))
            tb.connect(nsrc, (add, 1))
            tb.connect(add, head, dec, snk)
            tb.run()
            out = np.array(snk.data(), dtype=np.uint8)
            self.assertGreaterEqual(len(out), 20 * info["k"], code)
            self.assertTrue(np.array_equal(out, bits[:len(out)]), code)
            self.assertEqual(dec.failed_frames(), 0, code)

    def test_family_checks(self):
        with self.assertRaises(ValueError) as cm:
            gpufec.conv_decoder("mackay-1008-504")
        self.assertIn("ldpc_decoder", str(cm.exception))
        with self.assertRaises(ValueError):
            gpufec.conv_encoder("cc-k7-3_4:punct=11-11")


if __name__ == "__main__":
    gr_unittest.run(qa_conv_blocks)
