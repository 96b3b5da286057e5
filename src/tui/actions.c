/* actions.c - what the keys do: steering, dialogs, export.
 *
 * Every typed value is validated before anything changes; a bad value only
 * produces a status-line message. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "ds_csv.h"
#include "flowstat.h"
#include "settings.h"
#include "sweep_view.h"
#include "tui.h"

void app_message(tui_app *app, int error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(app->msg, sizeof app->msg, fmt, ap);
    va_end(ap);
    app->msg_error = error;
    app->msg_until = session_now() + (error ? 8.0 : 5.0);
    session_log(&app->s, 0, error, "%s", app->msg);
}

tui_run *app_latest_run(const tui_app *app) { return app->s.n_runs ? app->s.runs[app->s.n_runs - 1] : NULL; }

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
    snprintf(buf, n, "%s-run%d-%s-%s-%s%g-flows.csv", r->net->name[0] ? r->net->name : "net", r->id,
             ds_solver_name(r->cfg.solver), ds_filter_name(r->cfg.filter), r->cfg.mu > 0 ? "mu" : "tau",
             r->cfg.mu > 0 ? r->cfg.mu : r->cfg.tau);
    /* one file in the current directory: a scenario's name (SiouxFalls~k2/7)
     * holds a slash */
    for (char *p = buf; *p; p++)
        if (*p == '/') *p = '-';
    (void)app;
}

/* "~/x" -> "$HOME/x", as a shell would have done; anything else as typed */
static const char *expand_home(const char *in, char *out, size_t n)
{
    const char *home = getenv("HOME");
    if (in[0] == '~' && (in[1] == '/' || !in[1]) && home && *home && snprintf(out, n, "%s%s", home, in + 1) < (int)n)
        return out;
    return in;
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
    if (!*path) {
        app_message(app, 1, "export: empty file name, nothing written");
        return;
    }
    /* the costs are computed from the flows (the session keeps flows only) */
    double *costs = malloc((size_t)(r->net->n_links ? r->net->n_links : 1) * sizeof *costs);
    if (!costs || session_run_costs(r, costs) != 0) {
        free(costs);
        app_message(app, 1, "export failed: %s", costs ? "the run has no flows" : "out of memory");
        return;
    }
    int wrote = ds_flows_write(path, r->net, r->flows, costs, &err);
    free(costs);
    if (wrote != 0) {
        ds_error_format(&err, msg, sizeof msg); /* (it says that nothing was written) */
        app_message(app, 1, "export failed: %s", msg);
        return;
    }
    history_name(path, hist, sizeof hist);
    char what[900], logmsg[1100] = "";
    int bad = 0;
    if (r->n < r->n_total) {
        snprintf(what, sizeof what,
                 "history not written: thinned to %zu of %zu records (only the %d latest runs keep "
                 "all)",
                 r->n, r->n_total, TUI_KEEP_FULL);
        bad = 1;
    } else if (ds_history_write_final(hist, r->rec, r->n, r->status, &err) != 0) {
        ds_error_format(&err, msg, sizeof msg);
        snprintf(what, sizeof what, "history failed: %s", msg);
        bad = 1;
    } else {
        snprintf(what, sizeof what, "history -> %s", hist);
    }
    if (app->runlog_path[0]) {
        if (runlog_write(app, app->runlog_path, &err) != 0) {
            ds_error_format(&err, msg, sizeof msg);
            snprintf(logmsg, sizeof logmsg, "; run log failed: %s", msg);
            bad = 1;
        } else {
            snprintf(logmsg, sizeof logmsg, ", run log -> %s", app->runlog_path);
        }
    }
    /* a cancelled or max-iter run's flows are its last finished iterate, not
     * an equilibrium: the message says so right after the path (the file
     * itself is plain, as solve's) */
    char st[64] = "";
    if (r->status != DS_STATUS_CONVERGED) snprintf(st, sizeof st, " (%s: not converged)", ds_status_name(r->status));
    app_message(app, bad, "run #%d: flows -> %s%s, %s%s", r->id, path, st, what, logmsg);
}

static void open_ref(tui_app *app, const char *path)
{
    /* the run F was pressed on: a queued run that starts while the prompt is
     * open, or a click, moves the selection */
    int idx = app->ref_pending;
    tui_run *r = idx >= 0 && idx < app->s.n_runs ? app->s.runs[idx] : NULL;
    ds_error err = {0};
    double *ref;
    char msg[700];
    if (!r || !r->flows) {
        app_message(app, 1, "the selected run has no flows to compare");
        return;
    }
    if (!*path) {
        app_message(app, 1, "no file given; nothing compared");
        return;
    }
    if (flowstat_read_ref(r->net, path, &ref, &err) != 0) {
        ds_error_format(&err, msg, sizeof msg);
        app_message(app, 1, "cannot read the reference: %s", msg);
        return;
    }
    free(app->ref_flow);
    app->ref_flow = ref;
    app->ref_net = r->net;
    app->ref_run = idx;
    snprintf(app->ref_path, sizeof app->ref_path, "%s", path);
    app->view = VIEW_REF;
    app->view_scroll = 0;
}

