/* pool.c - persistent worker threads; the caller works as worker 0.
 * Workers spin briefly, then sleep, between jobs (pool_spin_s).
 * Workers block all signals so that only the front end's thread sees them. */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "clock.h"
#include "pool.h"

struct ds_pool {
    int threads;
    pthread_t *tid;
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    atomic_long generation; /* bumped for every job, under mu */
    int quit;
    atomic_int busy; /* workers still in the current job */
    ds_pool_fn fn;
    void *ctx;
    int n_items;
    atomic_int next;
    double spin_s;
};

/* Between jobs a worker (and the caller, waiting for the workers) spins this
 * long before it sleeps on the condition variable: a futex wake-up costs tens
 * of microseconds, as much as a whole J v on Sioux Falls, and a solve issues
 * thousands of jobs with short serial gaps between them (farm-bench, 2 threads,
 * 50 us against none: Sioux Falls full 0.85x wall, EMA dsp 0.88x, Anaheim full
 * 0.96x). No spinning when the pool has more threads than there are cores.
 * A Newton step's serial gaps (line search, GMRES, costs) outlast 50 us: with
 * that spin Anaheim full on 2 threads slept and woke a worker about 100 times
 * a run (196 futex calls; 33 with this one). So the spin lasts up to 1 ms, and
 * after pool_spin_polite_s it yields the core at each round: cheap where
 * nothing else wants it, and once a yield gives the core away (another
 * process's thread ran) the spin stops and the thread sleeps. */
static const double pool_spin_s = 1e-3;
static const double pool_spin_polite_s = 50e-6;
/* Threads of every live pool of the process (a sweep runs several cells at
 * once, each with its pool): beyond the cores the spin stops at
 * pool_spin_polite_s, the rule before the long spin (a sweep of 2 workers x 2
 * threads on 2 cores was 7 % slower with it). */
static atomic_int pool_threads_live, pool_cores;
#define POOL_YIELD_BUSY_S 20e-6 /* a sched_yield that returns later than this gave the core away */

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Spin until the job generation differs from seen (worker) or, with seen < 0,
 * until no worker is busy (the caller), for at most spin_s seconds. */
static void spin_wait(ds_pool *p, long seen)
{
    if (p->spin_s <= 0) return;
    double start = ds_clock_now(), polite = start + pool_spin_polite_s, end = start + p->spin_s;
    if (atomic_load_explicit(&pool_threads_live, memory_order_relaxed) >
        atomic_load_explicit(&pool_cores, memory_order_relaxed))
        end = polite;
    for (;;) {
        for (int k = 0; k < 16; k++) {
            if (seen >= 0 ? atomic_load_explicit(&p->generation, memory_order_acquire) != seen
                          : atomic_load_explicit(&p->busy, memory_order_acquire) <= 0)
                return;
            cpu_relax();
        }
        double now = ds_clock_now();
        if (now > end) return;
        if (now > polite) {
            sched_yield();
            /* something else ran meanwhile: the core is wanted, sleep instead */
            if (ds_clock_now() - now > POOL_YIELD_BUSY_S) return;
        }
    }
}

struct worker_arg {
    ds_pool *p;
    int id;
};

static void run_items(ds_pool *p, int id)
{
    for (;;) {
        int i = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed);
        if (i >= p->n_items) break;
        p->fn(p->ctx, id, i);
    }
}

static void *worker_main(void *arg)
{
    struct worker_arg *wa = arg;
    ds_pool *p = wa->p;
    int id = wa->id;
    long seen = 0;
    free(wa);
    for (;;) {
        spin_wait(p, seen);
        pthread_mutex_lock(&p->mu);
        while (!p->quit && p->generation == seen) pthread_cond_wait(&p->go, &p->mu);
        if (p->quit) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        seen = p->generation;
        pthread_mutex_unlock(&p->mu);
        run_items(p, id);
        if (atomic_fetch_sub_explicit(&p->busy, 1, memory_order_acq_rel) == 1) {
            pthread_mutex_lock(&p->mu);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
    }
}

int ds_ncores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

ds_pool *ds_pool_create(int threads)
{
    ds_pool *p = calloc(1, sizeof *p);
    sigset_t all, old;
    if (!p) return NULL;
    if (threads < 1) threads = 1;
    p->threads = threads;
    int cores = ds_ncores();
    atomic_store_explicit(&pool_cores, cores, memory_order_relaxed);
    p->spin_s = threads <= cores ? pool_spin_s : 0;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    p->tid = calloc((size_t)threads, sizeof(pthread_t));
    if (!p->tid) {
        free(p);
        return NULL;
    }
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    for (int i = 1; i < threads; i++) {
        struct worker_arg *wa = malloc(sizeof *wa);
        if (wa) wa->p = p, wa->id = i;
        if (!wa || pthread_create(&p->tid[i], NULL, worker_main, wa) != 0) {
            free(wa);
            p->threads = i; /* run with what we got */
            break;
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    atomic_fetch_add_explicit(&pool_threads_live, p->threads, memory_order_relaxed);
    return p;
}

int ds_pool_threads(const ds_pool *p) { return p->threads; }

int ds_pool_live_threads(void) { return atomic_load(&pool_threads_live); }

void ds_pool_run(ds_pool *p, int n_items, ds_pool_fn fn, void *ctx)
{
    p->fn = fn;
    p->ctx = ctx;
    p->n_items = n_items;
    atomic_store(&p->next, 0);
    if (p->threads == 1 || n_items <= 1) {
        run_items(p, 0);
        return;
    }
    atomic_store(&p->busy, p->threads - 1);
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add_explicit(&p->generation, 1, memory_order_release);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    run_items(p, 0);
    spin_wait(p, -1);
    if (atomic_load_explicit(&p->busy, memory_order_acquire) > 0) {
        pthread_mutex_lock(&p->mu);
        while (atomic_load(&p->busy) > 0) pthread_cond_wait(&p->done, &p->mu);
        pthread_mutex_unlock(&p->mu);
    }
}

void ds_pool_free(ds_pool *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    atomic_fetch_add_explicit(&p->generation, 1, memory_order_release); /* ends a spin at once */
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (int i = 1; i < p->threads; i++) pthread_join(p->tid[i], NULL);
    atomic_fetch_sub_explicit(&pool_threads_live, p->threads, memory_order_relaxed);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    free(p->tid);
    free(p);
}
