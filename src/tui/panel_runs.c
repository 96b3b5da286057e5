/* panel_runs.c - every run of the session, the settings of the next one, and
 * the comparison of two marked runs. */
#include <math.h>
#include <stdio.h>

#include "tui.h"

static void run_summary(const tui_run *r, char *gap, size_t ng, char *el, size_t ne, int *iters)
{
    const ds_iter_record *last = r->n ? &r->rec[r->n - 1] : NULL;
    fmt_gap(last ? last->gap_rel : NAN, gap, ng);
    fmt_secs((r->joined ? r->t_end : session_now()) - r->t_start, el, ne);
    *iters = last ? last->iter : 0;
}

static const char *state(const tui_run *r)
{
    if (r->joined && r->status == DS_STATUS_MAX_ITER) return "max-iter";
    if (r->joined) return ds_status_name(r->status);
    return ds_run_is_paused(r->run) ? "paused" : "running";
}

void panel_runs_draw(tui_app *app, tui_rect r)
{
    tui_rect in = draw_inner(r);
    tui_session *s = &app->s;
    const ds_config *c = &s->next;
    int y = 0, rows, first;
    char title[32];
    snprintf(title, sizeof title, "runs (%d)", s->n_runs);
    draw_box(app, r, title);
    draw_text(in, y++, 0, term_attr(app, ROLE_LABEL),
              "next: tau %g | %s | %s | tol %g | max %d | thr %d | %s | warm %s", c->tau,
              ds_filter_name(c->filter), ds_solver_name(c->solver), c->tol, c->max_iter, c->threads,
              ds_backend_name(c->backend), s->warm_next ? "on" : "off");
    int wide = in.w >= 100; /* the tolerance column only where it fits */
    if (wide)
        draw_text(in, y++, 0, A_DIM, "   #  %-12s %-8s %-4s %6s %8s %7s %-9s %-9s %9s", "network", "solver",
                  "filt", "tau", "tol", "iters", "gap", "status", "time");
    else
        draw_text(in, y++, 0, A_DIM, "   #  %-10s %-8s %-4s %5s %7s %-9s %-9s %8s", "network", "solver", "filt",
                  "tau", "iters", "gap", "status", "time");
    rows = in.h - y;
    if (rows <= 0) return;
    first = app->sel - rows + 1;
    if (first < 0) first = 0;
    for (int i = first; i < s->n_runs && y < in.h; i++, y++) {
        tui_run *run = s->runs[i];
        char gap[32], el[32], mark[4] = "   ";
        int iters;
        run_summary(run, gap, sizeof gap, el, sizeof el, &iters);
        mark[0] = i == app->sel ? '>' : ' ';
        mark[1] = (i == app->cmp[0] || i == app->cmp[1]) ? 'C' : ' ';
        mark[2] = run->shown ? ' ' : '-';
        attr_t a = i == app->sel ? term_attr(app, ROLE_SELECT) : A_NORMAL;
        if (i != app->sel && run->joined && run->status != DS_STATUS_CONVERGED) a = term_attr(app, ROLE_REJECT);
        if (wide)
            draw_text(in, y, 0, a, "%s%-2d %-12.12s %-8s %-4s %6g %8.1e %7d %-9s %-9s %9s%s", mark, run->id,
                      run->net->name, ds_solver_name(run->cfg.solver), ds_filter_name(run->cfg.filter),
                      run->cfg.tau, run->cfg.tol, iters, gap, state(run), el, run->warm ? " warm" : "");
        else
            draw_text(in, y, 0, a, "%s%-2d %-10.10s %-8s %-4s %5g %7d %-9s %-9s %8s%s", mark, run->id,
                      run->net->name, ds_solver_name(run->cfg.solver), ds_filter_name(run->cfg.filter),
                      run->cfg.tau, iters, gap, state(run), el, run->warm ? " warm" : "");
    }
    if (!s->n_runs) {
        char key[32];
        draw_text(in, y, 3, A_DIM, "no runs yet: %s starts one with the settings above",
                  keys_label(&app->keys, ACT_START, 0, "/", key, sizeof key));
    }
}

static void cmp_col(tui_app *app, tui_rect in, int col, const tui_run *r)
{
    char gap[32], el[32], per[32];
    int iters, y = 0;
    run_summary(r, gap, sizeof gap, el, sizeof el, &iters);
    double t_run = r->n ? r->rec[r->n - 1].t_run : 0;
    fmt_secs(iters > 0 ? t_run / iters : 0, per, sizeof per);
    int evals = r->n ? r->rec[r->n - 1].evals : 0, jv = r->n ? r->rec[r->n - 1].jv : 0;
    draw_text(in, y++, col, term_attr(app, ROLE_TITLE), "run #%d%s", r->id, r->warm ? " (warm)" : "");
    draw_text(in, y++, col, A_NORMAL, "%s", r->net->name);
    draw_text(in, y++, col, A_NORMAL, "%s", ds_solver_name(r->cfg.solver));
    draw_text(in, y++, col, A_NORMAL, "%s", ds_filter_name(r->cfg.filter));
    draw_text(in, y++, col, A_NORMAL, "%g", r->cfg.tau);
    draw_text(in, y++, col, A_NORMAL, "%.5g", r->mu);
    draw_text(in, y++, col, A_NORMAL, "%g", r->cfg.tol);
    draw_text(in, y++, col, A_NORMAL, "%d", r->cfg.threads);
    draw_text(in, y++, col, A_NORMAL, "%s", state(r));
    draw_text(in, y++, col, A_NORMAL, "%d", iters);
    draw_text(in, y++, col, A_NORMAL, "%s", gap);
    draw_text(in, y++, col, A_NORMAL, "%s", el);
    draw_text(in, y++, col, A_NORMAL, "%s", per);
    draw_text(in, y++, col, A_NORMAL, "%d / %d", evals, jv);
}

void panel_compare_draw(tui_app *app)
{
    static const char *labels[] = {"", "network", "solver", "filter", "tau", "mu", "tol", "threads",
                                   "status", "iterations", "final gap", "wall time", "time/iter",
                                   "evals / Jv"};
    int n = (int)(sizeof labels / sizeof labels[0]);
    int w = 64, h = n + 4;
    if (app->cmp[0] < 0 || app->cmp[1] < 0) return;
    if (w > COLS) w = COLS;
    if (h > LINES - 1) h = LINES - 1;
    tui_rect r = {(LINES - h) / 2, (COLS - w) / 2, h, w};
    draw_fill(r, A_NORMAL);
    char title[48], close[32];
    snprintf(title, sizeof title, "compare (%s closes)", keys_label(&app->keys, ACT_CLOSE, 1, " or ", close, sizeof close));
    draw_box(app, r, title);
    tui_rect in = draw_inner(r);
    for (int i = 0; i < n; i++) draw_text(in, i, 1, term_attr(app, ROLE_LABEL), "%s", labels[i]);
    cmp_col(app, in, 14, app->s.runs[app->cmp[0]]);
    cmp_col(app, in, 38, app->s.runs[app->cmp[1]]);
}
