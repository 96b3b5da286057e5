/* solvers.c - whole solves to gap_rel < 1e-7 at tau = 10 per network and
 * outer solver, beside the paper's times (DESIGN.md 5).
 *
 * Usage: solvers [--quick] [--net SUBSTRING] [--limit SECONDS] [--threads N]
 * Each run has a wall-time limit enforced by a watchdog thread through
 * ds_run_cancel (reported as "stopped at N s"). Runs shorter than a second
 * are repeated and the median reported. With no TNTP data it says so and
 * exits 0. Output is Markdown on stdout.
 */
#include <errno.h>
#include <pthread.h>

#include "bench_util.h"

typedef struct bench_net {
    const char *label, *sub;
    double paper_gpu, paper_cpu; /* Newton, tau 10, seconds; 0 = not in the paper's table */
    double target;               /* seconds for Newton or Anderson */
} bench_net;

static const bench_net g_nets[] = {
    {"Sioux Falls", "SiouxFalls", 41.7, 16.4, 1},
    {"Eastern Massachusetts", "Eastern-Massachusetts", 34.2, 42.0, 1},
    {"Anaheim", "Anaheim", 0, 0, 0},
    {"Barcelona", "Barcelona", 82.3, 247.1, 10},
    {"Winnipeg", "Winnipeg", 85.5, 168.3, 10},
};

static double g_limit = 60;
static int g_threads = 2, g_quick;

/* ------------------------------------------------------------- watchdog */

typedef struct watchdog {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int done, fired;
    double limit;
    ds_run *run;
} watchdog;

