/* session.h - the runs of one TUI session and the engine threads behind them.
 *
 * No curses. Each run executes on its own pthread (ds_run_execute); the UI
 * thread only polls: session_poll copies newly published telemetry records
 * (immutable once published) and joins threads whose run has returned. At
 * most one run executes at a time. Every finished run, its config and its
 * network are kept until session_free, so earlier curves stay comparable.
 *
 * Networks: the session owns every network it loaded or made (nets). A run
 * points at its network for life; so may the next-run state (net, the
 * scenario base, the warm-start file's network) and the app (the queue, the
 * sweep cell's network, the reference comparison), which passes its pointers
 * to session_collect. session_collect frees the networks none of those
 * points at, so opening networks again and again keeps one copy of each that
 * is still used. Re-opening a file that is unchanged since it was loaded
 * (same path, and the net and trips files have the same device, inode, size,
 * mtime and ctime) and re-making a scenario of it reuse the loaded copy.
 *
 * Memory: a run's engine run is freed once its thread is joined (it holds
 * the loader: 52 MB on Austin-SDB dsp, kept by the 8 latest runs before);
 * what the screens read of it is copied first: the history, times, status,
 * certificate, flows and the last iterate's image f(x) for the links panel.
 * Costs are not kept: they are ds_costs_eval of the flows under the run's
 * cost settings, bit for bit the engine's (session_run_costs). The
 * TUI_KEEP_FULL latest runs keep their whole history and the last iterate;
 * older runs are retired: the history is thinned to about TUI_THIN_POINTS
 * records (every eDSP refresh, Newton rejection and Anderson restart kept),
 * which the run details and the plot legend say, and the last iterate is
 * dropped. Every run keeps its flows (8 bytes a link), so any two runs can
 * be compared, exported or warm started from. Times always come from the
 * engine's clock (ds_run_times_get: pauses excluded), never from the
 * screen's.
 *
 * The message log holds every engine message (DS_EVENT_MESSAGE, set-up
 * steps) and every UI message of the session with its time of day; the
 * engine thread appends under a mutex held only for the copy. */
#ifndef TUI_SESSION_H
#define TUI_SESSION_H
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "dillsue.h"

#define TUI_KEEP_FULL 8
#define TUI_THIN_POINTS 500
/* records at the end that thinning keeps whole: the safeguards panel's
 * "last20" column and the stall test (50 back) read them */
#define TUI_THIN_TAIL 64
#define TUI_LOG_MAX 2000

struct tui_session;
typedef struct tui_run {
    int id;                /* 1-based, in start order */
    struct tui_session *s; /* owner (the monitor's context) */
    ds_run *run;           /* the engine run until its thread is joined, then NULL */
    ds_config cfg;         /* as started (cfg.warm cleared: the run copied it) */
    ds_cost_params cost;   /* the costs the engine used (ds_run_config: NaN factors resolved) */
    int warm;              /* 1 if started from an earlier run's flows or a flow file */
    int warm_from;         /* id of that run; -1 = the flow file warm_path */
    char warm_path[256];
    const ds_network *net;
    pthread_t thread;
    int joined;          /* thread joined (or never started) */
    atomic_int done;     /* set by the engine thread when execute returned */
    ds_status status;    /* final status once joined, else RUNNING */
    char reason[1024];   /* the engine's reason, whole */
    double mu, cbar;     /* from the engine once set-up derived them (0 / NAN before) */
    ds_iter_record *rec; /* UI-side copy of the published history (thinned once retired) */
    double *it, *gap;    /* rec[i].iter and rec[i].gap_rel, for the plot */
    size_t n, cap;
    size_t n_total;           /* records the engine published (> n once thinned) */
    ds_run_times times;       /* engine clock, final once joined */
    ds_certificate cert;      /* once joined (cert.valid 0 if none) */
    ds_totals totals;         /* over the whole history, once joined */
    double *flows;            /* copy of the result, once joined (NULL if none); costs: session_run_costs */
    double *last_x, *last_fx; /* the last published iterate and its image, once joined, until retired
                                 (last_x NULL where it equals flows; both NULL if none) */
    int last_iter;            /* its iteration (-1: none) */
    int retired;              /* history thinned, last iterate dropped */
    double t_end;             /* session_now() when joined, 0 while running (for expiry only) */
    int announced;            /* completion told to the user */
    char setup_label[96];     /* last set-up step logged (engine thread) */
    int shown;                /* drawn on the residual plot */
    int queue;                /* number of the queue that started it, 0 = started by hand */
    char origin[1300];        /* "cell 17: k 2 tau 10 dsp newton of sweep DIR" where it is a sweep's cell, else "" */
    char origin_flows[1400];  /* that sweep's flow file of the cell ("" if none): what F offers */
} tui_run;

typedef struct tui_log_entry {
    double tod;      /* time of day, seconds since the epoch */
    int run_id;      /* 0 = the session, not a run */
    int level;       /* 0 info, 1 warning or error */
    char text[1100]; /* (the engine's longest reason is 1023 bytes; longer texts end in "...") */
} tui_log_entry;

