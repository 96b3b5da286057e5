/* metrics.c - MAPE, R^2 and max abs difference between two flow vectors. */
#include "ds_metrics.h"
#include "kernels.h"

#include <math.h>

int ds_metrics_compare(const double *x, const double *ref, int n, const unsigned char *mask, double min_ref,
                       ds_metrics *m)
{
    double sum_ref = 0.0, ape = 0.0, max_abs = 0.0;
    int used = 0, n_mape = 0, bad = 0;

    for (int e = 0; e < n; e++) {
        if (mask && !mask[e]) continue;
        if (!isfinite(x[e]) || !isfinite(ref[e])) bad = 1;
        used++;
        sum_ref += ref[e];
        double d = fabs(x[e] - ref[e]);
        if (d > max_abs) max_abs = d;
        if (ref[e] >= min_ref && ref[e] > 0) { /* a relative error needs a reference flow above 0 */
            ape += d / ref[e];
            n_mape++;
        }
    }
    m->n_used = used;
    m->n_mape = n_mape;
    if (bad) {
        m->mape = m->r2 = m->max_abs = NAN;
        return -1;
    }
    m->max_abs = max_abs;
    m->mape = n_mape ? 100.0 * ape / n_mape : NAN;

    /* Two passes: the mean first, so SS_tot does not lose digits to
     * cancellation when flows are large and nearly equal. */
    double mean = used ? sum_ref / used : 0.0, ss_res = 0.0, ss_tot = 0.0;
    for (int e = 0; e < n; e++) {
        if (mask && !mask[e]) continue;
        double r = x[e] - ref[e], t = ref[e] - mean;
        ss_res += r * r;
        ss_tot += t * t;
    }
    if (!used)
        m->r2 = NAN;
    else if (ss_tot > 0.0)
        m->r2 = 1.0 - ss_res / ss_tot;
    else
        m->r2 = ss_res == 0.0 ? 1.0 : NAN;
    return 0;
}

int ds_metrics_flow_dependent_mask(const ds_network *net, unsigned char *mask)
{
    int count = 0;
    for (int e = 0; e < net->n_links; e++) {
        mask[e] = (unsigned char)dsk_flow_dependent(net->t0[e], net->bpr_b[e], net->bpr_power[e]);
        count += mask[e];
    }
    return count;
}
