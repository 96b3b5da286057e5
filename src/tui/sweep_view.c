/* sweep_view.c - `dillsue tui --sweep DIR`: watch a sweep directory fill
 * (docs/sweep.md). A separate screen with its own small loop: it reads what
 * `dillsue sweep` writes (sweep.conf, the journals, the progress file) once a
 * second, so it works the same for a local sweep, an mpirun sweep, shards of
 * a job array or a finished sweep, and never talks to the processes.
 *
 * Shows: progress (done/total, cells per second, ETA, ranks or workers
 * alive), per solver the distribution of iterations and of time per cell as
 * a histogram over log-spaced bins with p10/median/p90, status counts, and the
 * cells that did not converge with their reasons (a: every cell); Enter on
 * one shows its row, the path of its flows and the solve command; h there
 * solves it again on a thread (history plot, busiest links, bitwise check
 * against the sweep's flow file); r opens it as a run of the main TUI (its
 * residual curves, panels, comparison and export; the sweep's flow file
 * offered as the reference). Keys: q quit, Up/Down select, Enter details,
 * h replay, r run, a all cells / failures, Escape back. */
#include "sweep_view.h"

#include "ds_csv.h"
#include "sweep_data.h"
#include "termcheck.h"
#include "tui.h" /* fmt_gap_digits */

#include <pthread.h>
#include <stdatomic.h>

#include <curses.h>
#include <dirent.h>
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------ pure parts */

int sweep_view_bin(double v, double lo, int nbins)
{
    if (!(v > 0) || !isfinite(v)) return -1;
    /* two bins per decade from lo */
    int b = (int)floor(2.0 * log10(v / lo));
    if (b < 0) b = 0;
    if (b >= nbins) b = nbins - 1;
    return b;
}

void sweep_view_hist_text(const int *counts, int nbins, int ascii, char *out, size_t n)
{
    static const char *blocks[] = {" ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588"};
    static const char ascii_lv[] = " .:-=+*##";
    int maxc = 0;
    size_t u = 0;
    for (int i = 0; i < nbins; i++)
        if (counts[i] > maxc) maxc = counts[i];
    for (int i = 0; i < nbins && u + 8 < n; i++) {
        int lv = maxc ? (counts[i] * 8 + maxc - 1) / maxc : 0; /* any count shows */
        if (ascii) {
            out[u++] = ascii_lv[lv];
        } else {
            size_t l = strlen(blocks[lv]);
            memcpy(out + u, blocks[lv], l);
            u += l;
        }
    }
    out[u] = '\0';
}

/* ------------------------------------------------------------ replay */

/* A cell solved again on a thread of the viewer (sweeps keep no per-cell
 * history): its residual history as it comes, then its flows, checked
 * bitwise against the sweep's flow file when there is one. */
typedef struct replay {
    sweep_grid g;
    long cell;
    char flows_path[1400];
    pthread_t th;
    int started;
    atomic_int finished;
    pthread_mutex_t lock;
    ds_network *base, *net;
    ds_run *run; /* set under lock once created */
    int cancel;  /* under lock: Escape came before the run was created */
    ds_status st;
    char err[600];
} replay;

static void *replay_main(void *arg)
{
    replay *rp = arg;
    ds_error err = {{0}, 0, {0}};
    sweep_cell_id id = sweep_grid_cell(&rp->g, rp->cell);
    ds_config cfg;
    rp->base = ds_network_load_net_trips(rp->g.net, rp->g.trips[0] ? rp->g.trips : NULL, &err);
    if (rp->base) rp->net = sweep_scenario_network(rp->base, id.k, rp->g.seed, &err);
    ds_run *run = NULL;
    if (rp->net) {
        sweep_cell_config(&rp->g, id, 1, &cfg);
        run = ds_run_create(rp->net, &cfg, &err);
    }
    if (!run) {
        ds_error_format(&err, rp->err, sizeof rp->err);
        atomic_store(&rp->finished, 1);
        return NULL;
    }
    pthread_mutex_lock(&rp->lock);
    rp->run = run;
    int cancel = rp->cancel;
    pthread_mutex_unlock(&rp->lock);
    /* cancelled while the network loaded: no ds_run_cancel reached this run,
     * and replay_stop waits in join, so do not solve it at all */
    rp->st = cancel ? DS_STATUS_ERROR : ds_run_execute(run);
    atomic_store(&rp->finished, 1);
    return NULL;
}

static void replay_stop(replay *rp)
{
    if (!rp->started) return;
    pthread_mutex_lock(&rp->lock);
    rp->cancel = 1;
    if (rp->run) ds_run_cancel(rp->run);
    pthread_mutex_unlock(&rp->lock);
    pthread_join(rp->th, NULL);
    ds_run_free(rp->run);
    ds_network_free(rp->net);
    ds_network_free(rp->base);
    pthread_mutex_destroy(&rp->lock);
    memset(rp, 0, sizeof *rp);
}

