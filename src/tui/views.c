/* views.c - the full-screen views over the panels: a run's details (status
 * reason in full, certificate, start point, engine times, settings, safeguard
 * totals, system totals, its messages), the session's message log, the
 * settings of the next run, and a run's flows against a reference file.
 * Text views are built into lines wrapped at the view's width each frame,
 * then drawn from view_scroll; Up/Down/PgUp/PgDn/Home/End scroll. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "flowstat.h"
#include "settings.h"
#include "textbuf.h"

tui_rect overlay_rect(int want_w, int want_h)
{
    if (want_w > COLS) want_w = COLS;
    if (want_h > LINES - 1) want_h = LINES - 1; /* the status line stays visible */
    tui_rect r = {(LINES - 1 - want_h) / 2, (COLS - want_w) / 2, want_h, want_w};
    if (r.y < 0) r.y = 0;
    return r;
}

static tui_run *sel_run(const tui_app *app)
{
    return app->sel >= 0 && app->sel < app->s.n_runs ? app->s.runs[app->sel] : NULL;
}

static const char *tod(double t, char *buf, size_t n)
{
    time_t s = (time_t)t;
    struct tm tm;
    localtime_r(&s, &tm);
    snprintf(buf, n, "%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec, (int)((t - floor(t)) * 1000));
    return buf;
}

static void add_totals(textbuf *t, const tui_run *r)
{
    flowstat_totals ft;
    char vh[48] = "n/a", vd[64] = "n/a (the network has no lengths)";
    if (!r->flows) {
        tb_add(t, ROLE_DIM, 2,
               r->joined ? "system totals: n/a (the run ended without flows)"
                         : "system totals: when the run has ended");
        return;
    }
    flowstat_totals_compute(r->net, &r->cfg, r->flows, &ft);
    if (isfinite(ft.veh_hours)) snprintf(vh, sizeof vh, "%.6g", ft.veh_hours);
    if (ft.veh_dist >= 0) snprintf(vd, sizeof vd, "%.6g", ft.veh_dist);
    tb_add(t, ROLE_LABEL, 0, "system totals (flows of the result, link times without toll/distance terms):");
    tb_add(t, ROLE_NORMAL, 4, "  vehicle-time sum x t(x) %s (time unit of the net file) | vehicle-distance %s", vh, vd);
    if (ft.vc_max_link >= 0)
        tb_add(t, ROLE_NORMAL, 4, "  v/c max %.3f on link %d-%d, mean %.3f | total link flow %.6g | total demand %.6g",
               ft.vc_max, ds_node_id(r->net, r->net->tail[ft.vc_max_link]),
               ds_node_id(r->net, r->net->head[ft.vc_max_link]), ft.vc_mean, ft.flow_total, ft.demand);
}

static void build_details(tui_app *app, textbuf *t, tui_run *r)
{
    char buf[1200], a[32], b[32], c[32], d[32];
    double prog;
    char label[96];
    int ph = session_run_phase(r, &prog, label, sizeof label);
    tb_add(t, ROLE_TITLE, 0, "run #%d on %s (%s): %s", r->id, r->net->name, r->net->net_path, runinfo_state(r));
    if (ph == 1) tb_add(t, ROLE_WARN, 2, "setting up: %s (%.0f %%)", label[0] ? label : "...", 100 * prog);
    if (r->joined)
        tb_add(t, r->status == DS_STATUS_CONVERGED ? ROLE_ACCEPT : ROLE_WARN, 2, "reason: %s",
               r->reason[0] ? r->reason : "(the engine gave none)");
    if (r->joined && r->status == DS_STATUS_ILL_POSED && r->cfg.filter == DS_FILTER_FULL) {
        /* what to do about it, as `dillsue solve` says after the reason */
        char fk[32];
        keys_label(&app->keys, ACT_FILTER, 0, "/", fk, sizeof fk);
        if (strstr(r->reason, DS_REASON_ANY_DISPERSION))
            tb_add(t, ROLE_WARN, 2,
                   "what to do: the acyclic filters (dsp, bfs, edsp: %s) always have a fixed point; no tau, mu or cap "
                   "gives the full graph one while links of cost 0 form cycles",
                   fk);
        else
            tb_add(t, ROLE_WARN, 2,
                   "what to do: the acyclic filters (dsp, bfs, edsp: %s) always have a fixed point; a larger tau or mu "
                   "(less dispersion) may give the full graph one%s",
                   fk, r->cfg.cost.cap > 0 ? "; so may cap 0 (the proof holds for capped costs)" : "");
    }
    if (r->origin[0])
        tb_add(t, ROLE_NORMAL, 2, "%s (its flows: %s)", r->origin,
               r->origin_flows[0] ? r->origin_flows : "not written, the sweep ran without --flows");
    runinfo_settings(&r->cfg, buf, sizeof buf);
    tb_add(t, ROLE_NORMAL, 2, "settings: %s", buf);
    if (r->warm && r->warm_from < 0)
        tb_add(t, ROLE_NORMAL, 2, "start: warm, from the flows in %s", r->warm_path);
    else if (r->warm)
        tb_add(t, ROLE_NORMAL, 2, "start: warm, from the flows of run #%d", r->warm_from);
    else
        tb_add(t, ROLE_NORMAL, 2, "start: %s (engine messages below say if another start was used)",
               ds_start_name(r->cfg.start));
    fmt_secs(session_run_wall(r), a, sizeof a);
    if (r->joined) {
        fmt_secs(r->times.setup, b, sizeof b);
        fmt_secs(r->times.paused, c, sizeof c);
        if (r->times.t_tol >= 0)
            snprintf(d, sizeof d, "below tol at "), fmt_secs(r->times.t_tol, d + 13, sizeof d - 13);
        else
            snprintf(d, sizeof d, "never below tol");
        tb_add(t, ROLE_NORMAL, 2, "time (engine clock, pauses excluded): %s, set-up %s, paused %s, gap %s", a, b, c, d);
    } else {
        tb_add(t, ROLE_NORMAL, 2, "time so far (engine clock, pauses excluded): %s", a);
    }
    char mu[40];
    if (isfinite(r->cbar) && r->cbar > 0)
        snprintf(b, sizeof b, "%.6g", r->cbar);
    else
        snprintf(b, sizeof b, r->cfg.mu > 0 ? "n/a (mu given)" : "n/a (not derived yet)");
    tb_add(t, ROLE_NORMAL, 2, "mu %s | cbar %s", runinfo_mu(r, mu, sizeof mu), b);
    if (r->cert.valid) {
        char lost[96];
        if (r->cert.lost_pct >= 0)
            /* never negative, as `dillsue solve` prints it: the arrivals of
             * EMA sum to 1.2e-10 above its demand (read -1.16e-10 here, 0 there) */
            snprintf(lost, sizeof lost, "%.3g of %.6g (%.3g %%)",
                     fmax(0.0, r->cert.demand_total - r->cert.demand_arrived), r->cert.demand_total, r->cert.lost_pct);
        else
            snprintf(lost, sizeof lost, "not measured (no accepted iterate)");
        tb_add(t, r->cert.lost_pct > 0.01 ? ROLE_WARN : ROLE_NORMAL, 4,
               "certificate: lost demand %s | demand assigned %.6g | max flow-conservation violation %.3g at node %d",
               lost, r->cert.demand_loaded, r->cert.max_imbalance,
               r->cert.imbalance_node >= 0 ? ds_node_id(r->net, r->cert.imbalance_node) : 0);
        if (isfinite(r->cert.mean_links)) {
            /* more links than a route without a repeated node has: vehicles go round cycles (the engine's note) */
            int cyc = r->cert.mean_links > r->net->n_nodes - 1;
            char c[48] = "";
            if (isfinite(r->cert.mean_cost_cbar)) snprintf(c, sizeof c, ", %.4g x cbar", r->cert.mean_cost_cbar);
            tb_add(t, cyc ? ROLE_WARN : ROLE_NORMAL, 4, "mean trip: %.4g links%s%s", r->cert.mean_links, c,
                   cyc ? " (more than any route without a repeated node: routes with cycles)" : "");
        }
    } else {
        tb_add(t, ROLE_DIM, 2,
               r->joined ? "certificate: n/a (the run ended without an iterate)"
                         : "certificate: when the run has ended");
    }
    int iters = r->n ? r->rec[r->n - 1].iter : 0;
    runinfo_gap(r, a, sizeof a);
    tb_add(t, ROLE_NORMAL, 2, "iterations %d | final gap_rel %s", iters, a);
    if (r->retired && r->n < r->n_total)
        tb_add(t, ROLE_WARN, 2,
               "history thinned to %zu of %zu records to save memory (only the %d latest runs keep "
               "every record; totals below are over all of them)",
               r->n, r->n_total, TUI_KEEP_FULL);
    ds_totals tt;
    if (r->joined)
        tt = r->totals;
    else
        ds_totals_compute(r->rec, r->n, &tt);
    if (r->joined && !r->n_total) { /* it read "steps: | halvings 0 | evals 0 ...", and solve prints none */
        tb_add(t, ROLE_DIM, 2, "steps: none (the run ended before its first iterate)");
    } else {
        ds_totals_format(&tt, buf, sizeof buf);
        tb_add(t, ROLE_NORMAL, 4, "%s", buf);
    }
    if (r->n) {
        const ds_iter_record *x = &r->rec[r->n - 1];
        tb_add(t, ROLE_NORMAL, 4, "last iterate: lost demand %s | node imbalance %.3g | inner passes %d (resid %.1e)",
               x->lost_pct >= 0 ? (snprintf(c, sizeof c, "%.3g %%", x->lost_pct), c) : "not measured", x->imbalance,
               x->inner_passes, x->inner_resid);
    }
    add_totals(t, r);
    tb_add(t, ROLE_LABEL, 0, "messages of run #%d:", r->id);
    long n = session_log_count(&app->s), shown = 0;
    for (long i = 0; i < n; i++) {
        tui_log_entry e;
        if (!session_log_get(&app->s, i, &e) || e.run_id != r->id) continue;
        tb_add(t, e.level ? ROLE_WARN : ROLE_NORMAL, 15, "  %s %s", tod(e.tod, a, sizeof a), e.text);
        shown++;
    }
    if (!shown) tb_add(t, ROLE_DIM, 2, "(none)");
}

static void build_log(tui_app *app, textbuf *t)
{
    char a[32];
    long n = session_log_count(&app->s);
    if (!n) tb_add(t, ROLE_DIM, 0, "no messages yet");
    for (long i = 0; i < n; i++) {
        tui_log_entry e;
        char who[16] = "   ";
        if (!session_log_get(&app->s, i, &e)) continue;
        if (e.run_id) snprintf(who, sizeof who, "#%-2d", e.run_id);
        tb_add(t, e.level ? ROLE_WARN : ROLE_NORMAL, 18, "%s %s %s", tod(e.tod, a, sizeof a), who, e.text);
    }
}

static void build_settings(tui_app *app, textbuf *t)
{
    char v[64];
    for (int i = 0; i < tui_n_settings; i++) {
        const tui_setting *s = &tui_settings[i];
        s->get(&app->s.next, v, sizeof v);
        snprintf(t->line[t->n], sizeof t->line[0], "%c %-16s %-12s %s", i == app->set_sel ? '>' : ' ', s->name, v,
                 s->help);
        t->row[t->n] = 0; /* cut at the edge; Left/Right cycle choices here */
        t->role[t->n++] = i == app->set_sel ? ROLE_SELECT : ROLE_NORMAL;
    }
    char sk[32];
    snprintf(t->line[t->n], sizeof t->line[0],
             "Enter: type a value  Left/Right: cycle a choice  %s: save to the config file",
             keys_label(&app->keys, ACT_SAVE, 0, "/", sk, sizeof sk));
    t->row[t->n] = 0;
    t->role[t->n++] = ROLE_DIM;
}

/* the flow comparison of a run against app->ref_flow */
static void build_ref(tui_app *app, textbuf *t)
{
    tui_run *r = app->ref_run >= 0 && app->ref_run < app->s.n_runs ? app->s.runs[app->ref_run] : NULL;
    flowstat_cmp c;
    if (!r || !r->flows || !app->ref_flow || r->net != app->ref_net) {
        tb_add(t, ROLE_WARN, 0, "no comparison: the run or the reference is gone");
        return;
    }
    const ds_network *net = r->net;
    flowstat_compare(r->flows, app->ref_flow, net->n_links, &c);
    char disp[40];
    tb_add(t, ROLE_TITLE, 0, "run #%d (%s %s %s) against %s", r->id, ds_solver_name(r->cfg.solver),
           ds_filter_name(r->cfg.filter), runinfo_disp(&r->cfg, 0, disp, sizeof disp), app->ref_path);
    size_t rl = strlen(app->ref_path);
    if (rl >= 5 && !strcmp(app->ref_path + rl - 5, ".tntp")) /* (compare matches a TNTP flow file to --net's links) */
        tb_add(t, ROLE_DIM, 2, "as `dillsue compare RUN.csv %s --net %s` (RUN.csv: x exports it)", app->ref_path,
               net->net_path);
    else
        tb_add(t, ROLE_DIM, 2, "as `dillsue compare RUN.csv %s` (RUN.csv: x exports it)", app->ref_path);
    if (!c.finite) tb_add(t, ROLE_WARN, 2, "warning: non-finite values in the input");
    tb_add(t, ROLE_NORMAL, 0, "links:         %d of %d", c.m.n_used, net->n_links);
    if (isnan(c.m.mape))
        tb_add(t, ROLE_NORMAL, 0, "MAPE:          n/a (no link with reference flow >= %g)", FLOWSTAT_MIN_REF);
    else
        tb_add(t, ROLE_NORMAL, 0, "MAPE:          %.6g %% (%d links with reference flow >= %g)", c.m.mape, c.m.n_mape,
               FLOWSTAT_MIN_REF);
    if (isnan(c.m.r2))
        tb_add(t, ROLE_NORMAL, 0, "R^2:           n/a (constant reference)");
    else
        tb_add(t, ROLE_NORMAL, 0, "R^2:           %.10g", c.m.r2);
    tb_add(t, ROLE_NORMAL, 0, "max abs diff:  %.10g", c.m.max_abs);
    tb_add(t, ROLE_LABEL, 0, "links that differ most:  %-9s %12s %12s %12s", "link", "run", "reference", "diff");
    for (int k = 0; k < c.n_top; k++) {
        int e = c.top[k];
        char lk[24];
        snprintf(lk, sizeof lk, "%d-%d", ds_node_id(net, net->tail[e]), ds_node_id(net, net->head[e]));
        tb_add(t, ROLE_NORMAL, 0, "                         %-9s %12.6g %12.6g %12.4g", lk, r->flows[e],
               app->ref_flow[e], r->flows[e] - app->ref_flow[e]);
    }
}

void view_draw(tui_app *app)
{
    if (app->view == VIEW_NONE) return;
    /* tables use the whole width; text stays readable at 150 columns */
    int wmax = app->view == VIEW_LADDER ? 250 : 150, w = COLS - 2 > wmax ? wmax : COLS - 2, h = LINES - 2;
    tui_rect r = overlay_rect(w, h);
    textbuf *t = tb_begin(r.w - 2);
    char title[96];
    if (!t->line) return;
    switch (app->view) {
    case VIEW_DETAILS: {
        tui_run *run = sel_run(app);
        if (run)
            build_details(app, t, run);
        else
            tb_add(t, ROLE_DIM, 0, "no run yet");
        snprintf(title, sizeof title, "run #%d details", run ? run->id : 0);
        break;
    }
    case VIEW_LOG:
        build_log(app, t);
        snprintf(title, sizeof title, "message log");
        break;
    case VIEW_SETTINGS:
        build_settings(app, t);
        snprintf(title, sizeof title, "settings of the next run");
        break;
    case VIEW_REF:
        build_ref(app, t);
        snprintf(title, sizeof title, "flows against a reference");
        break;
    case VIEW_LADDER:
        view_ladder_build(app, t);
        snprintf(title, sizeof title, "solver ladder");
        break;
    default: return;
    }
    tb_draw(app, t, r, title);
}

int view_key(tui_app *app, tui_action act, int ch)
{
    int page = app->view_lines > 1 ? app->view_lines - 1 : 1;
    if (app->view == VIEW_SETTINGS) {
        const tui_setting *s = &tui_settings[app->set_sel];
        char v[64], label[96];
        if (act == ACT_UP || ch == KEY_UP) {
            if (app->set_sel > 0) app->set_sel--;
            return 1;
        }
        if (act == ACT_DOWN || ch == KEY_DOWN) {
            if (app->set_sel < tui_n_settings - 1) app->set_sel++;
            return 1;
        }
        if (ch == KEY_LEFT || ch == KEY_RIGHT) {
            if (s->n_choices > 0) {
                settings_cycle(app->set_sel, &app->s.next, ch == KEY_RIGHT ? 1 : -1);
                s->get(&app->s.next, v, sizeof v);
                app_message(app, 0, "%s = %s", s->name, v);
            }
            return 1;
        }
        if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) {
            s->get(&app->s.next, v, sizeof v);
            snprintf(label, sizeof label, "%s (%s)", s->name, s->option);
            app->setting_edit = app->set_sel;
            app->prompt = PROMPT_SETTING;
            snprintf(app->prompt_label, sizeof app->prompt_label, "%s", label);
            snprintf(app->prompt_buf, sizeof app->prompt_buf, "%s", v);
            app->prompt_len = (int)strlen(app->prompt_buf);
            return 1;
        }
        return 0;
    }
    if (app->view == VIEW_LADDER && act == ACT_TAB) {
        app->ladder_all = !app->ladder_all;
        app->view_scroll = 0;
        return 1;
    }
    if (ch == KEY_LEFT || ch == KEY_RIGHT) {
        app->view_hscroll += ch == KEY_RIGHT ? 8 : -8;
        if (app->view_hscroll < 0) app->view_hscroll = 0;
        return 1;
    }
    if (act == ACT_UP || ch == KEY_UP) {
        app->view_scroll = app->view_top > 0 ? app->view_top - 1 : 0;
        return 1;
    }
    if (act == ACT_DOWN || ch == KEY_DOWN) {
        if (app->view_scroll >= 0) app->view_scroll++;
        return 1;
    }
    if (act == ACT_PGUP) {
        app->view_scroll = app->view_top - page;
        if (app->view_scroll < 0) app->view_scroll = 0;
        return 1;
    }
    if (act == ACT_PGDN) {
        if (app->view_scroll >= 0) app->view_scroll += page;
        return 1;
    }
    if (ch == KEY_HOME) {
        app->view_scroll = 0;
        return 1;
    }
    if (ch == KEY_END) {
        app->view_scroll = -1;
        return 1;
    }
    return 0;
}