/* While the sweep viewer shows: the runs keep being polled and the queue
 * keeps starting runs. */
static void sweep_idle(void *ctx)
{
    tui_app *app = ctx;
    session_poll(&app->s);
    session_drain(&app->s);
    app_tick(app);
}

/* O: the sweep viewer (`dillsue tui --sweep DIR`) on this screen; q or
 * Escape comes back here, r on a cell starts that cell as a run. A bad path
 * only gives a message. */
static void open_sweep(tui_app *app, const char *path)
{
    char err[1200];
    if (!*path) {
        app_message(app, 1, "no directory given; no sweep opened");
        return;
    }
    static sweep_cell_request req; /* large */
    snprintf(app->sweep_dir, sizeof app->sweep_dir, "%s", path);
    int rc = sweep_view_embedded(path, app->gs == PLOT_ASCII, &tui_sig_quit, sweep_idle, app, &req, err, sizeof err);
    nodelay(stdscr, TRUE); /* the viewer waited in getch; the frame loop polls */
    clearok(curscr, TRUE);
    if (rc < 0)
        app_message(app, 1, "cannot open the sweep: %s", err);
    else if (rc == SWEEP_VIEW_OPEN_CELL)
        app_open_cell(app, &req, 0);
    else if (rc == 0)
        app_message(app, 0, "back from the sweep in %s", path);
}

/* The queue's axes: values of tau, filter and solver as typed; the queue is
 * their product (tau outermost, solver innermost). An axis with no values
 * keeps the next-run setting. */
#define QUEUE_AXES 3
typedef struct queue_spec {
    char val[QUEUE_AXES][TUI_QUEUE_MAX][24];
    int n[QUEUE_AXES];
} queue_spec;
static const char *const queue_axis[QUEUE_AXES] = {"tau", "filter", "solver"};

/* One typed value of an axis, checked as `solve` checks the option; 0 ok. */
static int queue_value(tui_app *app, queue_spec *q, int axis, const char *tok)
{
    char msg[300];
    ds_config probe = app->s.next;
    if (settings_set(settings_find(queue_axis[axis]), &probe, tok, msg, sizeof msg) != 0) {
        app_message(app, 1, "queue: %s", msg);
        return -1;
    }
    if (q->n[axis] == TUI_QUEUE_MAX || strlen(tok) >= sizeof q->val[0][0]) {
        app_message(app, 1, "queue: too many or too long values of %s; nothing queued", queue_axis[axis]);
        return -1;
    }
    snprintf(q->val[axis][q->n[axis]++], sizeof q->val[0][0], "%s", tok);
    return 0;
}

/* Words of the queue line into q: "tau LIST", "filter LIST", "solver LIST",
 * "filters" / "solvers" (every one), "x" (reads as a product sign). */