static int replay_start(replay *rp, const sweep_grid *g, long cell, const char *flows_path)
{
    replay_stop(rp);
    rp->g = *g;
    rp->cell = cell;
    snprintf(rp->flows_path, sizeof rp->flows_path, "%s", flows_path);
    atomic_init(&rp->finished, 0);
    pthread_mutex_init(&rp->lock, NULL);
    if (pthread_create(&rp->th, NULL, replay_main, rp) != 0) {
        pthread_mutex_destroy(&rp->lock);
        return -1;
    }
    rp->started = 1;
    return 0;
}

/* ------------------------------------------------------------ state */

typedef struct view {
    char dir[1024];
    sweep_grid g;
    long total, done;
    sweep_result *res;
    unsigned char *done_flag;
    long bad;
    /* progress file */
    char state[32], mode[16];
    double rate, updated;
    int alive, workers;
    long session_done, session_todo;
    /* failures (not converged), newest first */
    long *fail;
    long n_fail;
    int sel, detail, ascii; /* detail: 1 a cell's row, 2 its replay */
    long sel_cell;          /* the cell at sel (-1: none): the list is rebuilt newest first every
                               refresh, so sel follows this cell, not its row */
    int show_all;           /* the list holds every cell, not only failures */
    replay rp;
    char err[1100];
    char note[1300]; /* why the last key did nothing (bottom line, until the next key) */
    int embedded;    /* opened from the main TUI: Escape on the main list goes back to it */
    int stopped;     /* a file turned into something that is not a regular file: err says which */
} view;

static void read_progress(view *v)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/progress", v->dir);
    char *t = sweep_read_file(path, NULL);
    long n;
    v->state[0] = '\0';
    if (!t) return;
    /* numbers by the rule of the sweep's files (sweep_parse_*): one that is
     * not (inf, nan, hexadecimal, beyond an int) leaves the value as it was */
    for (char *line = strtok(t, "\n"); line; line = strtok(NULL, "\n")) {
        char *eq = strchr(line, '=');
        if (!eq) continue;
        *eq = '\0';
        const char *k = line, *val = eq + 1;
        if (!strcmp(k, "state"))
            snprintf(v->state, sizeof v->state, "%s", val);
        else if (!strcmp(k, "mode"))
            snprintf(v->mode, sizeof v->mode, "%s", val);
        else if (!strcmp(k, "cells_per_s"))
            sweep_parse_double(val, &v->rate);
        else if (!strcmp(k, "updated"))
            sweep_parse_double(val, &v->updated);
        else if (!strcmp(k, "alive") && sweep_parse_int(val, 0, INT_MAX, &n) == 0)
            v->alive = (int)n;
        else if (!strcmp(k, "workers") && sweep_parse_int(val, 0, INT_MAX, &n) == 0)
            v->workers = (int)n;
        else if (!strcmp(k, "session_done"))
            sweep_parse_int(val, 0, LONG_MAX, &v->session_done);
        else if (!strcmp(k, "session_todo"))
            sweep_parse_int(val, 0, LONG_MAX, &v->session_todo);
    }
    free(t);
}

static int cmp_tend(const void *a, const void *b, void *ctx)
{
    const sweep_result *r = ctx;
    double x = r[*(const long *)a].t_end, y = r[*(const long *)b].t_end;
    return (x < y) - (x > y);
}

static int refresh_data(view *v)
{
    memset(v->done_flag, 0, (size_t)v->total);
    v->done = sweep_load_journals(v->dir, &v->g, v->res, v->done_flag, &v->bad);
    if (v->done < 0) {
        snprintf(v->err, sizeof v->err, "cannot read %s", v->dir);
        return -1;
    }
    v->n_fail = 0;
    for (long c = 0; c < v->total; c++)
        if (v->done_flag[c] && (v->show_all || v->res[c].status != DS_STATUS_CONVERGED)) v->fail[v->n_fail++] = c;
    qsort_r(v->fail, (size_t)v->n_fail, sizeof *v->fail, cmp_tend, v->res);
    for (long i = 0; v->sel_cell >= 0 && i < v->n_fail; i++)
        if (v->fail[i] == v->sel_cell) v->sel = (int)i;
    if (v->sel >= v->n_fail) v->sel = v->n_fail ? (int)v->n_fail - 1 : 0;
    v->sel_cell = v->n_fail ? v->fail[v->sel] : -1;
    read_progress(v);
    return 0;
}

double sweep_view_recent_rate(const sweep_result *res, const unsigned char *done, long n, double now)
{
    long k = 0;
    double first = now;
    for (long c = 0; c < n; c++)
        if (done[c] && res[c].t_end > now - 60) {
            k++;
            double began = res[c].t_end - (res[c].wall_s > 0 ? res[c].wall_s : 0);
            if (began < first) first = began;
        }
    double span = now - first;
    if (span > 60) span = 60;
    if (span < 1) span = 1; /* (the journal's clock counts whole seconds) */
    return k / span;
}

/* cells finished in the last 60 s of journal time, per second (works for
 * shards and finished sweeps too, where the progress file says less) */
