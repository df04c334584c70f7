/* Registry of the codes compiled into the library (generated table, see cmake/EmbedCodes.cmake). */
#ifndef GPUFEC_BUILTIN_CODES_H
#define GPUFEC_BUILTIN_CODES_H

#include <stddef.h>
#include <stdint.h>

typedef enum { BUILTIN_ALIST = 0, BUILTIN_QC = 1 } builtin_format;

typedef struct {
    const char* name;
    builtin_format format;
    const unsigned char* data;
    size_t length;
    uint32_t lifting;
} builtin_code;

extern const builtin_code builtin_code_table[];
extern const size_t builtin_code_table_size;

#endif
