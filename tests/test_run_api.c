/* test_run_api.c - the run API around the solve: set-up on the engine thread
 * (phases, progress events, cheap create), the engine's clock (pauses
 * excluded, time to tolerance) and the end-of-run certificate. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>

#include "dillsue.h"
#include "ds_scenario.h"
#include "ds_ue.h"
#include "tcheck.h"
#include "clock.h"

struct events {
    int n_setup, setup_monotone, n_iter, n_done;
    double last_progress;
    int phase_seen_in_setup; /* ds_run_phase said 1 while a set-up event was delivered */
};

static void monitor(ds_run *run, const ds_event *ev, void *ctx)
{
    struct events *e = ctx;
    if (ev->kind == DS_EVENT_SETUP) {
        if (ev->progress < e->last_progress) e->setup_monotone = 0;
        e->last_progress = ev->progress;
        e->n_setup++;
        char label[128];
        double p;
        if (ds_run_phase(run, &p, label, sizeof label) == 1 && label[0] && p == ev->progress) e->phase_seen_in_setup++;
    } else if (ev->kind == DS_EVENT_ITER) {
        e->n_iter++;
    } else if (ev->kind == DS_EVENT_DONE) {
        e->n_done++;
    }
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void *exec_thread(void *arg)
{
    ds_run_execute(arg);
    return NULL;
}

static void test_setup_and_certificate(const ds_network *net, const char *name, ds_filter filter)
{
    char tname[128];
    ds_config cfg;
    ds_error err;
    struct events ev = {0, 1, 0, 0, 0, 0};
    ds_config_default(&cfg);
    cfg.filter = filter;
    cfg.tau = 10;
    snprintf(tname, sizeof tname, "run_api_setup_certificate_%s_%s", name, ds_filter_name(filter));
    tc_begin(tname);
    ds_run *run = ds_run_create(net, &cfg, &err);
    TC_CHECK(run != NULL, "create: %s", err.msg);
    if (!run) return tc_end();
    TC_CHECK(ds_run_phase(run, NULL, NULL, 0) == 0, "phase before execute");
    TC_CHECK(ds_run_mu(run) == 0, "mu before set-up %g", ds_run_mu(run));
    ds_run_add_monitor(run, monitor, &ev);
    ds_status st = ds_run_execute(run);
    TC_CHECK(st == DS_STATUS_CONVERGED, "status %s", ds_status_name(st));
    TC_CHECK(ev.n_setup >= 2 && ev.setup_monotone, "%d set-up events, monotone %d", ev.n_setup, ev.setup_monotone);
    TC_CHECK(ev.phase_seen_in_setup == ev.n_setup, "phase/label during set-up %d of %d", ev.phase_seen_in_setup,
             ev.n_setup);
    TC_CHECK(ds_run_phase(run, NULL, NULL, 0) == 3, "phase after execute");
    TC_CHECK(ds_run_mu(run) > 0 && ds_run_cbar(run) > 0, "mu %g cbar %g", ds_run_mu(run), ds_run_cbar(run));
    TC_NEAR(ds_run_cbar(run), ds_network_cbar(net, &ds_run_config(run)->cost),
            0.0); /* same trees, same summation order */
    ds_run_times tm;
    ds_run_times_get(run, &tm);
    TC_CHECK(tm.wall > 0 && tm.setup > 0 && tm.setup <= tm.wall, "wall %g setup %g", tm.wall, tm.setup);
    TC_CHECK(tm.t_tol > 0 && tm.t_tol <= tm.wall, "t_tol %g wall %g", tm.t_tol, tm.wall);
    TC_CHECK(tm.paused == 0, "paused %g", tm.paused);
    ds_certificate c;
    TC_CHECK(ds_run_certificate(run, &c) == 0 && c.valid, "certificate");
    TC_CHECK(c.demand_total == net->total_demand, "total %g", c.demand_total);
    TC_CHECK(c.lost_pct >= 0 && c.lost_pct < 1e-9, "lost %g %%", c.lost_pct);
    TC_NEAR(c.demand_arrived, c.demand_loaded, 1e-9 * c.demand_total);
    /* at a fixed point to 1e-7 the iterate conserves flow to about gap x flow */
    TC_CHECK(c.max_imbalance < 1e-4 * c.demand_total, "imbalance %g at node %d", c.max_imbalance, c.imbalance_node);
    /* the last history row carries the same certificate */
    size_t nh = ds_run_history_count(run);
    ds_iter_record last;
    TC_CHECK(nh > 0 && ds_run_history_copy(run, nh - 1, &last, 1) == 1, "history");
    TC_NEAR(last.imbalance, c.max_imbalance, 0.0);
    TC_NEAR(last.lost_pct, c.lost_pct, 0.0);
    ds_run_free(run);
    tc_end();
}

/* ds_run_lost_demand: -1 before set-up, then the OD pairs without a path and
 * their demand, as a loader of the same filter finds them, under every filter. */
static void test_lost_demand(void)
{
    static const char net_text[] = "<NUMBER OF ZONES> 3\n<NUMBER OF NODES> 4\n<FIRST THRU NODE> 4\n"
                                   "<NUMBER OF LINKS> 4\n<END OF METADATA>\n"
                                   "1 4 100 1 1 0.15 4 1 0 1;\n4 2 100 1 1 0.15 4 1 0 1;\n"
                                   "2 4 100 1 1 0.15 4 1 0 1;\n4 1 100 1 2 0.15 4 1 0 1;\n";
    static const char trips[] = "<NUMBER OF ZONES> 3\n<END OF METADATA>\nOrigin 1\n 2 : 5; 3 : 7;\n"
                                "Origin 2\n 1 : 4;\n";
    ds_error err = {0};
    ds_network *net =
        ds_network_parse(net_text, sizeof net_text - 1, "l.net.tntp", trips, sizeof trips - 1, "l.trips.tntp", &err);
    tc_begin("run_api_lost_demand");
    TC_CHECK(net != NULL, "parse: %s", err.msg);
    for (int f = 0; net && f < 3; f++) {
        ds_filter filt = f == 0 ? DS_FILTER_FULL : f == 1 ? DS_FILTER_DSP : DS_FILTER_EDSP;
        ds_config cfg;
        ds_config_default(&cfg);
        cfg.filter = filt;
        ds_run *run = ds_run_create(net, &cfg, &err);
        int n_od = -5;
        double q = -5;
        TC_CHECK(run && ds_run_lost_demand(run, &n_od, &q) == -1, "%s: answered before execute", ds_filter_name(filt));
        if (!run) continue;
        ds_run_execute(run);
        TC_CHECK(ds_run_lost_demand(run, &n_od, &q) == 0 && n_od == 1 && q == 7, "%s: %d OD pairs, demand %g",
                 ds_filter_name(filt), n_od, q);
        ds_run_free(run);
    }
    ds_network_free(net);
    tc_end();
}

/* A run paused for a while: the pause is not run time, and records' t_run skip it. */
static void test_pause_excluded(const ds_network *net)
{
    ds_config cfg;
    ds_error err;
    pthread_t th;
    ds_config_default(&cfg);
    cfg.solver = DS_SOLVER_MSA; /* never converges to 1e-14: runs until cancelled */
    cfg.tol = 1e-14;
    cfg.max_iter = 100000000;
    tc_begin("run_api_pause_not_counted");
    ds_run *run = ds_run_create(net, &cfg, &err);
    TC_CHECK(run != NULL, "create: %s", err.msg);
    if (!run) return tc_end();
    double t0 = ds_clock_now();
    pthread_create(&th, NULL, exec_thread, run);
    while (ds_run_history_count(run) < 3) sleep_ms(1);
    ds_run_pause(run, 1);
    sleep_ms(400);
    size_t n_paused = ds_run_history_count(run);
    sleep_ms(100);
    TC_CHECK(ds_run_history_count(run) == n_paused, "records published while paused");
    ds_run_times mid;
    ds_run_times_get(run, &mid);
    ds_run_pause(run, 0);
    sleep_ms(50);
    ds_run_cancel(run);
    pthread_join(th, NULL);
    double total = ds_clock_now() - t0;
    ds_run_times tm;
    ds_run_times_get(run, &tm);
    TC_CHECK(mid.paused >= 0.35, "paused so far %g s while paused", mid.paused);
    TC_CHECK(tm.paused >= 0.45, "paused %g s", tm.paused);
    TC_CHECK(tm.wall + tm.paused <= total + 1e-3, "wall %g + paused %g > elapsed %g", tm.wall, tm.paused, total);
    TC_CHECK(tm.wall < total - 0.4, "wall %g counts the pause (elapsed %g)", tm.wall, total);
    size_t nh = ds_run_history_count(run);
    ds_iter_record last;
    ds_run_history_copy(run, nh - 1, &last, 1);
    TC_CHECK(last.t_run <= tm.wall + 1e-9, "t_run %g > wall %g", last.t_run, tm.wall);
    TC_CHECK(tm.t_tol < 0, "t_tol %g for a run that never reached tol", tm.t_tol);
    /* nor is it in any record's phase times (it was billed to "other" of the
     * iteration after the pause: the TUI's timings panel showed other 83 %) */
    double phases = 0;
    for (size_t i = 0; i < nh; i++) {
        ds_iter_record rec;
        ds_run_history_copy(run, i, &rec, 1);
        for (int p = 0; p < DS_PHASE_N; p++) phases += rec.t_phase[p];
    }
    TC_CHECK(phases <= tm.wall + 1e-3, "phase times %g s > run time %g s (the pause counted)", phases, tm.wall);
    ds_run_free(run);
    tc_end();
}

/* A cancel during set-up ends the run there, cancelled, before any iteration:
 * the monitor cancels on the k-th set-up event. */
static void cancel_on_setup(ds_run *run, const ds_event *ev, void *ctx)
{
    int *left = ctx;
    if (ev->kind == DS_EVENT_SETUP && --*left == 0) ds_run_cancel(run);
}

static void test_cancel_in_setup(const ds_network *net)
{
    ds_config cfg;
    ds_error err;
    char reason[512];
    ds_config_default(&cfg);
    cfg.filter = DS_FILTER_FULL;
    cfg.tau = 10;
    tc_begin("run_api_cancel_during_setup");
    for (int k = 1; k <= 3; k++) {
        int left = k;
        ds_run *run = ds_run_create(net, &cfg, &err);
        TC_CHECK(run != NULL, "create: %s", err.msg);
        if (!run) break;
        ds_run_add_monitor(run, cancel_on_setup, &left);
        ds_status st = ds_run_execute(run);
        ds_run_reason(run, reason, sizeof reason);
        TC_CHECK(st == DS_STATUS_CANCELLED, "cancel at set-up event %d: status %s (%s)", k, ds_status_name(st), reason);
        TC_CHECK(strstr(reason, "set-up") != NULL, "cancel at set-up event %d: reason '%s'", k, reason);
        TC_CHECK(ds_run_history_count(run) == 0, "cancel at set-up event %d: %d records", k,
                 (int)ds_run_history_count(run));
        ds_run_free(run);
    }
    tc_end();
}

/* The engine takes the CUDA emulation from the configuration only, never from
 * the environment (the program maps DILLSUE_CUDA_EMULATE onto it). */
static void test_emulation_is_config(const ds_network *net)
{
    ds_config cfg;
    ds_error err;
    char info[512];
    if (ds_gpu_info(info, sizeof info)) {
        tc_skip("run_api_cuda_emulation_from_config_not_env", "a GPU is present: cannot tell emulation from device");
        return;
    }
    tc_begin("run_api_cuda_emulation_from_config_not_env");
    setenv("DILLSUE_CUDA_EMULATE", "1", 1);
    ds_config_default(&cfg);
    cfg.backend = DS_BACKEND_CUDA;
    ds_run *run = ds_run_create(net, &cfg, &err);
    TC_CHECK(run == NULL && strstr(err.msg, "not available"), "environment honoured by the engine: %s",
             run ? "created" : err.msg);
    if (run) ds_run_free(run);
    unsetenv("DILLSUE_CUDA_EMULATE");
    cfg.cuda_emulate = 1;
    run = ds_run_create(net, &cfg, &err);
    TC_CHECK(run != NULL, "cuda_emulate = 1 refused: %s", err.msg);
    if (run) {
        ds_status st = ds_run_execute(run);
        TC_CHECK(st == DS_STATUS_CONVERGED, "emulated run: %s", ds_status_name(st));
        ds_run_free(run);
    }
    tc_end();
}

/* A cancel asked for at the first set-up event is honoured inside the
 * loader's per-destination set-up, between groups of destinations, not after
 * it (Chicago-Sketch dsp: 387 destinations' DAGs in several groups). */
static void test_cancel_in_loader(const ds_network *net)
{
    ds_config cfg;
    ds_error err;
    char reason[512];
    int left = 1;
    ds_config_default(&cfg);
    cfg.filter = DS_FILTER_DSP;
    cfg.tau = 10;
    tc_begin("run_api_cancel_inside_loader_setup");
    ds_run *run = ds_run_create(net, &cfg, &err);
    TC_CHECK(run != NULL, "create: %s", err.msg);
    if (run) {
        ds_run_add_monitor(run, cancel_on_setup, &left);
        ds_status st = ds_run_execute(run);
        ds_run_reason(run, reason, sizeof reason);
        TC_CHECK(st == DS_STATUS_CANCELLED && strstr(reason, "in: filter DAGs") != NULL, "status %s, reason '%s'",
                 ds_status_name(st), reason);
        TC_CHECK(ds_run_history_count(run) == 0, "%d records", (int)ds_run_history_count(run));
        ds_run_free(run);
    }
    tc_end();
}

/* A stop that comes while the eDSP mask is rebuilt (the refresh's message is
 * sent before the iterate is evaluated on the new mask) is a cancel: its
 * reason said "loading failed after the eDSP refresh", which the summary line
 * printed after "cancelled". */
static void cancel_on_refresh(ds_run *run, const ds_event *ev, void *ctx)
{
    int *n = ctx;
    if (ev->kind == DS_EVENT_MESSAGE && strncmp(ev->message, "eDSP refresh", 12) == 0) {
        (*n)++;
        ds_run_cancel(run);
    }
}

static void test_cancel_at_edsp_refresh(const ds_network *net)
{
    ds_config cfg;
    ds_error err;
    char reason[512];
    int n = 0;
    ds_config_default(&cfg);
    cfg.filter = DS_FILTER_EDSP;
    cfg.tau = 10;
    tc_begin("run_api_cancel_at_edsp_refresh");
    ds_run *run = ds_run_create(net, &cfg, &err);
    TC_CHECK(run != NULL, "create: %s", err.msg);
    if (run) {
        ds_run_add_monitor(run, cancel_on_refresh, &n);
        ds_status st = ds_run_execute(run);
        ds_run_reason(run, reason, sizeof reason);
        TC_CHECK(n == 1, "%d refresh messages", n);
        TC_CHECK(st == DS_STATUS_CANCELLED && strstr(reason, "cancelled at iteration") != NULL &&
                     strstr(reason, "loading failed") == NULL,
                 "status %s, reason '%s'", ds_status_name(st), reason);
        ds_run_free(run);
    }
    tc_end();
}

/* A cost below 0 at zero flow (a negative toll factor on a toll) is refused
 * where a run or a loader is made, naming the link's line; a cost of exactly
 * 0 is not. */
static void test_negative_cost(const ds_network *ring)
{
    tc_begin("run_api_negative_cost_refused");
    ds_network *net = ds_network_clone(ring);
    ds_error err = {{0}, 0, {0}};
    TC_CHECK(net != NULL, "clone");
    if (net) {
        int e = 3;
        net->toll[e] = 1;
        ds_config cfg;
        ds_config_default(&cfg);
        cfg.cost.toll_factor = -(net->t0[e] + 0.5); /* cost -0.5 at zero flow */
        ds_run *run = ds_run_create(net, &cfg, &err);
        TC_CHECK(run == NULL && err.line == net->src_line[e] && strstr(err.msg, "its cost at zero flow is -0.5 < 0"),
                 "run: %p, %s:%ld: %s", (void *)run, err.file, err.line, err.msg);
        ds_run_free(run);
        cfg.cost.distance_factor = 0; /* (a loader takes its factors as given, not NaN for the file's) */
        ds_loader *ld = ds_loader_create(net, &cfg.cost, DS_FILTER_DSP, 1.0, 1, 50, 1e-13, &err);
        TC_CHECK(ld == NULL && err.line == net->src_line[e] && strstr(err.msg, "cost at zero flow"), "loader: %s",
                 err.msg);
        ds_loader_free(ld);
        cfg.cost.toll_factor = -net->t0[e]; /* exactly 0 */
        run = ds_run_create(net, &cfg, &err);
        TC_CHECK(run != NULL, "a zero cost refused: %s", err.msg);
        ds_run_free(run);
    }
    ds_network_free(net);
    tc_end();
}

/* DS_EVENT_PROGRESS: with the interval 0, one after every evaluation and J v
 * of an iteration (the set-up's and iteration 0's come as set-up steps), each
 * naming the iteration in progress and its work so far, which ds_run_phase's
 * label says too; the counts restart with each iteration and add up to the
 * history's; with the default interval a run of milliseconds sends none, and
 * none with the interval < 0. */
struct work_events {
    int n, bad, phase_ok, last_iter, evals, jvs, sum_evals, sum_jvs;
};

static void work_monitor(ds_run *run, const ds_event *ev, void *ctx)
{
    struct work_events *w = ctx;
    if (ev->kind == DS_EVENT_ITER) {
        w->last_iter = ev->rec->iter;
        w->sum_evals += w->evals, w->sum_jvs += w->jvs;
        w->evals = w->jvs = 0;
    } else if (ev->kind == DS_EVENT_PROGRESS) {
        int k, e, j;
        char label[128], want[128];
        w->n++;
        if (sscanf(ev->message, "iteration %d in progress: evaluations %d, J v %d,", &k, &e, &j) != 3 ||
            k != w->last_iter + 1 || e + j != w->evals + w->jvs + 1 || (e < w->evals || j < w->jvs))
            w->bad++;
        w->evals = e, w->jvs = j;
        snprintf(want, sizeof want, "iteration %d in progress: evaluations %d, J v %d", k, e, j);
        if (ds_run_phase(run, NULL, label, sizeof label) == 2 && strcmp(label, want) == 0) w->phase_ok++;
    }
}

static void test_progress_events(const ds_network *net, ds_solver_kind solver)
{
    char tname[96];
    snprintf(tname, sizeof tname, "run_api_progress_events_%s", ds_solver_name(solver));
    tc_begin(tname);
    for (int mode = 0; mode < 3; mode++) { /* interval 0, default, never */
        ds_config cfg;
        ds_error err;
        struct work_events w = {0};
        ds_config_default(&cfg);
        cfg.filter = DS_FILTER_FULL;
        cfg.solver = solver;
        cfg.tau = 10;
        ds_run *run = ds_run_create(net, &cfg, &err);
        TC_CHECK(run != NULL, "create: %s", err.msg);
        if (!run) break;
        ds_run_add_monitor(run, work_monitor, &w);
        if (mode != 1) ds_run_set_progress(run, mode == 0 ? 0 : -1, 0);
        TC_CHECK(ds_run_execute(run) == DS_STATUS_CONVERGED, "mode %d: not converged", mode);
        size_t nrec = ds_run_history_count(run);
        ds_iter_record last;
        TC_CHECK(nrec > 1 && ds_run_history_copy(run, nrec - 1, &last, 1) == 1, "history");
        ds_iter_record first;
        ds_run_history_copy(run, 0, &first, 1);
        if (mode == 0) {
            printf("# %s: %d progress events, %d evaluations + %d J v after iteration 0\n", tname, w.n, w.sum_evals,
                   w.sum_jvs);
            TC_CHECK(w.n > 0 && w.bad == 0, "%d progress events, %d malformed or miscounted", w.n, w.bad);
            TC_CHECK(w.phase_ok == w.n, "ds_run_phase's label agreed with %d of %d events", w.phase_ok, w.n);
            TC_CHECK(w.sum_evals == last.evals - first.evals && w.sum_jvs == last.jv - first.jv,
                     "counted %d evaluations and %d J v, the history says %d and %d", w.sum_evals, w.sum_jvs,
                     last.evals - first.evals, last.jv - first.jv);
        } else {
            TC_CHECK(w.n == 0, "mode %d: %d progress events", mode, w.n);
        }
        ds_run_free(run);
    }
    tc_end();
}

static void null_monitor(ds_run *run, const ds_event *ev, void *ctx) { (void)run, (void)ev, (void)ctx; }

/* Every call of the run API that takes a NULL run says what it does with it
 * (the header) and does not crash (17 getters dereferenced it). */
static void test_null_run(void)
{
    tc_begin("run_api_null_run");
    double col[4], d = 1, x[4];
    char buf[16] = "x";
    int k = 7;
    ds_run_times t = {1, 1, 1, 1};
    ds_certificate c;
    ds_iter_record rec;
    ds_run_cancel(NULL);
    ds_run_pause(NULL, 1);
    TC_CHECK(ds_run_is_paused(NULL) == 0 && ds_run_status(NULL) == DS_STATUS_ERROR, "is_paused, status");
    ds_run_reason(NULL, buf, sizeof buf);
    TC_CHECK(buf[0] == '\0', "reason");
    TC_CHECK(ds_run_config(NULL) == NULL && ds_run_network(NULL) == NULL, "config, network");
    TC_CHECK(isnan(ds_run_mu(NULL)) && isnan(ds_run_cbar(NULL)), "mu, cbar");
    ds_run_times_get(NULL, &t);
    TC_CHECK(t.wall == 0 && t.setup == 0 && t.paused == 0 && t.t_tol == -1, "times");
    TC_CHECK(ds_run_phase(NULL, &d, buf, sizeof buf) == -1 && d == 0 && buf[0] == '\0', "phase");
    TC_CHECK(ds_run_certificate(NULL, &c) == -1 && !c.valid, "certificate");
    TC_CHECK(ds_run_lost_demand(NULL, &k, &d) == -1, "lost_demand");
    TC_CHECK(ds_run_history_count(NULL) == 0 && ds_run_history_copy(NULL, 0, &rec, 1) == 0, "history");
    TC_CHECK(ds_run_snapshot(NULL, x, x, x) == -1, "snapshot");
    TC_CHECK(ds_run_flows(NULL) == NULL && ds_run_costs(NULL) == NULL, "flows, costs");
    TC_CHECK(ds_run_execute(NULL) == DS_STATUS_ERROR, "execute");
    TC_CHECK(ds_run_add_monitor(NULL, null_monitor, NULL) == -1, "add_monitor");
    TC_CHECK(ds_run_set_progress(NULL, 1, 1) == -1, "set_progress");
    TC_CHECK(isnan(ds_run_certificate_field(NULL, "lost_pct")), "certificate_field");
    TC_CHECK(ds_run_history_column(NULL, "iter", col, 4) == -1, "history_column");
    ds_run_free(NULL);
    tc_end();
}

/* A ds_config filled in code meets the rules the command line applies: each
 * bad field refused by ds_run_create with its name, nothing created. */
static void test_config_rules(const ds_network *net)
{
    ds_config cfg;
    ds_error err;
    double *warm = calloc((size_t)net->n_links + 1, sizeof(double));
    int k = 0;
    tc_begin("run_api_config_rules");
    for (int c = 0;; c++) {
        const char *want = NULL;
        ds_config_default(&cfg);
        switch (c) {
        case 0: cfg.threads = 100000, want = "threads must be in [0, 4096]"; break;
        case 1: cfg.tol = 5, want = "tol must be in (0, 1)"; break;
        case 2: cfg.mu = NAN, want = "mu must be finite"; break;
        case 3: cfg.cost.toll_factor = INFINITY, want = "toll_factor must be finite"; break;
        case 4: cfg.gmres_max = 0, want = "gmres_max must be >= 1"; break;
        case 5: cfg.edsp_damping = 0, want = "edsp_damping must be in (0, 1]"; break;
        case 6: cfg.inner = (ds_inner)9, want = "unknown inner solver 9"; break;
        case 7: cfg.globalise = (ds_globalise)9, want = "unknown globalisation 9"; break;
        case 8: cfg.start = (ds_start)9, want = "unknown start 9"; break;
        case 9: cfg.aa_reg = NAN, want = "aa_reg must be a number >= 0"; break;
        case 10: cfg.aa_window = 0, want = "aa_window must be in [1, 50]"; break;
        case 11: cfg.max_iter = -1, want = "max_iter must be in [0, 100000000]"; break;
        case 12: cfg.tau = INFINITY, want = "tau must be finite"; break;
        case 13: warm[3] = NAN, cfg.warm = warm, want = "warm-start flow of link 4"; break;
        case 14: warm[3] = -1, cfg.warm = warm, want = "warm-start flow of link 4"; break;
        }
        if (!want) break;
        memset(&err, 0, sizeof err);
        ds_run *run = ds_run_create(net, &cfg, &err);
        TC_CHECK(run == NULL && strstr(err.msg, want), "case %d: want '%s', got %s", c, want, run ? "a run" : err.msg);
        if (run) ds_run_free(run);
        k++;
    }
    TC_CHECK(k == 15, "%d cases", k);
    /* the defaults and the documented specials pass: threads <= 0 (all cores), NaN factors (the network's) */
    ds_config_default(&cfg);
    cfg.threads = -1;
    ds_run *run = ds_run_create(net, &cfg, &err);
    TC_CHECK(run != NULL, "defaults with threads -1 refused: %s", err.msg);
    if (run) ds_run_free(run);
    free(warm);
    tc_end();
}

/* A run executes once: the second call changes nothing and says so by its
 * status (it replaced the loader and the results, leaking both). */
static void test_execute_once(const ds_network *net)
{
    ds_config cfg;
    ds_error err;
    tc_begin("run_api_execute_once");
    ds_config_default(&cfg);
    ds_run *run = ds_run_create(net, &cfg, &err);
    TC_CHECK(run != NULL, "create: %s", err.msg);
    if (run) {
        ds_status a = ds_run_execute(run);
        size_t n1 = ds_run_history_count(run);
        double f0 = ds_run_flows(run) ? ds_run_flows(run)[0] : -1;
        ds_status b = ds_run_execute(run);
        size_t n2 = ds_run_history_count(run);
        TC_CHECK(a == DS_STATUS_CONVERGED && b == DS_STATUS_ERROR, "first %s, second %s", ds_status_name(a),
                 ds_status_name(b));
        /* every scalar field of the records by name, those of the certificate and LU too */
        double col[64];
        const char *want[] = {"lost_pct", "imbalance", "lu_fresh", "lu_reused", "lu_shared", "ptc_shift", "gap_rel"};
        for (size_t w = 0; w < sizeof want / sizeof *want; w++) {
            long got = ds_run_history_column(run, want[w], col, 64);
            TC_CHECK(got == (long)(n1 < 64 ? n1 : 64), "history column %s: %ld of %zu records", want[w], got, n1);
        }
        TC_CHECK(ds_history_column_name(29) != NULL && ds_history_column_name(30) == NULL, "30 column names");
        TC_CHECK(n1 == n2 && ds_run_status(run) == DS_STATUS_CONVERGED && ds_run_flows(run)[0] == f0,
                 "the second call changed the run: history %zu -> %zu records, status %s", n1, n2,
                 ds_status_name(ds_run_status(run)));
        ds_run_free(run);
    }
    TC_CHECK(ds_run_execute(NULL) == DS_STATUS_ERROR, "execute(NULL)");
    TC_CHECK(ds_run_create(NULL, &cfg, &err) == NULL && strstr(err.msg, "NULL"), "create(NULL, ...)");
    tc_end();
}

/* ds_run_snapshot once the run is done is its last published iterate, however
 * busy a front end polled it (publish skips a snapshot while the front end
 * holds it: the last iterate could be missing, in a third of such runs), and
 * ds_run_reason says nothing while the engine writes it. */
struct poll_arg {
    ds_run *run;
    int n;
    atomic_int done;
    int reason_during;
};
static void *poll_exec(void *a)
{
    struct poll_arg *p = a;
    ds_run_execute(p->run);
    atomic_store(&p->done, 1);
    return NULL;
}
static void test_snapshot_after_run(const ds_network *net)
{
    ds_config cfg;
    ds_error err;
    int stale = 0, runs = 40;
    tc_begin("run_api_snapshot_after_run_is_last_iterate");
    double *x = malloc(sizeof(double) * (size_t)net->n_links);
    for (int k = 0; x && k < runs; k++) {
        ds_config_default(&cfg);
        cfg.filter = DS_FILTER_DSP;
        cfg.solver = DS_SOLVER_MSA;
        cfg.max_iter = 20;
        struct poll_arg p = {ds_run_create(net, &cfg, &err), net->n_links, 0, 0};
        if (!p.run) break;
        pthread_t th;
        pthread_create(&th, NULL, poll_exec, &p);
        while (!atomic_load(&p.done)) {
            char r[64];
            ds_run_snapshot(p.run, x, x, x);
            ds_run_reason(p.run, r, sizeof r);
            /* (the phase after the reason: it is 3 before execute returns) */
            if (r[0] && ds_run_phase(p.run, NULL, NULL, 0) != 3) p.reason_during = 1;
        }
        pthread_join(th, NULL);
        ds_iter_record last;
        size_t n = ds_run_history_count(p.run);
        int it = ds_run_snapshot(p.run, x, NULL, NULL);
        if (n == 0 || ds_run_history_copy(p.run, n - 1, &last, 1) != 1 || it != last.iter ||
            memcmp(x, ds_run_flows(p.run), sizeof(double) * (size_t)net->n_links) != 0)
            stale++;
        char r[64];
        ds_run_reason(p.run, r, sizeof r);
        TC_CHECK(r[0] != 0, "no reason once done");
        TC_CHECK(!p.reason_during, "ds_run_reason read while the engine writes it");
        ds_run_free(p.run);
    }
    TC_CHECK(stale == 0, "%d of %d runs: the snapshot after the run is not the last published iterate", stale, runs);
    free(x);
    tc_end();
}

/* ds_run_cancel while the --start dsp sub-run goes (from another thread, as
 * soon as the sub-run reports an iteration): the run stops cancelled. The
 * child was read and cancelled without a lock, so that a sub-run freed by the
 * engine meanwhile was written to (valgrind: invalid read in ds_run_cancel). */
struct child_arg {
    ds_run *run;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int go;
};
static void child_mon(ds_run *run, const ds_event *ev, void *ctx)
{
    struct child_arg *c = ctx;
    (void)run;
    if (ev->kind == DS_EVENT_SETUP && strstr(ev->message, "start point: DSP solution, iteration")) {
        pthread_mutex_lock(&c->mu);
        c->go = 1;
        pthread_cond_signal(&c->cv);
        pthread_mutex_unlock(&c->mu);
    }
}
static void *child_canceller(void *a)
{
    struct child_arg *c = a;
    pthread_mutex_lock(&c->mu);
    while (c->go == 0) pthread_cond_wait(&c->cv, &c->mu);
    pthread_mutex_unlock(&c->mu);
    if (c->go > 0) ds_run_cancel(c->run);
    return NULL;
}
static void test_cancel_during_dsp_start(const ds_network *net)
{
    ds_config cfg;
    ds_error err;
    tc_begin("run_api_cancel_during_dsp_start");
    ds_config_default(&cfg);
    cfg.filter = DS_FILTER_FULL;
    cfg.start = DS_START_DSP;
    struct child_arg c = {ds_run_create(net, &cfg, &err), PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    TC_CHECK(c.run != NULL, "create: %s", err.msg);
    if (c.run) {
        pthread_t th;
        ds_run_add_monitor(c.run, child_mon, &c);
        pthread_create(&th, NULL, child_canceller, &c);
        ds_status st = ds_run_execute(c.run);
        pthread_mutex_lock(&c.mu);
        int went = c.go;
        if (!went) c.go = -1; /* the sub-run never reported: let the canceller go */
        pthread_cond_signal(&c.cv);
        pthread_mutex_unlock(&c.mu);
        pthread_join(th, NULL);
        TC_CHECK(!went || st == DS_STATUS_CANCELLED || st == DS_STATUS_CONVERGED, "status %s", ds_status_name(st));
        ds_run_free(c.run);
    }
    tc_end();
}

/* ds_run_free while ds_run_execute has not returned. A front end that runs
 * execute on a thread it does not join polls the status and frees the run
 * once it is final: the status is final before the monitors have had
 * DS_EVENT_DONE, so the run was freed under emit() (a use after free, under
 * ASan; here a DONE monitor that takes 100 ms makes the window certain).
 * Freed from another thread mid-run, the run is cancelled and waited for;
 * freed from a monitor, it is freed as execute returns. */
struct free_arg {
    ds_run *run;
    atomic_int done_seen, iters; /* done_seen: a DONE monitor has returned */
    ds_status st;
};
static void slow_done_mon(ds_run *run, const ds_event *ev, void *ctx)
{
    struct free_arg *f = ctx;
    (void)run;
    if (ev->kind == DS_EVENT_ITER) atomic_fetch_add(&f->iters, 1);
    if (ev->kind == DS_EVENT_DONE) {
        sleep_ms(100);
        atomic_store(&f->done_seen, 1);
    }
}
static void *free_exec(void *a)
{
    struct free_arg *f = a;
    f->st = ds_run_execute(f->run);
    return NULL;
}
static void free_in_mon(ds_run *run, const ds_event *ev, void *ctx)
{
    struct free_arg *f = ctx;
    if (ev->kind == DS_EVENT_ITER && atomic_fetch_add(&f->iters, 1) == 2) ds_run_free(run);
}
static void test_free_while_executing(const ds_network *net)
{
    ds_config cfg;
    ds_error err;
    tc_begin("run_api_free_waits_for_execute");
    ds_config_default(&cfg);
    cfg.filter = DS_FILTER_DSP;
    /* 1: freed once the status is final, while a DONE monitor still runs */
    struct free_arg f = {ds_run_create(net, &cfg, &err), 0, 0, DS_STATUS_PENDING};
    TC_CHECK(f.run != NULL, "create: %s", err.msg);
    if (f.run) {
        pthread_t th;
        ds_run_add_monitor(f.run, slow_done_mon, &f);
        pthread_create(&th, NULL, free_exec, &f);
        while (ds_run_status(f.run) <= DS_STATUS_RUNNING) sleep_ms(1);
        ds_run_free(f.run);
        TC_CHECK(atomic_load(&f.done_seen), "ds_run_free returned while the monitors still had DS_EVENT_DONE");
        pthread_join(th, NULL);
    }
    /* 2: freed from another thread mid-run: cancelled, and waited for */
    cfg.filter = DS_FILTER_FULL;
    cfg.solver = DS_SOLVER_MSA;
    cfg.tol = 1e-12;
    cfg.max_iter = 100000;
    struct free_arg g = {ds_run_create(net, &cfg, &err), 0, 0, DS_STATUS_PENDING};
    TC_CHECK(g.run != NULL, "create: %s", err.msg);
    if (g.run) {
        pthread_t th;
        ds_run_add_monitor(g.run, slow_done_mon, &g);
        pthread_create(&th, NULL, free_exec, &g);
        while (atomic_load(&g.iters) < 3) sleep_ms(1);
        ds_run_free(g.run);
        int seen = atomic_load(&g.done_seen);
        pthread_join(th, NULL);
        TC_CHECK(seen && g.st == DS_STATUS_CANCELLED, "DONE seen %d, status %s", seen, ds_status_name(g.st));
    }
    /* 3: freed from a monitor at iteration 2: the run stops, freed as execute returns */
    struct free_arg h = {ds_run_create(net, &cfg, &err), 0, 0, DS_STATUS_PENDING};
    TC_CHECK(h.run != NULL, "create: %s", err.msg);
    if (h.run) {
        ds_run_add_monitor(h.run, free_in_mon, &h);
        ds_run_add_monitor(h.run, slow_done_mon, &h); /* a monitor after the one that freed it */
        ds_status st = ds_run_execute(h.run);         /* (h.run is not touched after this) */
        TC_CHECK(st == DS_STATUS_CANCELLED, "status %s", ds_status_name(st));
    }
    tc_end();
}

/* The results and the monitors across the engine's thread: ds_run_flows and
 * ds_run_costs are NULL until the run is done, also to a thread that polls
 * them while finish() fills them (the pointer was published before the
 * values: a data race under TSan, in about one run in four); monitors and the
 * progress interval are refused once execute has begun (a monitor added from
 * another thread then was a data race on the table the engine walks), and a
 * ninth monitor is refused, not dropped without a word. */
static void nop_mon(ds_run *run, const ds_event *ev, void *ctx) { (void)run, (void)ev, (void)ctx; }
static void *flows_exec(void *a)
{
    struct poll_arg *p = a;
    ds_run_execute(p->run);
    atomic_store(&p->done, 1);
    return NULL;
}
static void test_results_published(const ds_network *net)
{
    ds_config cfg;
    ds_error err;
    int early = 0, refused = 1, runs = 20;
    tc_begin("run_api_results_and_monitors_across_threads");
    ds_config_default(&cfg);
    cfg.filter = DS_FILTER_DSP;
    cfg.solver = DS_SOLVER_MSA;
    cfg.max_iter = 5;
    for (int k = 0; k < runs; k++) {
        struct poll_arg p = {ds_run_create(net, &cfg, &err), net->n_links, 0, 0};
        if (!p.run) break;
        for (int i = 0; i < 8; i++) refused &= ds_run_add_monitor(p.run, nop_mon, NULL) == 0;
        refused &= ds_run_add_monitor(p.run, nop_mon, NULL) == -1 && ds_run_add_monitor(p.run, NULL, NULL) == -1;
        pthread_t th;
        pthread_create(&th, NULL, flows_exec, &p);
        while (!atomic_load(&p.done)) {
            const double *f = ds_run_flows(p.run), *c = ds_run_costs(p.run);
            if ((f || c) && ds_run_status(p.run) <= DS_STATUS_RUNNING) early++;
        }
        pthread_join(th, NULL);
        refused &= ds_run_add_monitor(p.run, nop_mon, NULL) == -1 && ds_run_set_progress(p.run, 1, 1) == -1;
        TC_CHECK(ds_run_flows(p.run) && ds_run_costs(p.run), "no results once done");
        ds_run_free(p.run);
    }
    TC_CHECK(early == 0, "results read %d times before the run was done", early);
    TC_CHECK(refused, "a monitor or progress interval accepted where it must be refused");
    tc_end();
}

/* Indexes and names out of range, as a program embedding the engine may pass
 * them: an error or an empty answer, never a crash (ds_sp_to_dest with dest
 * -1 wrote before its heap arrays: "free(): invalid pointer", an abort). */
static void test_out_of_range(ds_network *net)
{
    ds_config cfg;
    ds_error err = {{0}, 0, {0}};
    int n = net->n_nodes, bad_sp = 0;
    tc_begin("run_api_out_of_range_arguments");
    double *t = calloc((size_t)net->n_links + 1, sizeof(double)), *dist = calloc((size_t)n + 1, sizeof(double));
    int *hops = calloc((size_t)n + 1, sizeof(int)), *order = calloc((size_t)n + 1, sizeof(int));
    for (int k = 0; t && dist && hops && order && k < 3; k++) {
        int dest = k == 0 ? -1 : k == 1 ? n : -1000000;
        ds_sp_to_dest(net, t, dest, dist, hops, order);
        for (int i = 0; i < n; i++) bad_sp += !(isinf(dist[i]) && hops[i] == -1);
    }
    TC_CHECK(bad_sp == 0, "%d distances to a node that does not exist are not +inf", bad_sp);
    free(t), free(dist), free(hops), free(order);
    TC_CHECK(ds_scenario_apply(NULL, 1, 1, NULL, &err) == -1 && strstr(err.msg, "no network"), "said '%s'", err.msg);
    ds_config_default(&cfg);
    ds_run *run = ds_run_create(net, &cfg, &err);
    double col[4];
    TC_CHECK(run && ds_run_history_column(run, NULL, col, 4) == -1, "a NULL column name was not refused");
    ds_run_free(run);
    /* settings the CLI cannot give, refused rather than changed: a window
     * above Anderson's cap of 50, cuda_emulate other than 0 or 1 */
    cfg.aa_window = 51;
    run = ds_run_create(net, &cfg, &err);
    TC_CHECK(!run && strstr(err.msg, "aa_window must be in [1, 50]"), "aa_window 51: '%s'", run ? "" : err.msg);
    ds_run_free(run);
    ds_config_default(&cfg);
    cfg.cuda_emulate = 7;
    run = ds_run_create(net, &cfg, &err);
    TC_CHECK(!run && strstr(err.msg, "cuda_emulate"), "cuda_emulate 7: '%s'", run ? "" : err.msg);
    ds_run_free(run);
    /* a GMRES restart beyond gmres_max: Newton as with the whole basis (its
     * basis failed to allocate each step: no Newton step, 166 recoveries) */
    ds_config_default(&cfg);
    cfg.gmres_restart = 2000000000;
    run = ds_run_create(net, &cfg, &err);
    TC_CHECK(run && ds_run_execute(run) == DS_STATUS_CONVERGED, "gmres_restart 2e9: %s",
             run ? "not converged" : err.msg);
    {
        int rec = 0;
        ds_iter_record r;
        for (size_t i = 1; run && i < ds_run_history_count(run); i++)
            if (ds_run_history_copy(run, i, &r, 1) == 1) rec += r.kind == DS_STEP_NEWTON_RECOVER;
        TC_CHECK(rec == 0, "%d recovery steps with gmres_restart 2e9", rec);
    }
    ds_run_free(run);
    tc_end();
}

/* A network edited in place (it is public, as ds_scenario_apply edits it)
 * is checked by the reader's rules wherever a run, a loader or the UE takes
 * it: a capacity of 0 or NaN, a negative b, a negative or NaN demand
 * "converged" (NaN demand was called "no OD pair has a path"). */
static void test_edited_network(void)
{
    ds_error err = {{0}, 0, {0}};
    ds_config cfg;
    ds_ue_config uc;
    ds_cost_params cp = {0};
    int refused = 0, said = 0;
    tc_begin("run_api_edited_network_checked");
    ds_config_default(&cfg);
    ds_ue_config_default(&uc);
    for (int k = 0; k < 6; k++) {
        ds_network *net = ds_network_load_default(&err);
        if (!net) break;
        const char *want = k < 2    ? "capacity must be"
                           : k == 2 ? "b must be non-negative"
                           : k == 3 ? "power must be"
                                    : "demand from";
        if (k == 0) net->capacity[3] = 0;
        if (k == 1) net->capacity[3] = NAN;
        if (k == 2) net->bpr_b[5] = -1;
        if (k == 3) net->bpr_power[0] = INFINITY;
        if (k == 4) net->od_demand[2] = -10;
        if (k == 5) net->od_demand[2] = NAN;
        double *f = calloc((size_t)net->n_links + 1, sizeof(double));
        ds_ue_result res;
        ds_run *run = ds_run_create(net, &cfg, &err);
        int ok_run = !run && strstr(err.msg, want) != NULL;
        ds_loader *ld = ds_loader_create(net, &cp, DS_FILTER_DSP, 1.0, 1, 50, 1e-13, &err);
        int ok_ld = !ld && strstr(err.msg, want) != NULL;
        int ok_ue = f && ds_ue_solve(net, &uc, f, &res, NULL, NULL, NULL, &err) == DS_STATUS_ERROR &&
                    strstr(err.msg, want) != NULL;
        refused += ok_run && ok_ld && ok_ue;
        said += strstr(err.msg, "changed after it was read") != NULL;
        if (!(ok_run && ok_ld && ok_ue))
            printf("# edit %d: run %d loader %d ue %d: %s\n", k, ok_run, ok_ld, ok_ue, err.msg);
        ds_run_free(run);
        ds_loader_free(ld);
        free(f);
        ds_network_free(net);
    }
    TC_CHECK(refused == 6 && said == 6, "%d of 6 edits refused everywhere, %d said why", refused, said);
    tc_end();
}

/* A cancel is honoured inside a group of the loader's per-destination set-up,
 * not only between groups: a generated grid of 60,025 nodes and 2,000
 * destinations, whose first group (200 full shortest-path searches, or 200
 * DAGs) takes a second or more, is stopped at the first set-up event and must
 * return within 1.5 s of it (it ran the whole group: 2 s and more). */
struct cancel_timed {
    double t_cancel;
};

static void cancel_first_setup_timed(ds_run *run, const ds_event *ev, void *ctx)
{
    struct cancel_timed *c = ctx;
    if (ev->kind == DS_EVENT_SETUP && c->t_cancel == 0) {
        c->t_cancel = ds_clock_now();
        ds_run_cancel(run);
    }
}

static int write_grid(const char *net_path, const char *trips_path, int side, int zones)
{
    FILE *f = fopen(net_path, "w");
    if (!f) return -1;
    int n = side * side, m = 4 * side * (side - 1);
    fprintf(f,
            "<NUMBER OF ZONES> %d\n<NUMBER OF NODES> %d\n<FIRST THRU NODE> 1\n<NUMBER OF LINKS> %d\n"
            "<END OF METADATA>\n\n~ init term cap len fft b power speed toll type ;\n",
            zones, n, m);
    for (int r = 0; r < side; r++)
        for (int c = 0; c < side; c++) {
            int i = r * side + c + 1;
            int nb[4] = {c + 1 < side ? i + 1 : 0, c > 0 ? i - 1 : 0, r + 1 < side ? i + side : 0,
                         r > 0 ? i - side : 0};
            for (int k = 0; k < 4; k++)
                if (nb[k])
                    fprintf(f, "\t%d\t%d\t%d\t1\t%.2f\t0.15\t4\t0\t0\t1\t;\n", i, nb[k], 1000 + (i * 7 + k) % 500,
                            1.0 + (i * 13 + k * 5) % 17 / 10.0);
        }
    if (fclose(f) != 0) return -1;
    f = fopen(trips_path, "w");
    if (!f) return -1;
    fprintf(f, "<NUMBER OF ZONES> %d\n<TOTAL OD FLOW> %d\n<END OF METADATA>\n\n", zones, zones);
    for (int o = 1; o <= zones; o++) fprintf(f, "Origin %d\n%d : 1.0;\n\n", o, o % zones + 1);
    return fclose(f) != 0 ? -1 : 0;
}

static void test_cancel_inside_destination_group(void)
{
    char dir[] = "/tmp/dillsue_cancelXXXXXX", np[64], tp[64];
    ds_error err = {{0}, 0, {0}};
    tc_begin("run_api_cancel_within_a_group_of_destinations");
    if (!mkdtemp(dir)) {
        TC_CHECK(0, "mkdtemp failed");
        tc_end();
        return;
    }
    snprintf(np, sizeof np, "%s/g_net.tntp", dir);
    snprintf(tp, sizeof tp, "%s/g_trips.tntp", dir);
    ds_network *net = write_grid(np, tp, 245, 2000) == 0 ? ds_network_load(np, tp, NULL, NULL, &err) : NULL;
    TC_CHECK(net != NULL, "grid network: %s", err.msg);
    const ds_filter filt[2] = {DS_FILTER_FULL, DS_FILTER_DSP};
    const char *in[2] = {"in: reachability", "in: filter DAGs"};
    for (int k = 0; net && k < 2; k++) {
        ds_config cfg;
        char reason[512];
        struct cancel_timed c = {0};
        ds_config_default(&cfg);
        cfg.filter = filt[k];
        cfg.threads = 1;
        ds_run *run = ds_run_create(net, &cfg, &err);
        TC_CHECK(run != NULL, "create: %s", err.msg);
        if (!run) continue;
        ds_run_add_monitor(run, cancel_first_setup_timed, &c);
        ds_status st = ds_run_execute(run);
        double lat = ds_clock_now() - c.t_cancel;
        ds_run_reason(run, reason, sizeof reason);
        TC_CHECK(st == DS_STATUS_CANCELLED && strstr(reason, in[k]) != NULL, "%s: status %s, reason '%s'",
                 ds_filter_name(filt[k]), ds_status_name(st), reason);
        /* about 0.03 s here, 7.3 s before the loader looked at the flag per
         * destination; 1.5 s leaves room for sanitizer builds and a loaded CI */
        TC_CHECK(lat < 1.5, "%s: returned %.2f s after the cancel", ds_filter_name(filt[k]), lat);
        ds_run_free(run);
    }
    ds_network_free(net);
    remove(np);
    remove(tp);
    remove(dir);
    tc_end();
}

/* Uncapped costs (cap 0) overflow past x/c ~ 1e77: a direct link of capacity
 * 1e-79 beside a two-link detour. f(0) sends 0.7 % of the demand direct,
 * x/c 7e76, so the first trial of every solver (MSA's and SRA's step 1,
 * Anderson's x + beta r) has an infinite cost. Such a trial is one where f
 * does not exist: the step is shortened or rejected and the run goes on (it
 * ended with status error, "the loading map does not exist at any trial
 * point of iteration 1", through stop 40), and no iterate has a cost that is
 * not finite. */
static int write_overflow_net(const char *np, const char *tp, const char *cap)
{
    FILE *f = fopen(np, "w");
    if (!f) return -1;
    fprintf(f,
            "<NUMBER OF ZONES> 2\n<NUMBER OF NODES> 3\n<FIRST THRU NODE> 3\n<NUMBER OF LINKS> 3\n"
            "<END OF METADATA>\n\n~ init term cap length fftime b power speed toll type ;\n"
            "1 2 %s 1 3 0.15 4 60 0 1 ;\n1 3 10 1 1 0.15 4 60 0 1 ;\n3 2 10 1 1 0.15 4 60 0 1 ;\n",
            cap);
    if (fclose(f) != 0 || !(f = fopen(tp, "w"))) return -1;
    fprintf(f, "<NUMBER OF ZONES> 2\n<TOTAL OD FLOW> 10.0\n<END OF METADATA>\n\nOrigin 1\n2 : 10.0;\n");
    return fclose(f) != 0 ? -1 : 0;
}

/* every published iterate's costs are finite (on the engine thread, right
 * after publishing: the snapshot is that record's iterate) */
typedef struct finite_watch {
    int n, iters, bad_iter;
    double cost[8];
} finite_watch;

static void finite_monitor(ds_run *run, const ds_event *ev, void *ctx)
{
    finite_watch *w = ctx;
    if (ev->kind != DS_EVENT_ITER || w->n > 8) return;
    int it = ds_run_snapshot(run, NULL, NULL, w->cost);
    w->iters++;
    for (int e = 0; e < w->n; e++)
        if (!isfinite(w->cost[e]) && w->bad_iter < 0) w->bad_iter = it;
}

static void test_overflowing_trial_costs(void)
{
    char dir[] = "/tmp/dillsue_ovfXXXXXX", np[64], tp[64];
    ds_error err = {{0}, 0, {0}};
    tc_begin("run_api_overflowing_trial_costs_shorten_the_step");
    if (!mkdtemp(dir)) {
        TC_CHECK(0, "mkdtemp failed");
        tc_end();
        return;
    }
    snprintf(np, sizeof np, "%s/o_net.tntp", dir);
    snprintf(tp, sizeof tp, "%s/o_trips.tntp", dir);
    ds_network *net = write_overflow_net(np, tp, "1e-79") == 0 ? ds_network_load(np, tp, NULL, NULL, &err) : NULL;
    TC_CHECK(net != NULL, "network: %s", err.msg);
    const ds_solver_kind sol[4] = {DS_SOLVER_MSA, DS_SOLVER_SRA, DS_SOLVER_ANDERSON, DS_SOLVER_NEWTON};
    /* the four solvers on both filters, and SRA and Anderson on the cuda
     * backend's kernels emulated on the CPU (they gave the overflowing link
     * weight 0 and finite flows: Anderson accepted x + r, cost inf, at
     * iteration 1) */
    for (int k = 0; net && k < 10; k++) {
        ds_config cfg;
        char reason[1024] = "";
        finite_watch w = {net->n_links, 0, -1, {0}};
        ds_config_default(&cfg);
        cfg.cost.cap = 0;
        cfg.solver = k < 8 ? sol[k / 2] : sol[k - 7];
        cfg.filter = k % 2 || k >= 8 ? DS_FILTER_DSP : DS_FILTER_FULL;
        cfg.threads = 1;
        if (k >= 8) cfg.backend = DS_BACKEND_CUDA, cfg.cuda_emulate = 1;
        if (cfg.solver == DS_SOLVER_MSA) cfg.max_iter = 50; /* MSA crawls: that it goes on is the point */
        ds_run *run = ds_run_create(net, &cfg, &err);
        TC_CHECK(run != NULL, "create: %s", err.msg);
        if (!run) continue;
        ds_run_add_monitor(run, finite_monitor, &w);
        ds_status st = ds_run_execute(run);
        ds_run_reason(run, reason, sizeof reason);
        const char *name = ds_solver_name(cfg.solver),
                   *fn = k >= 8 ? "dsp (cuda emulated)" : ds_filter_name(cfg.filter);
        TC_CHECK(w.iters > 0 && w.bad_iter < 0, "%s %s: iterate %d has a cost that is not finite", name, fn,
                 w.bad_iter);
        ds_status want = cfg.solver == DS_SOLVER_MSA ? DS_STATUS_MAX_ITER : DS_STATUS_CONVERGED;
        TC_CHECK(st == want, "%s %s: status %s (%s)", name, fn, ds_status_name(st), reason);
        const double *t = ds_run_costs(run), *x = ds_run_flows(run);
        for (int e = 0; t && x && e < net->n_links; e++)
            TC_CHECK(isfinite(t[e]) && isfinite(x[e]), "%s %s: link %d flow %g cost %g", name, fn, e, x[e], t[e]);
        TC_CHECK(t && x, "%s %s: no results", name, fn);
        ds_iter_record r1;
        size_t nh = ds_run_history_count(run);
        /* the first step was shortened: its trial at full length overflowed */
        if (cfg.solver != DS_SOLVER_NEWTON && nh > 1 && ds_run_history_copy(run, 1, &r1, 1) == 1)
            TC_CHECK(r1.halvings >= 1 || r1.kind == DS_STEP_ANDERSON_REJ, "%s %s: iteration 1 is %s, halvings %d", name,
                     fn, ds_step_name(r1.kind), r1.halvings);
        ds_run_free(run);
    }
    ds_network_free(net);
    tc_end();
    /* Capacity 1e-81: SRA's nine trials 1 ... 1/256 all overflow, and the
     * harmonic step 1/l is halved ten times more: the record says 18 halvings
     * and 20 evaluations (it said 8 whatever the harmonic step did). */
    tc_begin("run_api_sra_harmonic_fallback_counts_its_halvings");
    net = write_overflow_net(np, tp, "1e-81") == 0 ? ds_network_load(np, tp, NULL, NULL, &err) : NULL;
    TC_CHECK(net != NULL, "network: %s", err.msg);
    ds_config cfg;
    ds_config_default(&cfg);
    cfg.cost.cap = 0;
    cfg.solver = DS_SOLVER_SRA;
    cfg.threads = 1;
    ds_run *run = net ? ds_run_create(net, &cfg, &err) : NULL;
    TC_CHECK(run != NULL, "create: %s", err.msg);
    ds_iter_record h[2];
    if (run && ds_run_execute(run) == DS_STATUS_CONVERGED && ds_run_history_copy(run, 0, h, 2) == 2) {
        TC_CHECK(h[1].kind == DS_STEP_SRA_HARMONIC && h[1].halvings == 18 && h[1].step == ldexp(1.0, -10) &&
                     h[1].evals - h[0].evals == h[1].halvings + 2,
                 "iteration 1: %s step %g halvings %d, %d evaluations", ds_step_name(h[1].kind), h[1].step,
                 h[1].halvings, h[1].evals - h[0].evals);
    } else
        TC_CHECK(0, "the run did not converge");
    ds_run_free(run);
    ds_network_free(net);
    tc_end();
    /* The same detour with capacity 2, Anderson with no regularisation: three
     * history columns in a plane make the normal equations singular, Cholesky
     * fails, the history restarts and the step is SRA's. Its record says no
     * columns and no regularisation used (it said the failed system's 3). */
    tc_begin("run_api_anderson_restart_records_no_history_used");
    net = write_overflow_net(np, tp, "2") == 0 ? ds_network_load(np, tp, NULL, NULL, &err) : NULL;
    TC_CHECK(net != NULL, "network: %s", err.msg);
    ds_config_default(&cfg);
    cfg.solver = DS_SOLVER_ANDERSON;
    cfg.aa_reg = 0;
    cfg.threads = 1;
    run = net ? ds_run_create(net, &cfg, &err) : NULL;
    TC_CHECK(run != NULL, "create: %s", err.msg);
    int restarts = 0;
    if (run && ds_run_execute(run) == DS_STATUS_CONVERGED) {
        size_t nh = ds_run_history_count(run);
        for (size_t i = 0; i < nh; i++) {
            ds_iter_record r;
            if (ds_run_history_copy(run, i, &r, 1) != 1 || !r.aa_restart) continue;
            restarts++;
            TC_CHECK(r.kind == DS_STEP_ANDERSON_REJ && r.aa_used == 0 && r.aa_reg == 0,
                     "iteration %d: restart, %s, aa_used %d, aa_reg %g", r.iter, ds_step_name(r.kind), r.aa_used,
                     r.aa_reg);
        }
    } else
        TC_CHECK(0, "the run did not converge");
    TC_CHECK(restarts > 0, "no restart: the test no longer reaches one");
    ds_run_free(run);
    ds_network_free(net);
    remove(np);
    remove(tp);
    remove(dir);
    tc_end();
}

int main(void)
{
    ds_error err;
    ds_network *ring = ds_network_load_default(&err);
    if (!ring) {
        printf("FAIL run_api_default_net: %s\n", err.msg);
        return 1;
    }
    test_setup_and_certificate(ring, "ringcity", DS_FILTER_FULL);
    test_setup_and_certificate(ring, "ringcity", DS_FILTER_DSP);
    test_setup_and_certificate(ring, "ringcity", DS_FILTER_BFS);
    test_pause_excluded(ring);
    test_cancel_in_setup(ring);
    test_emulation_is_config(ring);
    test_negative_cost(ring);
    test_lost_demand();
    test_progress_events(ring, DS_SOLVER_NEWTON);
    test_progress_events(ring, DS_SOLVER_SRA);
    test_config_rules(ring);
    test_null_run();
    test_execute_once(ring);
    test_cancel_at_edsp_refresh(ring);
    test_out_of_range(ring);
    test_edited_network();
    const char *sf = tc_tntp("SiouxFalls/SiouxFalls_net.tntp");
    if (sf) {
        ds_network *net = ds_network_load(sf, NULL, NULL, NULL, &err);
        if (net) {
            test_setup_and_certificate(net, "siouxfalls", DS_FILTER_FULL);
            test_setup_and_certificate(net, "siouxfalls", DS_FILTER_DSP);
            test_snapshot_after_run(net);
            test_cancel_during_dsp_start(net);
            test_free_while_executing(net);
            test_results_published(net);
            ds_network_free(net);
        } else {
            printf("FAIL run_api_siouxfalls_load: %s\n", err.msg);
        }
    } else {
        tc_skip("run_api_siouxfalls", "SiouxFalls/SiouxFalls_net.tntp not found (set DILLSUE_TNTP_DIR)");
    }
    const char *cs = tc_tntp("Chicago-Sketch/ChicagoSketch_net.tntp");
    ds_network *chi = cs ? ds_network_load(cs, NULL, NULL, NULL, &err) : NULL;
    if (chi)
        test_cancel_in_loader(chi);
    else
        tc_skip("run_api_cancel_inside_loader_setup",
                "Chicago-Sketch/ChicagoSketch_net.tntp not found (set DILLSUE_TNTP_DIR)");
    ds_network_free(chi);
    test_cancel_inside_destination_group();
    test_overflowing_trial_costs();
    ds_network_free(ring);
    return tc_failed_ ? 1 : 0;
}
