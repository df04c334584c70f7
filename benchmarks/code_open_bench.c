/* Time and peak memory of opening a code and of its first encode (which builds the generic
 * encoder's tables). One code per process, so that the peak resident size is this code's.
 *   code_open_bench CODE [CODE...]   prints one line per code (run by run_code_open.sh) */
#include <gpufec/gpufec.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double peak_mib(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_maxrss / 1024.0; /* KiB on Linux */
}

static int one(const char* name)
{
    gpufec_code* c = NULL;
    gpufec_diag d = {0, ""};
    double t0 = now();
    gpufec_status st = gpufec_code_open(&c, name, &d);
    double t_open = now() - t0;
    if (st) {
        printf("%-28s open refused after %.2f s (peak %.0f MiB): %s\n", name, t_open, peak_mib(),
               d.message[0] ? d.message : gpufec_status_str(st));
        return 0;
    }
    double mem_open = peak_mib();
    gpufec_code_info ci;
    gpufec_code_get_info(c, &ci);
    uint8_t* u = calloc(ci.k, 1);
    uint8_t* x = malloc(ci.n_full);
    for (uint32_t i = 0; i < ci.k; i++)
        u[i] = (uint8_t)(rand() & 1);
    t0 = now();
    st = gpufec_code_encode_full(c, u, 1, x);
    double t_first = now() - t0;
    t0 = now();
    gpufec_code_encode_full(c, u, 1, x);
    double t_next = now() - t0;
    uint32_t w = 1;
    gpufec_code_syndrome_weight(c, x, &w);
    printf("%-28s N %8u K %8u  open %7.2f s (peak %6.0f MiB)  first encode %7.3f s  next %7.4f s "
           "(peak %6.0f MiB)  %s\n",
           name, ci.n_full, ci.k, t_open, mem_open, t_first, t_next, peak_mib(),
           st ? gpufec_status_str(st) : w ? "SYNDROME NOT ZERO" : "syndrome 0");
    free(u);
    free(x);
    gpufec_code_destroy(c);
    return st == GPUFEC_OK && w == 0 ? 0 : 1;
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: code_open_bench CODE [CODE...]\n");
        return 2;
    }
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0)
        {
            int r = one(argv[i]);
            fflush(stdout);
            _exit(r);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        bad |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    }
    return bad;
}
