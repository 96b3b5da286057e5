/* grid.c - the result tables of issue 3 (docs/results.md), from real runs.
 *
 * Not built by the Makefile. Build the engine library first, then:
 *
 *   make B=build-grid build-grid/libdillsue.a
 *   cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Iinclude -Isrc/engine -I/usr/include/suitesparse tools/grid.c \
 *      build-grid/libdillsue.a -lklu -lcsv -lopenblas -lm -lpthread -ldl -o build-grid/grid
 *
 * Usage (TNTP files from $DILLSUE_TNTP_DIR, default ../shared/data/tntp):
 *
 *   grid ladder [opts]              Sioux Falls: tau x {full,dsp} x {msa,sra,anderson,newton}
 *   grid full   [opts] [NET...]     Newton, full graph, tau 1..100, with spectral-radius evidence
 *                                   (NET = SiouxFalls EMA Anaheim Barcelona Winnipeg by default)
 *   grid bridge [opts]              SUE -> UE: MAPE of the full-graph SUE against the UE flows
 *   grid edsp   [opts]              eDSP on Sioux Falls at mu 0.1 .. 5, per-refresh mask changes
 *
 *   opts: --threads N (2)  --max-iter N (10000)  --inner direct|passes (engine default: direct)
 *         --inner-max N (passes per evaluation with --inner passes; engine default 50)
 *         --scenarios K (bridge: also scenarios 1..K)  --seed S (1)
 *         --damping D (edsp: mask costs = (1-D) previous + D current; default 1 = plain rebuild)
 *         --centroids honour|ignore (full; ignore = routes may pass through zones, as in the paper)
 *
 * Output is Markdown, one table per command; progress goes to stderr.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dillsue.h"
#include "ds_metrics.h"
#include "ds_scenario.h"
#include "ds_ue.h"

static const double TAUS[] = {1, 3, 10, 30, 100};
#define N_TAU 5

typedef struct opts {
    int threads, max_iter, inner_max, scenarios, inner; /* inner < 0: engine default */
    int ignore_centroids; /* full: treat every node as a through node (the paper's setting) */
    double damping;       /* edsp: mask-cost damping, 1 = plain rebuild */
    unsigned long long seed;
} opts;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const char *tntp_dir(void)
{
    const char *d = getenv("DILLSUE_TNTP_DIR");
    return d && *d ? d : "../shared/data/tntp";
}

/* Short network names to TNTP paths. */
static const char *net_rel(const char *name)
{
    static const char *tab[][2] = {{"SiouxFalls", "SiouxFalls/SiouxFalls_net.tntp"},
                                   {"EMA", "Eastern-Massachusetts/EMA_net.tntp"},
                                   {"Anaheim", "Anaheim/Anaheim_net.tntp"},
                                   {"Barcelona", "Barcelona/Barcelona_net.tntp"},
                                   {"Winnipeg", "Winnipeg/Winnipeg_net.tntp"},
                                   {"ChicagoSketch", "Chicago-Sketch/ChicagoSketch_net.tntp"}};
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (!strcmp(tab[i][0], name)) return tab[i][1];
    return NULL;
}

static ds_network *load(const char *name)
{
    char path[1024];
    ds_error err;
    const char *rel = net_rel(name);
    if (!rel) {
        fprintf(stderr, "grid: unknown network %s\n", name);
        return NULL;
    }
    snprintf(path, sizeof path, "%s/%s", tntp_dir(), rel);
    ds_network *net = ds_network_load(path, NULL, NULL, NULL, &err);
    if (!net) {
        char buf[1200];
        ds_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "grid: %s\n", buf);
    }
    return net;
}

static ds_cost_params net_cost(const ds_network *net)
{
    ds_cost_params cp = {100, net->toll_factor, net->distance_factor};
    return cp;
}

/* ------------------------------------------------------------ one run */

#define MAX_REFRESH 64
typedef struct outcome {
    ds_status st;
    char reason[1024];
    char start_msg[512];  /* the engine's note when it had to move the start */
    int iters, evals, jv;
    double secs, gap;
    double *x;            /* final flows (owned) */
    /* eDSP: per refresh, links added/removed, oscillation, flows before it */
    int n_ref;
    int ref_no[MAX_REFRESH], ref_add[MAX_REFRESH], ref_rem[MAX_REFRESH], ref_osc[MAX_REFRESH];
    double *ref_x[MAX_REFRESH];
    char ref_msg[MAX_REFRESH][160]; /* the refresh messages, including the final unchanged one */
    int n_msg;
} outcome;

