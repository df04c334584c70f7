#!/usr/bin/env python3
"""gpufec.simulate: the simulator from Python returns arrays, the same statistics as the tool for a
seed (any thread count), and refuses unequal steps and unknown options with the reason."""
import os

import numpy as np
from gnuradio import gr_unittest

from gnuradio import gpufec

BUILD = os.environ.get("GPUFEC_BUILD_DIR", "")
if BUILD and not os.environ.get("GPUFEC_SIM"):
    os.environ["GPUFEC_SIM"] = os.path.join(BUILD, "apps", "gpufec-sim")


class qa_simulate(gr_unittest.TestCase):
    def test_arrays_and_thread_independence(self):
        kw = dict(ebn0=[1.0, 1.5, 2.0], min_frame_errors=20, max_frames=20000, seed=4, backend="cpu")
        one = gpufec.simulate("wifi-648-1_2", "nms", 10, threads=1, **kw)
        three = gpufec.simulate("wifi-648-1_2", "nms", 10, threads=3, **kw)
        np.testing.assert_allclose(one["x"], [1.0, 1.5, 2.0])
        for key in ("frames", "frame_errors", "bit_errors"):
            np.testing.assert_array_equal(one[key], three[key])
        self.assertTrue(np.all(one["frame_errors"] >= 20))
        self.assertTrue(np.all(np.diff(one["fer"]) < 0))  # the waterfall goes down
        self.assertEqual(one["parameters"]["code"], "wifi-648-1_2")

    def test_bsc_and_options(self):
        r = gpufec.simulate("regular-4-8-1296", "gallager-b", 50, p=0.03, channel="bsc", min_frame_errors=10,
                            max_frames=5000, backend="cpu")
        self.assertEqual(r["x"].tolist(), [0.03])
        self.assertEqual(r["parameters"]["channel"], "bsc")
        r = gpufec.simulate("wifi-648-1_2", "nms", 10, esn0=[2.0], modulation="qpsk", options={"norm": 0.8},
                            min_frame_errors=5, max_frames=2000, backend="cpu")
        self.assertEqual(r["parameters"]["options"]["norm"], "0.8")
        self.assertEqual(r["parameters"]["modulation"], "qpsk")

    def test_refusals(self):
        with self.assertRaises(ValueError):
            gpufec.simulate("wifi-648-1_2", "nms", 10, ebn0=[1.0, 1.5, 2.5])
        with self.assertRaises(ValueError):
            gpufec.simulate("wifi-648-1_2", "nms", 10, ebn0=[1.0], p=0.1)
        with self.assertRaises(RuntimeError) as ctx:
            gpufec.simulate("lte-turbo-40", "nms", 4, ebn0=[1.0])
        self.assertIn("maxlogmap", str(ctx.exception))


if __name__ == "__main__":
    gr_unittest.run(qa_simulate)
