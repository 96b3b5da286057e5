/* solvers.c - MSA and self-regulating averaging (SRA), paper section 2.2.2.
 * Both use the direction r = f(x) - x; they differ in the step length. */
#include <math.h>
#include <string.h>

#include "run_int.h"

/* x + a r into run->xt */
static void trial_point(ds_run *run, double a)
{
    for (int i = 0; i < run->n; i++) run->xt[i] = run->x[i] + a * run->r[i];
}

/* Harmonic step 1/(l+1). Halved only where f(x) does not exist at the trial
 * point (full graph near the spectral-radius boundary). */
int solver_msa_step(ds_run *run, ds_iter_record *rec)
{
    double a = 1.0 / (double)(run->iter + 1), W;
    for (int h = 0; h <= 30; h++, a *= 0.5) {
        trial_point(run, a);
        int rc = run_eval(run, run->xt, run->ft, &W);
        if (rc == EV_UNDEFINED) continue;
        if (rc != EV_OK) return rc;
        rec->kind = DS_STEP_MSA;
        rec->step = a;
        rec->halvings = h;
        run_accept(run, run->xt, run->ft, W);
        return EV_OK;
    }
    return EV_UNDEFINED;
}

/* Step 1 halved while W(x + a r) >= W(x), at most 8 halvings; where none
 * lowers W, the harmonic step 1/l (Liu et al. 2009), or, with `least`, the
 * trial of least W (Newton's recovery, solver_newton.c). A trial where f does
 * not exist counts as a failed trial. *took_least (may be NULL) says whether
 * the least-W trial was taken. */
static int sra_search(ds_run *run, ds_iter_record *rec, int least, int *took_least, const sra_known *known)
{
    double a = 1.0, W, best_a = 0, best_W = INFINITY;
    if (took_least) *took_least = 0;
    for (int h = 0; h <= 8; h++, a *= 0.5) {
        int rc;
        if (known && a == known->a) {
            rc = known->rc, W = known->W; /* not lower than W(x): the search goes on */
        } else {
            trial_point(run, a);
            rc = run_eval(run, run->xt, run->ft, &W);
        }
        if (rc == EV_CANCELLED || rc == EV_ERROR) return rc;
        if (rc == EV_OK && W < run->merit) {
            rec->kind = DS_STEP_SRA;
            rec->step = a;
            rec->halvings = h;
            run_accept(run, run->xt, run->ft, W);
            return EV_OK;
        }
        if (rc == EV_OK && W < best_W) best_W = W, best_a = a;
    }
    if (least && best_a > 0) { /* evaluated again: the trial buffers hold the last trial (same bits) */
        trial_point(run, best_a);
        int rc = run_eval(run, run->xt, run->ft, &W);
        if (rc == EV_CANCELLED || rc == EV_ERROR) return rc;
        if (rc == EV_OK) {
            rec->kind = DS_STEP_SRA;
            rec->step = best_a;
            rec->halvings = 8;
            run_accept(run, run->xt, run->ft, W);
            if (took_least) *took_least = 1;
            return EV_OK;
        }
    }
    int rc = solver_msa_step(run, rec);
    /* the harmonic fallback is 1/l with l >= 1 the iteration being formed;
     * halvings counts the search's 8 and the harmonic step's own (where f
     * does not exist at 1/l: step = 2^-(halvings - 8) / l), so the step made
     * halvings + 2 evaluations (they read 8 whatever the harmonic step did) */
    if (rc == EV_OK) {
        rec->kind = DS_STEP_SRA_HARMONIC;
        rec->halvings += 8;
    }
    return rc;
}

int solver_sra_step(ds_run *run, ds_iter_record *rec) { return sra_search(run, rec, 0, NULL, NULL); }

int solver_sra_step_known(ds_run *run, ds_iter_record *rec, const sra_known *known)
{
    return sra_search(run, rec, 0, NULL, known);
}

int solver_sra_least_step(ds_run *run, ds_iter_record *rec, int *took_least)
{
    return sra_search(run, rec, 1, took_least, NULL);
}

static int noop_init(ds_run *run, void **state)
{
    (void)run;
    *state = NULL;
    return 0;
}
static void noop_free(void *state) { (void)state; }

static int msa_step(ds_run *run, void *state, ds_iter_record *rec)
{
    (void)state;
    return solver_msa_step(run, rec);
}

static int sra_step(ds_run *run, void *state, ds_iter_record *rec)
{
    (void)state;
    return solver_sra_step(run, rec);
}

const solver_ops solver_msa_ops = {"msa", noop_init, msa_step, NULL, noop_free};
const solver_ops solver_sra_ops = {"sra", noop_init, sra_step, NULL, noop_free};
