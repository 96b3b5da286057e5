/* loadmap.c - wall time of one loading-map evaluation per TNTP network and
 * variant, and how close the full-graph inner (Bellman) pass runs to the
 * machine's memory bandwidth.
 *
 * Usage: loadmap [--quick] [--net SUBSTRING] [--budget SECONDS] [--variant V]
 * Networks come from $DILLSUE_TNTP_DIR (default ../shared/data/tntp); with no
 * data it says so and exits 0. Output is Markdown on stdout.
 *
 * Variants, timed at x = 0.5 x capacity (the full graph at the first point of
 * g_points where f exists there, if any):
 *   full/direct the exact sparse-LU inner solve (the default of runs).
 *   full/50   the paper's L_val = 50 passes: inner_max 50, inner_tol far below
 *             round-off and the warm start forgotten before every evaluation,
 *             so each destination runs its 50 passes unless its values reach
 *             an exact floating-point fixed point first (the passes column
 *             says what ran).
 *   full/warm passes with the engine's default inner_max/inner_tol,
 *             warm-started as inside a solver: evaluations alternate between
 *             x and x (1 + WARM_STEP), each starting from the other's values.
 *   dsp       one topological pass per destination on the free-flow DAG.
 * The warm start is reset through the engine-internal loader struct: there is
 * no public call for it, and a fresh loader per evaluation would time setup.
 */
#include <float.h>
#include <pthread.h>

#include "bench_util.h"
#include "loader_int.h"

/* Bellman stop far below round-off (so passes end only at an exact
 * floating-point fixed point); the same tolerance ends the absorption sweeps. */
#define PASS50_TOL 1e-17
/* full/warm and dsp alternate between x and x (1 + WARM_STEP): a mid-solve step */
#define WARM_STEP 1e-2

static int g_quick;
static double g_budget = 1.0;
/* --variant: time only this variant (for profiling one case with perf) */
static const char *g_variant;

static int want(const char *variant) { return !g_variant || !strcmp(g_variant, variant); }

/* --------------------------------------------------------------- triad */

typedef struct triad_arg {
    pthread_barrier_t *bar;
    size_t n;
    int iters;
    double t0, t1;
    double sink;
} triad_arg;

static void *triad_thread(void *p)
{
    triad_arg *a = p;
    double *x = malloc(sizeof(double) * a->n), *y = malloc(sizeof(double) * a->n), *z = malloc(sizeof(double) * a->n);
    if (!x || !y || !z) {
        free(x), free(y), free(z);
        a->t0 = a->t1 = NAN;
        pthread_barrier_wait(a->bar);
        return NULL;
    }
    /* first touch by the thread that streams them */
    for (size_t i = 0; i < a->n; i++) x[i] = 0, y[i] = 1.0 + (double)(i & 7), z[i] = 2.0;
    pthread_barrier_wait(a->bar);
    a->t0 = bu_now();
    for (int it = 0; it < a->iters; it++) {
        double s = 3.0 + 1e-9 * it; /* a different scalar each sweep: no sweep can be elided */
        for (size_t i = 0; i < a->n; i++) x[i] = y[i] + s * z[i];
    }
    a->t1 = bu_now();
    a->sink = x[a->n / 2];
    free(x), free(y), free(z);
    return NULL;
}

/* Best-of-trials triad bandwidth in GB/s (24 bytes per element, STREAM's count:
 * no write-allocate traffic) with n elements per array per thread. */
static double triad_gbs(int threads, size_t n, int iters, int trials)
{
    double best = 0;
    for (int tr = 0; tr < trials; tr++) {
        pthread_t th[8];
        triad_arg arg[8];
        pthread_barrier_t bar;
        pthread_barrier_init(&bar, NULL, (unsigned)threads);
        for (int i = 0; i < threads; i++) {
            arg[i] = (triad_arg){&bar, n, iters, 0, 0, 0};
            pthread_create(&th[i], NULL, triad_thread, &arg[i]);
        }
        for (int i = 0; i < threads; i++) pthread_join(th[i], NULL);
        pthread_barrier_destroy(&bar);
        double t0 = INFINITY, t1 = -INFINITY;
        for (int i = 0; i < threads; i++) {
            if (arg[i].t0 < t0) t0 = arg[i].t0;
            if (arg[i].t1 > t1) t1 = arg[i].t1;
        }
        double gbs = 24.0 * (double)n * iters * threads / (t1 - t0) / 1e9;
        if (gbs > best) best = gbs;
    }
    return best;
}

