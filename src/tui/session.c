/* session.c - engine threads and the session's run list.
 *
 * The engine thread is created with SIGWINCH, SIGINT and SIGTERM blocked so
 * that those signals always reach the UI thread, whose handlers only set a
 * flag and write to the wake pipe. The UI never waits for the engine except
 * in session_stop, after it has asked the run to cancel. */
#include "session.h"
#include "../cli/cli.h"

#include "ds_csv.h"
#include "ds_scenario.h"

#include <errno.h>
#include <fcntl.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
    s->next.cuda_emulate = cli_cuda_emulate();
    pthread_mutex_init(&s->log_mu, NULL);
    if (!(s->log = calloc(TUI_LOG_MAX, sizeof *s->log))) return ds_error_set(err, "", 0, "out of memory");
    if (pipe(s->wake_fd) != 0) return ds_error_set(err, "", 0, "cannot create a pipe: %s", strerror(errno));
    for (int i = 0; i < 2; i++) {
        fcntl(s->wake_fd[i], F_SETFL, fcntl(s->wake_fd[i], F_GETFL) | O_NONBLOCK);
        fcntl(s->wake_fd[i], F_SETFD, FD_CLOEXEC);
    }
    return 0;
}

static int session_adopt(tui_session *s, ds_network *net, const char *key, ds_error *err);

/* A file as loaded: device, inode, size, mtime and ctime ("none" where it
 * cannot be read: a trips file that appears later is a change too). */
static void file_id(const char *path, char *out, size_t n)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(out, n, "none");
        return;
    }
    snprintf(out, n, "%llu:%llu:%lld:%lld.%09ld:%lld.%09ld", (unsigned long long)st.st_dev,
             (unsigned long long)st.st_ino, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
             (long)st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec, (long)st.st_ctim.tv_nsec);
}

/* What identifies the network session_open(path, trips) reads: the paths as
 * given and both files' identities; "" where the net file cannot be read
 * (the load fails then, or is not to be reused). */
static void net_key(const char *path, const char *trips, char *key, size_t n)
{
    char sib[1024], a[160], b[160];
    struct stat st;
    if (!path) {
        snprintf(key, n, "<embedded>");
        return;
    }
    key[0] = 0;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return;
    if (!trips) trips = ds_tntp_sibling(path, "trips", sib, sizeof sib) ? sib : "";
    file_id(path, a, sizeof a);
    if (trips[0])
        file_id(trips, b, sizeof b);
    else
        snprintf(b, sizeof b, "none");
    if (snprintf(key, n, "%s %s\n%s %s", path, a, trips, b) >= (int)n) key[0] = 0; /* too long: not reused */
}

/* The loaded network whose key is key, or -1. */
static int find_key(const tui_session *s, const char *key)
{
    for (int i = 0; key[0] && i < s->n_nets; i++)
        if (s->net_keys[i] && !strcmp(s->net_keys[i], key)) return i;
    return -1;
}

int session_open(tui_session *s, const char *path, const char *trips, ds_error *err)
{
    char key[2600], in_dir[4096];
    /* a directory's net file, so that the key is that file's (a directory's
     * identity does not change when a file in it is edited) */
    int dir = path ? ds_tntp_net_in_dir(path, in_dir, sizeof in_dir, err) : 0;
    if (dir < 0) return -1;
    if (dir) path = in_dir;
    net_key(path, trips, key, sizeof key); /* before reading: a change while it reads is a change */
    int have = find_key(s, key);
    if (have >= 0) {
        s->net = s->nets[have];
        s->reused = 1;
        session_log(s, 0, 0, "%s: unchanged since it was loaded; the loaded copy is used", s->net->net_path);
        return 0;
    }
    ds_network *net = path ? ds_network_load_net_trips(path, trips, err) : ds_network_load_default(err);
    if (!net) return -1;
    /* what the reader dropped or read past, as the command line says it */
    if (net->n_loops)
        session_log(s, 0, 0, "%s: %d self-loop row%s dropped (no route uses them; written with flow 0)", net->net_path,
                    net->n_loops, net->n_loops > 1 ? "s" : "");
    char note[600];
    for (int i = 0; ds_network_column_note(net, i, note, sizeof note); i++) session_log(s, 0, 0, "%s", note);
    return session_adopt(s, net, key, err);
}

/* Keep net in the session's list under key ("" = never reused) and make it
 * current (net is freed on failure). */