static double recent_rate(const view *v, double now)
{
    return sweep_view_recent_rate(v->res, v->done_flag, v->total, now);
}

/* ------------------------------------------------------------ drawing */

/* printf at (y, x), cut at the right edge (never wraps onto the next line);
 * a cut line ends in '>' as the runs screen's (draw_text): "0.0644 / 0" was
 * read as a p90 of 0 where "0.0644 / 0.129 s" was cut at 80 columns.
 * Columns, not bytes, are counted (the histogram bars are UTF-8). */
static void put(int y, int x, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void put(int y, int x, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    tui_rect screen = {0, 0, LINES, COLS};
    draw_text(screen, y, x, 0, "%s", buf); /* (its cut, its '>') */
}

#define NBINS 12 /* two per decade: iterations 1..1e6, time 1e-4..1e2 s */

static void draw_solver(view *v, int y, int s, int w)
{
    int it_counts[NBINS] = {0}, tm_counts[NBINS] = {0}, conv = 0, ill = 0, other = 0, n = 0;
    double *it = malloc(sizeof(double) * (size_t)(v->total + 1)), *tm = malloc(sizeof(double) * (size_t)(v->total + 1));
    if (!it || !tm) {
        free(it);
        free(tm);
        return;
    }
    for (long c = 0; c < v->total; c++) {
        if (!v->done_flag[c] || sweep_grid_cell(&v->g, c).s != s) continue;
        const sweep_result *r = &v->res[c];
        if (r->status == DS_STATUS_CONVERGED) {
            conv++;
            int b = sweep_view_bin(r->iterations, 1, NBINS);
            if (b >= 0) it_counts[b]++;
            b = sweep_view_bin(r->wall_s, 1e-4, NBINS);
            if (b >= 0) tm_counts[b]++;
            it[n] = r->iterations;
            tm[n] = r->wall_s;
            n++;
        } else if (r->status == DS_STATUS_ILL_POSED) {
            ill++;
        } else {
            other++;
        }
    }
    char hi[NBINS * 4 + 1], ht[NBINS * 4 + 1];
    sweep_view_hist_text(it_counts, NBINS, v->ascii, hi, sizeof hi);
    sweep_view_hist_text(tm_counts, NBINS, v->ascii, ht, sizeof ht);
    double i10 = sweep_percentile(it, n, 10), i50 = sweep_percentile(it, n, 50), i90 = sweep_percentile(it, n, 90);
    double t10 = sweep_percentile(tm, n, 10), t50 = sweep_percentile(tm, n, 50), t90 = sweep_percentile(tm, n, 90);
    free(it);
    free(tm);
    put(y, 0, "%-9s conv %-5d ill-posed %-4d not converged %-4d", ds_solver_name((ds_solver_kind)v->g.solver[s]), conv,
        ill, other);
    char pi[80] = "n/a (no cell converged)", pt[80] = "n/a (no cell converged)";
    if (n) {
        snprintf(pi, sizeof pi, "%.0f / %.0f / %.0f", i10, i50, i90);
        snprintf(pt, sizeof pt, "%.3g / %.3g / %.3g s", t10, t50, t90);
    }
    /* histograms with their ranges where the lines fit (from 90 columns, so
     * that every solver's lines take the same form), else without the ranges
     * (80 columns: the time line ran 6 past the edge and its p90 was cut to
     * "0"), else the numbers only; the percentiles always whole */
    char l1[320], l2[320];
    for (int form = w >= 90 ? 0 : 1; form < 3; form++) {
        if (form == 0) {
            snprintf(l1, sizeof l1, "iterations |%s| 1..1e6       p10/med/p90 %s", hi, pi);
            snprintf(l2, sizeof l2, "time       |%s| 1e-4..1e2 s  p10/med/p90 %s", ht, pt);
        } else if (form == 1) {
            snprintf(l1, sizeof l1, "iterations |%s| p10/med/p90 %s", hi, pi);
            snprintf(l2, sizeof l2, "time       |%s| p10/med/p90 %s", ht, pt);
        } else {
            snprintf(l1, sizeof l1, "iterations p10/med/p90 %s", pi);
            snprintf(l2, sizeof l2, "time       p10/med/p90 %s", pt);
        }
        if (2 + draw_cols(l1) <= w && 2 + draw_cols(l2) <= w) break;
    }
    put(y + 1, 2, "%s", l1);
    put(y + 2, 2, "%s", l2);
}

/* a number of a cell, or n/a where it is not one (a cell that failed early) */
static const char *num_na(double x, const char *fmt, char *buf, size_t n)
{
    if (isfinite(x))
        snprintf(buf, n, fmt, x);
    else
        snprintf(buf, n, "n/a");
    return buf;
}

static void cell_label(const view *v, long c, char *buf, size_t n)
{
    sweep_cell_id id = sweep_grid_cell(&v->g, c);
    snprintf(buf, n, "cell %ld: k %d %s %.6g %s %s", c, id.k, v->g.use_mu ? "mu" : "tau", v->g.disp[id.d],
             ds_filter_name((ds_filter)v->g.filter[id.f]), ds_solver_name((ds_solver_kind)v->g.solver[id.s]));
}

static void flows_path(const view *v, long c, char *path, size_t n)
{
    sweep_cell_id id = sweep_grid_cell(&v->g, c);
    snprintf(path, n, "%s/flows/k%04d_%s%.10g_%s_%s.csv", v->dir, id.k, v->g.use_mu ? "mu" : "tau", v->g.disp[id.d],
             ds_filter_name((ds_filter)v->g.filter[id.f]), ds_solver_name((ds_solver_kind)v->g.solver[id.s]));
}

/* r: what the main TUI needs to start the selected cell as a run */
static void cell_request(const view *v, long c, sweep_cell_request *req)
{
    struct stat st;
    sweep_cell_id id = sweep_grid_cell(&v->g, c);
    memset(req, 0, sizeof *req);
    req->cell = c;
    snprintf(req->net, sizeof req->net, "%s", v->g.net);
    snprintf(req->trips, sizeof req->trips, "%s", v->g.trips);
    snprintf(req->dir, sizeof req->dir, "%s", v->dir);
    req->k = id.k;
    req->seed = v->g.seed;
    sweep_cell_config(&v->g, id, 0, &req->cfg);
    flows_path(v, c, req->flows, sizeof req->flows);
    if (stat(req->flows, &st) != 0 || !S_ISREG(st.st_mode)) req->flows[0] = 0;
    cell_label(v, c, req->label, sizeof req->label);
}

/* The replayed cell: log10(gap_rel) per iteration, the tolerance as a line
 * of '-', then (when done) the busiest links and the bitwise check. */
static void draw_replay(view *v, int y0)
{
    replay *rp = &v->rp;
    char label[160];
    int h = LINES, w = COLS, y = y0;
    cell_label(v, rp->cell, label, sizeof label);
    attron(A_BOLD);
    put(y++, 0, "%s, solved again here", label);
    attroff(A_BOLD);
    pthread_mutex_lock(&rp->lock);
    ds_run *run = rp->run;
    pthread_mutex_unlock(&rp->lock);
    int fin = atomic_load(&rp->finished);
    if (!run) {
        put(y, 2, "%s", fin ? rp->err : "loading the network ...");
        put(h - 1, 0, "Escape: back");
        return;
    }
    size_t n = ds_run_history_count(run);
    ds_iter_record *recs = calloc(n ? n : 1, sizeof *recs);
    n = recs ? ds_run_history_copy(run, 0, recs, n) : 0;
    double lo = log10(v->g.tol) - 0.5, hi = lo + 1;
    for (size_t i = 0; i < n; i++)
        if (recs[i].gap_rel > 0 && isfinite(recs[i].gap_rel)) {
            double l = log10(recs[i].gap_rel);
            if (l > hi) hi = l;
            if (l < lo) lo = l;
        }
    hi = ceil(hi) + 0.0; /* + 0.0: no "-0" label */
    lo = floor(lo) + 0.0;
    if (fin) {
        char reason[300];
        ds_run_reason(run, reason, sizeof reason);
        put(y++, 2, "%s after %d iterations: %s", ds_status_name(rp->st), n ? recs[n - 1].iter : 0, reason);
    } else {
        char g[40];
        fmt_gap_digits(n ? recs[n - 1].gap_rel : NAN, v->g.tol, 3, g, sizeof g);
        put(y++, 2, "running: iteration %d, gap_rel %s", n ? recs[n - 1].iter : 0, g);
    }
    int ph = h - y - (fin ? 13 : 3), pw = w - 10;
    if (ph > 16) ph = 16;
    if (ph >= 4 && pw >= 20 && n > 0) {
        int itmax = recs[n - 1].iter > 0 ? recs[n - 1].iter : 1;
        int tol_row = (int)lround((hi - log10(v->g.tol)) / (hi - lo) * (ph - 1));
        put(y, 0, "1e%+.0f", hi);
        put(y + ph - 1, 0, "1e%+.0f", lo);
        for (int c = 0; c < pw; c++)
            if (tol_row >= 0 && tol_row < ph) mvaddch(y + tol_row, 8 + c, '-');
        for (int r = 0; r < ph; r++) mvaddch(y + r, 7, '|');
        for (size_t i = 0; i < n; i++) {
            double g = recs[i].gap_rel;
            int col = (int)((double)recs[i].iter / itmax * (pw - 1));
            if (!(g > 0) || !isfinite(g)) {
                mvaddch(y + ph - 1, 8 + col, '?');
                continue;
            }
            int row = (int)lround((hi - log10(g)) / (hi - lo) * (ph - 1));
            mvaddch(y + row, 8 + col, '*');
        }
        put(y + ph, 8, "iteration 0 .. %d; - = tol %g", itmax, v->g.tol);
        y += ph + 1;
    }
    free(recs);
    if (fin) {
        const double *x = ds_run_flows(run), *t = ds_run_costs(run);
        const ds_network *net = ds_run_network(run);
        if (x && t && (rp->st == DS_STATUS_CONVERGED || rp->st == DS_STATUS_MAX_ITER)) {
            double *fx = NULL;
            int nr = 0, same = 0;
            ds_error err;
            struct stat st;
            int have = stat(rp->flows_path, &st) == 0 && ds_flows_read(rp->flows_path, net, &fx, NULL, &nr, &err) == 0;
            if (have) same = nr == net->n_links && !memcmp(fx, x, sizeof(double) * (size_t)nr);
            free(fx);
            put(y++, 2, "flows: %s",
                have ? (same ? "bitwise equal to the sweep's flow file" : "DIFFER from the sweep's flow file")
                     : "(the sweep wrote no flow file: --flows)");
            /* the eight links with the highest x / c */
            int top[8], nt = 0;
            for (int e = 0; e < net->n_links; e++) {
                double q = x[e] / net->capacity[e];
                int p;
                if (nt < 8)
                    p = nt++;
                else if (x[top[7]] / net->capacity[top[7]] < q)
                    p = 7; /* replaces the smallest of the eight */
                else
                    continue;
                top[p] = e;
                for (int j = p; j > 0 && x[top[j]] / net->capacity[top[j]] > x[top[j - 1]] / net->capacity[top[j - 1]];
                     j--) {
                    int tmp = top[j];
                    top[j] = top[j - 1];
                    top[j - 1] = tmp;
                }
            }
            put(y++, 2, "%-14s %14s %12s %8s", "link", "flow", "cost", "x/c");
            for (int i = 0; i < nt && y < h - 1; i++) {
                int e = top[i];
                char lk[32];
                snprintf(lk, sizeof lk, "%d->%d", ds_node_id(net, net->tail[e]), ds_node_id(net, net->head[e]));
                put(y++, 2, "%-14s %14.6g %12.6g %8.3f", lk, x[e], t[e], x[e] / net->capacity[e]);
            }
        }
    }
    put(h - 1, 0, "r: open it as a run   Escape: back (cancels a replay still running)");
}

/* text from (y, x) in lines that end before the screen's edge, broken
 * between shell words (not inside '...'), each line but the last ending in
 * " \\" and the next indented by `indent`: a command that stays one to copy.
 * A line whose word is longer than the room at its indent starts at column 0
 * (the shell skips the blanks of a continuation line): at 80 columns a
 * sweep's network path was cut ("SiouxFalls_net.tn>"), and continuation
 * lines were as long as the first one, 2 columns further right, so their
 * " \\" could fall off the edge. Returns the lines drawn. */
static void command_line(int y, int at, const char *line, int cols, int more)
{
    if (cols + (more ? 2 : 0) > COLS - at) at = 0;
    put(y, at, more ? "%s \\" : "%s", line);
}

static int put_command(int y, int x, int indent, const char *text)
{
    int lines = 0, col = 0, quoted = 0;
    char line[2048];
    size_t k = 0;
    const char *w = text;
    while (*w) {
        const char *e = w; /* one word: to the next space outside quotes */
        for (; *e && (quoted || *e != ' '); e++)
            if (*e == '\'') quoted = !quoted;
        int len = (int)(e - w);
        int at = lines ? x + indent : x, width = COLS - at - 2;
        if (width < 20) width = 20;
        if (col > 0 && col + 1 + len > width) {
            line[k] = 0;
            command_line(y + lines, at, line, col, 1);
            lines++;
            k = 0, col = 0;
        }
        if (col > 0 && k + 1 < sizeof line) line[k++] = ' ', col++;
        for (int i = 0; i < len && k + 1 < sizeof line; i++) line[k++] = w[i];
        col += len;
        w = *e ? e + 1 : e;
    }
    line[k] = 0;
    command_line(y + lines, lines ? x + indent : x, line, col, 0);
    return lines + 1;
}

static void draw_detail(view *v, int y0)
{
    long c = v->fail[v->sel];
    const sweep_result *r = &v->res[c];
    char label[160], path[1400];
    sweep_cell_id id = sweep_grid_cell(&v->g, c);
    cell_label(v, c, label, sizeof label);
    flows_path(v, c, path, sizeof path);
    struct stat st;
    int y = y0;
    attron(A_BOLD);
    put(y++, 0, "%s", label);
    attroff(A_BOLD);
    put(y++, 2, "status      %s", ds_status_name((ds_status)r->status));
    put(y++, 2, "reason      %s", r->reason);
    char na[4][40];
    fmt_gap_digits(r->gap_rel, v->g.tol, 3, na[0], sizeof na[0]);
    put(y++, 2, "iterations  %d   evaluations %d   J*v %d   gap_rel %s", r->iterations, r->evals, r->jv, na[0]);
    put(y++, 2, "tau %s   mu %s   lost OD pairs %d (demand %s)", num_na(r->tau, "%.6g", na[1], sizeof na[1]),
        num_na(r->mu, "%.6g", na[2], sizeof na[2]), r->lost_od, num_na(r->lost_demand, "%.6g", na[3], sizeof na[3]));
    put(y++, 2, "wall %.3f s on rank %d worker %d", r->wall_s, r->rank, r->worker);
    put(y++, 2, "flows       %s", stat(path, &st) == 0 ? path : "(not written: run the sweep with --flows)");
    char cmd[6000];
    size_t cl = sweep_cell_command(&v->g, id, cmd, sizeof cmd - 32);
    snprintf(cmd + (cl < sizeof cmd - 32 ? cl : sizeof cmd - 33), 32, " --history H.csv");
    put(y + 1, 2, "reproduce:");
    y += 1 + put_command(y + 1, 14, 2, cmd);
    put(y + 1, 0, "h: solve it again here (history, flows)   r: open it as a run   Escape: back");
}

static void draw_body(view *v)
{
    int h = LINES, w = COLS, y = 0;
    erase();
    double now = (double)time(NULL);
    attron(A_BOLD);
    put(y++, 0, "dillsue sweep  %s", v->dir);
    attroff(A_BOLD);
    /* the network's whole path where it fits, else its file name (a cell's command has the path) */
    char grid[1400];
    const char *base = strrchr(v->g.net, '/');
    for (int pass = 0; pass < 2; pass++) {
        snprintf(grid, sizeof grid, "%s  %d scenarios x %d %s x %d filters x %d solvers = %ld cells%s",
                 pass && base ? base + 1 : v->g.net, v->g.scenarios, v->g.n_disp, v->g.use_mu ? "mu" : "tau",
                 v->g.n_filter, v->g.n_solver, v->total, v->g.ue ? ", UE MAPE" : "");
        if ((int)strlen(grid) <= w) break;
    }
    put(y++, 0, "%s", grid);
    /* progress */
    double frac = v->total ? (double)v->done / v->total : 0;
    int bw = w - 30 > 10 ? w - 30 : 10;
    int fill = (int)(frac * bw + 0.5);
    put(y, 0, "%7ld/%-7ld [", v->done, v->total);
    for (int i = 0; i < bw; i++) addch(i < fill ? (v->ascii ? '#' : ACS_CKBOARD) : ' ');
    printw("] %5.1f%%", 100 * frac);
    y++;
    int stale = v->state[0] && !strcmp(v->state, "running") && now - v->updated > 5;
    double rate = recent_rate(v, now);
    char eta[32];
    /* no ETA for a sweep that is not running (stopped, finished, or silent):
     * the decaying rate made one grow after a kill */
    int running = v->state[0] && !strcmp(v->state, "running") && !stale;
    sweep_fmt_duration(running && rate > 0 ? (v->total - v->done) / rate : NAN, eta, sizeof eta);
    if (!v->state[0])
        put(y++, 0, "no progress file yet | %.3g cells/s over the last minute", rate);
    else {
        /* the long form where it fits, else the same numbers shorter */
        char line[400];
        const char *unit = !strcmp(v->mode, "mpi") ? "ranks" : "workers";
        snprintf(line, sizeof line,
                 "%s%s | %.3g cells/s (last minute), %.3g cells/s this session | ETA %s | %d of %d %s alive", v->state,
                 stale ? " (no update for a while: stopped or killed?)" : "", rate, v->rate, eta, v->alive, v->workers,
                 unit);
        if ((int)strlen(line) > w)
            snprintf(line, sizeof line, "%s%s | %.3g cells/s, %.3g/s session | ETA %s | %d/%d %s", v->state,
                     stale ? " (no update: stopped?)" : "", rate, v->rate, eta, v->alive, v->workers, unit);
        put(y++, 0, "%s", line);
    }
    y++;
    if (v->detail == 2) {
        draw_replay(v, y);
        return;
    }
    if (v->detail && v->n_fail) {
        draw_detail(v, y);
        return;
    }
    for (int s = 0; s < v->g.n_solver && y + 3 < h - 3; s++, y += 4) draw_solver(v, y, s, w);
    attron(A_BOLD);
    /* (as the solver lines count them: ill-posed and not converged together here) */
    {
        /* the keys whole where the long form is cut (80 columns lost "a: all") */
        char head[200];
        const char *what = v->show_all ? "all cells" : "not converged or ill-posed";
        const char *other = v->show_all ? "a: failed" : "a: all";
        snprintf(head, sizeof head, "%s: %ld (newest first; Up/Down, Enter: details, r: run it, %s)", what, v->n_fail,
                 other);
        if ((int)strlen(head) > w)
            snprintf(head, sizeof head, "%s: %ld (Enter: details, r: run it, %s)", what, v->n_fail, other);
        if (!v->n_fail) snprintf(head, sizeof head, "%s: 0  (a: all cells)", what);
        put(y++, 0, "%s", head);
    }
    attroff(A_BOLD);
    int rows = h - y - 1;
    int first = v->sel >= rows ? v->sel - rows + 1 : 0;
    for (long i = first; i < v->n_fail && y < h - 1; i++, y++) {
        char label[160];
        const sweep_result *r = &v->res[v->fail[i]];
        cell_label(v, v->fail[i], label, sizeof label);
        if (i == v->sel) attron(A_REVERSE);
        put(y, 0, "%-44s %-15s %s", label, ds_status_name((ds_status)r->status), r->reason);
        if (i == v->sel) attroff(A_REVERSE);
    }
    const char *keys = v->embedded ? "q or Escape: back to the runs" : "q: quit";
    if (v->stopped || v->err[0])
        put(h - 1, 0, "%s; not read (the counts are from before)   %s", v->err, keys);
    else if (v->bad)
        put(h - 1, 0, "%ld journal lines skipped (cut short)   %s", v->bad, keys);
    else
        put(h - 1, 0, "%s", keys);
}

static void draw(view *v)
{
    draw_body(v);
    if (v->note[0]) {
        move(LINES - 1, 0);
        clrtoeol();
        attron(A_BOLD);
        put(LINES - 1, 0, "%s", v->note);
        attroff(A_BOLD);
    }
    wnoutrefresh(stdscr);
    doupdate();
}

/* ------------------------------------------------------------ open, loop */

/* 1 if path is a regular file or does not exist: never open a FIFO, a device
 * or a directory as a file (a FIFO would block the screen in open). */
static int regular_or_absent(const char *path)
{
    struct stat st;
    return stat(path, &st) != 0 ? errno == ENOENT : S_ISREG(st.st_mode);
}

/* Files of dir the viewer reads (progress, journal*.csv) that are not
 * regular files: their name in bad, 1; else 0. */
static int odd_files(const char *dir, char *bad, size_t n)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/progress", dir);
    if (!regular_or_absent(path)) return snprintf(bad, n, "%s", path), 1;
    DIR *dp = opendir(dir);
    struct dirent *de;
    int found = 0;
    while (dp && !found && (de = readdir(dp))) {
        if (!sweep_is_journal(de->d_name)) continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (!regular_or_absent(path)) found = snprintf(bad, n, "%s", path) > 0;
    }
    if (dp) closedir(dp);
    return found;
}

