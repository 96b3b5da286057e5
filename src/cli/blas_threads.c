/* blas_threads.c - keep OpenBLAS's thread servers from spinning against the
 * loading map's pool.
 *
 * OpenBLAS (the pthreads build Debian installs, whose LAPACK dposv solves
 * Anderson's k x k normal equations) starts a server thread per core when it
 * is loaded. An idle server spins on sched_yield for 2^28 TSC cycles (about
 * 0.1 s) after start and after every threaded call before it sleeps: on a
 * 2-core machine it takes a core from the pool for the first 0.1 s of every
 * process (Anaheim full, 2 threads: a fifth of the process's CPU time went to
 * sched_yield). Nothing dillsue asks of BLAS is large enough to be threaded,
 * so the program asks for one thread and stops the servers. The symbols are
 * weak: another BLAS (or a serial OpenBLAS) lacks them and then has no
 * servers to stop. Only the program does this, never libdillsue: a host
 * application's BLAS threads are its own business. */
#include "cli.h"

extern void openblas_set_num_threads(int num_threads) __attribute__((weak));
extern int blas_thread_shutdown_(void) __attribute__((weak));

void cli_blas_single_thread(void)
{
    if (openblas_set_num_threads) openblas_set_num_threads(1);
    if (blas_thread_shutdown_) blas_thread_shutdown_();
}
