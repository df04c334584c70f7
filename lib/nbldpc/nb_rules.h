/* The GF(q) LDPC update rules, written once for the CPU decoders and (through nvcc) the GPU:
 * element-wise helpers (one output element from whole input vectors, so a GPU thread per
 * element calls the same function that the CPU loops over) and the host loops around them.
 *
 * Messages are costs: -ln P(symbol) up to a constant, normalised so that the smallest is 0 (the
 * L-values of seeds 000 and 001). At a check sum_e h_e x_e = 0, the vector of edge e is first
 * moved to the y = h_e x domain (U_e[h_e a] = V_e[a]); the check's rule combines the y-vectors
 * over GF(q)'s addition (XOR); the result for y_e is moved back by C_e[a] = out_e[h_e a]. So the
 * merger needs no GF multiplication (seed 001's modified min-max). */
#ifndef GPUFEC_NB_RULES_H
#define GPUFEC_NB_RULES_H

#include "nb_gf.h"

/* Costs are clamped at NB_COST_MAX (to keep them finite), far above NB_PROB_FLOOR_COST, the cost
 * of the smallest probability the FFT's check messages carry (e^-60). The margin matters: with
 * the two equal, a layered decoder's posterior (a clamped input plus a floored message) stops
 * being their sum, and a converged frame was seen to fall apart a few iterations later. */
#define NB_COST_MAX 1000.0f
#define NB_PROB_FLOOR_COST 60.0f

/* Cost of symbol a from its p bit LLRs (ln P(0)/P(1)): the |LLR| of every bit where a disagrees
 * with the bit's hard decision. */
GPUFEC_HD float nb_symbol_cost(const float* llr, uint32_t p, uint32_t a)
{
    float c = 0.0f;
    for (uint32_t i = 0; i < p; i++) {
        const float l = llr[i];
        const uint32_t hard = l < 0.0f;
        if (((a >> i) & 1u) != hard)
            c += fabsf(l);
    }
    return c;
}

/* y-domain vector of an edge: U[h a] = V[a] (h != 0), i.e. U[b] = V[b / h]. */
GPUFEC_HD float nb_to_y(const nb_gf* f, const float* v, uint32_t h, uint32_t b) { return v[nb_gf_div(f, b, h)]; }
/* Back from the y domain: C[a] = out[h a]. */
GPUFEC_HD float nb_from_y(const nb_gf* f, const float* out, uint32_t h, uint32_t a) { return out[nb_gf_mul(f, h, a)]; }

/* ---- Min-max (Savin; forward / backward / merger of seed 001) ---- */

/* Element b of the min-max convolution of F and G over GF(q)'s addition:
 * min over x of max(F[x], G[b ^ x]). */
#if defined(__CUDA_ARCH__)
#define NB_UNROLL4 _Pragma("unroll 4")
#else
#define NB_UNROLL4
#endif

GPUFEC_HD float nb_minmax_at(const float* F, const float* G, uint32_t q, uint32_t b)
{
    float best = 3.0e38f;
    NB_UNROLL4
    for (uint32_t x = 0; x < q; x++) {
        const float a = F[x], c = G[b ^ x];
        const float m = a > c ? a : c;
        best = m < best ? m : best;
    }
    return best;
}

/* ---- FFT-BP (seed 000): the check node in the transform domain ---- */

/* One stage of the Walsh-Hadamard transform (the Fourier transform over GF(2^p)): element b of
 * stage `bit` from the previous stage's vector. Applying all p stages transforms; applying them
 * again and dividing by q transforms back. */
GPUFEC_HD float nb_wht_stage_at(const float* v, uint32_t bit, uint32_t b)
{
    const uint32_t m = 1u << bit;
    return (b & m) ? v[b ^ m] - v[b] : v[b] + v[b ^ m];
}

/* Probability of element b of a cost vector whose minimum is 0 (the vector sums to 1 after
 * dividing by the sum of these). */
GPUFEC_HD float nb_prob_of_cost(float c) { return expf(-c); }

/* Cost of a probability from the inverse transform (clamped: rounding can make it <= 0). */
GPUFEC_HD float nb_cost_of_prob(float p)
{
    const float floor_p = 8.7565e-27f; /* e^-NB_PROB_FLOOR_COST */
    return -logf(p > floor_p ? p : floor_p);
}

/* ---- Host loops ---- */
#if !defined(__CUDA_ARCH__)

/* Subtracts the minimum (and clamps at NB_COST_MAX, so no cost grows without bound). */
static inline void nb_normalise(float* v, uint32_t q)
{
    float m = v[0];
    for (uint32_t a = 1; a < q; a++)
        m = v[a] < m ? v[a] : m;
    for (uint32_t a = 0; a < q; a++) {
        const float x = v[a] - m;
        v[a] = x < NB_COST_MAX ? x : NB_COST_MAX;
    }
}

