/* gpufec-sim's result file: written whole after every point (to a temporary file renamed over the
 * old one, so a reader or a crash never sees half a file), and read back by --resume. */
#ifndef GPUFEC_SIM_JSON_H
#define GPUFEC_SIM_JSON_H

#include "sim_engine.h"

#include <stdio.h>

typedef struct {
    double x; /* Eb/N0 in dB, or the crossover probability */
    sim_counts counts;
    long long units;
    double seconds, decoder_bps, simulated_bps;
    int busy_threads;
    sim_stop stop;
    int partial; /* interrupted: --resume goes on from `units` */
} sim_point_record;

/* Writes `head` (the "parameters" object's text, without braces' surroundings: `"parameters": {...}`),
 * the run key and the points to path atomically. Returns 0, or -1 with errno set. */
int sim_json_write(const char* path, const char* head, const char* run_key, const char* x_key, unsigned k,
                   const sim_point_record* pts, int npts, int complete);

/* Reads a result file written by sim_json_write: its run key (into key, at most key_len bytes) and
 * up to max points. Returns the point count, or -1 with a reason in why. */
int sim_json_read(const char* path, char* key, size_t key_len, const char* x_key, sim_point_record* pts, int max,
                  char* why, size_t why_len);

/* Writes s as a JSON string (quotes and escapes). */
void sim_json_string(FILE* f, const char* s);

#endif
