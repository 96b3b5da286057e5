/* metrics.c - MAPE, R^2 and max abs difference between two flow vectors. */
#include "ds_metrics.h"
#include "kernels.h"

#include <math.h>

/* sum_e (a_e - b_e)^2 (a NULL: b_e minus b's mean) over the links in mask,
 * as *ss * 2^(2k), the terms scaled so that neither they nor the sum overflow;
 * returns k. */
static int scaled_ss(const double *a, const double *b, int n, const unsigned char *mask, double *ss)
{
    double big = 0.0, mean = 0.0, sum = 0.0;
    int k1 = 0, k2 = 0, used = 0;
    for (int e = 0; e < n; e++)
        if (!mask || mask[e]) big = fmax(big, fmax(a ? fabs(a[e]) : 0.0, fabs(b[e]))), used++;
    frexp(big, &k1);
    if (!a) {
        for (int e = 0; e < n; e++)
            if (!mask || mask[e]) sum += ldexp(b[e], -k1);
        mean = used ? sum / used : 0.0;
    }
    big = 0.0; /* the differences, |.| <= 2 once scaled: scaled again by their own largest */
    for (int e = 0; e < n; e++)
        if (!mask || mask[e]) big = fmax(big, fabs((a ? ldexp(a[e], -k1) : mean) - ldexp(b[e], -k1)));
    frexp(big, &k2);
    *ss = 0.0;
    for (int e = 0; e < n; e++)
        if (!mask || mask[e]) {
            double d = ldexp((a ? ldexp(a[e], -k1) : mean) - ldexp(b[e], -k1), -k2);
            *ss += d * d;
        }
    return k1 + k2;
}

int ds_metrics_compare(const double *x, const double *ref, int n, const unsigned char *mask, double min_ref,
                       ds_metrics *m)
{
    double ape = 0.0, max_abs = 0.0;
    int used = 0, n_mape = 0, bad = 0;

    for (int e = 0; e < n; e++) {
        if (mask && !mask[e]) continue;
        if (!isfinite(x[e]) || !isfinite(ref[e])) bad = 1;
        used++;
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
    if (isinf(m->mape)) m->mape = 100.0 * (ape / n_mape); /* inf only where the mean itself overflows */

    /* Two passes: the mean first, so SS_tot does not lose digits to
     * cancellation when flows are large and nearly equal. */
    double sum_ref = 0.0, ss_res = 0.0, ss_tot = 0.0;
    for (int e = 0; e < n; e++)
        if (!mask || mask[e]) sum_ref += ref[e];
    double mean = used ? sum_ref / used : 0.0;
    for (int e = 0; e < n; e++) {
        if (mask && !mask[e]) continue;
        double r = x[e] - ref[e], t = ref[e] - mean;
        ss_res += r * r;
        ss_tot += t * t;
    }
    if (used && !(isfinite(ss_res) && isfinite(ss_tot))) {
        /* Flows above ~1e154 overflow a sum or a square (once read as "the
         * reference flows do not vary"): SS_res and SS_tot again, each over
         * its terms scaled by its own power of two, and the ratio rescaled. */
        int kr = scaled_ss(x, ref, n, mask, &ss_res), kt = scaled_ss(NULL, ref, n, mask, &ss_tot);
        if (ss_tot > 0.0) {
            m->r2 = 1.0 - ldexp(ss_res / ss_tot, 2 * (kr - kt)); /* -inf where even the ratio overflows */
            return 0;
        }
    }
    if (!used)
        m->r2 = NAN;
    else if (ss_tot > 0.0)
        m->r2 = 1.0 - ss_res / ss_tot; /* -inf where the ratio itself overflows */
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
