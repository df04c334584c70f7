/* GF(2^p) tables and the default primitive polynomials. */
#include "nb_gf.h"

#include <gpufec/nbldpc.h>

#include <string.h>

uint32_t gpufec_nb_default_poly(uint32_t q)
{
    /* x^2+x+1, x^3+x+1, x^4+x+1, x^5+x^2+1, x^6+x+1, x^7+x^3+1, x^8+x^4+x^3+x^2+1: the usual
     * primitive polynomials (GF(64) and GF(256) as the .kn codes' simulator builds them). */
    switch (q) {
    case 4: return 0x7;
    case 8: return 0xB;
    case 16: return 0x13;
    case 32: return 0x25;
    case 64: return 0x43;
    case 128: return 0x89;
    case 256: return 0x11D;
    }
    return 0;
}

int nb_gf_init(nb_gf* f, uint32_t q, uint32_t poly)
{
    uint32_t p = 0;
    while ((1u << p) < q)
        p++;
    if (q < 4 || q > NB_MAX_Q || (1u << p) != q || (poly >> p) != 1u)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    memset(f, 0, sizeof *f);
    f->q = q;
    f->p = p;
    f->poly = poly;
    for (uint32_t i = 0; i < q; i++)
        f->log[i] = -1;
    uint32_t x = 1;
    for (uint32_t i = 0; i < q - 1; i++) {
        if (x == 0 || f->log[x] >= 0) /* alpha's order is below q - 1: not primitive */
            return GPUFEC_ERR_INVALID_ARGUMENT;
        f->exp[i] = (uint8_t)x;
        f->log[x] = (int16_t)i;
        x <<= 1;
        if (x & q)
            x ^= poly;
    }
    if (x != 1)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    for (uint32_t i = q - 1; i < 2 * (q - 1); i++)
        f->exp[i] = f->exp[i - (q - 1)];
    return GPUFEC_OK;
}
