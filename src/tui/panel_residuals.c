/* panel_residuals.c - log10 gap_rel against outer iteration for every shown
 * run, the tolerance as a line, decade labels on the left. The latest run is
 * drawn last (on top) in the curve role; earlier runs in fainter roles with
 * their own ASCII mark and a "#id" tag at the end of the curve. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

#define LABEL_W 6

static const char old_marks[] = "o+x%&@=~";

static char run_mark(const tui_run *r, int latest) { return latest ? '*' : old_marks[(r->id - 1) % 8]; }

static tui_role run_role(const tui_run *r, int latest)
{
    static const tui_role old[3] = {ROLE_CURVE_OLD, ROLE_CURVE_OLD2, ROLE_CURVE_OLD3};
    return latest ? ROLE_CURVE : old[(r->id - 1) % 3];
}

void panel_residuals_draw(tui_app *app, tui_rect r)
{
    tui_rect in = draw_inner(r);
    tui_session *s = &app->s;
    tui_run *latest = app_latest_run(app);
    double vmin = INFINITY, vmax = -INFINITY, xmax = 10, tol = -1, lo, hi;
    int dec[64], drow[64], nd, rows, cols, i, shown = 0;
    plot_canvas cv;
    char buf[8], lab[16];

    draw_box(app, r, "gap_rel (log10) vs outer iteration");
    rows = in.h - 2; /* x labels and legend below the plot */
    cols = in.w - LABEL_W;
    if (rows < 3 || cols < 10) return;

    for (i = 0; i < s->n_runs; i++) {
        tui_run *run = s->runs[i];
        if (!run->shown) continue;
        shown++;
        if (tol < 0 || run == latest) tol = run->cfg.tol;
        for (size_t k = 0; k < run->n; k++) {
            double v = run->gap[k];
            if (isfinite(v) && v > 0) { vmin = fmin(vmin, v); vmax = fmax(vmax, v); }
        }
        if (run->n) xmax = fmax(xmax, run->it[run->n - 1]);
    }
    if (tol < 0) tol = s->next.tol;
    xmax = plot_nice_max(xmax);
    /* A gap_rel above 100 says only "far away"; showing its decade would
     * squash the part of the curve that matters. Off-scale values get ^. */
    if (vmax > 1e2) vmax = 1e2;
    if (vmin > vmax) vmin = vmax;
    plot_decade_range(vmin, vmax, tol, &lo, &hi);
    if (plot_canvas_init(&cv, cols, rows, app->gs, lo, hi, xmax) != 0) return;
    plot_canvas_hline(&cv, tol);

    int ends[64][3], ne = 0;
    /* Earlier runs first so the latest run's dots sit on top. */
    for (int pass = 0; pass < 2; pass++)
        for (i = 0; i < s->n_runs; i++) {
            tui_run *run = s->runs[i];
            int is_latest = run == latest, ec, er;
            if (!run->shown || is_latest != pass || !run->n) continue;
            plot_series ser = {run->gap, run->it, run->n, i, run_mark(run, is_latest)};
            plot_canvas_series(&cv, &ser, &ec, &er);
            if (ec >= 0 && ne < 64) { ends[ne][0] = i; ends[ne][1] = ec; ends[ne][2] = er; ne++; }
        }

    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            plot_cell *cell = &cv.cell[y * cols + x];
            attr_t a = A_NORMAL;
            if (cell->special == PLOT_SP_TOL) a = term_attr(app, ROLE_TOL);
            else if (cell->series >= 0) {
                tui_run *run = s->runs[cell->series];
                a = term_attr(app, cell->special ? ROLE_WARN : run_role(run, run == latest));
            }
            const char *g = plot_cell_glyph(cell, app->gs, buf);
            if (g[0] == ' ' && !g[1]) continue;
            attron(a);
            mvaddstr(in.y + y, in.x + LABEL_W + x, g);
            attroff(a);
        }
    /* "#id" tags right of each curve's end; a tag that would cover an
     * earlier one moves to the nearest free row. */
    int tags[64][2], nt = 0;
    for (i = ne - 1; i >= 0; i--) {
        static const int dy[] = {0, -1, 1, -2, 2, -3, 3};
        tui_run *run = s->runs[ends[i][0]];
        int x = ends[i][1] + 1, y = ends[i][2], w = run->id >= 10 ? 3 : 2;
        if (x + w + 1 > cols) x = cols - w - 1;
        for (int k = 0; k < 7; k++) {
            int yy = y + dy[k], clash = yy < 0 || yy >= rows;
            for (int t = 0; t < nt && !clash; t++)
                clash = tags[t][0] == yy && abs(tags[t][1] - x) <= w + 1;
            if (!clash) { y = yy; break; }
        }
        tags[nt][0] = y;
        tags[nt][1] = x;
        nt++;
        tui_rect pr = {in.y, in.x + LABEL_W, rows, cols};
        draw_text(pr, y, x, term_attr(app, run_role(run, run == latest)), "#%d", run->id);
    }
    plot_canvas_free(&cv);

    /* y axis: decade labels and a rule */
    nd = plot_decade_labels(lo, hi, rows, app->gs, dec, drow, 64);
    for (i = 0; i < nd; i++) {
        plot_format_decade(dec[i], lab, sizeof lab);
        draw_text(in, drow[i], 0, term_attr(app, ROLE_LABEL), "%5s", lab);
    }
    attron(term_attr(app, ROLE_DIM));
    mvvline(in.y, in.x + LABEL_W - 1, ACS_VLINE, rows);
    mvhline(in.y + rows, in.x + LABEL_W, ACS_HLINE, cols);
    mvaddch(in.y + rows, in.x + LABEL_W - 1, ACS_LLCORNER);
    attroff(term_attr(app, ROLE_DIM));
    draw_text(in, rows, 0, A_NORMAL, "it");
    /* x labels: 0, middle, end; nice_max keeps them round */
    draw_text(in, rows, LABEL_W, A_NORMAL, "0");
    snprintf(lab, sizeof lab, "%g", xmax / 2);
    draw_text(in, rows, LABEL_W + cols / 2 - (int)strlen(lab) / 2, A_NORMAL, "%s", lab);
    snprintf(lab, sizeof lab, "%g", xmax);
    draw_text(in, rows, in.w - (int)strlen(lab), A_NORMAL, "%s", lab);

    /* legend */
    int col = 0;
    char tolb[32];
    fmt_gap(tol, tolb, sizeof tolb);
    draw_text(in, rows + 1, col, term_attr(app, ROLE_TOL), "%s tol %s",
              plot_special_glyph(PLOT_SP_TOL, app->gs), tolb);
    col += 15;
    if (!shown) {
        char key[32];
        draw_text(in, rows + 1, col, A_NORMAL, s->n_runs ? "(no run shown: %s)" : "(no run yet: %s)",
                  keys_label(&app->keys, s->n_runs ? ACT_SHOW : ACT_START, 0, "/", key, sizeof key));
    }
    for (i = s->n_runs - 1; i >= 0 && col < in.w - 4; i--) {
        tui_run *run = s->runs[i];
        char item[64];
        if (!run->shown) continue;
        int n = snprintf(item, sizeof item, "%c#%d %s t%g", run_mark(run, run == latest), run->id,
                         ds_solver_name(run->cfg.solver), run->cfg.tau);
        draw_text(in, rows + 1, col, term_attr(app, run_role(run, run == latest)), "%s", item);
        col += n + 2;
    }
}
