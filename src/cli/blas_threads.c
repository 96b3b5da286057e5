/* blas_threads.c - keep OpenBLAS's thread servers from spinning against the
 * loading map's pool.
 *
 * OpenBLAS (the pthreads build Debian installs, whose LAPACK dposv solves
 * Anderson's k x k normal equations) starts a server thread per core when it
 * is loaded. An idle server spins on sched_yield for 2^28 TSC cycles (about
 * 0.1 s) after start and after every threaded call before it sleeps: on a
 * 2-core machine it took a core from the pool for the first 0.1 s of every
 * process (Anaheim full, 2 threads: a fifth of the process's CPU time went to
 * sched_yield). Nothing dillsue asks of BLAS is large enough to be threaded.
 * The engine opens OpenBLAS only when an Anderson run sets up
 * (src/engine/lapack.c), so the program asks for one thread through the
 * environment OpenBLAS reads when it loads: no server is ever started. Only the
 * program does this, never libdillsue: a host application's BLAS threads are
 * its own business. */
#include <stdlib.h>

#include "cli.h"

void cli_blas_single_thread(void) { setenv("OPENBLAS_NUM_THREADS", "1", 1); }
