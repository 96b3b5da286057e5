/* panel_header.c - network, run configuration and run status (two lines). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tui.h"
#include "../cli/cli.h"

/* An iteration quiet this long shows its evaluations and J v so far in the
 * header (Austin-SDB full: 1-5 s an iteration; a 33,000-node network: minutes). */
#define TUI_WORK_AFTER_S 2.0

/* "GPU: none" or "GPU: <device>", asked once (the probe may dlopen); the
 * reason in parentheses is left for `dillsue info`, the header has no room. */
static const char *gpu_label(void)
{
    static char buf[96];
    static int done;
    if (!done) {
        char full[512];
        if (cli_cuda_emulate())
            snprintf(full, sizeof full, "GPU: emulated on the CPU");
        else
            ds_gpu_info(full, sizeof full);
        char *p = strstr(full, " (");
        if (p) *p = 0;
        snprintf(buf, sizeof buf, "%.90s", full);
        done = 1;
    }
    return buf;
}

/* "tau 10 mu 0.8388" (mu once set-up derived it), or "mu 0.5" for a run
 * given mu (its tau is not used) */
static const char *header_disp(const tui_run *run, char *buf, size_t n)
{
    char mu[40];
    if (run->cfg.mu > 0)
        snprintf(buf, n, "mu %g", run->cfg.mu);
    else
        snprintf(buf, n, "tau %g mu %s", run->cfg.tau, runinfo_mu(run, mu, sizeof mu));
    return buf;
}

void panel_header_draw(tui_app *app, tui_rect r)
{
    tui_run *run = app_focus_run(app);
    /* the focused run's network (line 2 describes that run); the one the next
     * run takes, where `n` opened another, is named after it */
    const ds_network *net = run && run->net ? run->net : app->s.net;
    const ds_config *c = run ? &run->cfg : &app->s.next;
    char gap[32], el[32], thr[32], disp[80];

    draw_fill(r, A_NORMAL);
    draw_text(r, 0, 0, term_attr(app, ROLE_TITLE), "dillsue");
    if (net) {
        char line[512], next[160] = "", counts[96];
        if (app->s.net && net != app->s.net) snprintf(next, sizeof next, " | next runs: %s", app->s.net->name);
        runinfo_threads(c->threads, thr, sizeof thr);
        /* where the line is cut, the next runs' network goes before the GPU,
         * then the counts shorten: at 80 columns it was cut off, and nothing
         * else on screen names it */
        for (int form = 0; form < 4; form++) {
            if (form < 2)
                snprintf(counts, sizeof counts, ": %d nodes %d links %d zones %d OD", net->n_nodes, net->n_links,
                         net->n_zones, net->n_od);
            else if (form == 2)
                snprintf(counts, sizeof counts, ": %d nodes %d links", net->n_nodes, net->n_links);
            else
                counts[0] = 0;
            if (form == 0)
                snprintf(line, sizeof line, "%s%s | %s thr %s | %s%s", net->name, counts, ds_backend_name(c->backend),
                         thr, gpu_label(), next);
            else
                snprintf(line, sizeof line, "%s%s | %s thr %s%s | %s", net->name, counts, ds_backend_name(c->backend),
                         thr, next, gpu_label());
            /* (beside the next runs' network the GPU may be cut: b and info say it) */
            if (!next[0] || draw_cols(line) - (form ? 3 + draw_cols(gpu_label()) : 0) <= r.w - 8) break;
        }
        draw_text(r, 0, 8, A_NORMAL, "%s", line);
    }
    if (!run) {
        char start[32];
        draw_text(r, 1, 0, A_NORMAL, "no run yet | next: %s | %s | %s | press %s to start",
                  runinfo_disp(&app->s.next, 0, disp, sizeof disp), ds_filter_name(app->s.next.filter),
                  ds_solver_name(app->s.next.solver), keys_label(&app->keys, ACT_START, 0, "/", start, sizeof start));
        return;
    }
    const ds_iter_record *last = run->n ? &run->rec[run->n - 1] : NULL;
    runinfo_gap(run, gap, sizeof gap);
    runinfo_time(run, el, sizeof el);
    tui_role role = run->joined && run->status != DS_STATUS_CONVERGED ? ROLE_WARN : ROLE_LABEL;
    char head[160], label[96];
    double prog;
    int n;
    if (session_run_phase(run, &prog, label, sizeof label) == 1) {
        /* set-up: what, how far and how long first, so 80 columns show them;
         * a long step ("start point: 12991 cycle links at cost + 1/mu, ...")
         * is cut to leave room for the per cent and the time */
        char step[96];
        int fixed = snprintf(NULL, 0, "#%d setting up:  %.0f%% | %s", run->id, 100 * prog, el);
        int room = r.w - fixed - 1; /* (the last column: draw_text's '>' where the rest is cut) */
        snprintf(step, sizeof step, "%s", label[0] ? label : "...");
        if (room < 12) room = 12;
        if ((int)strlen(step) > room && room < (int)sizeof step) snprintf(step + room - 3, 4, "...");
        n = snprintf(head, sizeof head, "#%d setting up: %s %.0f%%", run->id, step, 100 * prog);
        if (n >= (int)sizeof head) n = (int)sizeof head - 1;
        draw_text(r, 1, 0, term_attr(app, ROLE_WARN), "%s", head);
        draw_text(r, 1, n, A_NORMAL, " | %s | %s | %s | %s", el, header_disp(run, disp, sizeof disp),
                  ds_filter_name(run->cfg.filter), ds_solver_name(run->cfg.solver));
        return;
    }
    n = snprintf(head, sizeof head, "#%d %s", run->id, runinfo_state(run));
    if (n >= (int)sizeof head) n = (int)sizeof head - 1;
    draw_text(r, 1, 0, term_attr(app, role), "%s", head);
    /* an iteration running for seconds says how far it has got (the
     * engine's count of its evaluations and J v: minutes at planning scale) */
    char work[112] = "";
    if (session_run_phase(run, NULL, label, sizeof label) == 2 && last &&
        session_run_wall(run) - last->t_run >= TUI_WORK_AFTER_S)
        snprintf(work, sizeof work, " | %s", label);
    draw_text(r, 1, n, A_NORMAL, " | %s | %s | %s | it %d gap %s | %s%s", header_disp(run, disp, sizeof disp),
              ds_filter_name(run->cfg.filter), ds_solver_name(run->cfg.solver), last ? last->iter : 0, gap, el, work);
}
