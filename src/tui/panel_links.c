/* panel_links.c - stall diagnosis: the links where the fixed point is most
 * violated now (largest |x - f(x)| in the latest published snapshot) with
 * their v/c and cost, and a stall warning with a hint. */
#include <math.h>
#include <stdlib.h>

#include "tui.h"

#define SNAP_EVERY 0.5 /* seconds: the snapshot copies 3 n_links doubles */

int panel_links_stalled(const tui_run *r)
{
    /* TUI_STALL_K iterations back, not records: an eDSP refresh's record
     * repeats its iteration, and a retired run keeps only some records */
    if (!r->n) return -1;
    int now_it = r->rec[r->n - 1].iter;
    size_t k = r->n - 1;
    while (k > 0 && r->rec[k].iter > now_it - TUI_STALL_K) k--;
    if (r->rec[k].iter > now_it - TUI_STALL_K) return -1;
    double now = r->gap[r->n - 1], then = r->gap[k];
    if (!(isfinite(now) && isfinite(then))) return 1;
    return now > 0.5 * then;
}

/* The keys named are the bound ones (config file bind. lines). */
static const char *hint(const tui_app *app, const tui_run *r, char *buf, size_t n)
{
    char m[32], t[32], f[32], w[32];
    keys_label(&app->keys, ACT_SOLVER, 0, "/", m, sizeof m);
    keys_label(&app->keys, ACT_TAU, 0, "/", t, sizeof t);
    keys_label(&app->keys, ACT_FILTER, 0, "/", f, sizeof f);
    keys_label(&app->keys, ACT_WARM, 0, "/", w, sizeof w);
    switch (r->cfg.solver) {
    case DS_SOLVER_MSA: snprintf(buf, n, "hint: try sra/anderson (%s)", m); break;
    case DS_SOLVER_SRA: snprintf(buf, n, "hint: try newton/anderson (%s)", m); break;
    case DS_SOLVER_ANDERSON: snprintf(buf, n, "hint: newton (%s), lower tau (%s)", m, t); break;
    default:
        if (r->cfg.filter == DS_FILTER_FULL)
            snprintf(buf, n, "hint: lower tau (%s), dsp (%s)", t, f);
        else
            snprintf(buf, n, "hint: lower tau (%s), warm (%s)", t, w);
    }
    return buf;
}

static void snapshot(tui_app *app, tui_run *run)
{
    int n = run->net->n_links;
    double now = session_now();
    int iter_now = run->n ? run->rec[run->n - 1].iter : -1;
    int stale_final = run->joined && app->snap_time < run->t_end; /* last state of a finished run */
    if (run->id == app->snap_run_id && !stale_final &&
        (iter_now == app->snap_iter || now - app->snap_time < SNAP_EVERY))
        return;
    if (n != app->snap_n) {
        free(app->snap_x);
        free(app->snap_fx);
        free(app->snap_cost);
        app->snap_x = malloc(n * sizeof(double));
        app->snap_fx = malloc(n * sizeof(double));
        app->snap_cost = malloc(n * sizeof(double));
        app->snap_n = (app->snap_x && app->snap_fx && app->snap_cost) ? n : 0;
        if (!app->snap_n) return;
    }
    app->snap_iter = session_run_last(run, app->snap_x, app->snap_fx, app->snap_cost);
    app->snap_run_id = run->id;
    app->snap_time = now;
}

void panel_links_done(tui_app *app)
{
    free(app->snap_x);
    free(app->snap_fx);
    free(app->snap_cost);
    app->snap_x = app->snap_fx = app->snap_cost = NULL;
    app->snap_n = 0;
}

