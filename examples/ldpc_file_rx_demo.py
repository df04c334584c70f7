#!/usr/bin/env python3
"""A packet link through an IQ file, as a radio would carry it: the transmitter writes BPSK
packets (preamble, 64-bit access code, GNU Radio's 32-bit length header, one LDPC codeword),
pulse-shaped, through a channel model (noise, frequency and timing offset) to a file; the
receiver reads the file and recovers the packets with GNU Radio's own blocks (AGC, Symbol Sync,
Costas loop, Correlate Access Code - Tag Stream) and a gpufec LDPC decoder on the tagged stream.

Replace the file sink by a UHD or osmosdr sink, and the file source by a UHD or RTL-SDR source,
to run it over the air (sample rate: symbol rate x SPS).

At the default Eb/N0 of 12 dB, 499 of the 500 packets arrive (the tests assert at least 99%);
below that the receiver loses packets before the decoder: the length header is not protected by
the code (32 hard bits that must all be right: at Eb/N0 10 dB, 12 of 500 packets are lost there),
while every frame that reaches the decoder decodes.

Usage: ldpc_file_rx_demo.py [--packets N] [--ebn0 DB] [--code NAME] [--iq FILE]
Prints the packet count; exit status 1 when fewer than --min-share of the packets arrived."""
import argparse
import os
import sys
import tempfile

import numpy as np
from gnuradio import analog, blocks, channels, digital, filter, gr

from gnuradio import gpufec

SPS, ALPHA = 4, 0.35
ACCESS_CODE = "1010110011011101101001001110001011110010100011000010000011111100"


def packet_bits(codewords, n):
    """Each packet: 64 bits of preamble, the access code, the header (payload length in bytes, 16
    bits, twice: what correlate_access_code_ff_ts reads), the codeword. A longer preamble first
    lets the receiver's loops settle."""
    bits = lambda s: np.array([int(c) for c in s], dtype=np.uint8)  # noqa: E731
    length = n // 8
    header16 = np.array([(length >> (15 - i)) & 1 for i in range(16)], dtype=np.uint8)
    pre = np.tile([1, 0], 32).astype(np.uint8)
    parts = [np.tile([1, 0], 512).astype(np.uint8)]
    for p in range(len(codewords) // n):
        parts += [pre, bits(ACCESS_CODE), header16, header16, codewords[p * n:(p + 1) * n]]
    parts.append(np.tile(pre, 4))
    return np.concatenate(parts)


def rrc_taps(gain, rate):
    return filter.firdes.root_raised_cosine(gain, rate, 1.0, ALPHA, 11 * SPS * int(gain))


def transmit(info, code, ebn0_db, path):
    """info bits -> LDPC encoder -> packets -> BPSK (bit 1 -> +1) -> RRC, SPS samples per symbol ->
    channel model -> IQ file (complex float32)."""
    enc = gpufec.ldpc_encoder(code)
    n, k = enc.n(), enc.k()
    tb = gr.top_block()
    src, snk = blocks.vector_source_b(info.tolist()), blocks.vector_sink_b()
    tb.connect(src, enc, snk)
    tb.run()
    symbols = (2.0 * packet_bits(np.array(snk.data(), dtype=np.uint8), n) - 1.0).astype(np.complex64)
    taps = rrc_taps(SPS, SPS)
    # Es/N0 = Eb/N0 + 10 log10(k/n). A unit symbol every SPS samples through the RRC gives a mean
    # power of sum(taps^2) / SPS per sample, so Es = sum(taps^2); the channel's complex noise has
    # a variance of noise_voltage^2 per sample.
    es = float(np.sum(np.square(taps)))
    n0 = es / 10 ** ((ebn0_db + 10 * np.log10(k / n)) / 10)
    tb = gr.top_block()
    src = blocks.vector_source_c(symbols.tolist())
    shape = filter.interp_fir_filter_ccf(SPS, taps)
    chan = channels.channel_model(noise_voltage=float(np.sqrt(n0)), frequency_offset=3e-4, epsilon=1.00005,
                                  taps=[1.0 + 0j], noise_seed=7)
    sink = blocks.file_sink(gr.sizeof_gr_complex, path, False)
    tb.connect(src, shape, chan, sink)
    tb.run()
    sink.close()


def receive(code, path):
    """IQ file -> AGC -> Symbol Sync (RRC matched filter) -> Costas loop -> soft bits ->
    Correlate Access Code - Tag Stream -> gpufec LDPC decoder (tagged stream, failed frames
    dropped) -> decoded packets."""
    nfilts = 32
    tb = gr.top_block()
    src = blocks.file_source(gr.sizeof_gr_complex, path, False)
    agc = analog.agc_cc(1e-3, 1.0, 1.0)
    sync = digital.symbol_sync_cc(digital.TED_SIGNAL_TIMES_SLOPE_ML, SPS, 0.045, 1.0, 1.0, 1.5, 1,
                                  digital.constellation_bpsk().base(), digital.IR_PFB_MF, nfilts,
                                  rrc_taps(nfilts, nfilts * SPS))
    costas = digital.costas_loop_cc(0.0628, 2, False)
    soft = blocks.complex_to_real()
    corr = digital.correlate_access_code_ff_ts(ACCESS_CODE, 6, "packet_len")
    dec = gpufec.ldpc_decoder(code, "nms", 20, drop_failed=True)
    sink = blocks.vector_sink_b()
    tb.connect(src, agc, sync, costas, soft, corr, dec, sink)
    tb.run()
    return np.array(sink.data(), dtype=np.uint8), dec


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--packets", type=int, default=500)
    ap.add_argument("--ebn0", type=float, default=12.0, help="dB, of the coded link (information bits)")
    ap.add_argument("--code", default="wifi-648-1_2")
    ap.add_argument("--iq", default="", help="IQ file to write and read (default: a temporary file)")
    ap.add_argument("--min-share", type=float, default=0.99, help="exit 1 below this share of packets")
    a = ap.parse_args()
    k = gpufec.ldpc_encoder(a.code).k()
    info = np.random.default_rng(1).integers(0, 2, a.packets * k, dtype=np.uint8)
    with tempfile.TemporaryDirectory() as tmp:
        path = a.iq or os.path.join(tmp, "link.cf32")
        transmit(info, a.code, a.ebn0, path)
        out, dec = receive(a.code, path)
    sent = {info[p * k:(p + 1) * k].tobytes() for p in range(a.packets)}
    received = sum(out[f * k:(f + 1) * k].tobytes() in sent for f in range(len(out) // k))
    print(f"Eb/N0 {a.ebn0} dB: {a.packets} packets sent, {dec.frames()} frames reached the decoder, "
          f"{dec.failed_frames()} failed, {received} packets received ({100.0 * received / a.packets:.1f}%)")
    return 0 if received >= a.min_share * a.packets else 1


if __name__ == "__main__":
    sys.exit(main())
