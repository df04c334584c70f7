/* 5G NR transport blocks (include/gpufec/nr5g.h): TS 38.212 7.2.1 CRC, 7.2.2 base graph, 5.2.2
 * segmentation, 5.4.2.1 the E of each block, 5.5 concatenation, over the rate-matched LDPC codes
 * (`5gnr-bg<b>:k=<K'>:e=<E>...:crc=24b`, whose encoder and decoder handle each block). */
#include "gpufec/nr5g.h"

#include "crc24.h"
#include "text_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gpufec_nr_tb {
    gpufec_nr_tb_info info;
    gpufec_code* code[2];      /* the blocks with E0, with E1 (NULL when C0 = C) */
    gpufec_decoder* dec[2];    /* NULL without decoder options */
    uint32_t k_cb;             /* information bits per block: K' less its CRC24B (C > 1), or A (C = 1) */
};

/* Parses the description into info (A, G, qm, nl, rv, bg) and, as r = ... is a real number, the
 * target rate; ncb is 0 when not given. */
static gpufec_status parse_tb(const char* text, gpufec_nr_tb_info* in, double* rate, uint32_t* ncb,
                              gpufec_diag* diag)
{
    int have_a = 0, have_g = 0, have_qm = 0;
    in->nl = 1;
    *rate = 0;
    *ncb = 0;
    for (const char* p = text; p && *p;) {
        const char* end = strchr(p, ':');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        const char* eq = memchr(p, '=', len);
        const size_t key = eq ? (size_t)(eq - p) : len, vlen = eq ? len - key - 1 : 0;
        const int shown = (int)(len < 40 ? len : 40);
        if (!eq)
            return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "transport block option '%.*s': key=value expected",
                                shown, p);
        if (key == 1 && *p == 'r') {
            char buf[32], *stop;
            if (vlen == 0 || vlen >= sizeof buf)
                return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "transport block option '%.*s': r=<rate>",
                                    shown, p);
            memcpy(buf, eq + 1, vlen);
            buf[vlen] = '\0';
            *rate = strtod(buf, &stop);
            if (*stop || !(*rate > 0.0 && *rate < 1.0))
                return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0,
                                    "transport block option '%.*s': the target rate must be in (0, 1)", shown, p);
        } else {
            static const char* const names[] = {"tbs", "g", "qm", "nl", "rv", "bg", "ncb"};
            uint32_t* const slots[] = {&in->A, &in->G, &in->qm, &in->nl, &in->rv, &in->bg, ncb};
            int* const seen[] = {&have_a, &have_g, &have_qm, NULL, NULL, NULL, NULL};
            size_t i = 0;
            while (i < 7 && !(strlen(names[i]) == key && strncmp(p, names[i], key) == 0))
                i++;
            if (i == 7)
                return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0,
                                    "unknown transport block option '%.*s': options are tbs, g, qm, nl, rv, bg, r, ncb",
                                    shown, p);
            if (!text_parse_u32(eq + 1, vlen, slots[i]))
                return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0,
                                    "transport block option '%.*s': a whole number expected", shown, p);
            if (seen[i])
                *seen[i] = 1;
        }
        p = end ? end + 1 : NULL;
    }
    if (!have_a || !have_g || !have_qm)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "a transport block needs tbs=<A>, g=<G> and qm=<Qm>");
    if (in->A < 1 || in->A > 1300000)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "tbs=%u: must be 1..1300000", in->A);
    if (in->qm != 1 && in->qm != 2 && in->qm != 4 && in->qm != 6 && in->qm != 8)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "qm=%u: must be 1, 2, 4, 6 or 8", in->qm);
    if (in->nl < 1 || in->nl > 4)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "nl=%u: must be 1..4", in->nl);
    if (in->rv > 3)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "rv=%u: must be 0..3", in->rv);
    if (in->bg > 2 || (!in->bg && *rate == 0.0))
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0,
                            "bg=%u: the base graph is 1 or 2, or give the target rate r= to choose it", in->bg);
    if (in->G == 0 || in->G > 100000000u || in->G % (in->nl * in->qm))
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "g=%u: must be a positive multiple of NL Qm = %u, at most 1e8",
                            in->G, in->nl * in->qm);
    return GPUFEC_OK;
}

