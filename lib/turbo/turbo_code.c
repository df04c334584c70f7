/* LTE turbo codes: interleaver, encoder, CRC, the family record. */
#include "turbo_code.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int turbo_qpp_index(uint32_t K)
{
    int lo = 0, hi = TURBO_QPP_SIZES - 1;
    while (lo <= hi) {
        const int mid = (lo + hi) / 2;
        if (turbo_qpp_table[mid].K == K)
            return mid;
        if (turbo_qpp_table[mid].K < K)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

void turbo_qpp_fill(uint32_t K, uint32_t f1, uint32_t f2, uint32_t* perm)
{
    for (uint64_t i = 0; i < K; i++)
        perm[i] = (uint32_t)((f1 * i + f2 * ((i * i) % K)) % K);
}

gpufec_status gpufec_turbo_interleaver(uint32_t K, uint32_t* perm)
{
    const int q = turbo_qpp_index(K);
    if (q < 0 || !perm)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    turbo_qpp_fill(K, turbo_qpp_table[q].f1, turbo_qpp_table[q].f2, perm);
    return GPUFEC_OK;
}

/* One RSC encoder over K bits in the order `perm` (NULL: natural); writes parity z[0..K) and
 * the six tail values x_K, z_K, x_K+1, z_K+1, x_K+2, z_K+2. */
static void rsc(const uint8_t* u, const uint32_t* perm, uint32_t K, uint8_t* z, uint8_t tail[6])
{
    uint32_t s = 0;
    for (uint32_t k = 0; k < K; k++) {
        const uint32_t b = u[perm ? perm[k] : k] != 0;
        z[k] = (uint8_t)turbo_parity(s, b);
        s = turbo_next(s, b);
    }
    for (int t = 0; t < 3; t++) {
        const uint32_t b = turbo_tail_input(s);
        tail[2 * t] = (uint8_t)b;
        tail[2 * t + 1] = (uint8_t)turbo_parity(s, b);
        s = turbo_next(s, b);
    }
}

void turbo_encode_bits(const turbo_code* t, const uint8_t* u, uint8_t* mother)
{
    const uint32_t K = t->K;
    uint8_t* z = malloc(2 * (size_t)K + 1);
    uint8_t tail[12];
    if (!z) { /* cannot happen for K <= 6144 on any real machine; keep the output defined */
        memset(mother, 0, 3 * ((size_t)K + 4));
        return;
    }
    rsc(u, NULL, K, z, tail);
    rsc(u, t->perm, K, z + K, tail + 6);
    for (uint32_t i = 0; i < K; i++) {
        mother[3 * i] = u[i] != 0;
        mother[3 * i + 1] = z[i];
        mother[3 * i + 2] = z[K + i];
    }
    /* 36.212 5.1.3.2.2: the twelve tail bits fill d0, d1, d2 at K .. K+3 in the order
     * x_K z_K x_K+1 | z_K+1 x_K+2 z_K+2 | x'_K z'_K x'_K+1 | z'_K+1 x'_K+2 z'_K+2. */
    memcpy(mother + 3 * (size_t)K, tail, 12);
    free(z);
}

void turbo_crc24(const uint8_t* bits, size_t n, int crc_b, uint8_t parity[24])
{
    const uint32_t r = turbo_crc24_register(bits, (uint32_t)n, crc_b ? TURBO_CRC24B : TURBO_CRC24A);
    for (int i = 0; i < 24; i++)
        parity[i] = (uint8_t)((r >> (23 - i)) & 1u);
}

gpufec_status gpufec_lte_crc24(const uint8_t* bits, size_t n, int crc_b, uint8_t parity[24])
{
    if ((!bits && n) || !parity || (crc_b != 0 && crc_b != 1)) /* 0: CRC24A, 1: CRC24B, nothing else */
        return GPUFEC_ERR_INVALID_ARGUMENT;
    turbo_crc24(bits, n, crc_b, parity);
    return GPUFEC_OK;
}

int turbo_crc_ok(const turbo_code* t, const uint8_t* u)
{
    return turbo_crc24_register(u, t->K, t->crc_b ? TURBO_CRC24B : TURBO_CRC24A) == 0;
}

/* The family record's encode: the information positions (and with a CRC, its 24 bits computed
 * here) give the K systematic bits. */
static gpufec_status encode(const void* body, uint8_t* mother)
{
    const turbo_code* t = (const turbo_code*)body;
    uint8_t* u = malloc(t->K);
    if (!u)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < t->K - t->crc; i++)
        u[i] = mother[3 * i] != 0;
    if (t->crc)
        turbo_crc24(u, t->K - 24, t->crc_b, u + t->K - 24);
    turbo_encode_bits(t, u, mother);
    free(u);
    return GPUFEC_OK;
}

static void free_body(void* body)
{
    turbo_code* t = (turbo_code*)body;
    if (!t)
        return;
    free(t->perm);
    free(t->info_pos);
    free(t);
}

static void describe(const void* body, gpufec_code_info* info)
{
    (void)body;
    info->structured_encoder = 1; /* two recursive convolutional encoders */
}

static void summary(const void* body, char* text, size_t length)
{
    const turbo_code* t = (const turbo_code*)body;
    snprintf(text, length, "turbo, mother code N=%u%s", 3 * (t->K + 4),
             t->e > 3 * (t->K + 4) ? " (rate matching repeats some bits)" : "");
}

gpufec_status gpufec_code_turbo_info(const gpufec_code* code, gpufec_turbo_info* info)
{
    if (!code || !info)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (code->family != &turbo_family)
        return GPUFEC_ERR_UNSUPPORTED;
    const turbo_code* t = turbo_of(code);
    info->K = t->K;
    info->crc = t->crc;
    info->crc_b = t->crc_b;
    info->e = t->e;
    info->rv = t->rv;
    info->f1 = t->f1;
    info->f2 = t->f2;
    return GPUFEC_OK;
}

/* turbo_open.c, turbo_options.c */
size_t turbo_builtin_count(void);
const char* turbo_builtin_name(size_t index);
gpufec_status turbo_open_name(gpufec_code** out, const char* name, const char* suffix, gpufec_diag* diag);
gpufec_status turbo_open_file(gpufec_code** out, const char* path, const char* suffix, gpufec_diag* diag);
gpufec_status turbo_check_opts(const gpufec_decoder_opts* o, const gpufec_code* code, gpufec_diag* diag);
void turbo_resolve_opts(gpufec_decoder_opts* o, const gpufec_code* code);
void turbo_default_opts(gpufec_decoder_opts* o);
const param_desc* turbo_params(size_t* count);

const family_record turbo_family = {
    .id = GPUFEC_FAMILY_TURBO,
    .name = "turbo",
    .label = "LTE turbo",
    .algorithm_option = "turbo_algorithm",
    .free_body = free_body,
    .encode = encode,
    .syndrome_weight = NULL, /* no parity checks: the CRC is the turbo code's check */
    .describe = describe,
    .summary = summary,
    .builtin_count = turbo_builtin_count,
    .builtin_name = turbo_builtin_name,
    .open_name = turbo_open_name,
    .open_file = turbo_open_file,
    .defaults = turbo_default_opts,
    .check_opts = turbo_check_opts,
    .resolve_opts = turbo_resolve_opts,
    .params = turbo_params,
};
