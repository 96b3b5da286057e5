/*
 * ds_ue.h - Wardrop user equilibrium, the deterministic reference the logit
 * SUE must approach as tau grows (DESIGN.md 1 "Reference UE").
 *
 * Conjugate and bi-conjugate Frank-Wolfe (Mitradjieva & Lindberg 2013) with
 * the same link costs as the SUE engine (ds_costs_eval: BPR with the x/c cap,
 * toll and distance factors), all-or-nothing loading on origin-based shortest
 * paths that never pass through a centroid, and an exact line search on the
 * Beckmann objective. Results do not depend on the thread count (bitwise).
 */
#ifndef DS_UE_H
#define DS_UE_H

#include "dillsue.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { DS_UE_CFW = 0, DS_UE_BFW = 1 };

/* Outcomes of ds_ue_solve: the run API's statuses (ds_status_exit_code gives
 * the process exit code of DESIGN.md 3). */
enum {
    DS_UE_CONVERGED = DS_STATUS_CONVERGED,
    DS_UE_MAX_ITER = DS_STATUS_MAX_ITER,
    DS_UE_ERROR = DS_STATUS_ERROR,
    DS_UE_CANCELLED = DS_STATUS_CANCELLED
};

typedef struct {
    double gap;   /* stop when the relative gap is <= this */
    int max_iter; /* Frank-Wolfe iterations (line searches) */
    int threads;  /* <= 0: all cores */
    ds_cost_params cost;
    int method; /* DS_UE_CFW (conjugate) or DS_UE_BFW (bi-conjugate) */
} ds_ue_config;

typedef struct {
    int iters;       /* iterations done (0 = the free-flow all-or-nothing start; -1 = none: cancelled first) */
    double rel_gap;  /* relative gap at the returned flows */
    double seconds;  /* wall time of the solve */
    double beckmann; /* Beckmann objective at the returned flows */
} ds_ue_result;

/* Called once per iteration (iteration 0 = the start point) on the solving
 * thread with the relative gap of the current flows; during the call the
 * flows array given to ds_ue_solve holds those flows (a caller may copy or
 * write them, e.g. as a checkpoint, but not change them). */
typedef void (*ds_ue_progress_fn)(int iter, double rel_gap, void *ctx);

/* Solve for the Wardrop UE of net. flows (n_links) receives the last iterate
 * whatever the outcome except DS_UE_ERROR (and a cancel before iteration 0,
 * below). The relative gap is
 * (sum_e t_e x_e - sum_od q_od SP_od) / sum_e t_e x_e at t = t(x).
 * cancel (may be NULL) is polled with an atomic load once per iteration and
 * before every origin's shortest-path tree (one iteration takes seconds on a
 * large network); setting it nonzero (an atomic store from another thread,
 * or a plain store from a signal handler) stops the solve: flows and res are
 * then the last iterate reported through progress, with its own gap (an
 * iteration stopped part-way is dropped); one set before iteration 0 was
 * reported returns DS_STATUS_CANCELLED with res->iters -1, rel_gap and
 * beckmann NaN and flows all 0: no iterate, no result. progress and res may
 * be NULL.
 * OD pairs with no path (none may pass through a centroid) are not assigned,
 * as the SUE's loading map leaves them: their demand is in no flow and in no
 * shortest-path sum of the gap (the caller says how much, e.g. with
 * ds_od_no_path: which pairs have a path does not depend on the costs).
 * Returns DS_STATUS_CONVERGED, DS_STATUS_MAX_ITER, DS_STATUS_CANCELLED, or
 * DS_STATUS_ERROR with err filled (bad configuration, no OD pair with demand
 * that has a path: the first named, a cost that overflowed, no memory); never
 * a process exit code. */
ds_status ds_ue_solve(const ds_network *net, const ds_ue_config *cfg, double *flows, ds_ue_result *res,
                      ds_ue_progress_fn progress, void *ctx, volatile int *cancel, ds_error *err);

/* gap 1e-6, max_iter 100000, threads 1, cap 100, factors 0, bi-conjugate. */
void ds_ue_config_default(ds_ue_config *c);

/* Beckmann objective sum_e int_0^{x_e} t_e(s) ds of the capped BPR plus the
 * toll and distance terms (exposed for tests of the line search). */
double ds_ue_beckmann(const ds_network *net, const ds_cost_params *cp, const double *x);

const char *ds_ue_method_name(int method);
/* "cfw" / "bfw"; -1 if unknown. */
int ds_ue_method_parse(const char *s);

#ifdef __cplusplus
}
#endif
#endif