static int session_adopt(tui_session *s, ds_network *net, const char *key, ds_error *err)
{
    ds_network **grown = realloc(s->nets, (size_t)(s->n_nets + 1) * sizeof *grown);
    if (grown) s->nets = grown;
    char **keys = grown ? realloc(s->net_keys, (size_t)(s->n_nets + 1) * sizeof *keys) : NULL;
    if (keys) s->net_keys = keys;
    char *k = key[0] ? strdup(key) : NULL;
    if (!grown || !keys || (key[0] && !k)) {
        ds_network_free(net);
        free(k);
        return ds_error_set(err, "", 0, "out of memory");
    }
    s->nets[s->n_nets] = net;
    s->net_keys[s->n_nets++] = k;
    s->net = net;
    s->reused = 0;
    return 0;
}

int session_collect(tui_session *s, const ds_network *const *keep, int n_keep)
{
    int freed = 0, k = 0;
    if (s->scen_net != s->net) s->scen_net = s->scen_base = NULL;
    if (!s->warm_file) s->warm_file_net = NULL;
    for (int i = 0; i < s->n_nets; i++) {
        const ds_network *net = s->nets[i];
        int used = net == s->net || net == s->scen_base || net == s->warm_file_net;
        for (int j = 0; !used && j < n_keep; j++) used = keep[j] == net;
        for (int j = 0; !used && j < s->n_runs; j++) used = s->runs[j]->net == net;
        if (used) {
            s->nets[k] = s->nets[i];
            s->net_keys[k++] = s->net_keys[i];
        } else {
            ds_network_free(s->nets[i]);
            free(s->net_keys[i]);
            freed++;
        }
    }
    s->n_nets = k;
#if defined(__GLIBC__)
    if (freed) malloc_trim(0); /* as for retired runs: give the pages back */
#endif
    return freed;
}

int session_scenario(tui_session *s, int k, unsigned long long seed, ds_error *err)
{
    char name[128];
    if (!s->net) return ds_error_set(err, "", 0, "no network loaded");
    ds_network *base = s->net == s->scen_net ? s->scen_base : s->net; /* scenarios do not compound */
    /* the same scenario of the same unchanged file: the copy made before */
    char key[2700] = "";
    for (int i = 0; i < s->n_nets; i++)
        if (s->nets[i] == base && s->net_keys[i]) {
            if (snprintf(key, sizeof key, "%s\n~k%d/%llu", s->net_keys[i], k, seed) >= (int)sizeof key) key[0] = 0;
            break;
        }
    int have = find_key(s, key);
    if (have >= 0) {
        s->net = s->scen_net = s->nets[have];
        s->scen_base = base;
        s->reused = 1;
        return 0;
    }
    ds_network *net = ds_network_clone(base);
    if (!net) return ds_error_set(err, "", 0, "out of memory");
    if (ds_scenario_apply(net, k, (uint64_t)seed, NULL, err) != 0) {
        ds_network_free(net);
        return -1;
    }
    free(net->ref_flow);
    free(net->ref_cost);
    net->ref_flow = net->ref_cost = NULL;
    snprintf(name, sizeof name, "%.100s~k%d/%llu", base->name, k, seed);
    snprintf(net->name, sizeof net->name, "%s", name);
    if (session_adopt(s, net, key, err) != 0) return -1;
    s->scen_net = net;
    s->scen_base = base;
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
        if (r->joined && r->net == s->net && r->flows) return r;
    }
    return NULL;
}

void session_log(tui_session *s, int run_id, int level, const char *fmt, ...)
{
    struct timespec ts;
    va_list ap;
    if (!s->log) return;
    clock_gettime(CLOCK_REALTIME, &ts);
    pthread_mutex_lock(&s->log_mu);
    tui_log_entry *e = &s->log[s->log_n % TUI_LOG_MAX];
    e->tod = ts.tv_sec + ts.tv_nsec * 1e-9;
    e->run_id = run_id;
    e->level = level;
    va_start(ap, fmt);
    int len = vsnprintf(e->text, sizeof e->text, fmt, ap);
    va_end(ap);
    if (len >= (int)sizeof e->text) memcpy(e->text + sizeof e->text - 4, "...", 4); /* cut: say so */
    s->log_n++;
    pthread_mutex_unlock(&s->log_mu);
}

