/* tui_main.c - options, start-up and the frame loop of the ncurses front end.
 *
 * The loop sleeps in poll() on the terminal and the wake pipe; the timeout is
 * the time left to the next frame. A frame is drawn only when something
 * changed (new telemetry, a key, a resize, the clock of a running run) and at
 * most once per --delay milliseconds (default 100: 10 frames a second), with
 * one doupdate(). While a frame is pending the wake pipe is not watched, so
 * a fast engine cannot make the UI spin. */
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../cli/cli.h"
#include "config.h"
#include "ds_csv.h"
#include "settings.h"
#include "sweep_view.h"
#include "termcheck.h"
#include "tui.h"

static const tui_panel tui_panels[TUI_P_N] = {
    [TUI_P_HEADER] = {"header", panel_header_draw},
    [TUI_P_RESIDUALS] = {"residuals", panel_residuals_draw},
    [TUI_P_SAFEGUARDS] = {"safeguards", panel_safeguards_draw},
    [TUI_P_TIMINGS] = {"timings", panel_timings_draw},
    [TUI_P_MASK] = {"mask", panel_mask_draw},
    [TUI_P_LINKS] = {"links", panel_links_draw},
    [TUI_P_RUNS] = {"runs", panel_runs_draw},
    [TUI_P_STATUS] = {"status", panel_status_draw},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: dillsue tui [--net NET] [--trips TRIPS] [--tau T] [--filter full|dsp|bfs|edsp]\n"
               "                   [--solver msa|sra|anderson|newton] [--threads N] [--ascii]\n"
               "                   [--no-color | --no-colour] [--delay MS] [--config FILE | --no-config]\n"
               "                   [--runlog FILE | --no-runlog] [--help]\n"
               "       dillsue tui --sweep DIR [--ascii] [--no-color] [--delay MS] [--threads N]\n"
               "                   [--config FILE | --no-config] [--runlog FILE | --no-runlog]\n"
               "Without --net the embedded default network is opened. Press ? inside for keys.\n"
               "--delay MS is the minimum time between screen updates (default 100; raise it on\n"
               "slow links such as SSH over a mobile line: a frame is drawn only when something\n"
               "changed and only the changed cells are sent). NO_COLOR in the environment also\n"
               "turns colour off.\n"
               "On quit (and on x) every run of the session is written as CSV to the run log,\n"
               "$XDG_STATE_HOME/dillsue/runs-DATE-TIME-PID.csv (default ~/.local/state/dillsue/),\n"
               "or --runlog FILE; --no-runlog writes none. Ctrl-C quits with status 130.\n"
               "Settings and key bindings come from $XDG_CONFIG_HOME/dillsue/config (default\n"
               "~/.config/dillsue/config) or --config FILE; options given here override it.\n"
               "S inside saves the current settings there. --no-config reads no file.\n"
               "dillsue tui --sweep DIR watches a sweep directory (docs/sweep.md); O inside the TUI\n"
               "opens one on the same screen. r on a cell there opens the cell as a run of the\n"
               "TUI (its network, scenario and settings: the sweep's flows, bit for bit); with\n"
               "--sweep, --delay is the viewer's refresh (default 1000; it takes 10 to 60000 and\n"
               "a value below 100 is taken as 100) and --threads, --config\n"
               "and --runlog apply to that TUI.\n");
}

typedef struct tui_opts {
    const char *net, *trips;
    double tau;
    int filter, solver, threads;
    int ascii, no_color, delay_ms; /* delay_ms -1 = not given */
    const char *config;            /* --config FILE, NULL = the default path */
    int no_config;
    const char *runlog; /* --runlog FILE */
    int no_runlog;
    const char *sweep; /* --sweep DIR: the sweep viewer */
    int n_given;       /* options given */
} tui_opts;

/* The options through the program's one option table and parser
 * (src/cli/opts.c), so `--tau=3` and `--tau 3` are read, and checked, as by
 * every other command. */