/* Read DIR's sweep.conf and make room for its cells. On failure err says
 * why (naming the path) and nothing is left allocated; the screen is not
 * touched. A path that is not a directory, or a sweep.conf, progress or
 * journal that is not a regular file, is refused before anything is opened. */
static int view_open(view *v, const char *dir, char *err, size_t n)
{
    char path[1100], bad[1100];
    struct stat st;
    memset(v, 0, sizeof *v);
    v->sel_cell = -1;
    if (!dir[0]) return snprintf(err, n, "no directory given"), -1;
    if (stat(dir, &st) != 0) return snprintf(err, n, "%s: no sweep here (%s)", dir, strerror(errno)), -1;
    if (!S_ISDIR(st.st_mode)) return snprintf(err, n, "%s: no sweep here (not a directory)", dir), -1;
    snprintf(v->dir, sizeof v->dir, "%s", dir);
    snprintf(path, sizeof path, "%s/sweep.conf", dir);
    if (stat(path, &st) != 0) return snprintf(err, n, "%s: no sweep here (no sweep.conf)", dir), -1;
    if (!S_ISREG(st.st_mode)) return snprintf(err, n, "%s: not a regular file", path), -1;
    if (odd_files(dir, bad, sizeof bad)) return snprintf(err, n, "%s: not a regular file", bad), -1;
    char *conf = sweep_read_file(path, NULL);
    if (!conf) return snprintf(err, n, "%s: cannot read: %s", path, strerror(errno)), -1;
    ds_error e = {{0}, 0, {0}};
    int rc = sweep_grid_parse(conf, path, &v->g, &e);
    free(conf);
    if (rc) {
        ds_error_format(&e, err, n);
        return -1;
    }
    v->total = sweep_grid_total(&v->g);
    v->res = calloc((size_t)v->total, sizeof *v->res);
    v->done_flag = calloc((size_t)v->total, 1);
    v->fail = calloc((size_t)v->total + 1, sizeof *v->fail);
    if (!v->res || !v->done_flag || !v->fail) {
        free(v->res);
        free(v->done_flag);
        free(v->fail);
        return snprintf(err, n, "out of memory for %ld cells", v->total), -1;
    }
    return 0;
}

