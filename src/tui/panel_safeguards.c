/* panel_safeguards.c - what the solver's safeguards did: counts per step
 * kind over the whole run and over the last TUI_LAST_N iterations, from
 * ds_totals (the numbers `dillsue solve` prints in its "steps:" line). The
 * rows are every step kind the run took, named by ds_step_name, so a new
 * kind in the engine shows up without a change here; halvings are summed
 * over every solver's steps and say so. Newton steps taken on a
 * pseudo-transient-regularised direction (--globalise ptc) are counted
 * apart, as in solve's "steps:" line. */
#include "tui.h"

void panel_safeguards_draw(tui_app *app, tui_rect r)
{
    tui_rect in = draw_inner(r);
    tui_run *run = app_focus_run(app);
    ds_totals t, l;
    char title[64];
    int y = 0;
    snprintf(title, sizeof title, "safeguards%s", run ? "" : " (no run)");
    if (run) snprintf(title, sizeof title, "safeguards #%d", run->id);
    draw_box(app, r, title);
    if (!run) return;
    size_t from = run->n > TUI_LAST_N ? run->n - TUI_LAST_N : 0;
    if (run->joined)
        t = run->totals; /* over every record, also once the history is thinned */
    else
        ds_totals_compute(run->rec, run->n, &t);
    ds_totals_compute(run->rec + from, run->n - from, &l);
    attr_t ok = term_attr(app, ROLE_ACCEPT), bad = term_attr(app, ROLE_REJECT);
    draw_text(in, y++, 0, term_attr(app, ROLE_LABEL), "%-16s%6s %6s", "step kind", "total", "last20");
    int any = 0;
    for (int k = DS_STEP_START + 1; k < DS_STEP_N && y < in.h - 3; k++) {
        if (!t.steps[k]) continue;
        int rejected = k == DS_STEP_SRA_HARMONIC || k == DS_STEP_ANDERSON_REJ || k == DS_STEP_NEWTON_REJ ||
                       k == DS_STEP_NEWTON_RECOVER;
        int accepted = k == DS_STEP_SRA || k == DS_STEP_ANDERSON_OK || k == DS_STEP_NEWTON_OK;
        draw_text(in, y++, 0,
                  rejected   ? bad
                  : accepted ? ok
                             : A_NORMAL,
                  "%-16s%6d %6d", ds_step_name((ds_step_kind)k), t.steps[k], l.steps[k]);
        any = 1;
    }
    char why[96];
    if (!any && runinfo_noiter(app, run, why, sizeof why)) /* not "no step yet" under a run that has ended */
        y += draw_wrap(in, y, term_attr(app, ROLE_WARN), why, 3);
    else if (!any)
        draw_text(in, y++, 0, A_DIM, "no step yet");
    draw_text(in, y++, 0, A_NORMAL, "%-16s%6ld %6ld", "halvings (all)", t.halvings, l.halvings);
    if (t.gmres_iters || t.aa_restarts)
        draw_text(in, y++, 0, A_NORMAL, "GMRES %ld | AA restarts %d", t.gmres_iters, t.aa_restarts);
    if (t.ptc_steps && y < in.h - 1)
        draw_text(in, y++, 0, A_NORMAL, "%-16s%6d %6d", "ptc-regularised", t.ptc_steps, l.ptc_steps);
    if (run->n && y < in.h) {
        const ds_iter_record *x = &run->rec[run->n - 1];
        char last[128];
        snprintf(last, sizeof last, "last: %s a=%.3g inner %d/%d evals %d", ds_step_name(x->kind), x->step,
                 x->inner_passes, x->absorb_passes, x->evals);
        y += draw_wrap(in, y, A_DIM, last, 2); /* (cut before its evaluations at 80x24: "inner 1/>") */
    }
}