static double g_triad_dram[3], g_triad_l2[3]; /* by thread count 1, 2 */

static void run_triads(void)
{
    size_t big = g_quick ? (size_t)4 << 20 : (size_t)16 << 20; /* 3 x 32/128 MB per thread: far beyond L3 */
    size_t small = 8192;                                       /* 3 x 64 KB: in L2, not in L1 */
    printf("## Memory bandwidth (STREAM-like triad a[i] = b[i] + s c[i], 24 bytes per element, best of trials)\n\n");
    printf("| working set per thread | threads | GB/s |\n|---|---:|---:|\n");
    for (int t = 1; t <= 2; t++) {
        g_triad_dram[t] = triad_gbs(t, big, g_quick ? 3 : 5, 3);
        printf("| 3 x %zu MB (DRAM) | %d | %.1f |\n", big * 8 >> 20, t, g_triad_dram[t]);
    }
    for (int t = 1; t <= 2; t++) {
        g_triad_l2[t] = triad_gbs(t, small, 2000, 15); /* many short trials: this VM's clock is noisy */
        printf("| 3 x %zu KB (L2) | %d | %.1f |\n", small * 8 >> 10, t, g_triad_l2[t]);
    }
    printf("\n");
    fflush(stdout);
}

/* --------------------------------------------------------------- timing */

enum { ST_OK = 0, ST_ILL = 1, ST_UNCONV = 2, ST_ERR = -1 };

typedef struct timing {
    int status;
    double med, min, bell, absorb; /* seconds; bell/absorb are medians of the phase times */
    int reps;
    int pmax;          /* max Bellman passes over destinations (last eval) */
    double pmean;      /* mean passes per destination */
    double pass_bytes; /* sum over destinations of passes x bytes one pass touches */
} timing;

/* Bytes one Gauss-Seidel pass touches for each destination, counting every
 * array once (the gathers z[v] are cache hits on a vector already counted):
 * per usable link its weight (8) and head index (4); per node its order entry
 * (4), link-range entry (4), value read (8) and written (8). */
static double *pass_bytes_per_dest(const ds_network *net, const ds_cost_params *cp)
{
    int n = net->n_nodes, m = net->n_links;
    double *b = calloc((size_t)net->n_dest, sizeof(double));
    double *t = malloc(sizeof(double) * (size_t)m), *x = calloc((size_t)m, sizeof(double));
    double *dist = malloc(sizeof(double) * (size_t)n);
    if (!b || !t || !x || !dist) {
        free(b), free(t), free(x), free(dist);
        return NULL;
    }
    ds_costs_eval(net, cp, x, t);
    for (int di = 0; di < net->n_dest; di++) {
        int d = net->dest_node[di];
        long R = 0, cnt = 0;
        ds_sp_to_dest(net, t, d, dist, NULL, NULL);
        for (int v = 0; v < n; v++) R += dist[v] < INFINITY;
        for (int e = 0; e < m; e++)
            if (dist[net->tail[e]] < INFINITY && dist[net->head[e]] < INFINITY && sp_link_usable(net, e, d)) cnt++;
        b[di] = 12.0 * (double)cnt + 24.0 * (double)(R - 1);
    }
    free(t), free(x), free(dist);
    return b;
}

static void forget_warm_start(ds_loader *ld)
{
    if (!ld->V) return;
    for (size_t i = 0; i < (size_t)ld->n_dest * (size_t)ld->net->n_nodes; i++) ld->V[i] = -INFINITY;
}

/* Time ds_loader_eval. cold: forget the warm start before each evaluation;
 * else alternate between xa and xb. One untimed evaluation first. */
