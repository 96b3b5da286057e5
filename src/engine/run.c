/* run.c - the run: configuration, the outer loop, telemetry, control, results.
 *
 * The engine thread appends one immutable ds_iter_record per outer iteration
 * to a chunked log; readers on other threads copy published records without
 * locks (the count is stored with release semantics after the record). The
 * engine never waits on a reader: the snapshot for stall diagnosis is taken
 * with trylock and skipped if a reader holds it.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "gpu.h"
#include "kernels.h"
#include "lapack.h"
#include "loader_int.h"
#include "run_int.h"

double run_now(void) { return ds_clock_now(); }

static double wall_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void ds_config_default(ds_config *c)
{
    memset(c, 0, sizeof *c);
    c->tau = 10;
    c->mu = 0;
    c->filter = DS_FILTER_FULL;
    c->solver = DS_SOLVER_NEWTON;
    c->tol = 1e-7;
    c->max_iter = 10000;
    c->threads = 1;
    c->backend = DS_BACKEND_CPU;
    c->cost.cap = 100;
    c->cost.toll_factor = NAN; /* NAN = take the network's metadata */
    c->cost.distance_factor = NAN;
    c->inner_max = 50;
    c->inner_tol = 1e-13;
    c->aa_window = 5;
    c->aa_reg = 1e-10;
    c->aa_mixing = 0;     /* adaptive */
    c->newton_warm = -1;  /* auto: 5 with --globalise paper, 0 with the line search */
    c->gmres_restart = 0; /* the whole basis, memory permitting (gmres.h) */
    c->gmres_max = 200;
    c->globalise = DS_GLOBALISE_PTC;
    c->edsp_max_refresh = 8;
    c->edsp_damping = 1.0;
    c->cuda_emulate = 0;
    c->factor_mb = 768;
}

static const solver_ops *solver_table(ds_solver_kind k)
{
    switch (k) {
    case DS_SOLVER_MSA: return &solver_msa_ops;
    case DS_SOLVER_SRA: return &solver_sra_ops;
    case DS_SOLVER_ANDERSON: return &solver_anderson_ops;
    case DS_SOLVER_NEWTON: return &solver_newton_ops;
    default: return NULL;
    }
}

/* An iteration of Austin-SDB's full graph takes 1-5 s and ends with its own
 * line; one of a 33,000-node network takes minutes. A progress event after
 * 10 s without any event, then every 30 s, shows the second working and adds
 * nothing to the first. */
#define RUN_PROGRESS_FIRST_S 10.0
#define RUN_PROGRESS_EVERY_S 30.0

/* A ds_config filled in code, checked by the rules that the command line, the
 * TUI's settings and ds_config_set apply to the same settings (settings.c),
 * and the fields that none of them reads checked here: a struct must not get
 * past what text cannot (threads 100000 started threads until the machine
 * refused; tol 5 "converged" at once; a NaN mu was ignored). */
#define DS_DEMAND_MAX 1e150 /* squares of flows up to it, summed over links, stay below 1e308 */

static int config_check(const ds_network *net, const ds_config *cfg, ds_error *err)
{
    const struct {
        const char *name;
        double v;
        int applies;
    } num[] = {
        {"tau", cfg->tau, !(cfg->mu > 0) && !isnan(cfg->mu)},
        {"mu", cfg->mu, !(cfg->mu <= 0)}, /* > 0 or NaN: used directly */
        {"tol", cfg->tol, 1},
        {"max_iter", cfg->max_iter, 1},
        {"threads", cfg->threads, cfg->threads > 0}, /* <= 0: all cores */
        {"cap", cfg->cost.cap, 1},
        {"toll_factor", cfg->cost.toll_factor, !isnan(cfg->cost.toll_factor)}, /* NaN: the network's */
        {"distance_factor", cfg->cost.distance_factor, !isnan(cfg->cost.distance_factor)},
        {"inner_max", cfg->inner_max, 1},
        {"edsp_refresh", cfg->edsp_max_refresh, 1},
        {"edsp_damping", cfg->edsp_damping, 1},
        {"newton_warm", cfg->newton_warm, 1},
        {"factor_mb", cfg->factor_mb, 1},
        {"cuda_emulate", cfg->cuda_emulate, 1}, /* (7 was taken as 1: ds_config_set refused it) */
    };
    char msg[160];
    for (size_t i = 0; i < sizeof num / sizeof *num; i++)
        if (num[i].applies && ds_setting_check(num[i].name, num[i].v, msg, sizeof msg) != 0)
            return ds_error_set(err, NULL, 0, "%s %s", num[i].name, msg);
    if ((int)cfg->filter < 0 || cfg->filter >= DS_FILTER_N)
        return ds_error_set(err, NULL, 0, "unknown filter %d", (int)cfg->filter);
    if (!solver_table(cfg->solver)) return ds_error_set(err, NULL, 0, "unknown solver %d", (int)cfg->solver);
    if ((int)cfg->backend < 0 || cfg->backend >= DS_BACKEND_N)
        return ds_error_set(err, NULL, 0, "unknown backend %d", (int)cfg->backend);
    if ((int)cfg->inner < 0 || cfg->inner >= DS_INNER_N)
        return ds_error_set(err, NULL, 0, "unknown inner solver %d", (int)cfg->inner);
    if ((int)cfg->globalise < 0 || cfg->globalise >= DS_GLOBALISE_N)
        return ds_error_set(err, NULL, 0, "unknown globalisation %d", (int)cfg->globalise);
    if ((int)cfg->start < 0 || cfg->start >= DS_START_N)
        return ds_error_set(err, NULL, 0, "unknown start %d", (int)cfg->start);
    if (!(cfg->inner_tol > 0 && isfinite(cfg->inner_tol)))
        return ds_error_set(err, NULL, 0, "inner_tol must be a number > 0, got %g", cfg->inner_tol);
    /* (solver_anderson.c caps the window at 50: more was taken without a word) */
    if (cfg->aa_window < 1 || cfg->aa_window > 50)
        return ds_error_set(err, NULL, 0, "aa_window must be in [1, 50], got %d", cfg->aa_window);
    if (!(cfg->aa_reg >= 0 && isfinite(cfg->aa_reg)))
        return ds_error_set(err, NULL, 0, "aa_reg must be a number >= 0, got %g", cfg->aa_reg);
    if (cfg->gmres_max < 1) return ds_error_set(err, NULL, 0, "gmres_max must be >= 1, got %d", cfg->gmres_max);
    if (cfg->gmres_restart < 0)
        return ds_error_set(err, NULL, 0, "gmres_restart must be >= 0 (0: the whole basis), got %d",
                            cfg->gmres_restart);
    if (cfg->warm) {
        /* the rule of every reader of flows to start from (ds_flows_read_start) */
        for (int e = 0; e < net->n_links; e++)
            if (!(cfg->warm[e] >= 0 && isfinite(cfg->warm[e])))
                return ds_error_set(err, NULL, 0, "warm-start flow of link %d (%d-%d) must be finite and >= 0, got %g",
                                    e + 1, ds_node_id(net, net->tail[e]), ds_node_id(net, net->head[e]), cfg->warm[e]);
    }
    return 0;
}

ds_run *ds_run_create(const ds_network *net, const ds_config *cfg, ds_error *err)
{
    ds_run *run;
    if (!net || !cfg) return ds_error_set(err, NULL, 0, "ds_run_create: %s is NULL", net ? "cfg" : "net"), NULL;
    int n = net->n_links;
    if (config_check(net, cfg, err) != 0) return NULL;
    /* The merit is a sum of squared flows: past this total demand it leaves the
     * doubles, and an overflow read as "f does not exist" made false proofs of
     * ill-posedness (demand 1e300: "no positive solution, spectral radius 0"). */
    if (!(net->total_demand <= DS_DEMAND_MAX))
        return ds_error_set(err, NULL, 0,
                            "total demand %g is beyond what the residual's squares hold in doubles (at most %g): "
                            "express the demand in larger units",
                            net->total_demand, DS_DEMAND_MAX),
               NULL;
    if (cfg->backend == DS_BACKEND_CUDA && !cfg->cuda_emulate) {
        char info[512];
        if (!ds_gpu_info(info, sizeof info))
            return ds_error_set(err, NULL, 0, "backend cuda is not available: %s", info), NULL;
    }
    run = calloc(1, sizeof *run);
    if (!run) return ds_error_set(err, NULL, 0, "out of memory"), NULL;
    pthread_mutex_init(&run->pause_mu, NULL);
    pthread_cond_init(&run->pause_cv, NULL);
    pthread_cond_init(&run->done_cv, NULL);
    pthread_mutex_init(&run->snap_mu, NULL);
    run->net = net;
    run->cfg = *cfg;
    ds_run_set_progress(run, RUN_PROGRESS_FIRST_S, RUN_PROGRESS_EVERY_S);
    if (isnan(run->cfg.cost.toll_factor)) run->cfg.cost.toll_factor = net->toll_factor;
    if (isnan(run->cfg.cost.distance_factor)) run->cfg.cost.distance_factor = net->distance_factor;
    if (run->cfg.threads <= 0) run->cfg.threads = 0;
    if (ds_costs_check(net, &run->cfg.cost, err)) {
        ds_run_free(run);
        return NULL;
    }
    run->n = n;
    run->x = calloc((size_t)n + 1, sizeof(double));
    run->fx = calloc((size_t)n + 1, sizeof(double));
    run->r = calloc((size_t)n + 1, sizeof(double));
    run->xt = calloc((size_t)n + 1, sizeof(double));
    run->ft = calloc((size_t)n + 1, sizeof(double));
    run->x_state = calloc((size_t)n + 1, sizeof(double));
    run->f_state = calloc((size_t)n + 1, sizeof(double));
    run->tcost = calloc((size_t)n + 1, sizeof(double));
    run->snap_x = calloc((size_t)n + 1, sizeof(double));
    run->snap_fx = calloc((size_t)n + 1, sizeof(double));
    run->snap_cost = calloc((size_t)n + 1, sizeof(double));
    run->node_bal = calloc((size_t)net->n_nodes + 1, sizeof(double));
    if (cfg->warm) {
        run->warm = malloc(sizeof(double) * (size_t)(n + 1));
        if (run->warm) memcpy(run->warm, cfg->warm, sizeof(double) * (size_t)n);
    }
    run->cfg.warm = NULL;
    if (!run->x || !run->fx || !run->r || !run->xt || !run->ft || !run->x_state || !run->f_state || !run->tcost ||
        !run->snap_x || !run->snap_fx || !run->snap_cost || !run->node_bal || (cfg->warm && !run->warm)) {
        ds_run_free(run);
        return ds_error_set(err, NULL, 0, "out of memory"), NULL;
    }
    run->snap_iter = -1;
    run->t_tol = -1;
    run->cbar = NAN;
    atomic_store(&run->status, DS_STATUS_PENDING);
    if (cfg->mu > 0 && !isfinite(cfg->mu)) {
        ds_run_free(run);
        return ds_error_set(err, NULL, 0, "mu must be finite, got %g", cfg->mu), NULL;
    }
    if (ds_network_check(net, err)) {
        ds_run_free(run);
        return NULL;
    }
    /* Everything that costs time (cbar, filters, factorisation set-up) happens
     * in ds_run_execute, on the engine's thread, reported as set-up steps. */
    return run;
}

/* The engine reads the monitors and the progress interval without a lock:
 * once execute has begun they are refused (a monitor added from another
 * thread meanwhile was a data race on the table emit() walks). */
int ds_run_add_monitor(ds_run *run, ds_monitor_fn fn, void *ctx)
{
    if (!run || !fn || atomic_load(&run->executed) || run->n_mon >= RUN_MAX_MONITORS) return -1;
    run->mon[run->n_mon] = fn;
    run->mon_ctx[run->n_mon] = ctx;
    run->n_mon++;
    return 0;
}

int ds_run_set_progress(ds_run *run, double first_s, double every_s)
{
    if (!run || atomic_load(&run->executed) || isnan(first_s) || isnan(every_s)) return -1;
    run->progress_first = first_s;
    run->progress_every = every_s >= 0 ? every_s : 0;
    return 0;
}

