/* solver_newton.c - implicit-function Newton on F(x) = f(x) - x = 0:
 * (I - J) d = r by restarted GMRES with J v from the loading map's forward
 * derivative at the converged inner values (optionally after SRA warm-start
 * steps; by default none with the line search, the paper's 5 with its rule).
 *
 * Globalisation (default, --globalise linesearch): the inexact-Newton
 * backtracking of Eisenstat & Walker (SIAM J. Optim. 4, 1994). The merit is
 * W = ||F||^2. A direction with ||r - (I - J) d|| <= rho ||r||, rho < 1, is a
 * descent direction (dW/dl <= -2 (1 - rho) W), and a step l d is accepted when
 *     ||F(x + l d)|| <= (1 - t (1 - eta_l)) ||F(x)||,   t = 1e-4,
 * with eta_l = 1 - l (1 - rho) the forcing the shortened step honours. A
 * failed trial shrinks l by the minimiser of the quadratic through W(0),
 * W'(0) and W(l), kept in [0.1 l, 0.5 l]. Iterates stay in x >= 0 (trial
 * points are projected), and a trial point's cost on each link stays within
 * 0.25/mu of its linear model (limited_flow below). If the search reaches
 * its floor, the direction is solved once more to a tighter forcing term and
 * searched again; if GMRES found no descent direction or that fails too, the
 * step is a safeguarded SRA step (newton-recover) and the next direction is
 * solved more accurately; the warm start is not repeated, so the quadratic
 * phase stays within reach.
 *
 * Forcing terms: Eisenstat-Walker choice 1 (agreement of the linear model
 * with F along the step just taken), safeguarded by eta_{k-1}^((1+sqrt 5)/2)
 * when that is above 0.1, capped at eta_max and floored so that GMRES never
 * solves beyond what the outer tolerance needs. Choice 2 (||F_k||/||F_k-1||)^2
 * reinforces itself when progress is slow (eta stuck at its cap, directions
 * poor, progress slower); choice 1 asks for accuracy exactly where the linear
 * model has proved good.
 *
 * --globalise paper: the paper's rule, kept for comparison: the full or the
 * half step if W decreases, else an MSA step 1/(l+1). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gmres.h"
#include "kernels.h"
#include "run_int.h"

#define NT_ETA_MAX 0.5
#define NT_ETA0 0.1
#define NT_ARMIJO 1e-4
#define NT_MAX_BACKTRACK 12
#define NT_LAMBDA_MIN 1e-4
#define NT_EXTEND 3

typedef struct nt_state {
    int warm_left;
    double eta, prev_norm;
    double pred_norm; /* ||F + l (J - I) d|| bound of the last accepted step, for choice 1 */
    int recovered;    /* the last step was a recovery: solve the next direction tighter */
    int least_run;    /* recoveries in a row that took SRA's least-W trial (no decrease) */
    double last_step; /* length l of the last accepted step */
    double last_eta_l;
    double dtau;      /* --globalise ptc: the pseudo-time step (0: infinite, plain Newton) */
    int hit_boundary; /* the last line search met a trial where f does not exist */
    double *delta;
    gmres_work gw; /* GMRES's basis, kept between steps */
} nt_state;

/* SRA warm-start steps: newton_warm, or by default (-1) the paper's 5 with its
 * rule and none with the line search, which needs no warm-up (docs/results.md:
 * on the shared networks it saves 0-18 iterations and costs at most 2). */
static int nt_warm_steps(const ds_run *run)
{
    if (run->cfg.newton_warm >= 0) return run->cfg.newton_warm;
    return run->cfg.globalise == DS_GLOBALISE_PAPER ? 5 : 0;
}

/* The state of a solver that has taken no step; nt_reset returns to it, so
 * that a run restarted on a new eDSP mask keeps nothing of the last one's
 * steps (the reset left least_run, last_step, last_eta_l and hit_boundary as
 * they were through stop 40: a least-W recovery counted towards the third,
 * harmonic, one across the refresh). The buffers are kept. */
