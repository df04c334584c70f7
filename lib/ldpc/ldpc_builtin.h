/* Registry of the codes compiled into the library (generated table, see cmake/EmbedCodes.cmake),
 * and the builders of the structured families. */
#ifndef GPUFEC_BUILTIN_CODES_H
#define GPUFEC_BUILTIN_CODES_H

#include "ldpc_code.h"

typedef enum {
    BUILTIN_ALIST = 0,
    BUILTIN_QC = 1,
    BUILTIN_DVBS2 = 2,  /* param: N */
    BUILTIN_NR = 3,     /* param: Z */
    BUILTIN_NRSETS = 4, /* 5G NR lifting sets (not a code; hidden) */
    BUILTIN_PEG = 5     /* regular-<dv>-<dc>-<N>, built from the name */
} builtin_format;

typedef struct {
    const char* name;
    builtin_format format;
    const unsigned char* data;
    size_t length;
    uint32_t param;
    uint32_t punctured_tail; /* last columns not transmitted (AR4JA) */
} builtin_code;

extern const builtin_code builtin_code_table[];
extern const size_t builtin_code_table_size;

#endif