static int parse_opts(int argc, char **argv, tui_opts *o)
{
    cli_values v;
    *o = (tui_opts){NULL, NULL, -1, -1, -1, -1, 0, 0, -1, NULL, 0, NULL, 0, NULL, 0};
    int rc = cli_parse("tui", argc, argv, &v, NULL);
    if (rc == 1) {
        usage(stdout);
        return 1;
    }
    if (rc) return rc;
    o->net = v.str[OPT_NET];
    o->trips = v.str[OPT_TRIPS];
    o->config = v.str[OPT_CONFIG];
    o->runlog = v.str[OPT_RUNLOG];
    if (v.have[OPT_TAU]) o->tau = v.num[OPT_TAU];
    if (v.have[OPT_FILTER]) o->filter = (int)v.num[OPT_FILTER];
    if (v.have[OPT_SOLVER]) o->solver = (int)v.num[OPT_SOLVER];
    if (v.have[OPT_THREADS]) o->threads = (int)v.num[OPT_THREADS];
    if (v.have[OPT_DELAY]) o->delay_ms = (int)v.num[OPT_DELAY];
    o->ascii = v.have[OPT_ASCII];
    o->no_color = v.have[OPT_NO_COLOR] || v.have[OPT_NO_COLOUR];
    o->no_config = v.have[OPT_NO_CONFIG];
    o->no_runlog = v.have[OPT_NO_RUNLOG];
    o->sweep = v.str[OPT_SWEEP_VIEW];
    if (o->sweep) {
        /* the viewer draws a sweep directory: how it draws can be set, and
         * what the TUI that r opens on a cell uses besides the cell's own
         * network and settings */
        for (int k = 0; k < OPT_N; k++)
            if (v.have[k] && k != OPT_SWEEP_VIEW && k != OPT_ASCII && k != OPT_DELAY && k != OPT_NO_COLOR &&
                k != OPT_NO_COLOUR && k != OPT_THREADS && k != OPT_CONFIG && k != OPT_NO_CONFIG && k != OPT_RUNLOG &&
                k != OPT_NO_RUNLOG) {
                fprintf(stderr,
                        "dillsue tui: --%s has no meaning with --sweep (which takes --ascii, --no-color, --delay, "
                        "--threads, --config, --no-config, --runlog and --no-runlog)\n",
                        cli_opts[k].name);
                return 2;
            }
    }
    /* as solve, load, info and sweep refuse it: the embedded network was
     * opened and the trips file dropped without a word */
    if (o->trips && !o->net && !o->sweep) return cli_usage("tui", "--trips needs --net");
    if (o->config && o->no_config) {
        fprintf(stderr, "dillsue tui: --config and --no-config exclude each other\n");
        return 2;
    }
    if (o->runlog && o->no_runlog) {
        fprintf(stderr, "dillsue tui: --runlog and --no-runlog exclude each other\n");
        return 2;
    }
    return 0;
}

static void draw_too_small(tui_app *app)
{
    char msg[96];
    int n = snprintf(msg, sizeof msg, "terminal too small: need %dx%d, have %dx%d", TUI_MIN_W, TUI_MIN_H, app->lo.w,
                     app->lo.h);
    if (n > app->lo.w) /* the short form where the long one would be cut (40 columns lost "12") */
        n = snprintf(msg, sizeof msg, "too small: %dx%d, need %dx%d", app->lo.w, app->lo.h, TUI_MIN_W, TUI_MIN_H);
    int y = app->lo.h / 2, x = (app->lo.w - n) / 2;
    mvaddnstr(y < 0 ? 0 : y, x < 0 ? 0 : x, msg, app->lo.w);
}

static void draw_frame(tui_app *app)
{
    erase();
    tui_layout_compute(COLS, LINES, app->side_first, &app->lo);
    if (app->lo.too_small) {
        draw_too_small(app);
    } else {
        for (int i = 0; i < TUI_P_N; i++)
            if (app->lo.p[i].w > 0 && tui_panels[i].draw) tui_panels[i].draw(app, app->lo.p[i]);
        if (app->show_compare) panel_compare_draw(app);
        view_draw(app);
        if (app->show_help) panel_help_draw(app);
    }
    wnoutrefresh(stdscr);
    doupdate();
}

/* Mouse (M turns it on): a click on a run row selects the run, a click on a
 * legend entry of the plot shows / hides that run's curve. */
static void handle_mouse(tui_app *app)
{
    MEVENT ev;
    if (getmouse(&ev) != OK) return;
    tui_rect rr = app->lo.p[TUI_P_RUNS];
    if (ev.y >= rr.y + 3 && ev.y < rr.y + rr.h - 1 && ev.x >= rr.x && ev.x < rr.x + rr.w) {
        int i = app->runs_first + (ev.y - rr.y - 3);
        if (i >= 0 && i < app->s.n_runs) app->sel = i;
        return;
    }
    for (int k = 0; k < app->legend_n; k++)
        if (ev.y == app->legend_y && ev.x >= app->legend[k][0] && ev.x < app->legend[k][1] &&
            app->legend[k][2] < app->s.n_runs) {
            app->s.runs[app->legend[k][2]]->shown ^= 1;
            return;
        }
}

