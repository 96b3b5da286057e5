/* tui.h - shared state of the ncurses front end (UI thread only).
 *
 * Module map: session.c (engine threads, run list), layout.c and plot.c
 * (pure, tested without a terminal), keys.c (the one key table), actions.c
 * (what keys do, dialogs, export), term.c (terminal, signals, colour roles),
 * draw.c (clipped text and boxes), panel_*.c (one file per panel), tui_main.c
 * (options and the frame loop). */
#ifndef TUI_H
#define TUI_H
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <curses.h>
#include <signal.h>

#include "layout.h"
#include "plot.h"
#include "session.h"

/* Colour roles: each maps to a colour pair, or to bold/reverse/dim when
 * colour is off (NO_COLOR, --no-color or a terminal without colours). */
typedef enum {
    ROLE_NORMAL = 0,
    ROLE_TITLE,
    ROLE_LABEL,
    ROLE_CURVE,
    ROLE_CURVE_OLD,
    ROLE_CURVE_OLD2,
    ROLE_CURVE_OLD3,
    ROLE_TOL,
    ROLE_ACCEPT,
    ROLE_REJECT,
    ROLE_WARN,
    ROLE_SELECT,
    ROLE_STATUS,
    ROLE_DIM,
    ROLE_N
} tui_role;

typedef enum {
    PROMPT_NONE = 0,
    PROMPT_TAU,
    PROMPT_TOL,
    PROMPT_MAXITER,
    PROMPT_THREADS,
    PROMPT_NET,
    PROMPT_EXPORT,
    PROMPT_SETTING,
    PROMPT_REF,
    PROMPT_WARM_FROM,
    PROMPT_QUEUE,
    PROMPT_SCENARIO,
    PROMPT_SWEEP,
    PROMPT_OVERWRITE /* y confirms the export to pending_path, an existing file */
} tui_prompt_kind;

/* Full-screen views over the panels (one at a time; Esc closes). */
typedef enum { VIEW_NONE = 0, VIEW_DETAILS, VIEW_LOG, VIEW_SETTINGS, VIEW_REF, VIEW_LADDER } tui_view;

/* x axis of the residual plot */
typedef enum { XAXIS_ITER = 0, XAXIS_LOGITER, XAXIS_EVALS, XAXIS_TIME, XAXIS_N } tui_xaxis;

/* keys.c: the one key table. Each action has one row: the name the config
 * file uses (bind.<name>=), its default keys, the help line and the status-bar
 * label. The keys in force live in a tui_keymap (defaults, then the config
 * file); dispatch, the help overlay and the status bar all read the keymap. */
typedef enum {
    ACT_NONE = 0,
    ACT_QUIT,
    ACT_START,
    ACT_PAUSE,
    ACT_ABORT,
    ACT_TAU,
    ACT_TAU1,
    ACT_TAU3,
    ACT_TAU10,
    ACT_TAU30,
    ACT_TAU100,
    ACT_FILTER,
    ACT_SOLVER,
    ACT_THREADS,
    ACT_THREADS_UP,
    ACT_THREADS_DOWN,
    ACT_BACKEND,
    ACT_TOL,
    ACT_MAXITER,
    ACT_WARM,
    ACT_NET,
    ACT_EXPORT,
    ACT_UP,
    ACT_DOWN,
    ACT_SHOW,
    ACT_COMPARE,
    ACT_TAB,
    ACT_GLYPHS,
    ACT_HELP,
    ACT_REDRAW,
    ACT_CLOSE,
    ACT_SAVE,
    ACT_DETAILS,
    ACT_LOG,
    ACT_SETTINGS,
    ACT_RERUN,
    ACT_COPY,
    ACT_REF,
    ACT_WARM_FROM,
    ACT_XAXIS,
    ACT_QUEUE,
    ACT_SCENARIO,
    ACT_NOTIFY,
    ACT_MOUSE,
    ACT_PGUP,
    ACT_PGDN,
    ACT_LADDER,
    ACT_SWEEP,
    ACT_N
} tui_action;
#define TUI_KEYS_PER_ACT 4
typedef struct tui_key {
    tui_action act;
    const char *name;           /* bind.<name>= in the config file */
    int keys[TUI_KEYS_PER_ACT]; /* default curses key codes, 0-terminated */
    const char *help;           /* one line for the help overlay */
    const char *bar;            /* short label for the status bar, NULL = not shown */
} tui_key;
extern const tui_key tui_keys[];
extern const int tui_n_keys;
typedef struct tui_keymap {
    int keys[ACT_N][TUI_KEYS_PER_ACT]; /* per action, 0-terminated; first = shown on the bar */
} tui_keymap;
void keys_default(tui_keymap *km);
/* Action bound to curses key ch (Enter, KEY_ENTER and \n are one key). */
tui_action keys_lookup(const tui_keymap *km, int ch);
const tui_key *keys_row(tui_action act);
/* Action named in the config file, ACT_NONE if there is none. */
tui_action keys_action_parse(const char *name);
/* Key name ("x", "C-l", "F5", "Enter", "Space", ...) to a curses code.
 * 0 ok; -1 unknown name; -2 a key the terminal keeps (C-c, C-z, C-s, C-q, C-\). */
