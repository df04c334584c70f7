"""The 5G NR transport block decoder block for PDUs (gpufec.nr_tb underneath)."""
import numpy as np
import pmt
from gnuradio import gr

from .gpufec_python import nr_tb


class nr_tb_decoder(gr.basic_block):
    """Decodes PDUs of 5G NR transport blocks: each PDU holds a whole number of transport blocks of
    G soft values (f32vector, or s8vector with llr_scale the LLR of one unit), in the order the
    transmitter sends them (TS 38.212: code blocks rate matched and concatenated). Out: a PDU of A
    bits per transport block (u8vector), the input's metadata plus gpufec_tb_ok (u8vector, 1 when
    the transport block's CRC and every code block's CRC hold), gpufec_cb_ok (u8vector, C per
    transport block), gpufec_code_blocks (C) and gpufec_failed (transport blocks whose CRC
    failed). A malformed PDU comes out empty with gpufec_error saying why; the flowgraph goes on.

    description: 'tbs=<A>:g=<G>:qm=<Qm>[:nl=][:rv=][:bg=1|2 or :r=<target rate>][:ncb=]'.
    options: decoder options by the library's names, e.g. 'backend=cuda max_iterations=10'.
    sign_convention: 'positive_one' (GNU Radio's soft decoders) or 'positive_zero' (LLR ln P0/P1)."""

    def __init__(self, description="tbs=8424:g=10752:qm=2:bg=1", options="", sign_convention="positive_one",
                 llr_scale=1.0):
        gr.basic_block.__init__(self, name="nr_tb_decoder", in_sig=None, out_sig=None)
        if sign_convention not in ("positive_one", "positive_zero"):
            raise ValueError(f"gpufec.nr_tb_decoder: sign_convention '{sign_convention}': "
                             "positive_one or positive_zero")
        if not llr_scale > 0:
            raise ValueError(f"gpufec.nr_tb_decoder: llr_scale {llr_scale}: must be positive")
        self._tb = nr_tb(description, options)
        info = self._tb.info()
        self._G, self._A, self._C = info["G"], info["A"], info["C"]
        self._mul = np.float32(llr_scale * (-1.0 if sign_convention == "positive_one" else 1.0))
        self._blocks = 0
        self._failed = 0
        self.message_port_register_in(pmt.intern("pdus"))
        self.message_port_register_out(pmt.intern("pdus"))
        self.set_msg_handler(pmt.intern("pdus"), self._handle)

    def transport_blocks(self):
        return self._blocks

    def failed_transport_blocks(self):
        return self._failed

    def info(self):
        """The plan: C, K', Zc, C0, E0, E1 and the code blocks' code names (gpufec.nr_tb.info())."""
        return self._tb.info()

    def _reply(self, meta, key, value, payload):
        self.message_port_pub(pmt.intern("pdus"), pmt.cons(pmt.dict_add(meta, pmt.intern(key), value), payload))

    def _handle(self, msg):
        meta = pmt.car(msg) if pmt.is_pair(msg) else pmt.make_dict()
        if not pmt.is_dict(meta):
            meta = pmt.make_dict()
        empty = pmt.init_u8vector(0, [])
        vec = pmt.cdr(msg) if pmt.is_pair(msg) else pmt.PMT_NIL
        if not (pmt.is_f32vector(vec) or pmt.is_s8vector(vec)):
            self._reply(meta, "gpufec_error", pmt.intern("expected a PDU of an f32vector or s8vector of soft values"),
                        empty)
            return
        soft = np.asarray(pmt.to_python(vec), dtype=np.float32)
        if soft.size == 0 or soft.size % self._G:
            self._reply(meta, "gpufec_error", pmt.intern(f"{soft.size} soft values: not a whole number of transport "
                                                          f"blocks of G = {self._G}"), empty)
            return
        try:
            bits, ok, cb = self._tb.decode(soft * self._mul)
        except (RuntimeError, ValueError) as e:
            self._reply(meta, "gpufec_error", pmt.intern(str(e)), empty)
            return
        n = len(ok)
        self._blocks += n
        failed = int(n - int(ok.sum()))
        self._failed += failed
        meta = pmt.dict_add(meta, pmt.intern("gpufec_tb_ok"), pmt.init_u8vector(n, ok.tolist()))
        meta = pmt.dict_add(meta, pmt.intern("gpufec_cb_ok"), pmt.init_u8vector(cb.size, cb.ravel().tolist()))
        meta = pmt.dict_add(meta, pmt.intern("gpufec_code_blocks"), pmt.from_long(self._C))
        meta = pmt.dict_add(meta, pmt.intern("gpufec_failed"), pmt.from_long(failed))
        self.message_port_pub(pmt.intern("pdus"), pmt.cons(meta, pmt.to_pmt(np.ascontiguousarray(bits.ravel()))))
