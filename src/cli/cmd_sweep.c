/* cmd_sweep.c - `dillsue sweep`: a grid of scenario x tau (or mu) x filter x
 * solver cells, each exactly what `dillsue solve` computes for it, run by
 * local worker threads or dealt to Open MPI ranks (src/mpi/sweep_mpi.c),
 * recorded in a journal as each cell finishes so that a killed sweep loses
 * only the cells in flight, and summarised as the paper's tables.
 *
 * Sections: options (read through the program's one option table,
 * src/cli/opts.c), the sweep directory, the dealer/recorder, workers and progress,
 * the summary, the command. */
#include "cli.h"
#include "ds_csv.h"
#include "ds_metrics.h"
#include "sweep.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CMD "sweep"
#define MAX_WORKERS 256

/* ================================================================ options */

typedef struct sweep_opts {
    sweep_grid g;
    char net_given[1024], trips_given[1024]; /* --net and --trips as typed (g holds them absolute) */
    int have_net;
    const char *out;
    int threads, workers, flows, resume, merge, quiet;
    int shard_k, shard_m; /* 1-based K of M; 0 0 = no shard */
} sweep_opts;

_Static_assert(CLI_MAX_LIST <= SWEEP_MAX_LIST, "a --tau list must fit the grid");

/* --help: the options from the table (src/cli/opts.c), in these sections. */
static const cli_help_section help_sections[] = {
    {"Grid:",
     {OPT_NET, OPT_TRIPS, OPT_SCENARIOS, OPT_SEED, OPT_TAU, OPT_MU, OPT_FILTER, OPT_SOLVER, OPT_TOL, OPT_MAX_ITER,
      OPT_CAP, OPT_UE, OPT_UE_GAP, OPT_UE_MAX_ITER, -1}},
    {"Every cell's solver (as dillsue solve's options of the same names):",
     {OPT_INNER, OPT_INNER_MAX, OPT_FACTOR_MEMORY, OPT_GLOBALISE, OPT_NEWTON_WARM, OPT_START, OPT_EDSP_REFRESH,
      OPT_EDSP_DAMPING, -1}},
    {"Running:", {OPT_THREADS, OPT_WORKERS, OPT_SHARD, OPT_RESUME, OPT_MERGE, -1}},
    {"Output (all in DIR):", {OPT_OUT_DIR, OPT_SWEEP_FLOWS, OPT_QUIET, OPT_HELP, -1}},
    {NULL, {-1}},
};

/* What sweep's --help adds to an option's meaning: its default here. */
static const char *help_note(int id, char *buf, size_t n)
{
    ds_config d;
    ds_config_default(&d);
    switch (id) {
    case OPT_NET: return "(required, unless --resume or --merge reads the grid from DIR/sweep.conf)";
    case OPT_TAU: snprintf(buf, n, "(e.g. 1,3,10,30,100; default %g)", d.tau); break;
    case OPT_FILTER: snprintf(buf, n, "(e.g. full,dsp; default %s)", ds_filter_name(d.filter)); break;
    case OPT_SOLVER: snprintf(buf, n, "(e.g. newton,anderson,sra; default %s)", ds_solver_name(d.solver)); break;
    case OPT_TOL: snprintf(buf, n, "in every cell (default %g)", d.tol); break;
    case OPT_MAX_ITER: snprintf(buf, n, "per cell (default %d)", d.max_iter); break;
    case OPT_UE_GAP: snprintf(buf, n, "(default %g)", SWEEP_UE_GAP_DEFAULT); break;
    case OPT_UE_MAX_ITER: snprintf(buf, n, "(default %d)", SWEEP_UE_MAX_ITER_DEFAULT); break;
    case OPT_THREADS: return "(in each cell; default 1; results do not depend on it)";
    case OPT_WORKERS: return "(default 0)";
    case OPT_QUIET: return "(the summary table still goes to stdout)";
    default: return cli_config_default(id, buf, n);
    }
    return buf;
}

/* Returns 0, or 2 when the table and the sections above disagree (a test
 * runs --help, so an option left out of it cannot go unnoticed). */
static int print_help(void)
{
    printf("Usage: dillsue sweep --net NET [--trips TRIPS] --scenarios N --seed S\n"
           "                     [--tau LIST | --mu LIST] [--filter LIST] [--solver LIST]\n"
           "                     [--tol X] [--max-iter N] [--threads T] [--workers W]\n"
           "                     --out DIR [--flows] [--ue] [--resume] [--shard K/M]\n"
           "       dillsue sweep --merge --out DIR\n"
           "       mpirun -np R dillsue sweep ...   (when built with Open MPI)\n"
           "Solve a grid of cells: scenario k = 0..N-1 (0 = the network unchanged) x tau\n"
           "(or mu) x filter x solver. Each cell is exactly what\n"
           "  dillsue solve --scenario k --seed S --tau T --filter F --solver V ...\n"
           "computes: the same flows, bit for bit, whatever runs it. Every value is\n"
           "checked by the rule `dillsue solve` applies to it; a list item by item.\n"
           "\n");
    int rc = cli_help_options(CMD, help_sections, help_note, stdout);
    printf("\n"
           "Progress (cells done/total, rate, ETA) goes to stderr, the summary table to\n"
           "stdout. Ctrl-C stops after cancelling the cells in flight (while the network is\n"
           "read, at once, saying so); --resume finishes.\n"
           "Exit codes: 0 every cell done (whatever each cell's status), 1 cells missing\n"
           "(--merge of an incomplete sweep), 2 usage, input or output error, 4 stopped.\n"
           "The TUI's sweep viewer watches DIR fill, from any machine that sees it (O in\n"
           "dillsue tui); r on a cell there opens it as a run. See docs/sweep.md.\n"
           "This build: %s.\n",
#ifdef DS_HAVE_MPI
           "with MPI (mpirun -np R deals cells to R ranks)"
#else
           "without MPI (mpicc was not found at build time; cells run on this machine only)"
#endif
    );
    return rc ? 2 : 0;
}

/* path made absolute against the working directory: sweep.conf names the
 * network so that --resume, the TUI's replay and r on a cell find it from any
 * directory (a relative path was found only from the one the sweep started
 * in). Lexical: no symlink is resolved, "." and ".." stay. Left as typed where
 * the result would not fit. */
/* 0, or -1 where the absolute path does not fit in out (it was cut, or kept
 * relative, without a word, and --resume from elsewhere named another file) */
static int absolute_path(const char *path, char *out, size_t n)
{
    char cwd[PATH_MAX];
    size_t lc, lp = strlen(path);
    if (path[0] && path[0] != '/') {
        if (!getcwd(cwd, sizeof cwd) || (lc = strlen(cwd)) + 1 + lp >= n) return -1;
        memcpy(out, cwd, lc);
        out[lc] = '/';
        memcpy(out + lc + 1, path, lp + 1);
        return 0;
    }
    if (lp >= n) return -1;
    memcpy(out, path, lp + 1);
    return 0;
}

/* The grid from what the command line gave (checked by the table's rules),
 * `dillsue solve`'s defaults for the rest. */
static int grid_from_values(const cli_values *v, sweep_grid *g)
{
    sweep_grid_defaults(g);
    if (v->have[OPT_NET] && absolute_path(v->str[OPT_NET], g->net, sizeof g->net) != 0)
        return cli_usage(CMD, "--net: its absolute path is longer than the %zu bytes a sweep holds", sizeof g->net - 1);
    if (v->have[OPT_TRIPS] && absolute_path(v->str[OPT_TRIPS], g->trips, sizeof g->trips) != 0)
        return cli_usage(CMD, "--trips: its absolute path is longer than the %zu bytes a sweep holds",
                         sizeof g->trips - 1);
    g->scenarios = (int)v->num[OPT_SCENARIOS];
    g->seed = v->seed;
    int disp = v->have[OPT_MU] ? OPT_MU : OPT_TAU;
    g->use_mu = disp == OPT_MU;
    if (v->have[disp]) g->n_disp = v->n_list[disp];
    for (int i = 0; v->have[disp] && i < g->n_disp; i++) g->disp[i] = v->list[disp][i];
    if (v->have[OPT_FILTER]) g->n_filter = v->n_list[OPT_FILTER];
    for (int i = 0; v->have[OPT_FILTER] && i < g->n_filter; i++) g->filter[i] = (int)v->list[OPT_FILTER][i];
    if (v->have[OPT_SOLVER]) g->n_solver = v->n_list[OPT_SOLVER];
    for (int i = 0; v->have[OPT_SOLVER] && i < g->n_solver; i++) g->solver[i] = (int)v->list[OPT_SOLVER][i];
    g->ue = v->have[OPT_UE];
#define SET(field, id)                                                                                                 \
    if (v->have[id]) g->field = v->num[id]
    SET(tol, OPT_TOL);
    SET(max_iter, OPT_MAX_ITER);
    SET(cap, OPT_CAP);
    SET(ue_gap, OPT_UE_GAP);
    SET(ue_max_iter, OPT_UE_MAX_ITER);
    SET(inner, OPT_INNER);
    SET(inner_max, OPT_INNER_MAX);
    SET(factor_mb, OPT_FACTOR_MEMORY);
    SET(globalise, OPT_GLOBALISE);
    SET(newton_warm, OPT_NEWTON_WARM);
    SET(start, OPT_START);
    SET(edsp_refresh, OPT_EDSP_REFRESH);
    SET(edsp_damping, OPT_EDSP_DAMPING);
#undef SET
    return 0;
}

