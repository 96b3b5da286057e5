/* view_ladder.c - the runs of a queue compared the way the paper compares
 * solvers: one table row per run (run #, solver, filter, tau, status, outer
 * iterations, loading-map evaluations, J*v products, time to tol and total
 * wall time on the engine's clock, final gap_rel), then, where the runs form
 * one, the ladder: rows tau, columns solver (solver/filter when the filters
 * differ), one grid each for iterations, evaluations and time to tol, side
 * by side when the screen is wide enough.
 *
 * Every count is the engine's last published record, the numbers `dillsue
 * solve` prints for the same settings (iterations, evals, J*v; gap_rel with
 * the same %.6e). Lists the latest queue's runs; Tab switches to every run
 * of the session. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ladder.h"
#include "textbuf.h"

#define LADDER_CELL 10 /* minimum width of a grid cell */

int view_ladder_runs(const tui_app *app, int *idx, int max)
{
    int n = 0, q = app->ladder_all ? 0 : app->queue_serial;
    for (int i = 0; i < app->s.n_runs && n < max; i++)
        if (!q || app->s.runs[i]->queue == q) idx[n++] = i;
    return n;
}

/* tau, or mu where the run was given one */
static void ladder_disp(const tui_run *r, char *buf, size_t n)
{
    if (r->cfg.mu > 0)
        snprintf(buf, n, "mu %g", r->cfg.mu);
    else
        snprintf(buf, n, "%g", r->cfg.tau);
}

static const ds_iter_record *last_rec(const tui_run *r) { return r->n ? &r->rec[r->n - 1] : NULL; }

static void ladder_ttol(const tui_run *r, char *buf, size_t n)
{
    if (r->joined && r->times.t_tol >= 0)
        fmt_secs(r->times.t_tol, buf, n);
    else
        snprintf(buf, n, r->joined ? "never" : "-");
}

static void ladder_table(tui_app *app, textbuf *t, const int *idx, int nr)
{
    t->head = t->n;
    tb_row(t, ROLE_LABEL, "%4s  %-8s %-6s %-7s %-9s %6s %7s %8s %9s %9s  %-13s %s", "run", "solver", "filter", "tau",
           "status", "outer", "evals", "J*v", "to tol", "wall", "gap_rel", "network");
    for (int k = 0; k < nr; k++) {
        const tui_run *r = app->s.runs[idx[k]];
        const ds_iter_record *x = last_rec(r);
        char disp[32], ttol[32], wall[32], gap[32] = "n/a";
        ladder_disp(r, disp, sizeof disp);
        ladder_ttol(r, ttol, sizeof ttol);
        runinfo_time(r, wall, sizeof wall);
        if (x && isfinite(x->gap_rel)) snprintf(gap, sizeof gap, "%.6e", x->gap_rel);
        tui_role role = idx[k] == app->sel                              ? ROLE_SELECT
                        : r->joined && r->status != DS_STATUS_CONVERGED ? ROLE_REJECT
                                                                        : ROLE_NORMAL;
        tb_row(t, role, "%c#%-2d  %-8s %-6s %-7s %-9s %6d %7d %8d %9s %9s  %-13s %s", idx[k] == app->sel ? '>' : ' ',
               r->id, ds_solver_name(r->cfg.solver), ds_filter_name(r->cfg.filter), disp, runinfo_state(r),
               x ? x->iter : 0, x ? x->evals : 0, x ? x->jv : 0, ttol, wall, gap, r->net->name);
    }
}

static double run_disp(const tui_run *r, int *use_mu)
{
    *use_mu = r->cfg.mu > 0;
    return r->cfg.mu > 0 ? r->cfg.mu : r->cfg.tau;
}

static int grid_row(ladder_grid *g, const tui_run *r)
{
    int mu;
    double d = run_disp(r, &mu);
    for (int i = 0; i < g->nrow; i++)
        if (g->disp[i] == d && g->use_mu[i] == mu) return i;
    if (g->nrow == LADDER_MAX_AXIS) return -1;
    int at = g->nrow++;
    while (at > 0 && (g->use_mu[at - 1] > mu || (g->use_mu[at - 1] == mu && g->disp[at - 1] > d))) {
        g->disp[at] = g->disp[at - 1];
        g->use_mu[at] = g->use_mu[at - 1];
        memcpy(g->cell[at], g->cell[at - 1], sizeof g->cell[0]);
        at--;
    }
    g->disp[at] = d;
    g->use_mu[at] = mu;
    for (int j = 0; j < LADDER_MAX_AXIS; j++) g->cell[at][j] = -1;
    return at;
}

