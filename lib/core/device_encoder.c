/* The front of the device encoders: arguments, the family's record, the variant. */
#include "device_encoder_internal.h"

#include "code_internal.h"
#include "family.h"
#include "text_reader.h"

#include <stdio.h>
#include <stdlib.h>

struct gpufec_device_encoder {
    const device_encoder_ops* ops;
    void* state;
    uint32_t k, n;
    char variant[64];
};

gpufec_status gpufec_device_encoder_create(gpufec_device_encoder** out, const gpufec_code* code, int device,
                                           gpufec_diag* diag)
{
    if (!out || !code)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "device encoder: %s is NULL", out ? "code" : "out");
    *out = NULL;
    if (device < 0)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0, "device encoder: device %d is negative", device);
    const device_encoder_ops* ops = NULL;
    for (size_t i = 0; device_encoder_registry[i] && !ops; i++)
        if (device_encoder_registry[i]->family == code->family->id)
            ops = device_encoder_registry[i];
    if (!ops && !device_encoder_registry[0])
        return text_fail_as(GPUFEC_ERR_NO_DEVICE, diag, 0, "device encoder: this build has no CUDA backend");
    if (!ops)
        return text_fail_as(GPUFEC_ERR_UNSUPPORTED, diag, 0,
                            "device encoder: none for %s codes yet (gpufec_code_encode encodes them on the host)",
                            code->family->name);
    if (code->crc_poly)
        return text_fail_as(GPUFEC_ERR_UNSUPPORTED, diag, 0,
                            "device encoder: codes with crc= are encoded on the host (gpufec_code_encode)");
    gpufec_device_encoder* e = calloc(1, sizeof *e);
    if (!e)
        return GPUFEC_ERR_OUT_OF_MEMORY;
    char variant[48] = "";
    gpufec_status st = ops->create(code, device, &e->state, variant, sizeof variant, diag);
    if (st) {
        free(e);
        return st;
    }
    e->ops = ops;
    e->k = code->k;
    e->n = code->tx.n_tx;
    snprintf(e->variant, sizeof e->variant, "%s%s%s", ops->name, variant[0] ? " " : "", variant);
    *out = e;
    return GPUFEC_OK;
}

void gpufec_device_encoder_destroy(gpufec_device_encoder* e)
{
    if (!e)
        return;
    e->ops->destroy(e->state);
    free(e);
}

/* n_frames frames of both sizes can be addressed */
static int fits(const gpufec_device_encoder* e, size_t n_frames)
{
    const size_t most = e->k > e->n ? e->k : e->n;
    return most == 0 || n_frames <= SIZE_MAX / most;
}

gpufec_status gpufec_device_encoder_encode(gpufec_device_encoder* e, const uint8_t* info, size_t n_frames,
                                           uint8_t* out, void* stream)
{
    if (!e || (n_frames && (!info || !out)) || !fits(e, n_frames))
        return GPUFEC_ERR_INVALID_ARGUMENT;
    return n_frames ? e->ops->encode(e->state, info, n_frames, out, stream) : GPUFEC_OK;
}

gpufec_status gpufec_device_encoder_encode_host(gpufec_device_encoder* e, const uint8_t* info, size_t n_frames,
                                                uint8_t* out)
{
    if (!e || (n_frames && (!info || !out)) || !fits(e, n_frames))
        return GPUFEC_ERR_INVALID_ARGUMENT;
    return n_frames ? e->ops->encode_host(e->state, info, n_frames, out) : GPUFEC_OK;
}

gpufec_status gpufec_device_encoder_variant(const gpufec_device_encoder* e, char* name, size_t length)
{
    if (!e || !name || !length)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    snprintf(name, length, "%s", e->variant);
    return GPUFEC_OK;
}
