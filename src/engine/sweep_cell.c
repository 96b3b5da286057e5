/* sweep_cell.c - one cell of a sweep: the scenario network, the run
 * configuration and the solve, built with the same engine calls and the same
 * defaults as `dillsue solve --scenario k --seed S --tau .. --filter ..
 * --solver ..` (and the other solver options), so that the flows are bitwise those of that command (the
 * sweep test checks it). Also the per-scenario UE reference. */
#include "sweep_data.h"

#include "ds_scenario.h"
#include "ds_ue.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static double epoch_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

ds_network *sweep_scenario_network(const ds_network *base, int k, unsigned long long seed, ds_error *err)
{
    ds_network *net = ds_network_clone(base);
    if (!net) {
        ds_error_set(err, base->net_path, 0, "out of memory copying the network for scenario %d", k);
        return NULL;
    }
    if (ds_scenario_apply(net, k, (uint64_t)seed, NULL, err) != 0) {
        ds_network_free(net);
        return NULL;
    }
    return net;
}

void sweep_cell_config(const sweep_grid *g, sweep_cell_id id, int threads, ds_config *cfg)
{
    ds_config_default(cfg);
    if (g->use_mu)
        cfg->mu = g->disp[id.d];
    else
        cfg->tau = g->disp[id.d], cfg->mu = 0;
    cfg->filter = (ds_filter)g->filter[id.f];
    cfg->solver = (ds_solver_kind)g->solver[id.s];
    cfg->tol = g->tol;
    cfg->max_iter = g->max_iter;
    cfg->threads = threads;
    cfg->cost.cap = g->cap;
    cfg->inner = (ds_inner)g->inner;
    cfg->inner_max = g->inner_max;
    cfg->globalise = (ds_globalise)g->globalise;
    cfg->start = (ds_start)g->start;
    cfg->newton_warm = g->newton_warm;
    cfg->factor_mb = g->factor_mb;
    cfg->edsp_max_refresh = g->edsp_refresh;
    cfg->edsp_damping = g->edsp_damping;
}

/* OD pairs the cell's filter leaves without a path (what the run reports in
 * its message, as numbers): the run's own set-up found them; only where the
 * run ended before building its loading map are they searched here (a second
 * set-up: a second of Dijkstras a cell on Austin-SDB). eDSP starts from the
 * DSP mask. */
static void lost_demand(const ds_network *net, ds_run *run, int *n_od, double *demand)
{
    const ds_config *c = ds_run_config(run);
    ds_filter f = c->filter == DS_FILTER_EDSP ? DS_FILTER_DSP : c->filter;
    ds_error err;
    *n_od = 0;
    *demand = 0;
    if (ds_run_lost_demand(run, n_od, demand) == 0) return;
    ds_loader *ld = ds_loader_create(net, &c->cost, f, ds_run_mu(run), 1, c->inner_max, c->inner_tol, &err);
    if (!ld) {
        *n_od = -1;
        *demand = NAN;
        return;
    }
    ds_loader_lost_demand(ld, n_od, demand);
    ds_loader_free(ld);
}