/* What goes together and what is required. */
static int check_opts(const cli_values *v, const sweep_opts *o)
{
    /* what sweep.conf holds (net and trips aside) */
    static const int grid_opts[] = {OPT_SCENARIOS, OPT_SEED,        OPT_TAU,      OPT_MU,           OPT_FILTER,
                                    OPT_SOLVER,    OPT_TOL,         OPT_MAX_ITER, OPT_CAP,          OPT_UE,
                                    OPT_UE_GAP,    OPT_UE_MAX_ITER, OPT_INNER,    OPT_INNER_MAX,    OPT_FACTOR_MEMORY,
                                    OPT_GLOBALISE, OPT_NEWTON_WARM, OPT_START,    OPT_EDSP_REFRESH, OPT_EDSP_DAMPING};
    if (v->have[OPT_TAU] && v->have[OPT_MU]) return cli_usage(CMD, "give --tau or --mu, not both");
    if (!o->out || !*o->out) return cli_usage(CMD, "--out DIR is required");
    for (int id = 0; o->merge && id < OPT_N; id++)
        if (v->have[id] && id != OPT_MERGE && id != OPT_OUT_DIR && id != OPT_QUIET)
            return cli_usage(CMD, "--merge solves nothing and reads the grid from DIR/sweep.conf: no --%s",
                             cli_opts[id].name);
    for (size_t i = 0; o->resume && !o->have_net && i < sizeof grid_opts / sizeof *grid_opts; i++)
        if (v->have[grid_opts[i]])
            return cli_usage(CMD,
                             "--%s is part of the grid, which --resume without --net reads from DIR/sweep.conf: "
                             "leave it out, or give the whole grid (--net ...) to check it against DIR",
                             cli_opts[grid_opts[i]].name);
    if ((v->have[OPT_UE_GAP] || v->have[OPT_UE_MAX_ITER]) && !o->g.ue)
        return cli_usage(CMD, "--ue-gap and --ue-max-iter need --ue");
    if (v->have[OPT_TRIPS] && !o->have_net) return cli_usage(CMD, "--trips needs --net");
    if (!o->have_net && !o->resume && !o->merge) return cli_usage(CMD, "--net NET is required");
    if (o->have_net && (!v->have[OPT_SCENARIOS] || !v->have[OPT_SEED]))
        return cli_usage(CMD, "--scenarios N and --seed S are required");
    return 0;
}

/* The command line through the program's one option table and parser
 * (src/cli/opts.c): `--opt value` and `--opt=value`, no abbreviations, every
 * value by the rule solve applies to it. Returns 0, -1 after --help, or the
 * exit code of a usage error (printed). */
static int parse_args(int argc, char **argv, sweep_opts *o)
{
    cli_values v;
    int rc = cli_parse(CMD, argc, argv, &v, NULL);
    if (rc == 1) return print_help() ? 2 : -1;
    if (rc) return rc;
    memset(o, 0, sizeof *o);
    if ((rc = grid_from_values(&v, &o->g)) != 0) return rc;
    if (v.have[OPT_NET]) snprintf(o->net_given, sizeof o->net_given, "%s", v.str[OPT_NET]);
    if (v.have[OPT_TRIPS]) snprintf(o->trips_given, sizeof o->trips_given, "%s", v.str[OPT_TRIPS]);
    o->have_net = v.have[OPT_NET];
    o->out = v.str[OPT_OUT_DIR];
    o->threads = v.have[OPT_THREADS] ? (int)v.num[OPT_THREADS] : 1;
    o->workers = (int)v.num[OPT_WORKERS];
    o->shard_k = v.shard_k, o->shard_m = v.shard_m;
    o->resume = v.have[OPT_RESUME];
    o->merge = v.have[OPT_MERGE];
    o->flows = v.have[OPT_SWEEP_FLOWS];
    o->g.flows = o->flows;
    o->quiet = v.have[OPT_QUIET];
    return check_opts(&v, o);
}

/* ================================================================ files */

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Write text to path through a temporary file and a rename (replace), or a
 * link that fails with EEXIST where path exists (!replace: two sweeps started
 * at once on one DIR each wrote sweep.conf, each took the other's for its
 * own, and both ran every cell into one journal). 0 or -1 (errno). */
static int write_file(const char *path, const char *text, size_t len, int replace)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return -1;
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            break;
        }
        off += (size_t)w;
    }
    int e = 0;
    if (off < len || fsync(fd) != 0) e = errno ? errno : EIO;
    if (close(fd) != 0 && !e) e = errno;
    if (!e && replace && rename(tmp, path) != 0) e = errno;
    if (!e && !replace) {
        if (link(tmp, path) == 0)
            unlink(tmp);
        else if (errno == EPERM || errno == ENOTSUP || errno == ENOSYS) /* no hard links here: a rename */
            e = rename(tmp, path) != 0 ? errno : 0;
        else
            e = errno;
    }
    if (e) {
        unlink(tmp);
        errno = e;
        return -1;
    }
    return 0;
}

static int write_atomic(const char *path, const char *text, size_t len) { return write_file(path, text, len, 1); }

static int make_dir(const char *path)
{
    if (mkdir(path, 0755) == 0 || errno == EEXIST) return 0;
    return -1;
}

static void flows_name(const sweep_grid *g, long cell, char *buf, size_t n)
{
    sweep_cell_id id = sweep_grid_cell(g, cell);
    snprintf(buf, n, "k%04d_%s%.10g_%s_%s.csv", id.k, g->use_mu ? "mu" : "tau", g->disp[id.d],
             ds_filter_name((ds_filter)g->filter[id.f]), ds_solver_name((ds_solver_kind)g->solver[id.s]));
}

/* DIR as a shell word, for the commands the messages suggest (a DIR with a
 * space gave a command that named two words). Main thread only: one buffer. */
static const char *dir_word(const char *dir)
{
    static char buf[4 * PATH_MAX + 8];
    sweep_shell_word(dir, buf, sizeof buf);
    return buf;
}

/* ================================================================ the sweep */

typedef struct pending {
    sweep_result r;
    double *flows;
    struct pending *next;
} pending;

struct sweep {
    sweep_grid g;
    char dir[PATH_MAX];
    int threads, write_flows, quiet, progress_tty;
    ds_network *base;
    long total;
    sweep_result *res;
    unsigned char *done;
    long n_done_total;
    sweep_job *jobs;
    long n_jobs, next_job, n_cells_todo, n_cells_now, n_failed_now;
    double **ue_flows; /* per scenario, NULL until known */
    double *cbar;      /* per scenario with --mu: its cbar (tau = mu cbar in cells.csv), NaN until known */
    unsigned char *ue_tried;
    pending *waiting;        /* cells whose scenario's UE is not yet known */
    int journal_fd, conf_fd; /* conf_fd: DIR/sweep.conf, held for its lock */
    char journal_path[PATH_MAX + 64];
    pthread_mutex_t lock;
    atomic_int stop;
    int io_error;
    volatile int ue_cancel;
    ds_run *volatile running[MAX_WORKERS];
    double t_start, last_tick, last_line;
    int alive, alive_total;
    const char *mode;
};

const sweep_grid *sweep_get_grid(const sweep *sw) { return &sw->g; }
const ds_network *sweep_base(const sweep *sw) { return sw->base; }
int sweep_threads(const sweep *sw) { return sw->threads; }
int sweep_wants_flows(const sweep *sw) { return sw->write_flows || sw->g.ue; }
int sweep_stopping(const sweep *sw) { return atomic_load(&((sweep *)sw)->stop); }

void sweep_set_alive(sweep *sw, int alive, int total)
{
    pthread_mutex_lock(&sw->lock);
    sw->alive = alive;
    sw->alive_total = total;
    pthread_mutex_unlock(&sw->lock);
}

void sweep_request_stop(sweep *sw)
{
    atomic_store(&sw->stop, 1);
    sw->ue_cancel = 1;
    pthread_mutex_lock(&sw->lock);
    for (int i = 0; i < MAX_WORKERS; i++)
        if (sw->running[i]) ds_run_cancel(sw->running[i]);
    pthread_mutex_unlock(&sw->lock);
}

int sweep_take(sweep *sw, sweep_job *job)
{
    int rc = -1;
    pthread_mutex_lock(&sw->lock);
    if (!atomic_load(&sw->stop) && sw->next_job < sw->n_jobs) {
        *job = sw->jobs[sw->next_job++];
        rc = 0;
    }
    pthread_mutex_unlock(&sw->lock);
    return rc;
}

void sweep_release(sweep *sw, const sweep_job *job)
{
    (void)sw;
    (void)job; /* an unfinished job simply stays undone: --resume picks it up */
}

