/* session.h - the runs of one TUI session and the engine threads behind them.
 *
 * No curses. Each run executes on its own pthread (ds_run_execute); the UI
 * thread only polls: session_poll copies newly published telemetry records
 * (immutable once published) and joins threads whose run has returned. At
 * most one run executes at a time. Every finished run, its config and its
 * network are kept until session_free, so earlier curves stay comparable. */
#ifndef TUI_SESSION_H
#define TUI_SESSION_H
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "dillsue.h"

typedef struct tui_run {
    int id;                  /* 1-based, in start order */
    ds_run *run;
    ds_config cfg;           /* as started (cfg.warm cleared: the run copied it) */
    int warm;                /* 1 if started from an earlier run's flows */
    int warm_from;           /* id of that run */
    const ds_network *net;
    pthread_t thread;
    int joined;              /* thread joined (or never started) */
    atomic_int done;         /* set by the engine thread when execute returned */
    ds_status status;        /* final status once joined, else RUNNING */
    char reason[256];
    double mu;
    ds_iter_record *rec;     /* UI-side copy of the published history */
    double *it, *gap;        /* rec[i].iter and rec[i].gap_rel, for the plot */
    size_t n, cap;
    double t_start, t_end;   /* monotonic seconds; t_end 0 while running */
    int shown;               /* drawn on the residual plot */
} tui_run;

typedef struct tui_session {
    ds_network **nets;       /* every network loaded this session (runs point into them) */
    int n_nets;
    ds_network *net;         /* the one the next run uses */
    ds_config next;          /* config of the next run */
    int warm_next;           /* start the next run from the last run's flows */
    tui_run **runs;
    int n_runs;
    int wake_fd[2];          /* engine monitor and signal handlers write a byte here */
} tui_session;

double session_now(void); /* monotonic seconds */

int session_init(tui_session *s, ds_error *err);
/* Load a network and make it current. path NULL = embedded default. On
 * failure nothing changes. */
int session_open(tui_session *s, const char *path, const char *trips, ds_error *err);
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
#endif
