/* gpufec-info: lists the built-in codes and describes or exports one. */
#include <gpufec/gpufec.h>

#include <stdio.h>
#include <string.h>

static int fail(const char* what, const gpufec_diag* d, gpufec_status st)
{
    fprintf(stderr, "gpufec-info: %s: %s\n", what, d && d->message[0] ? d->message : gpufec_status_str(st));
    return 2;
}

/* One row: sizes in bits, then what the code's family says of it (gpufec_code_summary). A code
 * without a parity-check matrix (no edges) shows "-" in the matrix columns. */
static void describe(const char* name, const gpufec_code* c, const gpufec_code_info* i)
{
    char layers[32], field[96];
    snprintf(layers, sizeof layers, i->layer_lifting ? "%u (Z=%u)" : "%u", i->layers, i->layer_lifting);
    gpufec_code_summary(c, field, sizeof field);
    if (i->edges == 0) {
        printf("%-24s %8u %8u %7.4f %9s %6s %6s %6u %6u %5s  %-7s  %-9s  %s\n", name, i->n, i->k, i->rate, "-", "-",
               "-", i->punctured, i->shortened, "-", i->structured_encoder ? "linear" : "generic", "-", field);
        return;
    }
    printf("%-24s %8u %8u %7.4f %9u %6u %6u %6u %6u %5u  %-7s  %-9s  %s\n", name, i->n, i->k, i->rate,
           i->edges, i->max_var_degree, i->max_check_degree, i->punctured, i->shortened,
           i->qc_lifting, i->structured_encoder ? "linear" : "generic", layers, field);
}

static const char* const USAGE =
    "usage: gpufec-info --list-codes | --names FAMILY | --families | --code NAME|FILE [--export-alist FILE] |\n"
    "                   --params | --cuda | --help\n";

static const char* const HELP =
    "\n"
    "Describes the codes and decoder options of gr-gpufec.\n"
    "\n"
    "  --list-codes          every built-in code, one row each: N and K (transmitted and information\n"
    "                        bits), rate, H's edges and largest column/row degrees, punctured and\n"
    "                        shortened (filler) positions, lifting Z, encoder kind, layers, field\n"
    "                        (codes without a parity-check matrix: '-'), and what the code's family\n"
    "                        says of it\n"
    "  --names FAMILY        the built-in codes of one family (--families), a line each: name, N, K,\n"
    "                        rate, tab-separated\n"
    "  --families            the families, a line each: name, label, the option naming its decoders,\n"
    "                        the options its decoders read beyond the common ones\n"
    "  --code NAME|FILE      the same row for one code: a built-in name (with options such as\n"
    "                        5gnr-bg1-z384:k=8000) or a file\n"
    "                        (.alist, .qc/.txt prototype matrix, .kn, .nbalist)\n"
    "  --export-alist FILE   with --code: write a binary LDPC code's H as an alist file\n"
    "  --params              every decoder option, tab-separated: name, type, default, range or\n"
    "                        choices, choice labels, help, family, the settings it matters under;\n"
    "                        gpufec-sim and gpufec-bench take them as --param NAME=VALUE\n"
    "  --cuda                whether the CUDA backend is usable on this machine\n"
    "  --help                this text\n"
    "\n"
    "Exit status: 0, or 2 with a one-line message on stderr.\n";

/* The decoder options, one per line, tab-separated: name, type, default, range or choices
 * (a|b|c), choice labels (a;b;c), help, family ("common" or the family), the setting under which
 * it matters ("-": always). Read by people and by the GRC generator. */
static void list_params(void)
{
    printf("# name\ttype\tdefault\trange|choices\tlabels\thelp\tfamily\tmatters when\n");
    for (size_t i = 0; i < gpufec_decoder_param_count(); i++) {
        gpufec_param_info p;
        gpufec_decoder_param_info(i, &p);
        printf("%s\t%s\t%s\t", p.name, p.type, p.default_value);
        if (p.n_choices) {
            for (size_t c = 0; c < p.n_choices; c++)
                printf("%s%s", c ? "|" : "", p.choices[c]);
            printf("\t");
            for (size_t c = 0; c < p.n_choices; c++)
                printf("%s%s", c ? ";" : "", p.choice_labels[c]);
        } else if (strcmp(p.type, "float") == 0) {
            printf("%g..%g\t", p.min, p.max);
        } else { /* integers as integers (4294967295, not 4.29497e+09) */
            printf("%.0f..%.0f\t", p.min, p.max);
        }
        printf("\t%s\t%s\t%s\n", p.help, p.family[0] ? p.family : "common", p.applies[0] ? p.applies : "-");
    }
}

typedef void (*row_fn)(const char* name, const gpufec_code* c, const gpufec_code_info* i);