static timing time_evals(ds_loader *ld, const double *xa, const double *xb, double *f, int cold,
                         const double *bytes_dest)
{
    enum { MAXR = 400 };
    double tv[MAXR], tb[MAXR], ta[MAXR], spent = 0;
    int minreps = g_quick ? 2 : 3, rc;
    timing r;
    ds_load_stats st;
    memset(&r, 0, sizeof r);
    if (cold) forget_warm_start(ld);
    rc = ds_loader_eval(ld, cold ? xa : xb, f);
    ds_loader_stats(ld, &st);
    if (rc < 0) {
        r.status = ST_ERR;
        return r;
    }
    if (rc > 0 && !st.unconverged) {
        r.status = ST_ILL;
        return r;
    }
    while (r.reps < MAXR && (r.reps < minreps || spent < g_budget)) {
        const double *x = (cold || r.reps % 2 == 0) ? xa : xb;
        if (cold) forget_warm_start(ld);
        double t0 = bu_now();
        rc = ds_loader_eval(ld, x, f);
        double dt = bu_now() - t0;
        ds_loader_stats(ld, &st);
        tv[r.reps] = dt;
        tb[r.reps] = st.t_phase[DS_PHASE_BELLMAN];
        ta[r.reps] = st.t_phase[DS_PHASE_ABSORB];
        r.reps++;
        spent += dt;
        if (rc < 0) {
            r.status = ST_ERR;
            return r;
        }
        if (rc > 0) r.status = st.unconverged ? ST_UNCONV : ST_ILL;
        if (spent > 5 * g_budget) break; /* slow rows: fewer than minreps */
    }
    r.min = INFINITY;
    for (int i = 0; i < r.reps; i++)
        if (tv[i] < r.min) r.min = tv[i];
    r.med = bu_median(tv, r.reps);
    r.bell = bu_median(tb, r.reps);
    r.absorb = bu_median(ta, r.reps);
    r.pmax = st.bellman_passes;
    {
        long sum = 0;
        for (int di = 0; di < ld->n_dest; di++) {
            sum += ld->st_bpass[di];
            if (bytes_dest) r.pass_bytes += bytes_dest[di] * ld->st_bpass[di];
        }
        r.pmean = (double)sum / ld->n_dest;
    }
    return r;
}

/* --------------------------------------------------------------- networks */

typedef struct bnet {
    char sub[256];
    ds_network *net;
} bnet;

static int cmp_bnet(const void *a, const void *b)
{
    const bnet *x = a, *y = b;
    return (x->net->n_links > y->net->n_links) - (x->net->n_links < y->net->n_links);
}

static int load_networks(const char *dir, const char *only, bnet *out, int max)
{
    DIR *dp = opendir(dir);
    struct dirent *de;
    int n = 0;
    if (!dp) return -1;
    while ((de = readdir(dp)) != NULL && n < max) {
        char path[1024];
        ds_error err;
        if (de->d_name[0] == '.') continue;
        if (only && !strcasestr(de->d_name, only)) continue;
        if (bu_find_net(dir, de->d_name, path, sizeof path) != 0) continue;
        ds_network *net = ds_network_load(path, NULL, NULL, NULL, &err);
        if (!net) {
            char msg[1200];
            ds_error_format(&err, msg, sizeof msg);
            fprintf(stderr, "loadmap: skipping %s: %s\n", de->d_name, msg);
            continue;
        }
        if (net->n_dest == 0) {
            ds_network_free(net);
            continue;
        }
        snprintf(out[n].sub, sizeof out[n].sub, "%s", de->d_name);
        out[n++].net = net;
    }
    closedir(dp);
    qsort(out, (size_t)n, sizeof *out, cmp_bnet);
    return n;
}

/* ------------------------------------------------------------------ main */

typedef struct target_note {
    char text[4][400];
    int n;
} target_note;

static target_note g_targets;

/* Rows of the bandwidth table, collected while timing. */
typedef struct bw_row {
    char net[64];
    double tau, load;
    int threads;
    double bytes, pass_s, bell50, bell1;
} bw_row;
static bw_row g_bw[64];
static int g_nbw;

