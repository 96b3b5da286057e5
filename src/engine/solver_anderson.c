/* solver_anderson.c - safeguarded type-II Anderson mixing (Walker & Ni 2011).
 *
 * gamma = argmin ||r - dR gamma|| from Tikhonov-regularised normal equations
 * (dR^T dR + lambda I) gamma = dR^T r, lambda = aa_reg * trace(dR^T dR) / k,
 * solved by Cholesky (LAPACK dposv, from OpenBLAS: lapack.c); candidate
 * x + beta r - (dX + beta dR) gamma, projected onto x >= 0, accepted only if
 * it lowers W, else the SRA step.
 *
 * beta is Anderson's mixing: the candidate is Anderson acceleration of the
 * damped map x + beta r, with the same gamma. Undamped (beta = 1) the base map
 * x -> f(x) overshoots wherever f is steep (large mu, congested links), the
 * candidate fails the merit test and the step is SRA's: on Sioux Falls full at
 * tau 100, 394 of 400 candidates were rejected (3,460 evaluations). Adaptive
 * (the default, ds_config.aa_mixing = 0): beta is the step the SRA search
 * last accepted along r, where the damped map lowered W, and doubles (up to
 * 1) after each accepted candidate; the same run then takes 68 candidates of
 * 146 (722 evaluations). dX and dR are differences of iterates and residuals,
 * whatever beta made them, so the history stays valid as beta moves.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lapack.h"
#include "run_int.h"
#include "vec.h"

typedef struct aa_state {
    int m, k, head;  /* window, columns held, next slot */
    double *dX, *dR; /* n x m, column j at j*n */
    double *xprev, *rprev;
    int have_prev;
    double beta;  /* mixing: Anderson on the damped map x + beta r */
    int adaptive; /* ds_config.aa_mixing not in (0, 1]: beta follows the steps */
} aa_state;

/* After an iteration: an accepted candidate doubles beta (at most 1), an SRA
 * step (the candidate rejected or not formed) sets it to that step. */
static void aa_mix(aa_state *s, const ds_iter_record *rec)
{
    if (!s->adaptive) return;
    if (rec->kind == DS_STEP_ANDERSON_OK)
        s->beta = s->beta < 0.5 ? 2 * s->beta : 1;
    else
        s->beta = rec->step;
}

static int aa_init(ds_run *run, void **state)
{
    aa_state *s = calloc(1, sizeof *s);
    int n = run->n;
    if (!s) return -1;
    s->m = run->cfg.aa_window > 0 ? run->cfg.aa_window : 5;
    if (s->m > 50) s->m = 50;
    s->dX = malloc(sizeof(double) * (size_t)n * (size_t)s->m);
    s->dR = malloc(sizeof(double) * (size_t)n * (size_t)s->m);
    s->xprev = malloc(sizeof(double) * (size_t)(n + 1));
    s->rprev = malloc(sizeof(double) * (size_t)(n + 1));
    if (!s->dX || !s->dR || !s->xprev || !s->rprev) {
        free(s->dX), free(s->dR), free(s->xprev), free(s->rprev), free(s);
        return -1;
    }
    s->adaptive = !(run->cfg.aa_mixing > 0 && run->cfg.aa_mixing <= 1);
    s->beta = s->adaptive ? 1 : run->cfg.aa_mixing;
    *state = s;
    return 0;
}

static void aa_free(void *state)
{
    aa_state *s = state;
    if (!s) return;
    free(s->dX), free(s->dR), free(s->xprev), free(s->rprev), free(s);
}

static void aa_reset(ds_run *run, void *state)
{
    aa_state *s = state;
    (void)run;
    s->k = 0;
    s->head = 0;
    s->have_prev = 0;
}