/* Opens every built-in code (of `family`; NULL: all) and writes its row. */
static int each_builtin(const char* family, row_fn row)
{
    for (size_t i = 0; i < gpufec_code_builtin_count(); i++) {
        gpufec_family f;
        if (family && (gpufec_code_builtin_family(i, &f) != GPUFEC_OK || strcmp(gpufec_family_name(f), family) != 0))
            continue;
        gpufec_code* c;
        gpufec_diag d;
        gpufec_status st = gpufec_code_open(&c, gpufec_code_builtin_name(i), &d);
        if (st)
            return fail(gpufec_code_builtin_name(i), &d, st);
        gpufec_code_info info;
        gpufec_code_get_info(c, &info);
        row(gpufec_code_builtin_name(i), c, &info);
        gpufec_code_destroy(c);
    }
    return 0;
}

static void name_row(const char* name, const gpufec_code* c, const gpufec_code_info* i)
{
    (void)c;
    printf("%s\t%u\t%u\t%.4f\n", name, i->n, i->k, i->rate);
}

/* --names FAMILY: machine-readable, for the GRC generator: name, N, K, rate, tab-separated. */
static int list_names(const char* family)
{
    gpufec_family f;
    int known = 0;
    for (size_t i = 0; gpufec_family_at(i, &f) == GPUFEC_OK; i++)
        known |= strcmp(gpufec_family_name(f), family) == 0;
    if (!known) {
        fprintf(stderr, "gpufec-info: --names: no family '%s' (gpufec-info --families lists them)\n", family);
        return 2;
    }
    return each_builtin(family, name_row);
}

/* --families: name, label, the option naming its decoders, the options its decoders read beyond
 * the common ones (comma-separated, "-": none). */
static void list_family(gpufec_family f)
{
    printf("%s\t%s\t%s\t", gpufec_family_name(f), gpufec_family_label(f), gpufec_family_algorithm_option(f));
    gpufec_param_info p;
    int any = 0;
    for (size_t i = 0; gpufec_decoder_param_info(i, &p) == GPUFEC_OK; i++)
        if (gpufec_family_reads_option(f, p.name))
            printf("%s%s", any++ ? "," : "", p.name);
    printf("%s\n", any ? "" : "-");
}

static void header(void)
{
    printf("%-24s %8s %8s %7s %9s %6s %6s %6s %6s %5s  %-7s  %-9s  %s\n", "# name", "N", "K", "rate", "edges",
           "dv_max", "dc_max", "punct", "short", "Z", "encoder", "layers", "field");
}

int main(int argc, char** argv)
{
    const char* code_name = NULL;
    const char* export_path = NULL;
    int list = 0;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--list-codes") == 0)
            list = 1;
        else if (strcmp(argv[a], "--code") == 0 && a + 1 < argc)
            code_name = argv[++a];
        else if (strcmp(argv[a], "--export-alist") == 0 && a + 1 < argc)
            export_path = argv[++a];
        else if (strcmp(argv[a], "--names") == 0 && a + 1 < argc)
            return list_names(argv[++a]);
        else if (strcmp(argv[a], "--families") == 0) {
            gpufec_family f;
            for (size_t i = 0; gpufec_family_at(i, &f) == GPUFEC_OK; i++)
                list_family(f);
            return 0;
        } else if (strcmp(argv[a], "--cuda") == 0) {
            printf("CUDA backend usable: %s\n", gpufec_cuda_available() ? "yes" : "no");
            return 0;
        } else if (strcmp(argv[a], "--params") == 0) {
            list_params();
            return 0;
        } else if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
            fputs(USAGE, stdout);
            fputs(HELP, stdout);
            return 0;
        } else {
            fprintf(stderr, "gpufec-info: unknown or incomplete option '%s'\n%s", argv[a], USAGE);
            return 2;
        }
    }
    if (!list && !code_name) {
        fputs(USAGE, stderr);
        return 2;
    }
    if (list)
        header();
    if (list && each_builtin(NULL, describe))
        return 2;
    if (code_name) {
        gpufec_code* c;
        gpufec_diag d;
        gpufec_status st = gpufec_code_open(&c, code_name, &d);
        if (st)
            return fail(code_name, &d, st);
        gpufec_code_info info;
        gpufec_code_get_info(c, &info);
        if (!list)
            header();
        describe(code_name, c, &info);
        if (export_path && (st = gpufec_code_export_alist(c, export_path))) {
            gpufec_code_destroy(c);
            if (st == GPUFEC_ERR_UNSUPPORTED) { /* the family, not the build */
                fprintf(stderr, "gpufec-info: --export-alist: alist files hold binary LDPC codes; this code is %s\n",
                        gpufec_family_name(info.family));
                return 2;
            }
            return fail(export_path, NULL, st);
        }
        gpufec_code_destroy(c);
    }
    return 0;
}
