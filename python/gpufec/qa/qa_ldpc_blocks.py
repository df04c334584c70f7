#!/usr/bin/env python3
"""QA of the gpufec GNU Radio blocks, on real flowgraphs with fresh random data."""
import math
import time

import numpy as np
import pmt
from gnuradio import analog, blocks, digital, gr, gr_unittest

from gnuradio import gpufec

CODE = "mackay-1008-504"


def random_bits(count, rng=np.random.default_rng()):
    return rng.integers(0, 2, count, dtype=np.uint8)


def encode(code, bits):
    tb = gr.top_block()
    src = blocks.vector_source_b(bits.tolist())
    enc = gpufec.ldpc_encoder(code)
    snk = blocks.vector_sink_b()
    tb.connect(src, enc, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8), enc


def decode(soft, code=CODE, **kw):
    tb = gr.top_block()
    src = blocks.vector_source_f(np.asarray(soft, dtype=np.float32).tolist())
    dec = gpufec.ldpc_decoder(code, **kw)
    snk = blocks.vector_sink_b()
    tb.connect(src, dec, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8), dec


class qa_ldpc_blocks(gr_unittest.TestCase):
    def test_encoder_decoder_roundtrip_noise_free(self):
        info = gpufec.code_info(CODE)
        frames = 7
        bits = random_bits(frames * info["k"])
        cw, enc = encode(CODE, bits)
        self.assertEqual(len(cw), frames * info["n"])
        pos = np.array(enc.info_positions())
        np.testing.assert_array_equal(cw.reshape(frames, -1)[:, pos].ravel(), bits)
        # GNU Radio convention (default): positive soft value means 1.
        soft = np.where(cw == 1, 4.0, -4.0)
        for alg, sched in [("spa", "flooding"), ("spa", "layered"), ("ms", "auto"), ("nms", "layered"),
                           ("oms", "flooding"), ("gallager-a", "auto"), ("gallager-b", "auto"),
                           ("pgab", "auto")]:
            out, dec = decode(soft, algorithm=alg, schedule=sched)
            np.testing.assert_array_equal(out, bits, err_msg=alg)
            self.assertEqual(dec.frames(), frames)
            self.assertEqual(dec.failed_frames(), 0)
        # Whole-codeword output gives the encoder's words back.
        out, _ = decode(soft, output_all_bits=True)
        np.testing.assert_array_equal(out, cw)

    def test_reduced_precision_decodes(self):
        """float16, int8 and int8p16 message storage decode noisy frames of a QC code like float32 does
        at a comfortable SNR, 6 dB (the CPU reference and the GPU store the same values). int8
        once had a floor here that grew with the signal (FER 7.5e-6 at 6 dB) until its channel
        values stopped at 32 steps and a row's minima at 64 (docs/codes.md); a frame reported
        decoded must be right."""
        code = "wimax-576-1_2"
        info = gpufec.code_info(code)
        frames = 20
        bits = random_bits(frames * info["k"])
        cw, _ = encode(code, bits)
        sigma = 0.5
        y = np.where(cw == 1, 1.0, -1.0) + sigma * np.random.default_rng().standard_normal(len(cw))
        soft = 2.0 * y / sigma**2  # positive means 1, true LLR magnitude
        for precision in ("float32", "float16", "int8", "int8p16"):
            out, dec = decode(soft, code=code, precision=precision)
            self.assertEqual(len(out), len(bits), precision)
            wrong = int(np.any(out.reshape(frames, -1) != bits.reshape(frames, -1), axis=1).sum())
            failed = dec.failed_frames()
            self.assertEqual(failed, 0, precision)
            self.assertLessEqual(wrong, failed, precision + ": a frame reported decoded is wrong")

    def test_punctured_shortened_code_roundtrip(self):
        """5G NR: 2Z punctured systematic bits and filler bits are handled inside the code; the
        blocks see only transmitted bits."""
        code = "5gnr-bg2-z24:k=200"
        info = gpufec.code_info(code)
        self.assertEqual(info["k"], 200)
        self.assertEqual(info["n"], 52 * 24 - 2 * 24 - (240 - 200))
        self.assertEqual((info["family"], info["n_full"], info["punctured"], info["shortened"], info["repeated"]),
                         ("ldpc", 52 * 24, 2 * 24, 40, 0))
        frames = 6
        bits = random_bits(frames * info["k"])
        cw, _ = encode(code, bits)
        self.assertEqual(len(cw), frames * info["n"])
        rng = np.random.default_rng()
        soft = 2 * ((2.0 * cw - 1.0) + 0.5 * rng.standard_normal(cw.size)) / 0.25
        out, dec = decode(soft, code=code, algorithm="nms", max_iterations=20)
        np.testing.assert_array_equal(out, bits)

    def test_erased_frames_count_as_failed(self):
        """A squelched receiver (all-zero or NaN soft bits) is not reported as healthy: such frames
        count as failed, for every algorithm (issue 8)."""
        info = gpufec.code_info(CODE)
        for soft_value in (0.0, float("nan"), -0.0):
            for alg in ("nms", "spa", "gallager-b"):
                out, dec = decode([soft_value] * (3 * info["n"]), algorithm=alg)
                self.assertEqual(dec.frames(), 3)
                self.assertEqual(dec.failed_frames(), 3, (soft_value, alg))

    def test_byte_soft_bits_decode(self):
        """input_type="int8": signed bytes from float_to_char decode like the float stream, with
        the LLR scale divided by float_to_char's scale (issue 9)."""
        for code in (CODE, "5gnr-bg2-z24:k=200"):
            info = gpufec.code_info(code)
            frames = 12
            bits = random_bits(frames * info["k"])
            cw, _ = encode(code, bits)
            sigma = 0.6
            y = np.where(cw == 1, 1.0, -1.0) + sigma * np.random.default_rng().standard_normal(len(cw))
            scale = 16.0
            for alg in ("nms", "spa"):
                tb = gr.top_block()
                src = blocks.vector_source_f(y.astype(np.float32).tolist())
                to_char = blocks.float_to_char(1, scale)
                dec = gpufec.ldpc_decoder(code, alg, 30, llr_scale=2.0 / sigma**2 / scale, input_type="int8")
                snk = blocks.vector_sink_b()
                tb.connect(src, to_char, dec, snk)
                tb.run()
                out = np.array(snk.data(), dtype=np.uint8)
                np.testing.assert_array_equal(out, bits, err_msg=f"{code} {alg}")
                self.assertEqual(dec.failed_frames(), 0)
        with self.assertRaises(ValueError):
            gpufec.ldpc_decoder(CODE, input_type="int16")

    def test_stats_port_posts_once_per_interval(self):
        """stats_interval=N posts one message each time N more frames are decoded, with the
        counts up to that frame, however the scheduler batches the frames (issue 8)."""
        info = gpufec.code_info(CODE)
        frames = 50
        soft = np.where(np.zeros(frames * info["n"]) == 0, -4.0, 4.0)  # all-zero codewords
        for interval, want in ((1, 50), (7, 7), (50, 1), (60, 0)):
            tb = gr.top_block()
            src = blocks.vector_source_f(soft.tolist())
            dec = gpufec.ldpc_decoder(CODE, stats_interval=interval)
            dbg = blocks.message_debug()
            tb.connect(src, dec, blocks.null_sink(gr.sizeof_char))
            tb.msg_connect(dec, "stats", dbg, "store")
            tb.run()
            self.assertEqual(dbg.num_messages(), want, interval)
            if want:
                last = dbg.get_message(want - 1)
                self.assertEqual(pmt.to_uint64(pmt.dict_ref(last, pmt.mp("frames"), pmt.PMT_NIL)),
                                 want * interval)

    def test_tags_follow_frames_and_lengths_are_rewritten(self):
        """A packet_len tag counting soft bits becomes the output length of the frames it covers;
        other tags move to the same place of the same frame in the output (issue 8)."""
        info = gpufec.code_info(CODE)
        n, k = info["n"], info["k"]
        frames = 4
        soft = [-4.0] * (frames * n)
        tags = [gr.tag_utils.python_to_tag((0, pmt.mp("packet_len"), pmt.from_long(frames * n))),
                gr.tag_utils.python_to_tag((2 * n + n // 2, pmt.mp("marker"), pmt.from_long(7)))]
        tb = gr.top_block()
        src = blocks.vector_source_f(soft, False, 1, tags)
        dec = gpufec.ldpc_decoder(CODE)
        snk = blocks.vector_sink_b()
        tb.connect(src, dec, snk)
        tb.run()
        got = {pmt.symbol_to_string(t.key): (t.offset, pmt.to_long(t.value)) for t in snk.tags()
               if pmt.symbol_to_string(t.key) in ("packet_len", "marker")}  # not the per-frame gpufec_* tags
        self.assertEqual(got["packet_len"], (0, frames * k))
        self.assertEqual(got["marker"], (2 * k + k // 2, 7))

    def test_bad_arguments_name_the_parameter(self):
        """Errors say which parameter is wrong and why; a code name with a NUL byte is refused,
        not cut short (issue 8)."""
        for kw, text in (({"max_iterations": 0}, "max_iterations=0"), ({"norm": float("nan")}, "norm=nan"),
                         ({"device": -1}, "device=-1"), ({"algorithm": "spa", "precision": "int8"}, "precision=int8")):
            with self.assertRaises((ValueError, RuntimeError)) as cm:
                gpufec.ldpc_decoder(CODE, **kw)
            self.assertIn(text, str(cm.exception), kw)
        with self.assertRaises(ValueError) as cm:
            gpufec.ldpc_decoder("mackay-1008-504\0junk")
        self.assertIn("NUL", str(cm.exception))
        # another family's code: its LDPC parameters would be ignored (issue 21)
        for code, block in (("lte-turbo-40", "turbo_decoder"), ("nb-gf16-504", "nbldpc_decoder")):
            with self.assertRaises(ValueError) as cm:
                gpufec.ldpc_decoder(code)
            self.assertIn(block, str(cm.exception))
        with self.assertRaises(RuntimeError) as cm:
            gpufec.ldpc_decoder("5gnr-bg1-z24", algorithm="gallager-b")
        self.assertIn("punctured", str(cm.exception))

    def test_codeword_output_is_the_transmitted_frame(self):
        """Codeword output of a punctured and/or shortened code is the n transmitted bits the
        encoder emitted, not the longer mother codeword (issue 8)."""
        for code in ("5gnr-bg2-z52", "ar4ja-1_2-1024", "5gnr-bg2-z24:k=200"):
            info = gpufec.code_info(code)
            frames = 3
            bits = random_bits(frames * info["k"])
            cw, _ = encode(code, bits)
            soft = np.where(cw == 1, 4.0, -4.0)
            out, dec = decode(soft, code=code, output_all_bits=True)
            self.assertEqual(len(out), frames * info["n"], code)
            np.testing.assert_array_equal(out, cw, err_msg=code)

    def test_default_matches_gnuradio_soft_decoder(self):
        """The default sign convention is what digital.constellation_soft_decoder_cf emits for
        GNU Radio's BPSK, and the other convention does not decode that stream."""
        info = gpufec.code_info(CODE)
        frames = 5
        bits = random_bits(frames * info["k"])
        bpsk = digital.constellation_bpsk().base()
        results = {}
        for conv in ["positive_one", "positive_zero"]:
            tb = gr.top_block()
            # One more frame than is checked: the end of a stream through add_cc (whose noise
            # input never ends) may lose a few items (see flowgraph_chain.chain).
            src = blocks.vector_source_b(np.concatenate([bits, random_bits(info["k"])]).tolist())
            enc = gpufec.ldpc_encoder(CODE)
            mod = digital.chunks_to_symbols_bc(bpsk.points())
            noise = analog.noise_source_c(analog.GR_GAUSSIAN, 0.6, 5)
            add = blocks.add_cc()
            demod = digital.constellation_soft_decoder_cf(bpsk)
            dec = gpufec.ldpc_decoder(CODE, "nms", 30, sign_convention=conv)
            snk = blocks.vector_sink_b()
            tb.connect(src, enc, mod, add, demod, dec, snk)
            tb.connect(noise, (add, 1))
            tb.run()
            out = np.array(snk.data(), dtype=np.uint8)
            self.assertGreaterEqual(len(out), len(bits))
            out = out[:len(bits)]
            failed = sum(not pmt.to_bool(t.value) for t in snk.tags()
                         if pmt.symbol_to_string(t.key) == "gpufec_ok" and t.offset < len(bits))
            results[conv] = (np.count_nonzero(out != bits), failed)
        self.assertEqual(results["positive_one"], (0, 0))
        self.assertGreater(results["positive_zero"][0], len(bits) // 4)

    def test_noisy_awgn_improves_ber(self):
        info = gpufec.code_info(CODE)
        frames = 60
        n, k = info["n"], info["k"]
        bits = random_bits(frames * k)
        cw, _ = encode(CODE, bits)
        ebn0 = 2.5
        sigma2 = 1.0 / (2 * info["rate"] * 10 ** (ebn0 / 10))
        rng = np.random.default_rng()
        y = (2.0 * cw - 1.0) + math.sqrt(sigma2) * rng.standard_normal(cw.size)  # +1 means bit 1
        raw_errors = np.count_nonzero((y > 0).astype(np.uint8) != cw)
        out, dec = decode(2 * y / sigma2, algorithm="spa", max_iterations=30)
        errors = np.count_nonzero(out != bits)
        self.assertLess(errors * 20, raw_errors * k / n)
        self.assertGreater(dec.mean_iterations(), 1.0)

    def test_every_complete_frame_decoded_partial_dropped(self):
        info = gpufec.code_info(CODE)
        n, k = info["n"], info["k"]
        bits = random_bits(5 * k)
        cw, _ = encode(CODE, bits)
        soft = np.where(cw == 1, 3.0, -3.0)
        # 5 frames and a half in small batches: 5 frames out, nothing held back.
        soft = np.concatenate([soft, soft[: n // 2]])
        out, dec = decode(soft, max_batch=2)
        np.testing.assert_array_equal(out, bits)
        self.assertEqual(dec.frames(), 5)

    def test_streaming_does_not_hold_frames(self):
        """A frame that has arrived is decoded while the flowgraph keeps running."""
        info = gpufec.code_info(CODE)
        bits = random_bits(info["k"])
        cw, _ = encode(CODE, bits)
        tb = gr.top_block()
        src = blocks.vector_source_f(np.where(cw == 1, 3.0, -3.0).astype(np.float32).tolist(), True)
        head = blocks.head(gr.sizeof_float, info["n"] * 3)
        thr = blocks.throttle(gr.sizeof_float, info["n"] * 20)
        dec = gpufec.ldpc_decoder(CODE, max_batch=64)
        snk = blocks.vector_sink_b()
        tb.connect(src, head, thr, dec, snk)
        tb.start()
        deadline = time.monotonic() + 10
        while dec.frames() < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        self.assertGreaterEqual(dec.frames(), 1)
        tb.stop()
        tb.wait()

    def test_runtime_iterations_and_stats_port(self):
        info = gpufec.code_info(CODE)
        frames = 6
        bits = random_bits(frames * info["k"])
        cw, _ = encode(CODE, bits)
        sigma2 = 1.0  # deliberately noisy: iterations run out
        rng = np.random.default_rng()
        soft = 2 * ((2.0 * cw - 1.0) + rng.standard_normal(cw.size)) / sigma2
        tb = gr.top_block()
        src = blocks.vector_source_f(soft.astype(np.float32).tolist())
        dec = gpufec.ldpc_decoder(CODE, "nms", 50, stats_interval=2)
        dec.set_max_iterations(3)
        self.assertEqual(dec.max_iterations(), 3)
        snk = blocks.vector_sink_b()
        dbg = blocks.message_debug()
        tb.connect(src, dec, snk)
        tb.msg_connect(dec, "stats", dbg, "store")
        tb.run()
        self.assertLessEqual(dec.mean_iterations(), 3.0)
        self.assertGreaterEqual(dbg.num_messages(), 1)
        msg = dbg.get_message(dbg.num_messages() - 1)
        self.assertTrue(pmt.is_dict(msg))
        self.assertEqual(pmt.to_uint64(pmt.dict_ref(msg, pmt.mp("frames"), pmt.PMT_NIL)), dec.frames())
        self.assertEqual(pmt.symbol_to_string(pmt.dict_ref(msg, pmt.mp("backend"), pmt.PMT_NIL)),
                         dec.backend())

    def test_nan_and_inf_soft_bits(self):
        info = gpufec.code_info(CODE)
        bits = random_bits(3 * info["k"])
        cw, _ = encode(CODE, bits)
        soft = np.where(cw == 1, 5.0, -5.0)
        soft[::97] = np.nan
        soft[1::131] = np.where(cw[1::131] == 1, np.inf, -np.inf)
        out, dec = decode(soft)
        np.testing.assert_array_equal(out, bits)

    def test_bad_parameters_raise(self):
        with self.assertRaises(ValueError):
            gpufec.ldpc_decoder("no-such-code")
        with self.assertRaises(ValueError):
            gpufec.ldpc_decoder(CODE, "bogus")
        with self.assertRaises(ValueError):
            gpufec.ldpc_decoder(CODE, backend="tpu")
        with self.assertRaises(ValueError):
            gpufec.ldpc_decoder(CODE, sign_convention="sideways")
        with self.assertRaises(ValueError):
            gpufec.ldpc_decoder(CODE, schedule="sideways")
        with self.assertRaises(ValueError):
            gpufec.ldpc_decoder(CODE, precision="int4")
        with self.assertRaises(RuntimeError):  # reduced precision is defined for min-sum only
            gpufec.ldpc_decoder(CODE, "spa", precision="int8")
        with self.assertRaises(ValueError):
            gpufec.ldpc_decoder(CODE, max_iterations=0)
        with self.assertRaises(ValueError):
            gpufec.ldpc_encoder("/nonexistent/matrix.alist")
        dec = gpufec.ldpc_decoder(CODE)
        with self.assertRaises(ValueError):
            dec.set_max_iterations(0)
        if not gpufec.cuda_available():
            with self.assertRaises(RuntimeError):
                gpufec.ldpc_decoder(CODE, backend="cuda")
            self.assertEqual(gpufec.ldpc_decoder(CODE, backend="auto").backend(), "cpu")

    def test_cuda_matches_cpu(self):
        if not gpufec.cuda_available():
            self.skipTest("no usable CUDA GPU")
        info = gpufec.code_info(CODE)
        frames = 40
        bits = random_bits(frames * info["k"])
        cw, _ = encode(CODE, bits)
        rng = np.random.default_rng()
        soft = 2 * ((2.0 * cw - 1.0) + 0.8 * rng.standard_normal(cw.size)) / 0.64
        cpu, _ = decode(soft, algorithm="nms", backend="cpu", schedule="flooding")
        gpu, dec = decode(soft, algorithm="nms", backend="cuda", schedule="flooding")
        self.assertEqual(dec.backend(), "cuda")
        np.testing.assert_array_equal(cpu, gpu)


if __name__ == "__main__":
    gr_unittest.run(qa_ldpc_blocks)
