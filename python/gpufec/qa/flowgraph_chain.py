"""The QA flowgraph every family's block tests share: bits -> encoder -> BPSK -> + noise ->
GNU Radio's soft demodulator -> decoder -> bits."""
import numpy as np
from gnuradio import analog, blocks, digital, gr


def random_bits(count, rng=np.random.default_rng()):
    return rng.integers(0, 2, count, dtype=np.uint8)


def chain(enc, dec, bits, noise_amplitude, input_type="float"):
    """Runs bits through enc and dec (blocks already made) and returns the decoded bits of `bits`.
    GNU Radio does not promise the last few items of a finite stream through blocks that ask for
    VOLK's alignment (add_cc, whose other input never ends; 8 complex items on AVX-512 hosts, 4 on
    AVX2), which can cost the last frame on one host and not on another. So one more frame of
    random bits is always sent, every frame before it is required (AssertionError otherwise), and
    it is cut off. The decoder's frame counters may include that extra frame. int8 input: soft
    values of about +-1 scaled by 32 to bytes (give the decoder llr_scale=1/32)."""
    bpsk = digital.constellation_bpsk().base()
    tb = gr.top_block()
    src = blocks.vector_source_b(np.concatenate([bits, random_bits(enc.k())]).tolist())
    mod = digital.chunks_to_symbols_bc(bpsk.points())
    noise = analog.noise_source_c(analog.GR_GAUSSIAN, noise_amplitude, int(np.random.default_rng().integers(1, 1 << 30)))
    add = blocks.add_cc()
    demod = digital.constellation_soft_decoder_cf(bpsk)
    snk = blocks.vector_sink_b()
    tb.connect(src, enc, mod, add, demod)
    if input_type == "int8":
        f2c = blocks.float_to_char(1, 32.0)
        tb.connect(demod, f2c, dec)
    else:
        tb.connect(demod, dec)
    tb.connect(dec, snk)
    tb.connect(noise, (add, 1))
    tb.run()
    out = np.array(snk.data(), dtype=np.uint8)
    if len(out) < len(bits):
        raise AssertionError("%d of %d checked bits came out" % (len(out), len(bits)))
    return out[:len(bits)]


def encode(enc_make, code, bits):
    """The encoder block's output for bits (enc_make: the block's factory)."""
    tb = gr.top_block()
    src, snk = blocks.vector_source_b(bits.tolist()), blocks.vector_sink_b()
    tb.connect(src, enc_make(code), snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8)
