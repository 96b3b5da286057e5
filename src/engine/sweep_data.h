/* sweep_data.h - the data of a sweep directory (issue 13), without solving
 * anything: the grid and its sweep.conf text, cell rows of the journals and
 * cells.csv, reading a directory's journals back, percentiles; and one
 * cell's solve (sweep_cell.c), the same for the sweep and the viewer. Used by
 * `dillsue sweep` (src/cli) and the TUI's sweep viewer (src/tui); internal,
 * not part of the public API. Nothing here prints. */
#ifndef DS_SWEEP_DATA_H
#define DS_SWEEP_DATA_H

#include "dillsue.h"

#include <pthread.h>
#include <stdatomic.h>

#define SWEEP_MAX_LIST 64

/* What defines a sweep's results (sweep.conf). Threads, workers and ranks do
 * not: results are bitwise the same whatever they are. */
typedef struct sweep_grid {
    char net[1024], trips[1024]; /* trips "" = the sibling of net */
    int scenarios;
    unsigned long long seed;
    int use_mu; /* the list holds mu values, not tau */
    int n_disp;
    double disp[SWEEP_MAX_LIST]; /* tau (or mu) values */
    int n_filter, filter[DS_FILTER_N];
    int n_solver, solver[DS_SOLVER_N];
    double tol;
    int max_iter;
    double cap;
    int ue; /* compute a UE reference per scenario */
    double ue_gap;
    int ue_max_iter;
    int flows; /* the sweep writes every cell's flow file (--flows): --resume goes on writing them */
    /* FNV-1a 64 of the net file's and the trips file's bytes as "NET:TRIPS"
     * in hex ("" in a directory made before it existed): a file edited in
     * place would mix cells of two networks in one sweep (sweep_inputs_sum) */
    char inputs[40];
    /* every cell's solver beyond the lists: solve's options of the same
     * names (sweep.conf holds those that differ from the defaults) */
    int inner, inner_max, globalise, start, newton_warm, edsp_refresh;
    double factor_mb, edsp_damping;
} sweep_grid;

#define SWEEP_UE_GAP_DEFAULT 1e-9
#define SWEEP_UE_MAX_ITER_DEFAULT 100000

/* A grid of one cell with `dillsue solve`'s defaults (ds_config_default) and
 * the UE defaults above; no network, no scenarios. */
void sweep_grid_defaults(sweep_grid *g);

/* One cell's place in the grid; index = ((k * n_disp + d) * n_filter + f) * n_solver + s. */
typedef struct sweep_cell_id {
    int k, d, f, s;
} sweep_cell_id;

long sweep_grid_total(const sweep_grid *g);
sweep_cell_id sweep_grid_cell(const sweep_grid *g, long index);
/* sweep.conf text of the grid into buf; parse it back (0, or -1 with err),
 * every number by the rule of its setting (ds_setting_parse), as the
 * command line reads it. */
void sweep_grid_format(const sweep_grid *g, char *buf, size_t n);
int sweep_grid_parse(const char *text, const char *path, sweep_grid *g, ds_error *err);
/* g's inputs key from the files g names now (the trips file: g->trips, or
 * the net file's sibling): 0, or -1 where one is not a regular file or
 * cannot be read (out "") */
int sweep_inputs_sum(const sweep_grid *g, char *out, size_t n);

/* The outcome of one cell: a fixed-size record (MPI sends it as bytes). */
typedef struct sweep_result {
    long cell;  /* grid index */
    int status; /* ds_status */
    char reason[240];
    int iterations, evals, jv;
    double gap_rel, tau, mu;
    int lost_od;
    double lost_demand, total_flow, veh_time;
    double mape_ue; /* percent, NaN if none */
    double wall_s;  /* create + execute of the run */
    double t_end;   /* epoch seconds when it finished */
    int rank, worker;
} sweep_result;

/* ---- one cell (sweep_cell.c): engine calls only, no printing */

/* A network of scenario k: the base network cloned and perturbed, exactly as
 * `dillsue solve --scenario k --seed S` builds it. NULL with err on failure. */
ds_network *sweep_scenario_network(const ds_network *base, int k, unsigned long long seed, ds_error *err);
/* The `dillsue solve` command that computes cell id (its scenario, the grid's
 * network and every setting of sweep.conf that differs from solve's default;
 * paths quoted for a shell where needed), into buf (n bytes, cut there).
 * Returns the length it needed. */
