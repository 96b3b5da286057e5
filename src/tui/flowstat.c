/* flowstat.c - see flowstat.h. */
#include "flowstat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ds_csv.h"

void flowstat_compare(const double *a, const double *b, int n, flowstat_cmp *c)
{
    memset(c, 0, sizeof *c);
    c->finite = ds_metrics_compare(a, b, n, NULL, FLOWSTAT_MIN_REF, &c->m) == 0;
    for (int e = 0; e < n; e++) {
        double d = fabs(a[e] - b[e]);
        if (!(d == d)) d = INFINITY;
        int k = c->n_top < FLOWSTAT_TOP ? c->n_top++ : FLOWSTAT_TOP;
        if (k == FLOWSTAT_TOP) {
            if (!(d > fabs(a[c->top[k - 1]] - b[c->top[k - 1]]))) continue;
            k--;
        }
        while (k > 0 && d > fabs(a[c->top[k - 1]] - b[c->top[k - 1]])) {
            c->top[k] = c->top[k - 1];
            k--;
        }
        c->top[k] = e;
    }
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

int flowstat_read_ref(const ds_network *net, const char *path, double **ref, ds_error *err)
{
    *ref = NULL;
    if (ends_with(path, ".tntp")) {
        /* the loader fills ref_flow of a network; a clone keeps the shared one untouched */
        ds_network *c = ds_network_clone(net);
        if (!c) return ds_error_set(err, path, 0, "out of memory");
        free(c->ref_flow);
        c->ref_flow = NULL;
        if (ds_network_load_flows(c, path, err) != 0 || !c->ref_flow) {
            if (!err || !err->msg[0]) ds_error_set(err, path, 0, "no flows read");
            ds_network_free(c);
            return -1;
        }
        *ref = c->ref_flow;
        c->ref_flow = NULL;
        ds_network_free(c);
        return 0;
    }
    int n = 0;
    return ds_flows_read(path, net, ref, NULL, &n, err);
}

void flowstat_totals_compute(const ds_network *net, const ds_config *cfg, const double *x, flowstat_totals *t)
{
    int L = net->n_links, n_vc = 0, have_len = 0;
    double *tt = malloc((size_t)(L ? L : 1) * sizeof *tt);
    ds_cost_params time_only = {cfg->cost.cap, 0, 0};
    memset(t, 0, sizeof *t);
    t->vc_max_link = -1;
    t->demand = net->total_demand;
    if (tt) ds_costs_eval(net, &time_only, x, tt);
    for (int e = 0; e < L; e++) {
        t->flow_total += x[e];
        if (tt) t->veh_hours += x[e] * tt[e];
        if (net->length && net->length[e] > 0) have_len = 1;
        if (net->length) t->veh_dist += x[e] * net->length[e];
        if (net->capacity[e] > 0) {
            double vc = x[e] / net->capacity[e];
            t->vc_mean += vc;
            n_vc++;
            if (t->vc_max_link < 0 || vc > t->vc_max) {
                t->vc_max = vc;
                t->vc_max_link = e;
            }
        }
    }
    if (!tt) t->veh_hours = NAN;
    if (!have_len) t->veh_dist = -1;
    t->vc_mean = n_vc ? t->vc_mean / n_vc : NAN;
    free(tt);
}
