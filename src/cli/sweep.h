/* sweep.h - scenario sweeps (`dillsue sweep`, issue 13): the grid, one cell's
 * solve, the sweep directory (journal, cells.csv, summary) and the dealer that
 * hands cells to local worker threads or, in src/mpi/sweep_mpi.c, to Open MPI
 * ranks. Internal to the command line and the TUI's sweep viewer; the engine
 * knows nothing of sweeps.
 *
 * A sweep directory DIR holds
 *   sweep.conf             the grid (key=value), written first; --resume and
 *                          --merge read it back
 *   journal*.csv           one line per finished cell, appended as it finishes
 *                          (journal.csv, or journal-K-of-M.csv for a shard);
 *                          the durable record that --resume and --merge read
 *   cells.csv              all finished cells in grid order (written at the end)
 *   summary.csv            per tau x filter x solver statistics (at the end)
 *   progress               done/total, rate, ranks alive (rewritten ~1 s)
 *   flows/kNNNN_tauT_F_S.csv  each cell's flows with --flows
 *   ue/kNNNN.csv, .txt     the UE reference of scenario NNNN with --ue
 * Every file but the journals is written to a temporary file and renamed.
 * The grid and the rows are in src/engine/sweep_data.h. */
#ifndef DS_SWEEP_H
#define DS_SWEEP_H

#include "dillsue.h"
#include "sweep_data.h"

#include <pthread.h>
#include <stdint.h>

/* ---------------------------------------------------------------- a sweep */

typedef struct sweep_job {
    int type;   /* SWEEP_JOB_CELL or SWEEP_JOB_UE */
    long index; /* grid index, or the scenario of a UE job */
} sweep_job;
enum { SWEEP_JOB_NONE = 0, SWEEP_JOB_CELL, SWEEP_JOB_UE };

typedef struct sweep sweep;

/* The dealer and the recorder, shared by local workers and MPI rank 0.
 * Both lock the sweep. take returns 0 and a job, or -1 when there is none
 * left or the sweep is stopping. */
int sweep_take(sweep *sw, sweep_job *job);
/* Record a finished cell (flows/costs NULL if the run produced none) or a UE
 * reference (flows = UE flows, r->iterations/gap_rel/status describe it).
 * Writes the flow files and the journal line. Returns 0, or -1 after an I/O
 * error (printed; the sweep then stops). */
int sweep_record(sweep *sw, const sweep_job *job, const sweep_result *r, const double *flows, const double *costs);
/* Give a job back (cancelled in flight: it stays undone). */
void sweep_release(sweep *sw, const sweep_job *job);
int sweep_stopping(const sweep *sw);
void sweep_request_stop(sweep *sw);
const sweep_grid *sweep_get_grid(const sweep *sw);
const ds_network *sweep_base(const sweep *sw);
int sweep_threads(const sweep *sw);
/* Whether rank 0 needs a cell's flows (--flows, or --ue for the MAPE). */
int sweep_wants_flows(const sweep *sw);
/* Ranks (MPI) or workers alive, for the progress file. */
void sweep_set_alive(sweep *sw, int alive, int total);
/* The local computing loop: take, solve, record until none is left. Used by
 * each local worker thread and by MPI rank 0's computing thread. */
void sweep_work(sweep *sw, int rank, int worker);
/* Solve a job into r/flows/costs (flows, costs: n_links each) without
 * recording it: what an MPI worker rank does before sending the result. */
void sweep_compute(sweep *sw, const sweep_job *job, int rank, int worker, ds_network **cache, int *cache_k,
                   sweep_result *r, double *flows, double *costs, int *have_flows);
/* Computing threads leave SIGINT/SIGTERM to the thread that watches for them. */
void sweep_block_signals(void);
/* Called while waiting, by the dealer: rewrites the progress file and the
 * stderr progress line when due. */
void sweep_tick(sweep *sw);

/* ------------------------------------------------------------ MPI ranks */

/* The MPI part (src/mpi/sweep_mpi.c) is a module, libdillsue_mpi.so, built
 * where mpicc exists and opened only by a sweep that mpirun started
 * (sweep_mpi_load.c): no other process loads Open MPI. It calls the sweep
 * through this table, and the sweep calls it through sweep_mpi_ops. */
typedef struct sweep_calls {
    int (*take)(sweep *sw, sweep_job *job);
    int (*record)(sweep *sw, const sweep_job *job, const sweep_result *r, const double *flows, const double *costs);
    void (*release)(sweep *sw, const sweep_job *job);
    void (*request_stop)(sweep *sw);
    const ds_network *(*base)(const sweep *sw);
    int (*wants_flows)(const sweep *sw);
    void (*set_alive)(sweep *sw, int alive, int total);
    void (*work)(sweep *sw, int rank, int worker);
    void (*compute)(sweep *sw, const sweep_job *job, int rank, int worker, ds_network **cache, int *cache_k,
                    sweep_result *r, double *flows, double *costs, int *have_flows);
    void (*block_signals)(void);
    void (*tick)(sweep *sw);
    void (*network_free)(ds_network *net);
} sweep_calls;

typedef struct sweep_mpi_ops {
    int (*init)(int *rank, int *size);
    void (*finalize)(void);
    /* Rank 0: deal jobs to ranks 1..size-1 while a thread of this rank
     * computes too; returns when every job is done or the sweep stopped.
     * Other ranks: ask for jobs, compute, send results back. */
    void (*master)(sweep *sw, int size);
    void (*worker)(sweep *sw, int rank);
    /* Rank 0 sends the others the grid (sweep.conf text, NUL-terminated, at
     * most n bytes) and whether to go on (its ok): every rank then runs the
     * same grid. Returns rank 0's ok. */
    int (*bcast_setup)(char *text, int n, int ok);
    /* 1 if ok is nonzero on every rank. */
    int (*all_ok)(int ok);
} sweep_mpi_ops;

/* Records travel between ranks as bytes, so the module must be of this
 * build: its entry checks the layouts it was compiled with. */
#define SWEEP_MPI_ABI (2 * 1000000 + (int)(sizeof(sweep_result) * 64 + sizeof(sweep_job)))
#define SWEEP_MPI_SYMBOL "dillsue_sweep_mpi"
#define SWEEP_MPI_LIB "libdillsue_mpi.so"
typedef const sweep_mpi_ops *(*sweep_mpi_entry)(int abi, const sweep_calls *calls);

/* Whether this process was started by mpirun (the environment says so). */
int sweep_mpi_launched(void);
/* The module's table ($DILLSUE_MPI_LIB, else next to the program), or NULL
 * with why. */
const sweep_mpi_ops *sweep_mpi_load(char *why, size_t n);

#endif
