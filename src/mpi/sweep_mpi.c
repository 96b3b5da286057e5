/* sweep_mpi.c - `mpirun -np R dillsue sweep ...`: rank 0 deals jobs (cells
 * and UE references) on request and gathers the results; the other ranks ask,
 * compute and send back. Built as the module libdillsue_mpi.so where the
 * Makefile finds mpicc (it then defines DS_HAVE_MPI for cmd_sweep.c) and
 * opened only by a sweep that mpirun started (sweep_mpi_load.c); it reaches
 * the sweep through the sweep_calls table C, never by symbol.
 *
 * Protocol (all on MPI_COMM_WORLD, fixed-size messages):
 *   worker -> 0  TAG_RESULT  sweep_msg: the job just done (type NONE on the
 *                            first request) and its result
 *   worker -> 0  TAG_FLOWS   2 n_links doubles (flows, costs), only when
 *                            sweep_msg.have_flows
 *   0 -> worker  TAG_JOB     sweep_job: a job, or type NONE = stop; PREFETCH
 *                            (3) after the first request and one after each
 *                            result, so a rank always holds its next jobs and
 *                            never waits for rank 0 between cells (dealing
 *                            stays dynamic: a rank gets more as it finishes)
 * Rank 0 also computes: a thread of it takes jobs from the same dealer, so
 * one rank does the whole sweep and R ranks use R cores. Its main thread
 * only talks MPI (MPI_THREAD_FUNNELED) and polls with MPI_Iprobe rather than
 * blocking (Open MPI's blocking calls spin a core): every quarter of the
 * cells' recent mean time, between 0.5 and 4 ms (poll_nap_ns). Results go to the
 * same recorder as local workers', so cells.csv and the flows are the same
 * whatever the rank count. Records are sent as bytes: ranks must share the
 * architecture and the build. */
#include "../cli/sweep.h"

#include <mpi.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { TAG_RESULT = 101, TAG_FLOWS, TAG_JOB };
enum { PREFETCH = 3 }; /* jobs a rank holds: the one it computes and the next two */

static const sweep_calls *C; /* the sweep's functions, from the program */

typedef struct sweep_msg {
    sweep_job job;
    sweep_result r;
    int have_flows;
} sweep_msg;

static int mpi_init(int *rank, int *size)
{
    int provided = 0;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "dillsue sweep: MPI_Init_thread failed\n");
        return -1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    if (provided < MPI_THREAD_FUNNELED) {
        if (*rank == 0) fprintf(stderr, "dillsue sweep: this MPI does not allow threads (MPI_THREAD_FUNNELED)\n");
        MPI_Finalize();
        return -1;
    }
    return 0;
}

static void mpi_finalize(void) { MPI_Finalize(); }

static int mpi_bcast_setup(char *text, int n, int ok)
{
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (ok && text) {
        MPI_Bcast(text, n, MPI_CHAR, 0, MPI_COMM_WORLD);
        text[n - 1] = '\0';
    }
    return ok;
}

