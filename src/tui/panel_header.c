/* panel_header.c - network, run configuration and run status (two lines). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tui.h"

/* "GPU: none" or "GPU: <device>", asked once (the probe may dlopen); the
 * reason in parentheses is left for `dillsue info`, the header has no room. */
static const char *gpu_label(void)
{
    static char buf[96];
    static int done;
    if (!done) {
        char full[512];
        ds_gpu_info(full, sizeof full);
        char *p = strstr(full, " (");
        if (p) *p = 0;
        snprintf(buf, sizeof buf, "%.90s", full);
        done = 1;
    }
    return buf;
}

static const char *run_state(const tui_run *r)
{
    if (r->joined) return ds_status_name(r->status);
    return ds_run_is_paused(r->run) ? "paused" : "running";
}

void panel_header_draw(tui_app *app, tui_rect r)
{
    const ds_network *net = app->s.net;
    tui_run *run = app_focus_run(app);
    const ds_config *c = run ? &run->cfg : &app->s.next;
    int threads = c->threads > 0 ? c->threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
    char gap[32], el[32];

    draw_fill(r, A_NORMAL);
    draw_text(r, 0, 0, term_attr(app, ROLE_TITLE), "dillsue");
    if (net)
        draw_text(r, 0, 8, A_NORMAL, "%s: %d nodes %d links %d zones %d OD | %s %d thr | %s",
                  net->name, net->n_nodes, net->n_links, net->n_zones, net->n_od,
                  ds_backend_name(c->backend), threads, gpu_label());
    if (!run) {
        char start[32];
        draw_text(r, 1, 0, A_NORMAL, "no run yet | next: tau %g | %s | %s | press %s to start",
                  app->s.next.tau, ds_filter_name(app->s.next.filter), ds_solver_name(app->s.next.solver),
                  keys_label(&app->keys, ACT_START, 0, "/", start, sizeof start));
        return;
    }
    double el_s = (run->joined ? run->t_end : session_now()) - run->t_start;
    const ds_iter_record *last = run->n ? &run->rec[run->n - 1] : NULL;
    fmt_gap(last ? last->gap_rel : NAN, gap, sizeof gap);
    fmt_secs(el_s, el, sizeof el);
    tui_role role = run->joined && run->status != DS_STATUS_CONVERGED ? ROLE_WARN : ROLE_LABEL;
    char head[48];
    int n = snprintf(head, sizeof head, "#%d %s", run->id, run_state(run));
    draw_text(r, 1, 0, term_attr(app, role), "%s", head);
    draw_text(r, 1, n, A_NORMAL, " | tau %g mu %.4g | %s | %s | it %d gap %s | %s", run->cfg.tau, run->mu,
              ds_filter_name(run->cfg.filter), ds_solver_name(run->cfg.solver), last ? last->iter : 0, gap, el);
}
