/* gr-gpufec public C API: types shared by every object (status codes, logging, diagnostics). */
#ifndef GPUFEC_COMMON_H
#define GPUFEC_COMMON_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define GPUFEC_API __declspec(dllexport)
#elif defined(__GNUC__)
#define GPUFEC_API __attribute__((visibility("default")))
#else
#define GPUFEC_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Every gpufec_* function returns one of these. GPUFEC_OK is 0; all errors are negative so that
 * `if (st < 0)` works as well as `if (st != GPUFEC_OK)`. */
typedef enum {
    GPUFEC_OK = 0,
    GPUFEC_ERR_INVALID_ARGUMENT = -1, /* NULL pointer, out-of-range option, wrong length */
    GPUFEC_ERR_OUT_OF_MEMORY = -2,    /* host allocation failed */
    GPUFEC_ERR_IO = -3,               /* a file could not be opened or read */
    GPUFEC_ERR_PARSE = -4,            /* a matrix file is malformed (diagnostic names the line) */
    GPUFEC_ERR_UNSUPPORTED = -5,      /* valid request this build or backend cannot serve */
    GPUFEC_ERR_NO_DEVICE = -6,        /* backend CUDA asked for, but no usable GPU / no CUDA build */
    GPUFEC_ERR_DEVICE = -7,           /* a CUDA call failed (the log callback has the CUDA text) */
    GPUFEC_ERR_DEVICE_OUT_OF_MEMORY = -8,
    GPUFEC_ERR_UNKNOWN_CODE = -9,     /* neither a built-in code name nor a readable file */
    GPUFEC_ERR_INTERNAL = -10,        /* a bug: please report it */
    GPUFEC_ERR_TOO_LARGE = -11        /* the input exceeds a documented size or work limit
                                         (the diagnostic or log names the limit) */
} gpufec_status;

/* A short English sentence describing `status`; never NULL, never needs freeing. */
GPUFEC_API const char* gpufec_status_str(gpufec_status status);

typedef enum {
    GPUFEC_LOG_DEBUG = 0,
    GPUFEC_LOG_INFO = 1,
    GPUFEC_LOG_WARNING = 2,
    GPUFEC_LOG_ERROR = 3
} gpufec_log_level;

/* Optional logging hook. The library never prints; it calls this (from the calling thread) when
 * it has something to say, e.g. that backend AUTO fell back to the CPU. */
typedef void (*gpufec_log_fn)(void* user, gpufec_log_level level, const char* message);

/* Optional out-parameter of functions that read files or text: on failure `message` holds a
 * one-line explanation naming the line of the input, and `line` its 1-based number (0: none). */
typedef struct {
    int line;
    char message[256];
} gpufec_diag;

/* Library version, e.g. "0.1.0". */
GPUFEC_API const char* gpufec_version(void);

#ifdef __cplusplus
}
#endif

#endif