static void nt_fresh(ds_run *run, nt_state *s)
{
    double *delta = s->delta;
    gmres_work gw = s->gw;
    memset(s, 0, sizeof *s);
    s->delta = delta;
    s->gw = gw;
    s->warm_left = nt_warm_steps(run);
    s->eta = NT_ETA0;
}

static int nt_init(ds_run *run, void **state)
{
    nt_state *s = calloc(1, sizeof *s);
    if (!s) return -1;
    s->delta = malloc(sizeof(double) * (size_t)(run->n + 1));
    if (!s->delta) {
        free(s);
        return -1;
    }
    nt_fresh(run, s);
    *state = s;
    return 0;
}

static void nt_free(void *state)
{
    nt_state *s = state;
    if (!s) return;
    gmres_work_free(&s->gw);
    free(s->delta), free(s);
}

static void nt_reset(ds_run *run, void *state) { nt_fresh(run, state); }

struct op_ctx {
    ds_run *run;
    double shift; /* pseudo-transient continuation: 1 / dtau (0: Newton) */
};

/* y = ((1 + shift) I - J) v */
static int op_apply(void *ctx, const double *v, double *y)
{
    struct op_ctx *c = ctx;
    ds_run *run = c->run;
    if (run_cancelled(run)) return 1;
    if (run_jv(run, v, y) != 0) return 1;
    for (int i = 0; i < run->n; i++) y[i] = (1 + c->shift) * v[i] - y[i];
    return 0;
}

/* The forcing term for this step. */
static double forcing(ds_run *run, nt_state *s, double rn)
{
    double eta = s->eta;
    if (s->prev_norm <= 0) return eta;
    if (s->recovered && run->cfg.globalise != DS_GLOBALISE_PAPER) {
        /* after a recovery step there is no linear model to compare with:
         * choice 1 would read ||F|| against itself and ask for an exact solve
         * (35-52 J v a direction where it happened); the initial forcing
         * term is tighter than the cap, as a recovery calls for */
        eta = NT_ETA0;
    } else if (run->cfg.globalise == DS_GLOBALISE_PAPER) {
        /* choice 2, as the paper's implementation */
        if (s->prev_norm > 0) eta = gmres_ew_choice2(s->eta, rn / s->prev_norm);
    } else if (s->prev_norm > 0) {
        /* choice 1: |  ||F_k|| - ||F_k-1 + J_k-1 s_k-1||  | / ||F_k-1|| */
        double sg = pow(s->eta, (1 + sqrt(5.0)) / 2);
        eta = fabs(rn - s->pred_norm) / s->prev_norm;
        if (sg > 0.1 && sg > eta) eta = sg;
        /* After a shortened step l the model agreed with F only because the
         * step was short: keep at least the forcing that step honoured,
         * 1 - l (1 - rho), rather than pay for accuracy the next step cannot
         * use (Austin-SDB dsp: 219 -> 74 J v, 25 -> 19 iterations). */
        if (s->last_step < 1 && eta < s->last_eta_l) eta = s->last_eta_l;
    }
    if (eta > NT_ETA_MAX) eta = NT_ETA_MAX;
    /* never tighter than the outer tolerance needs */
    double floor_eta = 0.5 * run->cfg.tol / (run->gap > 0 ? run->gap : 1);
    if (eta < floor_eta) eta = floor_eta;
    if (eta < 1e-12) eta = 1e-12;
    return eta;
}

