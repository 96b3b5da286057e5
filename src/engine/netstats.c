/* netstats.c - network-level quantities: cbar (for tau -> mu) and hop diameter. */
#include <math.h>
#include <stdlib.h>

#include "dillsue.h"
#include "sp.h"

double ds_network_cbar(const ds_network *net, const ds_cost_params *cp)
{
    int n = net->n_nodes, m = net->n_links;
    double *t = malloc(sizeof(double) * (size_t)(m + 1)), *zero = calloc((size_t)m + 1, sizeof(double));
    double *dist = malloc(sizeof(double) * (size_t)(n + 1));
    int *hops = malloc(sizeof(int) * (size_t)(n + 1));
    double num = 0, den = 0;
    sp_work w;
    if (!t || !zero || !dist || !hops || sp_work_init(&w, n) != 0) {
        free(t), free(zero), free(dist), free(hops);
        return NAN;
    }
    ds_costs_eval(net, cp, zero, t);
    for (int di = 0; di < net->n_dest; di++) {
        sp_dijkstra_to(net, t, net->dest_node[di], dist, hops, NULL, &w);
        for (int k = net->dest_od_start[di]; k < net->dest_od_start[di + 1]; k++) {
            double c = dist[net->od_orig[k]];
            if (!isfinite(c)) continue; /* OD pairs without a path carry no cost */
            num += net->od_demand[k] * c;
            den += net->od_demand[k];
        }
    }
    sp_work_free(&w);
    free(t), free(zero), free(dist), free(hops);
    return den > 0 ? num / den : NAN;
}

/* Over the destinations with demand: the hop count that the full-graph Bellman
 * passes must cover (paper fig. 1). */
int ds_network_hop_diameter(const ds_network *net)
{
    int n = net->n_nodes, best = 0;
    int *hops = malloc(sizeof(int) * (size_t)(n + 1)), *q = malloc(sizeof(int) * (size_t)(n + 1));
    if (!hops || !q) {
        free(hops), free(q);
        return -1;
    }
    for (int di = 0; di < net->n_dest; di++) {
        sp_bfs_to(net, net->dest_node[di], hops, NULL, q, NULL, 0);
        for (int i = 0; i < n; i++)
            if (hops[i] > best) best = hops[i];
    }
    free(hops), free(q);
    return best;
}
