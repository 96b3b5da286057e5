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

void ds_costs_deriv(const ds_network *net, const ds_cost_params *cp, const double *x, double *dt)
{
    for (int e = 0; e < net->n_links; e++)
        dt[e] = dsk_cost_deriv(x[e], net->capacity[e], net->t0[e], net->bpr_b[e], net->bpr_power[e], cp->cap);
}

void ds_costs_max(const ds_network *net, const ds_cost_params *cp, double *tmax)
{
    for (int e = 0; e < net->n_links; e++) {
        double b = net->bpr_b[e], p = net->bpr_power[e];
        if (b == 0 || p == 0 || cp->cap > 0)
            tmax[e] = dsk_cost(cp->cap > 0 ? cp->cap * net->capacity[e] : 0, net->capacity[e], net->t0[e], b, p,
                               cp->cap, fixed_part(net, cp, e));
        else
            tmax[e] = INFINITY;
    }
}
