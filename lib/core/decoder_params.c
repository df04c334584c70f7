/* The decoder options by name: the one table of every option's name, type, range, choices and
 * help, from which the enum names and parsers, gpufec_decoder_opts_set, the parameter listing of
 * the tools and the GRC drop-downs (generated at build time through gpufec-info --params) come.
 * Defaults are read from gpufec_decoder_opts_default, never written twice. */
#include "decoder_internal.h"
#include "text_reader.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* const alg_names[] = {"spa", "ms", "nms", "oms", "gallager-a", "gallager-b", "pgab"};
static const char* const alg_labels[] = {"Sum-product (tanh)", "Min-sum", "Normalised min-sum",
                                         "Offset min-sum", "Gallager-A (hard)", "Gallager-B (hard)",
                                         "Probabilistic Gallager-B (hard)"};
static const char* const schedule_names[] = {"auto", "flooding", "layered"};
static const char* const schedule_labels[] = {"Auto (layered where available)", "Flooding", "Layered"};
static const char* const backend_names[] = {"auto", "cpu", "cuda"};
static const char* const backend_labels[] = {"Auto (GPU if present)", "CPU", "CUDA GPU"};
static const char* const precision_names[] = {"float32", "float16", "int8"};
static const char* const precision_labels[] = {"Float32", "Float16", "Int8 (fixed point)"};
static const char* const input_type_names[] = {"float32", "float16", "int8"};
static const char* const input_type_labels[] = {"Float32", "Float16 (binary16 bits)", "Int8"};
static const char* const output_names[] = {"info", "codeword", "full-codeword"};
static const char* const output_labels[] = {"Information bits (K)", "Transmitted codeword (N)",
                                            "Mother codeword (N full)"};

#define COUNT(table) ((int)(sizeof table / sizeof *table))

/* Index of `name` in `table`, or -1. */
static int name_index(const char* const* table, int count, const char* name)
{
    for (int i = 0; name && i < count; i++)
        if (strcmp(name, table[i]) == 0)
            return i;
    return -1;
}

/* The name of an enum value and its parser, from one table (index = value). */
#define NAMED_ENUM(type, name_fn, parse_fn, table)                                             \
    const char* name_fn(type v)                                                                 \
    {                                                                                           \
        return (unsigned)v < (unsigned)COUNT(table) ? table[v] : "unknown";                     \
    }                                                                                           \
    gpufec_status parse_fn(const char* name, type* out)                                         \
    {                                                                                           \
        int i = name_index(table, COUNT(table), name);                                          \
        if (i < 0 || !out)                                                                      \
            return GPUFEC_ERR_INVALID_ARGUMENT;                                                 \
        *out = (type)i;                                                                         \
        return GPUFEC_OK;                                                                       \
    }

NAMED_ENUM(gpufec_algorithm, gpufec_algorithm_name, gpufec_algorithm_from_name, alg_names)
NAMED_ENUM(gpufec_schedule, gpufec_schedule_name, gpufec_schedule_from_name, schedule_names)
NAMED_ENUM(gpufec_backend, gpufec_backend_name, gpufec_backend_from_name, backend_names)
NAMED_ENUM(gpufec_precision, gpufec_precision_name, gpufec_precision_from_name, precision_names)
NAMED_ENUM(gpufec_input_type, gpufec_input_type_name, gpufec_input_type_from_name, input_type_names)

typedef enum { P_ENUM, P_INT, P_FLOAT, P_U32, P_U64 } param_type;

typedef struct {
    const char* name;
    param_type type;
    size_t offset;       /* field in gpufec_decoder_opts */
    double lo, hi;       /* numeric range, inclusive */
    const char* const* choices;
    const char* const* labels;
    int n_choices;
    const char* help;
} param_desc;

#define OFF(field) offsetof(gpufec_decoder_opts, field)
#define ENUM(name, field, table, labels, help) {name, P_ENUM, OFF(field), 0, 0, table, labels, COUNT(table), help}
#define NUM(name, type, field, lo, hi, help) {name, type, OFF(field), lo, hi, NULL, NULL, 0, help}