/* Append one journal line (under the lock). r becomes the row as the journal
 * holds it (wall_s and t_end to the microsecond): the live run's summary.csv
 * then has the time percentiles that --merge of DIR computes (it had them
 * from the unrounded seconds: 0.0087037 live, 0.008704 after a merge). */
static int journal_append(sweep *sw, sweep_result *r)
{
    char line[2048];
    int len = sweep_result_format(&sw->g, r, line, sizeof line);
    sweep_result back;
    if (sweep_result_parse(&sw->g, line, &back) == 0) *r = back;
    if (sw->journal_fd < 0) return 0; /* MPI worker ranks keep no journal */
    /* one write() of the whole line: a kill leaves it whole or missing */
    ssize_t w = write(sw->journal_fd, line, (size_t)len);
    if (w != len) {
        fprintf(stderr, "dillsue sweep: %s: cannot append: %s\n", sw->journal_path,
                w < 0 ? strerror(errno) : "short write");
        return -1;
    }
    return 0;
}

static void cell_mape(sweep *sw, sweep_result *r, const double *flows)
{
    sweep_cell_id id = sweep_grid_cell(&sw->g, r->cell);
    const double *ue = sw->ue_flows[id.k];
    ds_metrics m;
    r->mape_ue = NAN;
    if (ue && flows && ds_metrics_compare(flows, ue, sw->base->n_links, NULL, 1.0, &m) == 0) r->mape_ue = m.mape;
}

static int finish_cell(sweep *sw, sweep_result *r)
{
    if (journal_append(sw, r) != 0) return -1;
    sw->res[r->cell] = *r;
    if (!sw->done[r->cell]) sw->n_done_total++;
    sw->done[r->cell] = 1;
    sw->n_cells_now++;
    if (r->status != DS_STATUS_CONVERGED) sw->n_failed_now++;
    return 0;
}

static int record_ue(sweep *sw, const sweep_result *r, const double *flows, const double *costs)
{
    int k = (int)r->cell;
    char path[PATH_MAX + 64], text[512];
    ds_error err = {{0}, 0, {0}};
    sw->ue_tried[k] = 1;
    if (flows && (r->status == DS_STATUS_CONVERGED || r->status == DS_STATUS_MAX_ITER)) {
        snprintf(path, sizeof path, "%s/ue/k%04d.csv", sw->dir, k);
        if (ds_flows_write(path, sw->base, flows, costs, &err) != 0) {
            cli_input_error(&err);
            return -1;
        }
        sw->ue_flows[k] = malloc(sizeof(double) * (size_t)sw->base->n_links);
        if (!sw->ue_flows[k]) return -1;
        memcpy(sw->ue_flows[k], flows, sizeof(double) * (size_t)sw->base->n_links);
    }
    int len =
        snprintf(text, sizeof text, "scenario=%d\nstatus=%s\nrel_gap=%.17g\niterations=%d\nseconds=%.3f\nreason=%s\n",
                 k, ds_status_name((ds_status)r->status), r->gap_rel, r->iterations, r->wall_s, r->reason);
    snprintf(path, sizeof path, "%s/ue/k%04d.txt", sw->dir, k);
    if (write_atomic(path, text, (size_t)len) != 0) {
        fprintf(stderr, "dillsue sweep: %s: %s\n", path, strerror(errno));
        return -1;
    }
    /* the cells that were waiting for this reference */
    pending **pp = &sw->waiting;
    while (*pp) {
        pending *p = *pp;
        if (sweep_grid_cell(&sw->g, p->r.cell).k == k) {
            cell_mape(sw, &p->r, p->flows);
            int rc = finish_cell(sw, &p->r);
            *pp = p->next;
            free(p->flows);
            free(p);
            if (rc) return -1;
        } else {
            pp = &p->next;
        }
    }
    return 0;
}

int sweep_record(sweep *sw, const sweep_job *job, const sweep_result *res, const double *flows, const double *costs)
{
    sweep_result r = *res;
    int rc = 0;
    ds_error err = {{0}, 0, {0}};
    pthread_mutex_lock(&sw->lock);
    if (job->type == SWEEP_JOB_UE) {
        rc = record_ue(sw, &r, flows, costs);
    } else {
        if (flows && sw->write_flows) {
            char path[PATH_MAX + 200], name[160];
            flows_name(&sw->g, r.cell, name, sizeof name);
            snprintf(path, sizeof path, "%s/flows/%s", sw->dir, name);
            if (ds_flows_write(path, sw->base, flows, costs, &err) != 0) {
                cli_input_error(&err);
                rc = -1;
            }
        }
        sweep_cell_id id = sweep_grid_cell(&sw->g, r.cell);
        if (rc == 0 && sw->g.ue && flows && !sw->ue_flows[id.k] && !sw->ue_tried[id.k]) {
            /* the reference is still being solved: keep the flows until it is */
            pending *p = calloc(1, sizeof *p);
            if (p) p->flows = malloc(sizeof(double) * (size_t)sw->base->n_links);
            if (!p || !p->flows) {
                free(p);
                rc = -1;
            } else {
                p->r = r;
                memcpy(p->flows, flows, sizeof(double) * (size_t)sw->base->n_links);
                p->next = sw->waiting;
                sw->waiting = p;
            }
        } else if (rc == 0) {
            if (sw->g.ue) cell_mape(sw, &r, flows);
            rc = finish_cell(sw, &r);
        }
    }
    if (rc) sw->io_error = 1;
    pthread_mutex_unlock(&sw->lock);
    if (rc) atomic_store(&sw->stop, 1);
    return rc;
}

/* ================================================================ workers */

void sweep_compute(sweep *sw, const sweep_job *job, int rank, int worker, ds_network **cache, int *cache_k,
                   sweep_result *r, double *flows, double *costs, int *have_flows)
{
    ds_error err = {{0}, 0, {0}};
    int k = job->type == SWEEP_JOB_UE ? (int)job->index : sweep_grid_cell(&sw->g, job->index).k;
    memset(r, 0, sizeof *r);
    r->cell = job->index;
    r->rank = rank;
    r->worker = worker;
    r->mape_ue = NAN;
    *have_flows = 0;
    if (!*cache || *cache_k != k) {
        ds_network_free(*cache);
        *cache = sweep_scenario_network(sw->base, k, sw->g.seed, &err);
        *cache_k = k;
    }
    if (!*cache) {
        char buf[1200];
        ds_error_format(&err, buf, sizeof buf);
        sweep_copy_text(r->reason, sizeof r->reason, buf);
        r->status = DS_STATUS_ERROR;
        r->gap_rel = r->tau = r->mu = r->lost_demand = r->total_flow = r->veh_time = NAN;
        if (job->type != SWEEP_JOB_UE) { /* the grid's value, as sweep_cell_solve keeps it */
            double v = sw->g.disp[sweep_grid_cell(&sw->g, job->index).d];
            *(sw->g.use_mu ? &r->mu : &r->tau) = v;
        }
        return;
    }
    if (job->type == SWEEP_JOB_UE) {
        double t0 = mono_s(), gap = NAN;
        int iters = 0;
        int rc = sweep_ue_solve(*cache, &sw->g, sw->threads, flows, &gap, &iters, &sw->ue_cancel, &err);
        r->wall_s = mono_s() - t0;
        r->gap_rel = gap;
        r->iterations = iters;
        /* ds_ue_solve reports a ds_status, as the run API does */
        r->status = rc == DS_STATUS_CONVERGED || rc == DS_STATUS_MAX_ITER || rc == DS_STATUS_CANCELLED
                        ? (ds_status)rc
                        : DS_STATUS_ERROR;
        if (r->status == DS_STATUS_ERROR) {
            char buf[1200];
            ds_error_format(&err, buf, sizeof buf);
            sweep_copy_text(r->reason, sizeof r->reason, buf);
        } else {
            ds_cost_params cp = {sw->g.cap, (*cache)->toll_factor, (*cache)->distance_factor};
            ds_costs_eval(*cache, &cp, flows, costs);
            *have_flows = 1;
        }
        return;
    }
    int slot = worker < MAX_WORKERS ? worker : MAX_WORKERS - 1;
    /* a scenario's cbar is the same for all its cells: computed by its first
     * (two workers that start the scenario together may both compute it) */
    double cbar = NAN;
    if (sw->cbar) {
        pthread_mutex_lock(&sw->lock);
        cbar = sw->cbar[k];
        pthread_mutex_unlock(&sw->lock);
    }
    sweep_cell_solve(*cache, &sw->g, sweep_grid_cell(&sw->g, job->index), sw->threads, &sw->running[slot], &sw->lock,
                     &sw->stop, r, flows, costs, have_flows, sw->cbar ? &cbar : NULL);
    if (sw->cbar && isfinite(cbar)) {
        pthread_mutex_lock(&sw->lock);
        sw->cbar[k] = cbar;
        pthread_mutex_unlock(&sw->lock);
    }
    /* a stop that came between taking the job and starting the run */
    if (atomic_load(&sw->stop) && r->status != DS_STATUS_CONVERGED) r->status = DS_STATUS_CANCELLED;
}