void panel_links_draw(tui_app *app, tui_rect r)
{
    tui_rect in = draw_inner(r);
    tui_run *run = app_focus_run(app);
    int y = 0, top[64], ntop = 0;
    char title[48], hbuf[96];
    snprintf(title, sizeof title, run ? "links |x-f(x)| #%d" : "links (no run)", run ? run->id : 0);
    draw_box(app, r, title);
    if (!run) return;
    if (run->retired) { /* thinned history, no iterate (session.h) */
        draw_text(in, y, 0, A_DIM, "run #%d is retired: only the %d latest", run->id, TUI_KEEP_FULL);
        draw_text(in, y + 1, 0, A_DIM, "runs keep their last iterate here");
        return;
    }
    if (runinfo_noiter(app, run, hbuf, sizeof hbuf)) {
        /* (it read "stall test after 50 it" and "no iterate published yet"
         * under an ill-posed run that never would have one) */
        draw_wrap(in, y, term_attr(app, ROLE_WARN), hbuf, in.h);
        return;
    }
    int st = panel_links_stalled(run);
    int conv = run->joined && run->status == DS_STATUS_CONVERGED;
    if (conv) {
        /* (not "no stall (2x better in 50 it)": a run of 10 iterations never had the test) */
        draw_text(in, y++, 0, A_DIM, "converged: no stall test");
    } else if (st == 1) {
        draw_text(in, y++, 0, term_attr(app, ROLE_WARN), "! stall: <2x better in %d it", TUI_STALL_K);
        draw_text(in, y++, 0, term_attr(app, ROLE_WARN), "%s", hint(app, run, hbuf, sizeof hbuf));
    } else {
        draw_text(in, y++, 0, A_DIM, st < 0 ? "stall test after %d it" : "no stall (2x better in %d it)", TUI_STALL_K);
    }
    snapshot(app, run);
    if (app->snap_run_id != run->id || app->snap_iter < 0 || app->snap_n != run->net->n_links) {
        draw_text(in, y, 0, A_DIM, "no iterate published yet");
        return;
    }
    const ds_network *net = run->net;
    int want = in.h - y - 1;
    if (want > 64) want = 64;
    /* partial selection: keep the `want` largest residuals, sorted */
    for (int e = 0; e < net->n_links && want > 0; e++) {
        double d = fabs(app->snap_x[e] - app->snap_fx[e]);
        if (!(d == d)) d = INFINITY;
        int k = ntop < want ? ntop++ : want;
        if (k == want) {
            double dl = fabs(app->snap_x[top[want - 1]] - app->snap_fx[top[want - 1]]);
            if (!(d > dl)) continue;
            k = want - 1;
        }
        while (k > 0 && d > fabs(app->snap_x[top[k - 1]] - app->snap_fx[top[k - 1]])) {
            top[k] = top[k - 1];
            k--;
        }
        top[k] = e;
    }
    int wide = in.w >= 42; /* the flow column only where it fits */
    if (wide)
        draw_text(in, y++, 0, term_attr(app, ROLE_LABEL), "%-8s %8s %9s %5s %8s", "link", "|x-f(x)|", "x", "v/c",
                  "cost");
    else
        draw_text(in, y++, 0, term_attr(app, ROLE_LABEL), "%-7s %8s %5s %7s", "link", "|x-f(x)|", "v/c", "cost");
    for (int i = 0; i < ntop && y < in.h; i++, y++) {
        int e = top[i];
        double x = app->snap_x[e];
        char lk[24];
        snprintf(lk, sizeof lk, "%d-%d", ds_node_id(net, net->tail[e]), ds_node_id(net, net->head[e]));
        double vc = net->capacity[e] > 0 ? x / net->capacity[e] : 0.0, d = fabs(x - app->snap_fx[e]);
        if (wide)
            draw_text(in, y, 0, A_NORMAL, "%-8s %8.3g %9.4g %5.2f %8.4g", lk, d, x, vc, app->snap_cost[e]);
        else
            draw_text(in, y, 0, A_NORMAL, "%-7s %8.2g %5.2f %7.3g", lk, d, vc, app->snap_cost[e]);
    }
}
