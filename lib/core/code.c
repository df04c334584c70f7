/* The family-neutral code object: lifetime, transmission, information positions, encoding,
 * and the public calls that every family answers the same way. */
#include "code_internal.h"
#include "crc24.h"
#include "family.h"
#include "text_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const family_record* record_of(gpufec_family family)
{
    for (size_t i = 0; family_registry[i]; i++)
        if (family_registry[i]->id == family)
            return family_registry[i];
    return NULL;
}

const char* gpufec_family_name(gpufec_family family)
{
    const family_record* r = record_of(family);
    return r ? r->name : "unknown";
}

const char* gpufec_family_label(gpufec_family family)
{
    const family_record* r = record_of(family);
    return r ? r->label : NULL;
}

const char* gpufec_family_algorithm_option(gpufec_family family)
{
    const family_record* r = record_of(family);
    return r ? r->algorithm_option : NULL;
}

int gpufec_family_reads_option(gpufec_family family, const char* name)
{
    const family_record* r = record_of(family);
    if (!r || !name)
        return 0;
    size_t count = 0;
    const param_desc* t = r->params ? r->params(&count) : NULL;
    for (size_t i = 0; i < count; i++)
        if (strcmp(t[i].name, name) == 0)
            return 1;
    for (const char* const* s = r->shared_params; s && *s; s++)
        if (strcmp(*s, name) == 0)
            return 1;
    return 0;
}

size_t gpufec_family_count(void)
{
    size_t n = 0;
    while (family_registry[n])
        n++;
    return n;
}

gpufec_status gpufec_family_at(size_t index, gpufec_family* family)
{
    if (!family || index >= gpufec_family_count())
        return GPUFEC_ERR_INVALID_ARGUMENT;
    *family = family_registry[index]->id;
    return GPUFEC_OK;
}

void code_free(gpufec_code* c)
{
    if (!c)
        return;
    if (c->body)
        c->family->free_body(c->body);
    free(c->info_pos);
    free(c->harq_pos);
    tx_map_free(&c->tx);
    free(c);
}

gpufec_status code_create(gpufec_code** out, const family_record* family, void* body, uint32_t n_full,
                          uint32_t k_mother, const uint32_t* mother_info_pos)
{
    *out = NULL;
    gpufec_code* c = calloc(1, sizeof *c);
    uint32_t* info_pos = malloc(((size_t)k_mother + 1) * sizeof *info_pos);
    if (!c || !info_pos) {
        free(c);
        free(info_pos);
        family->free_body(body);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    c->family = family;
    c->body = body;
    c->n_full = n_full;
    c->k_mother = k_mother;
    c->mother_info_pos = mother_info_pos;
    c->k = k_mother;
    memcpy(info_pos, mother_info_pos, (size_t)k_mother * sizeof *info_pos);
    c->info_pos = info_pos;
    c->tx.n_full = c->tx.n_tx = n_full; /* the identity map */
    *out = c;
    return GPUFEC_OK;
}

gpufec_status code_set_transmission(gpufec_code* c, const uint32_t* tx_pos, uint32_t n_tx,
                                    const uint8_t* punctured, uint32_t shortened, gpufec_diag* diag)
{
    if (c->k_mother <= shortened)
        return text_fail(diag, 0, "the code has %u information bits, %u shortened: none left", c->k_mother,
                         shortened);
    uint8_t* filler = shortened ? calloc(c->n_full, 1) : NULL;
    uint32_t* order = tx_pos ? NULL : malloc((size_t)c->n_full * sizeof *order);
    if ((shortened && !filler) || (!tx_pos && !order)) {
        free(filler);
        free(order);
        return GPUFEC_ERR_OUT_OF_MEMORY;
    }
    /* Filler bits: the last information positions, as 5G NR places them. */
    for (uint32_t i = c->k_mother - shortened; i < c->k_mother; i++)
        filler[c->mother_info_pos[i]] = 1;
    if (!tx_pos) { /* every position that is neither punctured nor filler, in order */
        n_tx = 0;
        for (uint32_t j = 0; j < c->n_full; j++)
            if (!(punctured && punctured[j]) && !(filler && filler[j]))
                order[n_tx++] = j;
        tx_pos = order;
    }
    gpufec_status st = tx_map_build(&c->tx, c->n_full, tx_pos, n_tx, filler, diag);
    free(filler);
    free(order);
    if (st == GPUFEC_OK) /* info_pos holds all k_mother: its first k are used */
        c->k = c->k_mother - shortened - c->crc_len;
    return st;
}

gpufec_status code_attach_crc(gpufec_code* c, uint32_t poly, uint32_t len, gpufec_diag* diag)
{
    if (c->crc_poly)
        return text_fail(diag, 0, "the code has a CRC already");
    if (c->k <= len)
        return text_fail(diag, 0, "a CRC%u needs more than %u information bits (the code has %u)", len, len, c->k);
    c->crc_poly = poly;
    c->crc_len = len;
    c->k -= len;
    return GPUFEC_OK;
}

gpufec_status gpufec_code_set_transmission(gpufec_code* c, const uint32_t* positions, uint32_t n,
                                           gpufec_diag* diag)
{
    if (diag) {
        diag->line = 0;
        diag->message[0] = '\0';
    }
    if (!c || !positions)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "code and positions must not be NULL");
    if (n == 0 || n > GPUFEC_MAX_CODE_LENGTH)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "n=%u: must be 1..%u", n, GPUFEC_MAX_CODE_LENGTH);
    return code_set_transmission(c, positions, n, NULL, c->tx.shortened, diag);
}

gpufec_status gpufec_code_destroy(gpufec_code* code)
{
    code_free(code);
    return GPUFEC_OK;
}