void sweep_work(sweep *sw, int rank, int worker)
{
    int n = sw->base->n_links;
    double *flows = malloc(sizeof(double) * (size_t)(n ? n : 1));
    double *costs = malloc(sizeof(double) * (size_t)(n ? n : 1));
    ds_network *cache = NULL;
    int cache_k = -1;
    sweep_job job;
    if (!flows || !costs) {
        fprintf(stderr, "dillsue sweep: out of memory\n");
        sweep_request_stop(sw);
    }
    while (flows && costs && sweep_take(sw, &job) == 0) {
        sweep_result r;
        int have = 0;
        sweep_compute(sw, &job, rank, worker, &cache, &cache_k, &r, flows, costs, &have);
        if (r.status == DS_STATUS_CANCELLED)
            sweep_release(sw, &job);
        else
            sweep_record(sw, &job, &r, have ? flows : NULL, have ? costs : NULL);
    }
    ds_network_free(cache);
    free(flows);
    free(costs);
}

/* ================================================================ progress */

static void write_progress(sweep *sw, const char *state)
{
    char text[1024], path[PATH_MAX + 32];
    double el = mono_s() - sw->t_start;
    pthread_mutex_lock(&sw->lock);
    long now = sw->n_cells_now, todo = sw->n_cells_todo, done = sw->n_done_total, failed = sw->n_failed_now;
    int alive = sw->alive, alive_total = sw->alive_total;
    pthread_mutex_unlock(&sw->lock);
    double rate = el > 0 ? now / el : 0;
    int len =
        snprintf(text, sizeof text,
                 "state=%s\nmode=%s\npid=%ld\ndone=%ld\ntotal=%ld\nsession_done=%ld\nsession_todo=%ld\n"
                 "session_not_converged=%ld\nelapsed_s=%.3f\ncells_per_s=%.6g\nalive=%d\nworkers=%d\nupdated=%ld\n",
                 state, sw->mode, (long)getpid(), done, sw->total, now, todo, failed, el, rate, alive, alive_total,
                 (long)time(NULL));
    snprintf(path, sizeof path, "%s/progress", sw->dir);
    write_atomic(path, text, (size_t)len);
}

static void progress_line(sweep *sw, int final)
{
    double el = mono_s() - sw->t_start;
    pthread_mutex_lock(&sw->lock);
    long now = sw->n_cells_now, todo = sw->n_cells_todo, failed = sw->n_failed_now;
    int alive = sw->alive, total = sw->alive_total;
    pthread_mutex_unlock(&sw->lock);
    double rate = el > 0 ? now / el : 0;
    char eta[32], els[32];
    sweep_fmt_duration(rate > 0 ? (todo - now) / rate : NAN, eta, sizeof eta);
    sweep_fmt_duration(el, els, sizeof els);
    fprintf(stderr, "%ssweep: %ld/%ld cells (%.1f%%) | %.3g cells/s | %s %s | %d/%d %s | %ld not converged%s",
            sw->progress_tty ? "\r" : "", now, todo, todo ? 100.0 * now / todo : 100.0, rate, final ? "took" : "ETA",
            final ? els : eta, alive, total, sw->mode[0] == 'm' ? "ranks" : "workers", failed,
            sw->progress_tty && !final ? "   " : "\n");
    fflush(stderr);
}

void sweep_tick(sweep *sw)
{
    int sig = cli_stop_signal();
    if (sig && !sweep_stopping(sw)) {
        if (!sw->quiet && sw->progress_tty) fputc('\n', stderr);
        fprintf(stderr,
                "dillsue sweep: %s: stopping; the cells in flight are cancelled and --resume redoes them "
                "(again to quit now)\n",
                cli_stop_word(sig));
        sweep_request_stop(sw);
    }
    double now = mono_s();
    if (now - sw->last_tick < 1.0) return;
    sw->last_tick = now;
    write_progress(sw, sweep_stopping(sw) ? "stopping" : "running");
    if (!sw->quiet && (sw->progress_tty || now - sw->last_line >= 10)) {
        sw->last_line = now;
        progress_line(sw, 0);
    }
}

#ifdef DS_HAVE_MPI
/* Worker ranks have no dealer loop: a thread turns a signal into a stop. */
static void stop_sweep(int sig, void *ctx)
{
    (void)sig;
    if (!sweep_stopping(ctx)) sweep_request_stop(ctx);
}
#endif

void sweep_block_signals(void)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
}

typedef struct worker_arg {
    sweep *sw;
    int worker;
    atomic_int *finished;
} worker_arg;

static void *worker_main(void *arg)
{
    worker_arg *a = arg;
    sweep_block_signals();
    sweep_work(a->sw, 0, a->worker);
    atomic_fetch_add(a->finished, 1);
    return NULL;
}

static void run_local(sweep *sw, int workers)
{
    pthread_t th[MAX_WORKERS];
    worker_arg args[MAX_WORKERS];
    atomic_int finished;
    int started = 0;
    atomic_init(&finished, 0);
    for (int w = 0; w < workers; w++) {
        args[w] = (worker_arg){sw, w, &finished};
        if (pthread_create(&th[w], NULL, worker_main, &args[w]) == 0)
            started++;
        else
            break;
    }
    if (!started) {
        fprintf(stderr, "dillsue sweep: cannot start a worker thread\n");
        sweep_request_stop(sw);
        return;
    }
    const struct timespec nap = {0, 20 * 1000 * 1000};
    while (atomic_load(&finished) < started) {
        sweep_set_alive(sw, started - atomic_load(&finished), started);
        sweep_tick(sw);
        nanosleep(&nap, NULL);
    }
    sweep_set_alive(sw, 0, started);
    for (int w = 0; w < started; w++) pthread_join(th[w], NULL);
}

/* ================================================================ summary */

typedef struct group_stats {
    int n, conv, ill, failed;
    double it[3], ev[3], tm[3], mape;
} group_stats;

static void group_compute(const sweep_grid *g, const sweep_result *res, const unsigned char *done, int d, int f, int s,
                          group_stats *gs, double *buf)
{
    int nk = g->scenarios, nc = 0;
    memset(gs, 0, sizeof *gs);
    double *it = buf, *ev = buf + nk, *tm = buf + 2 * nk, *mp = buf + 3 * nk;
    int nm = 0;
    for (int k = 0; k < nk; k++) {
        long c = (((long)k * g->n_disp + d) * g->n_filter + f) * g->n_solver + s;
        if (!done[c]) continue;
        const sweep_result *r = &res[c];
        gs->n++;
        if (r->status == DS_STATUS_CONVERGED) {
            gs->conv++;
            it[nc] = r->iterations;
            ev[nc] = r->evals;
            tm[nc] = r->wall_s;
            nc++;
            if (!isnan(r->mape_ue)) mp[nm++] = r->mape_ue;
        } else if (r->status == DS_STATUS_ILL_POSED) {
            gs->ill++;
        } else {
            gs->failed++;
        }
    }
    const double ps[3] = {10, 50, 90};
    for (int i = 0; i < 3; i++) {
        gs->it[i] = sweep_percentile(it, nc, ps[i]);
        gs->ev[i] = sweep_percentile(ev, nc, ps[i]);
        gs->tm[i] = sweep_percentile(tm, nc, ps[i]);
    }
    gs->mape = sweep_percentile(mp, nm, 50);
}

/* Worst UE gap over the scenarios' references (from DIR/ue/kNNNN.txt). */
static int ue_gaps(const char *dir, const sweep_grid *g, double *worst, int *n_max_iter)
{
    int n = 0;
    *worst = 0;
    *n_max_iter = 0;
    for (int k = 0; k < g->scenarios; k++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/ue/k%04d.txt", dir, k);
        char *t = sweep_read_file(path, NULL);
        if (!t) continue;
        /* the line's value by the rule of every number of the directory: one
         * that is not a finite decimal number (inf, nan, hexadecimal, text
         * after it) is no gap, as a missing line is */
        char *p = strstr(t, "\nrel_gap=");
        double gap;
        if (p) {
            p += 9;
            p[strcspn(p, "\n")] = '\0';
        }
        if (p && sweep_parse_double(p, &gap) == 0) {
            if (gap > *worst) *worst = gap;
            n++;
        }
        if (strstr(t, "status=max-iterations")) (*n_max_iter)++;
        free(t);
    }
    return n;
}