/* The trial point of a line search, with `limit`, keeps each link's cost
 * within NT_COST_OVERSHOOT / mu of its linear model: where the BPR curve's
 * convexity would raise t_e(x_e + l d_e) above t_e(x_e) + l t'_e(x_e) d_e by
 * more than that, x_e stops where it does not. The linear model of f that
 * gave d sees costs through t' only; a congested link's quartic can add many
 * times 1/mu (the cost unit of route choice) to the cost a full step reaches,
 * the logit then moves flow by factors e^(mu excess) that the model never
 * predicted, and the merit rises steeply beyond some short l (docs/results.md,
 * "Networks outside ../shared"). Along the limited path the costs follow the
 * model to within a factor e^0.25 of route-choice odds. For small l nothing
 * is limited (the excess is O(l^2)), so the path leaves x along d and the
 * sufficient-decrease test means what it did. 0.25 measured against 0.5, 1, 2
 * and no limit (docs/results.md, "Newton's trial costs"): 2,000 perturbed
 * Sioux Falls cells -20 % iterations, -18 % evaluations + J v, none lost; 30
 * cells of 13 networks -19 % / -15 %, Berlin-Center dsp the one clearly worse
 * (6 -> 9 iterations: a link of capacity 10 at 12 times capacity whose flow
 * no cost diverts, so limiting it only slows it). */
#define NT_COST_OVERSHOOT 0.25
static double limited_flow(const ds_run *run, int e, double x, double v, double l, double d)
{
    const ds_network *net = run->net;
    double cap_c = net->capacity[e], t0 = net->t0[e], b = net->bpr_b[e], p = net->bpr_power[e], cap = run->cfg.cost.cap;
    if (!(d > 0 && t0 > 0 && b > 0 && p > 0)) return v;
    double lin = dsk_cost(x, cap_c, t0, b, p, cap, 0) + l * dsk_cost_deriv(x, cap_c, t0, b, p, cap) * d;
    double top = lin + NT_COST_OVERSHOOT / run->mu;
    if (!(dsk_cost(v, cap_c, t0, b, p, cap, 0) > top)) return v;
    double y = dsk_cost_flow(top, cap_c, t0, b, p, cap);
    return y > x && y < v ? y : v;
}

/* x + l d projected on x >= 0 (costs limited as above with `limit`), into
 * run->xt; then F there. */
static int trial(ds_run *run, const double *d, double l, int limit, double *W)
{
    for (int i = 0; i < run->n; i++) {
        double v = run->x[i] + l * d[i];
        v = v > 0 ? v : 0;
        run->xt[i] = limit ? limited_flow(run, i, run->x[i], v, l, d[i]) : v;
    }
    return run_eval(run, run->xt, run->ft, W);
}

static int step_paper(ds_run *run, nt_state *s, const gmres_result *gr, ds_iter_record *rec)
{
    double a = 1.0, W;
    int rc;
    if (gr->status >= 0) {
        for (int h = 0; h < 2; h++, a *= 0.5) {
            rc = trial(run, s->delta, a, 0, &W); /* the paper's points */
            if (rc == EV_CANCELLED || rc == EV_ERROR) return rc;
            if (rc == EV_OK && W < run->merit) {
                rec->kind = DS_STEP_NEWTON_OK;
                rec->step = a;
                rec->halvings = h;
                run_accept(run, run->xt, run->ft, W);
                return EV_OK;
            }
        }
    }
    rc = solver_msa_step(run, rec);
    if (rc == EV_OK) rec->kind = DS_STEP_NEWTON_REJ;
    return rc;
}

