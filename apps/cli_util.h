/* Helpers shared by the command-line tools: fatal errors as one line on stderr, a monotonic
 * clock, and strict number parsing. */
#ifndef GPUFEC_CLI_UTIL_H
#define GPUFEC_CLI_UTIL_H

#include <stdio.h>

/* Set once by main(): the prefix of every error line ("gpufec-sim", ...). */
extern const char* cli_program;

/* Prints "<program>: <message>" on stderr and exits with status 2. */
void die(const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;
double now(void);
/* Opens a code by built-in name or file, or die()s with the reader's diagnostic. */
struct gpufec_code* open_code_or_die(const char* name);
/* The whole string must be a finite number / an integer in [lo, hi]; else die() naming `what`. */
double parse_double(const char* s, const char* what);
long parse_long(const char* s, const char* what, long lo, long hi);
/* --param NAME=VALUE: sets a decoder option through the library's option table, or die()s with
 * its message. */
void apply_param(void* opts, const char* assignment);
/* Sets option `name` to `value` for the command-line flag `flag`, or die()s with the library's
 * message (which lists the accepted names of an enum option). */
void set_named_param(void* opts, const char* name, const char* value, const char* flag);
/* --decoder NAME: must name a decoder of some family (else die()s listing every family's);
 * applied by cli_check_family for the code's family. */
void set_decoder(void* opts, const char* name);
/* Records that the command line set option `name` (the library's name) through `flag`. */
void cli_note_option(const char* name, const char* flag);
/* Option `name` of opts as text into buf ("?" if unknown); returns buf. */
const char* opt_text(const void* opts, const char* name, char* buf, size_t len);
/* Whether the command line set option `name`. */
int cli_option_noted(const char* name);
/* Once the code is open: applies --decoder as the family's algorithm (die()s listing the
 * family's decoders when it names another family's), and die()s when an option the command line
 * set belongs to another family than the code's. */
void cli_check_family(void* opts, const struct gpufec_code* code);
/* The decoder's algorithm and schedule as the tools print them, for the code's family
 * (gpufec_code_info.family); schedule: the LDPC schedule in use. */
const char* decoder_label(const void* opts, int family);
const char* schedule_label(const void* opts, int family, int schedule, char* buf, size_t len);
/* 1 when "name=value" sets a family's algorithm option (gpufec-info --families). */
int cli_names_algorithm(const char* assignment);
/* Prints the accepted names of enum option `name` as a|b|c. */
void print_choices(FILE* f, const char* name);

#endif