static int write_outputs(const char *dir, const sweep_grid *g, const sweep_result *res, const unsigned char *done,
                         int print_table)
{
    long total = sweep_grid_total(g), n_done = 0;
    size_t cap = 4096 + (size_t)total * 400, len = 0;
    char *text = malloc(cap);
    double *buf = malloc(sizeof(double) * 4 * (size_t)g->scenarios);
    char path[PATH_MAX + 32];
    int rc = 0;
    if (!text || !buf) {
        free(text);
        free(buf);
        fprintf(stderr, "dillsue sweep: out of memory writing the outputs\n");
        return 2;
    }
    len += (size_t)snprintf(text, cap, "%s", sweep_cells_header);
    for (long c = 0; c < total; c++) {
        if (!done[c]) continue;
        n_done++;
        char line[2048];
        int l = sweep_result_format(g, &res[c], line, sizeof line);
        if (len + (size_t)l + 1 > cap) {
            char *nt = realloc(text, cap * 2);
            if (!nt) {
                rc = 2;
                break;
            }
            text = nt;
            cap *= 2;
        }
        memcpy(text + len, line, (size_t)l);
        len += (size_t)l;
    }
    snprintf(path, sizeof path, "%s/cells.csv", dir);
    if (!rc && write_atomic(path, text, len) != 0) {
        fprintf(stderr, "dillsue sweep: %s: %s\n", path, strerror(errno));
        rc = 2;
    }

    /* summary.csv and the table */
    len = (size_t)snprintf(text, cap,
                           "%s,filter,solver,cells,converged,ill_posed,failed,iter_p10,iter_median,iter_p90,"
                           "evals_p10,evals_median,evals_p90,time_p10_s,time_median_s,time_p90_s,mape_ue_median\n",
                           g->use_mu ? "mu" : "tau");
    /* tau (or mu) as summary.csv and the flow files name it (%.10g): the
     * table's %.4g showed 3.0001 and 3.00012 both as "3" and 123456.7 as
     * 1.235e+05, out of its column */
    int dw = 7;
    for (int d = 0; d < g->n_disp; d++) {
        char lab[32];
        int l = snprintf(lab, sizeof lab, "%.10g", g->disp[d]);
        if (l > dw) dw = l;
    }
    if (print_table) {
        printf("%-*s %-5s %-8s %5s %5s %4s %4s  %21s  %21s  %27s%s\n", dw, g->use_mu ? "mu" : "tau", "filter", "solver",
               "cells", "conv", "ill", "fail", "iterations p10/med/p90", "evaluations p10/med/p90",
               "time s p10/med/p90", g->ue ? "  MAPE% vs UE" : "");
    }
    for (int d = 0; d < g->n_disp; d++)
        for (int f = 0; f < g->n_filter; f++)
            for (int s = 0; s < g->n_solver; s++) {
                group_stats gs;
                char m[32];
                group_compute(g, res, done, d, f, s, &gs, buf);
                if (isnan(gs.mape))
                    m[0] = '\0';
                else
                    snprintf(m, sizeof m, "%.6g", gs.mape);
                if (len + 512 > cap) break;
                /* percentiles over no converged cell are not numbers: an
                 * empty field in the file, "-" in the table (never nan) */
                const double pct[9] = {gs.it[0], gs.it[1], gs.it[2], gs.ev[0], gs.ev[1],
                                       gs.ev[2], gs.tm[0], gs.tm[1], gs.tm[2]};
                char cf[9][32], tf[9][32];
                for (int i = 0; i < 9; i++) {
                    int w = i % 3 == 2 ? (i < 6 ? 7 : 9) : (i < 6 ? 6 : 8);
                    if (isnan(pct[i])) {
                        cf[i][0] = '\0';
                        snprintf(tf[i], sizeof tf[i], "%*s", w, "-");
                    } else {
                        snprintf(cf[i], sizeof cf[i], "%.6g", pct[i]);
                        snprintf(tf[i], sizeof tf[i], i < 6 ? "%*.0f" : "%*.3g", w, pct[i]);
                    }
                }
                len += (size_t)snprintf(
                    text + len, cap - len, "%.10g,%s,%s,%d,%d,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", g->disp[d],
                    ds_filter_name((ds_filter)g->filter[f]), ds_solver_name((ds_solver_kind)g->solver[s]), gs.n,
                    gs.conv, gs.ill, gs.failed, cf[0], cf[1], cf[2], cf[3], cf[4], cf[5], cf[6], cf[7], cf[8], m);
                if (print_table)
                    printf("%-*.10g %-5s %-8s %5d %5d %4d %4d  %s %s %s  %s %s %s  %s %s %s%s%s\n", dw, g->disp[d],
                           ds_filter_name((ds_filter)g->filter[f]), ds_solver_name((ds_solver_kind)g->solver[s]), gs.n,
                           gs.conv, gs.ill, gs.failed, tf[0], tf[1], tf[2], tf[3], tf[4], tf[5], tf[6], tf[7], tf[8],
                           g->ue ? "  " : "", g->ue ? (m[0] ? m : "-") : "");
            }
    snprintf(path, sizeof path, "%s/summary.csv", dir);
    if (write_atomic(path, text, len) != 0) {
        fprintf(stderr, "dillsue sweep: %s: %s\n", path, strerror(errno));
        rc = 2;
    }
    if (print_table) {
        printf("%ld of %ld cells done; medians and percentiles over converged cells", n_done, total);
        if (g->ue) {
            double worst;
            int nmax, n = ue_gaps(dir, g, &worst, &nmax);
            /* (no reference has a gap: "relative gap <= 0" said they were exact) */
            char gap[48] = "";
            if (n) snprintf(gap, sizeof gap, ", relative gap <= %.3g", worst);
            printf("; UE references: %d of %d scenarios%s (target %.3g%s)", n, g->scenarios, gap, g->ue_gap,
                   nmax ? ", some stopped at --ue-max-iter" : "");
        }
        printf("\n");
        fflush(stdout);
    }
    free(text);
    free(buf);
    return rc;
}

/* ================================================================ the command */

/* A sweep goes on as it was started: where it wrote flow files (sweep.conf
 * says flows=1; a directory from before it said so has DIR/flows), --resume
 * and a shard's next run write them too, also without --flows. */
static void continue_flows(sweep_opts *o, int had)
{
    char sub[PATH_MAX + 16];
    struct stat st;
    snprintf(sub, sizeof sub, "%s/flows", o->out);
    int dir = stat(sub, &st) == 0 && S_ISDIR(st.st_mode);
    if ((had || dir) && !o->flows && !o->quiet)
        fprintf(stderr, "dillsue sweep: %s: the sweep writes flow files; so does this run (as --flows)\n", sub);
    if (o->flows && !had && !dir && !o->quiet)
        fprintf(stderr, "dillsue sweep: --flows: cells finished before this run have no flow file in %s\n", sub);
    o->g.flows = had || dir || o->flows;
}

/* Whether dir holds a journal*.csv (a directory that cannot be read holds none). */
static int has_journal(const char *dir)
{
    DIR *dp = opendir(dir);
    struct dirent *de;
    int found = 0;
    while (dp && !found && (de = readdir(dp))) found = sweep_is_journal(de->d_name);
    if (dp) closedir(dp);
    return found;
}

/* The first line where the sweep.conf texts a (DIR's) and b (the options')
 * differ, as ": it has 'A', these options give 'B'" (a refusal that names
 * no key left the user to diff sweep.conf by hand). */
static void first_difference(const char *a, const char *b, char *out, size_t n)
{
    while (*a || *b) {
        size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
        if (la != lb || memcmp(a, b, la)) {
            char x[160], y[160];
            snprintf(x, sizeof x, *a ? "'%.*s'" : "no more lines", (int)(la < 150 ? la : 150), a);
            snprintf(y, sizeof y, *b ? "'%.*s'" : "no more lines", (int)(lb < 150 ? lb : 150), b);
            snprintf(out, n, ": it has %s, these options give %s", x, y);
            return;
        }
        a += la + (a[la] == '\n');
        b += lb + (b[lb] == '\n');
    }
}

/* A sweep goes on with the files it began with: the net or trips file edited
 * in place mixed cells of two networks in one sweep, silently. recorded ""
 * (a directory from before the key, or files unreadable when it began):
 * nothing to compare. 0, or 2 (printed). */
static int inputs_unchanged(const sweep_opts *o, const char *recorded)
{
    char now[40];
    if (!recorded[0] || sweep_inputs_sum(&o->g, now, sizeof now) != 0 || !strcmp(now, recorded)) return 0;
    int net = strncmp(now, recorded, 16) != 0, trips = strcmp(now + 17, recorded + 17) != 0;
    fprintf(stderr,
            "dillsue sweep: %s: %s changed since the sweep began (sweep.conf's inputs=%s, %s now): its cells "
            "were computed on the old %s; restore %s, or give another --out\n",
            o->out,
            net && trips ? "the network and trips files"
            : net        ? "the network file"
                         : "the trips file",
            recorded, now, net && trips ? "files" : "one", net && trips ? "them" : "it");
    return 2;
}

/* DIR/sweep.conf: written by a new sweep, compared by --resume, read when the
 * grid is not given. Returns 0 or 2 (printed), or -1 where another sweep
 * wrote sweep.conf after this one looked (not last: look again). */
