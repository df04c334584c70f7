#include <gpufec/common.h>

const char* gpufec_status_str(gpufec_status status)
{
    switch (status) {
    case GPUFEC_OK: return "success";
    case GPUFEC_ERR_INVALID_ARGUMENT: return "invalid argument (NULL pointer, bad option or wrong length)";
    case GPUFEC_ERR_OUT_OF_MEMORY: return "out of host memory";
    case GPUFEC_ERR_IO: return "file could not be opened or read";
    case GPUFEC_ERR_PARSE: return "malformed matrix file";
    case GPUFEC_ERR_UNSUPPORTED: return "not supported by this build or backend";
    case GPUFEC_ERR_NO_DEVICE: return "no usable CUDA GPU (or library built without CUDA)";
    case GPUFEC_ERR_DEVICE: return "a CUDA call failed";
    case GPUFEC_ERR_DEVICE_OUT_OF_MEMORY: return "out of GPU memory";
    case GPUFEC_ERR_UNKNOWN_CODE: return "unknown code name and no such file";
    case GPUFEC_ERR_INTERNAL: return "internal error (a bug in gr-gpufec)";
    case GPUFEC_ERR_TOO_LARGE: return "input exceeds a documented size or work limit";
    }
    return "unknown status code";
}

const char* gpufec_version(void) { return GPUFEC_VERSION_STRING; }
