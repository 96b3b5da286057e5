/* actions.c - what the keys do: steering, dialogs, export.
 *
 * Every typed value is validated before anything changes; a bad value only
 * produces a status-line message. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "ds_csv.h"
#include "tui.h"

void app_message(tui_app *app, int error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(app->msg, sizeof app->msg, fmt, ap);
    va_end(ap);
    app->msg_error = error;
    app->msg_until = session_now() + (error ? 8.0 : 5.0);
}

tui_run *app_latest_run(const tui_app *app)
{
    return app->s.n_runs ? app->s.runs[app->s.n_runs - 1] : NULL;
}

tui_run *app_focus_run(const tui_app *app)
{
    tui_run *r = session_active(&app->s);
    if (r) return r;
    if (app->sel >= 0 && app->sel < app->s.n_runs) return app->s.runs[app->sel];
    return app_latest_run(app);
}

static void prompt_open(tui_app *app, tui_prompt_kind kind, const char *label, const char *init)
{
    app->prompt = kind;
    snprintf(app->prompt_label, sizeof app->prompt_label, "%s", label);
    snprintf(app->prompt_buf, sizeof app->prompt_buf, "%.*s", (int)sizeof app->prompt_buf - 1, init ? init : "");
    app->prompt_len = (int)strlen(app->prompt_buf);
}

/* Whole string is a finite number. */
static int parse_double(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    while (*end == ' ') end++;
    return end != s && !*end && !errno && isfinite(*v);
}

static int parse_long(const char *s, long *v)
{
    char *end;
    errno = 0;
    *v = strtol(s, &end, 10);
    while (*end == ' ') end++;
    return end != s && !*end && !errno;
}

static void set_tau(tui_app *app, double tau)
{
    app->s.next.tau = tau;
    app->s.next.mu = 0;
    app_message(app, 0, "tau = %g for the next run", tau);
}

static void default_export_name(const tui_app *app, const tui_run *r, char *buf, size_t n)
{
    snprintf(buf, n, "%s-run%d-%s-%s-tau%g-flows.csv", r->net->name[0] ? r->net->name : "net", r->id,
             ds_solver_name(r->cfg.solver), ds_filter_name(r->cfg.filter), r->cfg.tau);
    (void)app;
}

/* X-flows.csv -> X-history.csv; anything else gets .history.csv appended. */
static void history_name(const char *flows, char *buf, size_t n)
{
    size_t len = strlen(flows);
    const char *suf = "flows.csv";
    if (len >= strlen(suf) && strcmp(flows + len - strlen(suf), suf) == 0)
        snprintf(buf, n, "%.*shistory.csv", (int)(len - strlen(suf)), flows);
    else
        snprintf(buf, n, "%s.history.csv", flows);
}

static void do_export(tui_app *app, const char *path)
{
    tui_run *r;
    ds_error err = {0};
    char hist[600], msg[700];
    if (app->export_run < 0 || app->export_run >= app->s.n_runs) return;
    r = app->s.runs[app->export_run];
    if (!*path) { app_message(app, 1, "export: empty file name, nothing written"); return; }
    if (ds_flows_write(path, r->net, ds_run_flows(r->run), ds_run_costs(r->run), &err) != 0) {
        ds_error_format(&err, msg, sizeof msg);
        app_message(app, 1, "export failed, nothing written: %s", msg);
        return;
    }
    history_name(path, hist, sizeof hist);
    if (ds_history_write_final(hist, r->rec, r->n, r->status, &err) != 0) {
        ds_error_format(&err, msg, sizeof msg);
        app_message(app, 1, "flows written to %s; history failed: %s", path, msg);
        return;
    }
    app_message(app, 0, "run #%d: flows -> %s, history -> %s", r->id, path, hist);
}

