/* The decoder options by name: the common options' table here and each family's own table
 * (family.h), walked as one list of every option's name, type, range, choices and help, from
 * which the enum names and parsers, gpufec_decoder_opts_set, the parameter listing of
 * the tools and the GRC drop-downs (generated at build time through gpufec-info --params) come.
 * Defaults are read from gpufec_decoder_opts_default, never written twice. */
#include "cuda_tuning.h"
#include "decoder_internal.h"
#include "param_table.h"
#include "text_reader.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* const backend_names[] = {"auto", "cpu", "cuda"};
static const char* const backend_labels[] = {"Auto (GPU if present)", "CPU", "CUDA GPU"};
static const char* const input_type_names[] = {"float32", "float16", "int8"};
static const char* const input_type_labels[] = {"Float32", "Float16 (binary16 bits)", "Int8"};
static const char* const output_names[] = {"info",        "codeword",        "full-codeword",
                                           "info-packed", "codeword-packed", "full-codeword-packed"};
static const char* const output_labels[] = {"Information bits (K)",
                                            "Transmitted codeword (N)",
                                            "Mother codeword (N full)",
                                            "Information bits, 8 per byte",
                                            "Transmitted codeword, 8 per byte",
                                            "Mother codeword, 8 per byte"};

int param_name_index(const char* const* table, int count, const char* name)
{
    for (int i = 0; name && i < count; i++)
        if (strcmp(name, table[i]) == 0)
            return i;
    return -1;
}

PARAM_NAMED_ENUM(gpufec_backend, gpufec_backend_name, gpufec_backend_from_name, backend_names)
PARAM_NAMED_ENUM(gpufec_input_type, gpufec_input_type_name, gpufec_input_type_from_name, input_type_names)
PARAM_NAMED_ENUM(gpufec_output, gpufec_output_name, gpufec_output_from_name, output_names)

/* The options every family has. */
static const param_desc COMMON[] = {
    PARAM_ENUM("backend", backend, backend_names, backend_labels, "decoding backend; auto falls back to the CPU", ""),
    PARAM_NUM("device", P_INT, device, 0, 1024, "CUDA device index", "backend=auto|cuda"),
    PARAM_NUM("max_iterations", P_INT, max_iterations, 1, 10000, "maximum iterations", ""),
    PARAM_NUM("early_termination", P_INT, early_termination, 0, 1, "stop a frame once it is decoded (0/1)", ""),
    PARAM_ENUM("output", output, output_names, output_labels, "what a decode call writes per frame", ""),
    PARAM_NUM("max_batch", P_U32, max_batch, 0, 4294967295.0, "frames per internal batch (0: backend's choice)", ""),
    PARAM_ENUM("input_type", input_type, input_type_names, input_type_labels, "soft-bit type of decode_soft", ""),
    PARAM_NUM("input_scale", P_FLOAT, input_scale, 1e-6, 1e3, "int8 input: LLR of one unit", "input_type=int8"),
    PARAM_NUM("cuda_tuning", P_U32, cuda_tuning, 0, GPUFEC_CUDA_TUNING_ALL, "GPUFEC_CUDA_* flags forcing kernel choices (measurements)",
              "backend=auto|cuda"),
    PARAM_NUM("kernel_timing", P_INT, kernel_timing, 0, 1,
              "0/1: time each call's GPU kernels for gpufec_decoder_kernel_seconds, about 5 us a call (measurements)",
              "backend=auto|cuda"),
};

/* Option i of the walk: the common ones, then each family's, in family_registry order. */
static const param_desc* param_at(size_t i, const char** family)
{
    if (i < (size_t)PARAM_COUNT(COMMON)) {
        *family = "";
        return &COMMON[i];
    }
    i -= (size_t)PARAM_COUNT(COMMON);
    for (const family_record* const* f = family_registry; *f; f++) {
        size_t n;
        const param_desc* t = (*f)->params(&n);
        if (i < n) {
            *family = (*f)->name;
            return &t[i];
        }
        i -= n;
    }
    return NULL;
}