void sweep_cell_solve(const ds_network *net, const sweep_grid *g, sweep_cell_id id, int threads,
                      ds_run *volatile *cancel_slot, pthread_mutex_t *lock, const atomic_int *stop, sweep_result *r,
                      double *flows, double *costs, int *have_flows, double *cbar_memo)
{
    ds_config cfg;
    ds_error err = {{0}, 0, {0}};
    sweep_cell_config(g, id, threads, &cfg);
    r->iterations = r->evals = r->jv = 0;
    r->gap_rel = r->total_flow = r->veh_time = r->mape_ue = r->lost_demand = NAN;
    /* the grid's value even where the run fails: --resume and --merge match
     * every journal row to its cell by it */
    r->tau = g->use_mu ? NAN : g->disp[id.d];
    r->mu = g->use_mu ? g->disp[id.d] : NAN;
    r->lost_od = 0;
    r->reason[0] = '\0';
    *have_flows = 0;
    double t0 = mono_s();
    ds_run *run = ds_run_create(net, &cfg, &err);
    if (!run) {
        char buf[1200];
        ds_error_format(&err, buf, sizeof buf);
        sweep_copy_text(r->reason, sizeof r->reason, buf);
        r->status = DS_STATUS_ERROR;
        r->wall_s = mono_s() - t0;
        r->t_end = epoch_s();
        return;
    }
    if (cancel_slot) {
        pthread_mutex_lock(lock);
        *cancel_slot = run;
        /* a stop that came after the job was taken and before the run was in
         * its slot (the stop's own pass over the slots missed it): the run
         * went to its end, minutes on a large network */
        if (stop && atomic_load(stop)) ds_run_cancel(run);
        pthread_mutex_unlock(lock);
    }
    ds_status st = ds_run_execute(run);
    if (cancel_slot) {
        pthread_mutex_lock(lock);
        *cancel_slot = NULL;
        pthread_mutex_unlock(lock);
    }
    r->wall_s = mono_s() - t0;
    r->t_end = epoch_s();
    r->status = st;
    ds_run_reason(run, r->reason, sizeof r->reason);
    r->mu = ds_run_mu(run);
    r->tau = g->disp[id.d];
    if (g->use_mu) {
        /* a run given mu derives no cbar (ds_run_cbar is NaN): cells.csv
         * gives both tau and mu, mu = tau / cbar of the scenario */
        double cbar = ds_run_cbar(run);
        if (!isfinite(cbar) && cbar_memo && isfinite(*cbar_memo)) cbar = *cbar_memo;
        if (!isfinite(cbar)) cbar = ds_network_cbar(net, &ds_run_config(run)->cost);
        if (cbar_memo) *cbar_memo = cbar;
        r->tau = r->mu * cbar;
    }
    size_t n = ds_run_history_count(run);
    ds_iter_record last;
    if (n > 0 && ds_run_history_copy(run, n - 1, &last, 1) == 1) {
        r->iterations = last.iter;
        r->evals = last.evals;
        r->jv = last.jv;
        r->gap_rel = last.gap_rel;
    }
    lost_demand(net, run, &r->lost_od, &r->lost_demand);
    const double *x = ds_run_flows(run), *t = ds_run_costs(run);
    int usable = st == DS_STATUS_CONVERGED || st == DS_STATUS_MAX_ITER;
    if (usable && x && t) {
        /* vehicle time: flow x travel time, without toll or distance terms */
        ds_cost_params tp = ds_run_config(run)->cost;
        double *tt = malloc(sizeof(double) * (size_t)(net->n_links ? net->n_links : 1));
        tp.toll_factor = tp.distance_factor = 0;
        r->total_flow = 0;
        r->veh_time = tt ? 0 : NAN;
        if (tt) ds_costs_eval(net, &tp, x, tt);
        for (int e = 0; e < net->n_links; e++) {
            r->total_flow += x[e];
            if (tt) r->veh_time += x[e] * tt[e];
        }
        free(tt);
        if (flows) memcpy(flows, x, sizeof(double) * (size_t)net->n_links);
        if (costs) memcpy(costs, t, sizeof(double) * (size_t)net->n_links);
        *have_flows = 1;
    }
    ds_run_free(run);
}

int sweep_ue_solve(const ds_network *net, const sweep_grid *g, int threads, double *flows, double *gap, int *iters,
                   volatile int *cancel, ds_error *err)
{
    ds_ue_config c;
    ds_ue_result res;
    ds_ue_config_default(&c);
    c.gap = g->ue_gap;
    c.max_iter = g->ue_max_iter;
    c.threads = threads;
    c.cost.cap = g->cap;
    /* as `dillsue ue` and the SUE runs: the net file's generalized-cost factors */
    c.cost.toll_factor = net->toll_factor;
    c.cost.distance_factor = net->distance_factor;
    memset(&res, 0, sizeof res);
    int rc = ds_ue_solve(net, &c, flows, &res, NULL, NULL, cancel, err);
    *gap = res.rel_gap;
    *iters = res.iters;
    return rc;
}