static void emit(ds_run *run, const ds_event *ev)
{
    run->t_last_event = run_now(); /* any line a front end prints ends a silence */
    run->t_next_progress = run->t_last_event + run->progress_first;
    for (int i = 0; i < run->n_mon; i++) run->mon[i](run, ev, run->mon_ctx[i]);
}

/* After each evaluation and J v of an iteration: DS_EVENT_PROGRESS when one
 * is due (one clock read; the counts for ds_run_phase in any case). */
static void work_done(ds_run *run, atomic_int *count)
{
    atomic_fetch_add_explicit(count, 1, memory_order_relaxed);
    if (run->progress_first < 0 || atomic_load_explicit(&run->phase, memory_order_relaxed) != 2) return;
    double now = run_now();
    if (now < run->t_next_progress) return;
    char buf[160];
    snprintf(buf, sizeof buf, "iteration %d in progress: evaluations %d, J v %d, %.1f s in it",
             atomic_load(&run->it_next), atomic_load(&run->it_evals), atomic_load(&run->it_jvs), now - run->t_iter0);
    ds_event ev = {DS_EVENT_PROGRESS, NULL, buf, DS_STATUS_RUNNING, 1.0};
    emit(run, &ev);
    run->t_next_progress = now + run->progress_every;
}

void run_message(ds_run *run, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    ds_event ev = {DS_EVENT_MESSAGE, NULL, buf, DS_STATUS_RUNNING, 0};
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    emit(run, &ev);
}

int run_cancelled(const ds_run *run) { return atomic_load(&((ds_run *)run)->cancel) != 0; }

/* pause_mu must be held */
static double elapsed_locked(const ds_run *run, double now)
{
    double end = run->t_end > 0 ? run->t_end : now, p = run->t_paused;
    if (run->t_start <= 0) return 0;
    if (run->t_pause_began > 0) p += end - run->t_pause_began;
    return end - run->t_start - p;
}

double run_elapsed(ds_run *run)
{
    double v;
    pthread_mutex_lock(&run->pause_mu);
    v = elapsed_locked(run, run_now());
    pthread_mutex_unlock(&run->pause_mu);
    return v;
}

void ds_run_times_get(const ds_run *run, ds_run_times *t)
{
    ds_run *r = (ds_run *)run;
    if (!t) return;
    if (!run) {
        *t = (ds_run_times){0, 0, 0, -1};
        return;
    }
    double now = run_now();
    pthread_mutex_lock(&r->pause_mu);
    t->wall = elapsed_locked(r, now);
    t->paused = r->t_paused + (r->t_pause_began > 0 ? (r->t_end > 0 ? r->t_end : now) - r->t_pause_began : 0);
    t->setup = r->t_setup_end > 0 ? r->t_setup_end : t->wall;
    t->t_tol = r->t_tol;
    pthread_mutex_unlock(&r->pause_mu);
}

int ds_run_phase(const ds_run *run, double *progress, char *label, size_t n)
{
    ds_run *r = (ds_run *)run;
    if (!run) {
        if (progress) *progress = 0;
        if (label && n) label[0] = '\0';
        return -1;
    }
    int ph = atomic_load(&r->phase);
    if (ph == 1) {
        pthread_mutex_lock(&r->snap_mu);
        if (progress) *progress = r->setup_progress;
        if (label && n) snprintf(label, n, "%s", r->setup_label);
        pthread_mutex_unlock(&r->snap_mu);
    } else {
        if (progress) *progress = ph >= 2 ? 1 : 0;
        if (label && n) label[0] = 0;
        if (ph == 2 && label && n)
            snprintf(label, n, "iteration %d in progress: evaluations %d, J v %d", atomic_load(&r->it_next),
                     atomic_load(&r->it_evals), atomic_load(&r->it_jvs));
    }
    return ph;
}

void run_setup_step(ds_run *run, double progress, const char *label)
{
    pthread_mutex_lock(&run->snap_mu);
    run->setup_progress = progress;
    snprintf(run->setup_label, sizeof run->setup_label, "%s", label);
    pthread_mutex_unlock(&run->snap_mu);
    ds_event ev = {DS_EVENT_SETUP, NULL, label, DS_STATUS_RUNNING, progress};
    emit(run, &ev);
}

int run_jv(ds_run *run, const double *v, double *out)
{
    ds_load_stats st;
    int rc;
    /* J v reads the inner state of the last evaluation: if that was not at
     * the iterate (a rejected trial or predictor, a lambda changed since),
     * evaluate the iterate again first (the same f, bit for bit) */
    if (!run->state_ok || memcmp(run->x_state, run->x, sizeof(double) * (size_t)run->n) != 0) {
        double merit;
        if (run_eval(run, run->x, run->f_state, &merit) != EV_OK) return -1;
        run->acc_loaded = run->ev_loaded;
        run->acc_arrived = run->ev_arrived;
    }
    memset(&st, 0, sizeof st);
    if (run->gpu) {
        rc = ds_gpu_loader_jv(run->gpu, run->x, v, out, &st);
    } else {
        rc = ds_loader_jv(run->ld, run->x, v, out);
        if (rc == LD_CANCELLED) return -1; /* (the caller sees the cancel) */
        ds_loader_stats(run->ld, &st);
    }
    if (rc != 0) {
        /* the device's words (a Krylov solve that gave up), which Newton's
         * GMRES would otherwise swallow into a failed direction */
        if (run->gpu)
            run_message(run, "CUDA backend: J v failed: %s", ds_gpu_last_error());
        else if (!run->jv_fail_said && run->cfg.filter == DS_FILTER_FULL && run->cfg.inner == DS_INNER_PASSES)
            run_message(run,
                        "J v failed: the derivative's passes (4 x --inner-max %d for the values, the "
                        "evaluation's cap for the absorption) did not converge; Newton's direction is lost "
                        "where that happens (--inner direct solves it exactly)",
                        run->cfg.inner_max);
        run->jv_fail_said = 1;
        return rc;
    }
    run->jvs++;
    work_done(run, &run->it_jvs);
    run->cur.t_phase[DS_PHASE_DERIV] += st.t_phase[DS_PHASE_DERIV];
    return 0;
}

static double norm2(const double *a, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += a[i] * a[i];
    return s;
}

int run_eval(ds_run *run, const double *x, double *fx, double *merit)
{
    ds_load_stats st;
    int rc;
    if (run_cancelled(run)) return EV_CANCELLED;
    /* Uncapped costs (--cap 0) overflow past x/c ~ 1e77 (power 4), where an
     * extrapolated or Anderson trial can overshoot: like a point where f does
     * not exist, such a trial shortens or rejects the step (it ended the run
     * through stop 40: the loader's -1 read as an error), and no iterate can
     * have costs that are not finite. Decided here for both backends (the
     * kernels would give such a link weight 0 and finite flows); the loader
     * is not called, counted as an evaluation of a trial point. */
    int e_inf = ds_costs_first_nonfinite(run->net, &run->cfg.cost, x);
    if (e_inf >= 0) {
        run->evals++;
        work_done(run, &run->it_evals);
        run->last_unconverged = 0;
        run->last_overflow = e_inf + 1;
        return EV_UNDEFINED;
    }
    if (run->gpu) {
        memset(&st, 0, sizeof st);
        rc = ds_gpu_loader_eval(run->gpu, x, fx, &st);
        if (rc < 0) snprintf(run->reason, sizeof run->reason, "CUDA backend: %s", ds_gpu_last_error());
    } else {
        rc = ds_loader_eval(run->ld, x, fx);
        if (rc == LD_CANCELLED) return EV_CANCELLED; /* stopped part way: fx untouched, not counted */
        ds_loader_stats(run->ld, &st);
    }
    run->evals++;
    work_done(run, &run->it_evals);
    run->cur.t_phase[DS_PHASE_COSTS] += st.t_phase[DS_PHASE_COSTS];
    run->cur.t_phase[DS_PHASE_BELLMAN] += st.t_phase[DS_PHASE_BELLMAN];
    run->cur.t_phase[DS_PHASE_ABSORB] += st.t_phase[DS_PHASE_ABSORB];
    run->cur.inner_passes = st.bellman_passes;
    run->cur.inner_resid = st.bellman_resid;
    run->cur.absorb_passes = st.absorb_passes;
    run->cur.lu_fresh += st.lu_fresh;
    run->cur.lu_reused += st.lu_reused;
    run->cur.lu_shared += st.lu_shared;
    if (rc == 0) {
        if (run->gpu)
            ds_gpu_loader_arrivals(run->gpu, &run->ev_loaded, &run->ev_arrived);
        else
            ds_loader_arrivals(run->ld, &run->ev_loaded, &run->ev_arrived);
    }
    run->state_ok = 0;
    if (rc < 0) return EV_ERROR;
    if (rc > 0) {
        run->last_overflow = 0;
        run->last_unconverged = st.unconverged;
        run->last_contraction = st.contraction;
        return EV_UNDEFINED;
    }
    double s = 0;
    for (int i = 0; i < run->n; i++) {
        double d = fx[i] - x[i];
        s += d * d;
    }
    if (!isfinite(s)) {
        run->last_overflow = 0;
        return EV_UNDEFINED;
    }
    *merit = s;
    if (x != run->x_state) memcpy(run->x_state, x, sizeof(double) * (size_t)run->n);
    run->state_ok = 1;
    return EV_OK;
}

void run_accept(ds_run *run, const double *xt, const double *ft, double merit)
{
    if (xt != run->x) memcpy(run->x, xt, sizeof(double) * (size_t)run->n);
    if (ft != run->fx) memcpy(run->fx, ft, sizeof(double) * (size_t)run->n);
    for (int i = 0; i < run->n; i++) run->r[i] = run->fx[i] - run->x[i];
    run->merit = merit;
    run->acc_loaded = run->ev_loaded;
    run->acc_arrived = run->ev_arrived;
    run->have_acc = 1;
    double nx = sqrt(norm2(run->x, run->n));
    run->gap = nx > 0 ? sqrt(merit) / nx : (merit > 0 ? INFINITY : 0);
}

/* ------------------------------------------------------------ telemetry */

/* Largest |inflow - outflow - (arrivals - departures)| over nodes of flows x. */
static double node_imbalance(ds_run *run, const double *x, double *bal, int *node)
{
    const ds_network *net = run->net;
    double worst = 0;
    memset(bal, 0, sizeof(double) * (size_t)net->n_nodes);
    for (int e = 0; e < net->n_links; e++) {
        bal[net->head[e]] += x[e];
        bal[net->tail[e]] -= x[e];
    }
    ds_loader_node_demand(run->ld, bal, -1.0);
    if (node) *node = -1;
    for (int i = 0; i < net->n_nodes; i++)
        if (fabs(bal[i]) > worst || (node && *node < 0)) {
            worst = fabs(bal[i]);
            if (node) *node = i;
        }
    return worst;
}

static double lost_pct_of(const ds_run *run, double arrived)
{
    double tot = run->net->total_demand;
    if (!run->have_acc || !(tot > 0)) return -1;
    return 100.0 * fmax(0.0, tot - arrived) / tot;
}

