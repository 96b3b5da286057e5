/* panel_runs.c - every run of the session, the settings of the next one, and
 * warm-start source. The comparison of two runs is in panel_compare.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "settings.h"
#include "tui.h"

static void run_summary(const tui_run *r, char *gap, size_t ng, char *el, size_t ne, int *iters)
{
    runinfo_gap(r, gap, ng);
    runinfo_time(r, el, ne);
    *iters = r->n ? r->rec[r->n - 1].iter : 0;
}

static const char *state(const tui_run *r) { return runinfo_state(r); }

void panel_runs_draw(tui_app *app, tui_rect r)
{
    tui_rect in = draw_inner(r);
    tui_session *s = &app->s;
    const ds_config *c = &s->next;
    int y = 0, rows, first, nw = 7;
    char title[64], thr[32], warm[48];
    if (app->queue_n)
        snprintf(title, sizeof title, "runs (%d) queue %d/%d", s->n_runs, app->queue_pos, app->queue_n);
    else
        snprintf(title, sizeof title, "runs (%d)", s->n_runs);
    draw_box(app, r, title);
    char line[256], disp[40], more[2][40] = {"", ""};
    /* settings the line does not show that are not their defaults: counted,
     * so that a run's cost terms or Newton's warm start never hide (s lists them) */
    {
        static const char *const shown[] = {"tau", "mu", "filter", "solver", "tol", "max_iter", "threads", "backend"};
        int n_more = 0;
        for (int i = 0; i < tui_n_settings; i++) {
            int on_line = 0;
            char v[64];
            for (size_t k = 0; k < sizeof shown / sizeof shown[0]; k++)
                on_line |= !strcmp(tui_settings[i].name, shown[k]);
            n_more += !on_line && settings_differs(i, c, v, sizeof v);
        }
        if (n_more) {
            snprintf(more[0], sizeof more[0], " | +%d setting%s", n_more, n_more == 1 ? "" : "s");
            snprintf(more[1], sizeof more[1], " +%d", n_more);
        }
    }
    for (int shortform = 0; shortform < 2; shortform++) {
        /* the short form, when the long one does not fit: backend beside the
         * threads, "cold" for no warm start, the warm source without "(latest)" */
        if (!s->warm_next)
            snprintf(warm, sizeof warm, shortform ? "cold" : "| warm off");
        else if (s->warm_from_id < 0) {
            const char *base = strrchr(s->warm_file_path, '/');
            snprintf(warm, sizeof warm, "| warm file %.30s", base ? base + 1 : s->warm_file_path);
        } else if (s->warm_from_id)
            snprintf(warm, sizeof warm, "| warm #%d", s->warm_from_id);
        else {
            tui_run *w = session_warm_source(s, NULL);
            if (w)
                snprintf(warm, sizeof warm, shortform ? "| warm #%d" : "| warm #%d (latest)", w->id);
            else
                snprintf(warm, sizeof warm, "| warm on (no run yet)");
        }
        snprintf(line, sizeof line, "next: %s | %s | %s | tol %g | max %d | thr %s%s%s %s%s",
                 runinfo_disp(c, 0, disp, sizeof disp), ds_filter_name(c->filter), ds_solver_name(c->solver), c->tol,
                 c->max_iter, runinfo_threads(c->threads, thr, sizeof thr), shortform ? " " : " | ",
                 ds_backend_name(c->backend), shortform && !s->warm_next ? "| cold" : warm, more[shortform]);
        if ((int)strlen(line) <= in.w) break;
    }
    draw_text(in, y++, 0, term_attr(app, ROLE_LABEL), "%s", line);
    int wide = in.w >= 100; /* the tolerance and warm columns only where they fit */
    /* the run number's column as wide as the largest number (run 10 and on
     * must not run into the network name) */
    int idw = wide ? 2 : 1;
    for (int id = s->n_runs ? s->runs[s->n_runs - 1]->id : 0, dg = 1; id >= 10; id /= 10)
        if (++dg > idw) idw = dg;
    /* iterations and gap as wide as their widest value (a million MSA
     * iterations, "9.9997e-08" beside tol 1e-07) and the time as wide as
     * fmt_secs writes ("252.3 ms": the 7 columns of 80x24 pushed it out of
     * line), so every row's columns line up under the header */
    int iw = wide ? 7 : 5, gw = wide ? 9 : 8, tw = 8;
    for (int i = 0; i < s->n_runs; i++) {
        char g[32], e[32];
        int it, l;
        run_summary(s->runs[i], g, sizeof g, e, sizeof e, &it);
        l = snprintf(NULL, 0, "%d", it);
        if (l > iw) iw = l;
        if ((int)strlen(g) > gw) gw = (int)strlen(g);
    }
    /* network names in full: the column is as wide as the longest name, up to
     * 13 characters at 80 columns and 24 from 100, and never so wide that the
     * time column leaves the screen; a name cut to the column ends in '>' */
    for (int i = 0; i < s->n_runs; i++) {
        int l = (int)strlen(s->runs[i]->net->name);
        if (l > nw) nw = l;
    }
    {
        int fixed = wide ? 3 + idw + 1 + 1 + 8 + 1 + 4 + 1 + 6 + 1 + 4 + 1 + 8 + 1 + iw + 1 + gw + 1 + 10 + 1 + 9
                         : 3 + idw + 1 + 1 + 8 + 1 + 4 + 1 + 5 + 1 + 4 + 1 + iw + 1 + gw + 1 + 9 + 1 + tw;
        int cap = wide ? 24 : 13;
        if (wide) fixed += 3; /* the start column follows: at least "  >" of it */
        if (cap > in.w - fixed) cap = in.w - fixed;
        if (cap < 4) cap = 4;
        if (nw > cap) nw = cap;
    }
    if (wide)
        draw_text(in, y++, 0, A_DIM, "   %-*s %-*s %-8s %-4s %6s %-4s %8s %*s %-*s %-10s %9s  %s", idw, "#", nw,
                  "network", "solver", "filt", "tau", "be", "tol", iw, "iters", gw, "gap", "status", "time", "start");
    else
        draw_text(in, y++, 0, A_DIM, "   %-*s %-*s %-8s %-4s %5s %-4s %*s %-*s %-9s %*s", idw, "#", nw, "network",
                  "solver", "filt", "tau", "be", iw, "iters", gw, "gap", "status", tw, "time");
    rows = in.h - y;
    app->runs_rows = rows;
    if (rows <= 0) return;
    first = app->sel - rows + 1;
    if (first < 0) first = 0;
    app->runs_first = first;
    for (int i = first; i < s->n_runs && y < in.h; i++, y++) {
        tui_run *run = s->runs[i];
        char gap[32], el[32], mark[4] = "   ", start[32], rd[32], name[128];
        int iters;
        run_summary(run, gap, sizeof gap, el, sizeof el, &iters);
        mark[0] = i == app->sel ? '>' : ' ';
        mark[1] = (i == app->cmp[0] || i == app->cmp[1]) ? 'C' : ' ';
        mark[2] = !run->shown ? '-' : run->warm ? 'w' : ' ';
        attr_t a = i == app->sel ? term_attr(app, ROLE_SELECT) : A_NORMAL;
        if (i != app->sel && run->joined && run->status != DS_STATUS_CONVERGED) a = term_attr(app, ROLE_REJECT);
        runinfo_start(run, start, sizeof start);
        snprintf(name, sizeof name, "%s", run->net->name);
        if ((int)strlen(name) > nw) snprintf(name + nw - 1, 2, ">"); /* "SiouxFalls~k2" hid the seed of ~k2/1 */
        if (wide)
            draw_text(in, y, 0, a, "%s%-*d %-*s %-8s %-4s %6s %-4s %8.3g %*d %-*s %-10s %9s  %s", mark, idw, run->id,
                      nw, name, ds_solver_name(run->cfg.solver), ds_filter_name(run->cfg.filter),
                      runinfo_disp(&run->cfg, 6, rd, sizeof rd), ds_backend_name(run->cfg.backend), run->cfg.tol, iw,
                      iters, gw, gap, state(run), el, start);
        else
            draw_text(in, y, 0, a, "%s%-*d %-*s %-8s %-4s %5s %-4s %*d %-*s %-9.9s %*s", mark, idw, run->id, nw, name,
                      ds_solver_name(run->cfg.solver), ds_filter_name(run->cfg.filter),
                      runinfo_disp(&run->cfg, 5, rd, sizeof rd), ds_backend_name(run->cfg.backend), iw, iters, gw, gap,
                      state(run), tw, el);
    }
    if (!s->n_runs) {
        char key[32];
        draw_text(in, y, 3, A_DIM, "no runs yet: %s starts one with the settings above",
                  keys_label(&app->keys, ACT_START, 0, "/", key, sizeof key));
    }
}