static int mpi_all_ok(int ok)
{
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

typedef struct local_arg {
    sweep *sw;
    atomic_int done;
} local_arg;

static void *local_main(void *arg)
{
    local_arg *a = arg;
    C->block_signals();
    C->work(a->sw, 0, 0);
    atomic_store(&a->done, 1);
    return NULL;
}

/* Rank 0's nap between polls. A rank holds its next two jobs (PREFETCH), so
 * a reply only has to come before they are done: a quarter of a cell is early
 * enough even for cells far shorter than the mean, and each wake takes the
 * computing thread's core from it (0.5 ms naps cost that thread 4 % of its
 * time on the Sioux Falls grid at -np 2, with cells of 7 ms). ema: the mean
 * wall time of recent cells, 0 before any. */
static long poll_nap_ns(double ema)
{
    double ns = ema / 4 * 1e9;
    return ns < 5e5 ? 500 * 1000 : ns > 4e6 ? 4000 * 1000 : (long)ns;
}

static void mpi_master(sweep *sw, int size)
{
    int n = C->base(sw)->n_links;
    double *buf = malloc(sizeof(double) * 2 * (size_t)(n ? n : 1));
    local_arg la = {sw, 0};
    pthread_t th;
    int active = size - 1;
    int *outstanding = calloc((size_t)size, sizeof *outstanding); /* jobs sent, results not back */
    if (!buf || !outstanding) {                                   /* the other ranks wait for answers: end the job */
        fprintf(stderr, "dillsue sweep: out of memory on rank 0\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
        exit(2); /* not reached */
    }
    if (pthread_create(&th, NULL, local_main, &la) != 0) {
        fprintf(stderr, "dillsue sweep: cannot start rank 0's computing thread\n");
        atomic_store(&la.done, 2);
    }
    const struct timespec idle_nap = {0, 20 * 1000 * 1000};
    double ema = 0; /* recent cells' mean wall time (s), for the nap */
    while (active > 0 || !atomic_load(&la.done)) {
        C->set_alive(sw, active + !atomic_load(&la.done), size);
        C->tick(sw);
        if (active > 0) {
            int flag = 0;
            MPI_Status st;
            MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &flag, &st);
            if (flag) {
                sweep_msg m;
                int src = st.MPI_SOURCE;
                MPI_Recv(&m, (int)sizeof m, MPI_BYTE, src, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (m.have_flows) MPI_Recv(buf, 2 * n, MPI_DOUBLE, src, TAG_FLOWS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (m.job.type != SWEEP_JOB_NONE) {
                    /* a rank stops only when interrupted: stop the sweep */
                    if (m.r.status == DS_STATUS_CANCELLED)
                        C->release(sw, &m.job), C->request_stop(sw);
                    else
                        C->record(sw, &m.job, &m.r, m.have_flows ? buf : NULL, m.have_flows ? buf + n : NULL);
                    if (m.r.wall_s >= 0) ema = ema > 0 ? 0.9 * ema + 0.1 * m.r.wall_s : m.r.wall_s;
                }
                /* keep PREFETCH jobs at each rank: the next one is there when a
                 * cell ends, so no rank waits for this loop to wake up */
                if (m.job.type != SWEEP_JOB_NONE) outstanding[src]--;
                int want = m.job.type == SWEEP_JOB_NONE ? PREFETCH : 1;
                for (int j = 0; j < want; j++) {
                    sweep_job next;
                    if (C->take(sw, &next) != 0) break;
                    MPI_Send(&next, (int)sizeof next, MPI_BYTE, src, TAG_JOB, MPI_COMM_WORLD);
                    outstanding[src]++;
                }
                if (outstanding[src] == 0) { /* nothing left for it: let it go */
                    sweep_job stop = {SWEEP_JOB_NONE, -1};
                    MPI_Send(&stop, (int)sizeof stop, MPI_BYTE, src, TAG_JOB, MPI_COMM_WORLD);
                    active--;
                }
                continue;
            }
        }
        struct timespec poll_nap = {0, poll_nap_ns(ema)};
        nanosleep(active > 0 ? &poll_nap : &idle_nap, NULL);
    }
    if (atomic_load(&la.done) != 2) pthread_join(th, NULL);
    C->set_alive(sw, 0, size);
    free(outstanding);
    free(buf);
}

static void mpi_worker(sweep *sw, int rank)
{
    int n = C->base(sw)->n_links;
    double *buf = malloc(sizeof(double) * 2 * (size_t)(n ? n : 1));
    ds_network *cache = NULL;
    int cache_k = -1, cur = 0;
    /* The result goes out with MPI_Isend and its buffer is reused two cells
     * later: a blocking send of it waited for rank 0's loop to take it (0.3
     * ms a cell, measured: Sioux Falls grid, -np 2, 4 % of rank 1's time).
     * Flows (large: a rendezvous that needs both sides) stay blocking, so
     * rank 0's loop, which receives them right after the result, never waits
     * for a rank that is computing. */
    sweep_msg m[2];
    MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    memset(m, 0, sizeof m);
    m[0].job.type = SWEEP_JOB_NONE;
    for (;;) {
        MPI_Isend(&m[cur], (int)sizeof m[cur], MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD, &req[cur]);
        if (m[cur].have_flows) MPI_Send(buf, 2 * n, MPI_DOUBLE, 0, TAG_FLOWS, MPI_COMM_WORLD);
        sweep_job job;
        MPI_Recv(&job, (int)sizeof job, MPI_BYTE, 0, TAG_JOB, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (job.type == SWEEP_JOB_NONE) break;
        cur ^= 1;
        MPI_Wait(&req[cur], MPI_STATUS_IGNORE); /* the result of two cells ago */
        int have = 0;
        sweep_msg *mm = &m[cur];
        memset(mm, 0, sizeof *mm);
        mm->job = job;
        if (buf) {
            C->compute(sw, &job, rank, 0, &cache, &cache_k, &mm->r, buf, buf + n, &have);
        } else {
            mm->r.cell = job.index;
            mm->r.status = DS_STATUS_ERROR;
            snprintf(mm->r.reason, sizeof mm->r.reason, "out of memory on rank %d", rank);
        }
        mm->have_flows = have && (job.type == SWEEP_JOB_UE || C->wants_flows(sw));
    }
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    C->network_free(cache);
    free(buf);
}

/* The entry the program looks up: this module's table, if it was built with
 * the same record layouts (they travel as bytes). */
const sweep_mpi_ops *dillsue_sweep_mpi(int abi, const sweep_calls *calls);
const sweep_mpi_ops *dillsue_sweep_mpi(int abi, const sweep_calls *calls)
{
    static const sweep_mpi_ops ops = {.init = mpi_init,
                                      .finalize = mpi_finalize,
                                      .master = mpi_master,
                                      .worker = mpi_worker,
                                      .bcast_setup = mpi_bcast_setup,
                                      .all_ok = mpi_all_ok};
    if (abi != SWEEP_MPI_ABI || !calls) return NULL;
    C = calls;
    return &ops;
}
