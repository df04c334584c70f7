/* Line/token reader shared by the matrix-file parsers: tracks line numbers for diagnostics,
 * skips '#' comments and blank lines, accepts LF and CRLF, and rejects bytes that cannot be part
 * of a number. */
#ifndef GPUFEC_TEXT_READER_H
#define GPUFEC_TEXT_READER_H

#include <gpufec/common.h>

typedef struct {
    const char* pos;  /* next unread byte */
    const char* end;
    int line;         /* 1-based number of the line `pos` is on */
    gpufec_diag* diag;
} text_reader;

typedef struct {
    const char* begin; /* the content of one non-empty, non-comment line, comment stripped */
    const char* end;
    int line;
} text_line;

void text_reader_init(text_reader* r, const char* text, size_t length, gpufec_diag* diag);

/* Next line with content. Returns 1, or 0 at end of input. */
int text_reader_next_line(text_reader* r, text_line* out);

/* Fills diag (if any) with "line L: <formatted message>" and returns GPUFEC_ERR_PARSE. */
gpufec_status text_fail(gpufec_diag* diag, int line, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The same with another status (e.g. GPUFEC_ERR_TOO_LARGE), which it returns. */
gpufec_status text_fail_as(gpufec_status status, gpufec_diag* diag, int line, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

typedef enum { TOKEN_END = 0, TOKEN_INT = 1, TOKEN_DASH = 2, TOKEN_BAD = 3 } token_kind;

/* Reads one whitespace-separated token from [*p, end): a decimal integer (optionally negative
 * when allow_negative), or a lone '-' (TOKEN_DASH). Integers beyond +-2^31 are TOKEN_BAD. */
/* A decimal number of 1 to 9 digits filling s[0..len), nothing else (strtoul would take "-1" and
 * blanks); 1 and *v set, else 0. */
int text_parse_u32(const char* s, size_t len, uint32_t* v);

token_kind text_next_token(const char** p, const char* end, long* value, int allow_negative);

/* Token stream across lines, for headers whose numbers may wrap onto several lines. */
typedef struct {
    text_reader* reader;
    text_line cur;
    const char* p;
    int have_line;
} token_stream;

void token_stream_init(token_stream* s, text_reader* r);
/* Reads a non-negative integer; on failure returns GPUFEC_ERR_PARSE with a diagnostic saying
 * that `what` was expected. */
gpufec_status token_stream_uint(token_stream* s, long* value, const char* what);
/* Line number of the last token read (for diagnostics). */
int token_stream_line(const token_stream* s);
/* Forgets the rest of the current line (so that line-structured sections start afresh). */
void token_stream_end_line(token_stream* s);
/* 1 when the current line has more text after the last token read (a line-structured section
 * uses it to refuse surplus numbers instead of dropping them). */
int token_stream_line_has_more(const token_stream* s);

#endif