static int grid_col(ladder_grid *g, const tui_run *r)
{
    for (int j = 0; j < g->ncol; j++)
        if (g->solver[j] == (int)r->cfg.solver && (!g->by_filter || g->filter[j] == (int)r->cfg.filter)) return j;
    if (g->ncol == LADDER_MAX_AXIS) return -1;
    g->solver[g->ncol] = (int)r->cfg.solver;
    g->filter[g->ncol] = (int)r->cfg.filter;
    return g->ncol++;
}

void ladder_grid_build(const tui_run *const *runs, int nr, ladder_grid *g)
{
    memset(g, 0, sizeof *g);
    for (int k = 1; k < nr; k++)
        if (runs[k]->cfg.filter != runs[0]->cfg.filter) g->by_filter = 1;
    for (int k = 0; k < nr; k++) {
        const tui_run *r = runs[k];
        int i = grid_row(g, r), j = grid_col(g, r);
        if (i < 0 || j < 0) {
            g->cut = 1;
            continue;
        }
        if (g->cell[i][j] >= 0) g->dup = 1;
        g->cell[i][j] = k; /* the latest run of a cell */
    }
}

typedef enum { GRID_ITERS = 0, GRID_EVALS, GRID_TTOL, GRID_N } grid_kind;

/* One cell's text: the count, in parentheses when the run did not converge. */
static void grid_cell(const tui_run *r, grid_kind kind, char *buf, size_t n)
{
    const ds_iter_record *x = last_rec(r);
    char v[32];
    if (!r->joined) {
        snprintf(buf, n, "%s", runinfo_state(r));
        return;
    }
    if (kind == GRID_TTOL)
        ladder_ttol(r, v, sizeof v);
    else
        snprintf(v, sizeof v, "%d", !x ? 0 : kind == GRID_ITERS ? x->iter : x->evals);
    if (r->status == DS_STATUS_CONVERGED || kind == GRID_TTOL)
        snprintf(buf, n, "%s", v);
    else
        snprintf(buf, n, "(%s)", v);
}

/* Lines of one grid into out (at most LADDER_MAX_AXIS + 2); returns its width. */
static int grid_lines(const tui_run *const *runs, const ladder_grid *g, grid_kind kind, char out[][TB_LINE], int *nout)
{
    static const char *const title[GRID_N] = {"outer iterations", "evaluations", "time to tol"};
    char head[64];
    int cw[LADDER_MAX_AXIS], w = 8;
    for (int j = 0; j < g->ncol; j++) {
        if (g->by_filter)
            snprintf(head, sizeof head, "%s/%s", ds_solver_name((ds_solver_kind)g->solver[j]),
                     ds_filter_name((ds_filter)g->filter[j]));
        else
            snprintf(head, sizeof head, "%s", ds_solver_name((ds_solver_kind)g->solver[j]));
        cw[j] = (int)strlen(head) + 1 > LADDER_CELL ? (int)strlen(head) + 1 : LADDER_CELL;
        w += cw[j];
    }
    int n = 0, k;
    snprintf(out[n++], TB_LINE, "%-*.*s", w, w, title[kind]);
    k = snprintf(out[n], TB_LINE, "%-8s", g->use_mu[0] ? "mu" : "tau");
    for (int j = 0; j < g->ncol && k < TB_LINE; j++) {
        if (g->by_filter)
            snprintf(head, sizeof head, "%s/%s", ds_solver_name((ds_solver_kind)g->solver[j]),
                     ds_filter_name((ds_filter)g->filter[j]));
        else
            snprintf(head, sizeof head, "%s", ds_solver_name((ds_solver_kind)g->solver[j]));
        k += snprintf(out[n] + k, (size_t)(TB_LINE - k), "%*s", cw[j], head);
    }
    n++;
    for (int i = 0; i < g->nrow; i++) {
        char lab[24];
        snprintf(lab, sizeof lab, "%s%g", g->use_mu[i] ? "mu " : "", g->disp[i]);
        k = snprintf(out[n], TB_LINE, "%-8s", lab);
        for (int j = 0; j < g->ncol && k < TB_LINE; j++) {
            char v[40] = "-";
            if (g->cell[i][j] >= 0) grid_cell(runs[g->cell[i][j]], kind, v, sizeof v);
            k += snprintf(out[n] + k, (size_t)(TB_LINE - k), "%*s", cw[j], v);
        }
        n++;
    }
    *nout = n;
    return w;
}