static void monitor(ds_run *run, const ds_event *ev, void *ctx)
{
    outcome *o = ctx;
    if (ev->kind == DS_EVENT_MESSAGE) {
        if (!strncmp(ev->message, "eDSP refresh", 12) && o->n_msg < MAX_REFRESH)
            snprintf(o->ref_msg[o->n_msg++], sizeof o->ref_msg[0], "%s", ev->message);
        else if (strstr(ev->message, "start"))
            snprintf(o->start_msg, sizeof o->start_msg, "%s", ev->message);
    } else if (ev->kind == DS_EVENT_ITER && ev->rec->kind == DS_STEP_MASK_REFRESH && o->n_ref < MAX_REFRESH) {
        int k = o->n_ref++;
        int n = ds_run_network(run)->n_links;
        o->ref_no[k] = ev->rec->mask_refresh;
        o->ref_add[k] = ev->rec->mask_added;
        o->ref_rem[k] = ev->rec->mask_removed;
        o->ref_osc[k] = ev->rec->mask_oscillation;
        /* the iterate is unchanged by the refresh: it is the converged flow of the previous mask */
        o->ref_x[k] = malloc(sizeof(double) * (size_t)n);
        if (o->ref_x[k]) ds_run_snapshot(run, o->ref_x[k], NULL, NULL);
    }
}

static void outcome_free(outcome *o)
{
    free(o->x);
    for (int k = 0; k < o->n_ref; k++) free(o->ref_x[k]);
    memset(o, 0, sizeof *o);
}

static void base_cfg(ds_config *c, const opts *op)
{
    ds_config_default(c);
    c->threads = op->threads;
    c->max_iter = op->max_iter;
    if (op->inner_max > 0) c->inner_max = op->inner_max;
    if (op->inner >= 0) c->inner = (ds_inner)op->inner;
}

/* What the tables were run with, for their captions. */
static const char *inner_desc(const opts *op)
{
    static char buf[128];
    ds_config d;
    ds_config_default(&d);
    ds_inner in = op->inner >= 0 ? (ds_inner)op->inner : d.inner;
    if (in == DS_INNER_PASSES)
        snprintf(buf, sizeof buf, "full-graph inner solver: passes, at most %d per evaluation",
                 op->inner_max > 0 ? op->inner_max : d.inner_max);
    else
        snprintf(buf, sizeof buf, "full-graph inner solver: %s", ds_inner_name(in));
    return buf;
}

static int solve(const ds_network *net, const ds_config *cfg, outcome *o)
{
    ds_error err;
    memset(o, 0, sizeof *o);
    ds_run *run = ds_run_create(net, cfg, &err);
    if (!run) {
        o->st = DS_STATUS_ERROR;
        ds_error_format(&err, o->reason, sizeof o->reason);
        return -1;
    }
    ds_run_add_monitor(run, monitor, o);
    double t0 = now_s();
    o->st = ds_run_execute(run);
    o->secs = now_s() - t0;
    ds_run_reason(run, o->reason, sizeof o->reason);
    size_t c = ds_run_history_count(run);
    o->gap = NAN;
    if (c > 0) {
        ds_iter_record r;
        ds_run_history_copy(run, c - 1, &r, 1);
        o->iters = r.iter;
        o->evals = r.evals;
        o->jv = r.jv;
        o->gap = r.gap_rel;
    }
    o->x = malloc(sizeof(double) * (size_t)net->n_links);
    if (o->x && ds_run_flows(run)) memcpy(o->x, ds_run_flows(run), sizeof(double) * (size_t)net->n_links);
    ds_run_free(run);
    return 0;
}

static double mape(const double *x, const double *ref, int n)
{
    ds_metrics m;
    if (ds_metrics_compare(x, ref, n, NULL, 1.0, &m) != 0) return NAN;
    return m.mape;
}

static int ue_flows(const ds_network *net, int threads, double gap, double *x, ds_ue_result *res)
{
    ds_ue_config uc;
    ds_error err;
    ds_ue_config_default(&uc);
    uc.gap = gap;
    uc.threads = threads;
    uc.cost = net_cost(net);
    int rc = ds_ue_solve(net, &uc, x, res, NULL, NULL, NULL, &err);
    if (rc != DS_UE_CONVERGED) {
        char buf[1200];
        ds_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "grid: UE on %s ended with code %d (gap %.3g) %s\n", net->name, rc, res->rel_gap,
                rc == DS_UE_ERROR ? buf : "");
    }
    return rc;
}