static int setup_conf_try(sweep_opts *o, int last)
{
    char path[PATH_MAX + 32], text[8192];
    ds_error err = {{0}, 0, {0}};
    snprintf(path, sizeof path, "%s/sweep.conf", o->out);
    /* what a sweep writes, looked for before sweep.conf, which a sweep writes
     * first: a shard starting beside another never takes its files for
     * someone else's */
    static const char *const ours[] = {"cells.csv", "summary.csv", "progress", "flows", "ue"};
    const char *foreign = has_journal(o->out) ? "a journal" : NULL;
    for (size_t i = 0; !foreign && i < sizeof ours / sizeof *ours; i++) {
        char sub[PATH_MAX + 32];
        struct stat st;
        snprintf(sub, sizeof sub, "%s/%s", o->out, ours[i]);
        if (lstat(sub, &st) == 0) foreign = ours[i];
    }
    char *old = sweep_read_file(path, NULL);
    int rerr = old ? 0 : errno;
    if (o->merge || (o->resume && !o->have_net)) {
        if (!old)
            return cli_usage(CMD, "%s: no sweep here (%s)", o->out,
                             rerr == EINVAL ? "sweep.conf is not a regular file" : strerror(rerr));
        int rc = sweep_grid_parse(old, path, &o->g, &err);
        free(old);
        if (rc) return cli_input_error(&err);
        if (o->resume && (rc = inputs_unchanged(o, o->g.inputs))) return rc;
        if (o->resume) continue_flows(o, o->g.flows);
        return 0;
    }
    /* only a sweep.conf that is not there is no sweep: one that cannot be
     * read (a FIFO, no permission) was replaced as if absent */
    if (!old && rerr != ENOENT)
        return cli_usage(CMD, "%s: cannot read: %s", path, rerr == EINVAL ? "not a regular file" : strerror(rerr));
    if (old) {
        /* the grid must be the one the directory holds; whether it writes flow
         * files is not the grid's (continue_flows) */
        sweep_grid was, cmp = o->g;
        int parsed = sweep_grid_parse(old, path, &was, &err) == 0, had = parsed && was.flows;
        cmp.flows = had;
        /* the files' checksums are compared on their own (below), and not
         * at all with a directory made before they were recorded */
        if (parsed) snprintf(cmp.inputs, sizeof cmp.inputs, "%s", was.inputs);
        sweep_grid_format(&cmp, text, sizeof text);
        int same = !strcmp(old, text);
        if (!same) { /* a directory written before paths were made absolute names them as typed */
            sweep_grid typed = cmp;
            char text_typed[8192];
            snprintf(typed.net, sizeof typed.net, "%s", o->net_given);
            snprintf(typed.trips, sizeof typed.trips, "%s", o->trips_given);
            sweep_grid_format(&typed, text_typed, sizeof text_typed);
            same = !strcmp(old, text_typed);
        }
        char diff[400] = "";
        if (!same) first_difference(old, text, diff, sizeof diff);
        free(old);
        if (!same && (o->resume || o->shard_m))
            return cli_usage(CMD,
                             "%s holds a sweep of another grid (%s differs from these options%s); "
                             "use --resume --out %s alone to finish it, or another --out",
                             o->out, path, diff, dir_word(o->out));
        if (!o->resume && !o->shard_m)
            return cli_usage(CMD, "%s already holds a sweep: --resume finishes it, --merge summarises it", o->out);
        int rc = inputs_unchanged(o, was.inputs);
        if (rc) return rc;
        snprintf(o->g.inputs, sizeof o->g.inputs, "%s", was.inputs); /* (checked) */
        /* (once the grid matches: a refused run said "so does this run" first) */
        continue_flows(o, had);
        return 0;
    }
    /* a directory without sweep.conf that holds what a sweep writes is
     * someone else's: its cells.csv and summary.csv were replaced and its
     * journal appended to (--resume with the grid may still rebuild a
     * sweep.conf that was lost) */
    if (foreign && !o->resume)
        return cli_usage(CMD, "%s holds %s but no sweep.conf: not a sweep directory; give another --out", o->out,
                         foreign);
    /* rank 0 holds a record of every cell: a grid that cannot fit is refused
     * before DIR is made (it wrote sweep.conf, then said "out of memory",
     * and --resume and --merge of that DIR said it again) */
    long total = sweep_grid_total(&o->g), pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    double need = (double)total * (sizeof(sweep_result) + sizeof(sweep_job) + 1);
    if (pages > 0 && psz > 0 && need > (double)pages * (double)psz)
        return cli_usage(
            CMD, "the grid has %ld cells, whose records need %.3g GiB, more than this machine's memory (%.3g GiB)",
            total, need / 1073741824.0, (double)pages * (double)psz / 1073741824.0);
    sweep_inputs_sum(&o->g, o->g.inputs, sizeof o->g.inputs); /* ("" where unreadable: the read says why) */
    sweep_grid_format(&o->g, text, sizeof text);
    if (make_dir(o->out) != 0) return cli_usage(CMD, "cannot create %s: %s", o->out, strerror(errno));
    if (write_file(path, text, strlen(text), 0) != 0) {
        if (errno == EEXIST && !last) return -1; /* a sweep started at the same time: its grid or ours */
        fprintf(stderr, "dillsue sweep: %s: %s\n", path, strerror(errno));
        return 2;
    }
    return 0;
}

static int setup_conf(sweep_opts *o)
{
    int rc = setup_conf_try(o, 0);
    return rc == -1 ? setup_conf_try(o, 1) : rc;
}

/* The jobs of this process: the undone cells of the slice in grid order, each
 * scenario's UE reference (with --ue, when not on disk) just before its first
 * cell, so that a sweep stopped early has whole scenarios. A cell that
 * finishes before its reference waits for it (sweep_record). */
static int plan(sweep *sw, const sweep_opts *o)
{
    long lo = 0, hi = sw->total;
    if (o->shard_m) {
        lo = sw->total * (o->shard_k - 1) / o->shard_m;
        hi = sw->total * o->shard_k / o->shard_m;
    }
    unsigned char *need_ue = calloc((size_t)sw->g.scenarios, 1);
    sw->jobs = malloc(sizeof *sw->jobs * (size_t)(sw->total + sw->g.scenarios + 1));
    if (!need_ue || !sw->jobs) {
        free(need_ue);
        return -1;
    }
    for (long c = lo; c < hi; c++)
        if (!sw->done[c]) need_ue[sweep_grid_cell(&sw->g, c).k] = 1;
    if (sw->g.ue)
        for (int k = 0; k < sw->g.scenarios; k++) {
            if (!need_ue[k]) continue;
            char path[PATH_MAX + 32];
            ds_error err = {{0}, 0, {0}};
            double *fl = NULL;
            int n = 0;
            snprintf(path, sizeof path, "%s/ue/k%04d.csv", sw->dir, k);
            if (access(path, R_OK) == 0 && ds_flows_read(path, sw->base, &fl, NULL, &n, &err) == 0) {
                sw->ue_flows[k] = fl; /* solved by an earlier run or another shard */
                need_ue[k] = 0;
            }
        }
    for (long c = lo; c < hi; c++) {
        int k = sweep_grid_cell(&sw->g, c).k;
        if (sw->g.ue && need_ue[k]) { /* a scenario's reference just before its cells */
            sw->jobs[sw->n_jobs++] = (sweep_job){SWEEP_JOB_UE, k};
            need_ue[k] = 0;
        }
        if (!sw->done[c]) sw->jobs[sw->n_jobs++] = (sweep_job){SWEEP_JOB_CELL, c}, sw->n_cells_todo++;
    }
    free(need_ue);
    return 0;
}

/* One process at a time writes a directory: a sweep or --resume holds an
 * exclusive lock of DIR/sweep.conf, a shard a shared one and an exclusive
 * lock of its journal (shards of a job array run side by side). Without it
 * a --resume started while the sweep still ran (or two sweeps started at
 * once) redid every cell the other had not finished yet, each appending its
 * rows to the same journal. flock: the kernel drops the lock when the
 * process ends, however it ends, so a killed sweep leaves none behind; a
 * file system that cannot lock (ENOLCK) runs without. 0, or -1 (printed). */
static int lock_fd(int fd, int how, const char *path, const sweep_opts *o)
{
    if (flock(fd, how | LOCK_NB) == 0 || errno != EWOULDBLOCK) return 0;
    char who[64] = "";
    if (o->shard_m) snprintf(who, sizeof who, " (the whole grid, or shard %d/%d)", o->shard_k, o->shard_m);
    fprintf(stderr,
            "dillsue sweep: another sweep%s is writing %s (it holds the lock of %s): wait for it to end, or stop "
            "it, then run this again or: dillsue sweep --resume --out %s\n",
            who, o->out, path, dir_word(o->out));
    return -1;
}

static int lock_conf(sweep *sw, const sweep_opts *o)
{
    char conf[PATH_MAX + 32];
    snprintf(conf, sizeof conf, "%s/sweep.conf", sw->dir);
    /* (read-write: NFS emulates flock with byte-range locks, whose exclusive
     * kind needs a descriptor open for writing) */
    sw->conf_fd = open(conf, O_RDWR | O_CLOEXEC);
    if (sw->conf_fd < 0) sw->conf_fd = open(conf, O_RDONLY | O_CLOEXEC);
    if (sw->conf_fd >= 0 && lock_fd(sw->conf_fd, o->shard_m ? LOCK_SH : LOCK_EX, conf, o) != 0) return -1;
    return 0;
}

