/* The binary LDPC family's code side: completing a body into a code object (encoder, QC view,
 * layers, transmission), and the family record's encode / syndrome / describe. */
#include "ldpc_code.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ldpc_free(ldpc_code* c)
{
    if (!c)
        return;
    free(c->row_ptr);
    free(c->edge_var);
    free(c->col_ptr);
    free(c->col_edge);
    free(c->enc_info_pos);
    alt_plan_free(c->alt);
    free(c->qc_shift);
    free(c->enc_data);
    free(c->build_punctured);
    free(c->layer_ptr);
    free(c->layer_rows);
    qc_view_free(c);
    free(c);
}

static void free_body(void* body) { ldpc_free((ldpc_code*)body); }

/* Encoder, QC view, layers: what the decoders need beyond H. */
static gpufec_status finish_body(ldpc_code* c, gpufec_diag* diag)
{
    gpufec_status st = GPUFEC_OK;
    if (!c->encode)
        st = alt_encoder_prepare(c, diag);
    if (st == GPUFEC_OK && c->qc_shift && !c->qv_z)
        st = qc_view_from_shifts(c);
    else if (st == GPUFEC_OK && !c->qv_z)
        st = qc_view_detect(c);
    if (st == GPUFEC_OK && c->qv_z) {
        if (qc_view_check(c) && qc_view_color(c) == GPUFEC_OK) {
            for (uint32_t l = 0; l < c->qv_layers; l++)
                if (c->qv_ent_ptr[l + 1] - c->qv_ent_ptr[l] > c->qv_max_entries)
                    c->qv_max_entries = c->qv_ent_ptr[l + 1] - c->qv_ent_ptr[l];
        } else {
            qc_view_free(c); /* not exact: the generic layers and kernels serve this code */
        }
    }
    if (st == GPUFEC_OK)
        st = code_make_layers(c);
    if (st == GPUFEC_OK && c->k_enc == 0)
        st = text_fail(diag, 0, "H has full column rank (%u): the code has no information bits", c->rank);
    return st;
}

gpufec_status ldpc_complete(gpufec_code** out, ldpc_code* body, uint32_t kprime, gpufec_diag* diag)
{
    *out = NULL;
    gpufec_status st = finish_body(body, diag);
    const uint32_t k = body->k_enc - (body->build_shortened < body->k_enc ? body->build_shortened : body->k_enc);
    if (st == GPUFEC_OK && kprime > k)
        st = text_fail(diag, 0, "cannot shorten to %u information bits: the code has %u", kprime, k);
    if (st) {
        ldpc_free(body);
        return st;
    }
    uint8_t* punctured = body->build_punctured;
    const uint32_t shortened = body->build_shortened + (kprime ? k - kprime : 0);
    body->build_punctured = NULL;
    gpufec_code* c = NULL;
    st = code_create(&c, &ldpc_family, body, body->n, body->k_enc, body->enc_info_pos);
    if (st == GPUFEC_OK && (punctured || shortened))
        st = code_set_transmission(c, NULL, 0, punctured, shortened, diag);
    free(punctured);
    if (st) {
        code_free(c);
        return st;
    }
    *out = c;
    return GPUFEC_OK;
}

static gpufec_status encode(const void* body, uint8_t* mother)
{
    const ldpc_code* c = (const ldpc_code*)body;
    return c->encode(c, mother);
}

static gpufec_status syndrome_weight(const void* body, const uint8_t* word, uint32_t* weight)
{
    const ldpc_code* c = (const ldpc_code*)body;
    uint32_t w = 0;
    for (uint32_t i = 0; i < c->m; i++) {
        unsigned parity = 0;
        for (uint32_t e = c->row_ptr[i]; e < c->row_ptr[i + 1]; e++)
            parity ^= word[c->edge_var[e]] != 0;
        w += parity;
    }
    *weight = w;
    return GPUFEC_OK;
}

static void describe(const void* body, gpufec_code_info* info)
{
    const ldpc_code* c = (const ldpc_code*)body;
    info->m = c->m;
    info->rank = c->rank;
    info->edges = c->edges;
    info->max_var_degree = c->max_var_degree;
    info->max_check_degree = c->max_check_degree;
    info->qc_lifting = c->qc_z;
    info->structured_encoder = c->alt == NULL;
    info->layers = c->n_layers;
    info->layer_lifting = c->qv_z;
}

gpufec_status gpufec_code_export_alist(const gpufec_code* code, const char* path)
{
    if (!code || !path)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (code->family != &ldpc_family)
        return GPUFEC_ERR_UNSUPPORTED;
    const ldpc_code* c = ldpc_of(code);
    FILE* f = fopen(path, "w");
    if (!f)
        return GPUFEC_ERR_IO;
    fprintf(f, "%u %u\n%u %u\n", c->n, c->m, c->max_var_degree, c->max_check_degree);
    for (uint32_t j = 0; j < c->n; j++)
        fprintf(f, "%u%c", c->col_ptr[j + 1] - c->col_ptr[j], j + 1 < c->n ? ' ' : '\n');
    for (uint32_t i = 0; i < c->m; i++)
        fprintf(f, "%u%c", c->row_ptr[i + 1] - c->row_ptr[i], i + 1 < c->m ? ' ' : '\n');
    /* The check of edge col_edge[t] is found by locating t's edge among the row ranges. */
    for (uint32_t j = 0; j < c->n; j++) {
        for (uint32_t t = c->col_ptr[j]; t < c->col_ptr[j + 1]; t++) {
            uint32_t e = c->col_edge[t], lo = 0, hi = c->m;
            while (hi - lo > 1) {
                uint32_t mid = (lo + hi) / 2;
                if (c->row_ptr[mid] <= e)
                    lo = mid;
                else
                    hi = mid;
            }
            fprintf(f, "%u%c", lo + 1, t + 1 < c->col_ptr[j + 1] ? ' ' : '\n');
        }
    }
    for (uint32_t i = 0; i < c->m; i++)
        for (uint32_t e = c->row_ptr[i]; e < c->row_ptr[i + 1]; e++)
            fprintf(f, "%u%c", c->edge_var[e] + 1, e + 1 < c->row_ptr[i + 1] ? ' ' : '\n');
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return GPUFEC_ERR_IO;
    return GPUFEC_OK;
}

/* ldpc_open.c, ldpc_options.c */
size_t ldpc_builtin_count(void);
const char* ldpc_builtin_name(size_t index);
gpufec_status ldpc_open_name(gpufec_code** out, const char* name, const char* suffix, gpufec_diag* diag);
gpufec_status ldpc_open_file(gpufec_code** out, const char* path, const char* suffix, gpufec_diag* diag);
gpufec_status ldpc_check_opts(const gpufec_decoder_opts* o, const gpufec_code* code, gpufec_diag* diag);
void ldpc_resolve_opts(gpufec_decoder_opts* o, const gpufec_code* code);
void ldpc_default_opts(gpufec_decoder_opts* o);
const param_desc* ldpc_params(size_t* count);

const family_record ldpc_family = {
    .id = GPUFEC_FAMILY_LDPC,
    .name = "ldpc",
    .label = "LDPC",
    .algorithm_option = "algorithm",
    .free_body = free_body,
    .encode = encode,
    .syndrome_weight = syndrome_weight,
    .describe = describe,
    .builtin_count = ldpc_builtin_count,
    .builtin_name = ldpc_builtin_name,
    .open_name = ldpc_open_name,
    .open_file = ldpc_open_file,
    .defaults = ldpc_default_opts,
    .check_opts = ldpc_check_opts,
    .resolve_opts = ldpc_resolve_opts,
    .params = ldpc_params,
};
