/* The LDPC device encoder: the phases of ldpc_enc_desc.h, a thread block per frame, the frame's
 * information bits packed in shared memory, the checks' sums and the parity there too; only the
 * frame's bytes in and out (and a dense generator's words) touch device memory. */
#include "device_encoder.cuh"

extern "C" {
#include "ldpc_enc_desc.h"
#include "text_reader.h"
}

#include <stdio.h>
#include <stdlib.h>

namespace {

const unsigned kThreads = 256;

struct enc_dev {
    int kind;
    uint32_t k, k_mother, m, n_out, z, mb, core, s0, steps, gen_words;
    const uint32_t *row_ptr, *row_info, *out_src, *step_row, *step_target, *gen;
    const int32_t* par_shift;
};

__device__ __forceinline__ uint32_t bit_of(const uint32_t* words, uint32_t i) { return (words[i >> 5] >> (i & 31)) & 1u; }

__global__ void __launch_bounds__(kThreads) k_ldpc_encode(enc_dev d, const uint8_t* info, uint8_t* out)
{
    extern __shared__ uint32_t smem[];
    const uint32_t info_words = (d.k_mother + 31) / 32, lam_bytes = (d.m + 3) & ~3u;
    uint32_t* ubits = smem;
    uint8_t* lam = (uint8_t*)(smem + info_words);
    uint8_t* par = lam + lam_bytes;                   /* QC */
    uint32_t* words = (uint32_t*)(lam + lam_bytes);   /* staircase, dense: the parity, packed */
    const uint8_t* u = info + (size_t)blockIdx.x * d.k;
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;

    for (uint32_t w = warp; w < info_words; w += warps) { /* the filler bits (k and beyond) are 0 */
        const uint32_t i = w * 32u + lane;
        const unsigned b = __ballot_sync(0xffffffffu, i < d.k && u[i] != 0);
        if (lane == 0)
            ubits[w] = b;
    }
    __syncthreads();
    if (d.kind == LDPC_ENC_DENSE) { /* a thread per parity word: the generator rows of the ones */
        words = (uint32_t*)lam;
        for (uint32_t w = threadIdx.x; w < d.gen_words; w += blockDim.x) {
            uint32_t acc = 0;
            for (uint32_t iw = 0; iw < info_words; iw++)
                for (uint32_t b = ubits[iw]; b; b &= b - 1)
                    acc ^= __ldg(&d.gen[(size_t)(iw * 32u + (uint32_t)(__ffs(b) - 1)) * d.gen_words + w]);
            words[w] = acc;
        }
        __syncthreads();
    }
    for (uint32_t r = threadIdx.x; d.kind != LDPC_ENC_DENSE && r < d.m; r += blockDim.x) { /* phase 1: check sums */
        uint32_t v = 0;
        for (uint32_t e = __ldg(&d.row_ptr[r]), end = __ldg(&d.row_ptr[r + 1]); e < end; e++)
            v ^= bit_of(ubits, __ldg(&d.row_info[e]));
        lam[r] = (uint8_t)v;
    }
    __syncthreads();
    if (d.kind == LDPC_ENC_STAIRCASE) {
        /* p_i = lam_0 + ... + lam_i: a prefix sum within each word of 32 checks, then across the
         * words by one warp, 32 words at a time */
        const uint32_t pw = (d.m + 31) / 32;
        for (uint32_t w = warp; w < pw; w += warps) {
            const uint32_t i = w * 32u + lane;
            unsigned b = __ballot_sync(0xffffffffu, i < d.m && lam[i]);
            b ^= b << 1, b ^= b << 2, b ^= b << 4, b ^= b << 8, b ^= b << 16;
            if (lane == 0)
                words[w] = b;
        }
        __syncthreads();
        if (warp == 0) {
            unsigned carry = 0;
            for (uint32_t base = 0; base < pw; base += 32) {
                const uint32_t w = base + lane;
                const unsigned total = w < pw ? words[w] >> 31 : 0u; /* the word's sum */
                unsigned incl = total;
                for (unsigned s = 1; s < 32; s <<= 1) {
                    const unsigned o = __shfl_up_sync(0xffffffffu, incl, s);
                    if (lane >= s)
                        incl ^= o;
                }
                if (w < pw && (carry ^ incl ^ total))
                    words[w] = ~words[w];
                carry ^= __shfl_sync(0xffffffffu, incl, 31);
            }
        }
        __syncthreads();
    } else if (d.kind == LDPC_ENC_QC) {
        /* the first parity block from the core rows' sum, then each block from its row */
        const uint32_t z = d.z;
        for (uint32_t a = threadIdx.x; a < z; a += blockDim.x) {
            uint8_t v = 0;
            for (uint32_t r = 0; r < d.core; r++)
                v ^= lam[r * z + a];
            par[(a + d.s0) % z] = v;
        }
        __syncthreads();
        for (uint32_t t = 0; t < d.steps; t++) {
            const uint32_t r = __ldg(&d.step_row[t]), target = __ldg(&d.step_target[t]);
            const int32_t* sh = d.par_shift + (size_t)r * d.mb;
            for (uint32_t a = threadIdx.x; a < z; a += blockDim.x) {
                uint8_t v = lam[r * z + a];
                for (uint32_t q = 0; q < d.mb; q++) {
                    const int32_t s = __ldg(&sh[q]);
                    if (s >= 0 && q != target)
                        v ^= par[q * z + (a + (uint32_t)s) % z];
                }
                par[target * z + (a + (uint32_t)__ldg(&sh[target])) % z] = v;
            }
            __syncthreads();
        }
    }
    uint8_t* o = out + (size_t)blockIdx.x * d.n_out;
    for (uint32_t t = threadIdx.x; t < d.n_out; t += blockDim.x) {
        const uint32_t s = __ldg(&d.out_src[t]);
        o[t] = (uint8_t)(s < d.k_mother         ? bit_of(ubits, s)
                         : d.kind != LDPC_ENC_QC ? bit_of(words, s - d.k_mother)
                                                 : par[s - d.k_mother]);
    }
}

struct enc_state {
    dev_encoder_base base; /* first: the shared entries take the state as one */
    enc_dev dev;
    size_t smem;
};

cudaError_t enc_launch(dev_encoder_base* b, const uint8_t* info, size_t nf, uint8_t* out, cudaStream_t stream)
{
    const enc_state* s = (const enc_state*)b;
    k_ldpc_encode<<<(unsigned)nf, kThreads, s->smem, stream>>>(s->dev, info, out);
    return cudaGetLastError();
}

void enc_destroy(void* p)
{
    enc_state* s = (enc_state*)p;
    if (!s)
        return;
    denc_release(&s->base);
    free(s);
}

gpufec_status enc_create(const gpufec_code* code, int device, void** state, char* variant, size_t variant_len,
                         gpufec_diag* diag)
{
    ldpc_enc_desc d;
    gpufec_status st = ldpc_enc_desc_build(&d, code, diag);
    if (st)
        return st;
    enc_state* s = (enc_state*)calloc(1, sizeof *s);
    if (!s) {
        ldpc_enc_desc_free(&d);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    st = denc_start(&s->base, device, d.k, d.n_out, diag);
    s->base.chunk = (size_t)1 << 30; /* frames a grid takes; no scratch */
    s->base.launch = enc_launch;
    s->smem = ldpc_enc_desc_shared_bytes(&d);
    int most = 0;
    cudaError_t e = st ? cudaSuccess : cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    if (!st && e == cudaSuccess && s->smem > (size_t)most)
        st = text_fail_as(GPUFEC_ERR_UNSUPPORTED, diag, 0,
                          "device encoder: a frame needs %zu bytes of shared memory, the device has %d per block",
                          s->smem, most);
    if (!st && e == cudaSuccess && s->smem > 48 * 1024)
        e = cuda_allow_shared((const void*)k_ldpc_encode, s->smem);
    enc_dev& v = s->dev;
    const int qc = d.kind == LDPC_ENC_QC, dense = d.kind == LDPC_ENC_DENSE;
    uint32_t *row_ptr = NULL, *row_info = NULL, *out_src = NULL, *step_row = NULL, *step_target = NULL, *gen = NULL;
    int32_t* par_shift = NULL;
    if (!st && e == cudaSuccess && !dense)
        e = denc_upload(&s->base, &row_ptr, d.row_ptr, (size_t)d.m + 1);
    if (!st && e == cudaSuccess && !dense)
        e = denc_upload(&s->base, &row_info, d.row_info, d.row_edges);
    if (!st && e == cudaSuccess)
        e = denc_upload(&s->base, &out_src, d.out_src, d.n_out);
    if (!st && e == cudaSuccess && qc)
        e = denc_upload(&s->base, &step_row, d.step_row, d.steps);
    if (!st && e == cudaSuccess && qc)
        e = denc_upload(&s->base, &step_target, d.step_target, d.steps);
    if (!st && e == cudaSuccess && qc)
        e = denc_upload(&s->base, &par_shift, d.par_shift, (size_t)d.mb * d.mb);
    if (!st && e == cudaSuccess && dense)
        e = denc_upload(&s->base, &gen, d.gen, (size_t)d.k_mother * d.gen_words);
    if (!st && e != cudaSuccess)
        st = text_fail_as(denc_status(e), diag, 0, "device encoder: %s", cudaGetErrorString(e));
    if (st) {
        ldpc_enc_desc_free(&d);
        enc_destroy(s);
        return st;
    }
    v.kind = d.kind;
    v.k = d.k, v.k_mother = d.k_mother, v.m = d.m, v.n_out = d.n_out;
    v.z = d.z, v.mb = d.mb, v.core = d.core, v.s0 = d.s0, v.steps = d.steps, v.gen_words = d.gen_words;
    v.row_ptr = row_ptr, v.row_info = row_info, v.out_src = out_src, v.step_row = step_row;
    v.step_target = step_target, v.par_shift = par_shift, v.gen = gen;
    snprintf(variant, variant_len, "%s", ldpc_enc_variant(&d));
    ldpc_enc_desc_free(&d);
    *state = s;
    return GPUFEC_OK;
}

} // namespace

extern "C" const device_encoder_ops ldpc_cuda_encoder_ops = {
    "cuda ldpc", GPUFEC_FAMILY_LDPC, enc_create, enc_destroy, denc_encode, denc_encode_host,
};