static void publish(ds_run *run, ds_iter_record *rec)
{
    size_t c = atomic_load_explicit(&run->count, memory_order_relaxed);
    size_t ci = c / TL_CHUNK;
    double now = run_now();
    rec->iter = run->iter;
    rec->gap_rel = run->gap;
    rec->merit = run->merit;
    rec->evals = run->evals;
    rec->jv = run->jvs;
    rec->backend = run->cfg.backend;
    rec->lost_pct = lost_pct_of(run, run->acc_arrived);
    rec->imbalance = run->node_bal ? node_imbalance(run, run->x, run->node_bal, NULL) : -1;
    rec->t_run = run_elapsed(run);
    if (run->gap < run->cfg.tol && run->t_tol < 0) {
        pthread_mutex_lock(&run->pause_mu);
        run->t_tol = rec->t_run;
        pthread_mutex_unlock(&run->pause_mu);
    }
    rec->timestamp = wall_clock();
    {
        double used = 0, wall = now - run->t_iter0;
        for (int p = 0; p < DS_PHASE_OTHER; p++) used += rec->t_phase[p];
        rec->t_phase[DS_PHASE_OTHER] = wall > used ? wall - used : 0;
    }
    run->t_iter0 = now;
    atomic_store(&run->it_evals, 0);
    atomic_store(&run->it_jvs, 0);
    atomic_store(&run->it_next, rec->iter + 1);
    if (ci < TL_MAX_CHUNKS) {
        if (!run->chunks[ci]) run->chunks[ci] = malloc(sizeof(ds_iter_record) * TL_CHUNK);
        if (run->chunks[ci]) {
            run->chunks[ci][c % TL_CHUNK] = *rec;
            atomic_store_explicit(&run->count, c + 1, memory_order_release);
        }
    }
    if (pthread_mutex_trylock(&run->snap_mu) == 0) {
        memcpy(run->snap_x, run->x, sizeof(double) * (size_t)run->n);
        memcpy(run->snap_fx, run->fx, sizeof(double) * (size_t)run->n);
        ds_costs_eval(run->net, &run->cfg.cost, run->x, run->snap_cost);
        run->snap_iter = run->iter;
        pthread_mutex_unlock(&run->snap_mu);
    }
    ds_event ev = {DS_EVENT_ITER, rec, NULL, DS_STATUS_RUNNING, 0};
    emit(run, &ev);
}

size_t ds_run_history_count(const ds_run *run)
{
    if (!run) return 0;
    return atomic_load_explicit(&((ds_run *)run)->count, memory_order_acquire);
}

size_t ds_run_history_copy(const ds_run *run, size_t from, ds_iter_record *out, size_t max)
{
    size_t c = ds_run_history_count(run), k = 0;
    if (!out) return 0;
    for (size_t i = from; i < c && k < max; i++, k++) out[k] = run->chunks[i / TL_CHUNK][i % TL_CHUNK];
    return k;
}

int ds_run_snapshot(const ds_run *run, double *x, double *fx, double *cost)
{
    ds_run *r = (ds_run *)run;
    int it;
    if (!run) return -1;
    pthread_mutex_lock(&r->snap_mu);
    it = r->snap_iter;
    if (it >= 0) {
        if (x) memcpy(x, r->snap_x, sizeof(double) * (size_t)r->n);
        if (fx) memcpy(fx, r->snap_fx, sizeof(double) * (size_t)r->n);
        if (cost) memcpy(cost, r->snap_cost, sizeof(double) * (size_t)r->n);
    }
    pthread_mutex_unlock(&r->snap_mu);
    return it;
}

/* -------------------------------------------------------------- control */

void ds_run_cancel(ds_run *run)
{
    if (!run) return;
    atomic_store(&run->cancel, 1);
    /* the sub-run is cancelled under pause_mu, which dsp_solution holds to
     * clear run->child before it frees the sub-run (a child loaded here and
     * cancelled after the engine had freed it was a use after free) */
    pthread_mutex_lock(&run->pause_mu);
    ds_run *child = atomic_load(&run->child);
    if (child) ds_run_cancel(child);
    pthread_cond_broadcast(&run->pause_cv);
    pthread_mutex_unlock(&run->pause_mu);
}

void ds_run_pause(ds_run *run, int paused)
{
    if (!run) return;
    pthread_mutex_lock(&run->pause_mu);
    atomic_store(&run->paused, paused ? 1 : 0);
    pthread_cond_broadcast(&run->pause_cv);
    pthread_mutex_unlock(&run->pause_mu);
}

int ds_run_is_paused(const ds_run *run) { return run ? atomic_load(&((ds_run *)run)->paused) : 0; }
ds_status ds_run_status(const ds_run *run)
{
    return run ? (ds_status)atomic_load(&((ds_run *)run)->status) : DS_STATUS_ERROR;
}
/* the engine writes reason until finish(): read once the run is done */
void ds_run_reason(const ds_run *run, char *buf, size_t n)
{
    if (!buf) return;
    if (!run || atomic_load(&((ds_run *)run)->phase) != 3) {
        if (n) buf[0] = '\0';
        return;
    }
    snprintf(buf, n, "%s", run->reason);
}
const ds_config *ds_run_config(const ds_run *run) { return run ? &run->cfg : NULL; }
const ds_network *ds_run_network(const ds_run *run) { return run ? run->net : NULL; }
/* run_setup writes them under snap_mu while a front end may be reading */
static double locked_read(const ds_run *run, const double *v)
{
    ds_run *r = (ds_run *)run;
    pthread_mutex_lock(&r->snap_mu);
    double x = *v;
    pthread_mutex_unlock(&r->snap_mu);
    return x;
}
double ds_run_mu(const ds_run *run) { return run ? locked_read(run, &run->mu) : NAN; }
double ds_run_cbar(const ds_run *run) { return run ? locked_read(run, &run->cbar) : NAN; }
/* finish() allocates and fills them before it stores phase 3: a front end
 * that polled them saw the pointer before the values (and read it in a data
 * race under TSan) */
const double *ds_run_flows(const ds_run *run)
{
    if (!run) return NULL;
    return atomic_load(&((ds_run *)run)->phase) == 3 ? run->res_flows : NULL;
}
const double *ds_run_costs(const ds_run *run)
{
    if (!run) return NULL;
    return atomic_load(&((ds_run *)run)->phase) == 3 ? run->res_costs : NULL;
}

/* Pauses take effect between iterations; the time spent here is not run time. */
static void wait_if_paused(ds_run *run)
{
    pthread_mutex_lock(&run->pause_mu);
    if (atomic_load(&run->paused) && !atomic_load(&run->cancel)) {
        run->t_pause_began = run_now();
        while (atomic_load(&run->paused) && !atomic_load(&run->cancel))
            pthread_cond_wait(&run->pause_cv, &run->pause_mu);
        double dt = run_now() - run->t_pause_began;
        run->t_paused += dt;
        run->t_iter0 += dt; /* a pause is no time of the next iteration's phases (it was its "other") */
        run->t_pause_began = 0;
    }
    pthread_mutex_unlock(&run->pause_mu);
}

/* ---------------------------------------------------------- start point */

/* Full graph: prove ill-posedness when even the largest costs the cap allows
 * leave the weight matrix with spectral radius >= 1 (W only shrinks as costs
 * grow, so no flow vector can help). */
/* phase 0: the spectral-radius bound (cheap, before the LU set-up);
 * phase 1: the exact LU existence test (needs the direct inner solver). */
static int check_ill_posed(ds_run *run, int phase)
{
    double lb, est;
    int d;
    double *tmax = run->tcost;
    ds_costs_max(run->net, &run->cfg.cost, tmax);
    ds_loader_rho(run->ld, tmax, &lb, &est, &d);
    char at[160]; /* where the proof stands: the cap's costs, or (--cap 0) none of the flow-dependent links */
    if (run->cfg.cost.cap > 0)
        snprintf(at, sizeof at, "at the largest costs the cap allows (x/c = %g)", run->cfg.cost.cap);
    else
        snprintf(at, sizeof at, "even with the cost of every flow-dependent link unbounded (--cap 0: no cap)");
    if (phase == 0 && lb >= 1.0) {
        /* The links whose cost is 0 at every flow alone: weight exp(-mu 0) = 1
         * whatever mu and cap, and every other weight >= 0, so a bound >= 1
         * from them proves it for every dispersion and cap (Chicago-Sketch's
         * connectors of free-flow time 0 run both ways). */
        double lb0, est0;
        int d0;
        const ds_network *net = run->net; /* (a flow-dependent link costs 0 at the cap only by rounding) */
        for (int e = 0; e < run->n; e++)
            tmax[e] = tmax[e] == 0 && !dsk_flow_dependent(net->t0[e], net->bpr_b[e], net->bpr_power[e]) ? 0 : INFINITY;
        ds_loader_rho(run->ld, tmax, &lb0, &est0, &d0);
        if (lb0 >= 1.0) {
            snprintf(run->reason, sizeof run->reason,
                     "no fixed point exists " DS_REASON_ANY_DISPERSION ": the links whose cost is 0 at every flow "
                     "form cycles of weight exp(-mu 0) = 1 through which exp(-mu t) has spectral radius >= %.6g "
                     "(Collatz-Wielandt bound, destination %d), so the Bellman values diverge for every flow vector",
                     lb0, d0 >= 0 ? ds_node_id(run->net, run->net->dest_node[d0]) : 0);
            return 1;
        }
        snprintf(run->reason, sizeof run->reason,
                 "no fixed point exists: %s the weight matrix "
                 "exp(-mu t) has spectral radius >= %.6g (Collatz-Wielandt bound; power iteration %.6g, "
                 "destination %d), so the Bellman values diverge for every flow vector (mu = %.6g)",
                 at, lb, est, d >= 0 ? ds_node_id(run->net, run->net->dest_node[d]) : 0, run->mu);
        return 1;
    }
    /* The exact inner solve decides it too: (I - W~) z = b has a solution
     * z >= 1 iff the spectral radius is below 1 (see loader_direct.c). */
    if (phase == 1 && run->cfg.inner == DS_INNER_DIRECT && run->cfg.backend == DS_BACKEND_CPU &&
        run->cfg.cost.cap > 0) {
        int all_finite = 1;
        for (int e = 0; e < run->n; e++)
            if (!isfinite(tmax[e])) all_finite = 0;
        if (all_finite && ds_loader_eval_costs(run->ld, tmax, run->ft) == 1) {
            ds_load_stats st;
            ds_loader_stats(run->ld, &st);
            int dd = st.diverged_dest;
            /* only a destination whose system has no positive solution proves
             * it; any other failure (flows beyond the doubles) proves nothing */
            if (dd < 0) return 0;
            snprintf(run->reason, sizeof run->reason,
                     "no fixed point exists: %s the linear system "
                     "(I - W) z = b of destination %d has no positive solution (sparse LU), which happens exactly "
                     "when the spectral radius of exp(-mu t) is >= 1 (power iteration %.6g, Collatz-Wielandt "
                     "lower bound %.6g); so the Bellman values diverge for every flow vector (mu = %.6g)",
                     at, dd >= 0 ? ds_node_id(run->net, run->net->dest_node[dd]) : 0, est, lb, run->mu);
            return 1;
        }
    }
    return 0;
}

/* "The inner solve ran out", in the words of the solver that ran out: the
 * Jacobi passes (--inner passes, either backend) or the GPU's exact inner
 * solve (BiCGSTAB, full graph); and what to try instead. */
static void pass_limit_words(const ds_run *run, char *buf, size_t n)
{
    int lim = run->gpu ? ds_gpu_loader_pass_limit(run->gpu) : run->cfg.inner_max;
    if (lim != run->cfg.inner_max)
        snprintf(buf, n, "%d passes (--inner-max %d + %d, the free-flow trees' depth: the GPU's passes are Jacobi's)",
                 lim, run->cfg.inner_max, lim - run->cfg.inner_max);
    else
        snprintf(buf, n, "%d passes", lim);
}

static void unconverged_words(const ds_run *run, char *buf, size_t n)
{
    char lim[160];
    pass_limit_words(run, lim, sizeof lim);
    if (run->gpu && run->cfg.inner == DS_INNER_DIRECT)
        snprintf(buf, n, "the GPU's exact inner solve (BiCGSTAB) did not reach its tolerance within %d iterations",
                 DS_GPU_KRYLOV_MAX);
    else
        snprintf(buf, n, "the inner values did not converge within %s", lim);
}

static const char *unconverged_advice(const ds_run *run)
{
    if (run->gpu && run->cfg.inner == DS_INNER_DIRECT) return "--backend cpu solves it by sparse LU";
    return "raise --inner-max or use --inner direct";
}

