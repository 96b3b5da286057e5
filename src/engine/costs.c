/* costs.c - generalized link cost: capped BPR time + toll and distance terms.
 * The formulas themselves are in kernels.h, shared with the CUDA backend. */
#include <math.h>

#include "dillsue.h"
#include "kernels.h"

static inline double fixed_part(const ds_network *net, const ds_cost_params *cp, int e)
{
    return dsk_cost_fixed(cp->toll_factor, net->toll[e], cp->distance_factor, net->length[e]);
}

void ds_costs_eval(const ds_network *net, const ds_cost_params *cp, const double *x, double *t)
{
    for (int e = 0; e < net->n_links; e++)
        t[e] = dsk_cost(x[e], net->capacity[e], net->t0[e], net->bpr_b[e], net->bpr_power[e], cp->cap,
                        fixed_part(net, cp, e));
}

int ds_costs_first_nonfinite(const ds_network *net, const ds_cost_params *cp, const double *x)
{
    for (int e = 0; e < net->n_links; e++)
        if (!isfinite(dsk_cost(x[e], net->capacity[e], net->t0[e], net->bpr_b[e], net->bpr_power[e], cp->cap,
                               fixed_part(net, cp, e))))
            return e;
    return -1;
}

void ds_costs_deriv(const ds_network *net, const ds_cost_params *cp, const double *x, double *dt)
{
    for (int e = 0; e < net->n_links; e++)
        dt[e] = dsk_cost_deriv(x[e], net->capacity[e], net->t0[e], net->bpr_b[e], net->bpr_power[e], cp->cap);
}

int ds_costs_check(const ds_network *net, const ds_cost_params *cp, ds_error *err)
{
    for (int e = 0; e < net->n_links; e++) {
        double t = dsk_cost(0.0, net->capacity[e], net->t0[e], net->bpr_b[e], net->bpr_power[e], cp->cap,
                            fixed_part(net, cp, e));
        if (!(t < 0)) continue; /* (a cost that is not finite is the finiteness checks' to name) */
        return ds_error_set(err, net->net_path, net->src_line ? net->src_line[e] : 0,
                            "link %d -> %d: its cost at zero flow is %g < 0 (free-flow time %g + toll factor %g x "
                            "toll %g + distance factor %g x length %g); shortest paths need costs >= 0",
                            ds_node_id(net, net->tail[e]), ds_node_id(net, net->head[e]), t, net->t0[e],
                            cp->toll_factor, net->toll[e], cp->distance_factor, net->length[e]);
    }
    return 0;
}

void ds_costs_max(const ds_network *net, const ds_cost_params *cp, double *tmax)
{
    for (int e = 0; e < net->n_links; e++) {
        double b = net->bpr_b[e], p = net->bpr_power[e];
        if (!dsk_flow_dependent(net->t0[e], b, p) || cp->cap > 0)
            tmax[e] = dsk_cost(cp->cap > 0 ? cp->cap * net->capacity[e] : 0, net->capacity[e], net->t0[e], b, p,
                               cp->cap, fixed_part(net, cp, e));
        else
            tmax[e] = INFINITY;
    }
}