static void view_free(view *v)
{
    replay_stop(&v->rp);
    free(v->res);
    free(v->done_flag);
    free(v->fail);
}

/* The viewer's loop on a started curses screen, until q (or, embedded,
 * Escape on the main list), r on a cell or *quit. idle(ctx), when given, runs
 * a few times a second (the main TUI keeps polling its runs). Returns 1 if
 * *quit ended it, SWEEP_VIEW_OPEN_CELL after r (*req filled), else 0. */
static int view_loop(view *v, int delay_ms, volatile sig_atomic_t *quit, void (*idle)(void *), void *ctx,
                     sweep_cell_request *req)
{
    double last = -1e9;
    int dirty = 1;
    timeout(100);
    while (!*quit) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        double t = ts.tv_sec + 1e-9 * ts.tv_nsec;
        if (idle) idle(ctx);
        if (t - last >= delay_ms / 1000.0) {
            if (odd_files(v->dir, v->err, sizeof v->err)) { /* appeared since: read nothing more */
                v->stopped = 1;
                snprintf(v->err + strlen(v->err), sizeof v->err - strlen(v->err), ": not a regular file");
            } else {
                v->stopped = 0;
                v->err[0] = 0;
                refresh_data(v);
            }
            last = t;
            dirty = 1;
        }
        if (v->detail == 2) dirty = 1; /* the replay's history grows */
        if (dirty) draw(v);
        dirty = 0;
        int ch = getch();
        if (ch == ERR) {
            if (term_gone(0) && !*quit) *quit = SIGHUP; /* else getch returns at once: a spin */
            continue;
        }
        dirty = 1;
        v->note[0] = 0;
        if (ch == 'q' || ch == 'Q') break;
        if (ch == KEY_UP && v->sel > 0)
            v->sel_cell = v->fail[--v->sel];
        else if (ch == KEY_DOWN && v->sel + 1 < v->n_fail)
            v->sel_cell = v->fail[++v->sel];
        else if ((ch == '\n' || ch == '\r' || ch == KEY_ENTER) && v->n_fail && !v->detail)
            v->detail = 1;
        else if (ch == 'h' && v->detail == 1 && v->n_fail) {
            char fp[1400];
            flows_path(v, v->fail[v->sel], fp, sizeof fp);
            if (replay_start(&v->rp, &v->g, v->fail[v->sel], fp) == 0) v->detail = 2;
        } else if (ch == 'r' && v->n_fail) {
            /* a network that cannot be read is said here, the viewer kept */
            const char *bad = access(v->g.net, R_OK) != 0                      ? v->g.net
                              : v->g.trips[0] && access(v->g.trips, R_OK) != 0 ? v->g.trips
                                                                               : NULL;
            if (bad) {
                snprintf(v->note, sizeof v->note, "r: cannot open the cell as a run: %.1024s: %s", bad,
                         strerror(errno));
                continue;
            }
            cell_request(v, v->fail[v->sel], req);
            replay_stop(&v->rp);
            return SWEEP_VIEW_OPEN_CELL;
        } else if (ch == 'a' && !v->detail) {
            v->show_all = !v->show_all;
            v->sel = 0;
            v->sel_cell = -1;
            last = -1e9; /* rebuild the list now */
        } else if (ch == 27 || ch == KEY_BACKSPACE || ch == 'b') {
            if (!v->detail && v->embedded) break; /* back to the runs screen */
            if (v->detail == 2) replay_stop(&v->rp);
            v->detail = v->detail == 2 ? 1 : 0;
        }
    }
    return *quit ? 1 : 0;
}

