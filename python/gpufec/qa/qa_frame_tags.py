#!/usr/bin/env python3
"""QA of how every family's decoder block frames its input and what it tells downstream about each
frame: the tags on the first output bit of a frame (gpufec_frame, gpufec_iterations, gpufec_ok)
and drop_failed, on clean frames with two erased ones (an erased frame never decodes) among
them; tagged streams (packet_len), whose packets set where frames start, with packet tails and
gaps between packets skipped."""
import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest, pdu

from gnuradio import gpufec
from flowgraph_chain import encode, random_bits

FAMILIES = [  # encoder, decoder, code, decoder keywords
    (gpufec.ldpc_encoder, gpufec.ldpc_decoder, "wifi-648-1_2", {}),
    (gpufec.turbo_encoder, gpufec.turbo_decoder, "lte-turbo-256:crc=24a", {}),
    (gpufec.nbldpc_encoder, gpufec.nbldpc_decoder, "nb-gf16-504", {}),
]
FRAMES, ERASED = 6, (2, 4)


def decode(dec, soft):
    tb = gr.top_block()
    src, snk = blocks.vector_source_f(soft.tolist()), blocks.vector_sink_b()
    tb.connect(src, dec, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8), snk.tags()


class qa_frame_tags(gr_unittest.TestCase):
    def run_family(self, enc_make, dec_make, code, kw, drop):
        enc = enc_make(code)
        n, k = enc.n(), enc.k()
        bits = random_bits(FRAMES * k)
        coded = encode(enc_make, code, bits)
        soft = coded.astype(np.float32) * 8.0 - 4.0  # positive means 1, as GNU Radio's demodulators
        for f in ERASED:
            soft[f * n:(f + 1) * n] = 0.0
        dec = dec_make(code, drop_failed=drop, **kw)
        out, tags = decode(dec, soft)
        kept = [f for f in range(FRAMES) if not (drop and f in ERASED)]
        self.assertEqual(len(out), len(kept) * k, code)
        for slot, f in enumerate(kept):
            if f not in ERASED:
                self.assertTrue(np.array_equal(out[slot * k:(slot + 1) * k], bits[f * k:(f + 1) * k]), (code, f))
        by_key = {}
        for t in tags:
            by_key.setdefault(str(t.key), []).append(t)
        frames = by_key.get("gpufec_frame", [])
        self.assertEqual([t.offset for t in frames], [slot * k for slot in range(len(kept))], code)
        self.assertEqual([pmt.to_uint64(t.value) for t in frames], kept, code)
        ok = [pmt.to_bool(t.value) for t in by_key.get("gpufec_ok", [])]
        self.assertEqual(ok, [f not in ERASED for f in kept], code)
        iters = [pmt.to_long(t.value) for t in by_key.get("gpufec_iterations", [])]
        self.assertEqual(len(iters), len(kept), code)
        self.assertTrue(all(i >= 0 for i in iters), code)
        self.assertEqual((dec.frames(), dec.failed_frames()), (FRAMES, len(ERASED)), code)

    def test_tags_on_every_frame(self):
        for enc_make, dec_make, code, kw in FAMILIES:
            self.run_family(enc_make, dec_make, code, kw, drop=False)

    def test_drop_failed(self):
        for enc_make, dec_make, code, kw in FAMILIES:
            self.run_family(enc_make, dec_make, code, kw, drop=True)

    def test_tagged_stream_sets_frame_starts(self):
        """junk (7) | packet A: packet_len 2n+3 (two frames and a 3-value tail) | packet B:
        packet_len n | junk (5) | packet C: packet_len n - 1 (no whole frame). Frames A0, A1, B0
        come out; the packet_len tags become 2k and k (C's is dropped with it)."""
        for enc_make, dec_make, code, kw in FAMILIES:
            enc = enc_make(code)
            n, k = enc.n(), enc.k()
            bits = random_bits(4 * k)
            soft = encode(enc_make, code, bits).astype(np.float32) * 8.0 - 4.0
            junk = lambda m: np.full(m, 4.0, dtype=np.float32)  # noqa: E731
            frame = lambda f: soft[f * n:(f + 1) * n]  # noqa: E731
            parts = [junk(7), frame(0), frame(1), junk(3), frame(2), junk(5), frame(3)[:n - 1]]
            starts = np.cumsum([0] + [len(p) for p in parts])
            stream = np.concatenate(parts)
            tags = [gr.tag_utils.python_to_tag((int(starts[1]), pmt.mp("packet_len"), pmt.from_long(2 * n + 3))),
                    gr.tag_utils.python_to_tag((int(starts[4]), pmt.mp("packet_len"), pmt.from_long(n))),
                    gr.tag_utils.python_to_tag((int(starts[6]), pmt.mp("packet_len"), pmt.from_long(n - 1)))]
            tb = gr.top_block()
            src = blocks.vector_source_f(stream.tolist(), False, 1, tags)
            dec = dec_make(code, **kw)
            snk = blocks.vector_sink_b()
            tb.connect(src, dec, snk)
            tb.run()
            out = np.array(snk.data(), dtype=np.uint8)
            self.assertEqual(len(out), 3 * k, code)
            self.assertTrue(np.array_equal(out, bits[:3 * k]), code)
            lengths = [(t.offset, pmt.to_long(t.value)) for t in snk.tags()
                       if pmt.symbol_to_string(t.key) == "packet_len"]
            self.assertEqual(lengths, [(0, 2 * k), (2 * k, k)], code)
            self.assertEqual((dec.frames(), dec.failed_frames()), (3, 0), code)

    def test_drop_failed_on_tagged_stream(self):
        """drop_failed on a tagged stream (issue 21): packet A (3 frames, the middle one erased),
        packet B (2 frames, both erased), packet C (1 frame), a non-integer packet_len between
        them. The packet_len tags on the output count the frames that are there (2k, then k; B
        disappears whole), so tagged_stream_to_pdu downstream makes exactly the PDUs A' and C and
        its thread lives on."""
        for enc_make, dec_make, code, kw in FAMILIES:
            enc = enc_make(code)
            n, k = enc.n(), enc.k()
            bits = random_bits(6 * k)
            soft = encode(enc_make, code, bits).astype(np.float32) * 8.0 - 4.0
            for f in (1, 3, 4):
                soft[f * n:(f + 1) * n] = 0.0
            stream = np.concatenate([np.full(5, 4.0, np.float32), soft[:3 * n], soft[3 * n:5 * n],
                                     np.full(7, 4.0, np.float32), soft[5 * n:]])
            tags = [gr.tag_utils.python_to_tag((5, pmt.mp("packet_len"), pmt.from_long(3 * n))),
                    gr.tag_utils.python_to_tag((5 + 3 * n, pmt.mp("packet_len"), pmt.from_long(2 * n))),
                    gr.tag_utils.python_to_tag((5 + 5 * n, pmt.mp("packet_len"), pmt.intern("seven"))),
                    gr.tag_utils.python_to_tag((12 + 5 * n, pmt.mp("packet_len"), pmt.from_uint64(n)))]
            tb = gr.top_block()
            src = blocks.vector_source_f(stream.tolist(), False, 1, tags)
            dec = dec_make(code, drop_failed=True, **kw)
            snk = blocks.vector_sink_b()
            to_pdu = pdu.tagged_stream_to_pdu(gr.types.byte_t, "packet_len")
            dbg = blocks.message_debug()
            tb.connect(src, dec, snk)
            tb.connect(dec, to_pdu)
            tb.msg_connect(to_pdu, "pdus", dbg, "store")
            tb.run()
            out = np.array(snk.data(), dtype=np.uint8)
            kept = [0, 2, 5]
            self.assertTrue(np.array_equal(out, np.concatenate([bits[f * k:(f + 1) * k] for f in kept])), code)
            lengths = [(t.offset, pmt.to_long(t.value)) for t in snk.tags()
                       if pmt.symbol_to_string(t.key) == "packet_len"]
            self.assertEqual(lengths, [(0, 2 * k), (2 * k, k)], code)
            self.assertEqual(dbg.num_messages(), 2, code)
            pdus = [np.array(pmt.u8vector_elements(pmt.cdr(dbg.get_message(i))), dtype=np.uint8) for i in range(2)]
            self.assertTrue(np.array_equal(pdus[0], out[:2 * k]), code)
            self.assertTrue(np.array_equal(pdus[1], out[2 * k:]), code)
            self.assertEqual((dec.frames(), dec.failed_frames()), (6, 3), code)


if __name__ == "__main__":
    gr_unittest.run(qa_frame_tags)