/* Candidate into run->xt. Returns 0, or -1 if the normal equations failed. */
static int aa_candidate(ds_run *run, aa_state *s, ds_iter_record *rec)
{
    int n = run->n, k = s->k;
    double G[50 * 50], rhs[50], tr = 0;
    double beta = s->beta;
    memcpy(run->xt, run->x, sizeof(double) * (size_t)n);
    vec_axpy(n, beta, run->r, run->xt);
    rec->aa_used = k;
    if (k == 0) return 0;
    /* G = dR^T dR (k x k, column-major), rhs = dR^T r */
    for (int i = 0; i < k; i++) {
        for (int j = 0; j <= i; j++)
            G[i * k + j] = G[j * k + i] = vec_dot(n, s->dR + (size_t)i * n, s->dR + (size_t)j * n);
        rhs[i] = vec_dot(n, s->dR + (size_t)i * n, run->r);
    }
    for (int j = 0; j < k; j++) tr += G[j * k + j];
    double lam = run->cfg.aa_reg * (tr > 0 ? tr / k : 1.0);
    for (int j = 0; j < k; j++) G[j * k + j] += lam;
    rec->aa_reg = lam;
    /* LAPACK dposv (OpenBLAS, opened when the first Anderson run sets up: lapack.c) */
    if (ds_lapack_dposv(k, G, rhs) != 0) return -1;
    /* xt -= (dX + dR) gamma */
    for (int j = 0; j < k; j++) {
        vec_axpy(n, -rhs[j], s->dX + (size_t)j * n, run->xt);
        vec_axpy(n, -beta * rhs[j], s->dR + (size_t)j * n, run->xt);
    }
    return 0;
}

static void aa_push(ds_run *run, aa_state *s)
{
    int n = run->n;
    if (s->have_prev) {
        /* keep columns in age order: shift when full (m is tiny) */
        if (s->k == s->m) {
            memmove(s->dX, s->dX + n, sizeof(double) * (size_t)n * (size_t)(s->m - 1));
            memmove(s->dR, s->dR + n, sizeof(double) * (size_t)n * (size_t)(s->m - 1));
            s->k--;
        }
        double *cx = s->dX + (size_t)s->k * n, *cr = s->dR + (size_t)s->k * n;
        for (int i = 0; i < n; i++) {
            cx[i] = run->x[i] - s->xprev[i];
            cr[i] = run->r[i] - s->rprev[i];
        }
        s->k++;
    }
    memcpy(s->xprev, run->x, sizeof(double) * (size_t)n);
    memcpy(s->rprev, run->r, sizeof(double) * (size_t)n);
    s->have_prev = 1;
}

static int aa_step(ds_run *run, void *state, ds_iter_record *rec)
{
    aa_state *s = state;
    double W;
    int rc;
    if (!s->have_prev) aa_push(run, s);
    if (aa_candidate(run, s, rec) != 0) {
        /* no candidate: the step is SRA's, made with no history (the record
         * said the k columns of the failed normal equations) */
        rec->aa_restart = 1;
        rec->aa_used = 0;
        rec->aa_reg = 0;
        aa_reset(run, s);
        aa_push(run, s);
        rc = solver_sra_step(run, rec);
        if (rc != EV_OK) return rc;
        rec->kind = DS_STEP_ANDERSON_REJ;
        aa_mix(s, rec);
        aa_push(run, s);
        return rc;
    }
    int projected = 0;
    for (int i = 0; i < run->n; i++)
        if (run->xt[i] < 0) run->xt[i] = 0, projected = 1;
    rc = run_eval(run, run->xt, run->ft, &W);
    if (rc == EV_CANCELLED || rc == EV_ERROR) return rc;
    if (rc == EV_OK && W < run->merit) {
        rec->kind = DS_STEP_ANDERSON_OK;
        rec->step = s->beta;
        run_accept(run, run->xt, run->ft, W);
    } else {
        int h_aa = rec->aa_used;
        double reg = rec->aa_reg;
        /* With no history the candidate is x + beta r, bit for bit SRA's
         * trial at step beta where beta is one of 1, 1/2, ..., 1/256 (the
         * adaptive beta is SRA's last step): the search does not evaluate
         * it again. */
        sra_known kn = {s->beta, rc == EV_OK ? W : INFINITY, rc};
        rc = solver_sra_step_known(run, rec, rec->aa_used == 0 && !projected ? &kn : NULL);
        if (rc != EV_OK) return rc;
        rec->aa_used = h_aa;
        rec->aa_reg = reg;
        rec->kind = DS_STEP_ANDERSON_REJ;
    }
    aa_mix(s, rec);
    aa_push(run, s);
    return EV_OK;
}

const solver_ops solver_anderson_ops = {"anderson", aa_init, aa_step, aa_reset, aa_free};