/* 7.2.2 (base graph), 7.2.1 (CRC length), 5.2.2 (C, K'), 5.4.2.1 (E0, E1, C0). */
static gpufec_status plan_tb(gpufec_nr_tb_info* in, double rate, uint32_t ncb, gpufec_diag* diag)
{
    if (!in->bg)
        in->bg = in->A <= 292 || (in->A <= 3824 && rate <= 0.67) || rate <= 0.25 ? 2 : 1;
    in->tb_crc = in->A > 3824 ? 24 : 16;
    const uint32_t B = in->A + in->tb_crc, kcb = in->bg == 1 ? 8448 : 3840;
    uint32_t bprime = B;
    in->C = 1;
    if (B > kcb) {
        in->C = (B + (kcb - 24) - 1) / (kcb - 24);
        bprime = B + in->C * 24;
    }
    if (B % in->C)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0,
                            "tbs=%u: A + 24 = %u does not split into %u equal code blocks (38.214's transport "
                            "block sizes do)", in->A, B, in->C);
    in->kprime = bprime / in->C;
    const uint32_t q = in->nl * in->qm, g = in->G / q, floor_e = g / in->C;
    in->C0 = in->C - g % in->C; /* blocks r <= C - mod(G', C) - 1 */
    in->E0 = q * floor_e;
    in->E1 = q * (floor_e + (g % in->C ? 1u : 0u));
    if (in->E0 == 0)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0,
                            "g=%u: fewer than NL Qm bits per code block (%u blocks)", in->G, in->C);
    char extra[32] = "";
    if (ncb)
        snprintf(extra, sizeof extra, ":ncb=%u", ncb);
    const char* crc = in->C > 1 ? "24b" : in->tb_crc == 24 ? "24a" : "16";
    snprintf(in->code0, sizeof in->code0, "5gnr-bg%u:k=%u:e=%u:rv=%u:qm=%u%s:crc=%s", in->bg, in->kprime, in->E0,
             in->rv, in->qm, extra, crc);
    in->code1[0] = '\0';
    if (in->C0 < in->C)
        snprintf(in->code1, sizeof in->code1, "5gnr-bg%u:k=%u:e=%u:rv=%u:qm=%u%s:crc=%s", in->bg, in->kprime, in->E1,
                 in->rv, in->qm, extra, crc);
    return GPUFEC_OK;
}

gpufec_status gpufec_nr_tb_destroy(gpufec_nr_tb* tb)
{
    if (!tb)
        return GPUFEC_OK;
    for (int i = 0; i < 2; i++) {
        gpufec_decoder_destroy(tb->dec[i]);
        gpufec_code_destroy(tb->code[i]);
    }
    free(tb);
    return GPUFEC_OK;
}

gpufec_status gpufec_nr_tb_create(gpufec_nr_tb** out, const char* description, const gpufec_decoder_opts* opts,
                                  gpufec_diag* diag)
{
    if (diag) {
        diag->line = 0;
        diag->message[0] = '\0';
    }
    if (!out || !description)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    *out = NULL;
    gpufec_nr_tb* tb = calloc(1, sizeof *tb);
    if (!tb)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    double rate;
    uint32_t ncb;
    gpufec_status st = parse_tb(description, &tb->info, &rate, &ncb, diag);
    if (st == GPUFEC_OK)
        st = plan_tb(&tb->info, rate, ncb, diag);
    for (int i = 0; i < 2 && st == GPUFEC_OK; i++) {
        const char* name = i ? tb->info.code1 : tb->info.code0;
        if (*name)
            st = gpufec_code_open(&tb->code[i], name, diag);
        if (st == GPUFEC_OK && *name && opts) {
            gpufec_decoder_opts o = *opts; /* the blocks' information bits, from float soft values */
            o.output = GPUFEC_OUTPUT_INFO;
            o.input_type = GPUFEC_INPUT_FLOAT32;
            st = gpufec_decoder_create(&tb->dec[i], tb->code[i], &o);
            if (st != GPUFEC_OK && diag)
                snprintf(diag->message, sizeof diag->message, "the decoder of %.80s: %s", name, gpufec_status_str(st));
        }
    }
    if (st == GPUFEC_OK) {
        gpufec_code_info ci;
        gpufec_code_get_info(tb->code[0], &ci);
        tb->k_cb = ci.k;
        tb->info.zc = ci.qc_lifting;
        *out = tb;
        return GPUFEC_OK;
    }
    gpufec_nr_tb_destroy(tb);
    return st;
}

gpufec_status gpufec_nr_tb_get_info(const gpufec_nr_tb* tb, gpufec_nr_tb_info* info)
{
    if (!tb || !info)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    *info = tb->info;
    return GPUFEC_OK;
}

/* Block r of a transport block: its code (0 or 1), its E and where its bits start in the G. */
static uint32_t block_at(const gpufec_nr_tb_info* in, uint32_t r, size_t* offset)
{
    *offset = r < in->C0 ? (size_t)r * in->E0 : (size_t)in->C0 * in->E0 + (size_t)(r - in->C0) * in->E1;
    return r < in->C0 ? 0u : 1u;
}

/* The B = A + CRC bits of a transport block (C > 1: the CRC is the transport block's, the blocks
 * carry CRC24B of their own, which their codes attach and check). */
static void attach_tb_crc(const gpufec_nr_tb_info* in, const uint8_t* a, uint8_t* b)
{
    for (uint32_t i = 0; i < in->A; i++)
        b[i] = (uint8_t)(a[i] != 0);
    const uint32_t poly = in->tb_crc == 24 ? CRC24A_POLY : CRC16_POLY;
    const uint32_t r = crc_register_at(b, NULL, in->A, poly, in->tb_crc);
    for (uint32_t j = 0; j < in->tb_crc; j++)
        b[in->A + j] = (uint8_t)((r >> (in->tb_crc - 1 - j)) & 1u);
}