/* This process's journal, locked. Opened after the journals are read: on NFS
 * a byte-range lock goes when the process closes any descriptor of the file,
 * and sweep_load_journals opens and closes each journal. */
static int open_journal(sweep *sw, const sweep_opts *o)
{
    if (o->shard_m)
        snprintf(sw->journal_path, sizeof sw->journal_path, "%s/journal-%d-of-%d.csv", sw->dir, o->shard_k, o->shard_m);
    else
        snprintf(sw->journal_path, sizeof sw->journal_path, "%s/journal.csv", sw->dir);
    /* (read-write: its end is read through the locked descriptor itself) */
    sw->journal_fd = open(sw->journal_path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (sw->journal_fd < 0) {
        fprintf(stderr, "dillsue sweep: %s: %s\n", sw->journal_path, strerror(errno));
        return -1;
    }
    if (lock_fd(sw->journal_fd, LOCK_EX, sw->journal_path, o) != 0) return -1;
    struct stat st;
    if (fstat(sw->journal_fd, &st) != 0) st.st_size = -1;
    if (st.st_size > 0) {
        /* a line cut short by a kill (or a full disk): its cell is redone
         * now, so the line goes (no other process appends: this one holds
         * the lock); kept, it was "cut short ... redone" at every later
         * --resume and --merge. A row is under 2 KiB: the last newline is in
         * the last 4 KiB, or the file is all one cut line (its header). */
        char tail[4096];
        off_t from = st.st_size > (off_t)sizeof tail ? st.st_size - (off_t)sizeof tail : 0;
        ssize_t n = pread(sw->journal_fd, tail, (size_t)(st.st_size - from), from);
        if (n > 0 && tail[n - 1] != '\n') {
            ssize_t i = n - 1;
            while (i >= 0 && tail[i] != '\n') i--;
            off_t keep = i >= 0 ? from + i + 1 : from == 0 ? 0 : -1;
            if (keep >= 0 && ftruncate(sw->journal_fd, keep) == 0) st.st_size = keep;
        }
    }
    if (st.st_size == 0) {
        ssize_t want = (ssize_t)strlen(sweep_cells_header), w = write(sw->journal_fd, sweep_cells_header, (size_t)want);
        if (w != want) { /* (a full disk: said, and no header half written left to read) */
            fprintf(stderr, "dillsue sweep: %s: cannot write: %s\n", sw->journal_path,
                    w < 0 ? strerror(errno) : "short write (disk full?)");
            if (ftruncate(sw->journal_fd, 0) != 0) { /* nothing more to do: the message is out */
            }
            return -1;
        }
    } else if (st.st_size > 0) {
        /* a cut line not cut off above must not swallow the next one */
        char last = '\n';
        if (pread(sw->journal_fd, &last, 1, st.st_size - 1) != 1) last = '\n';
        if (last != '\n' && write(sw->journal_fd, "\n", 1) != 1) {
            fprintf(stderr, "dillsue sweep: %s: cannot write: %s\n", sw->journal_path, strerror(errno));
            return -1;
        }
    }
    return 0;
}

static void sweep_free(sweep *sw)
{
    if (!sw) return;
    if (sw->journal_fd >= 0) close(sw->journal_fd);
    if (sw->conf_fd >= 0) close(sw->conf_fd);
    if (sw->ue_flows)
        for (int k = 0; k < sw->g.scenarios; k++) free(sw->ue_flows[k]);
    while (sw->waiting) {
        pending *p = sw->waiting;
        sw->waiting = p->next;
        free(p->flows);
        free(p);
    }
    free(sw->ue_flows);
    free(sw->ue_tried);
    free(sw->cbar);
    free(sw->res);
    free(sw->done);
    free(sw->jobs);
    ds_network_free(sw->base);
    pthread_mutex_destroy(&sw->lock);
    free(sw);
}

static sweep *sweep_new(const sweep_opts *o, int rank0)
{
    sweep *sw = calloc(1, sizeof *sw);
    if (!sw) return NULL;
    sw->g = o->g;
    snprintf(sw->dir, sizeof sw->dir, "%s", o->out);
    sw->threads = o->threads;
    sw->write_flows = o->g.flows;
    sw->quiet = o->quiet;
    sw->journal_fd = sw->conf_fd = -1;
    sw->total = sweep_grid_total(&o->g);
    sw->mode = "local";
    pthread_mutex_init(&sw->lock, NULL);
    atomic_init(&sw->stop, 0);
    sw->progress_tty = isatty(2);
    sw->t_start = mono_s();
    sw->last_tick = -1e9;
    sw->last_line = sw->t_start;
    if (o->g.use_mu) { /* every rank computes cells */
        sw->cbar = malloc(sizeof(double) * (size_t)o->g.scenarios);
        if (!sw->cbar) {
            sweep_free(sw);
            return NULL;
        }
        for (int k = 0; k < o->g.scenarios; k++) sw->cbar[k] = NAN;
    }
    if (rank0) {
        sw->res = calloc((size_t)sw->total, sizeof *sw->res);
        sw->done = calloc((size_t)sw->total, 1);
        sw->ue_flows = calloc((size_t)o->g.scenarios, sizeof *sw->ue_flows);
        sw->ue_tried = calloc((size_t)o->g.scenarios, 1);
        if (!sw->res || !sw->done || !sw->ue_flows || !sw->ue_tried) {
            sweep_free(sw);
            return NULL;
        }
    }
    return sw;
}

static int load_base(sweep *sw)
{
    ds_error err = {{0}, 0, {0}};
    sw->base = ds_network_load_net_trips(sw->g.net, sw->g.trips[0] ? sw->g.trips : NULL, &err);
    if (!sw->base) return cli_input_error(&err);
    ds_cost_params cp = {sw->g.cap, sw->base->toll_factor, sw->base->distance_factor};
    return cli_check_costs(sw->base, &cp); /* (a scenario's own costs are checked by its cells' runs) */
}

static int merge_only(const sweep_opts *o)
{
    sweep_grid g = o->g;
    long total = sweep_grid_total(&g), bad = 0;
    sweep_result *res = calloc((size_t)total, sizeof *res);
    unsigned char *done = calloc((size_t)total, 1);
    if (!res || !done) {
        free(res);
        free(done);
        fprintf(stderr, "dillsue sweep: out of memory\n");
        return 2;
    }
    long n = sweep_load_journals(o->out, &g, res, done, &bad);
    int rc = n < 0 ? 2 : write_outputs(o->out, &g, res, done, 1);
    if (n >= 0 && bad)
        fprintf(stderr, "dillsue sweep: %ld journal lines were incomplete or of another grid and were skipped\n", bad);
    if (!rc && n >= 0 && n < total)
        fprintf(stderr, "dillsue sweep: %ld of %ld cells missing: run the missing shards or --resume --out %s\n",
                total - n, total, dir_word(o->out));
    free(res);
    free(done);
    if (rc) return rc;
    return n < total ? 1 : 0;
}

static int default_workers(int threads)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) cores = 1;
    if (threads <= 0) return 1;
    long w = cores / threads;
    return (int)(w < 1 ? 1 : w > MAX_WORKERS ? MAX_WORKERS : w);
}

/* Rank 0 alone, before any cell: DIR/flows and DIR/ue, the cells done
 * before (journals), this process's journal and jobs. Returns 0 or 2. */
static int prepare_dir(sweep *sw, const sweep_opts *o)
{
    char sub[PATH_MAX + 16];
    long bad = 0;
    snprintf(sub, sizeof sub, "%s/flows", sw->dir);
    if (o->g.flows && make_dir(sub) != 0) return cli_usage(CMD, "cannot create %s: %s", sub, strerror(errno));
    snprintf(sub, sizeof sub, "%s/ue", sw->dir);
    if (o->g.ue && make_dir(sub) != 0) return cli_usage(CMD, "cannot create %s: %s", sub, strerror(errno));
    /* the directory's lock before the journals are read: what another process
     * still appends would be redone here */
    if (lock_conf(sw, o) != 0) return 2;
    if ((sw->n_done_total = sweep_load_journals(sw->dir, &sw->g, sw->res, sw->done, &bad)) < 0)
        return cli_usage(CMD, "cannot read %s: %s", sw->dir, strerror(errno));
    if (bad)
        fprintf(stderr,
                "dillsue sweep: %ld journal lines were cut short by a kill, are of another grid or hold a field that "
                "is no number (inf, nan, hexadecimal, beyond its range): skipped, their "
                "cells redone\n",
                bad);
    if (open_journal(sw, o) != 0 || plan(sw, o) != 0) return 2;
    if (!o->quiet)
        fprintf(stderr, "sweep: %ld cells in the grid, %ld done before, %ld to do%s%s\n", sw->total, sw->n_done_total,
                sw->n_cells_todo, o->shard_m ? " in this shard" : "",
                sw->g.ue && sw->n_cells_todo ? " (and the UE references they need)" : "");
    return 0;
}

