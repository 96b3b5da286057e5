/* panel_residuals.c - log10 gap_rel of every shown run against the x axis the
 * user picked (X: outer iteration, log10(1 + iteration), loading-map
 * evaluations, or the engine's wall time, pauses excluded), the tolerance as
 * a line, decade labels on the left. The latest run is drawn last (on top)
 * in the curve role; earlier runs in fainter roles with their own ASCII mark.
 * Without colour, braille and block curves of earlier runs carry their run's
 * mark on their own points every sixth column or so, so they stay apart. A "#id" tag goes right of each curve's end,
 * in a margin the curves never reach. The top row marks the focused run's
 * eDSP refreshes (R), Newton rejections (N) and Anderson restarts (A). The
 * legend names every shown run by number, solver, filter and tau, shorter
 * when the width asks for it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

#define LABEL_W 6
#define TAG_W 4 /* right margin for the #id tags */

static const char old_marks[] = "o+x%&@=~";

static char run_mark(const tui_run *r, int latest) { return latest ? '*' : old_marks[(r->id - 1) % 8]; }

static tui_role run_role(const tui_run *r, int latest)
{
    static const tui_role old[3] = {ROLE_CURVE_OLD, ROLE_CURVE_OLD2, ROLE_CURVE_OLD3};
    return latest ? ROLE_CURVE : old[(r->id - 1) % 3];
}

/* x of record k under the chosen axis */
static double xval(const tui_run *r, size_t k, tui_xaxis ax)
{
    switch (ax) {
    case XAXIS_LOGITER: return log10(1.0 + r->it[k]);
    case XAXIS_EVALS: return r->rec[k].evals;
    case XAXIS_TIME: return r->rec[k].t_run;
    default: return r->it[k];
    }
}

static const char *axis_name(tui_xaxis ax)
{
    switch (ax) {
    case XAXIS_LOGITER: return "outer iteration (log)";
    case XAXIS_EVALS: return "loading-map evaluations";
    case XAXIS_TIME: return "wall time (engine)";
    default: return "outer iteration";
    }
}

static void xlabel(tui_xaxis ax, double v, char *buf, size_t n)
{
    if (ax == XAXIS_TIME)
        fmt_secs(v, buf, n);
    else if (ax == XAXIS_LOGITER)
        snprintf(buf, n, "%.0f", pow(10, v) - 1 < 0.5 ? 0 : pow(10, v));
    else
        snprintf(buf, n, "%g", v);
}

static char marker_of(const ds_iter_record *x)
{
    if (x->kind == DS_STEP_MASK_REFRESH) return 'R';
    if (x->kind == DS_STEP_NEWTON_REJ || x->kind == DS_STEP_NEWTON_RECOVER) return 'N';
    if (x->aa_restart) return 'A';
    return 0;
}

/* One frame of the panel: what the pieces below share. */
typedef struct resid_frame {
    tui_app *app;
    tui_rect in;
    tui_run *latest, *focus;
    tui_xaxis ax;
    int rows, cols;
    double lo, hi, xmax, tol;
    int shown, thinned;
    plot_canvas cv;
    int ends[64][3], ne; /* run index, column and row of each curve's end */
} resid_frame;

/* Ranges over the shown runs: decades of gap_rel (capped at 1e2: a gap_rel
 * above 100 says only "far away", and its decade would squash the part of
 * the curve that matters; off-scale values get ^), the x extent, the tol. */
static void resid_ranges(resid_frame *f)
{
    tui_session *s = &f->app->s;
    double vmin = INFINITY, vmax = -INFINITY, xmax = 0, tol = -1;
    for (int i = 0; i < s->n_runs; i++) {
        tui_run *run = s->runs[i];
        if (!run->shown) continue;
        f->shown++;
        f->thinned |= run->n < run->n_total;
        if (tol < 0 || run == f->latest) tol = run->cfg.tol;
        for (size_t k = 0; k < run->n; k++) {
            double v = run->gap[k];
            if (isfinite(v) && v > 0) {
                vmin = fmin(vmin, v);
                vmax = fmax(vmax, v);
            }
        }
        if (run->n) xmax = fmax(xmax, xval(run, run->n - 1, f->ax));
    }
    if (tol < 0) tol = s->next.tol;
    if (f->ax == XAXIS_ITER || f->ax == XAXIS_EVALS)
        xmax = plot_nice_max(fmax(xmax, 10));
    else if (f->ax == XAXIS_LOGITER)
        xmax = fmax(1, ceil(xmax - 1e-9));
    else
        xmax = plot_nice_up(xmax > 0 ? xmax : 1e-3);
    if (vmax > 1e2) vmax = 1e2;
    if (vmin > vmax) vmin = vmax;
    plot_decade_range(vmin, vmax, tol, &f->lo, &f->hi);
    f->xmax = xmax;
    f->tol = tol;
}

