/* walltime.c - `walltime -o FILE CMD ARGS...`: runs CMD and writes
 * "SECONDS,MAXRSS_KB" to FILE (as GNU time -f %e,%M, with microseconds).
 * bench/planning.sh times whole solves with it: reading the shell's clock
 * around GNU time (two `date` processes and time's own start) added about 5 ms
 * to every run, 15 % of Anaheim full's 32 ms, the same in 1- and 2-thread
 * runs, so it pulled their ratio towards 1 (docs/bench.md "Stop 24"); and %e
 * counts in 10 ms steps. The interval here is fork to wait4: the command's
 * own start (exec, dynamic linking), run and exit. Exit status: CMD's (127 if
 * it could not be started, 128 + signal if one ended it). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    struct timespec a, b;
    struct rusage ru;
    int st = 0;
    if (argc < 4 || strcmp(argv[1], "-o") != 0) {
        fprintf(stderr, "usage: walltime -o FILE CMD [ARGS...]\n");
        return 2;
    }
    FILE *out = fopen(argv[2], "w");
    if (!out) {
        fprintf(stderr, "walltime: %s: %s\n", argv[2], strerror(errno));
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &a);
    pid_t p = fork();
    if (p < 0) {
        fprintf(stderr, "walltime: fork: %s\n", strerror(errno));
        return 2;
    }
    if (p == 0) {
        execvp(argv[3], argv + 3);
        fprintf(stderr, "walltime: %s: %s\n", argv[3], strerror(errno));
        _exit(127);
    }
    while (wait4(p, &st, 0, &ru) < 0)
        if (errno != EINTR) {
            fprintf(stderr, "walltime: wait4: %s\n", strerror(errno));
            return 2;
        }
    clock_gettime(CLOCK_MONOTONIC, &b);
    fprintf(out, "%.6f,%ld\n", (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec), ru.ru_maxrss);
    fclose(out);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