static void handle_key(tui_app *app, int ch)
{
    if (ch == KEY_RESIZE) return;
    if (ch == KEY_MOUSE) {
        handle_mouse(app);
        return;
    }
    if (app->prompt) {
        app_prompt_key(app, ch);
        return;
    }
    tui_action act = keys_lookup(&app->keys, ch);
    if (app->view && !app->show_help && view_key(app, act, ch)) return;
    if (act == ACT_NONE && (ch == KEY_HOME || ch == KEY_END) && !app->view && !app->show_help && app->s.n_runs) {
        app->sel = ch == KEY_HOME ? 0 : app->s.n_runs - 1; /* the run list's first / latest run */
        return;
    }
    if (act == ACT_NONE) return;
    /* With an overlay open, only keys that make sense there pass. */
    if (app->show_help && act == ACT_HELP && app->help_page + 1 < app->help_pages) {
        app->help_page++; /* the next page of keys (small terminals) */
        return;
    }
    if (app->show_help && act != ACT_QUIT) {
        app->show_help = 0;
        if (act == ACT_HELP || act == ACT_CLOSE) return;
    }
    app_action(app, act);
}

static int run_loop(tui_app *app)
{
    double frame_dt = app->delay_ms / 1000.0, last_frame = -1e9;
    /* --delay spaces the frames the engine's data cause; a key's frame is
     * drawn at once (at --delay 5000 a prompt showed 4 s after its key) */
    int dirty = 1, msg_shown = 0, key_frame = 0;
    while (!app->quit) {
        if (tui_sig_quit) break;
        if (session_poll(&app->s)) dirty = 1;
        app_tick(app);
        double now = session_now();
        tui_run *active = session_active(&app->s);
        /* the clock of a running run ticks once a second (set-up progress four
         * times a second); messages expire */
        if (active && now - last_frame >= (session_run_phase(active, NULL, NULL, 0) <= 1 ? 0.25 : 1.0)) dirty = 1;
        if (msg_shown && now >= app->msg_until) {
            dirty = 1;
            msg_shown = 0;
        }
        if (dirty && (key_frame || now - last_frame >= frame_dt)) {
            draw_frame(app);
            last_frame = now;
            dirty = key_frame = 0;
            msg_shown = app->msg[0] && now < app->msg_until;
        }
        int timeout;
        if (dirty)
            timeout = (int)((frame_dt - (now - last_frame)) * 1000) + 1;
        else if (active)
            timeout =
                (int)(((session_run_phase(active, NULL, NULL, 0) <= 1 ? 0.25 : 1.0) - (now - last_frame)) * 1000) + 1;
        else
            timeout = 250; /* notices resizes that arrive between polls */
        if (msg_shown) {
            int t = (int)((app->msg_until - now) * 1000) + 1;
            if (t < timeout) timeout = t;
        }
        if (timeout < 1) timeout = 1;
        struct pollfd pf[2] = {{STDIN_FILENO, POLLIN, 0}, {app->s.wake_fd[0], POLLIN, 0}};
        poll(pf, dirty ? 1 : 2, timeout);
        if (term_gone(pf[0].revents)) { /* as SIGHUP: the run log, status 129 */
            if (!tui_sig_quit) tui_sig_quit = SIGHUP;
            break;
        }
        if (pf[1].revents) session_drain(&app->s);
        int ch;
        while ((ch = getch()) != ERR) {
            handle_key(app, ch);
            dirty = key_frame = 1;
            if (app->quit) break;
        }
    }
    return 0;
}

static plot_glyphset pick_glyphs(void)
{
    const char *cs = nl_langinfo(CODESET);
    if (cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"))) {
        /* The Linux console has no braille font; half blocks it has. */
        const char *term = getenv("TERM");
        return term && !strcmp(term, "linux") ? PLOT_BLOCK : PLOT_BRAILLE;
    }
    return PLOT_ASCII;
}

/* The config file, if any: app->config_path set (empty with --no-config),
 * problems (or a note) formatted into note. */