/* Markdown-safe one-line reason: '|' would break the table. */
static const char *md(const char *s)
{
    static char buf[4][1200];
    static int k;
    char *b = buf[k++ % 4];
    size_t j = 0;
    for (; *s && j + 2 < sizeof buf[0]; s++) b[j++] = *s == '|' ? '/' : *s;
    b[j] = 0;
    return b;
}

/* ------------------------------------------------------------- ladder */

static int cmd_ladder(const opts *op)
{
    ds_network *net = load("SiouxFalls");
    if (!net) return 2;
    int n = net->n_links;
    printf("Sioux Falls, base demand, %d threads, tol 1e-7, max %d iterations, %s.\n\n", op->threads, op->max_iter,
           inner_desc(op));
    printf("| tau | filter | solver | status | iterations | evaluations | J v | time s | gap_rel | max MAPE vs other "
           "converged solvers (%%) |\n|---:|---|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (int ti = 0; ti < N_TAU; ti++)
        for (int f = 0; f < 2; f++) {
            outcome o[DS_SOLVER_N];
            for (int s = 0; s < DS_SOLVER_N; s++) {
                ds_config c;
                base_cfg(&c, op);
                c.tau = TAUS[ti];
                c.filter = f ? DS_FILTER_DSP : DS_FILTER_FULL;
                c.solver = (ds_solver_kind)s;
                fprintf(stderr, "ladder tau %g %s %s\n", c.tau, ds_filter_name(c.filter), ds_solver_name(c.solver));
                solve(net, &c, &o[s]);
            }
            for (int s = 0; s < DS_SOLVER_N; s++) {
                double worst = -1;
                if (o[s].st == DS_STATUS_CONVERGED)
                    for (int s2 = 0; s2 < DS_SOLVER_N; s2++)
                        if (s2 != s && o[s2].st == DS_STATUS_CONVERGED) {
                            double m = mape(o[s].x, o[s2].x, n);
                            if (!(m <= worst)) worst = m;
                        }
                char wb[32];
                if (worst >= 0)
                    snprintf(wb, sizeof wb, "%.2e", worst);
                else
                    snprintf(wb, sizeof wb, "-");
                printf("| %g | %s | %s | %s | %d | %d | %d | %.3f | %.2e | %s |\n", TAUS[ti], f ? "dsp" : "full",
                       ds_solver_name((ds_solver_kind)s), ds_status_name(o[s].st), o[s].iters, o[s].evals, o[s].jv,
                       o[s].secs, o[s].gap, wb);
                fflush(stdout);
            }
            for (int s = 0; s < DS_SOLVER_N; s++) {
                if (o[s].st != DS_STATUS_CONVERGED && o[s].st != DS_STATUS_MAX_ITER)
                    printf("|  |  | %s: | %s |  |  |  |  |  |  |\n", ds_solver_name((ds_solver_kind)s), md(o[s].reason));
                outcome_free(&o[s]);
            }
        }
    ds_network_free(net);
    return 0;
}

/* ---------------------------------------------------------------- full */

/* rho of W(t(s x)) for the given flows; x NULL = the cap's costs. */
static void rho_at(ds_loader *ld, const ds_network *net, const ds_cost_params *cp, const double *x, double s,
                   double *lb, double *est)
{
    int n = net->n_links, d;
    double *t = malloc(sizeof(double) * (size_t)n), *xs = malloc(sizeof(double) * (size_t)n);
    if (!t || !xs) {
        *lb = *est = NAN;
        free(t), free(xs);
        return;
    }
    if (x) {
        for (int e = 0; e < n; e++) xs[e] = s * x[e];
        ds_costs_eval(net, cp, xs, t);
    } else {
        ds_costs_max(net, cp, t);
    }
    ds_loader_rho(ld, t, lb, est, &d);
    free(t), free(xs);
}

static int cmd_full(const opts *op, int argc, char **argv)
{
    static const char *def[] = {"SiouxFalls", "EMA", "Anaheim", "Barcelona", "Winnipeg"};
    const char **names = argc > 0 ? (const char **)argv : def;
    int nn = argc > 0 ? argc : 5;
    printf("Newton, full graph, base demand, cap 100, %d threads, tol 1e-7, %s, centroids %s.\n\n", op->threads,
           inner_desc(op), op->ignore_centroids ? "ignored (every node a through node)" : "honoured");
    printf("Spectral radius of W = exp(-mu t(x)) (destination rows removed, max over destinations): Collatz-Wielandt "
           "lower bound / power-iteration estimate, at free flow, at the UE flows, at 10x the UE flows, at the "
           "cap's costs (x/c = 100 on every link) and at the fixed point x* found. Total flow: sum of x* over sum of "
           "the UE flows (vehicle-links; cycling in the logit model makes it large).\n\n");
    printf("| network | tau | mu | status | iterations | evals | time s | rho free flow | rho UE | rho 10x UE | rho cap "
           "| rho at x* | total flow x*/UE | MAPE vs UE (%%) |\n|---|---:|---:|---|---:|---:|---:|---|---|---|---|---|---:|---:|\n");
    char notes[N_TAU * 8][1400];
    int n_notes = 0;
    for (int i = 0; i < nn; i++) {
        ds_network *net = load(names[i]);
        if (!net) continue;
        if (op->ignore_centroids) net->first_thru = 1;
        ds_cost_params cp = net_cost(net);
        double *xue = malloc(sizeof(double) * (size_t)net->n_links);
        ds_ue_result ur;
        fprintf(stderr, "full %s: UE\n", net->name);
        ue_flows(net, op->threads, 1e-6, xue, &ur);
        double cbar = ds_network_cbar(net, &cp);
        for (int ti = 0; ti < N_TAU; ti++) {
            ds_config c;
            outcome o;
            ds_error err;
            double mu = TAUS[ti] / cbar, r[5][2];
            base_cfg(&c, op);
            c.tau = TAUS[ti];
            c.filter = DS_FILTER_FULL;
            c.solver = DS_SOLVER_NEWTON;
            fprintf(stderr, "full %s tau %g\n", net->name, c.tau);
            solve(net, &c, &o);
            ds_loader *ld = ds_loader_create(net, &cp, DS_FILTER_FULL, mu, op->threads, 50, 1e-13, &err);
            for (int k = 0; k < 5; k++) r[k][0] = r[k][1] = NAN;
            if (ld) {
                rho_at(ld, net, &cp, xue, 0.0, &r[0][0], &r[0][1]);
                rho_at(ld, net, &cp, xue, 1.0, &r[1][0], &r[1][1]);
                rho_at(ld, net, &cp, xue, 10.0, &r[2][0], &r[2][1]);
                rho_at(ld, net, &cp, NULL, 0, &r[3][0], &r[3][1]);
                if (o.st == DS_STATUS_CONVERGED && o.x) rho_at(ld, net, &cp, o.x, 1.0, &r[4][0], &r[4][1]);
                ds_loader_free(ld);
            }
            char mb[32] = "-", tb[32] = "-";
            if (o.st == DS_STATUS_CONVERGED) {
                double sx = 0, su = 0;
                for (int e = 0; e < net->n_links; e++) sx += o.x[e], su += xue[e];
                snprintf(mb, sizeof mb, "%.3g", mape(o.x, xue, net->n_links));
                snprintf(tb, sizeof tb, "%.3g", sx / su);
            }
            printf("| %s | %g | %.4g | %s | %d | %d | %.2f |", net->name, TAUS[ti], mu, ds_status_name(o.st), o.iters,
                   o.evals, o.secs);
            for (int k = 0; k < 5; k++)
                if (isnan(r[k][0]))
                    printf(" - |");
                else
                    printf(" %.3g / %.3g |", r[k][0], r[k][1]);
            printf(" %s | %s |\n", tb, mb);
            fflush(stdout);
            if ((o.st != DS_STATUS_CONVERGED || o.start_msg[0]) && n_notes < (int)(sizeof notes / sizeof notes[0]))
                snprintf(notes[n_notes++], sizeof notes[0], "- %s, tau %g, %s: %s%s%s", net->name, TAUS[ti],
                         ds_status_name(o.st), md(o.reason), o.start_msg[0] ? " Start: " : "", md(o.start_msg));
            outcome_free(&o);
        }
        fprintf(stderr, "full %s: UE gap %.2e in %.2f s\n", net->name, ur.rel_gap, ur.seconds);
        free(xue);
        ds_network_free(net);
    }
    if (n_notes) printf("\nReasons and start notes, as the engine reported them:\n\n");
    for (int k = 0; k < n_notes; k++) printf("%s\n", notes[k]);
    return 0;
}

/* -------------------------------------------------------------- bridge */

static int cmd_bridge(const opts *op)
{
    ds_network *base = load("SiouxFalls");
    if (!base) return 2;
    int n = base->n_links, K = op->scenarios;
    printf("Sioux Falls, full graph, Newton to 1e-7, against the Wardrop UE of the same costs (bi-conjugate "
           "Frank-Wolfe, target relative gap 1e-8 within 100,000 iterations: the gap reached is in the table, cap 100); "
           "MAPE (%%) over links with UE flow >= 1 veh/h. Scenarios: paper eqs. 9-11 (ds_scenario_apply), seed %llu."
           "\n\n",
           op->seed);
    printf("| scenario | UE gap | UE s |");
    for (int ti = 0; ti < N_TAU; ti++) printf(" tau %g |", TAUS[ti]);
    printf(" monotone |\n|---|---:|---:|");
    for (int ti = 0; ti < N_TAU; ti++) printf("---:|");
    printf("---|\n");
    double sum[N_TAU] = {0}, all[64][N_TAU];
    int n_ok = 0;
    for (int k = 0; k <= K && k < 64; k++) {
        ds_network *net = ds_network_clone(base);
        ds_error err;
        if (!net) break;
        if (k > 0 && ds_scenario_apply(net, k, op->seed, NULL, &err) != 0) {
            ds_network_free(net);
            break;
        }
        double *xue = malloc(sizeof(double) * (size_t)n);
        ds_ue_result ur;
        fprintf(stderr, "bridge scenario %d: UE\n", k);
        ue_flows(net, op->threads, 1e-8, xue, &ur);
        double m[N_TAU];
        int mono = 1, ok = 1;
        char cells[N_TAU][64];
        for (int ti = 0; ti < N_TAU; ti++) {
            ds_config c;
            outcome o;
            base_cfg(&c, op);
            c.tau = TAUS[ti];
            c.filter = DS_FILTER_FULL;
            c.solver = DS_SOLVER_NEWTON;
            solve(net, &c, &o);
            m[ti] = o.st == DS_STATUS_CONVERGED ? mape(o.x, xue, n) : NAN;
            if (o.st == DS_STATUS_CONVERGED)
                snprintf(cells[ti], sizeof cells[0], "%.3f", m[ti]);
            else
                snprintf(cells[ti], sizeof cells[0], "%s", ds_status_name(o.st)), ok = 0;
            if (ti > 0 && !(m[ti] < m[ti - 1])) mono = 0;
            outcome_free(&o);
        }
        printf("| %s%d | %.1e | %.2f |", k ? "" : "base ", k, ur.rel_gap, ur.seconds);
        for (int ti = 0; ti < N_TAU; ti++) printf(" %s |", cells[ti]);
        printf(" %s |\n", mono ? "yes" : "no");
        fflush(stdout);
        if (k > 0 && ok) {
            for (int ti = 0; ti < N_TAU; ti++) sum[ti] += m[ti], all[n_ok][ti] = m[ti];
            n_ok++;
        }
        free(xue);
        ds_network_free(net);
    }
    if (n_ok > 0) {
        printf("| mean of %d scenarios | | |", n_ok);
        for (int ti = 0; ti < N_TAU; ti++) printf(" %.3f |", sum[ti] / n_ok);
        printf(" |\n");
        printf("| median of %d scenarios | | |", n_ok);
        for (int ti = 0; ti < N_TAU; ti++) {
            double v[64];
            for (int j = 0; j < n_ok; j++) v[j] = all[j][ti];
            for (int a = 1; a < n_ok; a++)
                for (int b = a; b > 0 && v[b] < v[b - 1]; b--) {
                    double tmp = v[b];
                    v[b] = v[b - 1], v[b - 1] = tmp;
                }
            printf(" %.3f |", n_ok % 2 ? v[n_ok / 2] : 0.5 * (v[n_ok / 2 - 1] + v[n_ok / 2]));
        }
        printf(" |\n");
    }
    printf("| paper (perturbed scenarios) | | | 28.6 | | | | 0.33 | |\n");
    ds_network_free(base);
    return 0;
}

/* ---------------------------------------------------------------- edsp */

static int cmd_edsp(const opts *op)
{
    static const double MUS[] = {0.1, 0.5, 1, 2, 5};
    ds_network *net = load("SiouxFalls");
    if (!net) return 2;
    int n = net->n_links;
    printf("Sioux Falls, base demand, eDSP (mask-cost damping %g%s) with Newton to 1e-7 per mask, at most 8 "
           "refreshes, %d threads. Refresh k: links added / removed summed over destinations (the rebuild from "
           "the converged flows of mask k-1), and MAPE (%%) of the converged flows of mask k-1 against the "
           "full-graph SUE at the same mu (the exact model this filter approximates). The final row is the "
           "last mask's converged flows.\n\n",
           op->damping, op->damping == 1 ? ": plain rebuild" : "", op->threads);
    for (int mi = 0; mi < 5; mi++) {
        ds_config c;
        outcome o, ref;
        base_cfg(&c, op);
        c.mu = MUS[mi];
        c.filter = DS_FILTER_FULL;
        c.solver = DS_SOLVER_NEWTON;
        fprintf(stderr, "edsp mu %g: full-graph reference\n", c.mu);
        solve(net, &c, &ref);
        c.filter = DS_FILTER_EDSP;
        c.edsp_damping = op->damping;
        fprintf(stderr, "edsp mu %g\n", c.mu);
        solve(net, &c, &o);
        printf("**mu = %g** (tau = %.3g): %s, %d iterations, %.3f s. Reference full graph: %s.\n\n", c.mu,
               c.mu * ds_network_cbar(net, &(ds_cost_params){100, net->toll_factor, net->distance_factor}),
               ds_status_name(o.st), o.iters, o.secs, ds_status_name(ref.st));
        printf("| refresh k | added | removed | oscillation | MAPE of mask k-1 flows vs full (%%) |\n"
               "|---:|---:|---:|---|---:|\n");
        int okref = ref.st == DS_STATUS_CONVERGED;
        for (int k = 0; k < o.n_ref; k++) {
            char mb[32] = "n/a";
            if (okref && o.ref_x[k]) snprintf(mb, sizeof mb, "%.3f", mape(o.ref_x[k], ref.x, n));
            printf("| %d | %d | %d | %s | %s |\n", o.ref_no[k], o.ref_add[k], o.ref_rem[k], o.ref_osc[k] ? "yes" : "no",
                   mb);
        }
        char mb[32] = "n/a";
        if (okref && o.x) snprintf(mb, sizeof mb, "%.3f", mape(o.x, ref.x, n));
        printf("| final | | | | %s |\n\n", mb);
        printf("Engine messages: ");
        for (int k = 0; k < o.n_msg; k++) printf("%s\"%s\"", k ? "; " : "", o.ref_msg[k]);
        printf(".\nReason: %s\n\n", md(o.reason));
        fflush(stdout);
        outcome_free(&o);
        outcome_free(&ref);
    }
    ds_network_free(net);
    return 0;
}

int main(int argc, char **argv)
{
    opts op = {2, 10000, 0, 0, -1, 0, 1.0, 1};
    if (argc < 2) {
        fprintf(stderr, "usage: grid ladder|full|bridge|edsp [--threads N] [--max-iter N] [--inner direct|passes] "
                        "[--inner-max N] [--scenarios K] [--seed S] [--damping D] [--centroids honour|ignore] "
                        "[NET...]\n");
        return 2;
    }
    const char *cmd = argv[1];
    int i = 2;
    for (; i < argc && !strncmp(argv[i], "--", 2); i += 2) {
        if (i + 1 >= argc) {
            fprintf(stderr, "grid: %s needs a value\n", argv[i]);
            return 2;
        }
        if (!strcmp(argv[i], "--threads"))
            op.threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--max-iter"))
            op.max_iter = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--inner-max"))
            op.inner_max = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--inner")) {
            if ((op.inner = ds_inner_parse(argv[i + 1])) < 0) {
                fprintf(stderr, "grid: unknown --inner %s\n", argv[i + 1]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--centroids")) {
            op.ignore_centroids = !strcmp(argv[i + 1], "ignore");
            if (!op.ignore_centroids && strcmp(argv[i + 1], "honour")) {
                fprintf(stderr, "grid: --centroids honour|ignore\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--damping")) {
            op.damping = atof(argv[i + 1]);
        } else if (!strcmp(argv[i], "--scenarios"))
            op.scenarios = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed"))
            op.seed = strtoull(argv[i + 1], NULL, 10);
        else {
            fprintf(stderr, "grid: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (!strcmp(cmd, "ladder")) return cmd_ladder(&op);
    if (!strcmp(cmd, "full")) return cmd_full(&op, argc - i, argv + i);
    if (!strcmp(cmd, "bridge")) return cmd_bridge(&op);
    if (!strcmp(cmd, "edsp")) return cmd_edsp(&op);
    fprintf(stderr, "grid: unknown command %s\n", cmd);
    return 2;
}
