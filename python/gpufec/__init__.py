"""gr-gpufec: binary LDPC, LTE turbo and GF(q) LDPC decoders on NVIDIA GPUs (CUDA), with a CPU
backend that gives the same answers.

Blocks: ldpc_encoder, ldpc_decoder, turbo_encoder, turbo_decoder, nbldpc_encoder, nbldpc_decoder,
pdu_decoder. gr-fec definitions: ldpc_decoder_def, turbo_decoder_def, nbldpc_decoder_def,
ldpc_encoder_def (and fec_decoder_def.make, fec_encoder_def.make). Helpers: builtin_codes(), code_info(name), cuda_available().
"""
from .gpufec_python import *  # noqa: F401,F403


def _options(pairs):
    return " ".join(f"{k}={v}" for k, v in pairs.items() if v is not None)


def ldpc_decoder_def(code, algorithm="nms", max_iterations=20, backend="auto", info="code",
                     sign_convention="positive_one", llr_scale=1.0, **options):
    """A gr-fec decoder definition for a binary LDPC code (fec.extended_decoder and friends).
    info="last" takes the last k codeword bits as information, as gr-fec's parity-check-matrix
    LDPC encoder (fec.ldpc_par_mtrx_encoder) places them; further decoder options by name."""
    return fec_decoder_def.make(code, _options(dict(algorithm=algorithm, max_iterations=max_iterations,
                                                    backend=backend, **options)),
                                info, sign_convention, llr_scale)


def turbo_decoder_def(code, algorithm="maxlogmap", max_iterations=8, backend="auto",
                      sign_convention="positive_one", llr_scale=1.0, **options):
    """A gr-fec decoder definition for an LTE turbo code (lte-turbo-<K>[...])."""
    return fec_decoder_def.make(code, _options(dict(turbo_algorithm=algorithm, max_iterations=max_iterations,
                                                    backend=backend, **options)),
                                "code", sign_convention, llr_scale)


def nbldpc_decoder_def(code, algorithm="min-max", max_iterations=15, backend="auto",
                       sign_convention="positive_one", llr_scale=1.0, **options):
    """A gr-fec decoder definition for a GF(q) LDPC code."""
    return fec_decoder_def.make(code, _options(dict(nb_algorithm=algorithm, max_iterations=max_iterations,
                                                    backend=backend, **options)),
                                "code", sign_convention, llr_scale)


def ldpc_encoder_def(code):
    """A gr-fec encoder definition (fec.extended_encoder and friends) for a gr-gpufec code; its
    frames decode with ldpc_decoder_def(code, info="code") (the default)."""
    return fec_encoder_def.make(code)


turbo_encoder_def = nbldpc_encoder_def = ldpc_encoder_def
