/* panel_timings.c - wall time per phase of the focused run (ds_iter_record
 * t_phase) and time per iteration. CPU and GPU side by side: the focused run's
 * backend in its own column, the other column from the latest finished run of
 * the same network, tau, filter and solver on the other backend (labelled with
 * its run number), so that switching the backend and running again compares. */
#include "tui.h"

typedef struct phase_sums {
    double t[DS_PHASE_N], sum, t_run;
    int iters;
} phase_sums;

static void sum_run(const tui_run *run, phase_sums *s)
{
    *s = (phase_sums){{0}, 0, 0, 0};
    if (run->joined) { /* ds_totals over the whole history, also once it is thinned */
        for (int p = 0; p < DS_PHASE_N; p++) {
            s->t[p] = run->totals.t_phase[p];
            s->sum += run->totals.t_phase[p];
        }
    } else {
        for (size_t i = 0; i < run->n; i++)
            for (int p = 0; p < DS_PHASE_N; p++) {
                s->t[p] += run->rec[i].t_phase[p];
                s->sum += run->rec[i].t_phase[p];
            }
    }
    if (run->n) {
        /* the run time of the header, the compare view and the run log (the
         * last record's t_run left out the run's end: 356 us here, 358 there) */
        s->t_run = session_run_wall(run);
        s->iters = run->rec[run->n - 1].iter;
    }
}

/* Latest finished run like `run` on backend `be`, or NULL. */
static const tui_run *twin_on(const tui_app *app, const tui_run *run, ds_backend be)
{
    for (int i = app->s.n_runs - 1; i >= 0; i--) {
        const tui_run *o = app->s.runs[i];
        if (o == run || !o->joined || o->cfg.backend != be || o->net != run->net) continue;
        if (o->cfg.tau == run->cfg.tau && o->cfg.mu == run->cfg.mu && o->cfg.filter == run->cfg.filter &&
            o->cfg.solver == run->cfg.solver)
            return o;
    }
    return NULL;
}

void panel_timings_draw(tui_app *app, tui_rect r)
{
    tui_rect in = draw_inner(r);
    tui_run *run = app_focus_run(app);
    phase_sums mine, other;
    int y = 0;
    char a[24], b[24], c[24], title[48], head[2][16];

    snprintf(title, sizeof title, run ? "timings #%d" : "timings (no run)", run ? run->id : 0);
    draw_box(app, r, title);
    if (!run) return;
    ds_backend be = run->cfg.backend, obe = be == DS_BACKEND_CPU ? DS_BACKEND_CUDA : DS_BACKEND_CPU;
    const tui_run *twin = twin_on(app, run, obe);
    sum_run(run, &mine);
    if (twin) sum_run(twin, &other);
    /* column 0 is always cpu, column 1 gpu */
    const phase_sums *col[2] = {be == DS_BACKEND_CPU ? &mine : (twin ? &other : NULL),
                                be == DS_BACKEND_CUDA ? &mine : (twin ? &other : NULL)};
    snprintf(head[0], sizeof head[0], "cpu");
    snprintf(head[1], sizeof head[1], "gpu");
    if (twin)
        snprintf(head[be == DS_BACKEND_CPU ? 1 : 0], 16, "%s #%d", obe == DS_BACKEND_CPU ? "cpu" : "gpu", twin->id);
    /* 30 columns at 80x24: every row was cut ("last it >", no share); the
     * narrow form fits them (and leaves out "last it" beside a twin) */
    int narrow = in.w < 37;
    if (col[1] && narrow)
        draw_text(in, y++, 0, term_attr(app, ROLE_LABEL), "%-7s%9s %9s", "phase", head[0], head[1]);
    else if (col[1])
        draw_text(in, y++, 0, term_attr(app, ROLE_LABEL), "%-9s%9s %9s %9s", "phase", head[0], head[1], "last it");
    else if (narrow)
        draw_text(in, y++, 0, term_attr(app, ROLE_LABEL), "%-7s%9s %8s %4s", "phase", head[0], "last it", "%");
    else
        draw_text(in, y++, 0, term_attr(app, ROLE_LABEL), "%-9s%9s %9s %5s", "phase", head[0], "last it", "%");
    for (int p = 0; p < DS_PHASE_N; p++) {
        double last = run->n ? run->rec[run->n - 1].t_phase[p] : 0;
        fmt_secs(col[0] ? col[0]->t[p] : 0, a, sizeof a);
        fmt_secs(last, c, sizeof c);
        const char *ph = ds_phase_name((ds_phase)p);
        if (col[1]) {
            fmt_secs(col[1]->t[p], b, sizeof b);
            if (narrow)
                draw_text(in, y++, 0, A_NORMAL, "%-7s%9s %9s", ph, col[0] ? a : "-", b);
            else
                draw_text(in, y++, 0, A_NORMAL, "%-9s%9s %9s %9s", ph, col[0] ? a : "-", b, c);
        } else {
            double pct = mine.sum > 0 ? 100 * mine.t[p] / mine.sum : 0;
            if (narrow)
                draw_text(in, y++, 0, A_NORMAL, "%-7s%9s %8s %3.0f%%", ph, a, c, pct);
            else
                draw_text(in, y++, 0, A_NORMAL, "%-9s%9s %9s %4.0f%%", ph, a, c, pct);
        }
    }
    fmt_secs(mine.sum, a, sizeof a);
    fmt_secs(mine.t_run, b, sizeof b);
    draw_text(in, y++, 0, A_NORMAL, narrow ? "%-7s%9s, run %s" : "%-9s%9s  (run %s)", "phases", a, b);
    fmt_secs(mine.iters > 0 ? mine.t_run / mine.iters : 0, a, sizeof a);
    draw_text(in, y++, 0, term_attr(app, ROLE_LABEL), "per iteration %s over %d", a, mine.iters);
    if (twin && y < in.h) {
        fmt_secs(other.iters > 0 ? other.t_run / other.iters : 0, a, sizeof a);
        draw_text(in, y++, 0, A_DIM, "run #%d (%s): %s per iteration over %d", twin->id, ds_backend_name(obe), a,
                  other.iters);
    }
}