gpufec_status gpufec_nr_tb_encode(const gpufec_nr_tb* tb, const uint8_t* bits, size_t n_tb, uint8_t* coded)
{
    if (!tb || (n_tb && (!bits || !coded)) || n_tb > (size_t)1 << 20)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    const gpufec_nr_tb_info* in = &tb->info;
    uint8_t* b = malloc((size_t)in->A + in->tb_crc);
    if (!b)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    gpufec_status st = GPUFEC_OK;
    for (size_t t = 0; t < n_tb && st == GPUFEC_OK; t++) {
        const uint8_t* a = bits + t * in->A;
        uint8_t* g = coded + t * in->G;
        if (in->C == 1) { /* the block's code attaches the transport block's CRC itself */
            st = gpufec_code_encode(tb->code[0], a, 1, g);
            continue;
        }
        attach_tb_crc(in, a, b);
        for (uint32_t r = 0; r < in->C && st == GPUFEC_OK; r++) {
            size_t off;
            const uint32_t which = block_at(in, r, &off);
            st = gpufec_code_encode(tb->code[which], b + (size_t)r * tb->k_cb, 1, g + off);
        }
    }
    free(b);
    return st;
}

/* The blocks of code `which` of all n_tb transport blocks, gathered, decoded in one call. */
static gpufec_status decode_blocks(gpufec_nr_tb* tb, uint32_t which, const float* soft, size_t n_tb, uint8_t* cb_bits,
                                   uint8_t* cb_ok)
{
    const gpufec_nr_tb_info* in = &tb->info;
    const uint32_t r0 = which ? in->C0 : 0, r1 = which ? in->C : in->C0, per = r1 - r0;
    const uint32_t E = which ? in->E1 : in->E0;
    const size_t frames = n_tb * per;
    float* llr = malloc(frames * E * sizeof *llr);
    uint8_t* out = malloc(frames * tb->k_cb);
    uint8_t* ok = malloc(frames);
    gpufec_status st = llr && out && ok ? GPUFEC_OK : GPUFEC_ERR_OUT_OF_MEMORY;
    for (size_t t = 0; t < n_tb && st == GPUFEC_OK; t++)
        for (uint32_t r = r0; r < r1; r++) {
            size_t off;
            block_at(in, r, &off);
            memcpy(llr + (t * per + (r - r0)) * E, soft + t * in->G + off, (size_t)E * sizeof *llr);
        }
    if (st == GPUFEC_OK)
        st = gpufec_decoder_decode(tb->dec[which], llr, frames, out, NULL, ok);
    for (size_t t = 0; t < n_tb && st == GPUFEC_OK; t++)
        for (uint32_t r = r0; r < r1; r++) {
            const size_t f = t * per + (r - r0);
            memcpy(cb_bits + (t * in->C + r) * tb->k_cb, out + f * tb->k_cb, tb->k_cb);
            cb_ok[t * in->C + r] = ok[f];
        }
    free(llr);
    free(out);
    free(ok);
    return st;
}

gpufec_status gpufec_nr_tb_decode(gpufec_nr_tb* tb, const float* soft, size_t n_tb, uint8_t* bits, uint8_t* tb_ok,
                                  uint8_t* cb_ok)
{
    if (!tb || (n_tb && (!soft || !bits || !tb_ok)) || n_tb > (size_t)1 << 20)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    if (!tb->dec[0])
        return GPUFEC_ERR_UNSUPPORTED; /* created without decoder options */
    const gpufec_nr_tb_info* in = &tb->info;
    if (n_tb > ((size_t)1 << 31) / in->G)
        return GPUFEC_ERR_TOO_LARGE;
    uint8_t* cb_bits = malloc(n_tb * in->C * tb->k_cb + 1);
    uint8_t* ok = malloc(n_tb * in->C + 1);
    gpufec_status st = cb_bits && ok ? GPUFEC_OK : GPUFEC_ERR_OUT_OF_MEMORY;
    for (uint32_t which = 0; which < 2 && st == GPUFEC_OK; which++)
        if (tb->dec[which])
            st = decode_blocks(tb, which, soft, n_tb, cb_bits, ok);
    for (size_t t = 0; t < n_tb && st == GPUFEC_OK; t++) {
        const uint8_t* b = cb_bits + t * in->C * tb->k_cb; /* the blocks' bits in order: B bits */
        int good = 1;
        for (uint32_t r = 0; r < in->C; r++)
            good &= ok[t * in->C + r] != 0;
        /* C = 1: the block's code checked the transport block's CRC; else check it over B */
        if (in->C > 1)
            good &= crc_register_at(b, NULL, in->A + in->tb_crc, in->tb_crc == 24 ? CRC24A_POLY : CRC16_POLY,
                                    in->tb_crc) == 0;
        memcpy(bits + t * in->A, b, in->A);
        tb_ok[t] = (uint8_t)good;
        if (cb_ok)
            memcpy(cb_ok + t * in->C, ok + t * in->C, in->C);
    }
    free(cb_bits);
    free(ok);
    return st;
}
