"""gr-gpufec: LDPC decoders on NVIDIA GPUs (CUDA) with a CPU backend that gives the same answers.

Blocks: ldpc_encoder, ldpc_decoder. Helpers: builtin_codes(), code_info(name), cuda_available().
"""
from .gpufec_python import *  # noqa: F401,F403
