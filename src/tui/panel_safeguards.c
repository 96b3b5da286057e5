/* panel_safeguards.c - what the solver's safeguards did: counts over the
 * whole run and over the last TUI_LAST_N iterations (ds_totals, the same
 * numbers `dillsue solve` prints in its "steps:" line). */
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
    ds_totals_compute(run->rec, run->n, &t);
    ds_totals_compute(run->rec + from, run->n - from, &l);
    attr_t ok = term_attr(app, ROLE_ACCEPT), bad = term_attr(app, ROLE_REJECT);
    draw_text(in, y++, 0, term_attr(app, ROLE_LABEL), "%-16s%6s %6s", "step", "total", "last20");
    draw_text(in, y++, 0, A_NORMAL, "%-16s%6d %6d", "MSA steps", t.steps[DS_STEP_MSA], l.steps[DS_STEP_MSA]);
    draw_text(in, y++, 0, ok, "%-16s%6d %6d", "SRA accepted", t.steps[DS_STEP_SRA], l.steps[DS_STEP_SRA]);
    draw_text(in, y++, 0, A_NORMAL, "%-16s%6ld %6ld", " halvings", t.halvings, l.halvings);
    draw_text(in, y++, 0, t.steps[DS_STEP_SRA_HARMONIC] ? bad : A_NORMAL, "%-16s%6d %6d", " harmonic fallb.", t.steps[DS_STEP_SRA_HARMONIC], l.steps[DS_STEP_SRA_HARMONIC]);
    draw_text(in, y, 0, ok, "%-16s%3d", "Anderson ok/rej", t.steps[DS_STEP_ANDERSON_OK]);
    draw_text(in, y, 19, t.steps[DS_STEP_ANDERSON_REJ] ? bad : A_NORMAL, "/%-3d", t.steps[DS_STEP_ANDERSON_REJ]);
    draw_text(in, y++, 23, A_NORMAL, "%2d/%-3d", l.steps[DS_STEP_ANDERSON_OK], l.steps[DS_STEP_ANDERSON_REJ]);
    draw_text(in, y, 0, ok, "%-16s%3d", "Newton ok/rej", t.steps[DS_STEP_NEWTON_OK]);
    draw_text(in, y, 19, t.steps[DS_STEP_NEWTON_REJ] ? bad : A_NORMAL, "/%-3d", t.steps[DS_STEP_NEWTON_REJ]);
    draw_text(in, y++, 23, A_NORMAL, "%2d/%-3d", l.steps[DS_STEP_NEWTON_OK], l.steps[DS_STEP_NEWTON_REJ]);
    draw_text(in, y++, 0, A_NORMAL, "%-16s%6d %6d", " SRA warm steps", t.steps[DS_STEP_NEWTON_WARM], l.steps[DS_STEP_NEWTON_WARM]);
    draw_text(in, y++, 0, A_NORMAL, "%-16s%6ld %6ld", "GMRES iters", t.gmres_iters, l.gmres_iters);
    if (run->n) {
        const ds_iter_record *x = &run->rec[run->n - 1];
        draw_text(in, y++, 0, A_DIM, "last: %s a=%.3g inner %d/%d evals %d", ds_step_name(x->kind),
                  x->step, x->inner_passes, x->absorb_passes, x->evals);
    }
}