/* Every shown run into the canvas, earlier runs first so the latest run's
 * dots sit on top; f->ends gets where each curve ends. */
static void resid_series(resid_frame *f)
{
    tui_session *s = &f->app->s;
    double *xs = NULL;
    size_t xs_cap = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < s->n_runs; i++) {
            tui_run *run = s->runs[i];
            int is_latest = run == f->latest, ec, er;
            if (!run->shown || is_latest != pass || !run->n) continue;
            if (run->n > xs_cap) {
                double *g = realloc(xs, run->n * sizeof *g);
                if (!g) continue;
                xs = g;
                xs_cap = run->n;
            }
            for (size_t k = 0; k < run->n; k++) xs[k] = xval(run, k, f->ax);
            plot_series ser = {run->gap, xs, run->n, i, run_mark(run, is_latest)};
            plot_canvas_series(&f->cv, &ser, &ec, &er);
            if (ec >= 0 && f->ne < 64) {
                f->ends[f->ne][0] = i;
                f->ends[f->ne][1] = ec;
                f->ends[f->ne][2] = er;
                f->ne++;
            }
        }
    free(xs);
}

/* The canvas onto the screen, each cell in its run's role. */
static void resid_blit(resid_frame *f)
{
    char buf[8];
    for (int y = 0; y < f->rows; y++)
        for (int x = 0; x < f->cols; x++) {
            plot_cell *cell = &f->cv.cell[y * f->cols + x];
            attr_t a = A_NORMAL;
            if (cell->special == PLOT_SP_TOL)
                a = term_attr(f->app, ROLE_TOL);
            else if (cell->series >= 0) {
                tui_run *run = f->app->s.runs[cell->series];
                a = term_attr(f->app, cell->special ? ROLE_WARN : run_role(run, run == f->latest));
            }
            const char *g = plot_cell_glyph(cell, f->app->gs, buf);
            if (g[0] == ' ' && !g[1]) continue;
            attron(a);
            mvaddstr(f->in.y + y, f->in.x + LABEL_W + x, g);
            attroff(a);
        }
}

/* No colour: braille and block curves of earlier runs look alike, so each
 * carries its run's mark on its own points, about every sixth column. */
static void resid_nocolor_marks(resid_frame *f)
{
    tui_session *s = &f->app->s;
    if (f->app->color || f->app->gs == PLOT_ASCII) return;
    for (int i = 0; i < s->n_runs; i++) {
        tui_run *run = s->runs[i];
        if (!run->shown || run == f->latest) continue;
        int last_col = -100;
        for (size_t k = 0; k < run->n; k++) {
            double v = run->gap[k];
            if (!(isfinite(v) && v > 0)) continue;
            double lv = log10(v);
            if (lv < f->lo || lv > f->hi) continue;
            int cx = plot_x_to_dot(xval(run, k, f->ax), f->xmax, f->cols * f->cv.sub_x) / f->cv.sub_x;
            int cy = plot_y_to_dot(lv, f->lo, f->hi, f->rows * f->cv.sub_y) / f->cv.sub_y;
            if (cx < 0 || cx >= f->cols || cy < 0 || cy >= f->rows || cx - last_col < 6) continue;
            last_col = cx;
            mvaddch(f->in.y + cy, f->in.x + LABEL_W + cx,
                    (chtype)run_mark(run, 0) | term_attr(f->app, run_role(run, 0)));
        }
    }
}