static void row(const bnet *bn, const char *variant, double tau, double load, int threads, const timing *r)
{
    const ds_network *net = bn->net;
    char med[32], mn[32];
    printf("| %s | %d | %d | %d | %s | %g | %g | %d | ", net->name, net->n_nodes, net->n_links, net->n_dest, variant,
           tau, load, threads);
    if (r->status == ST_ILL || r->status == ST_ERR) {
        printf("%s | - | - | - | - | - | - | - |\n", r->status == ST_ILL ? "**ill-posed**" : "error");
    } else {
        char pb[32], pa[32], ps[48];
        bu_fmt_time(r->med, med, sizeof med);
        bu_fmt_time(r->min, mn, sizeof mn);
        bu_fmt_time(r->bell, pb, sizeof pb);
        bu_fmt_time(r->absorb, pa, sizeof pa);
        if (!strcmp(variant, "full/direct"))
            snprintf(ps, sizeof ps, "LU");
        else
            snprintf(ps, sizeof ps, "%d / %.1f", r->pmax, r->pmean);
        printf("%s%s | %s | %s | %d | %s | %s | %.1f | %.3g |\n", ps,
               r->status == ST_UNCONV ? " (unconverged: no f)" : "", med, mn, r->reps, pb, pa, 1.0 / r->med,
               (double)net->n_links * net->n_dest / r->med);
    }
    fflush(stdout);
}

/* Where the full graph is timed: x = load x capacity at tau; the first point
 * of this list where f exists (x = 0.5 capacity at tau 10 first, then larger
 * tau, then heavier loads at tau 10). */
static const struct {
    double tau, load;
} g_points[] = {{10, 0.5}, {30, 0.5}, {100, 0.5}, {10, 1}, {10, 2}, {10, 4}};

static void set_load(const ds_network *net, double load, double *xa, double *xb)
{
    for (int e = 0; e < net->n_links; e++) {
        xa[e] = load * net->capacity[e];
        xb[e] = xa[e] * (1 + WARM_STEP);
    }
}