/* The search backed off from a trial where f does not exist (the spectral
 * radius reached 1 along d) and *l is acceptable. Near that boundary the merit
 * typically keeps falling until close to it (the fixed point of a full graph
 * whose free-flow costs admit no values lies just inside it: the flows on the
 * cycles grow without bound only at the boundary), so the accepted step can be
 * far short of the best along d. Bisect between *l and l_undef while the merit
 * falls, at most NT_EXTEND evaluations; the iterate is the best point seen,
 * evaluated last (J v uses the loading state of the last evaluation). Only
 * when *l gave at least half the decrease of the linear model, i.e. the merit
 * was still falling steeply there. Full graph, Sioux Falls tau 1, 10, 100,
 * Anaheim and EMA tau 1, 3, 10, 30: Anaheim tau 3 23 -> 14 iterations, EMA
 * tau 1 37 -> 26; evaluations + J v over the 11 cells 1,296 -> 1,282 (docs/model.md).
 * The same holds short of a cliff of the merit itself: on congested networks
 * W(l) follows the model (1 - l)^2 up to some l* and then rises a hundredfold
 * (a small change of cost flips much of the flow), the quadratic through
 * W(0), W'(0) and W(1) puts the next trial at its floor 0.1, and that step is
 * accepted with a tenth of the decrease available. So the bisection also runs
 * towards the last failed trial when that trial's quadratic put the next one
 * below the 0.1 safeguard (the merit rose far faster than any parabola; a
 * milder rise is left alone: bisecting there lengthened Austin-SDB dsp from 15
 * to 17 iterations). Hessen-Asym dsp tau 10 53 -> 25 iterations; evaluations
 * + J v over 125 cells of 12 networks -22 %, 5 cells worse (docs/results.md
 * "Networks outside ../shared"). */
static int extend(ds_run *run, nt_state *s, double rho, double *l, double l_out, double *W)
{
    double rn = sqrt(run->merit);
    double la = *l, lb = l_out, Wa = *W, Wm;
    int last_is_best = 1; /* run->xt, run->ft (and the loader's state) are the best point's */
    for (int k = 0; k < NT_EXTEND && lb - la > 0.02 * lb; k++) {
        double lm = 0.5 * (la + lb);
        int rc = trial(run, s->delta, lm, 1, &Wm);
        if (rc == EV_CANCELLED || rc == EV_ERROR) return rc;
        /* better, and sufficient decrease for its own, longer, step */
        if (rc == EV_OK && Wm < Wa && sqrt(Wm) <= (1 - NT_ARMIJO * lm * (1 - rho)) * rn) {
            la = lm, Wa = Wm, last_is_best = 1;
        } else {
            lb = lm, last_is_best = 0;
        }
    }
    if (!last_is_best) {
        /* back to the best point; re-evaluated so that the kept inner state is its own */
        int rc = trial(run, s->delta, la, 1, &Wm);
        if (rc == EV_CANCELLED || rc == EV_ERROR) return rc;
        if (rc != EV_OK) return EV_ERROR;
    }
    *l = la;
    *W = Wa;
    return EV_OK;
}

/* step_linesearch's answer when no step along d is acceptable and it was told
 * not to fall back on a fixed-point step (nt_step retries the direction first) */