long session_log_count(tui_session *s)
{
    pthread_mutex_lock(&s->log_mu);
    long n = s->log_n < TUI_LOG_MAX ? s->log_n : TUI_LOG_MAX;
    pthread_mutex_unlock(&s->log_mu);
    return n;
}

long session_log_total(tui_session *s)
{
    pthread_mutex_lock(&s->log_mu);
    long n = s->log_n;
    pthread_mutex_unlock(&s->log_mu);
    return n;
}

int session_log_get(tui_session *s, long i, tui_log_entry *e)
{
    int ok = 0;
    pthread_mutex_lock(&s->log_mu);
    long kept = s->log_n < TUI_LOG_MAX ? s->log_n : TUI_LOG_MAX;
    if (i >= 0 && i < kept) {
        *e = s->log[(s->log_n - kept + i) % TUI_LOG_MAX];
        ok = 1;
    }
    pthread_mutex_unlock(&s->log_mu);
    return ok;
}

/* Engine thread: log messages and new set-up steps, wake the UI. */
static void monitor(ds_run *run, const ds_event *ev, void *ctx)
{
    tui_run *r = ctx;
    (void)run;
    if (ev->kind == DS_EVENT_MESSAGE && ev->message)
        session_log(r->s, r->id, 0, "%s", ev->message);
    else if (ev->kind == DS_EVENT_SETUP && ev->message && strcmp(ev->message, r->setup_label) != 0) {
        snprintf(r->setup_label, sizeof r->setup_label, "%s", ev->message);
        session_log(r->s, r->id, 0, "setting up: %s (%.0f %%)", ev->message, 100 * ev->progress);
    }
    session_wake(r->s);
}

int session_warm_file(tui_session *s, const char *path, ds_error *err)
{
    double *f = NULL;
    if (ds_flows_read_start(path, s->net, &f, err) != 0) return -1;
    free(s->warm_file);
    s->warm_file = f;
    s->warm_file_net = s->net;
    snprintf(s->warm_file_path, sizeof s->warm_file_path, "%s", path);
    s->warm_from_id = -1;
    s->warm_next = 1;
    return 0;
}

tui_run *session_find(const tui_session *s, int id) { return id >= 1 && id <= s->n_runs ? s->runs[id - 1] : NULL; }

tui_run *session_warm_source(const tui_session *s, const char **why)
{
    const char *dummy;
    if (!why) why = &dummy;
    *why = "";
    if (s->warm_from_id < 0) {
        *why = "the warm start is a flow file";
        return NULL;
    }
    if (s->warm_from_id > 0) {
        tui_run *r = session_find(s, s->warm_from_id);
        if (!r)
            *why = "no such run";
        else if (!r->joined)
            *why = "that run has not finished";
        else if (r->net != s->net)
            *why = "that run is on another network";
        else if (!r->flows)
            *why = "that run has no flows";
        else
            return r;
        return NULL;
    }
    tui_run *r = session_last_finished(s);
    if (!r) *why = "no finished run on this network";
    return r;
}

double session_run_wall(const tui_run *r)
{
    if (r->joined || !r->run) return r->times.wall;
    ds_run_times t;
    ds_run_times_get(r->run, &t);
    return t.wall;
}

int session_run_phase(const tui_run *r, double *progress, char *label, size_t n)
{
    if (r->joined || !r->run) {
        if (progress) *progress = 1;
        if (label && n) label[0] = 0;
        return 3;
    }
    return ds_run_phase(r->run, progress, label, n);
}

int session_run_paused(const tui_run *r) { return !r->joined && r->run && ds_run_is_paused(r->run); }

static void *engine_thread(void *arg)
{
    tui_run *r = arg;
    r->status = ds_run_execute(r->run);
    atomic_store(&r->done, 1);
    /* the DONE event's wake came before done was set: without this one the
     * UI noticed the end at its next poll, up to a second later */
    session_wake(r->s);
    return NULL;
}