static const param_desc PARAMS[] = {
    ENUM("algorithm", algorithm, alg_names, alg_labels, "decoding algorithm"),
    ENUM("schedule", schedule, schedule_names, schedule_labels, "message schedule (hard-decision: flooding)"),
    ENUM("backend", backend, backend_names, backend_labels, "where to decode; auto falls back to the CPU"),
    NUM("device", P_INT, device, 0, 1024, "CUDA device index"),
    NUM("max_iterations", P_INT, max_iterations, 1, 10000, "iteration limit"),
    NUM("norm", P_FLOAT, normalization, 1e-6, 1, "normalised min-sum factor, in (0, 1]"),
    NUM("offset", P_FLOAT, offset, 0, 999.999, "offset min-sum offset"),
    NUM("early_termination", P_INT, early_termination, 0, 1, "stop a frame at a zero syndrome (0/1)"),
    NUM("syndrome_interval", P_INT, syndrome_interval, 1, 10000, "test the syndrome every this many iterations"),
    ENUM("output", output, output_names, output_labels, "what a decode call writes per frame"),
    NUM("max_batch", P_U32, max_batch, 0, 4294967295.0, "frames per internal batch (0: backend's choice)"),
    NUM("pgab_p", P_FLOAT, pgab_p, 0, 1, "PGaB: probability that a perturbed channel vote is inverted"),
    NUM("pgab_start", P_INT, pgab_start, 1, 10000, "PGaB: first perturbed iteration"),
    NUM("seed", P_U64, seed, 0, 18446744073709551615.0, "PGaB random source"),
    NUM("cpu_simd", P_INT, cpu_simd, 0, 1, "CPU vector path where it applies (0/1)"),
    ENUM("precision", precision, precision_names, precision_labels,
         "message storage (reduced: min-sum family, layered)"),
    NUM("quant_step", P_FLOAT, quant_step, 1e-3, 1e3, "int8 storage: LLR of one step"),
    ENUM("input_type", input_type, input_type_names, input_type_labels, "soft-bit type of decode_soft"),
    NUM("input_scale", P_FLOAT, input_scale, 1e-6, 1e3, "int8 input: LLR of one unit"),
    NUM("cuda_tuning", P_U32, cuda_tuning, 0, 15, "GPUFEC_CUDA_* flags forcing kernel choices (measurements)"),
};

static const param_desc* find_param(const char* name)
{
    for (int i = 0; name && i < COUNT(PARAMS); i++)
        if (strcmp(PARAMS[i].name, name) == 0)
            return &PARAMS[i];
    return NULL;
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
    case P_INT: snprintf(buf, len, "%d", *(const int*)field); break;
    case P_FLOAT: snprintf(buf, len, "%g", (double)*(const float*)field); break;
    case P_U32: snprintf(buf, len, "%u", *(const uint32_t*)field); break;
    case P_U64: snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t*)field); break;
    }
}

size_t gpufec_decoder_param_count(void) { return (size_t)COUNT(PARAMS); }

gpufec_status gpufec_decoder_param_info(size_t index, gpufec_param_info* info)
{
    if (!info || index >= (size_t)COUNT(PARAMS))
        return GPUFEC_ERR_INVALID_ARGUMENT;
    const param_desc* p = &PARAMS[index];
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
    format_value(p, &d, info->default_value, sizeof info->default_value);
    return GPUFEC_OK;
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
        const int i = name_index(p->choices, p->n_choices, value);
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
        *(uint64_t*)field = (uint64_t)u;
        return GPUFEC_OK;
    }
    char* end = NULL;
    errno = 0;
    const double v = strtod(value, &end);
    if (end == value || *end || errno == ERANGE || !(v >= p->lo && v <= p->hi) ||
        (p->type != P_FLOAT && v != floor(v)))
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "%s=%.40s: expected %s in [%g, %g]", name,
                            value, p->type == P_FLOAT ? "a number" : "an integer", p->lo, p->hi);
    switch (p->type) {
    case P_INT: *(int*)field = (int)v; break;
    case P_FLOAT: *(float*)field = (float)v; break;
    case P_U32: *(uint32_t*)field = (uint32_t)v; break;
    default: break;
    }
    return GPUFEC_OK;
}