#define NT_NO_STEP 100
static int step_linesearch(ds_run *run, nt_state *s, const gmres_result *gr, ds_iter_record *rec, int recover)
{
    double W0 = run->merit, rn = sqrt(W0), l = 1.0, W;
    double rho = gr->rel_resid, l_undef = 0; /* shortest trial length where f did not exist */
    double l_fail = 0; /* the last failed trial, where its quadratic fell below the 0.1 safeguard */
    int rc;
    s->hit_boundary = 0;
    if (gr->status >= 0 && rho < 1) {
        double slope = -2 * (1 - rho) * W0; /* bound on dW/dl at l = 0 */
        for (int k = 0; k <= NT_MAX_BACKTRACK && l >= NT_LAMBDA_MIN; k++) {
            double eta_l = 1 - l * (1 - rho);
            rc = trial(run, s->delta, l, 1, &W);
            if (rc == EV_CANCELLED || rc == EV_ERROR) return rc;
            if (rc == EV_OK && sqrt(W) <= (1 - NT_ARMIJO * (1 - eta_l)) * rn) {
                double l_out = l_undef > l ? l_undef : l_fail;
                if (l_out > l && W <= W0 + 0.5 * slope * l) {
                    rc = extend(run, s, rho, &l, l_out, &W);
                    if (rc != EV_OK) return rc;
                    eta_l = 1 - l * (1 - rho);
                }
                rec->kind = DS_STEP_NEWTON_OK;
                rec->step = l;
                rec->halvings = k;
                s->pred_norm = eta_l * rn;
                s->last_step = l;
                s->last_eta_l = eta_l;
                s->recovered = 0;
                s->least_run = 0;
                run_accept(run, run->xt, run->ft, W);
                return EV_OK;
            }
            /* next l: minimiser of the quadratic through W(0), W'(0), W(l) */
            double ln = 0.5 * l;
            if (rc == EV_OK && isfinite(W)) {
                double den = 2 * (W - W0 - slope * l);
                if (den > 0) ln = -slope * l * l / den;
            } else {
                if (rc == EV_UNDEFINED) l_undef = l, s->hit_boundary = 1;
                ln = 0.25 * l; /* f does not exist there: back off faster */
            }
            l_fail = ln < 0.1 * l ? l : 0;
            if (ln < 0.1 * l) ln = 0.1 * l; /* Dennis & Schnabel's safeguards */
            if (ln > 0.5 * l) ln = 0.5 * l;
            l = ln;
        }
    }
    if (!recover) return NT_NO_STEP;
    /* no acceptable step along d: a safeguarded fixed-point step, then the next
     * direction is solved more accurately. Where no SRA halving lowers W
     * either, the trial of least W rather than the harmonic step: near the
     * boundary of the region where f exists the harmonic step raised W many
     * times over and undid tens of iterations (generated network syn60x, full
     * graph, tau 1: gap_rel 0.90 -> 0.997; docs/results.md "Newton's
     * recovery"). The third such recovery in a row takes the harmonic step,
     * so that the iterates cannot circle without the averaging's progress. */
    int took_least = 0;
    rc = s->least_run >= 2 ? solver_sra_step(run, rec) : solver_sra_least_step(run, rec, &took_least);
    s->least_run = took_least ? s->least_run + 1 : 0;
    if (rc == EV_OK) {
        rec->kind = DS_STEP_NEWTON_RECOVER;
        s->recovered = 1;
        s->pred_norm = sqrt(run->merit); /* no model prediction for this step */
    }
    return rc;
}

/* --globalise ptc: the time step dtau of pseudo-transient continuation
 * (Kelley & Keyes, SIAM J. Numer. Anal. 35, 1998), whose direction solves
 * ((1 + 1/dtau) I - J) d = F: Newton's as dtau -> infinity, the averaging
 * direction F scaled by dtau / (1 + dtau) as dtau -> 0. dtau is infinite
 * (plain Newton with the line search) until a line search meets a trial
 * where f does not exist and has to settle for a step l < 1: near the
 * existence boundary the linear model fails (the flows on the cycles grow
 * without bound there), while the averaging direction, which loads the
 * cycles that f loads, leads away from it. dtau then becomes the time step
 * the accepted step amounted to, min(l dtau, l / (1 - l)) (a damped step
 * x + l F is the flow's step l / (1 - l)); a recovery step cuts it to a
 * tenth; a full step multiplies it by max(2, ||F_old|| / ||F_new||) (the
 * switched evolution relaxation rule, at least doubling) up to 10, and past
 * PTC_DTAU_NEWTON it is infinite again, so the quadratic phase is plain
 * Newton. Once regularised, any shortened step shrinks dtau the same way;
 * a plain Newton step shortened by the merit alone leaves it infinite, so
 * where f always exists this is exactly --globalise linesearch. */
#define PTC_DTAU_NEWTON 1e6
static void ptc_update(ds_run *run, nt_state *s, const ds_iter_record *rec, double rn_old)
{
    double l = rec->step;
    if (rec->kind == DS_STEP_NEWTON_RECOVER) {
        s->dtau = 0.1 * (s->dtau > 0 ? fmin(s->dtau, 1.0) : 1.0);
    } else if (l >= 1) {
        if (s->dtau > 0) {
            double g = rn_old / sqrt(run->merit);
            s->dtau *= g < 2 ? 2 : g > 10 ? 10 : g;
            if (s->dtau > PTC_DTAU_NEWTON) s->dtau = 0;
        }
    } else if (s->hit_boundary || s->dtau > 0) {
        double flow_step = l / (1 - l);
        s->dtau = s->dtau > 0 ? fmin(s->dtau * l, flow_step) : flow_step;
    }
}

