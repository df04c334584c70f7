#include "code_internal.h"
#include "text_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ldpc_rules.h"

void code_free(gpufec_code* c)
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
    free(c->full_src);
    free(c->tx_pos);
    free(c->info_pos);
    free(c->layer_ptr);
    free(c->layer_rows);
    qc_view_free(c);
    free(c);
}

gpufec_status code_set_transmission(gpufec_code* c, const uint8_t* puncture, uint32_t shortened,
                                   gpufec_diag* diag)
{
    if (c->k_enc == 0)
        return text_fail(diag, 0, "H has full column rank (%u): the code has no information bits", c->rank);
    if (c->k_enc <= shortened)
        return text_fail(diag, 0, "the code has %u information bits, %u shortened: none left",
                         c->k_enc, shortened);
    uint32_t* info_pos = malloc(((size_t)c->k_enc + 1) * sizeof *info_pos);
    int32_t* full_src = malloc((size_t)c->n * sizeof *full_src);
    uint32_t* tx_pos = malloc((size_t)c->n * sizeof *tx_pos);
    if (!info_pos || !full_src || !tx_pos) {
        free(info_pos);
        free(full_src);
        free(tx_pos);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    c->k = c->k_enc - shortened;
    c->shortened = shortened;
    memcpy(info_pos, c->enc_info_pos, (size_t)c->k * sizeof *info_pos);
    for (uint32_t j = 0; j < c->n; j++)
        full_src[j] = puncture && puncture[j] ? CODE_SRC_PUNCTURED : 0;
    /* Filler bits: the last information positions, as 5G NR places them. */
    for (uint32_t i = c->k; i < c->k_enc; i++)
        full_src[c->enc_info_pos[i]] = CODE_SRC_KNOWN_ZERO;
    uint32_t t = 0;
    c->punctured = 0;
    for (uint32_t j = 0; j < c->n; j++) {
        if (full_src[j] == 0) {
            tx_pos[t] = j;
            full_src[j] = (int32_t)t++;
        } else if (full_src[j] == CODE_SRC_PUNCTURED) {
            c->punctured++;
        }
    }
    free(c->info_pos);
    free(c->full_src);
    free(c->tx_pos);
    c->info_pos = info_pos;
    c->n_tx = t;
    if (t == c->n) { /* nothing removed: the identity map needs no tables */
        free(full_src);
        free(tx_pos);
        full_src = NULL;
        tx_pos = NULL;
    }
    c->full_src = full_src;
    c->tx_pos = tx_pos;
    return GPUFEC_OK;
}

gpufec_status code_finish(gpufec_code* c, const uint8_t* puncture, uint32_t shortened,
                          gpufec_diag* diag)
{
    gpufec_status st = GPUFEC_OK;
    if (!c->encode)
        st = alt_encoder_prepare(c, diag);
    if (st == GPUFEC_OK && c->qc_shift && !c->qv_z)
        st = qc_view_from_shifts(c);
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
    if (st == GPUFEC_OK)
        st = code_set_transmission(c, puncture, shortened, diag);
    if (st != GPUFEC_OK)
        code_free(c);
    return st;
}

gpufec_status code_build(gpufec_code** out, uint32_t n, uint32_t m, const uint32_t* col_ptr,
                         const uint32_t* col_rows, gpufec_diag* diag)
{
    gpufec_code* c = NULL;
    gpufec_status st = code_build_graph(&c, n, m, col_ptr, col_rows);
    if (st == GPUFEC_OK)
        st = code_finish(c, NULL, 0, diag);
    if (st == GPUFEC_OK)
        *out = c;
    return st;
}

void code_load_llr(const gpufec_code* c, const float* tx, float* full)
{
    for (uint32_t j = 0; j < c->n; j++)
        full[j] = code_mother_value(c->full_src, j, tx);
}

gpufec_status gpufec_code_destroy(gpufec_code* code)
{
    code_free(code);
    return GPUFEC_OK;
}

gpufec_status gpufec_code_get_info(const gpufec_code* c, gpufec_code_info* info)
{
    if (!c || !info)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    info->n = c->n_tx;
    info->n_full = c->n;
    info->punctured = c->punctured;
    info->shortened = c->shortened;
    info->m = c->m;
    info->k = c->k;
    info->rank = c->rank;
    info->edges = c->edges;
    info->max_var_degree = c->max_var_degree;
    info->max_check_degree = c->max_check_degree;
    info->rate = (double)c->k / (double)c->n_tx;
    info->qc_lifting = c->qc_z;
    info->structured_encoder = c->alt == NULL;
    info->layers = c->n_layers;
    info->layer_lifting = c->qv_z;
    return GPUFEC_OK;
}

gpufec_status gpufec_code_info_positions(const gpufec_code* c, uint32_t* positions)
{
    if (!c || !positions)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    memcpy(positions, c->info_pos, (size_t)c->k * sizeof *positions);
    return GPUFEC_OK;
}

gpufec_status gpufec_code_syndrome_weight(const gpufec_code* c, const uint8_t* word,
                                          uint32_t* weight)
{
    if (!c || !word || !weight)
        return GPUFEC_ERR_INVALID_ARGUMENT;
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

gpufec_status gpufec_code_encode_full(const gpufec_code* c, const uint8_t* info, size_t n_frames,
                                      uint8_t* codewords)
{
    if (!c || (n_frames && (!info || !codewords)))
        return GPUFEC_ERR_INVALID_ARGUMENT;
    for (size_t f = 0; f < n_frames; f++) {
        uint8_t* x = codewords + f * c->n;
        const uint8_t* u = info + f * c->k;
        for (uint32_t i = 0; i < c->k_enc; i++)
            x[c->enc_info_pos[i]] = i < c->k ? (uint8_t)(u[i] != 0) : 0;
        gpufec_status st = c->encode(c, x);
        if (st)
            return st;
    }
    return GPUFEC_OK;
}

gpufec_status gpufec_code_encode(const gpufec_code* c, const uint8_t* info, size_t n_frames,
                                 uint8_t* out)
{
    if (!c || (n_frames && (!info || !out)))
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (!c->tx_pos)
        return gpufec_code_encode_full(c, info, n_frames, out);
    uint8_t* x = malloc(c->n);
    if (!x)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    for (size_t f = 0; f < n_frames; f++) {
        gpufec_status st = gpufec_code_encode_full(c, info + f * c->k, 1, x);
        if (st) {
            free(x);
            return st;
        }
        for (uint32_t t = 0; t < c->n_tx; t++)
            out[f * c->n_tx + t] = x[c->tx_pos[t]];
    }
    free(x);
    return GPUFEC_OK;
}

gpufec_status gpufec_code_extract_info(const gpufec_code* c, const uint8_t* codewords,
                                       size_t n_frames, uint8_t* info)
{
    if (!c || (n_frames && (!codewords || !info)))
        return GPUFEC_ERR_INVALID_ARGUMENT;
    for (size_t f = 0; f < n_frames; f++)
        for (uint32_t i = 0; i < c->k; i++)
            info[f * c->k + i] = codewords[f * c->n + c->info_pos[i]];
    return GPUFEC_OK;
}

gpufec_status gpufec_code_export_alist(const gpufec_code* c, const char* path)
{
    if (!c || !path)
        return GPUFEC_ERR_INVALID_ARGUMENT;
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

gpufec_status read_whole_file(const char* path, size_t max_bytes, char** text, size_t* length,
                              gpufec_diag* diag)
{
    /* Only regular files: a FIFO would block the caller until a writer came, a character device
     * (/dev/zero) would never end. O_NONBLOCK keeps the open itself from waiting on a FIFO that
     * replaced the file after the check. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return text_fail_as(GPUFEC_ERR_IO, diag, 0, "cannot open '%.200s'", path);
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return text_fail_as(GPUFEC_ERR_IO, diag, 0, "'%.160s' is not a regular file", path);
    }
    if ((uint64_t)sb.st_size > max_bytes) {
        close(fd);
        return text_fail_as(GPUFEC_ERR_TOO_LARGE, diag, 0, "'%.160s' is larger than %zu bytes", path,
                            max_bytes);
    }
    const size_t size = (size_t)sb.st_size;
    char* buf = malloc(size + 1);
    size_t len = 0;
    int failed = 0;
    while (buf && len < size) {
        ssize_t got = read(fd, buf + len, size - len);
        if (got < 0 && errno == EINTR)
            continue;
        failed = got < 0;
        if (got <= 0)
            break; /* an error, or the file shrank: then parse what is there */
        len += (size_t)got;
    }
    close(fd);
    if (!buf)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    if (failed) {
        free(buf);
        return text_fail_as(GPUFEC_ERR_IO, diag, 0, "cannot read '%.200s'", path);
    }
    buf[len] = '\0';
    *text = buf;
    *length = len;
    return GPUFEC_OK;
}

int path_is_regular_file(const char* path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}