static const param_desc* find_param(const char* name)
{
    const char* family;
    const param_desc* p;
    for (size_t i = 0; name && (p = param_at(i, &family)) != NULL; i++)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

/* Whether option p (of `family`, "" common) applies to code's family (NULL: every family). */
static int applies_to(const param_desc* p, const char* family, const gpufec_code* code)
{
    if (!code || !family[0] || strcmp(family, code->family->name) == 0)
        return 1;
    for (const char* const* s = code->family->shared_params; s && *s; s++)
        if (strcmp(*s, p->name) == 0)
            return 1;
    return 0;
}

gpufec_status param_check_values(const gpufec_decoder_opts* o, const gpufec_code* code, gpufec_diag* diag)
{
    const char* family;
    const param_desc* p;
    for (size_t i = 0; (p = param_at(i, &family)) != NULL; i++) {
        if (!applies_to(p, family, code))
            continue;
        const char* field = (const char*)o + p->offset;
        double v = 0;
        switch (p->type) {
        case P_ENUM: {
            int e;
            memcpy(&e, field, sizeof e);
            if (e < 0 || e >= p->n_choices) {
                char list[160] = "";
                for (int c = 0; c < p->n_choices; c++)
                    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", c ? ", " : "", p->choices[c]);
                return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "%s=%d: not one of %s", p->name, e, list);
            }
            continue;
        }
        case P_INT: { int x; memcpy(&x, field, sizeof x); v = x; break; }
        case P_FLOAT: { float x; memcpy(&x, field, sizeof x); v = x; break; }
        case P_U32: { uint32_t x; memcpy(&x, field, sizeof x); v = x; break; }
        default: continue; /* 64-bit values: any */
        }
        if (!(v >= p->lo && v <= p->hi)) /* NaN fails too */
            return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "%s=%g: expected %s in [%g, %g]", p->name, v,
                                p->type == P_FLOAT ? "a number" : "an integer", p->lo, p->hi);
    }
    return GPUFEC_OK;
}

int param_in_range(const char* name, double v, double* lo, double* hi)
{
    const param_desc* p = find_param(name);
    if (!p || p->type == P_ENUM)
        return 0;
    *lo = p->lo;
    *hi = p->hi;
    return v >= p->lo && v <= p->hi;
}

static void format_value(const param_desc* p, const gpufec_decoder_opts* o, char* buf, size_t len)
{
    const char* field = (const char*)o + p->offset;
    switch (p->type) {
    case P_ENUM: {
        int v;
        memcpy(&v, field, sizeof v); /* the option enums are int-sized */
        snprintf(buf, len, "%s", v >= 0 && v < p->n_choices ? p->choices[v] : "?");
        break;
    }
    case P_INT: {
        int v;
        memcpy(&v, field, sizeof v);
        snprintf(buf, len, "%d", v);
        break;
    }
    case P_FLOAT: { /* the shortest text that reads back as the same float */
        float v;
        memcpy(&v, field, sizeof v);
        for (int digits = 6; digits <= 9; digits++) {
            snprintf(buf, len, "%.*g", digits, (double)v);
            if (strtof(buf, NULL) == v || v != v)
                break;
        }
        break;
    }
    case P_U32: {
        uint32_t v;
        memcpy(&v, field, sizeof v);
        snprintf(buf, len, "%u", v);
        break;
    }
    case P_U64: {
        uint64_t v;
        memcpy(&v, field, sizeof v);
        snprintf(buf, len, "%llu", (unsigned long long)v);
        break;
    }
    }
}

size_t gpufec_decoder_param_count(void)
{
    size_t n = 0;
    const char* family;
    while (param_at(n, &family))
        n++;
    return n;
}

gpufec_status gpufec_decoder_param_info(size_t index, gpufec_param_info* info)
{
    const char* family = "";
    const param_desc* p = info ? param_at(index, &family) : NULL;
    if (!p)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    static const char* const type_names[] = {"enum", "int", "float", "uint32", "uint64"};
    gpufec_decoder_opts d;
    gpufec_decoder_opts_default(&d);
    memset(info, 0, sizeof *info);
    info->name = p->name;
    info->type = type_names[p->type];
    info->min = p->lo;
    info->max = p->hi;
    info->choices = p->choices;
    info->choice_labels = p->labels;
    info->n_choices = (size_t)p->n_choices;
    info->help = p->help;
    info->family = family;
    info->applies = p->applies;
    format_value(p, &d, info->default_value, sizeof info->default_value);
    return GPUFEC_OK;
}

gpufec_status gpufec_decoder_param_check_family(const char* name, const gpufec_code* code, gpufec_diag* diag)
{
    if (diag) {
        diag->line = 0;
        diag->message[0] = '\0';
    }
    if (!name || !code)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "name and code must not be NULL");
    const char* family = "";
    const param_desc* p = NULL;
    for (size_t i = 0; (p = param_at(i, &family)) != NULL; i++)
        if (strcmp(p->name, name) == 0)
            break;
    if (!p)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0,
                            "%.60s: no such decoder option (gpufec-info --params lists them)", name);
    const family_record* own = code->family;
    if (!family[0] || strcmp(family, own->name) == 0)
        return GPUFEC_OK;
    for (const char* const* s = own->shared_params; s && *s; s++)
        if (strcmp(*s, name) == 0)
            return GPUFEC_OK;
    return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0,
                        "%s is an option of %s codes; this code is %s (gpufec-info --params lists each family's "
                        "options)",
                        name, family, own->name);
}