/* The focused run's eDSP refreshes, Newton rejections, Anderson restarts on the top row. */
static void resid_event_marks(resid_frame *f)
{
    tui_run *focus = f->focus;
    if (!focus || !focus->shown) return;
    for (size_t k = 0; k < focus->n; k++) {
        char mk = marker_of(&focus->rec[k]);
        if (!mk) continue;
        int dx = plot_x_to_dot(xval(focus, k, f->ax), f->xmax, f->cols * f->cv.sub_x) / f->cv.sub_x;
        if (dx >= 0 && dx < f->cols)
            mvaddch(f->in.y, f->in.x + LABEL_W + dx, (chtype)mk | term_attr(f->app, ROLE_WARN));
    }
}

/* "#id" tags right of each curve's end, in the margin the curves never
 * reach; a tag that would cover an earlier one moves to the nearest free row. */
static void resid_end_tags(resid_frame *f)
{
    int tags[64][2], nt = 0;
    for (int i = f->ne - 1; i >= 0; i--) {
        static const int dy[] = {0, -1, 1, -2, 2, -3, 3};
        tui_run *run = f->app->s.runs[f->ends[i][0]];
        int x = f->ends[i][1] + 1, y = f->ends[i][2], w = run->id >= 100 ? 4 : run->id >= 10 ? 3 : 2;
        if (x + w > f->cols + TAG_W) x = f->cols + TAG_W - w;
        for (int k = 0; k < 7; k++) {
            int yy = y + dy[k], clash = yy < 0 || yy >= f->rows;
            for (int t = 0; t < nt && !clash; t++) clash = tags[t][0] == yy && abs(tags[t][1] - x) <= w + 1;
            if (!clash) {
                y = yy;
                break;
            }
        }
        tags[nt][0] = y;
        tags[nt][1] = x;
        nt++;
        tui_rect pr = {f->in.y, f->in.x + LABEL_W, f->rows, f->cols + TAG_W};
        draw_text(pr, y, x, term_attr(f->app, run_role(run, run == f->latest)), "#%d", run->id);
    }
}

/* y axis: decade labels and a rule; x axis: its name and 0, middle, end
 * (decades on the log axis). */
static void resid_axes(resid_frame *f)
{
    int dec[64], drow[64], rows = f->rows, cols = f->cols;
    char lab[32];
    tui_rect in = f->in;
    int nd = plot_decade_labels(f->lo, f->hi, rows, f->app->gs, dec, drow, 64);
    for (int i = 0; i < nd; i++) {
        plot_format_decade(dec[i], lab, sizeof lab);
        draw_text(in, drow[i], 0, term_attr(f->app, ROLE_LABEL), "%5s", lab);
    }
    attron(term_attr(f->app, ROLE_DIM));
    mvvline(in.y, in.x + LABEL_W - 1, ACS_VLINE, rows);
    mvhline(in.y + rows, in.x + LABEL_W, ACS_HLINE, cols);
    mvaddch(in.y + rows, in.x + LABEL_W - 1, ACS_LLCORNER);
    attroff(term_attr(f->app, ROLE_DIM));
    static const char *const xs_name[XAXIS_N] = {"it", "logit", "evals", "time"};
    draw_text(in, rows, 0, A_NORMAL, "%s", xs_name[f->ax]);
    if (f->ax == XAXIS_LOGITER) {
        int last_end = -1;
        for (int d = 0; d <= (int)f->xmax; d++) {
            if (d == 0)
                snprintf(lab, sizeof lab, "0");
            else if (d <= 3)
                snprintf(lab, sizeof lab, "%.0f", pow(10, d));
            else
                snprintf(lab, sizeof lab, "1e%d", d);
            int x = LABEL_W + plot_x_to_dot(d, f->xmax, cols);
            if (d) x -= (int)strlen(lab) / 2;
            if (x + (int)strlen(lab) > in.w) x = in.w - (int)strlen(lab);
            if (x <= last_end + 1) continue;
            draw_text(in, rows, x, A_NORMAL, "%s", lab);
            last_end = x + (int)strlen(lab);
        }
    } else {
        draw_text(in, rows, LABEL_W, A_NORMAL, "0");
        xlabel(f->ax, f->xmax / 2, lab, sizeof lab);
        draw_text(in, rows, LABEL_W + cols / 2 - (int)strlen(lab) / 2, A_NORMAL, "%s", lab);
        xlabel(f->ax, f->xmax, lab, sizeof lab);
        draw_text(in, rows, LABEL_W + cols - (int)strlen(lab), A_NORMAL, "%s", lab);
    }
}

