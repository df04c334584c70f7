#!/usr/bin/env python3
"""QA of gpufec.nr_tb, a 5G NR transport block from Python: its plan (segmentation and the two E
values of TS 38.212), encode -> BPSK over AWGN -> decode gives the bits back with every CRC
holding; a wrong bit count and a bad description are refused with the reason."""
import numpy as np
from gnuradio import gr_unittest

from gnuradio import gpufec


class qa_nr_tb(gr_unittest.TestCase):
    def test_plan(self):
        t = gpufec.nr_tb("tbs=5000:g=12006:qm=6:bg=2", decoder=False)
        i = t.info()
        # B = 5024 > 3840: two blocks of K' = (5024 + 48) / 2, Zc = 256; G' = 2001 = 2 x 1000 + 1
        self.assertEqual((i["C"], i["kprime"], i["zc"], i["C0"], i["E0"], i["E1"]), (2, 2536, 256, 1, 6000, 6006))
        self.assertEqual(len(i["codes"]), 2)

    def test_round_trip_through_noise(self):
        t = gpufec.nr_tb("tbs=20016:g=30002:qm=2:r=0.66", "max_iterations=20")
        rng = np.random.default_rng(7)
        bits = rng.integers(0, 2, (4, 20016), dtype=np.uint8)
        coded = t.encode(bits)
        self.assertEqual(coded.shape, (4, 30002))
        rate, ebn0 = 20016 / 30002, 10 ** (3.0 / 10)
        sigma = np.sqrt(1 / (2 * rate * ebn0))
        y = (1.0 - 2.0 * coded) + sigma * rng.standard_normal(coded.shape)
        out, ok, cb = t.decode((2 * y / sigma ** 2).astype(np.float32))
        self.assertTrue((out == bits).all())
        self.assertEqual(ok.tolist(), [1] * 4)
        self.assertEqual(cb.shape, (4, 3))
        self.assertTrue(cb.all())
        # erasures only: not decoded
        _, ok, _ = t.decode(np.zeros(30002, dtype=np.float32))
        self.assertEqual(ok.tolist(), [0])

    def test_refusals(self):
        t = gpufec.nr_tb("tbs=100:g=300:qm=2:r=0.5")
        with self.assertRaisesRegex(ValueError, "whole number of transport blocks of 300"):
            t.decode(np.zeros(299, dtype=np.float32))
        with self.assertRaisesRegex(ValueError, "qm=3"):
            gpufec.nr_tb("tbs=100:g=300:qm=3:bg=2")
        with self.assertRaisesRegex(ValueError, "max_iterations"):
            gpufec.nr_tb("tbs=100:g=300:qm=2:bg=2", "max_iterations=0")


if __name__ == "__main__":
    gr_unittest.run(qa_nr_tb)