/* The three grids side by side where they fit in the view's width, else one
 * under another. */
static void ladder_grids(const tui_run *const *runs, textbuf *t, const ladder_grid *g)
{
    static char lines[GRID_N][LADDER_MAX_AXIS + 2][TB_LINE];
    int nl[GRID_N], w[GRID_N], total = 0;
    for (int k = 0; k < GRID_N; k++) total += (w[k] = grid_lines(runs, g, (grid_kind)k, lines[k], &nl[k])) + 4;
    tb_add(t, ROLE_LABEL, 2,
           "ladder: rows tau, columns solver%s; (N) = did not converge (its status is in the table below)%s%s",
           g->by_filter ? "/filter" : "", g->dup ? "; a cell with several runs shows the latest" : "",
           g->cut ? "; more than 16 taus or columns: the rest only in the table" : "");
    if (total - 4 <= t->width) {
        for (int i = 0; i < nl[0]; i++) {
            char row[TB_LINE * GRID_N];
            int k = 0;
            for (int g2 = 0; g2 < GRID_N; g2++)
                k += snprintf(row + k, sizeof row - (size_t)k, "%-*s%s", w[g2], lines[g2][i],
                              g2 + 1 < GRID_N ? "    " : "");
            tb_row(t, i == 0 ? ROLE_TITLE : i == 1 ? ROLE_LABEL : ROLE_NORMAL, "%s", row);
        }
        return;
    }
    for (int g2 = 0; g2 < GRID_N; g2++) {
        for (int i = 0; i < nl[g2]; i++)
            tb_row(t, i == 0 ? ROLE_TITLE : i == 1 ? ROLE_LABEL : ROLE_NORMAL, "%s", lines[g2][i]);
        if (g2 + 1 < GRID_N) tb_row(t, ROLE_NORMAL, "%s", "");
    }
}

void view_ladder_build(tui_app *app, textbuf *t)
{
    static int idx[4096];
    int nr = view_ladder_runs(app, idx, (int)(sizeof idx / sizeof idx[0]));
    char tab[32], qk[32];
    keys_label(&app->keys, ACT_TAB, 0, "/", tab, sizeof tab);
    keys_label(&app->keys, ACT_QUEUE, 0, "/", qk, sizeof qk);
    if (app->ladder_all || !app->queue_serial)
        tb_add(t, ROLE_LABEL, 2,
               app->queue_serial ? "every run of the session (%d); %s: the latest queue only"
                                 : "every run of the session (%d); %s queues a ladder (e.g. tau 1,3,10 solvers)",
               nr, app->queue_serial ? tab : qk);
    else if (app->queue_n)
        tb_add(t, ROLE_LABEL, 2, "runs of queue %d: %d started, %d still queued; %s: every run of the session",
               app->queue_serial, nr, app->queue_n - app->queue_pos, tab);
    else
        tb_add(t, ROLE_LABEL, 2, "runs of queue %d (%d); %s: every run of the session", app->queue_serial, nr, tab);
    t->sticky = t->n;
    if (!nr) {
        tb_add(t, ROLE_DIM, 0, "no runs yet");
        return;
    }
    static const tui_run *runs[4096];
    static ladder_grid g;
    for (int k = 0; k < nr; k++) runs[k] = app->s.runs[idx[k]];
    ladder_grid_build(runs, nr, &g);
    if (g.nrow > 1 || g.ncol > 1) {
        ladder_grids(runs, t, &g);
        tb_row(t, ROLE_NORMAL, "%s", "");
    }
    tb_add(t, ROLE_LABEL, 2,
           "one row per run; counts as `dillsue solve` prints them; times on the engine clock (pauses excluded); "
           "Left/Right scroll wide tables");
    ladder_table(app, t, idx, nr);
}