int keys_parse(const char *name, int *key);
/* Canonical name of a key code, the spelling keys_parse reads back. */
const char *keys_name(int key, char *buf, size_t n);
/* The keys of an action joined with sep ("Up/k"); only the first if all is 0;
 * "(unbound)" if it has none. */
const char *keys_label(const tui_keymap *km, tui_action act, int all, const char *sep, char *buf, size_t n);

/* Steps kept for the "last N" columns and the stall test. */
#define TUI_LAST_N 20
#define TUI_STALL_K 50

typedef struct tui_app {
    tui_session s;
    tui_layout lo;
    int side_first; /* Tab position among side panels */
    plot_glyphset gs;
    int color;  /* colours in use */
    int sel;    /* selected row of the run list (index into s.runs) */
    int cmp[2]; /* runs marked for comparison (index), -1 = none */
    int show_help, show_compare;
    tui_view view;    /* open full-screen view, VIEW_NONE = none */
    int view_scroll;  /* first line shown; -1 = follow the end (log) */
    int view_lines;   /* lines the view had at its last draw (for paging) */
    int view_top;     /* first line it showed */
    int view_hscroll; /* first column shown of a table wider than the view (Left/Right) */
    int ladder_all;   /* the ladder view lists every run, not only the latest queue's */
    int set_sel;      /* selected row of the settings view */
    int setting_edit; /* row the PROMPT_SETTING prompt edits */
    double *ref_flow; /* reference flows of the VIEW_REF comparison (n_links of ref_net) */
    const ds_network *ref_net;
    char ref_path[512];
    int ref_run;     /* run index compared against the reference */
    int ref_pending; /* run index the F prompt is for (the selection may move while it is open) */
    tui_xaxis xaxis;
    int notify; /* bell and terminal title on completion */
    int mouse;  /* mouse reporting on */
#define TUI_QUEUE_MAX 128
    ds_config queue_cfg[TUI_QUEUE_MAX]; /* their settings */
    ds_network *queue_net; /* the network they run on: the one current when Q made them (NULL once the last started) */
    int queue_n, queue_pos;
    int queue_serial;       /* number of the latest queue (runs started from it carry it in tui_run.queue) */
    int runs_first;         /* first run shown in the run list (mouse) */
    int runs_rows;          /* run rows the run list showed at its last draw (PgUp/PgDn) */
    long log_seen;          /* log entries already considered for the status line */
    int legend_y, legend_n; /* legend hit boxes of the plot (mouse): x0, x1, run index */
    int legend[64][3];
    char runlog_path[1024];    /* session run log written on quit and x; "" = none */
    char sweep_dir[1024];      /* the sweep directory opened last (O) */
    ds_network *cell_net;      /* the network loaded for the latest sweep cell opened as a run (r in the viewer) */
    char cell_key[2100];       /* its net and trips paths, so that the next cell of the sweep reuses it */
    int help_page, help_pages; /* the help overlay pages when the key table does not fit */
    int quit;
    char msg[512]; /* status-line message */
    double msg_until;
    int msg_error;
    tui_prompt_kind prompt;
    char prompt_label[96];
    char prompt_buf[512];
    int prompt_len;
    int export_run;         /* run index the export prompt is for */
    char pending_path[512]; /* the export that PROMPT_OVERWRITE asks about */
    int delay_ms;           /* minimum time between frames */
    int want_color;         /* colour asked for (config / --no-color); NO_COLOR may still veto */
    tui_keymap keys;        /* keys in force */
    char config_path[1024]; /* where S saves; "" with --no-config */
    /* stall diagnosis snapshot of the focused run */
    double *snap_x, *snap_fx, *snap_cost;
    int snap_n, snap_iter, snap_run_id;
    double snap_time;
} tui_app;

/* term.c */
extern volatile sig_atomic_t tui_sig_quit;
int term_start(tui_app *app, int want_color);
void term_stop(void);
void term_install_signals(tui_session *s);
attr_t term_attr(const tui_app *app, tui_role role);

/* draw.c: text clipped to a rect; col/row relative to the rect. */
/* Columns of a UTF-8 string, one a character (what the panels and prompts
 * hold), and the string past its first n characters. */
