#!/usr/bin/env python3
"""QA of the GF(q) LDPC blocks on real flowgraphs with fresh random data: encoder -> BPSK ->
noise -> GNU Radio's soft demodulator -> decoder, for both algorithms and schedules, byte soft
bits, a .kn file, flags of undecodable frames, parameter errors."""
import os

import numpy as np
from gnuradio import gr_unittest

from gnuradio import gpufec
from flowgraph_chain import chain as run_chain, random_bits


def chain(code, bits, noise_amplitude, input_type="float", **kw):
    enc = gpufec.nbldpc_encoder(code)
    dec = gpufec.nbldpc_decoder(code, input_type=input_type, **kw)
    return run_chain(enc, dec, bits, noise_amplitude, input_type), enc, dec


class qa_nbldpc_blocks(gr_unittest.TestCase):
    def test_every_algorithm_and_schedule(self):
        """nb-gf64-504 (rate 1/2) at noise amplitude 0.5: a raw bit error rate of 0.2-2% (0.2% if
        GNU Radio's complex noise has variance amplitude^2/2 per dimension, 2% if amplitude^2),
        none left after decoding. FFT-BP gets LLRs for the first reading (at 0.7 a fresh-noise CI
        run once left a frame undecoded: too little margin for a test that must not flake)."""
        code = "nb-gf64-504"
        enc = gpufec.nbldpc_encoder(code)
        self.assertEqual((enc.n(), enc.k()), (1008, 504))
        sigma2 = 0.5 ** 2 / 2
        for algorithm in ("min-max", "fft-bp"):
            for schedule in ("layered", "flooding"):
                bits = random_bits(6 * 504)
                out, _, dec = chain(code, bits, 0.5, algorithm=algorithm, schedule=schedule,
                                    max_iterations=20, llr_scale=2.0 / sigma2)
                what = f"{algorithm} {schedule}"
                self.assertEqual(len(out), len(bits), what)
                self.assertEqual(np.count_nonzero(out != bits), 0, what)
                self.assertEqual(dec.failed_frames(), 0, what)

    def test_qc_code_byte_input(self):
        """Seed 001's GF(32) code (rate 0.88) with byte soft bits, layered min-max."""
        code = "nb-qc-gf32-744"
        k = gpufec.nbldpc_encoder(code).k()
        bits = random_bits(3 * k)
        out, enc, dec = chain(code, bits, 0.35, input_type="int8", llr_scale=1.0 / 32)
        self.assertEqual(enc.n(), 744 * 5)
        self.assertEqual(np.count_nonzero(out != bits), 0)
        self.assertEqual(dec.failed_frames(), 0)

    def test_kn_file_and_failed_frames(self):
        """A .kn matrix from the Kaiserslautern database; far below the waterfall every frame is
        reported failed."""
        path = os.path.join(os.environ.get("GPUFEC_SOURCE_DIR", "."), "tests/data/nbldpc/N96_K48_GF64.kn")
        bits = random_bits(4 * 48)
        out, _, dec = chain(path, bits, 3.0, max_iterations=5)
        self.assertIn(dec.frames(), (4, 5))  # the chain's extra frame may or may not arrive
        self.assertGreaterEqual(dec.failed_frames(), 4)

    def test_encoder_refuses_a_code_it_cannot_encode(self):
        """nb-gf64-60000 opens (it decodes) but is too large for the generic encoder: the encoder
        block is refused at construction (issue 21: it stopped the flowgraph at run time)."""
        with self.assertRaises(Exception) as ctx:
            gpufec.nbldpc_encoder("nb-gf64-60000")
        self.assertIn("cannot be encoded", str(ctx.exception))

    def test_bad_parameters_name_the_parameter(self):
        for kw, word in [({"code": "wifi-648-1_2"}, "ldpc"), ({"code": "nb-gf12-504"}, "q must"),
                         ({"code": "nb-gf64-504", "algorithm": "nms"}, "nb_algorithm"),
                         ({"code": "nb-gf64-504", "schedule": "sometimes"}, "schedule"),
                         ({"code": "nb-gf64-504", "max_iterations": 0}, "max_iterations")]:
            with self.assertRaises(Exception) as ctx:
                gpufec.nbldpc_decoder(**kw)
            self.assertIn(word, str(ctx.exception))
        with self.assertRaises(Exception):
            gpufec.nbldpc_encoder("lte-turbo-40")

    def test_builtin_codes_listed(self):
        names = gpufec.builtin_codes("nbldpc")
        self.assertEqual(len(names), 18)
        self.assertIn("nb-gf64-5040", names)
        self.assertEqual(gpufec.code_info("nb-qc-gf32-744")["family"], "nbldpc")


if __name__ == "__main__":
    gr_unittest.run(qa_nbldpc_blocks)
