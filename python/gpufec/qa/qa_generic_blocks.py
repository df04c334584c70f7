#!/usr/bin/env python3
"""QA of the family-neutral blocks (issue 23): gpufec.encoder and gpufec.decoder take any code and
the library's option text, and decide exactly as the family blocks do with the same settings, on
fresh random data through a real flowgraph; bad options and codes are refused at construction."""
import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import gpufec
from flowgraph_chain import chain, encode, random_bits


def decode(dec, soft):
    """Soft values (float or int8) through dec, as a finite stream: the decoded bits."""
    tb = gr.top_block()
    src = blocks.vector_source_b(soft.tolist()) if soft.dtype == np.int8 else blocks.vector_source_f(soft.tolist())
    snk = blocks.vector_sink_b()
    tb.connect(src, dec, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8)


class qa_generic_blocks(gr_unittest.TestCase):
    def test_encoder_equals_family_encoders(self):
        """gpufec.encoder emits what each family's encoder emits, bit for bit."""
        for code, family in (("wifi-648-1_2", gpufec.ldpc_encoder), ("lte-turbo-256:crc=24a:e=600:rv=2",
                             gpufec.turbo_encoder), ("nb-gf16-504", gpufec.nbldpc_encoder)):
            k = family(code).k()
            bits = random_bits(3 * k)
            ours, theirs = encode(gpufec.encoder, code, bits), encode(family, code, bits)
            self.assertEqual(len(ours), 3 * gpufec.encoder(code).n(), code)
            self.assertTrue(np.array_equal(ours, theirs), code)

    def test_decoder_equals_family_decoders(self):
        """The same noisy soft values decoded by gpufec.decoder with an option text and by the
        family block with the same settings as parameters: the same bits, frame by frame."""
        rng = np.random.default_rng()
        cases = [
            ("wifi-648-1_2", "algorithm=nms max_iterations=8 schedule=layered backend=cpu",
             lambda: gpufec.ldpc_decoder("wifi-648-1_2", algorithm="nms", max_iterations=8, schedule="layered",
                                         backend="cpu")),
            ("lte-turbo-256:crc=24a", "turbo_algorithm=maxlogmap max_iterations=6 arithmetic=float backend=cpu",
             lambda: gpufec.turbo_decoder("lte-turbo-256:crc=24a", max_iterations=6, arithmetic="float",
                                          backend="cpu")),
            ("nb-gf16-504", "nb_algorithm=min-max max_iterations=10 schedule=layered backend=cpu",
             lambda: gpufec.nbldpc_decoder("nb-gf16-504", algorithm="min-max", max_iterations=10,
                                           schedule="layered", backend="cpu")),
        ]
        for code, options, family in cases:
            enc = gpufec.encoder(code)
            frames = 6
            bits = random_bits(frames * enc.k())
            cw = encode(gpufec.encoder, code, bits).astype(np.float32)
            soft = ((2 * cw - 1) + rng.normal(0, 0.8, cw.size)).astype(np.float32)  # positive means 1
            dec = gpufec.decoder(code, options)
            ours, theirs = decode(dec, soft), decode(family(), soft)
            self.assertEqual(len(ours), frames * enc.k(), code)
            self.assertTrue(np.array_equal(ours, theirs), code)
            self.assertEqual(dec.frames(), frames)
            self.assertEqual(dec.max_iterations(), int(options.split("max_iterations=")[1].split()[0]))
            self.assertIn("cpu", dec.variant())

    def test_packed_output(self):
        """output=info-packed: each frame's bits eight per byte, first bit in the most
        significant (numpy's packbits of each frame, its last byte padded with zeros)."""
        rng = np.random.default_rng()
        for code in ("wifi-648-1_2", "lte-turbo-256:crc=24a"):  # k = 324 (a padded byte), 232
            enc = gpufec.encoder(code)
            frames = 5
            cw = encode(gpufec.encoder, code, random_bits(frames * enc.k())).astype(np.float32)
            soft = ((2 * cw - 1) + rng.normal(0, 0.5, cw.size)).astype(np.float32)  # positive means 1
            bits = decode(gpufec.decoder(code, "backend=cpu"), soft)
            packed = decode(gpufec.decoder(code, "output=info-packed backend=cpu"), soft)
            ref = np.packbits(bits.reshape(frames, enc.k()), axis=1).ravel()
            self.assertEqual(len(packed), frames * ((enc.k() + 7) // 8), code)
            self.assertTrue(np.array_equal(packed, ref), code)

    def test_noisy_chain_int8_and_codeword_output(self):
        """int8 soft bits by option (llr_scale: the LLR of one unit), and output=codeword: every
        frame of a noisy BPSK chain comes out clean, n bits a frame."""
        code = "wifi-1944-1_2"
        enc = gpufec.encoder(code)
        bits = random_bits(4 * enc.k())
        dec = gpufec.decoder(code, "input_type=int8, max_iterations=20", llr_scale=1.0 / 32)
        out = chain(enc, dec, bits, 0.6, input_type="int8")
        self.assertEqual(np.count_nonzero(out != bits), 0)
        dec_cw = gpufec.decoder(code, "output=codeword")
        self.assertEqual(dec_cw.n(), enc.n())
        cw = encode(gpufec.encoder, code, bits)
        out = decode(dec_cw, (2.0 * cw - 1.0).astype(np.float32))
        self.assertTrue(np.array_equal(out, cw))

    def test_failed_run_warns_once(self):
        """64 frames in a row that all fail (here: soft bits that are only noise, as a wrong sign
        convention or a misaligned stream would give) log one warning naming the likely causes;
        a second run of failures within the minute logs nothing more."""
        import os
        import subprocess
        import sys
        script = ("import numpy as np\nfrom gnuradio import blocks, gr, gpufec\n"
                  "tb = gr.top_block()\n"
                  "src = blocks.vector_source_f(np.random.default_rng().normal(0, 1, 648 * 200).astype(np.float32).tolist())\n"
                  "dec = gpufec.decoder('wifi-648-1_2', 'backend=cpu max_iterations=5')\n"
                  "tb.connect(src, dec, blocks.null_sink(1))\ntb.run()\nprint('failed', dec.failed_frames())\n")
        r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=os.environ)
        log = r.stdout + r.stderr  # GNU Radio's console log goes to either, by configuration
        self.assertEqual(r.returncode, 0, log[-2000:])
        self.assertIn("failed 200", r.stdout)
        self.assertEqual(log.count("frames all failed to decode"), 1, log[-2000:])
        self.assertIn("sign_convention", log)

    def test_bad_arguments_refused(self):
        """Refused when the block is made, with the library's reason."""
        bad = [
            ("wifi-648-1_2", "max_iterations=0"),
            ("wifi-648-1_2", "algorithm=bogus"),
            ("wifi-648-1_2", "turbo_algorithm=maxlogmap"),   # another family's option
            ("lte-turbo-40", "precision=int8"),
            ("wifi-648-1_2", "max_iterations"),              # not name=value
            ("wifi-648-1_2", "input_type=float16"),          # a stream carries float32 or int8
            ("no-such-code", ""),
        ]
        for code, options in bad:
            with self.assertRaises((ValueError, RuntimeError), msg=f"{code} {options!r}"):
                gpufec.decoder(code, options)
        with self.assertRaises((ValueError, RuntimeError)):
            gpufec.encoder("nb-gf64-60000")  # opens, but cannot encode
        with self.assertRaises((ValueError, RuntimeError)):
            gpufec.decoder("wifi-648-1_2", "", sign_convention="sideways")


if __name__ == "__main__":
    gr_unittest.run(qa_generic_blocks)
