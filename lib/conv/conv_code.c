/* Convolutional codes: the encoder and the family record. */
#include "conv_code.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t conv_start_state(const conv_code* cc, const uint8_t* u)
{
    const gpufec_conv_info* i = &cc->info;
    uint32_t s = 0;
    if (i->termination == GPUFEC_CONV_TERM_TAIL_BITING)
        for (uint32_t t = i->k - (i->K - 1); t < i->k; t++)
            s = conv_next_state(s, u[t] != 0, i->K);
    return s;
}

void conv_encode_bits(const conv_code* cc, const uint8_t* u, uint8_t* mother)
{
    const gpufec_conv_info* i = &cc->info;
    uint32_t s = conv_start_state(cc, u);
    uint8_t* coded = mother + i->k;
    for (uint32_t t = 0; t < i->steps; t++) {
        const uint32_t b = t < i->k ? u[t] != 0 : 0;
        const uint32_t c = cc->out[2 * s + b];
        for (uint32_t j = 0; j < i->n; j++)
            coded[(size_t)t * i->n + j] = (uint8_t)((c >> j) & 1u);
        s = conv_next_state(s, b, i->K);
    }
    for (uint32_t t = 0; t < i->k; t++)
        mother[t] = u[t] != 0;
}

static gpufec_status encode(const void* body, uint8_t* mother)
{
    const conv_code* cc = (const conv_code*)body;
    uint8_t* u = malloc(cc->info.k);
    if (!u)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    memcpy(u, mother, cc->info.k);
    conv_encode_bits(cc, u, mother);
    free(u);
    return GPUFEC_OK;
}

static void free_body(void* body)
{
    conv_code* cc = (conv_code*)body;
    if (!cc)
        return;
    free(cc->info_pos);
    free(cc);
}

static void describe(const void* body, gpufec_code_info* info)
{
    (void)body;
    info->structured_encoder = 1; /* a shift register */
}

static void summary(const void* body, char* text, size_t length)
{
    const gpufec_conv_info* i = &((const conv_code*)body)->info;
    static const char* const term[] = {"zero tail", "tail biting", "truncated"};
    int w = snprintf(text, length, "convolutional K=%u (", i->K);
    for (uint32_t j = 0; j < i->n && w >= 0 && (size_t)w < length; j++)
        w += snprintf(text + w, length - (size_t)w, "%s%o", j ? ", " : "", i->generators[j]);
    if (w >= 0 && (size_t)w < length)
        snprintf(text + w, length - (size_t)w, "), %s%s", term[i->termination], i->punct_period ? ", punctured" : "");
}

gpufec_status gpufec_code_conv_info(const gpufec_code* code, gpufec_conv_info* info)
{
    if (!code || !info)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (code->family != &conv_family)
        return GPUFEC_ERR_UNSUPPORTED;
    *info = conv_of(code)->info;
    return GPUFEC_OK;
}

const family_record conv_family = {
    .id = GPUFEC_FAMILY_CONV,
    .name = "conv",
    .label = "Convolutional",
    .algorithm_option = "conv_algorithm",
    .free_body = free_body,
    .encode = encode,
    .syndrome_weight = NULL, /* decoded by the trellis, no parity checks */
    .describe = describe,
    .summary = summary,
    .builtin_count = conv_builtin_count,
    .builtin_name = conv_builtin_name,
    .open_name = conv_open_name,
    .open_file = conv_open_file,
    .defaults = conv_default_opts,
    .check_opts = conv_check_opts,
    .resolve_opts = conv_resolve_opts,
    .params = conv_params,
};
