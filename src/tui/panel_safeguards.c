/* panel_safeguards.c - what the solver's safeguards did: counts over the
 * whole run and over the last TUI_LAST_N iterations. */
#include "tui.h"

typedef struct sg_counts {
    int msa, sra, halvings, harmonic, aa_ok, aa_rej, nt_ok, nt_rej, nt_warm, gmres, refresh;
} sg_counts;

static void count(const ds_iter_record *rec, size_t from, size_t to, sg_counts *c)
{
    *c = (sg_counts){0};
    for (size_t i = from; i < to; i++) {
        const ds_iter_record *x = &rec[i];
        c->halvings += x->halvings;
        c->gmres += x->gmres_iters;
        switch (x->kind) {
        case DS_STEP_MSA: c->msa++; break;
        case DS_STEP_SRA: c->sra++; break;
        case DS_STEP_SRA_HARMONIC: c->harmonic++; break;
        case DS_STEP_ANDERSON_OK: c->aa_ok++; break;
        case DS_STEP_ANDERSON_REJ: c->aa_rej++; break;
        case DS_STEP_NEWTON_OK: c->nt_ok++; break;
        case DS_STEP_NEWTON_REJ: c->nt_rej++; break;
        case DS_STEP_NEWTON_WARM: c->nt_warm++; break;
        case DS_STEP_MASK_REFRESH: c->refresh++; break;
        default: break;
        }
    }
}

void panel_safeguards_draw(tui_app *app, tui_rect r)
{
    tui_rect in = draw_inner(r);
    tui_run *run = app_focus_run(app);
    sg_counts t, l;
    char title[64];
    int y = 0;
    snprintf(title, sizeof title, "safeguards%s", run ? "" : " (no run)");
    if (run) snprintf(title, sizeof title, "safeguards #%d", run->id);
    draw_box(app, r, title);
    if (!run) return;
    size_t from = run->n > TUI_LAST_N ? run->n - TUI_LAST_N : 0;
    count(run->rec, 0, run->n, &t);
    count(run->rec, from, run->n, &l);
    attr_t ok = term_attr(app, ROLE_ACCEPT), bad = term_attr(app, ROLE_REJECT);
    draw_text(in, y++, 0, term_attr(app, ROLE_LABEL), "%-16s%6s %6s", "step", "total", "last20");
    draw_text(in, y++, 0, A_NORMAL, "%-16s%6d %6d", "MSA steps", t.msa, l.msa);
    draw_text(in, y++, 0, ok, "%-16s%6d %6d", "SRA accepted", t.sra, l.sra);
    draw_text(in, y++, 0, A_NORMAL, "%-16s%6d %6d", " halvings", t.halvings, l.halvings);
    draw_text(in, y++, 0, t.harmonic ? bad : A_NORMAL, "%-16s%6d %6d", " harmonic fallb.", t.harmonic, l.harmonic);
    draw_text(in, y, 0, ok, "%-16s%3d", "Anderson ok/rej", t.aa_ok);
    draw_text(in, y, 19, t.aa_rej ? bad : A_NORMAL, "/%-3d", t.aa_rej);
    draw_text(in, y++, 23, A_NORMAL, "%2d/%-3d", l.aa_ok, l.aa_rej);
    draw_text(in, y, 0, ok, "%-16s%3d", "Newton ok/rej", t.nt_ok);
    draw_text(in, y, 19, t.nt_rej ? bad : A_NORMAL, "/%-3d", t.nt_rej);
    draw_text(in, y++, 23, A_NORMAL, "%2d/%-3d", l.nt_ok, l.nt_rej);
    draw_text(in, y++, 0, A_NORMAL, "%-16s%6d %6d", " SRA warm steps", t.nt_warm, l.nt_warm);
    draw_text(in, y++, 0, A_NORMAL, "%-16s%6d %6d", "GMRES iters", t.gmres, l.gmres);
    if (run->n) {
        const ds_iter_record *x = &run->rec[run->n - 1];
        draw_text(in, y++, 0, A_DIM, "last: %s a=%.3g inner %d/%d evals %d", ds_step_name(x->kind),
                  x->step, x->inner_passes, x->absorb_passes, x->evals);
    }
}
