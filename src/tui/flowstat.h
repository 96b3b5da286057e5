/* flowstat.h - numbers about a run's flows, no curses: agreement of two flow
 * vectors (the same ds_metrics_compare call `dillsue compare` makes, plus the
 * links that differ most), a reference flow file read as `dillsue compare`
 * and the network loader read it, and system totals. */
#ifndef TUI_FLOWSTAT_H
#define TUI_FLOWSTAT_H
#include "dillsue.h"
#include "ds_metrics.h"

#define FLOWSTAT_TOP 16
#define FLOWSTAT_MIN_REF 1.0 /* as `dillsue compare` (--min-ref default) */

typedef struct flowstat_cmp {
    ds_metrics m; /* a against b as the reference, min_ref FLOWSTAT_MIN_REF, all links */
    int finite;   /* 0 if an input value was not finite */
    int n_top;
    int top[FLOWSTAT_TOP]; /* links by |a - b|, largest first */
} flowstat_cmp;
void flowstat_compare(const double *a, const double *b, int n, flowstat_cmp *c);

/* Reference flows for net from a TNTP _flow.tntp file (name ends in .tntp,
 * read by the engine's loader) or a flow CSV (ds_flows_read, checked against
 * net). *ref is malloc'd, n_links values. 0, or -1 with err filled. */
int flowstat_read_ref(const ds_network *net, const char *path, double **ref, ds_error *err);

typedef struct flowstat_totals {
    double veh_hours;       /* sum x_e t_e(x), t = BPR travel time (no toll, no distance term) */
    double veh_dist;        /* sum x_e length_e; < 0 if the network has no lengths */
    double vc_max, vc_mean; /* over links with capacity > 0 */
    int vc_max_link;
    double flow_total; /* sum of link flows */
    double demand;     /* the network's total demand */
} flowstat_totals;
void flowstat_totals_compute(const ds_network *net, const ds_config *cfg, const double *x, flowstat_totals *t);
#endif
