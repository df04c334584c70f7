/* The LDPC device encoder: the two phases of ldpc_enc_desc.h, a thread block per frame, the
 * frame's information bits packed in shared memory, the checks' sums and the parity there too;
 * only the frame's bytes in and out touch device memory. */
#include <cuda_runtime.h>

extern "C" {
#include "device_encoder_internal.h"
#include "ldpc_enc_desc.h"
#include "text_reader.h"
}

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace {

const unsigned kThreads = 256;

struct enc_dev {
    int kind;
    uint32_t k, k_mother, m, n_out, z, mb, core, s0, steps;
    const uint32_t *row_ptr, *row_info, *out_src, *step_row, *step_target;
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
    uint32_t* words = (uint32_t*)(lam + lam_bytes);   /* staircase: the parity, packed */
    const uint8_t* u = info + (size_t)blockIdx.x * d.k;
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;

    for (uint32_t w = warp; w < info_words; w += warps) { /* the filler bits (k and beyond) are 0 */
        const uint32_t i = w * 32u + lane;
        const unsigned b = __ballot_sync(0xffffffffu, i < d.k && u[i] != 0);
        if (lane == 0)
            ubits[w] = b;
    }
    __syncthreads();
    for (uint32_t r = threadIdx.x; r < d.m; r += blockDim.x) { /* phase 1: each check's information sum */
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
    } else {
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
        o[t] = (uint8_t)(s < d.k_mother               ? bit_of(ubits, s)
                         : d.kind == LDPC_ENC_STAIRCASE ? bit_of(words, s - d.k_mother)
                                                        : par[s - d.k_mother]);
    }
}

struct enc_state {
    int device;
    enc_dev dev;
    size_t smem;
    void* arrays; /* one allocation for the tables */
    uint8_t *stage_in, *stage_out; /* encode_host's device buffers */
    size_t staged;
    cudaStream_t stream;
};

gpufec_status status_of(cudaError_t e)
{
    if (e == cudaSuccess)
        return GPUFEC_OK;
    (void)cudaGetLastError();
    return e == cudaErrorMemoryAllocation ? GPUFEC_ERR_DEVICE_OUT_OF_MEMORY : GPUFEC_ERR_DEVICE;
}

void enc_destroy(void* p)
{
    enc_state* s = (enc_state*)p;
    if (!s)
        return;
    cudaSetDevice(s->device);
    cudaFree(s->arrays);
    cudaFree(s->stage_in);
    cudaFree(s->stage_out);
    if (s->stream)
        cudaStreamDestroy(s->stream);
    free(s);
}

gpufec_status enc_create(const gpufec_code* code, int device, void** state, char* variant, size_t variant_len,
                         gpufec_diag* diag)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || device >= count) {
        (void)cudaGetLastError();
        return text_fail_as(GPUFEC_ERR_NO_DEVICE, diag, 0, "device encoder: no CUDA device %d (%d present)", device,
                            count);
    }
    ldpc_enc_desc d;
    gpufec_status st = ldpc_enc_desc_build(&d, code, diag);
    if (st)
        return st;
    enc_state* s = (enc_state*)calloc(1, sizeof *s);
    if (!s) {
        ldpc_enc_desc_free(&d);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    s->device = device;
    s->smem = ldpc_enc_desc_shared_bytes(&d);
    int most = 0;
    cudaError_t e = cudaSetDevice(device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    if (e == cudaSuccess && s->smem > (size_t)most) {
        st = text_fail_as(GPUFEC_ERR_UNSUPPORTED, diag, 0,
                          "device encoder: a frame needs %zu bytes of shared memory, the device has %d per block",
                          s->smem, most);
        ldpc_enc_desc_free(&d);
        free(s);
        return st;
    }
    if (e == cudaSuccess && s->smem > 48 * 1024)
        e = cudaFuncSetAttribute(k_ldpc_encode, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)s->smem);
    const size_t rp = ((size_t)d.m + 1) * 4, ri = ((size_t)d.row_edges + 1) * 4, os = (size_t)d.n_out * 4 + 4,
                 sr = ((size_t)d.steps + 1) * 4, ps = (size_t)d.mb * d.mb * 4 + 4;
    const int qc = d.kind == LDPC_ENC_QC;
    if (e == cudaSuccess)
        e = cudaMalloc(&s->arrays, rp + ri + os + (qc ? 2 * sr + ps : 0));
    if (e == cudaSuccess)
        e = cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking);
    char* base = (char*)s->arrays;
    if (e == cudaSuccess)
        e = cudaMemcpy(base, d.row_ptr, rp, cudaMemcpyHostToDevice);
    if (e == cudaSuccess && d.row_edges)
        e = cudaMemcpy(base + rp, d.row_info, (size_t)d.row_edges * 4, cudaMemcpyHostToDevice);
    if (e == cudaSuccess && d.n_out)
        e = cudaMemcpy(base + rp + ri, d.out_src, (size_t)d.n_out * 4, cudaMemcpyHostToDevice);
    if (e == cudaSuccess && qc && d.steps)
        e = cudaMemcpy(base + rp + ri + os, d.step_row, (size_t)d.steps * 4, cudaMemcpyHostToDevice);
    if (e == cudaSuccess && qc && d.steps)
        e = cudaMemcpy(base + rp + ri + os + sr, d.step_target, (size_t)d.steps * 4, cudaMemcpyHostToDevice);
    if (e == cudaSuccess && qc)
        e = cudaMemcpy(base + rp + ri + os + 2 * sr, d.par_shift, (size_t)d.mb * d.mb * 4, cudaMemcpyHostToDevice);
    if (e != cudaSuccess) {
        st = status_of(e);
        text_fail_as(st, diag, 0, "device encoder: %s", cudaGetErrorString(e));
        ldpc_enc_desc_free(&d);
        enc_destroy(s);
        return st;
    }
    enc_dev& v = s->dev;
    v.kind = d.kind;
    v.k = d.k, v.k_mother = d.k_mother, v.m = d.m, v.n_out = d.n_out;
    v.z = d.z, v.mb = d.mb, v.core = d.core, v.s0 = d.s0, v.steps = d.steps;
    v.row_ptr = (const uint32_t*)base;
    v.row_info = (const uint32_t*)(base + rp);
    v.out_src = (const uint32_t*)(base + rp + ri);
    v.step_row = qc ? (const uint32_t*)(base + rp + ri + os) : NULL;
    v.step_target = qc ? (const uint32_t*)(base + rp + ri + os + sr) : NULL;
    v.par_shift = qc ? (const int32_t*)(base + rp + ri + os + 2 * sr) : NULL;
    snprintf(variant, variant_len, "%s", qc ? "qc dual-diagonal" : "staircase");
    ldpc_enc_desc_free(&d);
    *state = s;
    return GPUFEC_OK;
}

