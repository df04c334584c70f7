/* A code family's record: what the family-neutral code object, the opener and the decoder
 * front need from it. lib/core/registry.c lists the families (family_registry) and the decoder
 * implementations (decoder_registry); adding a family is its folder plus one line in each list
 * (docs/architecture.md, "adding a code family"). */
#ifndef GPUFEC_FAMILY_H
#define GPUFEC_FAMILY_H

#include <gpufec/decoder.h>

#include "param_table.h"

typedef struct family_record {
    gpufec_family id;
    const char* name;             /* "ldpc" */
    const char* label;            /* "LDPC", as the tools and GRC show it */
    const char* algorithm_option; /* the option that names its decoders: "algorithm" */

    /* The code body (gpufec_code.body). */
    void (*free_body)(void* body);
    /* Completes a mother codeword whose information positions are set. */
    gpufec_status (*encode)(const void* body, uint8_t* mother);
    /* Unsatisfied checks of a mother codeword (NULL: the family has no parity checks). */
    gpufec_status (*syndrome_weight)(const void* body, const uint8_t* mother, uint32_t* weight);
    /* Fills the family's fields of gpufec_code_info. */
    void (*describe)(const void* body, gpufec_code_info* info);
    /* One line on what the code is beyond its sizes (gpufec_code_summary; NULL: "GF(2)"). */
    void (*summary)(const void* body, char* text, size_t length);

    /* Opening. `suffix` is the text after the name's first ":key=" (NULL: none), e.g. "k=1000".
     * GPUFEC_ERR_UNKNOWN_CODE (and nothing in diag) when the name or file is not this family's. */
    size_t (*builtin_count)(void);
    const char* (*builtin_name)(size_t index);
    gpufec_status (*open_name)(gpufec_code** out, const char* name, const char* suffix, gpufec_diag* diag);
    gpufec_status (*open_file)(gpufec_code** out, const char* path, const char* suffix, gpufec_diag* diag);

    /* Decoding options: the family's defaults (gpufec_decoder_opts_default), its checks (code may be NULL), AUTO choices resolved once at
     * create time, and its options by name. */
    void (*defaults)(gpufec_decoder_opts* o);
    gpufec_status (*check_opts)(const gpufec_decoder_opts* o, const gpufec_code* code, gpufec_diag* diag);
    void (*resolve_opts)(gpufec_decoder_opts* o, const gpufec_code* code); /* AUTO values by the code */
    const param_desc* (*params)(size_t* count);
    /* Options of another family that this family's decoders read too (NULL-terminated list, or
     * NULL), as one family's decoders may read another's `schedule`. */
    const char* const* shared_params;
} family_record;

/* The families, NULL-terminated. */
extern const family_record* const family_registry[];

#endif
