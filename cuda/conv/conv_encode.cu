/* The convolutional family's device encoder (gpufec_device_encoder_*): a block per frame copies
 * the frame's information bits to shared memory, and each thread computes transmitted bits
 * straight from them (conv_mother_bit, the rule the decoders emit with): an output bit needs only
 * the K inputs of its step, so every bit is independent. */
#include "device_encoder.cuh"

extern "C" {
#include "conv_code.h"
#include "text_reader.h"
}

#include <stdio.h>
#include <stdlib.h>

namespace {

constexpr int kThreads = 256;

struct conv_enc_dev {
    const uint32_t* out_src; /* n_out mother positions in transmitted order */
    uint32_t generators[GPUFEC_CONV_MAX_N];
    uint32_t k, n, K, n_out;
    int tail_biting;
};

__global__ void k_conv_encode(conv_enc_dev c, const uint8_t* __restrict__ info, uint8_t* __restrict__ out)
{
    extern __shared__ uint8_t u[];
    const uint8_t* in = info + (size_t)blockIdx.x * c.k;
    for (uint32_t i = threadIdx.x; i < c.k; i += blockDim.x)
        u[i] = in[i] != 0;
    __syncthreads();
    uint8_t* o = out + (size_t)blockIdx.x * c.n_out;
    for (uint32_t i = threadIdx.x; i < c.n_out; i += blockDim.x)
        o[i] = (uint8_t)conv_mother_bit(u, c.k, c.n, c.K, c.generators, c.tail_biting, __ldg(&c.out_src[i]));
}

struct conv_enc_state {
    dev_encoder_base base;
    conv_enc_dev dev;
};

cudaError_t conv_launch(dev_encoder_base* b, const uint8_t* info, size_t nf, uint8_t* out, cudaStream_t stream)
{
    const conv_enc_state* s = (const conv_enc_state*)b;
    k_conv_encode<<<(unsigned)nf, kThreads, s->dev.k, stream>>>(s->dev, info, out);
    return cudaGetLastError();
}

gpufec_status conv_enc_create(const gpufec_code* code, int device, void** state, char* variant, size_t variant_len,
                              gpufec_diag* diag)
{
    const gpufec_conv_info* ci = &conv_of(code)->info;
    conv_enc_state* s = (conv_enc_state*)calloc(1, sizeof *s);
    if (!s)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    const uint32_t n_out = code->tx.n_tx;
    gpufec_status st = denc_start(&s->base, device, code->k, n_out, diag);
    s->base.chunk = (size_t)1 << 30;
    s->base.launch = conv_launch;
    conv_enc_dev& v = s->dev;
    v.k = ci->k, v.n = ci->n, v.K = ci->K, v.n_out = n_out;
    v.tail_biting = ci->termination == GPUFEC_CONV_TERM_TAIL_BITING;
    memcpy(v.generators, ci->generators, sizeof v.generators);
    uint32_t* out_src = NULL;
    const cudaError_t e = st ? cudaSuccess : denc_upload_tx_positions(&s->base, code, &out_src);
    if (!st && e != cudaSuccess)
        st = text_fail_as(denc_status(e), diag, 0, "device encoder: %s", cudaGetErrorString(e));
    if (st) {
        denc_destroy(s);
        return st;
    }
    v.out_src = out_src;
    snprintf(variant, variant_len, "a thread per transmitted bit");
    *state = s;
    return GPUFEC_OK;
}

} // namespace

extern "C" const device_encoder_ops conv_cuda_encoder_ops = {
    "cuda conv", GPUFEC_FAMILY_CONV, conv_enc_create, denc_destroy, denc_encode, denc_encode_host,
};