static int queue_words(tui_app *app, const char *b, queue_spec *q)
{
    char list[512], *save = NULL;
    int axis = -1;
    /* an empty item ("3,,10", "3,") is refused, as sweep's lists refuse it
     * (strtok would skip it) */
    for (const char *p = b; *p; p++)
        if (*p == ',') {
            const char *nx = p + 1, *pv = p;
            while (*nx == ' ') nx++;
            while (pv > b && pv[-1] == ' ') pv--;
            if (!*nx || *nx == ',' || pv == b) {
                app_message(app, 1, "queue: an empty item in a list (\"%.40s\"); nothing queued", b);
                return -1;
            }
        }
    snprintf(list, sizeof list, "%s", b);
    for (char *tok = strtok_r(list, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
        int kw = -1;
        for (int k = 0; k < QUEUE_AXES; k++)
            if (!strcmp(tok, queue_axis[k])) kw = k;
        if (kw >= 0) {
            axis = kw;
        } else if (!strcmp(tok, "solvers") || !strcmp(tok, "filters")) {
            int all = tok[0] == 's' ? 2 : 1, nall = all == 2 ? DS_SOLVER_N : DS_FILTER_N;
            for (int k = 0; k < nall; k++)
                if (queue_value(app, q, all,
                                all == 2 ? ds_solver_name((ds_solver_kind)k) : ds_filter_name((ds_filter)k)))
                    return -1;
            axis = -1;
        } else if (!strcmp(tok, "x")) {
            axis = -1;
        } else if (axis < 0) {
            app_message(app, 1,
                        "queue: \"%.40s\" is not tau, filter, solver, filters, solvers or clear "
                        "(e.g. \"tau 1,3,10 solvers\"); nothing queued",
                        tok);
            return -1;
        } else if (queue_value(app, q, axis, tok)) {
            return -1;
        }
    }
    return 0;
}

/* "tau 1,3,10,30,100", "solvers", "tau 3,10 solvers", "tau 3,10 solver newton,sra
 * filter full,dsp" (the product) or "clear" */
static void queue_parse(tui_app *app, const char *b)
{
    static queue_spec q;
    int n = 1;
    while (*b == ' ') b++;
    if (!strcmp(b, "clear")) {
        app->queue_n = app->queue_pos = 0;
        app_message(app, 0, "queue cleared");
        return;
    }
    memset(&q, 0, sizeof q);
    if (queue_words(app, b, &q)) return;
    for (int k = 0; k < QUEUE_AXES; k++) n *= q.n[k] ? q.n[k] : 1;
    if (!q.n[0] && !q.n[1] && !q.n[2]) {
        app_message(app, 1,
                    "queue: say e.g. \"tau 1,3,10,30,100\", \"solvers\", \"tau 3,10 solvers\" or \"clear\"; "
                    "nothing queued");
        return;
    }
    if (n > TUI_QUEUE_MAX) {
        app_message(app, 1, "queue: %d runs, at most %d; nothing queued", n, TUI_QUEUE_MAX);
        return;
    }
    n = 0;
    for (int i = 0; i < (q.n[0] ? q.n[0] : 1); i++)
        for (int f = 0; f < (q.n[1] ? q.n[1] : 1); f++)
            for (int m = 0; m < (q.n[2] ? q.n[2] : 1); m++) {
                ds_config c = app->s.next;
                char msg[300];
                const char *v[QUEUE_AXES] = {q.val[0][i], q.val[1][f], q.val[2][m]};
                for (int k = 0; k < QUEUE_AXES; k++)
                    if (q.n[k]) settings_set(settings_find(queue_axis[k]), &c, v[k], msg, sizeof msg); /* checked */
                app->queue_cfg[n++] = c;
            }
    app->queue_n = n;
    app->queue_pos = 0;
    app->queue_net = app->s.net; /* n or N while it runs must not move the rest of it to another network */
    app->queue_serial++;
    char key[32];
    app_message(app, 0, "queue %d: %d runs; they start one after another (%s compares them)", app->queue_serial, n,
                keys_label(&app->keys, ACT_LADDER, 0, "/", key, sizeof key));
}

static int s_n_runs(const tui_app *app) { return app->s.n_runs; }

static void prompt_accept(tui_app *app)
{
    const char *b = app->prompt_buf;
    char home[sizeof app->prompt_buf];
    const char *path = expand_home(b, home, sizeof home); /* for the prompts that take a file */
    tui_prompt_kind kind = app->prompt;
    ds_config *c = &app->s.next;
    long l;
    app->prompt = PROMPT_NONE;
    switch (kind) {
    case PROMPT_TAU:
    case PROMPT_TOL:
    case PROMPT_MAXITER:
    case PROMPT_THREADS: {
        static const char *const name[] = {
            [PROMPT_TAU] = "tau", [PROMPT_TOL] = "tol", [PROMPT_MAXITER] = "max_iter", [PROMPT_THREADS] = "threads"};
        char msg[300];
        int rc = settings_set(settings_find(name[kind]), c, b, msg, sizeof msg);
        if (rc == 0 && kind == PROMPT_TAU) snprintf(msg, sizeof msg, "tau = %g for the next run", c->tau);
        if (rc == 0 && kind == PROMPT_THREADS && c->threads == 0) snprintf(msg, sizeof msg, "threads = 0 (all cores)");
        app_message(app, rc != 0, "%s", msg);
        break;
    }
    case PROMPT_NET: {
        ds_error err = {0};
        char msg[700];
        if (!*b) {
            app_message(app, 1, "no path given; network unchanged");
            break;
        }
        app_message(app, 0, "loading %s ...", path);
        if (session_open(&app->s, path, NULL, &err) != 0) {
            ds_error_format(&err, msg, sizeof msg);
            app_message(app, 1, "cannot open network (unchanged): %s", msg);
        } else {
            app->s.warm_next = 0;
            app_message(app, 0, "network %s: %d nodes, %d links, %d OD pairs%s", app->s.net->name, app->s.net->n_nodes,
                        app->s.net->n_links, app->s.net->n_od,
                        app->s.reused ? " (the copy already loaded: the files are unchanged)" : "");
        }
        break;
    }
    case PROMPT_EXPORT: {
        char hist[600];
        struct stat st;
        history_name(path, hist, sizeof hist);
        if (*path && (stat(path, &st) == 0 || stat(hist, &st) == 0)) {
            /* an export replaces files whole: never without asking */
            snprintf(app->pending_path, sizeof app->pending_path, "%s", path);
            char label[sizeof app->prompt_label];
            snprintf(label, sizeof label, "%.40s exists: overwrite it and its history? y/n",
                     stat(path, &st) == 0 ? path : hist);
            prompt_open(app, PROMPT_OVERWRITE, label, "");
            break;
        }
        do_export(app, path);
        break;
    }
    case PROMPT_OVERWRITE:
        if (b[0] == 'y' || b[0] == 'Y')
            do_export(app, app->pending_path);
        else
            app_message(app, 0, "export cancelled: %s left as it was", app->pending_path);
        break;
    case PROMPT_REF: open_ref(app, path); break;
    case PROMPT_QUEUE: queue_parse(app, b); break;
    case PROMPT_SWEEP: open_sweep(app, path); break;
    case PROMPT_SCENARIO: {
        long k;
        unsigned long long seed;
        char *end, msg[700];
        ds_error err = {0};
        double before = (app->s.net == app->s.scen_net ? app->s.scen_base : app->s.net)->total_demand;
        errno = 0;
        k = strtol(b, &end, 10);
        if (end == b || k < 0 || k > INT_MAX || errno) {
            app_message(app, 1, "scenario: say K SEED (two whole numbers >= 0), got \"%s\"; unchanged", b);
            break;
        }
        while (*end == ' ') end++;
        if (*end < '0' || *end > '9') {
            app_message(app, 1, "scenario: say K SEED (two whole numbers >= 0), got \"%s\"; unchanged", b);
            break;
        }
        seed = strtoull(end, &end, 10);
        while (*end == ' ') end++;
        if (*end || errno) {
            app_message(app, 1, "scenario: say K SEED (two whole numbers >= 0), got \"%s\"; unchanged", b);
            break;
        }
        if (session_scenario(&app->s, (int)k, seed, &err) != 0) {
            ds_error_format(&err, msg, sizeof msg);
            app_message(app, 1, "scenario not made (network unchanged): %s", msg);
            break;
        }
        app->s.warm_next = 0;
        app_message(app, 0, "network %s: scenario %ld seed %llu of %s, demand %.6g -> %.6g", app->s.net->name, k, seed,
                    app->s.scen_base->name, before, app->s.net->total_demand);
        break;
    }
    case PROMPT_SETTING: {
        char msg[300];
        int rc = settings_set(app->setting_edit, c, b, msg, sizeof msg);
        app_message(app, rc != 0, "%s", msg);
        break;
    }
    case PROMPT_WARM_FROM: {
        tui_run *w;
        const char *why;
        if (!parse_long(b, &l)) { /* not a number: a flow CSV, as solve --warm */
            ds_error err = {0};
            char msg[700];
            if (session_warm_file(&app->s, path, &err) != 0) {
                ds_error_format(&err, msg, sizeof msg);
                app_message(app, 1, "warm start unchanged: %s", msg);
            } else {
                app_message(app, 0, "warm start on: the next run starts from the flows in %s", path);
            }
            break;
        }
        if (l < 0 || l > s_n_runs(app)) {
            app_message(app, 1,
                        "warm start: a run number 1..%d, 0 for the latest finished, or a flow CSV, got \"%s\"; "
                        "unchanged",
                        s_n_runs(app), b);
            break;
        }
        int keep = app->s.warm_from_id;
        app->s.warm_from_id = (int)l;
        if (!(w = session_warm_source(&app->s, &why))) {
            app->s.warm_from_id = keep;
            app_message(app, 1, "cannot warm start from %s%ld: %s; unchanged", l ? "run #" : "the latest run", l, why);
            break;
        }
        app->s.warm_next = 1;
        app_message(app, 0, "warm start on: the next run starts from the flows of run #%d%s", w->id,
                    l ? "" : " (latest)");
        break;
    }
    default: break;
    }
}

void app_prompt_key(tui_app *app, int ch)
{
    if (ch == 27) {
        app->prompt = PROMPT_NONE;
        app_message(app, 0, "cancelled; nothing changed");
        return;
    }
    if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) {
        prompt_accept(app);
        return;
    }
    if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        /* one character: a UTF-8 sequence's continuation bytes go with its lead byte */
        while (app->prompt_len > 0 && ((unsigned char)app->prompt_buf[app->prompt_len - 1] & 0xC0) == 0x80)
            app->prompt_len--;
        if (app->prompt_len > 0) app->prompt_len--;
        app->prompt_buf[app->prompt_len] = 0;
        return;
    }
    if (ch == 21) {
        app->prompt_len = 0;
        app->prompt_buf[0] = 0;
        return;
    } /* Ctrl-U */
    /* getch passes a UTF-8 character (a path under /home/jürgen) byte by byte,
     * 128..255; those bytes were dropped, so such a path could not be typed */
    if (((ch >= 32 && ch < 127) || (ch >= 128 && ch <= 255)) && app->prompt_len < (int)sizeof app->prompt_buf - 1) {
        app->prompt_buf[app->prompt_len++] = (char)ch;
        app->prompt_buf[app->prompt_len] = 0;
    }
}

