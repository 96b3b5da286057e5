/* test_pool.c - the worker pool hands out every item of every job exactly
 * once, whether the workers are still spinning when the next job comes (jobs
 * back to back), spinning politely (yielding the core, a pause of 300 us) or
 * asleep on the condition variable (a pause longer than the 1 ms spin between
 * jobs), and a job's results are visible to the caller when ds_pool_run
 * returns; the live-thread count that shortens the spin of oversubscribed
 * pools follows creation and release. */
#include <stdatomic.h>
#include <time.h>

#include "pool.h"
#include "tcheck.h"

#define MAX_ITEMS 64

struct job {
    atomic_int hits[MAX_ITEMS];
    int plain[MAX_ITEMS]; /* written without atomics: needs the pool's ordering */
    int round;
};

static void fn(void *ctx, int worker, int item)
{
    struct job *j = ctx;
    (void)worker;
    atomic_fetch_add(&j->hits[item], 1);
    j->plain[item] = j->round;
}

static void nap_us(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

/* rounds jobs of 1..MAX_ITEMS items; every `pause_every`-th job is preceded by
 * a pause of pause_us (0: none). Returns the number of bad items seen. */
static long stress(ds_pool *p, int rounds, int pause_every, long pause_us)
{
    static struct job j;
    long bad = 0;
    for (int r = 0; r < rounds; r++) {
        int n = 1 + (r * 7) % MAX_ITEMS;
        for (int i = 0; i < MAX_ITEMS; i++) atomic_store(&j.hits[i], 0);
        j.round = r + 1;
        if (pause_every && r % pause_every == 0) nap_us(pause_us);
        ds_pool_run(p, n, fn, &j);
        for (int i = 0; i < MAX_ITEMS; i++) {
            int want = i < n ? 1 : 0;
            if (atomic_load(&j.hits[i]) != want) bad++;
            if (i < n && j.plain[i] != r + 1) bad++;
        }
    }
    return bad;
}

int main(void)
{
    int threads[] = {1, 2, 3, 8};
    for (size_t k = 0; k < sizeof threads / sizeof threads[0]; k++) {
        char name[64];
        ds_pool *p = ds_pool_create(threads[k]);
        snprintf(name, sizeof name, "pool_back_to_back_%d_threads", threads[k]);
        tc_begin(name);
        TC_CHECK(p != NULL, "ds_pool_create(%d) failed", threads[k]);
        if (p) {
            long bad = stress(p, threads[k] > 2 ? 2000 : 20000, 0, 0);
            TC_CHECK(bad == 0, "%ld items missed, repeated or not visible", bad);
        }
        tc_end();
        /* 300 us pauses: past the busy spin, within the polite one; 2 ms:
         * longer than the spin, so the workers sleep first */
        static const struct {
            const char *what;
            int rounds;
            long pause_us;
        } pauses[] = {{"yielding", 400, 300}, {"sleeping", 200, 2000}};
        for (size_t q = 0; q < sizeof pauses / sizeof pauses[0]; q++) {
            snprintf(name, sizeof name, "pool_after_%s_%d_threads", pauses[q].what, threads[k]);
            tc_begin(name);
            if (p) {
                long bad = stress(p, pauses[q].rounds, 2, pauses[q].pause_us);
                TC_CHECK(bad == 0, "%ld items missed, repeated or not visible", bad);
            }
            tc_end();
        }
        ds_pool_free(p);
    }
    tc_begin("pool_live_threads");
    {
        int base = ds_pool_live_threads();
        ds_pool *a = ds_pool_create(2), *b = ds_pool_create(3);
        TC_CHECK(a && b, "pools");
        TC_CHECK(ds_pool_live_threads() == base + 5, "2 + 3 threads live: %d more", ds_pool_live_threads() - base);
        ds_pool_free(a);
        TC_CHECK(ds_pool_live_threads() == base + 3, "after one free: %d more", ds_pool_live_threads() - base);
        /* oversubscribed (5 > 2 cores here): jobs still complete */
        TC_CHECK(stress(b, 400, 2, 300) == 0, "oversubscribed pool lost items");
        ds_pool_free(b);
        TC_CHECK(ds_pool_live_threads() == base, "after both: %d more", ds_pool_live_threads() - base);
    }
    tc_end();
    return tc_exit();
}