int draw_cols(const char *s);
const char *draw_skip_cols(const char *s, int n);
void draw_text(tui_rect r, int row, int col, attr_t attr, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* text wrapped at spaces onto at most max_lines lines of r from row; the
 * lines used (a last line that does not fit ends in '>') */
int draw_wrap(tui_rect r, int row, attr_t attr, const char *text, int max_lines);
void draw_box(const tui_app *app, tui_rect r, const char *title);
tui_rect draw_inner(tui_rect r);
void draw_fill(tui_rect r, attr_t attr);
/* Human-friendly numbers: "1.23e-07", "12.3 s", "1.2 ms". */
void fmt_gap(double v, char *buf, size_t n);
/* fmt_gap, with more digits where "%.2e" would put v on the other side of tol */
void fmt_gap_tol(double v, double tol, char *buf, size_t n);
/* the same in "%.*e" with p digits at least (n/a where v is not finite) */
void fmt_gap_digits(double v, double tol, int p, char *buf, size_t n);
void fmt_secs(double s, char *buf, size_t n);

/* runinfo.c: one way to name and describe a run everywhere. */
const char *runinfo_state(const tui_run *r); /* running, paused, setting-up, converged, ... */
/* "#3 newton/edsp t10" (width >= 22) or "#3 new/e t10"; never without number, filter, tau. */
const char *runinfo_label(const tui_run *r, int width, char *buf, size_t n);
const char *runinfo_time(const tui_run *r, char *buf, size_t n); /* engine clock */
const char *runinfo_mu(const tui_run *r, char *buf, size_t n);   /* "n/a (...)" until known */
/* The dispersion a run was given: "tau 10", or "mu 0.5" where it was given mu
 * (its tau is then unused); with width > 0 the compact "10" or "mu0.5" (fewer
 * digits of mu where that is longer than width). */
const char *runinfo_disp(const ds_config *c, int width, char *buf, size_t n);
const char *runinfo_threads(int threads, char *buf, size_t n);  /* 0 -> "all 16" */
const char *runinfo_gap(const tui_run *r, char *buf, size_t n); /* last gap_rel or "n/a" */
/* a finished run without an iterate (ill-posed, an error or a cancel in
 * set-up): "ended ill-posed before its first iterate (v: why)", else NULL */
const char *runinfo_noiter(const tui_app *app, const tui_run *r, char *buf, size_t n);
/* Where a run started: "auto" (the start setting), "warm #3", "warm file F.csv". */
const char *runinfo_start(const tui_run *r, char *buf, size_t n);
/* Every setting of a config on one line (tau | filter | solver | ...). */
void runinfo_settings(const ds_config *c, char *buf, size_t n);

/* views.c: details (reason, certificate, settings, totals, messages), message
 * log, settings dialog, flow comparison against a reference file. */
void view_draw(tui_app *app);
/* view_ladder.c: the runs of the latest queue (or every run) as a table and,
 * where they form one, a tau x solver grid (the paper's solver ladder). */
struct textbuf;
void view_ladder_build(tui_app *app, struct textbuf *t);
/* The runs the ladder lists (indexes into s.runs, in start order); returns how many. */
int view_ladder_runs(const tui_app *app, int *idx, int max);
/* Keys while a view is open; returns 1 if the view used the key. */
int view_key(tui_app *app, tui_action act, int ch);
tui_rect overlay_rect(int want_w, int want_h);

/* runlog.c: the session's runs as CSV (atomic write). */
int runlog_write(const tui_app *app, const char *path, ds_error *err);

/* actions.c */
void app_message(tui_app *app, int error, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void app_action(tui_app *app, tui_action act);
void app_prompt_key(tui_app *app, int ch);
/* Once a frame: announce finished runs (bell, title), start the next queued run. */
void app_tick(tui_app *app);
/* The run the side panels describe: the active one, else the selected one. */
tui_run *app_focus_run(const tui_app *app);
tui_run *app_latest_run(const tui_app *app);

/* cell_run.c: a sweep cell (r in the sweep viewer) started as a run of this
 * session, exactly the cell's `dillsue solve`; a message says why not.
 * net_current: the session's current network is the sweep's, just loaded. */
struct sweep_cell_request;
void app_open_cell(tui_app *app, const struct sweep_cell_request *req, int net_current);

/* panels: one file each, all with the same draw signature */
typedef struct tui_panel {
    const char *title;
    void (*draw)(tui_app *app, tui_rect r);
} tui_panel;
void panel_header_draw(tui_app *app, tui_rect r);
void panel_residuals_draw(tui_app *app, tui_rect r);
void panel_safeguards_draw(tui_app *app, tui_rect r);
void panel_timings_draw(tui_app *app, tui_rect r);
void panel_mask_draw(tui_app *app, tui_rect r);
void panel_links_draw(tui_app *app, tui_rect r);
void panel_runs_draw(tui_app *app, tui_rect r);
void panel_status_draw(tui_app *app, tui_rect r);
void panel_help_draw(tui_app *app);
void panel_compare_draw(tui_app *app);
void panel_links_done(tui_app *app);
/* Stall test over the last TUI_STALL_K iterations: 1 stalled, 0 not, -1 too few. */
int panel_links_stalled(const tui_run *r);
#endif
