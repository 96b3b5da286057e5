/* session.c - engine threads and the session's run list.
 *
 * The engine thread is created with SIGWINCH, SIGINT and SIGTERM blocked so
 * that those signals always reach the UI thread, whose handlers only set a
 * flag and write to the wake pipe. The UI never waits for the engine except
 * in session_stop, after it has asked the run to cancel. */
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double session_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void session_wake(const tui_session *s)
{
    int saved = errno;
    if (s->wake_fd[1] >= 0) {
        ssize_t r = write(s->wake_fd[1], "w", 1); /* a full pipe already wakes us */
        (void)r;
    }
    errno = saved;
}

void session_drain(const tui_session *s)
{
    char buf[256];
    while (s->wake_fd[0] >= 0 && read(s->wake_fd[0], buf, sizeof buf) > 0) {}
}

int session_init(tui_session *s, ds_error *err)
{
    memset(s, 0, sizeof *s);
    s->wake_fd[0] = s->wake_fd[1] = -1;
    ds_config_default(&s->next);
    if (pipe(s->wake_fd) != 0) return ds_error_set(err, "", 0, "cannot create a pipe: %s", strerror(errno));
    for (int i = 0; i < 2; i++) {
        fcntl(s->wake_fd[i], F_SETFL, fcntl(s->wake_fd[i], F_GETFL) | O_NONBLOCK);
        fcntl(s->wake_fd[i], F_SETFD, FD_CLOEXEC);
    }
    return 0;
}

int session_open(tui_session *s, const char *path, const char *trips, ds_error *err)
{
    ds_network *net = path ? ds_network_load(path, trips, NULL, NULL, err) : ds_network_load_default(err);
    ds_network **grown;
    if (!net) return -1;
    grown = realloc(s->nets, (size_t)(s->n_nets + 1) * sizeof *grown);
    if (!grown) {
        ds_network_free(net);
        return ds_error_set(err, "", 0, "out of memory");
    }
    s->nets = grown;
    s->nets[s->n_nets++] = net;
    s->net = net;
    return 0;
}

tui_run *session_active(const tui_session *s)
{
    for (int i = 0; i < s->n_runs; i++)
        if (!s->runs[i]->joined) return s->runs[i];
    return NULL;
}

tui_run *session_last_finished(const tui_session *s)
{
    for (int i = s->n_runs - 1; i >= 0; i--) {
        tui_run *r = s->runs[i];
        if (r->joined && r->net == s->net && r->run && ds_run_flows(r->run)) return r;
    }
    return NULL;
}

static void monitor_wake(ds_run *run, const ds_event *ev, void *ctx)
{
    (void)run;
    (void)ev;
    session_wake(ctx);
}

static void *engine_thread(void *arg)
{
    tui_run *r = arg;
    r->status = ds_run_execute(r->run);
    atomic_store(&r->done, 1);
    return NULL;
}

static void run_free(tui_run *r)
{
    if (!r) return;
    if (r->run) ds_run_free(r->run);
    free(r->rec);
    free(r->it);
    free(r->gap);
    free(r);
}

tui_run *session_start(tui_session *s, ds_error *err)
{
    tui_run *r, **grown;
    tui_run *warm = NULL;
    ds_config cfg = s->next;
    sigset_t block, old;
    int rc;

    if (!s->net) { ds_error_set(err, "", 0, "no network loaded"); return NULL; }
    if (session_active(s)) { ds_error_set(err, "", 0, "a run is already going (a aborts it)"); return NULL; }
    if (s->warm_next) {
        warm = session_last_finished(s);
        if (!warm) { ds_error_set(err, "", 0, "no finished run on this network to warm start from"); return NULL; }
        cfg.warm = ds_run_flows(warm->run);
    } else {
        cfg.warm = NULL;
    }
    grown = realloc(s->runs, (size_t)(s->n_runs + 1) * sizeof *grown);
    r = calloc(1, sizeof *r);
    if (!grown || !r) {
        if (grown) s->runs = grown;
        free(r);
        ds_error_set(err, "", 0, "out of memory");
        return NULL;
    }
    s->runs = grown;
    r->run = ds_run_create(s->net, &cfg, err);
    if (!r->run) { free(r); return NULL; }
    r->id = s->n_runs + 1;
    r->cfg = cfg;
    r->cfg.warm = NULL;
    r->warm = warm != NULL;
    r->warm_from = warm ? warm->id : 0;
    r->net = s->net;
    r->status = DS_STATUS_RUNNING;
    r->mu = ds_run_mu(r->run);
    r->shown = 1;
    r->t_start = session_now();
    atomic_init(&r->done, 0);
    ds_run_add_monitor(r->run, monitor_wake, s);

    sigemptyset(&block);
    sigaddset(&block, SIGWINCH);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    rc = pthread_create(&r->thread, NULL, engine_thread, r);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        ds_error_set(err, "", 0, "cannot start the engine thread: %s", strerror(rc));
        run_free(r);
        return NULL;
    }
    s->runs[s->n_runs++] = r;
    return r;
}

static int grow(tui_run *r, size_t need)
{
    size_t cap = r->cap ? r->cap : 256;
    while (cap < need) cap *= 2;
    if (cap == r->cap) return 0;
    ds_iter_record *rec = realloc(r->rec, cap * sizeof *rec);
    if (rec) r->rec = rec;
    double *it = realloc(r->it, cap * sizeof *it);
    if (it) r->it = it;
    double *gap = realloc(r->gap, cap * sizeof *gap);
    if (gap) r->gap = gap;
    if (!rec || !it || !gap) return -1;
    r->cap = cap;
    return 0;
}

static int copy_new(tui_run *r)
{
    size_t have = ds_run_history_count(r->run), got;
    if (have <= r->n) return 0;
    if (grow(r, have) != 0) return 0; /* try again next frame */
    got = ds_run_history_copy(r->run, r->n, r->rec + r->n, have - r->n);
    for (size_t i = r->n; i < r->n + got; i++) {
        r->it[i] = r->rec[i].iter;
        r->gap[i] = r->rec[i].gap_rel;
    }
    r->n += got;
    return got > 0;
}

int session_poll(tui_session *s)
{
    tui_run *r = session_active(s);
    int changed = 0;
    if (!r) return 0;
    changed |= copy_new(r);
    if (atomic_load(&r->done)) {
        pthread_join(r->thread, NULL);
        r->joined = 1;
        copy_new(r); /* records published after our last look */
        r->status = ds_run_status(r->run);
        ds_run_reason(r->run, r->reason, sizeof r->reason);
        r->t_end = session_now();
        changed = 1;
    }
    return changed;
}

void session_stop(tui_session *s)
{
    tui_run *r = session_active(s);
    if (!r) return;
    ds_run_cancel(r->run);
    ds_run_pause(r->run, 0);
    while (!atomic_load(&r->done)) {
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    session_poll(s);
}

void session_free(tui_session *s)
{
    session_stop(s);
    for (int i = 0; i < s->n_runs; i++) run_free(s->runs[i]);
    free(s->runs);
    for (int i = 0; i < s->n_nets; i++) ds_network_free(s->nets[i]);
    free(s->nets);
    for (int i = 0; i < 2; i++)
        if (s->wake_fd[i] >= 0) close(s->wake_fd[i]);
    memset(s, 0, sizeof *s);
    s->wake_fd[0] = s->wake_fd[1] = -1;
}
