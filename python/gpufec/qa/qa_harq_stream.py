#!/usr/bin/env python3
"""QA of HARQ by stream tag in the stream decoder (issue 24): frames tagged harq_process (with rv
and harq_new at the same item) combine with their process's earlier transmissions, interleaved
with other processes and untagged frames, on fresh random data through a real flowgraph."""
import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest

from gnuradio import gpufec
from flowgraph_chain import encode, random_bits

CODE = "5gnr-bg1:k=2000:e=2400:qm=2:crc=24b"  # rate 0.83: one transmission at 1.5 dB never decodes
E = 2400


def tag(offset, key, value):
    t = gr.tag_t()
    t.offset, t.key, t.value = offset, pmt.intern(key), value
    return t


def run(dec, soft, tags):
    """The soft values with their tags through dec: the output bits and, per output frame, its tags."""
    tb = gr.top_block()
    src = blocks.vector_source_f(soft.tolist(), False, 1, tags)
    snk = blocks.vector_sink_b()
    tb.connect(src, dec, snk)
    tb.run()
    by_item = {}
    for t in snk.tags():
        by_item.setdefault(t.offset, {})[pmt.symbol_to_string(t.key)] = pmt.to_python(t.value)
    return np.array(snk.data(), dtype=np.uint8), by_item


class qa_harq_stream(gr_unittest.TestCase):
    def setUp(self):
        self.k = gpufec.ldpc_encoder(CODE).k()
        self.rng = np.random.default_rng()
        self.sigma2 = 1.0 / (2.0 * (self.k / E) * 10 ** (1.5 / 10.0))

    def noisy(self, bits, rv, snr_boost=1.0):
        x = encode(gpufec.ldpc_encoder, f"{CODE}:rv={rv}", bits).astype(np.float32) * 2.0 - 1.0
        return (x + np.sqrt(self.sigma2) * snr_boost * self.rng.standard_normal(len(x))).astype(np.float32)

    def stream(self):
        """Frames: 0 process 0 rv 0 (new), 1 process 1 rv 0 (new), 2 untagged and nearly noise-free,
        3 process 0 rv 2, 4 process 1 rv 2, 5 process 0 rv 2 again (process 0 finished at 3: a new
        buffer). Returns the soft values, the tags and the information bits of each frame."""
        info = [random_bits(self.k) for _ in range(3)]  # processes 0 and 1, the untagged frame
        plan = [(0, 0, True), (1, 0, True), (None, 0, False), (0, 2, False), (1, 2, False), (0, 2, False)]
        soft, tags, sent = [], [], []
        for f, (p, rv, new) in enumerate(plan):
            bits = info[2] if p is None else info[p]
            soft.append(self.noisy(bits, rv, 0.05 if p is None else 1.0))
            sent.append(bits)
            if p is not None:
                tags.append(tag(f * E, "harq_process", pmt.from_long(p)))
                tags.append(tag(f * E, "rv", pmt.from_long(rv)))
                if new:
                    tags.append(tag(f * E, "harq_new", pmt.PMT_T))
        return np.concatenate(soft), tags, sent

    def test_processes_combine_by_tag(self):
        soft, tags, sent = self.stream()
        dec = gpufec.decoder(CODE, "backend=cpu", "positive_one", 2.0 / self.sigma2, 0, False, 4)
        out, tagged = run(dec, soft, tags)
        self.assertEqual(len(out), 6 * self.k)
        first = [tagged.get(f * self.k, {}) for f in range(6)]
        self.assertEqual([t.get("gpufec_ok") for t in first], [False, False, True, True, True, False])
        self.assertEqual([t.get("gpufec_harq_transmissions") for t in first], [1, 1, None, 2, 2, 1])
        for f in (2, 3, 4):
            self.assertTrue(np.array_equal(out[f * self.k:(f + 1) * self.k], sent[f]), f"frame {f}")
        self.assertEqual(dec.failed_frames(), 3)

    def test_codeword_output_is_the_transmission(self):
        """output=codeword: a combined frame emits the transmitted word of its own rv."""
        soft, tags, sent = self.stream()
        dec = gpufec.decoder(CODE, "backend=cpu output=codeword", "positive_one", 2.0 / self.sigma2, 0, False, 4)
        out, _ = run(dec, soft, tags)
        self.assertEqual(len(out), 6 * E)
        self.assertTrue(np.array_equal(out[3 * E:4 * E], encode(gpufec.ldpc_encoder, f"{CODE}:rv=2", sent[3])))

    def test_process_limit_and_off(self):
        """One process kept: process 1's first frame decodes on its own (no room, said once); once
        process 0 is done its buffer is free for process 1, and then process 0's next frame finds
        none; with harq_processes 0 the tags are ignored; a code without a soft buffer is refused."""
        soft, tags, _ = self.stream()
        out, tagged = run(gpufec.decoder(CODE, "backend=cpu", "positive_one", 2.0 / self.sigma2, 0, False, 1),
                          soft, tags)
        first = [tagged.get(f * self.k, {}) for f in range(6)]
        self.assertEqual([t.get("gpufec_harq_transmissions") for t in first], [1, None, None, 2, 1, None])
        self.assertEqual([t.get("gpufec_ok") for t in first], [False, False, True, True, False, False])
        out, tagged = run(gpufec.decoder(CODE, "backend=cpu", "positive_one", 2.0 / self.sigma2), soft, tags)
        self.assertEqual([tagged.get(f * self.k, {}).get("gpufec_ok") for f in range(6)],
                         [False, False, True, False, False, False])
        with self.assertRaises(ValueError):
            gpufec.decoder("wifi-648-1_2", "", "positive_one", 1.0, 0, False, 4)
        with self.assertRaises(ValueError):
            gpufec.decoder(CODE, "output=full-codeword", "positive_one", 1.0, 0, False, 4)


if __name__ == "__main__":
    gr_unittest.run(qa_harq_stream)
