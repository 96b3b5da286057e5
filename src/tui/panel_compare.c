/* panel_compare.c - two marked runs side by side: settings, outcome, engine
 * times, certificate, and their flows against each other (the same numbers
 * as `dillsue compare A.csv B.csv` with the second marked run as B) with the
 * links that differ most, as many as fit. */
#include <math.h>
#include <stdio.h>

#include "flowstat.h"
#include "tui.h"

#define CMP_ROWS 12

static void cmp_col(tui_app *app, tui_rect in, int col, const tui_run *r)
{
    char gap[32], el[32], per[32], mu[40], thr[32], lost[32], ttol[32];
    int iters = r->n ? r->rec[r->n - 1].iter : 0, y = 0;
    runinfo_gap(r, gap, sizeof gap);
    runinfo_time(r, el, sizeof el);
    fmt_secs(iters > 0 ? session_run_wall(r) / iters : -1, per, sizeof per);
    if (r->joined && r->times.t_tol >= 0)
        fmt_secs(r->times.t_tol, ttol, sizeof ttol);
    else
        snprintf(ttol, sizeof ttol, "never");
    if (r->cert.valid && r->cert.lost_pct >= 0)
        snprintf(lost, sizeof lost, "%.3g %%", r->cert.lost_pct);
    else
        snprintf(lost, sizeof lost, "n/a");
    int evals = r->n ? r->rec[r->n - 1].evals : 0, jv = r->n ? r->rec[r->n - 1].jv : 0;
    draw_text(in, y++, col, term_attr(app, ROLE_TITLE), "run #%d%s", r->id, r->warm ? " (warm)" : "");
    draw_text(in, y++, col, A_NORMAL, "%s", r->net->name);
    draw_text(in, y++, col, A_NORMAL, "%s / %s / %s", ds_solver_name(r->cfg.solver), ds_filter_name(r->cfg.filter),
              ds_backend_name(r->cfg.backend));
    if (r->cfg.mu > 0) /* given mu: no tau */
        draw_text(in, y++, col, A_NORMAL, "- / %s", runinfo_mu(r, mu, sizeof mu));
    else
        draw_text(in, y++, col, A_NORMAL, "%g / %s", r->cfg.tau, runinfo_mu(r, mu, sizeof mu));
    draw_text(in, y++, col, A_NORMAL, "%g / %s", r->cfg.tol, runinfo_threads(r->cfg.threads, thr, sizeof thr));
    draw_text(in, y++, col, A_NORMAL, "%s", runinfo_state(r));
    draw_text(in, y++, col, A_NORMAL, "%d", iters);
    draw_text(in, y++, col, A_NORMAL, "%s", gap);
    draw_text(in, y++, col, A_NORMAL, "%s / %s", el, ttol);
    draw_text(in, y++, col, A_NORMAL, "%s", per);
    draw_text(in, y++, col, A_NORMAL, "%d / %d", evals, jv);
    draw_text(in, y++, col, A_NORMAL, "%s", lost);
}

void panel_compare_draw(tui_app *app)
{
    static const char *labels[CMP_ROWS] = {"",           "network",    "solver/filt", "tau / mu",      "tol / thr",
                                           "status",     "iterations", "final gap",   "time / to tol", "time/iter",
                                           "evals / Jv", "lost demand"};
    if (app->cmp[0] < 0 || app->cmp[1] < 0) return;
    const tui_run *a = app->s.runs[app->cmp[0]], *b = app->s.runs[app->cmp[1]];
    int w = 78, h = CMP_ROWS + 2 + 5 + FLOWSTAT_TOP;
    tui_rect r = overlay_rect(w, h);
    draw_fill(r, A_NORMAL);
    char title[64], close[32];
    snprintf(title, sizeof title, "compare (%s closes)",
             keys_label(&app->keys, ACT_CLOSE, 1, " or ", close, sizeof close));
    draw_box(app, r, title);
    tui_rect in = draw_inner(r);
    for (int i = 0; i < CMP_ROWS; i++) draw_text(in, i, 1, term_attr(app, ROLE_LABEL), "%s", labels[i]);
    cmp_col(app, in, 15, a);
    cmp_col(app, in, 46, b);
    int y = CMP_ROWS;
    if (!a->flows || !b->flows) {
        draw_text(in, y, 1, A_DIM, "flows: when both runs have finished with flows");
        return;
    }
    if (a->net != b->net) {
        draw_text(in, y, 1, A_DIM, "flows: the runs are on different networks");
        return;
    }
    flowstat_cmp c;
    flowstat_compare(a->flows, b->flows, a->net->n_links, &c);
    char mape[48], r2[32];
    if (isnan(c.m.mape))
        snprintf(mape, sizeof mape, "n/a (no ref flow >= %g)", FLOWSTAT_MIN_REF);
    else
        snprintf(mape, sizeof mape, "%.6g %%", c.m.mape);
    if (isnan(c.m.r2))
        snprintf(r2, sizeof r2, "n/a");
    else
        snprintf(r2, sizeof r2, "%.10g", c.m.r2);
    draw_text(in, y++, 1, term_attr(app, ROLE_LABEL), "flows of #%d against #%d (as dillsue compare A B):", a->id,
              b->id);
    draw_text(in, y++, 1, A_NORMAL, "MAPE %s | R^2 %s | max abs diff %.6g | %d links", mape, r2, c.m.max_abs,
              c.m.n_used);
    char ha[16], hb[16];
    snprintf(ha, sizeof ha, "run #%d", a->id);
    snprintf(hb, sizeof hb, "run #%d", b->id);
    if (y < in.h) draw_text(in, y++, 1, term_attr(app, ROLE_LABEL), "%-12s %14s %14s %14s", "link", ha, hb, "diff");
    for (int k = 0; k < c.n_top && y < in.h; k++, y++) {
        int e = c.top[k];
        char lk[24];
        snprintf(lk, sizeof lk, "%d-%d", ds_node_id(a->net, a->net->tail[e]), ds_node_id(a->net, a->net->head[e]));
        draw_text(in, y, 1, A_NORMAL, "%-12s %14.6g %14.6g %14.4g", lk, a->flows[e], b->flows[e],
                  a->flows[e] - b->flows[e]);
    }
}