/* Search s x capacity for growing s until f exists. When the cap is on,
 * s = cap gives the largest costs, so the search ends there; if f does not
 * exist there either, run_start's exact test decides whether it exists
 * anywhere. base (may be NULL) is added: x = base + s c. */
static int capacity_search(ds_run *run, const double *base, const char *why)
{
    double lb, est;
    int d, rc;
    ds_costs_eval(run->net, &run->cfg.cost, run->x, run->tcost);
    ds_loader_rho(run->ld, run->tcost, &lb, &est, &d);
    double top = run->cfg.cost.cap > 0 ? run->cfg.cost.cap : 1e6;
    for (double s = 0.25;; s *= 2) {
        if (s > top) s = top;
        for (int e = 0; e < run->n; e++) run->xt[e] = (base ? base[e] : 0) + s * run->net->capacity[e];
        rc = run_eval(run, run->xt, run->ft, &run->merit);
        if (rc == EV_OK) {
            snprintf(run->start_desc, sizeof run->start_desc,
                     "%s%g x capacity (%s; spectral radius of exp(-mu t) ~ %.4g at the point tried first)",
                     base ? "the DSP solution + " : "", s, why, est);
            run_accept(run, run->xt, run->ft, run->merit);
            return EV_OK;
        }
        if (rc != EV_UNDEFINED) return rc;
        if (s >= top) break;
    }
    if (run->last_unconverged) {
        char w[256];
        unconverged_words(run, w, sizeof w);
        snprintf(run->reason, sizeof run->reason,
                 "no start point found: %s at any loaded start up to x = %g x capacity (contraction %.4f per "
                 "pass; spectral radius ~ %.4g at the first start): %s; this is not evidence that no fixed point "
                 "exists",
                 w, top, run->last_contraction, est, unconverged_advice(run));
    } else
        snprintf(run->reason, sizeof run->reason,
                 "the Bellman values diverge at the start point (spectral radius ~ %.4g) and at every loaded start up "
                 "to x = %g x capacity; no fixed point was found (not a proof: %s)",
                 est, top, run->cfg.cost.cap > 0 ? "rounding near rho = 1" : "with --cap 0 costs are unbounded");
    return EV_UNDEFINED;
}

/* The cheapest load we know how to find that makes f exist: load only the
 * links of the cycles that make the spectral radius of exp(-mu t) >= 1 (the
 * Perron support of the worst destination, ds_loader_rho_support), each to
 * the flow that raises its cost by the same s / mu (its weight times e^-s),
 * for s = 0.25, 0.5, 1, ..., and add the support of whatever cycle is worst
 * next, until the power-iteration estimate is below 1 and an evaluation
 * confirms that f exists. An additive cost on every link of the support
 * scales that part of the weight matrix, and its radius, by e^-s exactly;
 * a load of s x capacity (the rule until stop 11) raised the costs of long
 * links a hundredfold where short ones needed it, and unreduced values out
 * of range then made every evaluation near the start solve each destination
 * on its own (Austin-SDB full: 37 iterations and 137 s from there, 25 and 98
 * s from this one). Links whose cost does not depend on flow (b t0 = 0) get
 * nothing, loads stop at the cap. Where the last doubling took the estimate
 * from above 1 to below with the same links, the crossing is bisected (power
 * iterations only) and the start is CYC_MARGIN above it. Links that no
 * diverging cycle uses stay at x = 0 (or at the given base flows: a warm
 * start is kept). Returns EV_OK (start accepted), EV_UNDEFINED (not found:
 * the caller falls back to the uniform search) or an error. */
#define CYC_MARGIN 1.25
#define CYC_BISECT 6
#define CYC_TOP 700.0 /* e^-700: any weight is gone */

static void cycle_point(ds_run *run, const double *base, const unsigned char *mark, double s)
{
    const ds_network *net = run->net;
    double cap = run->cfg.cost.cap;
    for (int e = 0; e < run->n; e++) {
        double add = 0, tb = net->t0[e] * net->bpr_b[e], p = net->bpr_power[e];
        if (mark[e] && tb > 0 && p > 0) {
            add = net->capacity[e] * pow(s / run->mu / tb, 1 / p); /* t0 b (x / c)^p = s / mu */
            if (cap > 0 && add > cap * net->capacity[e]) add = cap * net->capacity[e];
        }
        run->xt[e] = (base ? base[e] : 0) + add;
    }
    ds_costs_eval(run->net, &run->cfg.cost, run->xt, run->tcost);
}

/* Evaluate the cycle load s; on success it is the start (start_desc filled). */
static int cycle_try(ds_run *run, const double *base, const char *base_name, const unsigned char *mark, double s,
                     int marked, const char *why, double est0)
{
    cycle_point(run, base, mark, s);
    int rc = run_eval(run, run->xt, run->ft, &run->merit);
    if (rc != EV_OK) return rc;
    snprintf(run->start_desc, sizeof run->start_desc,
             "%s%sthe %d links of the diverging cycles loaded to cost + %.3g/mu (weights x e^-%.3g)%s (%s; "
             "spectral radius of exp(-mu t) ~ %.4g at %s)",
             base ? base_name : "", base ? " + " : "", marked, s, s, base ? "" : ", 0 elsewhere", why, est0,
             base ? base_name : "x = 0");
    run_accept(run, run->xt, run->ft, run->merit);
    return EV_OK;
}

static int cycle_search(ds_run *run, const double *base, const char *base_name, const char *why)
{
    int n = run->n, rc = EV_UNDEFINED, rounds = 0, marked = 0;
    unsigned char *mark = calloc((size_t)n + 1, 1);
    /* on top of given flows (maybe near the existence boundary) a smaller first load */
    double s = base ? 1.0 / 64 : 0.25, top = CYC_TOP, est, est0 = -1;
    double s_above = 0; /* the same links at this load had an estimate >= 1 */
    if (!mark) return EV_ERROR;
    for (; rounds < 200 && s <= top && !run_cancelled(run); rounds++) {
        int d, added;
        cycle_point(run, base, mark, s);
        ds_loader_rho_estimate(run->ld, run->tcost, &est, &d); /* an evaluation decides, not the estimate */
        if (est0 < 0) est0 = est;
        if (est < 1 - 1e-6) {
            if (s_above > 0) {
                double lo = s_above, hi = s, e2;
                for (int k = 0; k < CYC_BISECT; k++) {
                    double mid = 0.5 * (lo + hi);
                    int d2;
                    cycle_point(run, base, mark, mid);
                    ds_loader_rho_estimate(run->ld, run->tcost, &e2, &d2);
                    *(e2 < 1 - 1e-6 ? &hi : &lo) = mid;
                }
                s_above = 0;
                if (CYC_MARGIN * hi < s) {
                    rc = cycle_try(run, base, base_name, mark, CYC_MARGIN * hi, marked, why, est0);
                    if (rc != EV_UNDEFINED) break;
                }
            }
            rc = cycle_try(run, base, base_name, mark, s, marked, why, est0);
            if (rc != EV_UNDEFINED) break;
            s *= 2; /* the estimate was optimistic */
            continue;
        }
        added = ds_loader_rho_support(run->ld, run->tcost, d, mark);
        marked += added;
        s_above = added ? 0 : s;
        if (!added) s *= 2; /* the cycles are loaded, not enough */
        {
            char buf[96];
            snprintf(buf, sizeof buf, "start point: %d cycle links at cost + %g/mu, spectral radius ~ %.3g", marked, s,
                     est);
            run_setup_step(run, 0.85, buf);
        }
    }
    free(mark);
    if (run_cancelled(run) && rc != EV_OK) return EV_CANCELLED;
    return rc;
}

static void forward_message(ds_run *child, const ds_event *ev, void *ctx)
{
    (void)child;
    ds_run *run = ctx;
    if (ev->kind == DS_EVENT_ITER && ev->rec->iter > 0) {
        char buf[96];
        snprintf(buf, sizeof buf, "start point: DSP solution, iteration %d, gap_rel %.2e", ev->rec->iter,
                 ev->rec->gap_rel);
        run_setup_step(run, 0.85, buf);
    }
}

/* The solution of the DSP variant at the same mu, to a loose tolerance: on
 * the full graph it loads the links every shortest route uses, which is where
 * the equilibrium's congestion is; x = 0 or a uniform multiple of capacity
 * is far from it. Returns EV_OK with run->xt filled, or why not. */
static int dsp_solution(ds_run *run)
{
    ds_config c = run->cfg;
    ds_error err;
    c.filter = DS_FILTER_DSP;
    c.mu = run->mu;
    c.tol = run->cfg.tol > 1e-4 ? run->cfg.tol : 1e-4;
    c.max_iter = 100;
    c.start = DS_START_ZERO;
    c.backend = DS_BACKEND_CPU;
    c.warm = NULL;
    c.solver = DS_SOLVER_NEWTON;
    ds_run *sub = ds_run_create(run->net, &c, &err);
    if (!sub) return EV_ERROR;
    ds_run_add_monitor(sub, forward_message, run);
    pthread_mutex_lock(&run->pause_mu); /* ds_run_cancel reads child under it */
    atomic_store(&run->child, sub);
    pthread_mutex_unlock(&run->pause_mu);
    if (run_cancelled(run)) ds_run_cancel(sub);
    ds_status st = ds_run_execute(sub);
    pthread_mutex_lock(&run->pause_mu);
    atomic_store(&run->child, NULL);
    pthread_mutex_unlock(&run->pause_mu);
    int rc = EV_ERROR;
    if (st == DS_STATUS_CANCELLED || run_cancelled(run)) {
        rc = EV_CANCELLED;
    } else if ((st == DS_STATUS_CONVERGED || st == DS_STATUS_MAX_ITER) && ds_run_flows(sub)) {
        memcpy(run->xt, ds_run_flows(sub), sizeof(double) * (size_t)run->n);
        run->start_sub_iters = (int)ds_run_history_count(sub) - 1;
        rc = EV_OK;
    }
    ds_run_free(sub);
    return rc;
}

/* --start relax (docs/model.md "Start point"): a continuation from the DSP
 * solution to the full graph. Links outside destination d's DSP DAG weigh
 * lambda exp(-mu t) in d's problem (ds_loader_set_relax); lambda -> 0 is the
 * DSP variant, lambda = 1 the full graph. Every cycle of the full graph has a
 * link outside the DAG, so f exists for small lambda wherever it exists for
 * DSP. The parameter s = -log lambda starts at RX_S0, doubled while the DSP
 * solution's gap_rel in the relaxed model is above RX_STAGE_TOL (the penalty
 * -log(lambda)/mu must outweigh the DSP routes' congestion), and goes to 0 in
 * steps h: each stage starts from the secant predictor through the last two
 * stage solutions (the first from the last solution) and is solved by the
 * run's solver to RX_STAGE_TOL. Where f does not exist at the predictor, or
 * a stage does not reach its tolerance in RX_STAGE_ITERS iterations, the step
 * is retried from the last solution with h halved; after RX_REFINE_AFTER
 * failed predictors from one solution it is refined to RX_STAGE_TOL_FINE once
 * and the same step retried. A predictor at gap_rel g > RX_GAP_REJECT is retried at once with
 * h scaled by sqrt(RX_GAP_TARGET / g) within [0.25, 0.5]; after a stage that
 * started at gap_rel g, h is scaled by sqrt(RX_GAP_TARGET / g) within
 * [0.5, 4] (the secant predictor's error grows as h^2), and while s >
 * RX_SHALF a step goes at most half way to 0. The stage at lambda = 1 is the
 * run itself: its first point is the start. */
#define RX_S0 24.0
#define RX_SMAX 700.0 /* exp(-700) is still a normal double */
#define RX_H0 4.0
#define RX_HMIN 1e-3
#define RX_SHALF 1.0
#define RX_STAGE_TOL 5e-2
#define RX_STAGE_TOL_FINE 1e-2 /* a stage solution refined after failed predictors */
/* Refine only after this many failed predictors from one stage solution: a
 * halved step costs one evaluation, a refinement 3 to 6 Newton iterations,
 * and on Austin-SDB 6 of 9 refinements were followed by a failed predictor
 * all the same (docs/model.md) */
