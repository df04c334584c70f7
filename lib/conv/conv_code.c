/* Convolutional codes: the encoder and the family record. */
#include "conv_code.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The family record's encode: every mother bit from the information bits by the decoders' own
 * rule (conv_mother_bit), so the encoder and what the decoders emit cannot drift apart. */
static gpufec_status encode(const void* body, uint8_t* mother)
{
    const conv_code* cc = (const conv_code*)body;
    const gpufec_conv_info* i = &cc->info;
    uint8_t* u = malloc(i->k);
    if (!u)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    for (uint32_t t = 0; t < i->k; t++)
        u[t] = mother[t] != 0;
    const uint32_t n_full = i->k + i->steps * i->n;
    for (uint32_t pos = 0; pos < n_full; pos++)
        mother[pos] = (uint8_t)conv_mother_bit(u, i->k, i->n, i->K, i->generators,
                                               i->termination == GPUFEC_CONV_TERM_TAIL_BITING, pos);
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
