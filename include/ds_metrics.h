/*
 * ds_metrics.h - agreement between two flow vectors (DESIGN.md 1 "Metrics").
 *
 * MAPE is taken over links whose reference flow is >= min_ref and > 0 (1 veh/h by
 * convention), in percent; R^2 = 1 - SS_res/SS_tot over all links used,
 * SS_tot against the mean of the reference. Links can be restricted by a
 * mask, e.g. to those whose cost depends on flow, because equilibrium flows
 * on the others are not unique.
 */
#ifndef DS_METRICS_H
#define DS_METRICS_H

#include "dillsue.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ds_metrics {
    double mape;    /* percent; NaN if no link has ref >= min_ref; +inf where
                        the mean relative error overflows */
    double r2;      /* NaN if no link is used, or if the reference is constant
                        and the flows differ from it (SS_tot = 0 < SS_res);
                        1 if both are constant and equal; -inf where
                        SS_res / SS_tot overflows (sums of squares that
                        overflow are taken scaled, never read as NaN) */
    double max_abs; /* max |x - ref| over links used (0 if none) */
    int n_used;     /* links used for R^2 and max_abs (mask applied) */
    int n_mape;     /* of those, links with ref >= min_ref */
} ds_metrics;

/* Compare x against the reference ref over n links. mask (may be NULL = all)
 * selects links with mask[e] != 0. Returns 0, or -1 if an input value is not
 * finite (m is then filled with NaNs and the counts). */
int ds_metrics_compare(const double *x, const double *ref, int n, const unsigned char *mask, double min_ref,
                       ds_metrics *m);

/* mask[e] = 1 iff link e's cost depends on flow (free-flow time, b and power
 * all > 0: with any of them 0 the cost is the same at every flow).
 * Returns the number of such links. */
int ds_metrics_flow_dependent_mask(const ds_network *net, unsigned char *mask);

#ifdef __cplusplus
}
#endif
#endif