static void toggle_compare(tui_app *app)
{
    int i = app->sel;
    if (i < 0 || i >= app->s.n_runs) {
        app_message(app, 1, "no run selected");
        return;
    }
    if (app->cmp[0] == i) {
        app->cmp[0] = app->cmp[1];
        app->cmp[1] = -1;
        return;
    }
    if (app->cmp[1] == i) {
        app->cmp[1] = -1;
        return;
    }
    if (app->cmp[0] < 0)
        app->cmp[0] = i;
    else {
        app->cmp[1] = i;
        app->show_compare = 1;
        char close[32];
        app_message(app, 0, "comparing run #%d with run #%d (%s closes)", app->cmp[0] + 1, i + 1,
                    keys_label(&app->keys, ACT_CLOSE, 1, " or ", close, sizeof close));
        return;
    }
    char ck[32];
    if (!app->show_compare)
        app_message(app, 0, "run #%d marked; mark one more with %s to compare", i + 1,
                    keys_label(&app->keys, ACT_COMPARE, 0, "/", ck, sizeof ck));
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

static tui_run *start_run(tui_app *app)
{
    ds_error err = {0};
    char msg[700], wf[32] = "", disp[40];
    tui_run *r = session_start(&app->s, &err);
    if (!r) {
        ds_error_format(&err, msg, sizeof msg);
        app_message(app, 1, "cannot start: %s", msg);
        return NULL;
    }
    app->sel = app->s.n_runs - 1;
    if (r->warm) snprintf(wf, sizeof wf, " (warm from #%d)", r->warm_from);
    app_message(app, 0, "run #%d started: %s %s %s%s", r->id, ds_solver_name(r->cfg.solver),
                ds_filter_name(r->cfg.filter), runinfo_disp(&r->cfg, 0, disp, sizeof disp), wf);
    return r;
}

/* Start a run with cfg instead of the next-run settings (those stay). */
static tui_run *start_with(tui_app *app, const ds_config *cfg)
{
    ds_config keep = app->s.next;
    app->s.next = *cfg;
    tui_run *r = start_run(app);
    app->s.next = keep;
    return r;
}

/* Free the networks nothing uses any more (session_collect): the app's own
 * holders are the queue's network while runs of it are still to start, the
 * sweep cell's network (the next cell of the sweep reuses it) and the
 * reference comparison's network while it has flows. Called once a frame
 * loop turn, where no caller holds a network pointer. */
static void collect_networks(tui_app *app)
{
    if (app->queue_pos >= app->queue_n) app->queue_net = NULL;
    if (!app->ref_flow) app->ref_net = NULL;
    const ds_network *keep[] = {app->queue_net, app->cell_net, app->ref_net};
    session_collect(&app->s, keep, (int)(sizeof keep / sizeof keep[0]));
}

void app_tick(tui_app *app)
{
    tui_session *s = &app->s;
    /* engine messages (lost demand, a start-point fallback, an eDSP refresh)
     * also show on the status line, not only in the log; set-up steps do not */
    long total = session_log_total(s), first = total - session_log_count(s);
    if (app->log_seen < first) app->log_seen = first;
    for (; app->log_seen < total; app->log_seen++) {
        tui_log_entry e;
        if (!session_log_get(s, app->log_seen - first, &e) || !e.run_id || !strncmp(e.text, "setting up: ", 12) ||
            !strncmp(e.text, "run #", 5))
            continue;
        snprintf(app->msg, sizeof app->msg, "#%d: %.490s", e.run_id, e.text);
        app->msg_error = e.level;
        app->msg_until = session_now() + 5.0;
    }
    for (int i = 0; i < s->n_runs; i++) {
        tui_run *r = s->runs[i];
        char el[32], gap[32], pos[32] = "", why[48] = "", vk[32];
        if (!r->joined || r->announced) continue;
        r->announced = 1;
        runinfo_time(r, el, sizeof el);
        runinfo_gap(r, gap, sizeof gap);
        if (app->queue_n && app->queue_pos <= app->queue_n)
            snprintf(pos, sizeof pos, " [queue %d/%d]", app->queue_pos, app->queue_n);
        if (r->status != DS_STATUS_CONVERGED) /* the details key in force (bind.details) */
            snprintf(why, sizeof why, " (%s: why)", keys_label(&app->keys, ACT_DETAILS, 0, "/", vk, sizeof vk));
        app_message(app, r->status != DS_STATUS_CONVERGED && r->status != DS_STATUS_CANCELLED,
                    "run #%d %s: %d iterations, gap %s, %s%s%s", r->id, ds_status_name(r->status),
                    r->n ? r->rec[r->n - 1].iter : 0, gap, el, why, pos);
        if (app->notify) {
            char title[160];
            beep();
            snprintf(title, sizeof title, "\033]2;dillsue: run #%d %s\007", r->id, ds_status_name(r->status));
            putp(title);
        }
    }
    if (app->queue_pos < app->queue_n && !session_active(s)) {
        const ds_config *c = &app->queue_cfg[app->queue_pos++];
        /* the selection follows the queue only where it was on the latest
         * run: a run picked out to read, export or compare stays selected
         * (each queued start took it, and x, v, c, R, F then acted on the new
         * run); the run goes on the queue's network, not one opened since */
        int keep_sel = app->sel, follow = app->sel < 0 || app->sel >= s->n_runs - 1;
        ds_network *keep_net = s->net;
        if (app->queue_net) s->net = app->queue_net;
        tui_run *r = start_with(app, c);
        s->net = keep_net;
        if (!follow) app->sel = keep_sel;
        if (r)
            r->queue = app->queue_serial;
        else
            app->queue_n = app->queue_pos = 0; /* start_with said why */
    }
    if (app->queue_n && app->queue_pos >= app->queue_n && !session_active(s)) app->queue_n = app->queue_pos = 0;
    collect_networks(app);
}

/* Runs: start, pause, abort, re-run, copy, select, show, compare, save, quit. */
static int act_runs(tui_app *app, tui_action act)
{
    tui_session *s = &app->s;
    tui_run *active = session_active(s);
    switch (act) {
    case ACT_QUIT: app->quit = 1; break;
    case ACT_START: start_run(app); break;
    case ACT_PAUSE:
        if (!active) {
            app_message(app, 1, "no run is going");
            break;
        }
        ds_run_pause(active->run, !ds_run_is_paused(active->run));
        app_message(app, 0, "run #%d %s", active->id,
                    ds_run_is_paused(active->run) ? "paused (its clock stops too)" : "resumed");
        break;
    case ACT_ABORT:
        if (!active) {
            app_message(app, 1, "no run is going");
            break;
        }
        /* sent in every phase, set-up included: the engine's loader looks at
         * the flag once a destination in every set-up search (Austin-SDB:
         * the run ended 45-80 ms after the key in reachability, 100 ms in
         * the filter DAGs, screen polling included), not only between steps */
        ds_run_cancel(active->run);
        ds_run_pause(active->run, 0);
        const char *when =
            session_run_phase(active, NULL, NULL, 0) <= 1 ? " (set-up stops at its next destination)" : "";
        if (app->queue_n) {
            app_message(app, 0, "run #%d: cancel requested%s; queue of %d cleared", active->id, when,
                        app->queue_n - app->queue_pos);
            app->queue_n = app->queue_pos = 0;
        } else {
            app_message(app, 0, "run #%d: cancel requested%s", active->id, when);
        }
        break;
    case ACT_RERUN: {
        tui_run *r = app->sel >= 0 && app->sel < s->n_runs ? s->runs[app->sel] : NULL;
        if (!r) {
            app_message(app, 1, "no run selected");
            break;
        }
        if (r->net != s->net) {
            app_message(app, 1, "run #%d is on another network (%s)", r->id, r->net->name);
            break;
        }
        /* the run's own start, not the next: line's warm setting (a cold run
         * re-ran warm, in 0 iterations, where w was on) */
        int keep_next = s->warm_next, keep_from = s->warm_from_id;
        if (!r->warm)
            s->warm_next = 0;
        else if (r->warm_from > 0)
            s->warm_next = 1, s->warm_from_id = r->warm_from;
        else if (s->warm_file && s->warm_file_net == s->net && !strcmp(s->warm_file_path, r->warm_path))
            s->warm_next = 1, s->warm_from_id = -1;
        else {
            char wk[32];
            app_message(
                app, 1, "run #%d started from the flow file %s, no longer the warm start: %s %s chooses it again",
                r->id, r->warm_path, keys_label(&app->keys, ACT_WARM_FROM, 0, "/", wk, sizeof wk), r->warm_path);
            break;
        }
        start_with(app, &r->cfg);
        s->warm_next = keep_next, s->warm_from_id = keep_from;
        break;
    }
    case ACT_COPY: {
        tui_run *r = app->sel >= 0 && app->sel < s->n_runs ? s->runs[app->sel] : NULL;
        if (!r) {
            app_message(app, 1, "no run selected");
            break;
        }
        s->next = r->cfg;
        app_message(app, 0, "next run: the settings of run #%d", r->id);
        break;
    }
    case ACT_UP:
        if (app->sel > 0) app->sel--;
        break;
    case ACT_DOWN:
        if (app->sel < s->n_runs - 1) app->sel++;
        break;
    case ACT_PGUP:
    case ACT_PGDN: { /* (a view open takes them first: view_key) */
        /* a page of the run list: 300 runs were 300 presses of Up */
        int page = app->runs_rows > 1 ? app->runs_rows - 1 : 1;
        app->sel += act == ACT_PGUP ? -page : page;
        if (app->sel > s->n_runs - 1) app->sel = s->n_runs - 1;
        if (app->sel < 0) app->sel = s->n_runs ? 0 : -1;
        break;
    }
    case ACT_SHOW:
        if (app->sel >= 0 && app->sel < s->n_runs) s->runs[app->sel]->shown ^= 1;
        break;
    case ACT_COMPARE: toggle_compare(app); break;
    case ACT_SAVE: save_config(app); break;
    default: return 0;
    }
    return 1;
}

/* The next run's settings: tau, filter, solver, threads, backend, tol,
 * iterations, warm start. */
static int act_next(tui_app *app, tui_action act)
{
    tui_session *s = &app->s;
    ds_config *c = &s->next;
    char buf[600];
    switch (act) {
    case ACT_TAU:
        /* the exact value (the settings view's spelling): "%g" kept 6 digits,
         * so Enter on the unchanged prompt rounded tau from the file */
        tui_settings[settings_find("tau")].get(c, buf, sizeof buf);
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
    case ACT_WARM_FROM:
        snprintf(buf, sizeof buf, "%d", s->warm_from_id);
        if (s->warm_from_id < 0) snprintf(buf, sizeof buf, "%s", s->warm_file_path);
        prompt_open(app, PROMPT_WARM_FROM, "warm start from run # (0 = latest) or flow CSV", buf);
        break;
    case ACT_BACKEND:
        c->backend = (ds_backend)((c->backend + 1) % DS_BACKEND_N);
        app_message(app, 0, "backend = %s", ds_backend_name(c->backend));
        break;
    case ACT_TOL:
        tui_settings[settings_find("tol")].get(c, buf, sizeof buf);
        prompt_open(app, PROMPT_TOL, "tolerance on gap_rel", buf);
        break;
    case ACT_MAXITER:
        snprintf(buf, sizeof buf, "%d", c->max_iter);
        prompt_open(app, PROMPT_MAXITER, "max iterations", buf);
        break;
    case ACT_WARM: {
        const char *why;
        tui_run *w;
        s->warm_next = !s->warm_next;
        if (!s->warm_next)
            app_message(app, 0, "warm start off");
        else if (s->warm_from_id < 0)
            app_message(app, 0, "warm start on: from the flows in %s", s->warm_file_path);
        else if (!(w = session_warm_source(s, &why)))
            app_message(app, 0, "warm start on, but %s yet", why);
        else
            app_message(app, 0, "warm start on: from the flows of run #%d (%s chooses another)", w->id,
                        keys_label(&app->keys, ACT_WARM_FROM, 0, "/", buf, sizeof buf));
        break;
    }
    default: return 0;
    }
    return 1;
}

/* Dialogs that open files and directories, or queue runs. */
static int act_dialogs(tui_app *app, tui_action act)
{
    tui_session *s = &app->s;
    char buf[600];
    switch (act) {
    case ACT_REF: {
        tui_run *r = app->sel >= 0 && app->sel < s->n_runs ? s->runs[app->sel] : NULL;
        if (!r || !r->flows) {
            app_message(app, 1, "select a finished run first");
            break;
        }
        /* a sweep's cell: the sweep's flows of it; else X_net.tntp ->
         * X_flow.tntp, the TNTP reference next to the network */
        const char *np = r->net->net_path, *suf = strstr(np, "_net.tntp");
        if (r->origin_flows[0])
            snprintf(buf, sizeof buf, "%.599s", r->origin_flows); /* the prompt keeps 511 characters */
        else if (suf)
            snprintf(buf, sizeof buf, "%.*s_flow.tntp", (int)(suf - np), np);
        else
            buf[0] = 0;
        app->ref_pending = app->sel;
        prompt_open(app, PROMPT_REF, "reference flows (_flow.tntp or flow CSV)", buf);
        break;
    }
    case ACT_SCENARIO:
        prompt_open(app, PROMPT_SCENARIO, "scenario K SEED (as solve --scenario K --seed SEED)", "1 1");
        break;
    case ACT_QUEUE:
        prompt_open(app, PROMPT_QUEUE, "queue (tau 1,3,10,30,100 | solvers | tau 3,10 solvers | clear)",
                    "tau 1,3,10,30,100");
        break;
    case ACT_SWEEP: prompt_open(app, PROMPT_SWEEP, "sweep directory (dillsue sweep --out DIR)", app->sweep_dir); break;
    case ACT_NET: prompt_open(app, PROMPT_NET, "network file", s->net ? s->net->net_path : ""); break;
    case ACT_EXPORT: {
        tui_run *r = app->sel >= 0 && app->sel < s->n_runs ? s->runs[app->sel] : NULL;
        if (!r) {
            app_message(app, 1, "no run to export");
            break;
        }
        if (!r->joined) {
            app_message(app, 1, "run #%d has not finished", r->id);
            break;
        }
        if (!r->flows) {
            app_message(app, 1, "run #%d has no flows (%s)", r->id, ds_status_name(r->status));
            break;
        }
        app->export_run = app->sel;
        default_export_name(app, r, buf, sizeof buf);
        prompt_open(app, PROMPT_EXPORT, "export flows to", buf);
        break;
    }
    default: return 0;
    }
    return 1;
}

/* What the screen shows: views, plot, help, mouse, bell. */
static int act_display(tui_app *app, tui_action act)
{
    switch (act) {
    case ACT_SETTINGS: app->view = app->view == VIEW_SETTINGS ? VIEW_NONE : VIEW_SETTINGS; break;
    case ACT_DETAILS:
        app->view = app->view == VIEW_DETAILS ? VIEW_NONE : VIEW_DETAILS;
        app->view_scroll = 0;
        break;
    case ACT_LOG:
        app->view = app->view == VIEW_LOG ? VIEW_NONE : VIEW_LOG;
        app->view_scroll = -1;
        break;
    case ACT_LADDER:
        app->view = app->view == VIEW_LADDER ? VIEW_NONE : VIEW_LADDER;
        app->view_scroll = 0;
        app->view_hscroll = 0;
        break;
    case ACT_XAXIS: {
        static const char *const xn[XAXIS_N] = {"iterations", "iterations (log)", "loading-map evaluations",
                                                "wall time (engine clock)"};
        app->xaxis = (tui_xaxis)((app->xaxis + 1) % XAXIS_N);
        app_message(app, 0, "plot x axis: %s", xn[app->xaxis]);
        break;
    }
    case ACT_NOTIFY:
        app->notify = !app->notify;
        app_message(app, 0, "bell and terminal title when a run ends: %s", app->notify ? "on" : "off");
        break;
    case ACT_MOUSE:
        app->mouse = !app->mouse;
        mousemask(app->mouse ? BUTTON1_CLICKED | BUTTON1_PRESSED : 0, NULL);
        app_message(app, 0,
                    app->mouse ? "mouse on: click a run to select it, a legend entry to hide its curve "
                                 "(Shift+drag still selects text in most terminals)"
                               : "mouse off: the terminal's own selection works again");
        break;
    case ACT_TAB: app->side_first = (app->side_first + 1) % TUI_SIDE_N; break;
    case ACT_GLYPHS:
        app->gs = (plot_glyphset)((app->gs + 1) % PLOT_GLYPHSET_N);
        app_message(app, 0, "plot glyphs: %s", plot_glyphset_name(app->gs));
        break;
    case ACT_HELP:
        app->show_help = !app->show_help;
        app->help_page = 0;
        break;
    case ACT_REDRAW: clearok(curscr, TRUE); break;
    case ACT_CLOSE:
        app->show_help = 0;
        app->view = VIEW_NONE;
        if (app->show_compare) {
            app->show_compare = 0;
            app->cmp[0] = app->cmp[1] = -1;
        }
        break;
    default: return 0;
    }
    return 1;
}

void app_action(tui_app *app, tui_action act)
{
    if (act_runs(app, act) || act_next(app, act) || act_dialogs(app, act)) return;
    act_display(app, act);
}