/* Legend: the tolerance, then the latest run first; long labels if all fit,
 * else short ones; each entry's hit box for the mouse. */
static void resid_legend(resid_frame *f)
{
    tui_app *app = f->app;
    tui_session *s = &app->s;
    tui_rect in = f->in;
    int col = 0, rows = f->rows;
    char tolb[32], lab[32];
    fmt_gap(f->tol, tolb, sizeof tolb);
    draw_text(in, rows + 1, col, term_attr(app, ROLE_TOL), "%s tol %s", plot_special_glyph(PLOT_SP_TOL, app->gs), tolb);
    col += 7 + (int)strlen(tolb); /* (15 for 1.00e-07; "tol 1.00e-300" ran into the first run's label) */
    if (!f->shown) {
        char key[32];
        draw_text(in, rows + 1, col, A_NORMAL, s->n_runs ? "(no run shown: %s)" : "(no run yet: %s)",
                  keys_label(&app->keys, s->n_runs ? ACT_SHOW : ACT_START, 0, "/", key, sizeof key));
        return;
    }
    int need = 0, wide = 1;
    for (int i = 0; i < s->n_runs; i++)
        if (s->runs[i]->shown) need += (int)strlen(runinfo_label(s->runs[i], 99, lab, sizeof lab)) + 3;
    if (col + need > in.w) wide = 0;
    int left = f->shown;
    app->legend_y = in.y + rows + 1;
    for (int i = s->n_runs - 1; i >= 0; i--) {
        tui_run *run = s->runs[i];
        char item[64];
        if (!run->shown) continue;
        int n = snprintf(item, sizeof item, "%c%s", run_mark(run, run == f->latest),
                         runinfo_label(run, wide ? 99 : 0, lab, sizeof lab));
        int more = left > 1 ? 9 : 0; /* room for "+N more" */
        if (col + n + more > in.w) {
            char mb[16];
            int ml = snprintf(mb, sizeof mb, "+%d more", left);
            draw_text(in, rows + 1, col, A_DIM, "%s", mb);
            col += ml + 2; /* "(thinned)" below wrote over it */
            break;
        }
        draw_text(in, rows + 1, col, term_attr(app, run_role(run, run == f->latest)), "%s", item);
        if (app->legend_n < 64) {
            app->legend[app->legend_n][0] = in.x + col;
            app->legend[app->legend_n][1] = in.x + col + n;
            app->legend[app->legend_n][2] = i;
            app->legend_n++;
        }
        col += n + 2;
        left--;
    }
    if (f->thinned && col + 10 < in.w) draw_text(in, rows + 1, col, A_DIM, "(thinned)");
}

void panel_residuals_draw(tui_app *app, tui_rect r)
{
    static resid_frame f;
    char title[160];
    memset(&f, 0, sizeof f);
    f.app = app;
    f.in = draw_inner(r);
    f.latest = app_latest_run(app);
    f.focus = app_focus_run(app);
    f.ax = app->xaxis;
    snprintf(title, sizeof title, "gap_rel (log10) vs %s", axis_name(f.ax));
    app->legend_n = 0;
    f.rows = f.in.h - 2; /* x labels and legend below the plot */
    f.cols = f.in.w - LABEL_W - TAG_W;
    int has_marks = 0;
    if (f.focus && f.focus->shown)
        for (size_t k = 0; k < f.focus->n && !has_marks; k++) has_marks = marker_of(&f.focus->rec[k]) != 0;
    if (has_marks && (int)strlen(title) + 40 < r.w)
        snprintf(title + strlen(title), sizeof title - strlen(title), " | #%d: R refresh N Newton rej. A restart",
                 f.focus->id);
    draw_box(app, r, title);
    if (f.rows < 3 || f.cols < 10) return;
    resid_ranges(&f);
    if (plot_canvas_init(&f.cv, f.cols, f.rows, app->gs, f.lo, f.hi, f.xmax) != 0) return;
    plot_canvas_hline(&f.cv, f.tol);
    resid_series(&f);
    resid_blit(&f);
    resid_nocolor_marks(&f);
    resid_event_marks(&f);
    resid_end_tags(&f);
    plot_canvas_free(&f.cv);
    resid_axes(&f);
    resid_legend(&f);
}