/* The direction: ((1 + shift) I - J) delta = F to the forcing term s->eta,
 * in the basis kept from the last step (gmres.h). */
static void nt_solve(ds_run *run, nt_state *s, struct op_ctx *c, gmres_result *gr)
{
    gmres_solve(run->n, op_apply, c, run->r, s->delta, s->eta, run->cfg.gmres_restart, run->cfg.gmres_max, &s->gw, gr);
}

static int nt_step(ds_run *run, void *state, ds_iter_record *rec)
{
    nt_state *s = state;
    struct op_ctx c = {run, 0};
    gmres_result gr;
    double rn = sqrt(run->merit);
    int rc;
    if (s->warm_left > 0) {
        s->warm_left--;
        rc = solver_sra_step(run, rec);
        if (rc == EV_OK) rec->kind = DS_STEP_NEWTON_WARM;
        /* paper: the first forcing term compares with the last warm step,
         * i.e. ||F|| after it against ||F|| before it (the norm after it
         * made that ratio 1 and the first forcing term the cap); line
         * search: choice 1 has no model to compare with yet (eta_0) */
        if (run->cfg.globalise == DS_GLOBALISE_PAPER) s->prev_norm = rn;
        return rc;
    }
    int ptc = run->cfg.globalise == DS_GLOBALISE_PTC;
    c.shift = ptc && s->dtau > 0 ? 1 / s->dtau : 0;
    s->eta = forcing(run, s, rn);
    /* a regularised direction is a step of the pseudo-time flow, not a
     * model of F: solved to the initial forcing at least */
    if (c.shift > 0 && s->eta > NT_ETA0) s->eta = NT_ETA0;
    rec->forcing = s->eta;
    rec->ptc_shift = c.shift;
    nt_solve(run, s, &c, &gr);
    rec->gmres_iters = gr.iters;
    rec->gmres_resid = gr.rel_resid;
    if (run_cancelled(run)) return EV_CANCELLED;
    s->prev_norm = rn;
    if (run->cfg.globalise == DS_GLOBALISE_PAPER) return step_paper(run, s, &gr, rec);
    for (int attempt = 0;; attempt++) {
        /* ||F||^2 falls along a regularised direction at about 1 / (1 + shift)
         * of the rate the GMRES residual promises a Newton direction */
        gmres_result g2 = gr;
        if (ptc) g2.rel_resid = 1 - (1 - gr.rel_resid) / (1 + c.shift);
        double retry_eta = fmin(0.01 * s->eta, NT_ETA0 / (1 + c.shift));
        rc = step_linesearch(run, s, &g2, rec, attempt > 0 || gr.status != 0 || !(retry_eta < s->eta));
        if (rc != NT_NO_STEP) break;
        /* No decrease even for tiny steps: d is no descent direction, which a
         * loosely solved one need not be (the GMRES residual r enters the
         * slope of ||F||^2 as F'r, the regularisation's promise only as
         * ||F||^2 / (1 + shift)). Solve it once more, tighter, before giving
         * up on Newton: the fixed-point step that follows a failed search can
         * raise ||F|| many times over (generated network sm, full graph:
         * gap_rel 0.35 -> 16.9 at one such step). */
        s->eta = retry_eta;
        rec->forcing = s->eta;
        nt_solve(run, s, &c, &gr);
        rec->gmres_iters += gr.iters;
        rec->gmres_resid = gr.rel_resid;
        if (run_cancelled(run)) return EV_CANCELLED;
    }
    if (rc == EV_OK && ptc) ptc_update(run, s, rec, rn);
    return rc;
}

const solver_ops solver_newton_ops = {"newton", nt_init, nt_step, nt_reset, nt_free};
