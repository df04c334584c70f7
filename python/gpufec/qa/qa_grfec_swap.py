#!/usr/bin/env python3
"""The gr-fec drop-in: a gr-fec LDPC flowgraph (its parity-check-matrix encoder, BPSK as the FEC
examples map it, noise, fec.extended_decoder) decodes the same frames with the same results when
its decoder definition, gr-fec's bit-flip decoder, is swapped for gpufec.ldpc_decoder_def; where
the bit-flip decoder fails, ours may only do better. Also fec.decoder directly, and the GF(q) and
turbo definitions through fec.decoder."""
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import pmt
from gnuradio import analog, blocks, fec, gr, gr_unittest

from gnuradio import gpufec
from flowgraph_chain import random_bits

ALIST = "/usr/share/gnuradio/fec/ldpc/n_0100_k_0042_gap_02.alist"


def run(enc_def, dec_def, bits, noise, extended=True):
    """bits -> fec.extended_encoder -> map bit b to 2b - 1 (as gr-fec's examples) -> + noise ->
    fec.extended_decoder (or fec.decoder) -> bits, the decoded frames of `bits` only.

    GNU Radio does not promise the last few items of a finite stream through blocks that ask for
    VOLK's alignment (multiply_const_ff here, 16 floats on AVX-512 hosts, 8 on AVX2): gr-fec's
    own encoder/decoder pair loses its last frame this way. So one more frame of random bits than
    is checked is sent, everything before it is required, and it is cut off."""
    k_in = fec.get_encoder_input_size(enc_def)
    frames = len(bits) // k_in
    padded = np.concatenate([bits, random_bits(k_in)])
    tb = gr.top_block()
    src = blocks.vector_source_b(padded.tolist())
    enc = fec.extended_encoder(encoder_obj_list=enc_def, threading=None, puncpat="11")
    c2f = blocks.char_to_float(1, 1)
    bpsk = blocks.multiply_const_ff(2.0)
    shift = blocks.add_const_ff(-1.0)
    add = blocks.add_ff()
    nsrc = analog.fastnoise_source_f(analog.GR_GAUSSIAN, noise, int(np.random.default_rng().integers(1, 1 << 30)), 8192)
    head = blocks.head(gr.sizeof_float, (frames + 1) * fec.get_encoder_output_size(enc_def))
    if extended:
        dec = fec.extended_decoder(decoder_obj_list=dec_def, threading=None, ann=None, puncpat="11",
                                   integration_period=10000)
    else:
        dec = fec.decoder(dec_def, gr.sizeof_float, gr.sizeof_char)
    snk = blocks.vector_sink_b()
    tb.connect(src, enc, c2f, bpsk, shift, (add, 0))
    tb.connect(nsrc, (add, 1))
    tb.connect(add, head, dec, snk)
    tb.run()
    out = np.array(snk.data(), dtype=np.uint8)
    if len(out) < len(bits):
        raise AssertionError("%d of %d checked frames came out" % (len(out) // k_in, frames))
    return out[:len(bits)]


def three_wifi_frames():
    """Our wifi-648-1_2 decoder definition, and three encoded frames of random bits as soft values
    2b - 1: (definition, n, k, bits, soft)."""
    code = "wifi-648-1_2"
    enc = gpufec.ldpc_encoder(code)
    n, k = enc.n(), enc.k()
    bits = random_bits(3 * k)
    tb = gr.top_block()
    src, snk = blocks.vector_source_b(bits.tolist()), blocks.vector_sink_b()
    tb.connect(src, enc, snk)
    tb.run()
    soft = np.array(snk.data(), dtype=np.float32) * 2.0 - 1.0
    return gpufec.ldpc_decoder_def(code, backend="cpu"), n, k, bits, soft


@gr_unittest.unittest.skipUnless(os.path.exists(ALIST), "gr-fec's LDPC matrices are not installed")
class qa_grfec_swap(gr_unittest.TestCase):
    def setUp(self):
        self.H = fec.ldpc_H_matrix(ALIST, 2)
        self.enc_def = fec.ldpc_par_mtrx_encoder.make_H(self.H)
        self.k = fec.get_encoder_input_size(self.enc_def)

    def frames_ok(self, out, bits):
        k = self.k
        return [np.array_equal(out[f * k:(f + 1) * k], bits[f * k:(f + 1) * k]) for f in range(len(out) // k)]

    def test_swap_in_extended_decoder(self):
        ours_def = gpufec.ldpc_decoder_def(ALIST, "spa", 50, backend="cpu", info="last", llr_scale=2.0 / 0.36)
        self.assertEqual(fec.get_decoder_input_size(ours_def), 100)
        self.assertEqual(fec.get_decoder_output_size(ours_def), self.k)
        frames = 40
        bits = random_bits(frames * self.k)
        theirs_def = fec.ldpc_bit_flip_decoder.make(self.H.get_base_sptr(), 100)
        np.random.seed(0)
        theirs = run(self.enc_def, theirs_def, bits, 0.0)
        ours = run(self.enc_def, ours_def, bits, 0.0)
        # No noise: both decode every frame, identically.
        self.assertEqual(len(ours), frames * self.k)
        self.assertTrue(np.array_equal(ours, theirs))
        self.assertTrue(all(self.frames_ok(ours, bits)))
        # Noise sigma 0.6 (raw bit error rate about 5%): gr-fec's bit-flip decoder loses about a
        # third of the frames (26 of 40 decoded in one run), SPA through our definition none or
        # almost none. Each run draws its own noise, so each is checked against the sent bits.
        bits = random_bits(frames * self.k)
        ours = run(self.enc_def, ours_def, bits, 0.6)
        theirs = run(self.enc_def, theirs_def, bits, 0.6)
        ok_ours, ok_theirs = sum(self.frames_ok(ours, bits)), sum(self.frames_ok(theirs, bits))
        self.assertGreaterEqual(ok_ours, frames - 2)
        self.assertGreaterEqual(ok_ours, ok_theirs)

    def test_fec_decoder_block_and_other_families(self):
        ours_def = gpufec.ldpc_decoder_def(ALIST, info="last", backend="cpu")
        bits = random_bits(10 * self.k)
        out = run(self.enc_def, ours_def, bits, 0.0, extended=False)
        self.assertTrue(all(self.frames_ok(out, bits)))
        for dec_def, code, enc_make in [(gpufec.nbldpc_decoder_def("nb-gf16-504", backend="cpu"), "nb-gf16-504",
                                         gpufec.nbldpc_encoder),
                                        (gpufec.turbo_decoder_def("lte-turbo-256", backend="cpu"), "lte-turbo-256",
                                         gpufec.turbo_encoder)]:
            enc = enc_make(code)
            k, n = enc.k(), enc.n()
            self.assertEqual((fec.get_decoder_input_size(dec_def), fec.get_decoder_output_size(dec_def)), (n, k))
            bits = random_bits(4 * k)
            tb = gr.top_block()
            src, snk = blocks.vector_source_b(bits.tolist()), blocks.vector_sink_b()
            c2f, bpsk, shift = blocks.char_to_float(1, 1), blocks.multiply_const_ff(2.0), blocks.add_const_ff(-1.0)
            tb.connect(src, enc, c2f, bpsk, shift, fec.decoder(dec_def, gr.sizeof_float, gr.sizeof_char), snk)
            tb.run()
            self.assertTrue(np.array_equal(np.array(snk.data(), dtype=np.uint8), bits), code)

    @gr_unittest.unittest.skipIf(shutil.which("grcc") is None, "grcc not installed")
    def test_grc_definition_block_in_a_grfec_flowgraph(self):
        """GRC: gr-fec's H matrix, encoder definition and extended encoder/decoder, with our
        definition variable as the decoder; compiled with grcc and run headless."""
        blocks_yaml = """
- name: H
  id: variable_ldpc_H_matrix_def
  parameters: {filename: '"%s"', gap: '2'}
  states: {state: enabled}
- name: enc_def
  id: variable_ldpc_encoder_H_def
  parameters: {H: H, ndim: '0'}
  states: {state: enabled}
- name: dec_def
  id: variable_gpufec_ldpc_decoder_def
  parameters: {code: '%s', algorithm: nms, max_iterations: '20', info: last, backend: cpu}
  states: {state: enabled}
- name: src
  id: analog_random_uniform_source_x
  parameters: {type: byte, minimum: '0', maximum: '2', seed: '1'}
  states: {state: enabled}
- name: head
  id: blocks_head
  parameters: {type: byte, num_items: '4200', vlen: '1'}
  states: {state: enabled}
- name: enc
  id: fec_extended_encoder
  parameters: {encoder_list: enc_def, threadtype: none, puncpat: "'11'"}
  states: {state: enabled}
- name: c2f
  id: blocks_char_to_float
  parameters: {scale: '1', vlen: '1'}
  states: {state: enabled}
- name: bpsk
  id: blocks_add_const_vxx
  parameters: {type: float, const: '-0.5', vlen: '1'}
  states: {state: enabled}
- name: dec
  id: fec_extended_decoder
  parameters: {decoder_list: dec_def, threadtype: none, ann: None, puncpat: "'11'", value: fec_extended_decoder}
  states: {state: enabled}
- name: snk
  id: blocks_null_sink
  parameters: {type: byte, vlen: '1', num_inputs: '1'}
  states: {state: enabled}
""" % (ALIST, ALIST)
        text = ("options:\n  parameters: {id: swap_test, generate_options: no_gui, output_language: python, "
                "run: 'True', run_options: run, title: swap}\n  states: {state: enabled}\n\nblocks:" + blocks_yaml +
                "\nconnections:\n- [src, '0', head, '0']\n- [head, '0', enc, '0']\n- [enc, '0', c2f, '0']\n"
                "- [c2f, '0', bpsk, '0']\n- [bpsk, '0', dec, '0']\n- [dec, '0', snk, '0']\n\nmetadata:\n  file_format: 1\n")
        env = dict(os.environ)
        build = os.environ.get("GPUFEC_BUILD_DIR", "")
        env["GRC_BLOCKS_PATH"] = (os.path.join(build, "grc") if build else "") + os.pathsep + env.get("GRC_BLOCKS_PATH", "")
        # The same flowgraph with our encoder definition and the any-code decoder definition on a
        # turbo code.
        turbo = (text.replace("variable_ldpc_encoder_H_def\n  parameters: {H: H, ndim: '0'}",
                              "variable_gpufec_encoder_def\n  parameters: {code: lte-turbo-1024}")
                 .replace("variable_gpufec_ldpc_decoder_def\n  parameters: {code: '%s', algorithm: nms, "
                          "max_iterations: '20', info: last, backend: cpu}" % ALIST,
                          "variable_gpufec_decoder_def\n  parameters: {code: lte-turbo-1024, options: "
                          "'backend=cpu max_iterations=4', info: code}")
                 .replace("num_items: '4200'", "num_items: '4096'"))
        self.assertIn("variable_gpufec_encoder_def", turbo)
        self.assertIn("variable_gpufec_decoder_def", turbo)
        for name, grc in (("swap", text), ("turbo", turbo)):
            with tempfile.TemporaryDirectory() as out:
                path = os.path.join(out, name + ".grc")
                open(path, "w").write(grc)
                r = subprocess.run(["grcc", "-o", out, path], capture_output=True, text=True, env=env)
                self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
                r = subprocess.run([sys.executable, os.path.join(out, "swap_test.py")], capture_output=True,
                                   text=True, timeout=120, env=env)
                self.assertEqual(r.returncode, 0, name + ": " + r.stderr[-2000:])

    def test_our_encoder_definition(self):
        """gpufec.ldpc_encoder_def in fec.extended_encoder, decoded by gpufec.ldpc_decoder_def and
        by the gpufec decoder block: the same bits back (a DVB-S2 short code, 5G NR with
        puncturing)."""
        for code in ("dvbs2-short-1_2", "5gnr-bg2-z24"):
            enc_def = gpufec.ldpc_encoder_def(code)
            k = fec.get_encoder_input_size(enc_def)
            self.assertEqual(k, gpufec.code_info(code)["k"])
            bits = random_bits(3 * k)
            out = run(enc_def, gpufec.ldpc_decoder_def(code, backend="cpu"), bits, 0.0)
            self.assertTrue(np.array_equal(out, bits), code)

    def test_tagged_and_async_decoders(self):
        """fec.tagged_decoder (a packet_len per frame) and fec.async_decoder (a message per frame)
        with our definition: the same bits back."""
        dec_def, n, k, bits, soft = three_wifi_frames()
        tags = [gr.tag_utils.python_to_tag((f * n, pmt.intern("packet_len"), pmt.from_long(n))) for f in range(3)]
        tb = gr.top_block()
        src, snk = blocks.vector_source_f(soft.tolist(), False, 1, tags), blocks.vector_sink_b()
        tb.connect(src, fec.tagged_decoder(dec_def, gr.sizeof_float, gr.sizeof_char, "packet_len", 1500), snk)
        tb.run()
        self.assertTrue(np.array_equal(np.array(snk.data(), dtype=np.uint8), bits))
        tb = gr.top_block()
        adec, dbg = fec.async_decoder(dec_def, False, True, 1500), blocks.message_debug()
        tb.msg_connect(adec, "out", dbg, "store")
        tb.start()
        for f in range(3):
            adec.to_basic_block()._post(pmt.intern("in"),
                                        pmt.cons(pmt.make_dict(), pmt.init_f32vector(n, soft[f * n:(f + 1) * n].tolist())))
        deadline = time.time() + 30
        while dbg.num_messages() < 3 and time.time() < deadline:
            time.sleep(0.01)
        tb.stop()
        tb.wait()
        self.assertEqual(dbg.num_messages(), 3)
        got = np.concatenate([np.array(pmt.u8vector_elements(pmt.cdr(dbg.get_message(i))), dtype=np.uint8)
                              for i in range(3)])
        self.assertTrue(np.array_equal(got, bits))

    def test_tagged_decoder_short_packets(self):
        """fec.tagged_decoder with a packet shorter than a frame between two whole frames (issue
        21): nothing is emitted for it (it once emitted a frame of garbage read past the packet),
        the whole frames decode."""
        dec_def, n, k, bits, soft = three_wifi_frames()
        parts = [soft[:n], soft[n:n + n // 2], soft[2 * n:]]
        starts = np.cumsum([0] + [len(p) for p in parts])
        tags = [gr.tag_utils.python_to_tag((int(starts[i]), pmt.intern("packet_len"), pmt.from_long(len(parts[i]))))
                for i in range(3)]
        tb = gr.top_block()
        src = blocks.vector_source_f(np.concatenate(parts).tolist(), False, 1, tags)
        snk = blocks.vector_sink_b()
        tb.connect(src, fec.tagged_decoder(dec_def, gr.sizeof_float, gr.sizeof_char, "packet_len", 1500), snk)
        tb.run()
        out = np.array(snk.data(), dtype=np.uint8)
        self.assertTrue(np.array_equal(out, np.concatenate([bits[:k], bits[2 * k:]])), len(out))

    def test_encoder_definition_refuses_a_code_it_cannot_encode(self):
        with self.assertRaises(Exception) as ctx:
            gpufec.nbldpc_encoder_def("nb-gf64-60000")
        self.assertIn("cannot be encoded", str(ctx.exception))

    def test_bad_arguments(self):
        for kw, word in [({"info": "middle"}, "info"), ({"algorithm": "nope"}, "algorithm")]:
            with self.assertRaises(Exception) as ctx:
                gpufec.ldpc_decoder_def(ALIST, **kw)
            self.assertIn(word, str(ctx.exception))
        # an option of another family is refused, not ignored
        with self.assertRaises(Exception) as ctx:
            gpufec.fec_decoder_def.make("lte-turbo-40", "precision=int8")
        self.assertIn("precision is an option of ldpc codes", str(ctx.exception))


if __name__ == "__main__":
    gr_unittest.run(qa_grfec_swap)
