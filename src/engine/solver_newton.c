/* solver_newton.c - implicit-function Newton: (I - J) delta = r by restarted
 * GMRES with J v from the loading map's forward derivative at the converged
 * inner values; a short SRA warm start, an Eisenstat-Walker forcing term, and
 * a merit safeguard: the step (or its half) is accepted only if W decreases,
 * else an MSA step is taken. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gmres.h"
#include "run_int.h"

typedef struct nt_state {
    int warm_left;
    double eta, prev_norm;
    double *delta, *jv;
} nt_state;

static int nt_init(ds_run *run, void **state)
{
    nt_state *s = calloc(1, sizeof *s);
    if (!s) return -1;
    s->delta = malloc(sizeof(double) * (size_t)(run->n + 1));
    s->jv = malloc(sizeof(double) * (size_t)(run->n + 1));
    if (!s->delta || !s->jv) {
        free(s->delta), free(s->jv), free(s);
        return -1;
    }
    s->warm_left = run->cfg.newton_warm;
    s->eta = 0.1;
    *state = s;
    return 0;
}

static void nt_free(void *state)
{
    nt_state *s = state;
    if (!s) return;
    free(s->delta), free(s->jv), free(s);
}

static void nt_reset(ds_run *run, void *state)
{
    nt_state *s = state;
    s->warm_left = run->cfg.newton_warm;
    s->eta = 0.1;
    s->prev_norm = 0;
}

struct op_ctx {
    ds_run *run;
    nt_state *s;
};

/* y = (I - J) v */
static int op_apply(void *ctx, const double *v, double *y)
{
    struct op_ctx *c = ctx;
    ds_run *run = c->run;
    if (run_cancelled(run)) return 1;
    if (run_jv(run, v, y) != 0) return 1;
    for (int i = 0; i < run->n; i++) y[i] = v[i] - y[i];
    return 0;
}

static int nt_step(ds_run *run, void *state, ds_iter_record *rec)
{
    nt_state *s = state;
    struct op_ctx c = {run, s};
    gmres_result gr;
    double rn = sqrt(run->merit), W;
    int rc;
    if (s->warm_left > 0) {
        s->warm_left--;
        rc = solver_sra_step(run, rec);
        if (rc == EV_OK) rec->kind = DS_STEP_NEWTON_WARM;
        s->prev_norm = sqrt(run->merit);
        return rc;
    }
    /* Eisenstat-Walker choice 2, safeguarded; never tighter than needed to
     * reach the outer tolerance. */
    if (s->prev_norm > 0) {
        double ratio = rn / s->prev_norm, eta = 0.9 * ratio * ratio, sg = 0.9 * s->eta * s->eta;
        if (sg > 0.1 && sg > eta) eta = sg;
        if (eta > 0.5) eta = 0.5;
        double floor_eta = 0.5 * run->cfg.tol * sqrt(0.0 + 1.0) / (run->gap > 0 ? run->gap : 1);
        if (eta < floor_eta) eta = floor_eta;
        if (eta < 1e-12) eta = 1e-12;
        s->eta = eta;
    }
    rec->forcing = s->eta;
    gmres_solve(run->n, op_apply, &c, run->r, s->delta, s->eta, run->cfg.gmres_restart, run->cfg.gmres_max, &gr);
    rec->gmres_iters = gr.iters;
    rec->gmres_resid = gr.rel_resid;
    if (run_cancelled(run)) return EV_CANCELLED;
    s->prev_norm = rn;
    if (gr.status >= 0) {
        double a = 1.0;
        for (int h = 0; h < 2; h++, a *= 0.5) {
            for (int i = 0; i < run->n; i++) {
                double v = run->x[i] + a * s->delta[i];
                run->xt[i] = v > 0 ? v : 0;
            }
            rc = run_eval(run, run->xt, run->ft, &W);
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

const solver_ops solver_newton_ops = {"newton", nt_init, nt_step, nt_reset, nt_free};
