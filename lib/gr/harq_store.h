/* HARQ soft combining for the blocks (5G NR rate-matched codes): each process's soft circular
 * buffer (the mother codeword's values, gpufec_code_harq_combine), the code of each redundancy
 * version and one decoder of the mother code. The PDU decoder keys processes by metadata, the
 * stream decoder by tags; both call decode(). Not thread-safe: one block's work or handler. */
#ifndef INCLUDED_GPUFEC_HARQ_STORE_H
#define INCLUDED_GPUFEC_HARQ_STORE_H

#include "c_handles.h"

#include <map>
#include <string>
#include <vector>

namespace gr {
namespace gpufec {

class harq_store
{
public:
    /* code_name/code: the block's code; opts: its options (float32 input). At most
     * max_processes buffers are kept. */
    harq_store(const std::string& code_name, const gpufec_code* code, const gpufec_decoder_opts& opts,
               size_t max_processes);

    struct result {
        std::string error;       // "" when decoded; else why nothing was combined
        long transmissions = 0;  // combined in the process's buffer so far
    };
    /* Adds `frames` transmissions of process `process` (soft: LLRs, frames * n; rv -1: the
     * code's own, else 0..3; fresh: the buffer is cleared first). */
    result combine(long process, long rv, bool fresh, const float* soft, size_t frames);
    /* Decodes the buffers of `count` combined processes (all different) in one call of the
     * mother code's decoder, in that order: bits (their frames * info_len()), iterations and
     * ok. A process whose frames all decode is done: its buffer is freed. */
    void decode(const long* processes, size_t count, uint8_t* bits, int32_t* iterations, uint8_t* ok);
    /* Bits per decoded frame (the information bits; 0 before the first decode). */
    uint32_t info_len() const { return d_info_len; }
    /* The block's code at redundancy version rv (-1: its own). */
    const gpufec_code* code_for(long rv);
    size_t open_processes() const { return d_buffers.size(); }

private:
    struct buffer {
        std::vector<float> soft; // frames * d_len
        long transmissions = 0;
    };
    std::string d_code_name;
    const gpufec_code* d_code;
    gpufec_decoder_opts d_opts;
    size_t d_max;
    code_ptr d_rv_code[4];
    code_ptr d_mother;
    decoder_ptr d_dec;
    uint32_t d_len = 0, d_info_len = 0;
    std::map<long, buffer> d_buffers;
    std::vector<float> d_batch; // the buffers of one decode call, side by side
};

} // namespace gpufec
} // namespace gr

#endif
