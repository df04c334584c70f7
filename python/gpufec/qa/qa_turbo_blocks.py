#!/usr/bin/env python3
"""QA of the LTE turbo blocks on real flowgraphs with fresh random data: encoder -> BPSK ->
noise -> GNU Radio's soft demodulator -> decoder, CRC flags, rate matching, byte soft bits,
parameter errors."""
import numpy as np
from gnuradio import gr_unittest

from gnuradio import gpufec
from flowgraph_chain import chain as run_chain, random_bits


def chain(code, bits, noise_amplitude, input_type="float", **kw):
    """bits -> turbo_encoder -> BPSK -> + noise -> soft demodulator -> turbo_decoder."""
    enc = gpufec.turbo_encoder(code)
    dec = gpufec.turbo_decoder(code, input_type=input_type, **kw)
    return run_chain(enc, dec, bits, noise_amplitude, input_type), enc, dec


class qa_turbo_blocks(gr_unittest.TestCase):
    def test_noisy_chain_decodes(self):
        """At Es/N0 about 1.9 dB (noise amplitude 0.8 per dimension of unit-energy BPSK) the raw
        bit error rate is about 5%; the turbo decoder leaves none, and every CRC holds."""
        code = "lte-turbo-1024:crc=24a"
        enc = gpufec.turbo_encoder(code)
        k = enc.k()
        self.assertEqual((enc.n(), k), (3 * 1028, 1000))
        frames = 8
        bits = random_bits(frames * k)
        out, _, dec = chain(code, bits, 0.8, max_iterations=8, llr_scale=1.0)
        self.assertEqual(len(out), len(bits))
        self.assertEqual(np.count_nonzero(out != bits), 0)
        self.assertIn(dec.frames(), (frames, frames + 1))  # the chain's extra frame may or may not arrive
        self.assertEqual(dec.failed_frames(), 0)

    def test_rate_matched_byte_input_subblocks(self):
        """Rate 1/2 by rate matching (E = 2048 for K = 1024), byte soft bits, P = 16 with PIVI."""
        code = "lte-turbo-1024:crc=24b:e=2048:rv=0"
        k = gpufec.turbo_encoder(code).k()
        bits = random_bits(6 * k)
        out, enc, dec = chain(code, bits, 0.45, input_type="int8", subblocks=16, guard="pivi",
                              llr_scale=1.0 / 32)
        self.assertEqual(enc.n(), 2048)
        self.assertEqual(np.count_nonzero(out != bits), 0)
        self.assertEqual(dec.failed_frames(), 0)

    def test_every_arithmetic_decodes(self):
        """float (the reference), int16 and int8 (the CPU's fixed-point decoder; on a GPU machine
        with backend auto the GPU's float) all clean up a 5% raw bit error rate; auto (the default)
        is what test_noisy_chain_decodes ran."""
        code = "lte-turbo-1024:crc=24a"
        k = gpufec.turbo_encoder(code).k()
        for arithmetic in ("float", "int16", "int8"):
            bits = random_bits(5 * k)
            out, _, dec = chain(code, bits, 0.8, arithmetic=arithmetic, backend="cpu")
            self.assertEqual(len(out), len(bits), arithmetic)
            self.assertEqual(np.count_nonzero(out != bits), 0, arithmetic)
            self.assertEqual(dec.failed_frames(), 0, arithmetic)

    def test_wrong_frames_are_flagged(self):
        """Far below the waterfall the CRC fails: such frames count as failed."""
        code = "lte-turbo-512:crc=24a"
        k = gpufec.turbo_encoder(code).k()
        bits = random_bits(4 * k)
        out, _, dec = chain(code, bits, 3.0, max_iterations=4)
        self.assertIn(dec.frames(), (4, 5))  # the chain's extra frame may or may not arrive
        self.assertEqual(dec.failed_frames(), dec.frames())

    def test_set_max_iterations_on_every_arithmetic(self):
        """set_max_iterations reaches the decoder on every CPU arithmetic (issue 21: the fixed-point
        SIMD path kept the count it was created with). Far below the waterfall no frame stops
        early, so every frame runs the new limit."""
        code = "lte-turbo-512:crc=24a"
        k = gpufec.turbo_encoder(code).k()
        for arithmetic in ("float", "int16", "int8"):
            enc = gpufec.turbo_encoder(code)
            dec = gpufec.turbo_decoder(code, max_iterations=8, arithmetic=arithmetic, backend="cpu")
            dec.set_max_iterations(2)
            self.assertEqual(dec.max_iterations(), 2)
            run_chain(enc, dec, random_bits(4 * k), 3.0)
            self.assertEqual(dec.mean_iterations(), 2.0, arithmetic)

    def test_bad_parameters_name_the_parameter(self):
        for kw, word in [({"code": "wifi-648-1_2"}, "ldpc"), ({"code": "lte-turbo-41"}, "lte-turbo-41"),
                         ({"code": "lte-turbo-40", "algorithm": "nms"}, "turbo_algorithm"),
                         ({"code": "lte-turbo-40", "guard": "both"}, "guard"),
                         ({"code": "lte-turbo-40", "subblocks": 0}, "subblocks"),
                         ({"code": "lte-turbo-40", "arithmetic": "int4"}, "arithmetic"),
                         ({"code": "lte-turbo-40", "arithmetic": "int16", "subblocks": 4}, "subblocks")]:
            with self.assertRaises(Exception) as ctx:
                gpufec.turbo_decoder(**kw)
            self.assertIn(word, str(ctx.exception))
        with self.assertRaises(Exception):
            gpufec.turbo_encoder("mackay-1008-504")

    def test_builtin_turbo_codes_listed(self):
        names = gpufec.builtin_codes("turbo")
        self.assertEqual(len(names), 188)
        self.assertIn("lte-turbo-6144", names)
        self.assertEqual(gpufec.code_info("lte-turbo-6144:crc=24a")["family"], "turbo")


if __name__ == "__main__":
    gr_unittest.run(qa_turbo_blocks)
