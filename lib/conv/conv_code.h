/* The convolutional family's code body: generators, termination, puncturing, the encoder and
 * the family record. Mother codeword: k information bits (never sent), then output j of step t
 * at k + n t + j (include/gpufec/conv.h). */
#ifndef GPUFEC_CONV_CODE_H
#define GPUFEC_CONV_CODE_H

#include <gpufec/conv.h>
#include <gpufec/decoder.h>

#include "code_internal.h"
#include "conv_rules.h"
#include "family.h"

#define CONV_MAX_FRAME 65536u /* information bits */
#define CONV_MAX_PERIOD 64u   /* puncturing period */

typedef struct conv_code {
    gpufec_conv_info info;
    uint32_t S;                   /* states: 2^(K-1) */
    uint8_t out[2 << (GPUFEC_CONV_MAX_K - 1)]; /* output word of (state p, input u) at 2 p + u */
    uint8_t punct[GPUFEC_CONV_MAX_N * CONV_MAX_PERIOD]; /* row j at j * period */
    uint32_t* info_pos;           /* 0 .. k-1 */
} conv_code;

static inline const conv_code* conv_of(const gpufec_code* c) { return (const conv_code*)c->body; }


/* conv_open.c, conv_options.c */
size_t conv_builtin_count(void);
const char* conv_builtin_name(size_t index);
gpufec_status conv_open_name(gpufec_code** out, const char* name, const char* suffix, gpufec_diag* diag);
gpufec_status conv_open_file(gpufec_code** out, const char* path, const char* suffix, gpufec_diag* diag);
gpufec_status conv_check_opts(const gpufec_decoder_opts* o, const gpufec_code* code, gpufec_diag* diag);
void conv_default_opts(gpufec_decoder_opts* o);
void conv_resolve_opts(gpufec_decoder_opts* o, const gpufec_code* code);
const param_desc* conv_params(size_t* count);

extern const family_record conv_family;

#endif
