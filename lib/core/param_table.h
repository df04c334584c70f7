/* Decoder options described by name (gpufec_param_info): each family lists its own, core lists
 * the common ones; decoder_params.c walks them all. */
#ifndef GPUFEC_PARAM_TABLE_H
#define GPUFEC_PARAM_TABLE_H

#include <gpufec/decoder.h>

#include <stddef.h>
#include <string.h>

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
    const char* applies; /* "" always, else "option=value[|value...]" terms joined by '&' */
} param_desc;

#define PARAM_COUNT(table) ((int)(sizeof table / sizeof *table))
#define PARAM_OFF(field) offsetof(gpufec_decoder_opts, field)
#define PARAM_ENUM(name, field, table, labels, help, applies)                                       \
    {name, P_ENUM, PARAM_OFF(field), 0, 0, table, labels, PARAM_COUNT(table), help, applies}
#define PARAM_NUM(name, type, field, lo, hi, help, applies)                                         \
    {name, type, PARAM_OFF(field), lo, hi, NULL, NULL, 0, help, applies}

/* Options kept in gpufec_decoder_opts.family_options: a family's own struct at its slot (in
 * uint64_t words; each family's record in registry.c names its slot range), entries by offset. */
#define FAMILY_OPTS_OFF(slot, type, field)                                                          \
    (offsetof(gpufec_decoder_opts, family_options) + (slot) * sizeof(uint64_t) + offsetof(type, field))
/* A family's options struct copied out of / into its slot (memcpy: no aliasing of the words). */
#define FAMILY_OPTS_GET(opts, slot, dst) memcpy((dst), (opts)->family_options + (slot), sizeof *(dst))
#define FAMILY_OPTS_PUT(opts, slot, src) memcpy((opts)->family_options + (slot), (src), sizeof *(src))
#define PARAM_ENUM_AT(name, off, table, labels, help, applies)                                      \
    {name, P_ENUM, off, 0, 0, table, labels, PARAM_COUNT(table), help, applies}
#define PARAM_NUM_AT(name, type, off, lo, hi, help, applies) {name, type, off, lo, hi, NULL, NULL, 0, help, applies}

/* Whether v is in the range the table gives numeric option `name` (its bounds into lo and hi):
 * the one place a range is written. 0 for a name that is not a numeric option. */
int param_in_range(const char* name, double v, double* lo, double* hi);

/* Every option that applies (the common ones, then the code's family's and those it shares; code
 * NULL: every family's) holds a value of its choices or range in the table: the one check of
 * values. The families' check functions keep only rules across options and codes. */
gpufec_status param_check_values(const gpufec_decoder_opts* o, const struct gpufec_code* code, gpufec_diag* diag);

/* Index of `name` in `table`, or -1. */
int param_name_index(const char* const* table, int count, const char* name);

/* The name of an enum value and its parser, from one table (index = value). */
#define PARAM_NAMED_ENUM(type, name_fn, parse_fn, table)                                        \
    const char* name_fn(type v)                                                                 \
    {                                                                                           \
        return (unsigned)v < (unsigned)PARAM_COUNT(table) ? table[v] : "unknown";               \
    }                                                                                           \
    gpufec_status parse_fn(const char* name, type* out)                                         \
    {                                                                                           \
        int i = param_name_index(table, PARAM_COUNT(table), name);                              \
        if (i < 0 || !out)                                                                      \
            return GPUFEC_ERR_INVALID_ARGUMENT;                                                 \
        *out = (type)i;                                                                         \
        return GPUFEC_OK;                                                                       \
    }

#endif
