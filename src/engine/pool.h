/* pool.h - a persistent pthread pool that runs one parallel-for at a time. */
#ifndef DS_POOL_H
#define DS_POOL_H

typedef struct ds_pool ds_pool;
/* Job: called as fn(ctx, worker, item) for item in [0, n_items), items handed
 * out dynamically. Results must not depend on which worker ran an item. */
typedef void (*ds_pool_fn)(void *ctx, int worker, int item);

/* threads >= 1 (the calling thread is worker 0). Returns NULL on failure. */
ds_pool *ds_pool_create(int threads);
int ds_pool_threads(const ds_pool *p);
void ds_pool_run(ds_pool *p, int n_items, ds_pool_fn fn, void *ctx);
void ds_pool_free(ds_pool *p);
/* Number of online cores. */
int ds_ncores(void);
/* Threads of all live pools of the process (each pool's workers and its
 * caller): beyond ds_ncores() the pools spin only briefly between jobs. */
int ds_pool_live_threads(void);
#endif