static void load_config(tui_app *app, const tui_opts *o, tui_config *cfg, char *note, size_t n)
{
    char save_key[32];
    config_init(cfg);
    note[0] = 0;
    app->config_path[0] = 0;
    if (o->no_config) return;
    if (o->config)
        snprintf(app->config_path, sizeof app->config_path, "%s", o->config);
    else if (config_default_path(app->config_path, sizeof app->config_path) != 0) {
        app->config_path[0] = 0;
        snprintf(note, n, "no config file: neither XDG_CONFIG_HOME nor HOME is an absolute directory");
        return;
    }
    if (config_load(cfg, app->config_path) == 1 && o->config)
        snprintf(note, n, "%.900s does not exist yet; %s saves the settings there", app->config_path,
                 keys_label(&cfg->keys, ACT_SAVE, 0, "/", save_key, sizeof save_key));
    if (cfg->n_problems) config_problems_format(cfg, app->config_path, note, n);
}

/* $XDG_STATE_HOME/dillsue/runs-DATE-TIME-PID.csv (else ~/.local/state/...), or
 * --runlog. The process id keeps sessions started in the same second apart
 * (each rewrote the other's log: two of three were lost). */
static void runlog_path(tui_app *app, const tui_opts *o)
{
    const char *st = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    char stamp[32];
    time_t now = time(NULL);
    struct tm tm;
    app->runlog_path[0] = 0;
    if (o->no_runlog) return;
    if (o->runlog) {
        snprintf(app->runlog_path, sizeof app->runlog_path, "%s", o->runlog);
        return;
    }
    localtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    if (st && st[0] == '/')
        snprintf(app->runlog_path, sizeof app->runlog_path, "%s/dillsue/runs-%s-%ld.csv", st, stamp, (long)getpid());
    else if (home && home[0] == '/')
        snprintf(app->runlog_path, sizeof app->runlog_path, "%s/.local/state/dillsue/runs-%s-%ld.csv", home, stamp,
                 (long)getpid());
}

/* Built-in defaults, then the config file, then the command line. */
static void apply_settings(tui_app *app, const tui_config *cfg, const tui_opts *o)
{
    ds_config *n = &app->s.next;
    if (cfg->tau > 0) {
        n->tau = cfg->tau;
        n->mu = 0;
    }
    if (cfg->tol > 0) n->tol = cfg->tol;
    if (cfg->filter >= 0) n->filter = (ds_filter)cfg->filter;
    if (cfg->solver >= 0) n->solver = (ds_solver_kind)cfg->solver;
    if (cfg->backend >= 0) n->backend = (ds_backend)cfg->backend;
    if (cfg->threads >= 0) n->threads = cfg->threads;
    if (cfg->max_iter >= 0) n->max_iter = cfg->max_iter; /* (-1: not in the file; 0 is solve's --max-iter 0) */
    for (int i = 0; i < tui_n_settings; i++)
        if (cfg->opts_set >> i & 1) tui_settings[i].copy(n, &cfg->opts);
    app->keys = cfg->keys;
    app->want_color = cfg->color != 0;
    app->delay_ms = cfg->delay_ms > 0 ? cfg->delay_ms : 100;
    app->gs = cfg->glyphs >= 0 ? (plot_glyphset)cfg->glyphs : pick_glyphs();
    if (cfg->xaxis >= 0) app->xaxis = (tui_xaxis)cfg->xaxis;
    if (cfg->notify >= 0) app->notify = cfg->notify;
    if (cfg->mouse >= 0) app->mouse = cfg->mouse;

    if (o->tau > 0) {
        n->tau = o->tau;
        n->mu = 0;
    }
    if (o->filter >= 0) n->filter = (ds_filter)o->filter;
    if (o->solver >= 0) n->solver = (ds_solver_kind)o->solver;
    if (o->threads >= 0) n->threads = o->threads;
    if (o->no_color) app->want_color = 0;
    if (o->delay_ms > 0) app->delay_ms = o->delay_ms;
    if (o->ascii) app->gs = PLOT_ASCII;
}