static void bench_network(const bnet *bn)
{
    const ds_network *net = bn->net;
    ds_cost_params cp = bu_cost_params(net);
    double cbar = ds_network_cbar(net, &cp);
    int m = net->n_links;
    int heavy = (double)m * net->n_dest > 5e6; /* Chicago-Sketch, Berlin-Center */
    double *xa = malloc(sizeof(double) * (size_t)m), *xb = malloc(sizeof(double) * (size_t)m);
    double *f = malloc(sizeof(double) * (size_t)m), *t = malloc(sizeof(double) * (size_t)m);
    double *bytes = pass_bytes_per_dest(net, &cp);
    char ill_note[1024] = "";
    size_t il = 0;
    ds_config dc;
    ds_error err;
    ds_config_default(&dc);
    if (!xa || !xb || !f || !t) goto out;

    /* the direct solve's existence test is exact, so it decides where f exists */
    for (size_t pi = 0; pi < sizeof g_points / sizeof g_points[0] && !(g_quick && heavy); pi++) {
        double tau = g_points[pi].tau, load = g_points[pi].load, mu = tau / cbar;
        set_load(net, load, xa, xb);
        ds_costs_eval(net, &cp, xa, t);
        for (int th = 1; th <= 2; th++) {
            ds_loader *ld = ds_loader_create(net, &cp, DS_FILTER_FULL, mu, th, dc.inner_max, dc.inner_tol, &err);
            if (!ld || ds_loader_set_inner(ld, DS_INNER_DIRECT) != 0) {
                fprintf(stderr, "loadmap: %s: %s\n", net->name, ld ? "out of memory (direct)" : err.msg);
                ds_loader_free(ld);
                goto out;
            }
            timing rd = time_evals(ld, xa, xb, f, 0, NULL); /* also decides where f exists */
            if (rd.status == ST_ILL) {
                double lb, est;
                int d;
                ds_loader_rho(ld, t, &lb, &est, &d);
                if (il < sizeof ill_note - 1)
                    il += (size_t)snprintf(ill_note + il, sizeof ill_note - il, "%stau %g at %g c (rho %.3g)",
                                           il ? ", " : "", tau, load, est);
                ds_loader_free(ld);
                break;
            }
            if (th == 1 && il > 0) {
                printf("| %s | %d | %d | %d | full | | | | **ill-posed**: f does not exist at %s | - | - | - | - | "
                       "- | - | - |\n",
                       net->name, net->n_nodes, net->n_links, net->n_dest, ill_note);
                il = 0;
            }
            if (want("full/direct")) row(bn, "full/direct", tau, load, th, &rd);
            ds_loader_free(ld);

            timing r50 = {ST_ERR, 0, 0, 0, 0, 0, 0, 0, 0};
            if (want("full/50")) {
                ld = ds_loader_create(net, &cp, DS_FILTER_FULL, mu, th, 50, PASS50_TOL, &err);
                if (!ld) goto out;
                r50 = time_evals(ld, xa, xb, f, 1, bytes);
                row(bn, "full/50", tau, load, th, &r50);
                ds_loader_free(ld);
            }

            /* one pass only: the same setup (Dijkstra, weights) without the
             * remaining passes, for the pass-time difference */
            ld = r50.status == ST_OK ? ds_loader_create(net, &cp, DS_FILTER_FULL, mu, th, 1, PASS50_TOL, &err) : NULL;
            if (ld && bytes && g_nbw < 64) {
                timing r1 = time_evals(ld, xa, xb, f, 1, bytes);
                bw_row *b = &g_bw[g_nbw++];
                snprintf(b->net, sizeof b->net, "%.63s", net->name);
                b->tau = tau;
                b->load = load;
                b->threads = th;
                b->bytes = r50.pass_bytes - r1.pass_bytes;
                b->bell50 = r50.bell;
                b->bell1 = r1.bell;
                b->pass_s = r50.bell - r1.bell;
            }
            ds_loader_free(ld);

            ld = want("full/warm")
                     ? ds_loader_create(net, &cp, DS_FILTER_FULL, mu, th, dc.inner_max, dc.inner_tol, &err)
                     : NULL;
            if (ld) {
                timing rw = time_evals(ld, xa, xb, f, 0, NULL);
                row(bn, "full/warm", tau, load, th, &rw);
                ds_loader_free(ld);
            }
            if (th == 2 && strcasestr(net->name, "barcelona") && g_targets.n < 4) {
                char a[32], b[32];
                bu_fmt_time(r50.status == ST_OK ? r50.med : -1, a, sizeof a);
                bu_fmt_time(rd.med, b, sizeof b);
                snprintf(g_targets.text[g_targets.n++], 400,
                         "Barcelona full graph, 2 threads, tau %g, x = %g capacity%s: 50 passes %s, direct %s - "
                         "target <= 50 ms: 50 passes %s, direct %s",
                         tau, load, tau != 10 || load != 0.5 ? " (f does not exist at tau 10, x = 0.5 c)" : "", a, b,
                         r50.status == ST_OK && r50.med <= 0.05 ? "**met**" : "**missed**",
                         rd.med <= 0.05 ? "**met**" : "**missed**");
            }
            if (th == 2) pi = sizeof g_points / sizeof g_points[0]; /* done */
        }
    }
    if (il > 0)
        printf(
            "| %s | %d | %d | %d | full | | | | **ill-posed**: f does not exist at %s | - | - | - | - | - | - | - |\n",
            net->name, net->n_nodes, net->n_links, net->n_dest, ill_note);

    set_load(net, 0.5, xa, xb);
    for (int th = 1; th <= 2 && want("dsp"); th++) {
        double mu = 10 / cbar;
        ds_loader *ld = ds_loader_create(net, &cp, DS_FILTER_DSP, mu, th, dc.inner_max, dc.inner_tol, &err);
        if (!ld) {
            fprintf(stderr, "loadmap: %s dsp: %s\n", net->name, err.msg);
            break;
        }
        timing r = time_evals(ld, xa, xb, f, 0, NULL);
        row(bn, "dsp", 10, 0.5, th, &r);
        ds_loader_free(ld);
        if (th == 2 && strcasestr(net->name, "berlin") && g_targets.n < 4) {
            char a[32];
            bu_fmt_time(r.med, a, sizeof a);
            snprintf(g_targets.text[g_targets.n++], 400, "Berlin-Center dsp, 2 threads: %s - target <= 1 s %s", a,
                     r.med <= 1 ? "**met**" : "**missed**");
        }
    }
out:
    free(xa), free(xb), free(f), free(t), free(bytes);
}

