#include "text_reader.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void text_reader_init(text_reader* r, const char* text, size_t length, gpufec_diag* diag)
{
    r->pos = text;
    r->end = text + length;
    r->line = 1;
    r->diag = diag;
}

int text_reader_next_line(text_reader* r, text_line* out)
{
    while (r->pos < r->end) {
        const char* b = r->pos;
        const char* e = memchr(b, '\n', (size_t)(r->end - b));
        const char* next = e ? e + 1 : r->end;
        if (!e)
            e = r->end;
        int line = r->line;
        r->pos = next;
        r->line++;
        const char* hash = memchr(b, '#', (size_t)(e - b));
        if (hash)
            e = hash;
        while (e > b && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
            e--;
        while (b < e && (*b == ' ' || *b == '\t' || *b == '\r'))
            b++;
        if (b == e)
            continue;
        out->begin = b;
        out->end = e;
        out->line = line;
        return 1;
    }
    return 0;
}

static void diag_vset(gpufec_diag* diag, int line, const char* fmt, va_list ap)
{
    if (!diag)
        return;
    char body[224];
    vsnprintf(body, sizeof body, fmt, ap);
    for (char* c = body; *c; c++)
        if ((unsigned char)*c < 32 || (unsigned char)*c > 126)
            *c = '?'; /* keep the message printable whatever the input bytes were */
    diag->line = line;
    if (line > 0)
        snprintf(diag->message, sizeof diag->message, "line %d: %s", line, body);
    else
        snprintf(diag->message, sizeof diag->message, "%s", body);
}

gpufec_status text_fail(gpufec_diag* diag, int line, const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vset(diag, line, fmt, ap);
    va_end(ap);
    return GPUFEC_ERR_PARSE;
}

gpufec_status text_fail_as(gpufec_status status, gpufec_diag* diag, int line, const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vset(diag, line, fmt, ap);
    va_end(ap);
    return status;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

token_kind text_next_token(const char** pp, const char* end, long* value, int allow_negative)
{
    const char* p = *pp;
    while (p < end && is_space(*p))
        p++;
    if (p == end) {
        *pp = p;
        return TOKEN_END;
    }
    int negative = 0;
    if (*p == '-') {
        if (p + 1 == end || is_space(p[1])) {
            *pp = p + 1;
            return TOKEN_DASH;
        }
        if (!allow_negative) {
            *pp = p;
            return TOKEN_BAD;
        }
        negative = 1;
        p++;
    }
    long v = 0;
    const char* digits = p;
    while (p < end && *p >= '0' && *p <= '9') {
        v = v * 10 + (*p - '0');
        if (v > 2147483647L) {
            *pp = p;
            return TOKEN_BAD;
        }
        p++;
    }
    if (p == digits || (p < end && !is_space(*p))) {
        *pp = p;
        return TOKEN_BAD;
    }
    *pp = p;
    *value = negative ? -v : v;
    return TOKEN_INT;
}

void token_stream_init(token_stream* s, text_reader* r)
{
    s->reader = r;
    s->have_line = 0;
    s->p = NULL;
    s->cur.line = 0;
}

int token_stream_line(const token_stream* s) { return s->cur.line; }

void token_stream_end_line(token_stream* s) { s->have_line = 0; }

int token_stream_line_has_more(const token_stream* s)
{
    if (!s->have_line)
        return 0;
    for (const char* c = s->p; c < s->cur.end; c++)
        if (*c != ' ' && *c != '\t' && *c != '\r' && *c != '\n')
            return 1;
    return 0;
}

gpufec_status token_stream_uint(token_stream* s, long* value, const char* what)
{
    for (;;) {
        if (!s->have_line) {
            if (!text_reader_next_line(s->reader, &s->cur))
                return text_fail(s->reader->diag, s->reader->line - 1,
                                 "file ends early: expected %s", what);
            s->p = s->cur.begin;
            s->have_line = 1;
        }
        token_kind k = text_next_token(&s->p, s->cur.end, value, 0);
        if (k == TOKEN_END) {
            s->have_line = 0;
            continue;
        }
        if (k != TOKEN_INT)
            return text_fail(s->reader->diag, s->cur.line,
                             "expected %s, found '%.16s'", what, s->p);
        return GPUFEC_OK;
    }
}

int text_parse_u32(const char* s, size_t len, uint32_t* v)
{
    if (len == 0 || len > 9)
        return 0;
    uint32_t x = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        x = x * 10 + (uint32_t)(s[i] - '0');
    }
    *v = x;
    return 1;
}