static void prompt_accept(tui_app *app)
{
    const char *b = app->prompt_buf;
    tui_prompt_kind kind = app->prompt;
    ds_config *c = &app->s.next;
    double v;
    long l;
    app->prompt = PROMPT_NONE;
    switch (kind) {
    case PROMPT_TAU:
        if (!parse_double(b, &v) || v <= 0) app_message(app, 1, "tau must be a number > 0, got \"%s\"; unchanged", b);
        else set_tau(app, v);
        break;
    case PROMPT_TOL:
        if (!parse_double(b, &v) || v <= 0 || v >= 1)
            app_message(app, 1, "tolerance must be in (0, 1), got \"%s\"; unchanged", b);
        else { c->tol = v; app_message(app, 0, "tolerance = %g", v); }
        break;
    case PROMPT_MAXITER:
        if (!parse_long(b, &l) || l < 1 || l > 100000000)
            app_message(app, 1, "max iterations must be a whole number >= 1, got \"%s\"; unchanged", b);
        else { c->max_iter = (int)l; app_message(app, 0, "max iterations = %ld", l); }
        break;
    case PROMPT_THREADS:
        if (!parse_long(b, &l) || l < 0 || l > 4096)
            app_message(app, 1, "threads must be a whole number >= 0 (0 = all cores), got \"%s\"; unchanged", b);
        else { c->threads = (int)l; app_message(app, 0, "threads = %ld", l); }
        break;
    case PROMPT_NET: {
        ds_error err = {0};
        char msg[700];
        if (!*b) { app_message(app, 1, "no path given; network unchanged"); break; }
        app_message(app, 0, "loading %s ...", b);
        if (session_open(&app->s, b, NULL, &err) != 0) {
            ds_error_format(&err, msg, sizeof msg);
            app_message(app, 1, "cannot open network (unchanged): %s", msg);
        } else {
            app->s.warm_next = 0;
            app_message(app, 0, "network %s: %d nodes, %d links, %d OD pairs", app->s.net->name,
                        app->s.net->n_nodes, app->s.net->n_links, app->s.net->n_od);
        }
        break;
    }
    case PROMPT_EXPORT: do_export(app, b); break;
    default: break;
    }
}

void app_prompt_key(tui_app *app, int ch)
{
    if (ch == 27) { app->prompt = PROMPT_NONE; app_message(app, 0, "cancelled; nothing changed"); return; }
    if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) { prompt_accept(app); return; }
    if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        if (app->prompt_len > 0) app->prompt_buf[--app->prompt_len] = 0;
        return;
    }
    if (ch == 21) { app->prompt_len = 0; app->prompt_buf[0] = 0; return; } /* Ctrl-U */
    if (ch >= 32 && ch < 127 && app->prompt_len < (int)sizeof app->prompt_buf - 1) {
        app->prompt_buf[app->prompt_len++] = (char)ch;
        app->prompt_buf[app->prompt_len] = 0;
    }
}

static void toggle_compare(tui_app *app)
{
    int i = app->sel;
    if (i < 0 || i >= app->s.n_runs) { app_message(app, 1, "no run selected"); return; }
    if (app->cmp[0] == i) { app->cmp[0] = app->cmp[1]; app->cmp[1] = -1; return; }
    if (app->cmp[1] == i) { app->cmp[1] = -1; return; }
    if (app->cmp[0] < 0) app->cmp[0] = i;
    else {
        app->cmp[1] = i;
        app->show_compare = 1;
        char close[32];
        app_message(app, 0, "comparing run #%d with run #%d (%s closes)", app->cmp[0] + 1, i + 1,
                    keys_label(&app->keys, ACT_CLOSE, 1, " or ", close, sizeof close));
        return;
    }
    if (!app->show_compare) app_message(app, 0, "run #%d marked; mark one more with c to compare", i + 1);
}

static void save_config(tui_app *app)
{
    tui_config c;
    ds_error err = {0};
    char msg[700], shown[600];
    if (!app->config_path[0]) {
        app_message(app, 1, "not saved: started with --no-config (use --config FILE to choose a file)");
        return;
    }
    config_capture(app, &c);
    config_display_path(app->config_path, shown, sizeof shown);
    if (config_save(app->config_path, &c, &err) != 0) {
        ds_error_format(&err, msg, sizeof msg);
        app_message(app, 1, "settings not saved: %s", msg);
        return;
    }
    app_message(app, 0, "settings saved to %s (next run, display, keys)", shown);
}

static void start_run(tui_app *app)
{
    ds_error err = {0};
    char msg[700];
    tui_run *r = session_start(&app->s, &err);
    if (!r) {
        ds_error_format(&err, msg, sizeof msg);
        app_message(app, 1, "cannot start: %s", msg);
        return;
    }
    app->sel = app->s.n_runs - 1;
    app_message(app, 0, "run #%d started: %s %s tau %g%s", r->id, ds_solver_name(r->cfg.solver),
                ds_filter_name(r->cfg.filter), r->cfg.tau, r->warm ? " (warm)" : "");
}