int sweep_view_embedded(const char *dir, int ascii, volatile sig_atomic_t *quit, void (*idle)(void *), void *ctx,
                        sweep_cell_request *req, char *err, size_t n)
{
    static view v; /* large; one at a time */
    if (view_open(&v, dir, err, n) != 0) return -1;
    v.ascii = ascii;
    v.embedded = 1;
    int rc = view_loop(&v, 1000, quit, idle, ctx, req);
    view_free(&v);
    return rc;
}

static volatile sig_atomic_t g_quit; /* the signal that asked the viewer to quit */
static void on_quit(int sig) { g_quit = sig; }

int sweep_view_run(const char *dir, int ascii, int delay_ms, sweep_cell_request *req)
{
    static view v;
    char err[1200];
    if (delay_ms < 100) delay_ms = 100;
    if (view_open(&v, dir, err, sizeof err) != 0) {
        fprintf(stderr, "dillsue tui: %s\n", err);
        return 2;
    }
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) { /* (after the directory's check: that error first) */
        fprintf(stderr, "dillsue tui: needs a terminal (the sweep's files in %s are plain CSV)\n", dir);
        view_free(&v);
        return 2;
    }
    v.ascii = ascii;
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C"); /* the journals' numbers are "C" (tui_main.c) */
    const char *cs = nl_langinfo(CODESET);
    if (!cs || (strcasecmp(cs, "UTF-8") && strcasecmp(cs, "utf8"))) v.ascii = 1;
    g_quit = 0;
    char why[256];
    if (!stdscr && term_check(why, sizeof why) != 0) {
        fprintf(stderr, "dillsue tui: %s\n", why);
        view_free(&v);
        return 2;
    }
    signal(SIGINT, on_quit);
    signal(SIGTERM, on_quit);
    signal(SIGHUP, on_quit);
    if (!initscr()) {
        fprintf(stderr, "dillsue tui: cannot open the terminal\n");
        view_free(&v);
        return 2;
    }
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    set_escdelay(50);
    curs_set(0);
    int rc = view_loop(&v, delay_ms, &g_quit, NULL, NULL, req);
    endwin();
    view_free(&v);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    /* a signal exits as the main TUI's does, 128 + its number (130 for Ctrl-C) */
    return rc == SWEEP_VIEW_OPEN_CELL ? rc : g_quit ? 128 + (int)g_quit : 0;
}
