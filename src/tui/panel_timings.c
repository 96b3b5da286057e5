/* panel_timings.c - wall time per phase of the focused run (ds_iter_record
 * t_phase), split by the backend that did the work, and time per iteration. */
#include "tui.h"

void panel_timings_draw(tui_app *app, tui_rect r)
{
    tui_rect in = draw_inner(r);
    tui_run *run = app_focus_run(app);
    double tot[DS_BACKEND_N][DS_PHASE_N] = {{0}}, sum = 0;
    int have[DS_BACKEND_N] = {0}, y = 0, p, gpu;
    char a[24], b[24], c[24], title[48];

    snprintf(title, sizeof title, run ? "timings #%d" : "timings (no run)", run ? run->id : 0);
    draw_box(app, r, title);
    if (!run) return;
    for (size_t i = 0; i < run->n; i++) {
        const ds_iter_record *x = &run->rec[i];
        int be = x->backend >= 0 && x->backend < DS_BACKEND_N ? x->backend : 0;
        have[be] = 1;
        for (p = 0; p < DS_PHASE_N; p++) { tot[be][p] += x->t_phase[p]; sum += x->t_phase[p]; }
    }
    gpu = have[DS_BACKEND_CUDA];
    /* CPU and GPU columns side by side only when both backends did work. */
    draw_text(in, y++, 0, term_attr(app, ROLE_LABEL), gpu ? "%-9s%9s %9s %9s" : "%-9s%9s %9s %5s",
              "phase", "cpu", gpu ? "gpu" : "last it", gpu ? "last it" : "%");
    for (p = 0; p < DS_PHASE_N; p++) {
        double last = run->n ? run->rec[run->n - 1].t_phase[p] : 0;
        fmt_secs(tot[DS_BACKEND_CPU][p], a, sizeof a);
        fmt_secs(last, c, sizeof c);
        if (gpu) {
            fmt_secs(tot[DS_BACKEND_CUDA][p], b, sizeof b);
            draw_text(in, y++, 0, A_NORMAL, "%-9s%9s %9s %9s", ds_phase_name((ds_phase)p), a, b, c);
        } else {
            double pct = sum > 0 ? 100 * tot[DS_BACKEND_CPU][p] / sum : 0;
            draw_text(in, y++, 0, A_NORMAL, "%-9s%9s %9s %4.0f%%", ds_phase_name((ds_phase)p), a, c, pct);
        }
    }
    double t_run = run->n ? run->rec[run->n - 1].t_run : 0;
    int iters = run->n ? run->rec[run->n - 1].iter : 0;
    fmt_secs(sum, a, sizeof a);
    fmt_secs(t_run, b, sizeof b);
    draw_text(in, y++, 0, A_NORMAL, "%-9s%9s  (run %s)", "phases", a, b);
    fmt_secs(iters > 0 ? t_run / iters : 0, a, sizeof a);
    draw_text(in, y++, 0, term_attr(app, ROLE_LABEL), "per iteration %s over %d", a, iters);
}