#define RX_REFINE_AFTER 3
#define RX_STAGE_ITERS 8
#define RX_GAP_TARGET 0.3 /* gap_rel wanted at the start of a stage */
#define RX_GAP_REJECT 1.0 /* above it a stage is not started: shorter step */

/* The penalty on the CPU loader and, on the CUDA backend, on the device's
 * (the same bits and the same -log(lambda) / mu). 0 or -1 (reason set). */
static int relax_set(ds_run *run, double lambda)
{
    run->state_ok = 0; /* the inner state is the old lambda's */
    if (ds_loader_set_relax(run->ld, lambda) != 0) {
        snprintf(run->reason, sizeof run->reason, "relax: cannot set lambda %g (out of memory?)", lambda);
        return -1;
    }
    if (run->gpu && ds_gpu_loader_set_relax(run->gpu, lambda) != 0) {
        snprintf(run->reason, sizeof run->reason, "CUDA backend: %s", ds_gpu_last_error());
        return -1;
    }
    return 0;
}

static int relax_stage(ds_run *run, const solver_ops *ops, void *state, double tol, int *iters)
{
    if (ops->reset) ops->reset(run, state);
    run->iter = 0;
    while (run->gap >= tol && run->iter < RX_STAGE_ITERS) {
        if (run_cancelled(run)) return EV_CANCELLED;
        memset(&run->cur, 0, sizeof run->cur);
        int rc = ops->step(run, state, &run->cur);
        if (rc != EV_OK) return rc;
        run->iter++;
        (*iters)++;
    }
    return run->gap < tol ? EV_OK : EV_UNDEFINED;
}

/* The first lambda: small enough that the DSP solution (in run->xt) is a
 * stage solution already (the penalty must outweigh the congestion on the DSP
 * routes, which a penalty in cost units does only when it is large). The DSP
 * solution is accepted as the iterate, at lambda = exp(-*s). */
static int relax_first_lambda(ds_run *run, double *s)
{
    for (;;) {
        if (relax_set(run, exp(-*s)) != 0) return EV_ERROR;
        int rc = run_eval(run, run->xt, run->ft, &run->merit);
        if (rc != EV_OK) return rc;
        run_accept(run, run->xt, run->ft, run->merit);
        if (run->gap < RX_STAGE_TOL || 2 * *s > RX_SMAX) return EV_OK;
        *s *= 2;
    }
}

/* A stage's first point, accepted as the iterate: the secant predictor
 * xs + a (xs - xp) through the last two stage solutions, or xs where there
 * is no xp yet (where there is one, the last solution has never served when
 * the predictor failed: not worth an evaluation). */
static int relax_predict(ds_run *run, const double *xs, const double *xp, double a)
{
    for (int e = 0; e < run->n; e++) {
        double v = xp ? xs[e] + a * (xs[e] - xp[e]) : xs[e];
        run->xt[e] = v > 0 ? v : 0;
    }
    int rc = run_eval(run, run->xt, run->ft, &run->merit);
    if (rc == EV_OK) run_accept(run, run->xt, run->ft, run->merit);
    return rc;
}

static int relax_start(ds_run *run)
{
    const solver_ops *ops = solver_table(run->cfg.solver);
    int n = run->n, rc, stages = 0, iters = 0, retries = 0, ev0, fails_here = 0;
    double t0 = run_elapsed(run), s = RX_S0, s0, h = RX_H0, h_prev = 0, merit_save = 0, refined_at = -1;
    void *state = NULL;
    double *xs = malloc(sizeof(double) * (size_t)(n + 1)), *fs = malloc(sizeof(double) * (size_t)(n + 1));
    double *xp = malloc(sizeof(double) * (size_t)(n + 1));
    if (!xs || !fs || !xp || ops->init(run, &state) != 0) {
        rc = EV_ERROR;
        goto out;
    }
    run_setup_step(run, 0.85, "start point: DSP solution");
    rc = dsp_solution(run);
    if (rc != EV_OK) goto out;
    ev0 = run->evals;
    rc = relax_first_lambda(run, &s);
    if (rc != EV_OK) goto out;
    s0 = s;
    rc = relax_stage(run, ops, state, RX_STAGE_TOL, &iters);
    if (rc != EV_OK) goto out;
    run_message(run, "relax: lambda %.3g: %d iterations, gap_rel %.2e", exp(-s), run->iter, run->gap);
    while (s > 0) {
        /* at most half way to lambda = 1 while s > RX_SHALF: a longer step
         * has never found f defined at its predictor on the shared networks */
        double s_new = s - h > 0 ? s - h : 0;
        if (s > RX_SHALF && s_new < 0.5 * s) s_new = 0.5 * s;
        double lam = exp(-s_new);
        char buf[128];
        memcpy(xs, run->x, sizeof(double) * (size_t)n);
        memcpy(fs, run->fx, sizeof(double) * (size_t)n);
        merit_save = run->merit;
        if (relax_set(run, lam) != 0) {
            rc = EV_ERROR;
            goto out;
        }
        snprintf(buf, sizeof buf, "start point: relax lambda %.3g (stage %d)", lam, stages + 1);
        run_setup_step(run, 0.85 + 0.14 * (1 - s_new / s0), buf);
        memset(&run->cur, 0, sizeof run->cur);
        rc = relax_predict(run, xs, h_prev > 0 ? xp : NULL, h_prev > 0 ? (s - s_new) / h_prev : 0);
        int undefined = rc == EV_UNDEFINED, far = 0;
        double gap0 = run->gap;
        /* a predictor this far from the stage's solution costs more
         * iterations than a shorter step: retry at once */
        far = rc == EV_OK && gap0 > RX_GAP_REJECT;
        if (far) rc = EV_UNDEFINED;
        if (rc == EV_OK && s_new > 0) rc = relax_stage(run, ops, state, RX_STAGE_TOL, &iters);
        if (rc == EV_CANCELLED || rc == EV_ERROR) goto out;
        if (rc == EV_OK) {
            stages++;
            fails_here = 0;
            if (s_new > 0)
                run_message(run, "relax: lambda %.3g: %d iterations from the %s (gap_rel %.2e), gap_rel %.2e", lam,
                            run->iter, h_prev > 0 ? "secant predictor" : "last solution", gap0, run->gap);
            memcpy(xp, xs, sizeof(double) * (size_t)n);
            h_prev = s - s_new;
            s = s_new;
            /* the next step from how far this stage started from its
             * solution: the secant predictor's error grows as h^2 */
            h = h_prev * (gap0 > 0 ? fmin(4.0, fmax(0.5, sqrt(RX_GAP_TARGET / gap0))) : 4.0);
            continue;
        }
        /* f does not exist at the new lambda, or the stage did not converge:
         * back to the last solution */
        retries++;
        if (relax_set(run, exp(-s)) != 0) {
            rc = EV_ERROR;
            goto out;
        }
        run_accept(run, xs, fs, merit_save);
        fails_here++;
        if (undefined && run->gap >= RX_STAGE_TOL_FINE && refined_at != s && fails_here >= RX_REFINE_AFTER) {
            /* near the existence boundary the predictor needs an accurate
             * stage solution: refine it and retry the same step */
            int it0 = iters;
            refined_at = s;
            rc = relax_stage(run, ops, state, RX_STAGE_TOL_FINE, &iters);
            if (rc == EV_CANCELLED || rc == EV_ERROR) goto out;
            run_message(run,
                        "relax: lambda %.3g: f does not exist at the predictor; lambda %.3g refined to gap_rel %.2e "
                        "(%d iterations), same step",
                        lam, exp(-s), run->gap, iters - it0);
            if (rc == EV_OK) {
                memcpy(xs, run->x, sizeof(double) * (size_t)n);
                memcpy(fs, run->fx, sizeof(double) * (size_t)n);
                merit_save = run->merit;
                h = s - s_new;
                continue;
            }
            run_accept(run, xs, fs, merit_save);
        }
        /* half the step (less where the predictor was far) */
        double shrink = far ? fmax(0.25, fmin(0.5, sqrt(RX_GAP_TARGET / gap0))) : 0.5;
        run_message(run, "relax: lambda %.3g: %s; step in -log(lambda) %.3g -> %.3g", lam,
                    undefined ? "f does not exist at the predictor"
                    : far     ? "the predictor is too far from the solution"
                              : "stage did not converge",
                    s - s_new, (s - s_new) * shrink);
        h = (s - s_new) * shrink;
        if (h < RX_HMIN) {
            snprintf(run->reason, sizeof run->reason,
                     "the relax continuation from the DSP solution stalled at lambda %.4g (step in -log(lambda) "
                     "below %g; not evidence that no fixed point exists)",
                     exp(-s), RX_HMIN);
            rc = EV_UNDEFINED;
            goto out;
        }
    }
    /* s = 0: the last evaluation was at lambda = 1 (the full graph), so the
     * kept inner state is the start's own */
    run->iter = 0;
    memset(&run->cur, 0, sizeof run->cur);
    snprintf(run->start_desc, sizeof run->start_desc,
             "relaxed-filter continuation from the DSP solution (DSP: %d iterations; %d stages from lambda %.2g to 1, "
             "%d retried, %d iterations, %d evaluations, %.1f s)",
             run->start_sub_iters, stages, exp(-s0), retries, iters, run->evals - ev0, run_elapsed(run) - t0);
    rc = EV_OK;
out:
    if (rc != EV_OK) relax_set(run, 1);
    if (state) ops->free(state);
    free(xs), free(fs), free(xp);
    return rc;
}

/* The trial cost that overflowed (run->last_overflow): which link, where. */
static void overflow_words(const ds_run *run, const char *where, char *buf, size_t n)
{
    const ds_network *net = run->net;
    int e = run->last_overflow - 1;
    snprintf(buf, n, "the cost of link %d -> %d overflows %s (x/c unbounded: --cap 0)", ds_node_id(net, net->tail[e]),
             ds_node_id(net, net->head[e]), where);
}

/* Why the evaluation at a start x just failed, in the words the start's
 * description and reason use: f does not exist there (the Bellman values
 * diverge), or the inner solve ran out (unconverged_words), which by itself
 * says nothing about existence; then a Collatz-Wielandt bound >= 1 at x is
 * the proof that f does not exist (the GPU's BiCGSTAB cannot tell a system
 * without a positive solution from a slow one; Anaheim full at x = 0). */
static void undefined_why(ds_run *run, const double *x, const char *where, char *buf, size_t n)
{
    const char *f = !strcmp(where, "at x = 0") ? "f(0)" : "f";
    const char *at = !strcmp(where, "at x = 0") ? "" : where;
    if (run->last_overflow) {
        overflow_words(run, where, buf, n);
        return;
    }
    if (run->last_unconverged) {
        double lb, est;
        int d;
        char w[256];
        ds_costs_eval(run->net, &run->cfg.cost, x, run->tcost);
        ds_loader_rho(run->ld, run->tcost, &lb, &est, &d);
        if (lb >= 1.0) {
            snprintf(buf, n, "%s does not exist%s%s, by a Collatz-Wielandt bound of %.4g on the spectral radius", f,
                     at[0] ? " " : "", at, lb);
            return;
        }
        unconverged_words(run, w, sizeof w);
        snprintf(buf, n, "%s %s", w, where);
    } else
        snprintf(buf, n, "%s does not exist%s%s", f, at[0] ? " " : "", at);
}

/* The start point: the warm start, x = 0, the DSP solution or a loaded
 * start, as cfg.start says (docs/model.md "Start point"). Fills start_desc. */