static inline void nb_minmax_conv(const float* F, const float* G, uint32_t q, float* out)
{
    for (uint32_t b = 0; b < q; b++)
        out[b] = nb_minmax_at(F, G, q, b);
}

/* In-place Walsh-Hadamard transform of q = 2^p values (tmp: q floats). */
static inline void nb_wht(float* v, float* tmp, uint32_t p)
{
    const uint32_t q = 1u << p;
    for (uint32_t bit = 0; bit < p; bit++) {
        for (uint32_t b = 0; b < q; b++)
            tmp[b] = nb_wht_stage_at(v, bit, b);
        for (uint32_t b = 0; b < q; b++)
            v[b] = tmp[b];
    }
}

/* Scratch of one check update: 4 vectors per edge of the largest check, 1 more. */
static inline size_t nb_check_scratch_floats(uint32_t q, uint32_t max_degree) { return (4u * (size_t)max_degree + 1) * q; }

/* One check of degree d: V[e] (edge e's variable-to-check costs, min 0) -> C[e] (check-to-
 * variable costs, min 0); V and C are d vectors of q, h the coefficients. Min-max: forward and
 * backward products F, B by min-max convolution, merged without multiplications. FFT-BP: the
 * y-domain probabilities transformed, forward and backward products of the transforms, each
 * edge's product of the others transformed back. */
static inline void nb_check_update(const nb_gf* f, int fft, const float* V, const uint8_t* h, uint32_t d, float* C,
                                   float* scratch)
{
    const uint32_t q = f->q;
    float *U = scratch, *F = U + (size_t)d * q, *B = F + (size_t)d * q, *O = B + (size_t)d * q;
    float* tmp = O + (size_t)d * q;
    for (uint32_t e = 0; e < d; e++)
        for (uint32_t b = 0; b < q; b++)
            U[(size_t)e * q + b] = nb_to_y(f, V + (size_t)e * q, h[e], b);
    if (d == 1) { /* a check on one symbol forces it to 0 */
        for (uint32_t a = 0; a < q; a++)
            C[a] = a ? NB_COST_MAX : 0.0f;
        return;
    }
    if (fft) {
        for (uint32_t e = 0; e < d; e++) {
            float* u = U + (size_t)e * q;
            float s = 0.0f;
            for (uint32_t b = 0; b < q; b++)
                s += u[b] = nb_prob_of_cost(u[b]);
            for (uint32_t b = 0; b < q; b++)
                u[b] /= s;
            nb_wht(u, tmp, f->p);
        }
    }
    /* F[i] combines U[0..i], B[i] combines U[i..d-1]. */
    for (uint32_t b = 0; b < q; b++) {
        F[b] = U[b];
        B[(size_t)(d - 1) * q + b] = U[(size_t)(d - 1) * q + b];
    }
    for (uint32_t i = 1; i + 1 < d; i++) {
        float *Fi = F + (size_t)i * q, *Bi = B + (size_t)(d - 1 - i) * q;
        const float *Fp = Fi - q, *Bn = Bi + q, *Ui = U + (size_t)i * q, *Uj = U + (size_t)(d - 1 - i) * q;
        if (fft)
            for (uint32_t b = 0; b < q; b++) {
                Fi[b] = Fp[b] * Ui[b];
                Bi[b] = Bn[b] * Uj[b];
            }
        else {
            nb_minmax_conv(Fp, Ui, q, Fi);
            nb_minmax_conv(Bn, Uj, q, Bi);
        }
    }
    for (uint32_t e = 0; e < d; e++) {
        float* o = O + (size_t)e * q;
        const float* left = e > 0 ? F + (size_t)(e - 1) * q : NULL;
        const float* right = e + 1 < d ? B + (size_t)(e + 1) * q : NULL;
        if (!left || !right) {
            for (uint32_t b = 0; b < q; b++)
                o[b] = left ? left[b] : right[b];
        } else if (fft) {
            for (uint32_t b = 0; b < q; b++)
                o[b] = left[b] * right[b];
        } else {
            nb_minmax_conv(left, right, q, o);
        }
        if (fft) {
            nb_wht(o, tmp, f->p);
            for (uint32_t b = 0; b < q; b++)
                o[b] = nb_cost_of_prob(o[b] / (float)q);
        }
        float* c = C + (size_t)e * q;
        for (uint32_t a = 0; a < q; a++)
            c[a] = nb_from_y(f, o, h[e], a);
        nb_normalise(c, q);
    }
}
#endif

#endif
