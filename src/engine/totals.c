/* totals.c - safeguard and timing totals of a run, from its records. */
#include <stdio.h>
#include <string.h>

#include "dillsue.h"

void ds_totals_compute(const ds_iter_record *recs, size_t n, ds_totals *t)
{
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < n; i++) {
        const ds_iter_record *r = &recs[i];
        if ((int)r->kind >= 0 && r->kind < DS_STEP_N) t->steps[r->kind]++;
        if (r->kind != DS_STEP_START && r->kind != DS_STEP_MASK_REFRESH) t->iters++;
        t->halvings += r->halvings;
        t->gmres_iters += r->gmres_iters;
        t->aa_restarts += r->aa_restart;
        t->lu_fresh += r->lu_fresh;
        t->lu_reused += r->lu_reused;
        t->lu_shared += r->lu_shared;
        t->ptc_steps += r->ptc_shift > 0;
        if (r->kind == DS_STEP_MASK_REFRESH) {
            t->mask_refreshes++;
            t->mask_added += r->mask_added;
            t->mask_removed += r->mask_removed;
            t->mask_oscillations += r->mask_oscillation;
        }
        for (int p = 0; p < DS_PHASE_N; p++) t->t_phase[p] += r->t_phase[p];
        t->evals = r->evals;
        t->jv = r->jv;
    }
}

void ds_totals_format(const ds_totals *t, char *buf, size_t n)
{
    size_t k = 0;
#define ADD(...)                                                                                                       \
    do {                                                                                                               \
        if (k < n) k += (size_t)snprintf(buf + k, n - k, __VA_ARGS__);                                                 \
    } while (0)
    const int *s = t->steps;
    ADD("steps:");
    if (s[DS_STEP_MSA]) ADD(" msa %d", s[DS_STEP_MSA]);
    if (s[DS_STEP_SRA] || s[DS_STEP_SRA_HARMONIC])
        ADD(" sra %d (harmonic fallback %d)", s[DS_STEP_SRA], s[DS_STEP_SRA_HARMONIC]);
    if (s[DS_STEP_ANDERSON_OK] || s[DS_STEP_ANDERSON_REJ])
        ADD(" anderson %d accepted / %d rejected (restarts %d)", s[DS_STEP_ANDERSON_OK], s[DS_STEP_ANDERSON_REJ],
            t->aa_restarts);
    if (s[DS_STEP_NEWTON_WARM]) ADD(" newton-warm %d", s[DS_STEP_NEWTON_WARM]);
    if (s[DS_STEP_NEWTON_OK] || s[DS_STEP_NEWTON_REJ] || s[DS_STEP_NEWTON_RECOVER])
        ADD(" newton %d accepted / %d rejected / %d recovered (gmres %ld)", s[DS_STEP_NEWTON_OK], s[DS_STEP_NEWTON_REJ],
            s[DS_STEP_NEWTON_RECOVER], t->gmres_iters);
    if (t->ptc_steps) ADD(" | ptc-regularised %d", t->ptc_steps);
    ADD(" | halvings %ld", t->halvings);
    if (t->mask_refreshes)
        ADD(" | mask rebuilt %d time%s (+%ld -%ld destination-link pairs, oscillations %d)", t->mask_refreshes,
            t->mask_refreshes == 1 ? "" : "s", t->mask_added, t->mask_removed, t->mask_oscillations);
    if (t->lu_fresh || t->lu_reused || t->lu_shared)
        ADD(" | LU fresh %ld / reused %ld / shared %ld", t->lu_fresh, t->lu_reused, t->lu_shared);
    ADD(" | evals %d | J*v %d | s: costs %.3g bellman %.3g absorb %.3g deriv %.3g other %.3g", t->evals, t->jv,
        t->t_phase[DS_PHASE_COSTS], t->t_phase[DS_PHASE_BELLMAN], t->t_phase[DS_PHASE_ABSORB],
        t->t_phase[DS_PHASE_DERIV], t->t_phase[DS_PHASE_OTHER]);
#undef ADD
}