static void run_free(tui_run *r)
{
    if (!r) return;
    if (r->run) ds_run_free(r->run);
    free(r->flows);
    free(r->last_x);
    free(r->last_fx);
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

    if (!s->net) {
        ds_error_set(err, "", 0, "no network loaded");
        return NULL;
    }
    if (session_active(s)) {
        ds_error_set(err, "", 0, "a run is already going (a aborts it)");
        return NULL;
    }
    if (s->warm_next && s->warm_from_id < 0) {
        if (!s->warm_file || s->warm_file_net != s->net) {
            ds_error_set(err, "", 0, "the warm-start file %s is for another network (W chooses again)",
                         s->warm_file_path);
            return NULL;
        }
        cfg.warm = s->warm_file;
    } else if (s->warm_next) {
        const char *why;
        warm = session_warm_source(s, &why);
        if (!warm) {
            if (s->warm_from_id > 0)
                ds_error_set(err, "", 0, "cannot warm start from run #%d: %s", s->warm_from_id, why);
            else
                ds_error_set(err, "", 0, "no finished run on this network to warm start from");
            return NULL;
        }
        cfg.warm = warm->flows;
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
    if (!r->run) {
        free(r);
        return NULL;
    }
    r->id = s->n_runs + 1;
    r->s = s;
    r->cfg = cfg;
    r->cfg.warm = NULL;
    r->cost = ds_run_config(r->run)->cost; /* kept: the run is freed at its join */
    r->warm = warm != NULL || cfg.warm != NULL;
    r->warm_from = warm ? warm->id : cfg.warm ? -1 : 0;
    if (r->warm_from < 0) snprintf(r->warm_path, sizeof r->warm_path, "%s", s->warm_file_path);
    r->net = s->net;
    r->status = DS_STATUS_RUNNING;
    r->mu = 0;
    r->cbar = NAN;
    r->last_iter = -1;
    r->shown = 1;
    atomic_init(&r->done, 0);
    ds_run_add_monitor(r->run, monitor, r);

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

/* The three history arrays to cap entries (cap >= r->n). */
static int resize(tui_run *r, size_t cap)
{
    ds_iter_record *rec = realloc(r->rec, (cap ? cap : 1) * sizeof *rec);
    if (rec) r->rec = rec;
    double *it = realloc(r->it, (cap ? cap : 1) * sizeof *it);
    if (it) r->it = it;
    double *gap = realloc(r->gap, (cap ? cap : 1) * sizeof *gap);
    if (gap) r->gap = gap;
    if (!rec || !it || !gap) return -1;
    r->cap = cap;
    return 0;
}

static int is_marker(const ds_iter_record *x)
{
    return x->kind == DS_STEP_MASK_REFRESH || x->kind == DS_STEP_NEWTON_REJ || x->kind == DS_STEP_NEWTON_RECOVER ||
           x->aa_restart;
}

void session_retire(tui_run *r)
{
    if (r->retired || !r->joined) return;
    if (r->n > TUI_THIN_POINTS) {
        size_t stride = (r->n + TUI_THIN_POINTS - 1) / TUI_THIN_POINTS, k = 0, markers = 0;
        for (size_t i = 0; i < r->n; i++) {
            int mark = is_marker(&r->rec[i]) && markers < TUI_THIN_POINTS;
            if (i % stride == 0 || i + TUI_THIN_TAIL >= r->n || mark) {
                markers += mark;
                r->rec[k] = r->rec[i];
                r->it[k] = r->it[i];
                r->gap[k] = r->gap[i];
                k++;
            }
        }
        r->n = k;
        resize(r, k); /* give the memory back; on failure the larger arrays stay */
    }
    if (r->run) ds_run_free(r->run); /* (freed at the join already) */
    r->run = NULL;
    free(r->last_x);
    free(r->last_fx);
    r->last_x = r->last_fx = NULL;
    r->last_iter = -1;
    r->retired = 1;
}

int session_run_costs(const tui_run *r, double *out)
{
    if (!r->flows) return -1;
    /* what the engine's finish() does: ds_costs_eval of the final x */
    ds_costs_eval(r->net, &r->cost, r->flows, out);
    return 0;
}

int session_run_last(const tui_run *r, double *x, double *fx, double *cost)
{
    size_t nb = (size_t)r->net->n_links * sizeof(double);
    if (!r->joined) return r->run ? ds_run_snapshot(r->run, x, fx, cost) : -1;
    if (r->last_iter < 0 || !r->last_fx) return -1;
    const double *lx = r->last_x ? r->last_x : r->flows;
    if (x) memcpy(x, lx, nb);
    if (fx) memcpy(fx, r->last_fx, nb);
    if (cost) { /* (as ds_run_snapshot computes it) */
        ds_costs_eval(r->net, &r->cost, lx, cost);
    }
    return r->last_iter;
}

size_t session_run_bytes(const tui_run *r)
{
    size_t nl = (size_t)r->net->n_links, b = sizeof *r;
    b += r->cap * (sizeof *r->rec + sizeof *r->it + sizeof *r->gap);
    b += (r->flows != NULL) * nl * sizeof(double);
    b += ((r->last_x != NULL) + (r->last_fx != NULL)) * nl * sizeof(double);
    return b;
}

/* At the join: the last published iterate and its image, for the links
 * panel (the engine run that holds them is freed next). x is kept only where
 * it is not the flows already copied. */
static void keep_last(tui_run *r)
{
    size_t nb = (size_t)r->net->n_links * sizeof(double);
    double *x = malloc(nb ? nb : 1), *fx = malloc(nb ? nb : 1);
    int it = x && fx ? ds_run_snapshot(r->run, x, fx, NULL) : -1;
    if (it < 0) {
        free(x);
        free(fx);
        return;
    }
    if (r->flows && !memcmp(x, r->flows, nb)) {
        free(x);
        x = NULL;
    }
    r->last_x = x;
    r->last_fx = fx;
    r->last_iter = it;
}

static int grow(tui_run *r, size_t need)
{
    size_t cap = r->cap ? r->cap : 256;
    while (cap < need) cap *= 2;
    if (cap == r->cap) return 0;
    return resize(r, cap);
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
    if (r->mu == 0 && ds_run_mu(r->run) > 0) {
        r->mu = ds_run_mu(r->run);
        r->cbar = ds_run_cbar(r->run);
    }
    if (atomic_load(&r->done)) {
        const double *f;
        size_t nl = (size_t)r->net->n_links;
        pthread_join(r->thread, NULL);
        copy_new(r); /* records published after our last look */
        /* the arrays grow from 256 records: a short run kept 64 kB of slack
         * for life (Austin-SDB msa, 4 records: 65.5 kB a run) */
        if (r->cap > r->n) resize(r, r->n);
        r->joined = 1;
        r->n_total = r->n;
        r->status = ds_run_status(r->run);
        ds_run_reason(r->run, r->reason, sizeof r->reason);
        ds_run_times_get(r->run, &r->times);
        r->mu = ds_run_mu(r->run);
        r->cbar = ds_run_cbar(r->run);
        if (ds_run_certificate(r->run, &r->cert) != 0) r->cert.valid = 0;
        ds_totals_compute(r->rec, r->n, &r->totals);
        /* flows only where `dillsue solve` writes them: a run that reached an
         * iterate and converged, stopped at max iterations or was cancelled
         * (an ill-posed run ends with none; an error's last iterate, e.g. inner
         * passes that ran out, is no result: solve writes no flows for it and
         * x here exported them) */
        int usable =
            r->status == DS_STATUS_CONVERGED || r->status == DS_STATUS_MAX_ITER || r->status == DS_STATUS_CANCELLED;
        if (usable && r->n && (f = ds_run_flows(r->run)) && (r->flows = malloc(nl * sizeof *f)))
            memcpy(r->flows, f, nl * sizeof *f);
        keep_last(r);
        /* nothing reads the engine run any more: free it now, not when the
         * run is retired (it holds the loader: 52 MB on Austin-SDB dsp, and
         * the 8 latest runs kept theirs: 420 MB) */
        ds_run_free(r->run);
        r->run = NULL;
        r->t_end = session_now();
        session_log(s, r->id, r->status != DS_STATUS_CONVERGED, "run #%d %s after %d iterations: %s", r->id,
                    ds_status_name(r->status), r->n ? r->rec[r->n - 1].iter : 0, r->reason[0] ? r->reason : "-");
        for (int i = 0; i < s->n_runs - TUI_KEEP_FULL; i++) session_retire(s->runs[i]);
#if defined(__GLIBC__)
        /* hand the freed histories back to the system: glibc keeps freed heap
         * memory otherwise, and a long session's RSS would only grow */
        malloc_trim(0);
#endif
        changed = 1;
    } else {
        r->n_total = r->n;
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
    for (int i = 0; i < s->n_nets; i++) {
        ds_network_free(s->nets[i]);
        free(s->net_keys[i]);
    }
    free(s->nets);
    free(s->net_keys);
    free(s->log);
    free(s->warm_file);
    pthread_mutex_destroy(&s->log_mu);
    for (int i = 0; i < 2; i++)
        if (s->wake_fd[i] >= 0) close(s->wake_fd[i]);
    memset(s, 0, sizeof *s);
    s->wake_fd[0] = s->wake_fd[1] = -1;
}