static int choose_start(ds_run *run)
{
    int rc;
    ds_start mode = run->cfg.start;
    char why[400] = "";
    if (run->warm) {
        memcpy(run->x, run->warm, sizeof(double) * (size_t)run->n);
        rc = run_eval(run, run->x, run->fx, &run->merit);
        if (rc == EV_OK) {
            snprintf(run->start_desc, sizeof run->start_desc, "the given warm-start flows");
            run_accept(run, run->x, run->fx, run->merit);
        }
        /* MSA's steps 1/(l+1) count this run's iterations: from a checkpoint
         * of a long MSA run the first step is x = f(x) (Anaheim, 200
         * iterations to gap_rel 1.2e-2, went on: 6.0e-2 after 5 more) */
        if (run->cfg.solver == DS_SOLVER_MSA)
            run_message(run, "note: MSA's steps 1/(l+1) start again at l = 0 from warm-start flows (the first is x = "
                             "f(x)): resuming a long MSA run loses its averaging; sra and newton go on from the "
                             "flows as they are");
        if (rc != EV_UNDEFINED) return rc;
        undefined_why(run, run->warm, "at the warm-start flows", why, sizeof why);
        /* keep the given flows: load only the diverging cycles on top of them */
        rc = cycle_search(run, run->warm, "the warm-start flows", why);
        if (rc != EV_UNDEFINED) return rc;
        return capacity_search(run, NULL, why);
    }
    if (mode == DS_START_RELAX && run->cfg.filter == DS_FILTER_FULL) {
        rc = relax_start(run);
        if (rc != EV_UNDEFINED) return rc;
        /* stalled (the reason says where): the cycle-load search of auto */
        snprintf(why, sizeof why, "%.150s", run->reason);
        run->reason[0] = 0;
        rc = cycle_search(run, NULL, NULL, why);
        if (rc != EV_UNDEFINED) return rc;
        return capacity_search(run, NULL, why);
    }
    if (mode != DS_START_DSP && mode != DS_START_CAPACITY) {
        rc = run_eval(run, run->x, run->fx, &run->merit);
        if (rc == EV_OK) {
            snprintf(run->start_desc, sizeof run->start_desc, "x = 0");
            run_accept(run, run->x, run->fx, run->merit);
        }
        if (rc != EV_UNDEFINED) return rc;
        undefined_why(run, run->x, "at x = 0", why, sizeof why);
        /* auto: the DSP solution is tried only on request. On every shared
         * network where f(0) does not exist (Anaheim, Austin-SDB full) f does
         * not exist at the DSP solution either (the diverging cycles carry no
         * DSP flow), so it cost a sub-solve for nothing (docs/model.md). */
        if (mode == DS_START_ZERO) return capacity_search(run, NULL, why);
        if (mode == DS_START_AUTO || mode == DS_START_RELAX) { /* relax: the filtered variants */
            rc = cycle_search(run, NULL, NULL, why);
            if (rc != EV_UNDEFINED) return rc;
            return capacity_search(run, NULL, why);
        }
    }
    if (mode == DS_START_CAPACITY) return capacity_search(run, NULL, "--start capacity");
    /* auto (f(0) does not exist) or dsp */
    if (run->cfg.filter == DS_FILTER_DSP && mode == DS_START_DSP) snprintf(why, sizeof why, "--start dsp");
    run_setup_step(run, 0.85, "start point: DSP solution");
    rc = dsp_solution(run);
    if (rc == EV_CANCELLED) return rc;
    if (rc == EV_OK) {
        double *base = malloc(sizeof(double) * (size_t)(run->n + 1));
        if (!base) return EV_ERROR;
        memcpy(base, run->xt, sizeof(double) * (size_t)run->n);
        rc = run_eval(run, base, run->ft, &run->merit);
        if (rc == EV_OK) {
            snprintf(run->start_desc, sizeof run->start_desc, "the DSP solution at the same mu (%d iterations; %s)",
                     run->start_sub_iters, why[0] ? why : "--start dsp");
            run_accept(run, base, run->ft, run->merit);
        } else if (rc == EV_UNDEFINED) {
            char w2[sizeof why + 32]; /* why and the words after it (gcc -O0: -Wformat-truncation) */
            snprintf(w2, sizeof w2, "%s, nor at the DSP solution", why[0] ? why : "f does not exist");
            rc = capacity_search(run, base, w2);
        }
        free(base);
        return rc;
    }
    return capacity_search(run, NULL, why[0] ? why : "the DSP solution failed");
}

/* ---------------------------------------------------------------- eDSP */

typedef struct edsp_state {
    int refresh;
    uint64_t sigs[64];
    int n_sigs;
    double *tmask; /* costs the current mask was built from (for damping) */
} edsp_state;

enum { EDSP_GO_ON = 1, EDSP_UNCHANGED = 0, EDSP_OSCILLATES = 2, EDSP_LIMIT = 3, EDSP_FAILED = -1 };

/* Rebuild the mask from the (damped) current costs and record what changed in
 * note. Returns EDSP_GO_ON if the mask changed and solving goes on; otherwise
 * why the refresh loop ends. At the refresh limit the rebuild is a look-ahead
 * only, so that a 2-cycle is reported as an oscillation, not "still changing". */
static int edsp_refresh(ds_run *run, edsp_state *es, ds_iter_record *note)
{
    long add = 0, rem = 0;
    uint64_t sig = 0;
    double dmp = run->cfg.edsp_damping;
    int at_limit = es->refresh >= run->cfg.edsp_max_refresh;
    ds_costs_eval(run->net, &run->cfg.cost, run->x, run->tcost);
    if (!(dmp > 0 && dmp <= 1)) dmp = 1;
    for (int e = 0; e < run->n; e++) es->tmask[e] = (1 - dmp) * es->tmask[e] + dmp * run->tcost[e];
    run->state_ok = 0; /* the inner state is the old mask's */
    if (ds_loader_refresh_mask(run->ld, es->tmask, &add, &rem, &sig) != 0) return EDSP_FAILED;
    if (run->gpu && ds_gpu_loader_sync_dags(run->gpu) != 0) return EDSP_FAILED;
    es->refresh++;
    note->kind = DS_STEP_MASK_REFRESH;
    note->mask_refresh = es->refresh;
    note->mask_added = (int)add;
    note->mask_removed = (int)rem;
    for (int i = 0; i < es->n_sigs; i++)
        if (es->sigs[i] == sig && (add || rem)) note->mask_oscillation = 1;
    if (es->n_sigs < 64) es->sigs[es->n_sigs++] = sig;
    run_message(run, "eDSP refresh %d%s: %ld links added, %ld removed%s", es->refresh,
                at_limit ? " (look-ahead at the refresh limit)" : "", add, rem,
                note->mask_oscillation ? " (mask repeats an earlier one: oscillation)" : "");
    if (note->mask_oscillation) return EDSP_OSCILLATES;
    if (!add && !rem) return EDSP_UNCHANGED;
    return at_limit ? EDSP_LIMIT : EDSP_GO_ON;
}

/* --------------------------------------------------------------- execute */

static void finish(ds_run *run, ds_status st)
{
    int n = run->n;
    pthread_mutex_lock(&run->pause_mu);
    run->t_end = run_now();
    if (run->t_setup_end <= 0) run->t_setup_end = elapsed_locked(run, run->t_end);
    pthread_mutex_unlock(&run->pause_mu);
    run->res_flows = malloc(sizeof(double) * (size_t)(n + 1));
    run->res_costs = malloc(sizeof(double) * (size_t)(n + 1));
    if (run->res_flows && run->res_costs) {
        memcpy(run->res_flows, run->x, sizeof(double) * (size_t)n);
        ds_costs_eval(run->net, &run->cfg.cost, run->x, run->res_costs);
    }
    /* publish() skips the snapshot while a front end holds snap_mu: the last
     * published iterate is the snapshot once the run is done */
    if (atomic_load(&run->count) > 0) {
        pthread_mutex_lock(&run->snap_mu);
        if (run->snap_iter != run->iter) {
            memcpy(run->snap_x, run->x, sizeof(double) * (size_t)n);
            memcpy(run->snap_fx, run->fx, sizeof(double) * (size_t)n);
            ds_costs_eval(run->net, &run->cfg.cost, run->x, run->snap_cost);
            run->snap_iter = run->iter;
        }
        pthread_mutex_unlock(&run->snap_mu);
    }
    atomic_store(&run->status, st);
    atomic_store(&run->phase, 3);
    ds_event ev = {DS_EVENT_DONE, NULL, run->reason, st, 1.0};
    emit(run, &ev);
}

/* The loader's per-destination set-up, as set-up steps: a line each second
 * at most (a large network's DAGs take seconds; a small one's none), and a
 * cancel honoured between groups of destinations (and, through the cancel flag
 * the loader is made with, within a group: between destinations). */
static int loader_progress(void *ctx, const char *what, int done, int total)
{
    ds_run *run = ctx;
    double now = run_now();
    if (done < total && now - run->t_progress >= 1.0) {
        char buf[96];
        run->t_progress = now;
        snprintf(buf, sizeof buf, "%s: %d of %d destinations", what, done, total);
        run_setup_step(run, 0.2 * done / total, buf);
    }
    return run_cancelled(run);
}

/* Beside the factors (bounded by --factor-memory) the full graph keeps
 * Newton's J v state, each destination's values, flows and link probabilities
 * (and, with --inner passes, the warm-start values per destination and node):
 * said where it is large, since nothing bounds it (33,000 nodes and 3,300
 * zones: 4.7 GiB). */
static void say_state_memory(ds_run *run)
{
    const ds_network *net = run->net;
    int newton = run->cfg.solver == DS_SOLVER_NEWTON;
    double least, most, gib = 1024.0 * 1024.0 * 1024.0;
    ds_loader_state_plan(run->ld, newton, &least, &most);
    if (most < gib) return;
    char amount[64];
    int range = most - least >= 0.05 * gib; /* (only with Newton's link probabilities) */
    if (range)
        snprintf(amount, sizeof amount, "%.1f to %.1f GiB", least / gib, most / gib);
    else
        snprintf(amount, sizeof amount, "%.1f GiB", most / gib);
    run_message(run,
                "memory: the full graph keeps %s of per-destination state (%d destinations x %d nodes, %d links)%s, "
                "besides the factors; the dsp filter keeps far less",
                amount, net->n_dest, net->n_nodes, net->n_links,
                range ? ", the most where destinations need their own LU (their link probabilities are kept for J v)"
                      : "");
}

/* Set-up before the start point: the loader, mu, the ill-posedness proofs,
 * the inner solver, the backend, the first eDSP mask. Returns DS_STATUS_RUNNING
 * to go on, else the final status (reason filled). */
