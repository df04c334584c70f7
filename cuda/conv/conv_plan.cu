/* Viterbi decoding of convolutional codes on CUDA: a thread per state pair (the butterfly of
 * predecessors 2i, 2i+1 into states i and i + S/2), several frames side by side in a block. The
 * path metrics of a frame live in shared memory (two buffers), its soft values arrive 32 steps at
 * a time through the transmission map, and each step's survivor decisions leave the warp as
 * ballots, a bit per state, for the frame's workspace. One thread per frame then follows the
 * survivors back; the output is re-encoded from the decided bits position by position. Every
 * metric is the rule of lib/conv/conv_rules.h, evaluated as the CPU does, so both take the same
 * decisions. */
#include "engine.cuh"

extern "C" {
#include "conv_code.h"
}

#include <stdio.h>
#include <stdlib.h>

namespace {

#define CHUNK 32 /* trellis steps whose soft values are staged in shared memory at once */

struct conv_args {
    tx_map_view map;
    const uint32_t* out_pos; /* out_len mother positions; NULL: the whole mother codeword */
    uint32_t generators[GPUFEC_CONV_MAX_N];
    uint8_t out[2 << (GPUFEC_CONV_MAX_K - 1)]; /* output word of (state p, input b) at 2 p + b */
    uint32_t K, n, S, k, steps, n_tx, out_len, words; /* words: 32-bit decision words per step */
    uint32_t tpf, fpb;                                 /* threads per frame, frames per block */
    int term, max_passes;
    int dec_in_smem;                                   /* survivor decisions in shared memory */
    uint32_t words_bm;                                 /* 2^n branch metrics a step, staged per chunk
                                                          (0: n > 4, computed per branch) */
    uint32_t lstride;                                  /* a frame's staged floats: soft values, metrics */
    size_t ws_bytes;                                   /* workspace per frame */
};

/* The step loop's barrier: a frame's threads are whole warps or part of one (K <= 7: up to 32
 * threads a frame), so the warp's barrier suffices and the block's frames run apart; K = 8, 9
 * take a block per frame. */
__device__ __forceinline__ void frame_sync(const conv_args& a)
{
    if (a.tpf <= 32)
        __syncwarp();
    else
        __syncthreads();
}

__global__ void k_viterbi(conv_args a, const float* __restrict__ in, unsigned char* ws, uint8_t* out, int32_t* iters,
                          uint8_t* conv, uint32_t nf)
{
    extern __shared__ float smem[];
    const uint32_t fb = threadIdx.x / a.tpf, i = threadIdx.x % a.tpf; /* frame in block, butterfly */
    const uint32_t f = blockIdx.x * a.fpb + fb;
    const bool live = f < nf;
    float* pm = smem + (size_t)fb * 2 * a.S;                          /* two buffers of S */
    float* L = smem + (size_t)a.fpb * 2 * a.S + (size_t)fb * a.lstride; /* the staged steps' soft values */
    float* BM = L + CHUNK * a.n; /* and their branch metrics, 2^n a step */
    __shared__ int carries[32], done[32], ok[32], used[32];
    __shared__ uint8_t out_word[2 << (GPUFEC_CONV_MAX_K - 1)];
    __shared__ uint32_t gen[GPUFEC_CONV_MAX_N];
    for (uint32_t q = threadIdx.x; q < 2 * a.S; q += blockDim.x) /* indexed by state: not from the */
        out_word[q] = a.out[q];                                    /* parameters (local memory) */
    for (uint32_t q = threadIdx.x; q < a.n; q += blockDim.x)
        gen[q] = a.generators[q];
    const float* frame = in + (size_t)(live ? f : 0) * a.n_tx;
    unsigned char* mine = ws + (size_t)(live ? f : 0) * a.ws_bytes;
    const size_t dec_words = (size_t)a.steps * a.words;
    /* the survivors: in shared memory when they fit (the traceback's chain of dependent loads is
     * then short), else in the frame's workspace */
    uint32_t* dec = a.dec_in_smem ? (uint32_t*)(smem + (size_t)a.fpb * (2 * a.S + a.lstride)) + fb * dec_words
                                  : (uint32_t*)mine;
    uint8_t* u = mine + (a.dec_in_smem ? 0 : dec_words * 4);
    const bool tb = a.term == GPUFEC_CONV_TERM_TAIL_BITING;
    const uint32_t half = a.S / 2, lane = threadIdx.x & 31;
    if (i == 0) {
        carries[fb] = 0;
        done[fb] = !live;
        ok[fb] = 0;
        used[fb] = 0;
    }
    for (uint32_t s = i; s < a.S; s += a.tpf)
        pm[s] = tb || s == 0 ? 0.0f : CONV_UNREACHED;
    int carry = 0;
    __syncthreads();
    /* the butterfly's four output words (predecessor 2i or 2i+1, input 0 or 1), fixed for the
     * frame: in registers, not read again every step */
    uint32_t word[4] = {0, 0, 0, 0};
    if (i < a.S / 2)
        for (uint32_t q = 0; q < 4; q++)
            word[q] = out_word[4 * i + q];
    for (int pass = 1; pass <= a.max_passes; pass++) {
        if (!__syncthreads_or(!done[fb] && i == 0))
            break;
        uint32_t cur = 0;
        for (uint32_t t = 0; t < a.steps; t++) {
            if (t % CHUNK == 0) {
                frame_sync(a);
                const uint32_t count = (a.steps - t < CHUNK ? a.steps - t : CHUNK) * a.n;
                for (uint32_t q = i; q < count; q += a.tpf)
                    L[q] = live ? tx_map_load(a.map, a.k + t * a.n + q, frame, &carry) : 0.0f;
                frame_sync(a);
                if (a.words_bm) { /* every output word's metric of every staged step, once */
                    const uint32_t metrics = count / a.n * a.words_bm;
                    for (uint32_t q = i; q < metrics; q += a.tpf)
                        BM[q] = conv_branch_metric(L + q / a.words_bm * a.n, a.n, q % a.words_bm);
                    frame_sync(a);
                }
            }
            const float* Lt = L + (t % CHUNK) * a.n;
            const float* Bt = BM + (t % CHUNK) * a.words_bm;
            const float* p = pm + cur * a.S;
            float* np = pm + (cur ^ 1) * a.S;
            const float norm = p[0];
            uint32_t d[2] = {0, 0};
            if (i < half) {
                const float m_even = p[2 * i], m_odd = p[2 * i + 1];
                for (uint32_t b = 0; b < 2; b++) { /* input b: into state i + b S/2 */
                    const uint32_t c0 = word[b], c1 = word[2 + b];
                    const float m0 = m_even + (a.words_bm ? Bt[c0] : conv_branch_metric(Lt, a.n, c0));
                    const float m1 = m_odd + (a.words_bm ? Bt[c1] : conv_branch_metric(Lt, a.n, c1));
                    np[i + b * half] = conv_acs(m0, m1, norm, &d[b]);
                }
            }
            const uint32_t lo = __ballot_sync(0xffffffffu, d[0]), hi = __ballot_sync(0xffffffffu, d[1]);
            if (live) {
                uint32_t* row = dec + (size_t)t * a.words;
                if (a.S >= 64) { /* a warp holds 32 butterflies of one frame */
                    if (lane == 0) {
                        row[i / 32] = lo;
                        row[a.S / 64 + i / 32] = hi;
                    }
                } else if (i == 0) { /* S/2 lanes per frame, from lane `lane` on */
                    const uint32_t mask = half == 32 ? 0xffffffffu : (1u << half) - 1u;
                    row[0] = ((lo >> lane) & mask) | (((hi >> lane) & mask) << half);
                }
            }
            cur ^= 1;
            frame_sync(a);
        }
        __syncthreads(); /* every frame's steps done */
        if (cur) /* the end metrics back into buffer 0, where the next pass starts */
            for (uint32_t s = i; s < a.S; s += a.tpf)
                pm[s] = pm[a.S + s];
        if (carry)
            atomicOr(&carries[fb], 1);
        __syncthreads();
        if (i == 0 && !done[fb]) {
            uint32_t end = 0;
            if (a.term != GPUFEC_CONV_TERM_ZERO)
                for (uint32_t s = 1; s < a.S; s++)
                    if (pm[s] > pm[end])
                        end = s;
            uint32_t st = end;
            for (uint32_t t = a.steps; t-- > 0;) {
                if (t < a.k)
                    u[t] = (uint8_t)conv_input_of(st, a.K);
                st = conv_prev_state(st, (dec[(size_t)t * a.words + (st >> 5)] >> (st & 31)) & 1u, a.S);
            }
            ok[fb] = !tb || st == end;
            used[fb] = pass;
            done[fb] = ok[fb] || pass == a.max_passes;
        }
        __syncthreads();
    }
    if (!live)
        return;
    uint8_t* o = out + (size_t)f * a.out_len;
    for (uint32_t t = i; t < a.out_len; t += a.tpf)
        o[t] = (uint8_t)conv_mother_bit(u, a.k, a.n, a.K, gen, tb, a.out_pos ? a.out_pos[t] : t);
    if (i == 0) {
        iters[f] = used[fb];
        conv[f] = (uint8_t)(ok[fb] && carries[fb]);
    }
}

struct conv_plan {
    const decoder_config* cfg;
    conv_args args;
    tx_map_dev map;
    uint32_t* out_pos;
    size_t smem;
    char describe[128];
};

size_t plan_state_bytes(const void* plan, uint32_t B) { return ((const conv_plan*)plan)->args.ws_bytes * B; }

cudaError_t plan_launch(const void* plan, const engine_chunk* ch, cudaStream_t st)
{
    const conv_plan* p = (const conv_plan*)plan;
    conv_args a = p->args;
    if (a.term == GPUFEC_CONV_TERM_TAIL_BITING)
        a.max_passes = p->cfg->opts.max_iterations; /* a per-call setting */
    const uint32_t blocks = (ch->nf + a.fpb - 1) / a.fpb;
    k_viterbi<<<blocks, a.tpf * a.fpb, p->smem, st>>>(a, ch->in, (unsigned char*)ch->state, ch->out, ch->iterations,
                                                      ch->converged, ch->nf);
    return cudaGetLastError();
}

const char* plan_describe(const void* plan) { return ((const conv_plan*)plan)->describe; }

void plan_destroy(void* plan)
{
    conv_plan* p = (conv_plan*)plan;
    if (!p)
        return;
    cudaFree(p->out_pos);
    tx_map_dev_free(&p->map);
    free(p);
}

const engine_plan_ops conv_plan_ops = {plan_describe, plan_state_bytes, plan_launch, plan_destroy};

gpufec_status create(const decoder_config* cfg, void** state, impl_caps* caps)
{
    ENGINE_CHECK(cfg, cudaSetDevice(cfg->opts.device), "cudaSetDevice");
    const conv_code* cc = conv_of(cfg->code);
    const gpufec_conv_info* ci = &cc->info;
    conv_plan* p = (conv_plan*)calloc(1, sizeof *p);
    if (!p)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    p->cfg = cfg;
    conv_args& a = p->args;
    a.K = ci->K, a.n = ci->n, a.S = cc->S, a.k = ci->k, a.steps = ci->steps;
    memcpy(a.generators, ci->generators, sizeof a.generators);
    memcpy(a.out, cc->out, sizeof a.out);
    a.n_tx = cfg->code->tx.n_tx;
    a.out_len = cfg->out_len;
    a.words = a.S > 32 ? a.S / 32 : 1;
    a.term = (int)ci->termination;
    a.max_passes = 1;
    a.tpf = a.S / 2;
    a.fpb = a.tpf >= 128 ? 1 : 128 / a.tpf; /* 128 threads a block, at most 32 frames */
    a.fpb = a.fpb > 32 ? 32 : a.fpb;
    a.ws_bytes = ((size_t)a.steps * a.words * 4 + a.k + 255) & ~(size_t)255;
    a.words_bm = a.n <= 4 ? 1u << a.n : 0;
    a.lstride = CHUNK * (a.n + a.words_bm);
    p->smem = (size_t)a.fpb * (2 * a.S + a.lstride) * sizeof(float);
    const int optin = engine_device_limits(cfg).optin;
    const size_t dec_bytes = (size_t)a.fpb * a.steps * a.words * 4;
    /* Survivors on chip when a block's fit in a quarter of the SM's shared memory (four blocks
     * resident, sixteen frames at K = 7): k = 1024 at K = 7 takes 33 KB for four frames. */
    a.dec_in_smem = p->smem + dec_bytes <= (size_t)optin / 4;
    if (a.dec_in_smem) {
        p->smem += dec_bytes;
        a.ws_bytes = ((size_t)a.k + 255) & ~(size_t)255;
    }
    gpufec_status st = engine_upload_io(cfg, &p->out_pos, &p->map);
    if (st == GPUFEC_OK)
        st = engine_status(cfg, cuda_allow_shared((const void*)k_viterbi, p->smem), "cudaFuncSetAttribute");
    if (st != GPUFEC_OK) {
        plan_destroy(p);
        return st;
    }
    a.map = p->map.view();
    a.out_pos = p->out_pos;
    snprintf(p->describe, sizeof p->describe, "Viterbi K=%u, %u states, %u frames per block of %u threads, survivors "
             "in %s memory", a.K, a.S, a.fpb, a.tpf * a.fpb, a.dec_in_smem ? "shared" : "global");
    snprintf(caps->variant, sizeof caps->variant, "Viterbi, %u frames per block", a.fpb);
    /* Frames per chunk: at most 256 MiB of workspace per slot, 32768 frames. */
    return engine_start(cfg, &conv_plan_ops, p, engine_chunk_frames(cfg, a.ws_bytes, (size_t)256 << 20, 32768), NULL,
                        state, caps);
}

int accepts(const decoder_config* cfg, char* why, size_t why_len) { return cuda_backend_probe(cfg->opts.device, why, why_len); }

} // namespace

extern "C" const backend_ops conv_cuda_ops = {
    "cuda", GPUFEC_FAMILY_CONV, GPUFEC_BACKEND_CUDA, /* raw_input */ 1, accepts, create, engine_destroy_state,
    engine_decode, engine_decode_async, engine_synchronize, engine_kernel_seconds,
};
