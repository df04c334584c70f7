#!/usr/bin/env python3
"""QA of gpufec.nr_tb, a 5G NR transport block from Python: its plan (segmentation and the two E
values of TS 38.212), encode -> BPSK over AWGN -> decode gives the bits back with every CRC
holding; a wrong bit count and a bad description are refused with the reason. Then the PDU block
nr_tb_decoder in a flowgraph: two transport blocks per PDU decode, a PDU of the wrong length
comes back empty with gpufec_error and the block goes on."""
import time

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest

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

    def test_pdu_block(self):
        desc = "tbs=5000:g=12006:qm=6:bg=2"
        t = gpufec.nr_tb(desc, decoder=False)
        rng = np.random.default_rng(11)
        bits = rng.integers(0, 2, (2, 5000), dtype=np.uint8)
        coded = t.encode(bits).astype(np.float32)
        sigma2 = 0.3
        # GNU Radio's soft decoders' sign: positive = bit 1; llr_scale turns them into LLRs
        y = (2.0 * coded - 1.0) + np.sqrt(sigma2) * rng.standard_normal(coded.shape).astype(np.float32)
        dec = gpufec.nr_tb_decoder(desc, "max_iterations=20", "positive_one", 2.0 / sigma2)
        tb = gr.top_block()
        dbg = blocks.message_debug()
        tb.msg_connect(dec, "pdus", dbg, "store")
        tb.start()
        port = pmt.intern("pdus")
        dec.to_basic_block()._post(port, pmt.cons(pmt.make_dict(), pmt.init_f32vector(y.size, y.ravel().tolist())))
        dec.to_basic_block()._post(port, pmt.cons(pmt.make_dict(), pmt.init_f32vector(5, [0.0] * 5)))
        deadline = time.time() + 30
        while dbg.num_messages() < 2 and time.time() < deadline:
            time.sleep(0.01)
        tb.stop()
        tb.wait()
        self.assertEqual(dbg.num_messages(), 2)
        good, bad = dbg.get_message(0), dbg.get_message(1)
        out = np.array(pmt.u8vector_elements(pmt.cdr(good)), dtype=np.uint8)
        self.assertTrue((out == bits.ravel()).all())
        self.assertEqual(list(pmt.u8vector_elements(pmt.dict_ref(pmt.car(good), pmt.intern("gpufec_tb_ok"),
                                                                  pmt.PMT_NIL))), [1, 1])
        self.assertEqual(pmt.to_long(pmt.dict_ref(pmt.car(good), pmt.intern("gpufec_code_blocks"), pmt.PMT_NIL)), 2)
        self.assertIn("not a whole number of transport blocks",
                      pmt.symbol_to_string(pmt.dict_ref(pmt.car(bad), pmt.intern("gpufec_error"), pmt.PMT_NIL)))
        self.assertEqual(pmt.length(pmt.cdr(bad)), 0)
        self.assertEqual((dec.transport_blocks(), dec.failed_transport_blocks()), (2, 0))


if __name__ == "__main__":
    gr_unittest.run(qa_nr_tb)