static void *watchdog_fn(void *p)
{
    watchdog *w = p;
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += (time_t)w->limit;
    dl.tv_nsec += (long)((w->limit - (double)(time_t)w->limit) * 1e9);
    if (dl.tv_nsec >= 1000000000L) dl.tv_sec++, dl.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&w->mu);
    while (!w->done) {
        if (pthread_cond_timedwait(&w->cv, &w->mu, &dl) == ETIMEDOUT && !w->done) {
            w->fired = 1;
            ds_run_cancel(w->run);
            break;
        }
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* ----------------------------------------------------------------- runs */

typedef struct result {
    ds_status status;
    int stopped; /* cancelled by the watchdog */
    int iters, evals, jv;
    double gap, wall;
    double phase[DS_PHASE_N]; /* seconds per phase summed over iterations */
    int flowdep, capped;      /* flow-dependent links, and those at the x/c cap at the end */
    char reason[1024];
} result;

static int run_once(const ds_network *net, const ds_config *cfg, result *r)
{
    ds_error err;
    ds_run *run = ds_run_create(net, cfg, &err);
    watchdog w;
    pthread_t th;
    memset(r, 0, sizeof *r);
    if (!run) {
        r->status = DS_STATUS_ERROR;
        snprintf(r->reason, sizeof r->reason, "%s", err.msg);
        return -1;
    }
    pthread_mutex_init(&w.mu, NULL);
    pthread_cond_init(&w.cv, NULL);
    w.done = w.fired = 0;
    w.limit = g_limit;
    w.run = run;
    pthread_create(&th, NULL, watchdog_fn, &w);
    double t0 = bu_now();
    r->status = ds_run_execute(run);
    r->wall = bu_now() - t0;
    pthread_mutex_lock(&w.mu);
    w.done = 1;
    pthread_cond_signal(&w.cv);
    pthread_mutex_unlock(&w.mu);
    pthread_join(th, NULL);
    r->stopped = w.fired && r->status == DS_STATUS_CANCELLED;
    pthread_mutex_destroy(&w.mu);
    pthread_cond_destroy(&w.cv);
    ds_run_reason(run, r->reason, sizeof r->reason);

    size_t n = ds_run_history_count(run), from = 0;
    ds_iter_record buf[256];
    while (from < n) {
        size_t k = ds_run_history_copy(run, from, buf, 256);
        if (k == 0) break;
        for (size_t i = 0; i < k; i++)
            for (int p = 0; p < DS_PHASE_N; p++) r->phase[p] += buf[i].t_phase[p];
        if (from + k == n) {
            r->iters = buf[k - 1].iter;
            r->evals = buf[k - 1].evals;
            r->jv = buf[k - 1].jv;
            r->gap = buf[k - 1].gap_rel;
        }
        from += k;
    }
    const double *x = ds_run_flows(run);
    double cap = ds_run_config(run)->cost.cap;
    for (int e = 0; x && e < net->n_links; e++) {
        if (!(net->bpr_b[e] > 0 && net->bpr_power[e] > 0)) continue;
        r->flowdep++;
        if (cap > 0 && x[e] / net->capacity[e] >= cap) r->capped++;
    }
    ds_run_free(run);
    return 0;
}

/* First run, then repeats while the runs are short; the median wall time. */
static result run_timed(const ds_network *net, const ds_config *cfg, int *reps)
{
    result first, again;
    double tv[7];
    int n = 0;
    run_once(net, cfg, &first);
    tv[n++] = first.wall;
    double spent = first.wall;
    int want = g_quick ? 3 : 5;
    while (first.wall < 1.0 && n < want && spent < 3.0 && first.status != DS_STATUS_CANCELLED) {
        run_once(net, cfg, &again);
        tv[n++] = again.wall;
        spent += again.wall;
    }
    *reps = n;
    first.wall = bu_median(tv, n);
    return first;
}

static const char *status_text(const result *r, char *buf, size_t n)
{
    if (r->stopped)
        snprintf(buf, n, "stopped at %g s", g_limit);
    else
        snprintf(buf, n, "%s", ds_status_name(r->status));
    return buf;
}

typedef struct target_line {
    char text[512];
} target_line;

int main(int argc, char **argv)
{
    const char *only = NULL, *dir = bu_tntp_dir();
    target_line targets[8];
    int n_targets = 0, any = 0;
    char notes[32][1400];
    int n_notes = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            g_quick = 1;
        else if (!strcmp(argv[i], "--net") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--limit") && i + 1 < argc)
            g_limit = atof(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            g_threads = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: solvers [--quick] [--net SUBSTRING] [--limit SECONDS] [--threads N]\n");
            return 2;
        }
    }
    if (!(g_limit > 0)) g_limit = 60;

    for (size_t ni = 0; ni < sizeof g_nets / sizeof g_nets[0]; ni++) {
        const bench_net *bn = &g_nets[ni];
        char path[1024];
        ds_error err;
        if (only && !strcasestr(bn->sub, only) && !strcasestr(bn->label, only)) continue;
        if (g_quick && bn->target > 1) continue; /* quick: the small networks only */
        if (bu_find_net(dir, bn->sub, path, sizeof path) != 0) {
            printf("(%s: no net file under %s/%s, skipped)\n\n", bn->label, dir, bn->sub);
            continue;
        }
        ds_network *net = ds_network_load(path, NULL, NULL, NULL, &err);
        if (!net) {
            char msg[1200];
            ds_error_format(&err, msg, sizeof msg);
            printf("(%s: cannot load: %s)\n\n", bn->label, msg);
            continue;
        }
        if (!any) {
            printf("## Whole solves: tau = 10, tol 1e-7, at most 10,000 iterations, %d threads, limit %g s per "
                   "run\n\n",
                   g_threads, g_limit);
            printf("time = wall time of ds_run_execute (loader setup included), median of the repetitions (runs "
                   "under 1 s are repeated). Paper: IFT-Newton, median per scenario, A100 GPU / 32-core Xeon "
                   "(DESIGN.md 5); speed-up = paper time / this time, for converged runs.\n\n");
            printf("| network | filter | solver | status | outer iter | evals | J*v | final gap_rel | time | reps "
                   "| paper GPU / CPU | speed-up vs GPU / CPU |\n");
            printf("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            any = 1;
        }
        ds_filter filter = DS_FILTER_FULL;
        double best_fast = INFINITY;
        const char *best_name = "-";
        for (int s = 0; s < DS_SOLVER_N; s++) {
            ds_config cfg;
            result r;
            int reps;
            char st[64], tm[32], paper[64] = "-", speed[64] = "-";
            ds_config_default(&cfg);
            cfg.tau = 10;
            cfg.tol = 1e-7;
            cfg.max_iter = 10000;
            cfg.threads = g_threads;
            cfg.solver = (ds_solver_kind)s;
            cfg.filter = filter;
            r = run_timed(net, &cfg, &reps);
            if (r.status == DS_STATUS_ILL_POSED && filter == DS_FILTER_FULL) {
                if (n_notes < 32)
                    snprintf(notes[n_notes++], sizeof notes[0], "%s, full graph, tau 10: **ill-posed** - %s", bn->label,
                             r.reason);
                printf("| %s | full | (all) | **ill-posed** (see notes) | - | - | - | - | %.3f s | 1 | - | - |\n",
                       bn->label, r.wall);
                fflush(stdout);
                filter = DS_FILTER_DSP;
                cfg.filter = filter;
                r = run_timed(net, &cfg, &reps);
            }
            if ((r.status == DS_STATUS_ERROR || r.status == DS_STATUS_ILL_POSED) && n_notes < 32)
                snprintf(notes[n_notes++], sizeof notes[0], "%s, %s, %s: %s - %s", bn->label, ds_filter_name(filter),
                         ds_solver_name(cfg.solver), ds_status_name(r.status), r.reason);
            bu_fmt_time(r.wall, tm, sizeof tm);
            if (bn->paper_gpu > 0) {
                snprintf(paper, sizeof paper, "%.1f / %.1f s", bn->paper_gpu, bn->paper_cpu);
                if (r.status == DS_STATUS_CONVERGED)
                    snprintf(speed, sizeof speed, "%.0fx / %.0fx", bn->paper_gpu / r.wall, bn->paper_cpu / r.wall);
            }
            printf("| %s | %s | %s | %s | %d | %d | %d | %.2e | %s | %d | %s | %s |\n", bn->label,
                   ds_filter_name(filter), ds_solver_name(cfg.solver), status_text(&r, st, sizeof st), r.iters, r.evals,
                   r.jv, r.gap, tm, reps, paper, speed);
            fflush(stdout);
            if ((s == DS_SOLVER_NEWTON || s == DS_SOLVER_ANDERSON) && r.status == DS_STATUS_CONVERGED &&
                r.wall < best_fast) {
                best_fast = r.wall;
                best_name = ds_solver_name(cfg.solver);
            }
            if (s == DS_SOLVER_NEWTON && r.status == DS_STATUS_CONVERGED && n_notes < 32)
                snprintf(notes[n_notes++], sizeof notes[0],
                         "%s, %s: at the Newton solution %d of %d flow-dependent links are at the x/c cap "
                         "(their cost no longer depends on flow)",
                         bn->label, ds_filter_name(filter), r.capped, r.flowdep);
            /* where the time went, for the converged fast solvers */
            if ((s == DS_SOLVER_NEWTON || s == DS_SOLVER_ANDERSON) && n_notes < 32) {
                double tot = 0;
                for (int p = 0; p < DS_PHASE_N; p++) tot += r.phase[p];
                if (tot > 0)
                    snprintf(notes[n_notes++], sizeof notes[0],
                             "%s, %s, %s phases (first run, %.3f s of iterations): costs %.0f%%, Bellman %.0f%%, "
                             "absorb %.0f%%, J*v %.0f%%, other %.0f%%",
                             bn->label, ds_filter_name(filter), ds_solver_name(cfg.solver), tot,
                             100 * r.phase[DS_PHASE_COSTS] / tot, 100 * r.phase[DS_PHASE_BELLMAN] / tot,
                             100 * r.phase[DS_PHASE_ABSORB] / tot, 100 * r.phase[DS_PHASE_DERIV] / tot,
                             100 * r.phase[DS_PHASE_OTHER] / tot);
            }
        }
        if (bn->target > 0 && n_targets < 8) {
            char tm[32];
            bu_fmt_time(best_fast, tm, sizeof tm);
            snprintf(targets[n_targets++].text, sizeof targets[0].text,
                     "%s (%s): Newton or Anderson to 1e-7 in <= %g s: best %s %s - %s", bn->label,
                     filter == DS_FILTER_FULL ? "full graph" : "dsp, full graph ill-posed", bn->target, best_name,
                     isfinite(best_fast) ? tm : "(none converged)", best_fast <= bn->target ? "**met**" : "**missed**");
        }
        ds_network_free(net);
    }
    if (!any) {
        printf("solvers: no TNTP networks found in %s (set DILLSUE_TNTP_DIR): nothing to time\n", dir);
        return 0;
    }
    printf("\n### Notes\n\n");
    for (int i = 0; i < n_notes; i++) printf("- %s\n", notes[i]);
    printf("\n### Targets\n\n");
    for (int i = 0; i < n_targets; i++) printf("- %s\n", targets[i].text);
    printf("\n");
    return 0;
}