typedef struct tui_session {
    ds_network **nets; /* every network loaded this session and still used (runs point into them) */
    char **net_keys;   /* nets[i]'s file identity (session_open, session_scenario); NULL = never reused */
    int n_nets;
    int reused;                       /* the latest session_open or session_scenario reused a loaded network */
    ds_network *net;                  /* the one the next run uses */
    ds_network *scen_net, *scen_base; /* the latest scenario network and the network it came from */
    ds_config next;                   /* config of the next run */
    int warm_next;                    /* start the next run from an earlier run's flows */
    int warm_from_id;                 /* that run's id, 0 = the latest finished on this network, -1 = warm_file */
    double *warm_file;                /* flows read from a flow CSV (solve --warm), for warm_file_net */
    const ds_network *warm_file_net;
    char warm_file_path[256];
    tui_run **runs;
    int n_runs;
    int wake_fd[2];         /* engine monitor and signal handlers write a byte here */
    pthread_mutex_t log_mu; /* guards the log (engine thread appends) */
    tui_log_entry *log;     /* ring of TUI_LOG_MAX entries */
    long log_n;             /* entries ever appended */
} tui_session;

double session_now(void); /* monotonic seconds */

int session_init(tui_session *s, ds_error *err);
/* Load a network and make it current. path NULL = embedded default. An
 * unchanged file already loaded is not read again: its copy becomes current
 * (s->reused 1). On failure nothing changes. */
int session_open(tui_session *s, const char *path, const char *trips, ds_error *err);
/* Make scenario k (seed) of the current network current, as `solve --scenario
 * K --seed S` (ds_scenario_apply on a copy of the network, or of the network
 * the current scenario came from; its name gets "~kK/S"; the base
 * network's reference flows are dropped, they do not describe the scenario).
 * On failure nothing changes. */
int session_scenario(tui_session *s, int k, unsigned long long seed, ds_error *err);
/* Free the networks nothing uses any more: not the current one, nor the
 * scenario base of a current scenario, nor the warm-start file's network,
 * nor any run's, nor keep[0..n_keep-1] (the app's: NULLs allowed). Forgets
 * scen_net / scen_base where the scenario is no longer current, and
 * warm_file_net where no warm-start file is kept. Returns the number freed.
 * Call it only where nothing else holds a network pointer (the UI's frame
 * loop: a pointer kept in a local variable up the stack is not seen). */
int session_collect(tui_session *s, const ds_network *const *keep, int n_keep);
/* Start a run with s->next on s->net. Refused while another run executes. */
tui_run *session_start(tui_session *s, ds_error *err);
/* The run whose thread has not been joined yet, or NULL. */
tui_run *session_active(const tui_session *s);
/* Copy new telemetry, join finished threads. Returns 1 if anything changed. */
int session_poll(tui_session *s);
/* Cancel the active run (if any) and wait for it; used on quit. */
void session_stop(tui_session *s);
void session_free(tui_session *s);
/* Wake the UI (async-signal-safe). */
void session_wake(const tui_session *s);
/* Drain pending wake bytes. */
void session_drain(const tui_session *s);
/* The latest finished run on the current network with flows, or NULL. */
tui_run *session_last_finished(const tui_session *s);
/* The run the next warm start uses (warm_from_id, else the latest finished),
 * or NULL; *why says why not when NULL. */
tui_run *session_warm_source(const tui_session *s, const char **why);
tui_run *session_find(const tui_session *s, int id);
/* Read a flow CSV of the current network as the warm start (warm_from_id -1,
 * warm start on). On failure nothing changes and err says why (file, line). */
int session_warm_file(tui_session *s, const char *path, ds_error *err);
/* Engine-clock seconds of a run, pauses excluded (live while it runs). */
double session_run_wall(const tui_run *r);
/* ds_run_phase of a run (3 once joined); label and progress while setting up. */
int session_run_phase(const tui_run *r, double *progress, char *label, size_t n);
/* 1 while the run is paused. */
int session_run_paused(const tui_run *r);
/* Append to the message log (any thread). */
void session_log(tui_session *s, int run_id, int level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Entries kept (the oldest are dropped beyond TUI_LOG_MAX); i = 0 is the oldest kept. */
long session_log_count(tui_session *s);
int session_log_get(tui_session *s, long i, tui_log_entry *e);
/* Entries ever appended (entry number t is index t - (total - count) while kept). */
long session_log_total(tui_session *s);
/* The link costs of a finished run's flows (out: n_links doubles), as the
 * engine's ds_run_costs gave them: 0, or -1 if the run has no flows. */
int session_run_costs(const tui_run *r, double *out);
/* The last iterate x, f(x) and its costs (n_links doubles each; NULL
 * pointers skipped) of a joined, unretired run, or of the running run (a
 * snapshot, ds_run_snapshot). Returns its iteration, or -1 if none. */
int session_run_last(const tui_run *r, double *x, double *fx, double *cost);
/* Heap bytes the session keeps for a finished run (the tui_run, its history
 * copies, flows and last iterate), for the tests and docs/tui.md. */
size_t session_run_bytes(const tui_run *r);
/* Retire run r now (normally done for runs older than TUI_KEEP_FULL). */
void session_retire(tui_run *r);
#endif