/* The rank an MPI launcher gave this process (mpirun, srun), from the
 * environment, before or without MPI's start; 0 where none says. */
static int launcher_rank(void)
{
    const char *rk = getenv("OMPI_COMM_WORLD_RANK");
    if (!rk) rk = getenv("PMIX_RANK");
    if (!rk) rk = getenv("PMI_RANK");
    return rk ? atoi(rk) : 0;
}

/* This process's MPI rank, when mpirun started it, and the module's table. */
typedef struct ranks {
    int rank, size, use_mpi;
    const sweep_mpi_ops *mpi;
} ranks;

/* MPI started when mpirun launched us; rank 0 sets DIR up (setup_conf) and
 * every other rank receives its grid. Returns 0 or an exit code. */
static int start_ranks(sweep_opts *o, ranks *r)
{
    int rc = 0;
    r->rank = 0, r->size = 1, r->use_mpi = 0, r->mpi = NULL;
#ifndef DS_HAVE_MPI
    {
        /* mpirun -np R of a program built without MPI: each rank would run
         * the whole grid into DIR (one then finds it "already holds a sweep") */
        const char *np = getenv("OMPI_COMM_WORLD_SIZE");
        if (!np) np = getenv("PMI_SIZE");
        if (sweep_mpi_launched() && np && atoi(np) > 1) {
            fprintf(stderr,
                    "dillsue sweep: started by mpirun with %s ranks, but this dillsue was built without MPI (no mpicc "
                    "at build time): each rank would run the whole sweep; run it without mpirun (--workers runs "
                    "cells in parallel over the cores) or rebuild where mpicc is\n",
                    np);
            return 2;
        }
    }
#endif
#ifdef DS_HAVE_MPI
    if (sweep_mpi_launched() && o->workers) {
        /* each rank computes one cell at a time, so --workers would be
         * ignored (srun sets PMIX_RANK too: a job-array shard under srun ran
         * on one core); every rank refuses, before MPI starts */
        if (launcher_rank() == 0)
            fprintf(stderr,
                    "dillsue sweep: --workers is for a sweep without mpirun, but this one was started by an MPI "
                    "launcher (mpirun, or srun: %s is set), where each rank computes one cell at a time: start more "
                    "ranks (-np), or run it without the launcher\n",
                    getenv("OMPI_COMM_WORLD_SIZE") ? "OMPI_COMM_WORLD_SIZE"
                    : getenv("PMI_SIZE")           ? "PMI_SIZE"
                    : getenv("PMIX_RANK")          ? "PMIX_RANK"
                                                   : "PMI_RANK");
        return 2;
    }
    if (sweep_mpi_launched()) {
        char why[600];
        if (!(r->mpi = sweep_mpi_load(why, sizeof why))) {
            fprintf(stderr, "dillsue sweep: started by mpirun, but the MPI module cannot be opened: %s\n", why);
            return 2;
        }
        if (r->mpi->init(&r->rank, &r->size) != 0) return 2;
        r->use_mpi = 1;
    }
#endif
    if (r->rank == 0) rc = setup_conf(o);
#ifdef DS_HAVE_MPI
    if (r->use_mpi) {
        char text[8192] = "";
        int ok = rc == 0;
        if (r->rank == 0 && ok) sweep_grid_format(&o->g, text, sizeof text);
        if (!r->mpi->bcast_setup(text, sizeof text, ok)) return rc ? rc : 2;
        if (r->rank != 0) {
            ds_error err = {{0}, 0, {0}};
            if (sweep_grid_parse(text, "<rank 0's grid>", &o->g, &err) != 0) rc = cli_input_error(&err);
        }
    }
#endif
    return rc;
}

static void end_ranks(const ranks *r)
{
#ifdef DS_HAVE_MPI
    if (r->use_mpi) r->mpi->finalize();
#else
    (void)r;
#endif
}

/* The cells, by local worker threads or by MPI ranks (rank 0 deals). rc: how
 * this rank's set-up went (MPI ranks all stop if any failed). Returns rc, or
 * 2 when another rank failed. */
static int run_cells(sweep *sw, const sweep_opts *o, const ranks *r, int rc)
{
    if (!r->use_mpi) {
        if (rc) return rc;
        int workers = o->workers ? o->workers : default_workers(o->threads);
        if (workers > sw->n_jobs) workers = (int)(sw->n_jobs ? sw->n_jobs : 1);
        run_local(sw, workers);
        return 0;
    }
#ifdef DS_HAVE_MPI
    /* every rank learns whether rank 0 could set up; workers' own errors
     * (a network they cannot load) stop the whole job */
    if (!r->mpi->all_ok(rc == 0)) return rc ? rc : 2;
    if (r->rank == 0) {
        r->mpi->master(sw, r->size);
    } else {
        cli_stop_watch *w = cli_stop_watch_begin(stop_sweep, sw);
        r->mpi->worker(sw, r->rank);
        cli_stop_watch_end(w);
    }
#endif
    return rc;
}

/* Rank 0 after the cells: the progress file, cells.csv and summary.csv (a
 * shard leaves them to --merge unless stopped), what to do next. Returns the
 * exit code. */
static int finish(sweep *sw, const sweep_opts *o)
{
    int stopped = sweep_stopping(sw);
    write_progress(sw, sw->io_error ? "failed" : stopped ? "stopped" : "finished");
    if (!o->quiet) progress_line(sw, 1);
    if (sw->waiting) fprintf(stderr, "dillsue sweep: cells whose UE reference did not finish are redone by --resume\n");
    int out_rc = 0;
    if (!o->shard_m || stopped) out_rc = write_outputs(sw->dir, &sw->g, sw->res, sw->done, !o->shard_m);
    if (o->shard_m && !stopped && !o->quiet)
        fprintf(stderr, "sweep: shard %d/%d done; when every shard is, run: dillsue sweep --merge --out %s\n",
                o->shard_k, o->shard_m, dir_word(sw->dir));
    if (stopped && !sw->io_error)
        fprintf(stderr, "dillsue sweep: stopped with %ld of %ld cells done: dillsue sweep --resume --out %s\n",
                sw->n_done_total, sw->total, dir_word(sw->dir));
    else if (sw->io_error) /* (the journal holds what was written before the error) */
        fprintf(stderr,
                "dillsue sweep: stopped by the output error above with %ld of %ld cells done; once %s can be written "
                "again: dillsue sweep --resume --out %s\n",
                sw->n_done_total, sw->total, sw->dir, dir_word(sw->dir));
    return sw->io_error || out_rc ? 2 : stopped ? 4 : 0;
}

/* One rank's sweep, once DIR is set up: load, plan, run, finish. Without
 * MPI the stop handlers are installed (cmd_sweep) and a signal before the
 * cells start ends the sweep at once, saying so (cli_setup_begin); under MPI
 * they are installed here, after MPI's start, and such a signal stops the
 * sweep before its first cell. */
static int run_sweep(const sweep_opts *o, const ranks *r, int installed)
{
    sweep *sw = sweep_new(o, r->rank == 0);
    if (!sw) {
        fprintf(stderr, "dillsue sweep: out of memory\n");
        return 2;
    }
    sw->mode = r->use_mpi ? "mpi" : "local";
    cli_stop_saved old;
    char after[4 * PATH_MAX + 96];
    if (!installed) cli_stop_signals_install(&old);
    if (!r->use_mpi) {
        snprintf(after, sizeof after, "no cell was run: dillsue sweep --resume --out %s runs them", dir_word(sw->dir));
        cli_setup_begin(CMD, NULL);
        cli_setup_step("reading", sw->g.net, after);
    }
    int rc = load_base(sw);
    if (!r->use_mpi) cli_setup_step("reading the journals of", sw->dir, after);
    if (!rc && r->rank == 0) rc = prepare_dir(sw, o);
    cli_setup_end();

    rc = run_cells(sw, o, r, rc);
    if (!installed) cli_stop_signals_restore(&old);

    int code = rc;
    if (!rc && r->rank == 0) code = finish(sw, o);
    sweep_free(sw);
    return code;
}

int cmd_sweep(int argc, char **argv)
{
    sweep_opts o;
    int rc = parse_args(argc, argv, &o);
    if (rc < 0) return 0;
    if (rc) return rc;
    cli_keep_on_closed_pipe();
    if (o.merge) { /* never under MPI: one process reads what DIR holds */
        /* `mpirun -np R dillsue sweep --merge` (the last line of a job
         * script) merged R times, printing the table R times and writing
         * cells.csv and summary.csv R times at once: rank 0 alone does */
        if (sweep_mpi_launched() && launcher_rank() != 0) return 0;
        rc = setup_conf(&o);
        return rc ? rc : merge_only(&o);
    }
    /* the stop handlers from the start, but under mpirun after MPI's (run_sweep) */
    ranks r;
    cli_stop_saved old;
    int local = !sweep_mpi_launched();
    if (local) cli_stop_signals_install(&old);
    rc = start_ranks(&o, &r);
    if (!rc) rc = run_sweep(&o, &r, local);
    end_ranks(&r);
    if (local) cli_stop_signals_restore(&old);
    return rc;
}