static ds_status run_setup(ds_run *run, edsp_state *es)
{
    ds_error err = {{0}, 0, {0}};
    ds_filter lf = run->cfg.filter == DS_FILTER_EDSP ? DS_FILTER_DSP : run->cfg.filter;
    int full = run->cfg.filter == DS_FILTER_FULL, cpu = run->cfg.backend == DS_BACKEND_CPU;
    int direct = full && cpu && run->cfg.inner == DS_INNER_DIRECT, lost_od = 0;
    double lost = 0;
#define FAIL_WITH(st, ...)                                                                                             \
    do {                                                                                                               \
        snprintf(run->reason, sizeof run->reason, __VA_ARGS__);                                                        \
        return st;                                                                                                     \
    } while (0)
    /* a set-up step, and a cancel honoured between steps (each step itself runs to its end) */
#define STEP(p, label)                                                                                                 \
    do {                                                                                                               \
        if (run_cancelled(run)) FAIL_WITH(DS_STATUS_CANCELLED, "cancelled during set-up, before: %s", label);          \
        run_setup_step(run, p, label);                                                                                 \
    } while (0)
    run_setup_step(run, 0.0, full ? "reachability" : "filter DAGs");
    run->t_progress = run_now();
    /* mu is needed by the evaluations only, so the loader is built first and
     * its free-flow trees give cbar when mu is derived from tau */
    run->ld = ld_create_cancellable(run->net, &run->cfg.cost, lf, run->cfg.mu > 0 ? run->cfg.mu : 1.0, run->cfg.threads,
                                    run->cfg.inner_max, run->cfg.inner_tol, loader_progress, run, &run->cancel, &err);
    if (!run->ld && run_cancelled(run))
        FAIL_WITH(DS_STATUS_CANCELLED, "cancelled during set-up, in: %s", full ? "reachability" : "filter DAGs");
    if (!run->ld) {
        ds_error_format(&err, run->reason, sizeof run->reason);
        return DS_STATUS_ERROR;
    }
    /* nothing to assign is an error, whichever way mu is given (with --mu it
     * "converged" at x = 0 with all the demand lost) */
    ds_loader_lost_demand(run->ld, &lost_od, &lost);
    if (run->net->n_od > 0 && lost_od >= run->net->n_od)
        FAIL_WITH(DS_STATUS_ERROR,
                  "no OD pair has a path under the %s filter: nothing to assign (demand %.6g, all of it without a "
                  "path)",
                  ds_filter_name(run->cfg.filter), lost);
    double mu = run->cfg.mu, cbar = NAN;
    char mu_why[400] = "";
    int mu_bad = 0;
    if (!(mu > 0)) {
        STEP(0.2, "cbar (free-flow shortest paths)");
        cbar = ds_loader_cbar(run->ld);
        if (run_cancelled(run)) FAIL_WITH(DS_STATUS_CANCELLED, "cancelled during set-up, in: %s", "cbar");
        mu_bad = ds_mu_from_tau(run->cfg.tau, cbar, ds_filter_name(run->cfg.filter), &mu, mu_why, sizeof mu_why);
    }
    /* published under snap_mu: a front end reads them while the run sets up */
    pthread_mutex_lock(&run->snap_mu);
    run->mu = mu;
    run->cbar = cbar;
    pthread_mutex_unlock(&run->snap_mu);
    if (!(run->cfg.mu > 0)) {
        if (mu_bad) FAIL_WITH(DS_STATUS_ERROR, "%s", mu_why);
        ds_loader_set_mu(run->ld, mu);
    }
    /* OpenBLAS is opened here, by the first Anderson run (lapack.c) */
    if (run->cfg.solver == DS_SOLVER_ANDERSON) {
        char why[512];
        if (ds_lapack_load(why, sizeof why) != 0)
            FAIL_WITH(DS_STATUS_ERROR, "the Anderson solver needs LAPACK's dposv from OpenBLAS: %s", why);
    }
    if (full) STEP(0.3, "ill-posedness bound");
    if (full && check_ill_posed(run, 0)) return DS_STATUS_ILL_POSED;
    if (direct) STEP(0.4, "sparse LU analysis");
    ds_loader_set_factor_budget(run->ld, run->cfg.factor_mb * 1024.0 * 1024.0);
    if (full && cpu && ds_loader_set_inner(run->ld, run->cfg.inner) != 0)
        FAIL_WITH(DS_STATUS_ERROR, "out of memory setting up the sparse LU inner solver");
    if (direct) {
        int kept, total;
        double kmib, amib;
        ds_loader_factor_plan(run->ld, &kept, &total, &kmib, &amib);
        run_message(
            run,
            "sparse LU: room for the factors of %d of %d destinations between evaluations (at most %.0f of %.0f "
            "MiB, --factor-memory %g), taken only by destinations the shared LU of the zone centroids does not "
            "serve%s",
            kept, total, kmib, amib, run->cfg.factor_mb,
            kept < total ? "; the others are refactored in every evaluation and J v" : "");
        say_state_memory(run);
    }
    if (!cpu) {
        STEP(0.5, "device upload");
        run->gpu = ds_gpu_loader_create(run->ld, run->cfg.cuda_emulate, &err);
        if (!run->gpu) {
            ds_error_format(&err, run->reason, sizeof run->reason);
            return DS_STATUS_ERROR;
        }
        if (ds_gpu_loader_set_inner(run->gpu, run->cfg.inner) != 0)
            FAIL_WITH(DS_STATUS_ERROR, "CUDA backend: cannot set the inner solver: %s", ds_gpu_last_error());
        run_message(run, "backend cuda (%s; inner solver: %s)", ds_gpu_loader_kind(run->gpu),
                    ds_gpu_loader_inner(run->gpu));
    } else if (run->cfg.solver == DS_SOLVER_NEWTON && ds_loader_set_keep(run->ld, 1) != 0) {
        FAIL_WITH(DS_STATUS_ERROR, "out of memory keeping the inner state for Newton");
    }
    if (run->net->n_intrazonal > 0)
        run_message(run,
                    "%.6g of the trips file's demand (%d entries from a zone to itself) is intrazonal: not assigned "
                    "(such a trip uses no link), so the demand assigned is %.6g",
                    run->net->intrazonal_demand, run->net->n_intrazonal, run->net->total_demand);
    ds_loader_lost_demand(run->ld, &lost_od, &lost);
    if (lost_od > 0)
        run_message(run, "%d OD pairs (demand %.6g of %.6g) have no path under the %s filter and are not assigned",
                    lost_od, lost, run->net->total_demand, ds_filter_name(run->cfg.filter));
    /* The exact existence test at the capped costs (check_ill_posed phase 1)
     * is left to run_start, which needs it only where no start is found. */
    if (run->cfg.filter == DS_FILTER_EDSP) {
        long a0, r0;
        es->tmask = malloc(sizeof(double) * (size_t)(run->n + 1));
        if (!es->tmask) FAIL_WITH(DS_STATUS_ERROR, "out of memory");
        memset(run->xt, 0, sizeof(double) * (size_t)run->n);
        ds_costs_eval(run->net, &run->cfg.cost, run->xt, es->tmask);
        /* the first mask's signature, so that a return to it counts as oscillation */
        if (ds_loader_refresh_mask(run->ld, es->tmask, &a0, &r0, &es->sigs[0]) == 0) es->n_sigs = 1;
    }
    if (run_cancelled(run)) FAIL_WITH(DS_STATUS_CANCELLED, "cancelled during set-up");
#undef STEP
#undef FAIL_WITH
    return DS_STATUS_RUNNING;
}

/* The start point, published as iteration 0. DS_STATUS_RUNNING or why not. */
static ds_status run_start(ds_run *run)
{
    /* from here on a failed existence test only shortens a step, so
     * refactored solves are trusted */
    ds_loader_set_quick_reject(run->ld, 1);
    run_setup_step(run, 0.8, "start point");
    memset(&run->cur, 0, sizeof run->cur);
    int rc = choose_start(run);
    /* (a search that failed because a cancel stopped its loading, e.g. the
     * relax filter's DAGs, is a cancel too) */
    if (rc == EV_CANCELLED || (rc != EV_OK && run_cancelled(run))) {
        snprintf(run->reason, sizeof run->reason, "cancelled before the first iteration");
        return DS_STATUS_CANCELLED;
    }
    /* No start found is not a proof of anything: ill-posed comes only from the
     * spectral-radius bound or the exact existence test at the capped costs,
     * made here and only here. Where a start was found it cannot fail: costs
     * at the cap are at least those of the start, so every weight exp(-mu t)
     * is at most the start's and so is the spectral radius, which is below 1
     * there. (Made in the set-up until stop 13: a full evaluation with a
     * fresh LU per destination, 3.3 of Austin-SDB full's 5.0 s of set-up.) */
    if (rc == EV_UNDEFINED) {
        if (run->cfg.filter == DS_FILTER_FULL) {
            ds_loader_set_quick_reject(run->ld, 0); /* a verdict: every solve decided afresh */
            run_setup_step(run, 0.95, "existence test at the capped costs");
            int ill = check_ill_posed(run, 1);
            if (!ill && run_cancelled(run)) {
                snprintf(run->reason, sizeof run->reason, "cancelled before the first iteration");
                return DS_STATUS_CANCELLED;
            }
            if (ill) return DS_STATUS_ILL_POSED;
        }
        return DS_STATUS_ERROR;
    }
    if (rc != EV_OK) {
        snprintf(run->reason, sizeof run->reason, "non-finite costs at the start point");
        return DS_STATUS_ERROR;
    }
    run_message(run, "start point: %s", run->start_desc);
    run->iter = 0;
    run->cur.kind = DS_STEP_START;
    pthread_mutex_lock(&run->pause_mu);
    run->t_setup_end = elapsed_locked(run, run_now());
    pthread_mutex_unlock(&run->pause_mu);
    atomic_store(&run->phase, 2);
    publish(run, &run->cur);
    return DS_STATUS_RUNNING;
}

/* gap_rel in as few digits (3 at least) as say on which side of tol it is:
 * MSA on Sioux Falls at tau 0.3 from 4 x capacity ended with gap_rel
 * 9.999685e-08, and its reason read "gap_rel 1e-07 < tol 1e-07". */
static const char *gap_words(double gap, double tol, char *buf, size_t n)
{
    for (int p = 3; p <= 17; p++) {
        snprintf(buf, n, "%.*g", p, gap);
        if (!isfinite(gap) || (strtod(buf, NULL) < tol) == (gap < tol)) break;
    }
    return buf;
}

/* gap_rel < tol: converged, unless eDSP rebuilds its mask and goes on
 * (DS_STATUS_RUNNING, the iterate re-evaluated on the new mask). */
static ds_status at_tolerance(ds_run *run, edsp_state *es, const solver_ops *ops, void *state)
{
    if (run->cfg.filter != DS_FILTER_EDSP) {
        char g[32];
        snprintf(run->reason, sizeof run->reason, "gap_rel %s < tol %.3g after %d iterations",
                 gap_words(run->gap, run->cfg.tol, g, sizeof g), run->cfg.tol, run->iter);
        return DS_STATUS_CONVERGED;
    }
    memset(&run->cur, 0, sizeof run->cur);
    int ch = edsp_refresh(run, es, &run->cur);
    if (ch == EDSP_FAILED && run_cancelled(run)) {
        /* the rebuild stopped part way: the old mask is kept */
        snprintf(run->reason, sizeof run->reason, "cancelled at iteration %d (gap_rel %.3g)", run->iter, run->gap);
        return DS_STATUS_CANCELLED;
    }
    if (ch == EDSP_FAILED) {
        snprintf(run->reason, sizeof run->reason, "out of memory rebuilding the eDSP mask");
        return DS_STATUS_ERROR;
    }
    if (ch == EDSP_GO_ON) {
        /* the iterate's image changes with the mask: re-evaluate */
        int rc = run_eval(run, run->x, run->fx, &run->merit);
        if (rc == EV_CANCELLED) {
            /* a stop during the refresh is a cancel like any other, not a failure */
            snprintf(run->reason, sizeof run->reason, "cancelled at iteration %d (gap_rel %.3g)", run->iter, run->gap);
            return DS_STATUS_CANCELLED;
        }
        if (rc != EV_OK) {
            snprintf(run->reason, sizeof run->reason, "loading failed after the eDSP refresh");
            return DS_STATUS_ERROR;
        }
        run_accept(run, run->x, run->fx, run->merit);
        if (ops->reset) ops->reset(run, state);
        publish(run, &run->cur);
        return DS_STATUS_RUNNING;
    }
    publish(run, &run->cur); /* the refresh that ends the loop is in the history too */
    /* past the limit the rebuild was a look-ahead: the refreshes solved are one fewer */
    int solved = es->refresh > run->cfg.edsp_max_refresh ? run->cfg.edsp_max_refresh : es->refresh;
    char g[32];
    snprintf(run->reason, sizeof run->reason,
             "gap_rel %s < tol %.3g after %d iterations; eDSP mask %s after %d refreshes%s",
             gap_words(run->gap, run->cfg.tol, g, sizeof g), run->cfg.tol, run->iter,
             ch == EDSP_OSCILLATES
                 ? "oscillates (a rebuild repeats an earlier mask; flows are those of the last solved mask)"
             : ch == EDSP_LIMIT ? "still changing at the refresh limit (no repeat seen)"
                                : "unchanged",
             solved, es->refresh > solved ? " and a look-ahead rebuild" : "");
    return DS_STATUS_CONVERGED;
}