size_t sweep_cell_command(const sweep_grid *g, sweep_cell_id id, char *buf, size_t n);
/* s as one shell word: as it is where it holds only characters no shell
 * treats specially, else in single quotes (a quote as '\''), into buf (n
 * bytes, cut there). Returns the length it needed. */
size_t sweep_shell_word(const char *s, char *buf, size_t n);
/* The run configuration of a cell, exactly as `dillsue solve` builds it from
 * --tau/--mu, --filter, --solver, --tol, --max-iter, --threads, --cap. */
void sweep_cell_config(const sweep_grid *g, sweep_cell_id id, int threads, ds_config *cfg);
/* Solve one cell on net (the scenario's network). Fills r (cell, rank and
 * worker are the caller's). flows/costs (n_links each, may be NULL) receive
 * the final flows and costs when the run produced usable ones; *have_flows
 * says whether it did. cancel_slot (may be NULL) holds the run while it runs
 * so that another thread can cancel it (under *lock); a stop flag set before
 * the run was in its slot (stop, may be NULL, read under *lock) cancels it at
 * once. cbar_memo (may be NULL; the caller's, for this network and g->cap
 * only): with --mu, the cbar that gives the cell's tau = mu * cbar is taken
 * from it when finite, else computed (all-origin shortest paths at free flow,
 * a second a cell on Austin-SDB) and left in it for the scenario's next cell:
 * the same value either way. */
void sweep_cell_solve(const ds_network *net, const sweep_grid *g, sweep_cell_id id, int threads,
                      ds_run *volatile *cancel_slot, pthread_mutex_t *lock, const atomic_int *stop, sweep_result *r,
                      double *flows, double *costs, int *have_flows, double *cbar_memo);
/* The UE reference of a network (flows n_links). Returns ds_ue_solve's code;
 * *gap and *iters are what it reached. */
int sweep_ue_solve(const ds_network *net, const sweep_grid *g, int threads, double *flows, double *gap, int *iters,
                   volatile int *cancel, ds_error *err);

/* Journal / cells.csv rows. */
extern const char sweep_cells_header[];
/* One row (with newline) of r into buf; returns its length. */
int sweep_result_format(const sweep_grid *g, const sweep_result *r, char *buf, size_t n);
/* Parse a row back (0), or -1 if it is not a complete row of this grid, or a
 * field is not a number by the rules below (the line is then skipped as a
 * line cut short by a kill is: its cell is redone). */
int sweep_result_parse(const sweep_grid *g, const char *line, sweep_result *r);
/* The numbers of a sweep directory's files (journal and cells.csv rows, the
 * UE reference's kNNNN.txt, the progress file), one rule wherever they are
 * read: a finite decimal number (ds_parse_double: inf, nan and hexadecimal
 * are refused), an integer of decimal digits within [lo, hi] (the int or long
 * it is kept in). 0, or -1 (*v unchanged). */
int sweep_parse_double(const char *s, double *v);
int sweep_parse_int(const char *s, long lo, long hi, long *v);

/* Copy src into dst[n], cut to fit (reasons and messages). */
void sweep_copy_text(char *dst, size_t n, const char *src);
/* Seconds as 42s, 3m05s or 2h07m; "?" where negative or not finite. */
void sweep_fmt_duration(double s, char *buf, size_t n);
/* A whole regular file into a malloc'd NUL-terminated buffer; NULL with errno
 * where unreadable (EINVAL: not a regular file, EFBIG: over DS_INFILE_MAX_BYTES). */
char *sweep_read_file(const char *path, size_t *len);
/* journal.csv, journal-K-of-M.csv */
int sweep_is_journal(const char *name);
/* Read every journal in dir: res[cell] and done[cell] (arrays of the grid's
 * total) for each complete row; rows cut short or of another grid are
 * counted in *bad_lines (may be NULL). Returns the cells done, -1 if dir
 * cannot be read. */
long sweep_load_journals(const char *dir, const sweep_grid *g, sweep_result *res, unsigned char *done, long *bad_lines);

/* Statistics: p-th percentile (0..100) of v[0..n) by linear interpolation
 * between order statistics (sorts v in place); NaN if n == 0. */
double sweep_percentile(double *v, int n, double p);

#endif