gpufec_status gpufec_decoder_opts_get(const gpufec_decoder_opts* opts, const char* name, char* value,
                                      size_t length)
{
    const param_desc* p = find_param(name);
    if (!opts || !p || !value || !length)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    format_value(p, opts, value, length);
    return GPUFEC_OK;
}

gpufec_status gpufec_decoder_opts_set_text(gpufec_decoder_opts* opts, const char* text, const gpufec_code* code,
                                           gpufec_diag* diag)
{
    if (diag) {
        diag->line = 0;
        diag->message[0] = '\0';
    }
    if (!opts || !text)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "opts and text must not be NULL");
    for (const char* p = text; *p;) {
        while (*p == ' ' || *p == ',' || *p == '\t' || *p == '\n')
            p++;
        const char* end = p;
        while (*end && *end != ' ' && *end != ',' && *end != '\t' && *end != '\n')
            end++;
        if (end == p)
            break;
        const char* eq = memchr(p, '=', (size_t)(end - p));
        char name[64], value[192];
        if (!eq || eq == p || (size_t)(eq - p) >= sizeof name || (size_t)(end - eq - 1) >= sizeof value)
            return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "options: '%.*s' is not name=value",
                                (int)(end - p < 60 ? end - p : 60), p);
        memcpy(name, p, (size_t)(eq - p));
        name[eq - p] = '\0';
        memcpy(value, eq + 1, (size_t)(end - eq - 1));
        value[end - eq - 1] = '\0';
        gpufec_status st = gpufec_decoder_opts_set(opts, name, value, diag);
        if (st == GPUFEC_OK && code)
            st = gpufec_decoder_param_check_family(name, code, diag);
        if (st)
            return st;
        p = end;
    }
    return GPUFEC_OK;
}

gpufec_status gpufec_decoder_opts_set(gpufec_decoder_opts* opts, const char* name, const char* value,
                                      gpufec_diag* diag)
{
    if (diag) {
        diag->line = 0;
        diag->message[0] = '\0';
    }
    if (!opts || !name || !value)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "opts, name and value must not be NULL");
    const param_desc* p = find_param(name);
    if (!p)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0,
                            "%.60s: no such decoder option (gpufec-info --params lists them)", name);
    char* field = (char*)opts + p->offset;
    if (p->type == P_ENUM) {
        const int i = param_name_index(p->choices, p->n_choices, value);
        if (i < 0) {
            char list[160] = "";
            for (int c = 0; c < p->n_choices; c++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", c ? ", " : "", p->choices[c]);
            return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "%s=%.40s: not one of %s", name, value, list);
        }
        memcpy(field, &i, sizeof i);
        return GPUFEC_OK;
    }
    if (p->type == P_U64) { /* 64-bit values do not survive a double: digits only */
        const char* c = value;
        while (*c >= '0' && *c <= '9')
            c++;
        errno = 0;
        const unsigned long long u = strtoull(value, NULL, 10);
        if (*c || c == value || errno == ERANGE)
            return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "%s=%.40s: expected an integer in [0, 2^64)",
                                name, value);
        const uint64_t u64 = (uint64_t)u;
        memcpy(field, &u64, sizeof u64); /* memcpy: family_options words hold other types */
        return GPUFEC_OK;
    }
    char* end = NULL;
    errno = 0;
    const double v = strtod(value, &end);
    if (end == value || *end || errno == ERANGE || !(v >= p->lo && v <= p->hi) ||
        (p->type != P_FLOAT && v != floor(v)))
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "%s=%.40s: expected %s in [%g, %g]", name,
                            value, p->type == P_FLOAT ? "a number" : "an integer", p->lo, p->hi);
    const int i = (int)v;
    const float f = (float)v;
    const uint32_t u = (uint32_t)v;
    if (p->type == P_INT)
        memcpy(field, &i, sizeof i);
    else if (p->type == P_FLOAT)
        memcpy(field, &f, sizeof f);
    else if (p->type == P_U32)
        memcpy(field, &u, sizeof u);
    return GPUFEC_OK;
}