void app_action(tui_app *app, tui_action act)
{
    tui_session *s = &app->s;
    ds_config *c = &s->next;
    tui_run *active = session_active(s);
    char buf[600];

    switch (act) {
    case ACT_QUIT: app->quit = 1; break;
    case ACT_START: start_run(app); break;
    case ACT_PAUSE:
        if (!active) { app_message(app, 1, "no run is going"); break; }
        ds_run_pause(active->run, !ds_run_is_paused(active->run));
        app_message(app, 0, "run #%d %s", active->id, ds_run_is_paused(active->run) ? "paused" : "resumed");
        break;
    case ACT_ABORT:
        if (!active) { app_message(app, 1, "no run is going"); break; }
        ds_run_cancel(active->run);
        ds_run_pause(active->run, 0);
        app_message(app, 0, "run #%d: cancel requested", active->id);
        break;
    case ACT_TAU:
        snprintf(buf, sizeof buf, "%g", c->tau);
        prompt_open(app, PROMPT_TAU, "tau (> 0)", buf);
        break;
    case ACT_TAU1: set_tau(app, 1); break;
    case ACT_TAU3: set_tau(app, 3); break;
    case ACT_TAU10: set_tau(app, 10); break;
    case ACT_TAU30: set_tau(app, 30); break;
    case ACT_TAU100: set_tau(app, 100); break;
    case ACT_FILTER:
        c->filter = (ds_filter)((c->filter + 1) % DS_FILTER_N);
        app_message(app, 0, "filter = %s", ds_filter_name(c->filter));
        break;
    case ACT_SOLVER:
        c->solver = (ds_solver_kind)((c->solver + 1) % DS_SOLVER_N);
        app_message(app, 0, "solver = %s", ds_solver_name(c->solver));
        break;
    case ACT_THREADS:
        snprintf(buf, sizeof buf, "%d", c->threads);
        prompt_open(app, PROMPT_THREADS, "threads (0 = all cores)", buf);
        break;
    case ACT_THREADS_UP:
        if (c->threads < 4096) c->threads++;
        app_message(app, 0, "threads = %d", c->threads);
        break;
    case ACT_THREADS_DOWN:
        if (c->threads > 0) c->threads--;
        app_message(app, 0, c->threads ? "threads = %d" : "threads = %d (all cores)", c->threads);
        break;
    case ACT_BACKEND:
        c->backend = (ds_backend)((c->backend + 1) % DS_BACKEND_N);
        app_message(app, 0, "backend = %s", ds_backend_name(c->backend));
        break;
    case ACT_TOL:
        snprintf(buf, sizeof buf, "%g", c->tol);
        prompt_open(app, PROMPT_TOL, "tolerance on gap_rel", buf);
        break;
    case ACT_MAXITER:
        snprintf(buf, sizeof buf, "%d", c->max_iter);
        prompt_open(app, PROMPT_MAXITER, "max iterations", buf);
        break;
    case ACT_WARM:
        s->warm_next = !s->warm_next;
        if (s->warm_next && !session_last_finished(s))
            app_message(app, 0, "warm start on, but no finished run on this network yet");
        else
            app_message(app, 0, "warm start %s", s->warm_next ? "on" : "off");
        break;
    case ACT_NET: prompt_open(app, PROMPT_NET, "network file", s->net ? s->net->net_path : ""); break;
    case ACT_EXPORT: {
        tui_run *r = app->sel >= 0 && app->sel < s->n_runs ? s->runs[app->sel] : NULL;
        if (!r) { app_message(app, 1, "no run to export"); break; }
        if (!r->joined || !ds_run_flows(r->run)) { app_message(app, 1, "run #%d has not finished", r->id); break; }
        app->export_run = app->sel;
        default_export_name(app, r, buf, sizeof buf);
        prompt_open(app, PROMPT_EXPORT, "export flows to", buf);
        break;
    }
    case ACT_UP: if (app->sel > 0) app->sel--; break;
    case ACT_DOWN: if (app->sel < s->n_runs - 1) app->sel++; break;
    case ACT_SHOW:
        if (app->sel >= 0 && app->sel < s->n_runs) s->runs[app->sel]->shown ^= 1;
        break;
    case ACT_COMPARE: toggle_compare(app); break;
    case ACT_TAB: app->side_first = (app->side_first + 1) % TUI_SIDE_N; break;
    case ACT_GLYPHS:
        app->gs = (plot_glyphset)((app->gs + 1) % PLOT_GLYPHSET_N);
        app_message(app, 0, "plot glyphs: %s", plot_glyphset_name(app->gs));
        break;
    case ACT_SAVE: save_config(app); break;
    case ACT_HELP:
        app->show_help = !app->show_help;
        app->help_page = 0;
        break;
    case ACT_REDRAW: clearok(curscr, TRUE); break;
    case ACT_CLOSE:
        app->show_help = 0;
        if (app->show_compare) { app->show_compare = 0; app->cmp[0] = app->cmp[1] = -1; }
        break;
    case ACT_NONE: case ACT_N: break;
    }
}