gpufec_status gpufec_code_summary(const gpufec_code* c, char* text, size_t length)
{
    if (!c || !text || !length)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (c->family->summary)
        c->family->summary(c->body, text, length);
    else
        snprintf(text, length, "GF(2)");
    return GPUFEC_OK;
}

gpufec_status gpufec_code_get_info(const gpufec_code* c, gpufec_code_info* info)
{
    if (!c || !info)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    memset(info, 0, sizeof *info);
    info->family = c->family->id;
    info->n = c->tx.n_tx;
    info->n_full = c->n_full;
    info->punctured = c->tx.punctured;
    info->shortened = c->tx.shortened;
    info->repeated = c->tx.repeated;
    info->k = c->k;
    info->rate = (double)c->k / (double)c->tx.n_tx;
    c->family->describe(c->body, info);
    return GPUFEC_OK;
}

gpufec_status gpufec_code_info_positions(const gpufec_code* c, uint32_t* positions)
{
    if (!c || !positions)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    memcpy(positions, c->info_pos, (size_t)c->k * sizeof *positions);
    return GPUFEC_OK;
}

gpufec_status gpufec_code_syndrome_weight(const gpufec_code* c, const uint8_t* word, uint32_t* weight)
{
    if (!c || !word || !weight)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (!c->family->syndrome_weight)
        return GPUFEC_ERR_UNSUPPORTED;
    return c->family->syndrome_weight(c->body, word, weight);
}

/* n_frames frames of `per_frame` bytes can be addressed (no buffer could hold more; a product
 * that wraps would address the wrong memory). */
static int frames_addressable(size_t n_frames, size_t per_frame)
{
    return per_frame == 0 || n_frames <= SIZE_MAX / per_frame;
}

gpufec_status gpufec_code_encode_full(const gpufec_code* c, const uint8_t* info, size_t n_frames,
                                      uint8_t* codewords)
{
    if (!c || (n_frames && (!info || !codewords)) || !frames_addressable(n_frames, c->n_full))
        return GPUFEC_ERR_INVALID_ARGUMENT;
    for (size_t f = 0; f < n_frames; f++) {
        uint8_t* x = codewords + f * c->n_full;
        const uint8_t* u = info + f * c->k;
        for (uint32_t i = 0; i < c->k_mother; i++)
            x[c->mother_info_pos[i]] = i < c->k ? (uint8_t)(u[i] != 0) : 0;
        if (c->crc_poly) {
            const uint32_t r = crc_register_at(u, NULL, c->k, c->crc_poly, c->crc_len);
            for (uint32_t j = 0; j < c->crc_len; j++)
                x[c->mother_info_pos[c->k + j]] = (uint8_t)((r >> (c->crc_len - 1 - j)) & 1u);
        }
        gpufec_status st = c->family->encode(c->body, x);
        if (st)
            return st;
    }
    return GPUFEC_OK;
}

gpufec_status gpufec_code_encode(const gpufec_code* c, const uint8_t* info, size_t n_frames,
                                 uint8_t* out)
{
    if (!c || (n_frames && (!info || !out)) || !frames_addressable(n_frames, c->n_full) ||
        !frames_addressable(n_frames, c->tx.n_tx))
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (!c->tx.tx_pos)
        return gpufec_code_encode_full(c, info, n_frames, out);
    uint8_t* x = malloc(c->n_full);
    if (!x)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    for (size_t f = 0; f < n_frames; f++) {
        gpufec_status st = gpufec_code_encode_full(c, info + f * c->k, 1, x);
        if (st) {
            free(x);
            return st;
        }
        for (uint32_t t = 0; t < c->tx.n_tx; t++)
            out[f * c->tx.n_tx + t] = x[c->tx.tx_pos[t]];
    }
    free(x);
    return GPUFEC_OK;
}

gpufec_status gpufec_code_extract_info(const gpufec_code* c, const uint8_t* codewords,
                                       size_t n_frames, uint8_t* info)
{
    if (!c || (n_frames && (!codewords || !info)) || !frames_addressable(n_frames, c->n_full))
        return GPUFEC_ERR_INVALID_ARGUMENT;
    for (size_t f = 0; f < n_frames; f++)
        for (uint32_t i = 0; i < c->k; i++)
            info[f * c->k + i] = codewords[f * c->n_full + c->info_pos[i]];
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

gpufec_status gpufec_code_harq_info(const gpufec_code* c, uint32_t* len, char* harq_code, size_t length)
{
    if (!c || !len)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (!c->harq_pos)
        return GPUFEC_ERR_UNSUPPORTED;
    *len = c->harq_len;
    if (harq_code && length)
        snprintf(harq_code, length, "%s", c->harq_code);
    return GPUFEC_OK;
}

gpufec_status gpufec_code_harq_combine(const gpufec_code* c, const float* soft, size_t n_frames, float* buffer)
{
    if (!c || (n_frames && (!soft || !buffer)) || !frames_addressable(n_frames, c->harq_len) ||
        !frames_addressable(n_frames, c->tx.n_tx))
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (!c->harq_pos)
        return GPUFEC_ERR_UNSUPPORTED;
    for (size_t f = 0; f < n_frames; f++) {
        float* b = buffer + f * c->harq_len;
        const float* s = soft + f * c->tx.n_tx;
        for (uint32_t t = 0; t < c->tx.n_tx; t++) {
            float* v = &b[c->harq_pos[t]];
            *v = fminf(fmaxf(soft_sanitize(*v) + soft_sanitize(s[t]), -GPUFEC_LLR_MAX), GPUFEC_LLR_MAX);
        }
    }
    return GPUFEC_OK;
}