gpufec_status enc_encode(void* p, const uint8_t* info, size_t n_frames, uint8_t* out, void* stream)
{
    enc_state* s = (enc_state*)p;
    cudaError_t e = cudaSetDevice(s->device);
    const size_t most = (size_t)1 << 30; /* frames a grid takes */
    for (size_t f = 0; e == cudaSuccess && f < n_frames; f += most) {
        const size_t nf = n_frames - f < most ? n_frames - f : most;
        k_ldpc_encode<<<(unsigned)nf, kThreads, s->smem, (cudaStream_t)stream>>>(s->dev, info + f * s->dev.k,
                                                                               out + f * s->dev.n_out);
        e = cudaGetLastError();
    }
    return status_of(e);
}

gpufec_status enc_encode_host(void* p, const uint8_t* info, size_t n_frames, uint8_t* out)
{
    enc_state* s = (enc_state*)p;
    const size_t chunk = 4096;
    cudaError_t e = cudaSetDevice(s->device);
    if (e == cudaSuccess && !s->staged) {
        e = cudaMalloc(&s->stage_in, chunk * (s->dev.k + 1));
        if (e == cudaSuccess)
            e = cudaMalloc(&s->stage_out, chunk * (s->dev.n_out + 1));
        if (e == cudaSuccess)
            s->staged = chunk;
    }
    for (size_t f = 0; e == cudaSuccess && f < n_frames; f += chunk) {
        const size_t nf = n_frames - f < chunk ? n_frames - f : chunk;
        e = cudaMemcpyAsync(s->stage_in, info + f * s->dev.k, nf * s->dev.k, cudaMemcpyHostToDevice, s->stream);
        if (e == cudaSuccess) {
            k_ldpc_encode<<<(unsigned)nf, kThreads, s->smem, s->stream>>>(s->dev, s->stage_in, s->stage_out);
            e = cudaGetLastError();
        }
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(out + f * s->dev.n_out, s->stage_out, nf * s->dev.n_out, cudaMemcpyDeviceToHost,
                                s->stream);
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(s->stream);
    }
    return status_of(e);
}

} // namespace

extern "C" const device_encoder_ops ldpc_cuda_encoder_ops = {
    "cuda ldpc", GPUFEC_FAMILY_LDPC, enc_create, enc_destroy, enc_encode, enc_encode_host,
};