/* The outer loop, until a final status. */
static ds_status run_iterate(ds_run *run, edsp_state *es, const solver_ops *ops, void *state)
{
    for (;;) {
        wait_if_paused(run);
        if (run_cancelled(run)) {
            snprintf(run->reason, sizeof run->reason, "cancelled at iteration %d (gap_rel %.3g)", run->iter, run->gap);
            return DS_STATUS_CANCELLED;
        }
        if (run->gap < run->cfg.tol) {
            ds_status st = at_tolerance(run, es, ops, state);
            if (st == DS_STATUS_RUNNING) continue;
            return st;
        }
        if (run->iter >= run->cfg.max_iter) {
            char g[40] = "undefined (x = 0)"; /* (gap_rel divides by ||x||) */
            if (isfinite(run->gap)) gap_words(run->gap, run->cfg.tol, g, sizeof g);
            snprintf(run->reason, sizeof run->reason, "stopped at the iteration limit %d with gap_rel %s (tol %.3g)",
                     run->cfg.max_iter, g, run->cfg.tol);
            return DS_STATUS_MAX_ITER;
        }
        int keep_mask = run->cur.mask_refresh;
        memset(&run->cur, 0, sizeof run->cur);
        run->cur.mask_refresh = keep_mask;
        int rc = ops->step(run, state, &run->cur);
        if (rc == EV_CANCELLED) continue; /* reported at the top of the loop */
        if (rc != EV_OK) {
            /* a stall at the edge of the domain of f (or inner passes that ran
             * out), not a fault in the input: say what to try */
            if (!run->reason[0] && run->last_overflow) {
                char w[200], at[64];
                snprintf(at, sizeof at, "at the last trial point of iteration %d", run->iter + 1);
                overflow_words(run, at, w, sizeof w);
                snprintf(run->reason, sizeof run->reason,
                         "no trial point of iteration %d was accepted: %s; a cap on x/c (--cap) bounds the costs",
                         run->iter + 1, w);
            } else if (!run->reason[0] && run->last_unconverged) {
                char w[256];
                unconverged_words(run, w, sizeof w);
                snprintf(run->reason, sizeof run->reason,
                         "%s at any trial point of iteration %d (which says nothing about whether f exists there): %s",
                         w, run->iter + 1, unconverged_advice(run));
            } else if (!run->reason[0]) {
                /* what to try is what this run did not (a Newton run told to
                 * use newton read as if the advice were not for it) */
                int nt = run->cfg.solver == DS_SOLVER_NEWTON, relax = run->cfg.start == DS_START_RELAX;
                snprintf(run->reason, sizeof run->reason,
                         "the loading map does not exist at any trial point of iteration %d: the %s steps stalled at "
                         "the edge of the region where f exists (gap_rel %.3g); %s; whether a fixed point exists at "
                         "this dispersion is not decided",
                         run->iter + 1, ds_solver_name(run->cfg.solver), run->gap,
                         !nt      ? "newton, or --start relax, may reach the fixed point"
                         : !relax ? "--start relax, or a larger tau (less dispersion), may reach a fixed point"
                                  : "a larger tau (less dispersion) may reach a fixed point");
            }
            return DS_STATUS_ERROR;
        }
        run->iter++;
        publish(run, &run->cur);
    }
}

/* Costs held at the x/c cap on many links are part of the model a user may
 * not know they chose (Barcelona and Winnipeg give every link capacity 1:
 * most links sit at the cap): said at the end of the run, with how many. */
static void note_capped(ds_run *run)
{
    const ds_network *net = run->net;
    double cap = run->cfg.cost.cap;
    int dep = 0, at = 0;
    if (!(cap > 0)) return;
    for (int e = 0; e < run->n; e++)
        if (dsk_flow_dependent(net->t0[e], net->bpr_b[e], net->bpr_power[e])) {
            dep++;
            at += run->x[e] >= cap * net->capacity[e];
        }
    if (dep > 0 && 10 * at >= dep)
        run_message(run,
                    "note: %d of %d flow-dependent links are at the x/c cap of the cost (--cap %g) at the result: "
                    "their costs stop growing there, which is part of the model solved (--cap 0: no cap)",
                    at, dep, cap);
}

/* The mean trip at flows x with costs t (ds_certificate): links per trip and
 * its cost over cbar (NAN where cbar is unknown); both NAN without demand. */
static void mean_trip(const ds_run *run, const double *x, const double *t, double *links, double *cost_cbar)
{
    int lost_od = 0;
    double lost = 0, sx = 0, sxt = 0;
    ds_loader_lost_demand(run->ld, &lost_od, &lost);
    double d = run->net->total_demand - lost;
    for (int e = 0; e < run->n; e++) {
        sx += x[e];
        sxt += x[e] * t[e];
    }
    *links = d > 0 ? sx / d : NAN;
    *cost_cbar = d > 0 && run->cbar > 0 && isfinite(run->cbar) ? sxt / (d * run->cbar) : NAN;
}

/* A full graph's fixed point where the mean trip has more links than any
 * route without a repeated node can have (n_nodes - 1) sends vehicles round
 * cycles: a proof, not a threshold (a generated network at tau 1: 63,400
 * links a trip on 70 nodes, 8.2e4 x cbar; its dsp run 4.6 links, 1.2 x). Said
 * because it explains a long solve (its fixed point sits at the existence
 * boundary) and what the flows mean. */
static void note_cycles(ds_run *run)
{
    double links, cc;
    if (run->cfg.filter != DS_FILTER_FULL || !run->ld) return;
    ds_costs_eval(run->net, &run->cfg.cost, run->x, run->tcost);
    mean_trip(run, run->x, run->tcost, &links, &cc);
    if (!(links > run->net->n_nodes - 1)) return;
    char c[64] = "";
    if (isfinite(cc)) snprintf(c, sizeof c, ", costing %.3g x cbar", cc);
    run_message(run,
                "note: the mean trip uses %.4g links%s, more than the %d of any route that repeats no node: the full "
                "graph's fixed point at this dispersion sends vehicles round cycles; an acyclic filter (--filter "
                "dsp, bfs, edsp) has no cycles, a larger tau fewer",
                links, c, run->net->n_nodes - 1);
}

static void run_destroy(ds_run *run);

ds_status ds_run_execute(ds_run *run)
{
    if (!run) return DS_STATUS_ERROR;
    /* once: a second call replaced the loader (and its worker threads) and the
     * results of the first without freeing them; the first run's results stay */
    if (atomic_exchange(&run->executed, 1)) return DS_STATUS_ERROR;
    const solver_ops *ops = solver_table(run->cfg.solver);
    void *state = NULL;
    edsp_state es = {0, {0}, 0, NULL};
    ds_status st;

    double t0 = run_now();
    pthread_mutex_lock(&run->pause_mu); /* ds_run_times_get reads it from another thread */
    run->t_start = run->t_iter0 = t0;
    run->in_execute = 1; /* ds_run_free waits until this call has returned */
    run->engine = pthread_self();
    pthread_mutex_unlock(&run->pause_mu);
    atomic_store(&run->status, DS_STATUS_RUNNING);
    atomic_store(&run->phase, 1);
    st = run_setup(run, &es);
    if (st == DS_STATUS_RUNNING) st = run_start(run);
    if (st == DS_STATUS_RUNNING && ops->init(run, &state) != 0) {
        snprintf(run->reason, sizeof run->reason, "out of memory setting up the %s solver", ops->name);
        st = DS_STATUS_ERROR;
    }
    if (st == DS_STATUS_RUNNING) {
        st = run_iterate(run, &es, ops, state);
        if (st == DS_STATUS_CONVERGED || st == DS_STATUS_MAX_ITER) {
            note_capped(run);
            note_cycles(run);
        }
        if (run->cur.inner_resid > 1e-8 && run->cfg.filter == DS_FILTER_FULL && run->cfg.inner == DS_INNER_PASSES &&
            st == DS_STATUS_CONVERGED) {
            size_t l = strlen(run->reason);
            char lim[160];
            pass_limit_words(run, lim, sizeof lim);
            snprintf(run->reason + l, sizeof run->reason - l,
                     "; note: Bellman values not converged within %s (max |dV| %.2g): raise --inner-max", lim,
                     run->cur.inner_resid);
        }
        if (run->start_desc[0] && strcmp(run->start_desc, "x = 0") != 0) {
            size_t l = strlen(run->reason);
            snprintf(run->reason + l, sizeof run->reason - l, "; start: %s", run->start_desc);
        }
    }
    if (state) ops->free(state);
    free(es.tmask);
    finish(run, st);
    /* The status was final before the DONE event went to the monitors: a
     * front end that polled it and freed the run freed it under emit() (a
     * use after free). The run is the caller's only from here: a ds_run_free
     * waiting on another thread goes on, one asked for by a monitor is done
     * now (nothing below reads the run after the unlock). */
    pthread_mutex_lock(&run->pause_mu);
    run->in_execute = 0;
    int free_now = run->free_pending;
    pthread_cond_broadcast(&run->done_cv);
    pthread_mutex_unlock(&run->pause_mu);
    if (free_now) run_destroy(run);
    return st;
}

int ds_run_lost_demand(const ds_run *run, int *n_od, double *demand)
{
    /* run->ld is set during set-up on the engine thread: read after execute */
    if (!run || atomic_load(&((ds_run *)run)->phase) != 3 || !run->ld) return -1;
    ds_loader_lost_demand(run->ld, n_od, demand);
    return 0;
}

int ds_run_certificate(const ds_run *run, ds_certificate *c)
{
    if (!c) return -1;
    memset(c, 0, sizeof *c);
    c->imbalance_node = -1;
    if (!run) return -1;
    const ds_network *net = run->net;
    if (atomic_load(&((ds_run *)run)->phase) != 3 || !run->res_flows || !run->ld || run->snap_iter < 0) return -1;
    int lost_od = 0, n = net->n_nodes;
    double lost = 0;
    ds_loader_lost_demand(run->ld, &lost_od, &lost);
    c->demand_total = net->total_demand;
    c->demand_loaded = net->total_demand - lost;
    c->demand_arrived = !run->have_acc ? -1 : run->acc_arrived;
    c->lost_pct = lost_pct_of(run, run->acc_arrived);
    double *bal = calloc((size_t)n + 1, sizeof(double));
    if (!bal) return -1;
    c->max_imbalance = node_imbalance((ds_run *)run, run->res_flows, bal, &c->imbalance_node);
    free(bal);
    mean_trip(run, run->res_flows, run->res_costs, &c->mean_links, &c->mean_cost_cbar);
    c->valid = 1;
    return 0;
}

static void run_destroy(ds_run *run)
{
    if (run->gpu) ds_gpu_loader_free(run->gpu);
    ds_loader_free(run->ld);
    for (int i = 0; i < TL_MAX_CHUNKS; i++) free(run->chunks[i]);
    free(run->warm);
    free(run->x);
    free(run->fx);
    free(run->r);
    free(run->xt);
    free(run->ft);
    free(run->x_state);
    free(run->f_state);
    free(run->tcost);
    free(run->snap_x);
    free(run->snap_fx);
    free(run->snap_cost);
    free(run->node_bal);
    free(run->res_flows);
    free(run->res_costs);
    pthread_mutex_destroy(&run->pause_mu);
    pthread_cond_destroy(&run->pause_cv);
    pthread_cond_destroy(&run->done_cv);
    pthread_mutex_destroy(&run->snap_mu);
    free(run);
}

void ds_run_free(ds_run *run)
{
    if (!run) return;
    pthread_mutex_lock(&run->pause_mu);
    if (run->in_execute) {
        /* the run is not wanted any more: stop it (as ds_run_cancel, whose
         * lock this already holds) */
        atomic_store(&run->cancel, 1);
        ds_run *child = atomic_load(&run->child);
        if (child) ds_run_cancel(child);
        pthread_cond_broadcast(&run->pause_cv);
        if (pthread_equal(run->engine, pthread_self())) {
            /* from a monitor, on the engine thread: freed when execute returns */
            run->free_pending = 1;
            pthread_mutex_unlock(&run->pause_mu);
            return;
        }
        while (run->in_execute) pthread_cond_wait(&run->done_cv, &run->pause_mu);
    }
    pthread_mutex_unlock(&run->pause_mu);
    run_destroy(run);
}