int tui_main(int argc, char **argv)
{
    static tui_app app; /* static: signal-time cleanup never sees a dangling stack object */
    static tui_config cfg;
    tui_opts o;
    ds_error err = {0};
    char msg[700], note[1024];
    int rc = parse_opts(argc, argv, &o);
    if (rc) return rc == 1 ? 0 : 2;
    static sweep_cell_request req;
    int open_cell = 0;
    if (o.sweep) { /* dillsue tui --sweep DIR: the sweep viewer, its own screen */
        rc = sweep_view_run(o.sweep, o.ascii, o.delay_ms > 0 ? o.delay_ms : 1000, &req);
        if (rc != SWEEP_VIEW_OPEN_CELL) return rc;
        /* r on a cell: the main TUI on the sweep's network, the cell running
         * (its --delay was the viewer's) */
        o.net = req.net;
        o.trips = req.trips[0] ? req.trips : NULL;
        o.delay_ms = -1;
        open_cell = 1;
    }
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        fprintf(stderr, "dillsue tui: needs a terminal; use `dillsue solve` for batch runs\n");
        return 2;
    }
    setlocale(LC_ALL, "");
    /* The locale's character set only (UTF-8 boxes and braille): numbers stay
     * "C", as in every file and on the command line. Under LC_NUMERIC=de_DE the
     * exports and the run log were written as 4869,08 (unreadable by compare
     * and --warm), and Barcelona's, Winnipeg's or solve's own 17-digit numbers
     * were refused on reading. */
    setlocale(LC_NUMERIC, "C");
    memset(&app, 0, sizeof app);
    app.cmp[0] = app.cmp[1] = -1;
    app.snap_run_id = -1;
    load_config(&app, &o, &cfg, note, sizeof note);
    if (session_init(&app.s, &err) != 0 || session_open(&app.s, o.net, o.trips, &err) != 0) {
        ds_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "dillsue tui: %s\n", msg);
        session_free(&app.s);
        return 2;
    }
    apply_settings(&app, &cfg, &o);
    runlog_path(&app, &o);
    /* a --runlog that can never be written (a directory, a FIFO) is refused
     * now, not after the session's runs are done */
    if (o.runlog && ds_output_check(o.runlog, NULL, 0, NULL, 0, &err) != 0) {
        ds_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "dillsue tui: --runlog %s\n", msg);
        session_free(&app.s);
        return 2;
    }
    app.ref_run = app.ref_pending = -1;

    term_install_signals(&app.s);
    char why[256]; /* (not where the sweep viewer already holds the terminal) */
    if (!stdscr && term_check(why, sizeof why) != 0) {
        fprintf(stderr, "dillsue tui: %s\n", why);
        session_free(&app.s);
        return 2;
    }
    if (term_start(&app, app.want_color) != 0) {
        fprintf(stderr, "dillsue tui: cannot initialise the terminal (TERM=%s)\n",
                getenv("TERM") ? getenv("TERM") : "");
        session_free(&app.s);
        return 2;
    }
    if (app.mouse) mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
    if (cfg.n_problems)
        app_message(&app, 1, "%s", note);
    else if (note[0])
        app_message(&app, 0, "%s", note);
    else {
        char start[32], help[32];
        app_message(&app, 0, "%s loaded: %s starts a run, %s lists the keys", app.s.net->name,
                    keys_label(&app.keys, ACT_START, 0, "/", start, sizeof start),
                    keys_label(&app.keys, ACT_HELP, 0, "/", help, sizeof help));
    }
    if (open_cell) {
        snprintf(app.sweep_dir, sizeof app.sweep_dir, "%s", o.sweep); /* O goes back to it */
        app_open_cell(&app, &req, 1);
    }
    run_loop(&app);
    if (session_active(&app.s)) {
        app_message(&app, 0, "cancelling the running run ...");
        draw_frame(&app);
    }
    session_stop(&app.s);
    term_stop();
    panel_links_done(&app);
    if (app.runlog_path[0] && app.s.n_runs) {
        if (runlog_write(&app, app.runlog_path, &err) == 0)
            fprintf(stderr, "dillsue tui: run log: %s\n", app.runlog_path);
        else {
            ds_error_format(&err, msg, sizeof msg);
            fprintf(stderr, "dillsue tui: run log not written: %s\n", msg);
        }
    }
    free(app.ref_flow);
    session_free(&app.s);
    /* the start-up message is gone by now; leave the problems in the scrollback */
    if (cfg.n_problems) fprintf(stderr, "dillsue tui: config: %s\n", note);
    /* Ctrl-C (SIGINT) exits as interrupted shells expect: 128 + 2 = 130 */
    return tui_sig_quit ? 128 + tui_sig_quit : 0;
}