int main(int argc, char **argv)
{
    const char *only = NULL, *dir = bu_tntp_dir();
    bnet nets[32];
    int n;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            g_quick = 1;
        else if (!strcmp(argv[i], "--net") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--budget") && i + 1 < argc)
            g_budget = atof(argv[++i]);
        else if (!strcmp(argv[i], "--variant") && i + 1 < argc)
            g_variant = argv[++i];
        else {
            fprintf(stderr, "usage: loadmap [--quick] [--net SUBSTRING] [--budget SECONDS] [--variant "
                            "full/direct|full/50|full/warm|dsp]\n");
            return 2;
        }
    }
    if (g_quick && g_budget == 1.0) g_budget = 0.25;
    n = load_networks(dir, only, nets, 32);
    if (n <= 0) {
        printf("loadmap: no TNTP networks found in %s (set DILLSUE_TNTP_DIR): nothing to time\n", dir);
        return 0;
    }
    if (!g_variant) run_triads();
    printf("## One loading-map evaluation at x = 0.5 x capacity\n\n");
    printf("Variants: full/direct = full graph, exact sparse-LU inner solve per destination (the engine's default "
           "for runs); full/50 = full graph, up to 50 Bellman passes from a cold start (inner_tol %g: passes stop "
           "only at an exact floating-point fixed point; absorption sweeps to the same tolerance); full/warm = "
           "passes with the default inner_max/inner_tol, warm-started as inside a solver (evaluations alternate "
           "between x and x (1 + %g)); dsp = "
           "one pass on the free-flow DAG. passes = max / mean over destinations. Bellman and absorb are the phase "
           "times (medians; Bellman includes the Dijkstra and the weights, for direct the LU factorisation and "
           "solve). link-flows/s = links x destinations / median. Budget %.2g s of timed evaluations per row (at "
           "least %d).%s\n\n",
           PASS50_TOL, WARM_STEP, g_budget, g_quick ? 2 : 3,
           g_quick ? " Quick mode: Chicago-Sketch and Berlin-Center full graph skipped." : "");
    printf("| network | nodes | links | dest | variant | tau | x/c | thr | passes | median | min | reps | Bellman | "
           "absorb | eval/s | link-flows/s |\n");
    printf("|---|---:|---:|---:|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < n; i++) bench_network(&nets[i]);

    printf("\n## Full-graph inner pass vs memory bandwidth\n\n");
    printf("pass time = Bellman-phase time with 50 passes minus with 1 pass (same Dijkstra and weights), both cold; "
           "bytes = sum over destinations of (passes run - 1) x (12 per usable link + 24 per node), every array "
           "counted once per pass.\n\n");
    printf("| network | tau | x/c | thr | bytes per eval (MB) | pass time | GB/s | vs DRAM triad | vs L2 triad |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < g_nbw; i++) {
        bw_row *b = &g_bw[i];
        char pt[32];
        double gbs = b->pass_s > 0 ? b->bytes / b->pass_s / 1e9 : NAN;
        bu_fmt_time(b->pass_s, pt, sizeof pt);
        printf("| %s | %g | %g | %d | %.1f | %s | %.1f | %.0f%% | %.0f%% |\n", b->net, b->tau, b->load, b->threads,
               b->bytes / 1e6, pt, gbs, 100 * gbs / g_triad_dram[b->threads], 100 * gbs / g_triad_l2[b->threads]);
    }
    printf("\n## Targets\n\n");
    if (g_targets.n == 0) printf("- (Barcelona and Berlin-Center not in this run)\n");
    for (int i = 0; i < g_targets.n; i++) printf("- %s\n", g_targets.text[i]);
    printf("\n");
    for (int i = 0; i < n; i++) ds_network_free(nets[i].net);
    return 0;
}
