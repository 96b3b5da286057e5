/* netstats.c - network-level quantities: cbar (for tau -> mu) and hop diameter.
 *
 * Both are a shortest-path search per destination, so they run over the
 * destinations on a worker pool. cbar keeps one answer whatever the thread
 * count: the searches write each OD pair's cost, and the costs are summed
 * afterwards in OD order, the order of the serial loop. A cbar search stops
 * once it has settled the destination's last origin (nothing later changes a
 * settled distance): `dillsue info` on a generated 33,000-node, 3,300-zone
 * network spent a minute in these searches. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "dillsue.h"
#include "pool.h"
#include "sp.h"

struct stats_worker {
    sp_work w;
    double *dist;
    int *hops, *queue, best;
    unsigned char *stop;
};

struct stats_job {
    const ds_network *net;
    const double *t; /* free-flow costs (cbar) */
    double *od_cost; /* [n_od] (cbar) */
    struct stats_worker *wk;
};

static void cbar_fn(void *ctx, int worker, int di)
{
    struct stats_job *j = ctx;
    const ds_network *net = j->net;
    struct stats_worker *s = &j->wk[worker];
    int k0 = net->dest_od_start[di], k1 = net->dest_od_start[di + 1], left = 0;
    for (int k = k0; k < k1; k++)
        if (!s->stop[net->od_orig[k]]) s->stop[net->od_orig[k]] = 1, left++;
    s->w.stop = left ? s->stop : NULL;
    s->w.stop_left = left;
    sp_dijkstra_to(net, j->t, net->dest_node[di], s->dist, s->hops, NULL, &s->w);
    s->w.stop = NULL;
    for (int k = k0; k < k1; k++) {
        /* an origin the search did not reach (it then ran to the end) has +INF */
        j->od_cost[k] = s->dist[net->od_orig[k]];
        s->stop[net->od_orig[k]] = 0;
    }
}

static void hops_fn(void *ctx, int worker, int di)
{
    struct stats_job *j = ctx;
    const ds_network *net = j->net;
    struct stats_worker *s = &j->wk[worker];
    sp_bfs_to(net, net->dest_node[di], s->hops, NULL, s->queue, NULL, 0);
    for (int i = 0; i < net->n_nodes; i++)
        if (s->hops[i] > s->best) s->best = s->hops[i];
}

static void workers_free(struct stats_worker *wk, int W)
{
    for (int i = 0; wk && i < W; i++) {
        sp_work_free(&wk[i].w);
        free(wk[i].dist), free(wk[i].hops), free(wk[i].queue), free(wk[i].stop);
    }
    free(wk);
}

/* The pool and one workspace per worker; NULL pool on failure. */
static ds_pool *stats_pool(const ds_network *net, int threads, struct stats_worker **out)
{
    int n = net->n_nodes;
    if (threads <= 0) threads = ds_ncores();
    if (threads > net->n_dest) threads = net->n_dest > 0 ? net->n_dest : 1;
    ds_pool *p = ds_pool_create(threads);
    int W = p ? ds_pool_threads(p) : 0, ok = p != NULL;
    struct stats_worker *wk = ok ? calloc((size_t)W, sizeof *wk) : NULL;
    ok = ok && wk;
    for (int i = 0; ok && i < W; i++) {
        wk[i].dist = malloc(sizeof(double) * (size_t)(n + 1));
        wk[i].hops = malloc(sizeof(int) * (size_t)(n + 1));
        wk[i].queue = malloc(sizeof(int) * (size_t)(n + 1));
        wk[i].stop = calloc((size_t)n + 1, 1);
        ok = sp_work_init(&wk[i].w, net) == 0 && wk[i].dist && wk[i].hops && wk[i].queue && wk[i].stop;
    }
    if (!ok) {
        workers_free(wk, W);
        ds_pool_free(p);
        return NULL;
    }
    *out = wk;
    return p;
}

double ds_network_cbar_threads(const ds_network *net, const ds_cost_params *cp, int threads)
{
    int m = net->n_links;
    double *t = malloc(sizeof(double) * (size_t)(m + 1)), *zero = calloc((size_t)m + 1, sizeof(double));
    double *od_cost = malloc(sizeof(double) * (size_t)(net->n_od + 1)), num = 0, den = 0;
    struct stats_worker *wk = NULL;
    ds_pool *p = t && zero && od_cost ? stats_pool(net, threads, &wk) : NULL;
    if (!p) {
        free(t), free(zero), free(od_cost);
        return NAN;
    }
    ds_costs_eval(net, cp, zero, t);
    struct stats_job j = {net, t, od_cost, wk};
    ds_pool_run(p, net->n_dest, cbar_fn, &j);
    for (int k = 0; k < net->n_od; k++) {
        double c = od_cost[k];
        if (!isfinite(c)) continue; /* OD pairs without a path carry no cost */
        num += net->od_demand[k] * c;
        den += net->od_demand[k];
    }
    workers_free(wk, ds_pool_threads(p));
    ds_pool_free(p);
    free(t), free(zero), free(od_cost);
    return den > 0 ? num / den : NAN;
}

double ds_network_cbar(const ds_network *net, const ds_cost_params *cp) { return ds_network_cbar_threads(net, cp, 1); }

int ds_mu_from_tau(double tau, double cbar, const char *filter, double *mu, char *why, size_t n)
{
    *mu = tau / cbar;
    if (*mu > 0 && isfinite(*mu)) return 0;
    if (isnan(cbar))
        snprintf(why, n, "cannot derive mu from tau %g: no OD pair has a path under the %s filter", tau, filter);
    else if (!(cbar > 0))
        snprintf(why, n,
                 "cannot derive mu from tau %g: cbar, the demand-weighted cheapest free-flow route cost, is %g "
                 "(free-flow times, or the toll and distance terms, make routes cost nothing or less); give --mu",
                 tau, cbar);
    else
        snprintf(why, n, "cannot derive mu from tau %g: tau / cbar (cbar %g) is %g", tau, cbar, *mu);
    return -1;
}

/* Over the destinations with demand: the hop count that the full-graph Bellman
 * passes must cover (paper fig. 1). */
int ds_network_hop_diameter_threads(const ds_network *net, int threads)
{
    struct stats_worker *wk = NULL;
    ds_pool *p = stats_pool(net, threads, &wk);
    int best = 0;
    if (!p) return -1;
    struct stats_job j = {net, NULL, NULL, wk};
    ds_pool_run(p, net->n_dest, hops_fn, &j);
    for (int i = 0; i < ds_pool_threads(p); i++)
        if (wk[i].best > best) best = wk[i].best;
    workers_free(wk, ds_pool_threads(p));
    ds_pool_free(p);
    return best;
}

int ds_network_hop_diameter(const ds_network *net) { return ds_network_hop_diameter_threads(net, 1); }
