/* gpu.c - host driver of the GPU loading map and its derivative.
 *
 * All destinations are batched into fixed-shape arrays ([destination x node],
 * [destination x link]) and each step is one launch over all of them:
 *   full graph, exact (the default, --inner direct): the exponentiated form of
 *     loader_direct.c. Shortest distances D to every destination by
 *     synchronous Bellman-Ford passes; reduced weights w~ in (0,1]; the linear
 *     systems (I - W~) z = b, (I - P^T) phi = q and, for J v, (I - P) dV = b1
 *     and (I - P^T) dphi = s solved for all destinations at once by BiCGSTAB
 *     (one sparse mat-vec launch over every destination per product,
 *     per-destination scalars on the device, the true residual recomputed and
 *     tested every DSG_KCHECK iterations), to inner_tol; z >= 1 is the exact
 *     existence test; a solve that does not reach the tolerance is reported
 *     as unconverged, never as divergence;
 *   full graph, Jacobi passes (the paper's L_val, --inner passes): synchronous
 *     log-sum-exp Bellman passes, warm-started from the previous call's values,
 *     convergence (max |dV| < inner_tol) checked every DSG_CHECK passes with a
 *     two-stage reduction; then Jacobi absorption passes until the mass in
 *     transit is < inner_tol of each destination's demand; values still moving
 *     after inner_max passes are unconverged;
 *   filtered graphs: the CPU loader's per-destination DAGs, flattened, with
 *     topological levels computed here once: one exact Bellman launch per
 *     level bottom up, one absorption launch per level top down;
 *   link flows and J v: one thread per link sums over destinations in a fixed
 *     order, so results do not depend on scheduling.
 * The same control flow drives the device (cuda/gpu_cuda.cu via dlopen) and
 * the CPU emulation (cuda/emul.c) through the dsg_ops table.
 */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cuda/dsg_ops.h"
#include "gpu.h"
#include "loader_int.h"
#include "module.h"

#define DSG_CHECK 4                /* Jacobi passes between convergence checks */
#define DSG_KCHECK 4               /* BiCGSTAB iterations between true-residual checks */
#define DSG_KMAX DS_GPU_KRYLOV_MAX /* BiCGSTAB iterations per solve at most */
#define DSG_KSTALL 16              /* checks without halving the residual: restart; twice that: give up */
#define LIB_NAME "libdillsue_cuda.so"

static _Thread_local char last_err[768];

const char *ds_gpu_last_error(void) { return last_err; }

static int set_err(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static int set_err(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_err, sizeof last_err, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---------------------------------------------------- the shared object */

static pthread_once_t lib_once = PTHREAD_ONCE_INIT;
static const dsg_ops *lib_ops;
static char lib_why[512];

/* A module is ours if its entry symbol gives a table of this ABI. */
static int accept_cuda(void *h, const char *path, void *ctx, char *why, size_t n)
{
    dsg_cuda_ops_fn fn;
    (void)ctx;
    *(void **)(&fn) = dlsym(h, DSG_CUDA_SYMBOL);
    lib_ops = fn ? fn(DSG_ABI) : NULL;
    if (lib_ops) return 0;
    snprintf(why, n, "%s is from another build (no matching %s)", path, DSG_CUDA_SYMBOL);
    return -1;
}

/* $DILLSUE_CUDA_LIB, else next to the program (module.c) */
static void lib_load(void)
{
    ds_module_open(LIB_NAME, "DILLSUE_CUDA_LIB", RTLD_NOW | RTLD_LOCAL, accept_cuda, NULL, "built without nvcc",
                   lib_why, sizeof lib_why);
}

static const dsg_ops *cuda_ops(void)
{
    pthread_once(&lib_once, lib_load);
    return lib_ops;
}

int ds_gpu_probe(char *info, size_t n)
{
    const dsg_ops *o = cuda_ops();
    if (!o) {
        snprintf(info, n, "GPU: none (%s)", lib_why);
        return 0;
    }
    return o->probe(info, n);
}

/* ------------------------------------------------------------ the loader */

typedef struct dag_host {
    int n_levels, n_items, n_flat;
    int *lvl_start; /* [n_levels + 1] */
} dag_host;

struct ds_gpu_loader {
    ds_loader *cpu;
    const ds_network *net;
    const dsg_ops *ops;
    void *ctx;
    int emulate, full, n, m, nd, inner_max, absorb_max;
    /* Jacobi passes move a change one link per pass, where one Gauss-Seidel
     * pass of the CPU in its search order carries it along a whole tree: the
     * passes' limits add depth, the most links on a free-flow shortest path
     * to a destination, so that --inner-max means the same on both (a 300-node
     * network at tau 100 needed 69 Jacobi passes where the CPU needed 17) */
    int depth;
    double mu, inner_tol;
    dsg_k k;                     /* every device pointer, the base of each launch */
    double *V[2], *R[2], *dV[2]; /* double buffers of the Jacobi passes */
    int vcur, warm, jv_ok;
    /* exact inner solves (full graph) */
    int krylov;       /* 1: BiCGSTAB (--inner direct), 0: Jacobi passes */
    int phi_ok;       /* phi holds the last solution (warm start) */
    double *D[2], *Z; /* Bellman-Ford buffers, z */
    double *kr, *krh, *kp, *kv, *ks, *kt, *kb, *ksc, *dpart, *dred;
    double *kph, *ksh; /* preconditioned p, s */
    int *kact, *kkeep;
    double *kxb;                   /* the best iterates (krylov) */
    int *h_act, *h_it, *h_stall;   /* [nd] host */
    int *h_keep;                   /* [nd] host */
    double *h_res, *h_best;        /* [nd] host */
    double *h_bres;                /* [nd] host: the best iterate's scaled residual */
    double *h_red, *h_prev, *qtot; /* [nd] host */
    double loaded, arrived;        /* demand with a path; demand that arrived, last evaluation */
    double *v_cold;                /* [nd * n] host: full-graph start values */
    dag_host dh;
    /* level sweeps kept as recorded sequences (levels()): what each slot ran */
    struct {
        int kid, up, from;
        dsg_k k;
    } seq[DSG_SEQS];
    int n_seq, next_seq, n_recorded;
    unsigned char *rdag; /* --start relax: [nd * m] on the device, by CSR position; NULL until asked for */
    ds_load_stats stats;
};

static int gfail(ds_gpu_loader *g, const char *what)
{
    return set_err("%s backend: %s: %s", g->ops->name, what, g->ops->error(g->ctx));
}

static void *dalloc(ds_gpu_loader *g, size_t bytes)
{
    void *p = g->ops->alloc(g->ctx, bytes);
    if (!p) gfail(g, "device allocation");
    return p;
}

static void dfree(ds_gpu_loader *g, const void *p)
{
    if (p) g->ops->release(g->ctx, (void *)p);
}

/* Allocate and fill from host; NULL on failure. */
static void *dup_dev(ds_gpu_loader *g, const void *host, size_t bytes)
{
    void *p = dalloc(g, bytes);
    if (p && g->ops->put(g->ctx, p, host, bytes) != 0) {
        gfail(g, "copy to device");
        dfree(g, p);
        return NULL;
    }
    return p;
}

static int launch(ds_gpu_loader *g, int kid, long threads, const dsg_k *k)
{
    long grid = (threads + DSG_BLOCK - 1) / DSG_BLOCK;
    if (grid <= 0) return 0;
    if (grid > 2147483647L) return set_err("%s backend: launch of %ld threads is too large", g->ops->name, threads);
    if (g->ops->launch(g->ctx, kid, (int)grid, k) != 0) return gfail(g, "kernel launch");
    return 0;
}

/* A launch over [destination x node] in n_dest x nbn blocks (dsg_dn). */
static int launch_dn(ds_gpu_loader *g, int kid, const dsg_k *k)
{
    long grid = (long)g->nd * k->nbn;
    if (grid > 2147483647L) return set_err("%s backend: launch of %ld blocks is too large", g->ops->name, grid);
    if (g->ops->launch(g->ctx, kid, (int)grid, k) != 0) return gfail(g, "kernel launch");
    return 0;
}

/* Per-destination reduction of a [nd x len] array into g->h_red (host). */
static int reduce(ds_gpu_loader *g, const double *src, long len, int mode)
{
    dsg_k k = g->k;
    k.src = src;
    k.len = len;
    k.red_mode = mode;
    if (g->ops->launch(g->ctx, DSG_KID_red1, g->nd, &k) != 0) return gfail(g, "kernel launch");
    if (launch(g, DSG_KID_red2, g->nd, &k) != 0) return -1;
    if (g->ops->get(g->ctx, g->h_red, k.red, sizeof(double) * (size_t)g->nd) != 0) return gfail(g, "copy from device");
    return 0;
}

static int fill(ds_gpu_loader *g, double *dst, long len, double val)
{
    dsg_k k = g->k;
    k.dst = dst;
    k.len = len;
    k.fill = val;
    return launch(g, DSG_KID_fill, len, &k);
}

/* --------------------------------------------------------- DAG flattening */

static void dag_free_dev(ds_gpu_loader *g)
{
    dsg_k *k = &g->k;
    dfree(g, k->it_dest), dfree(g, k->it_node), dfree(g, k->it_l0), dfree(g, k->it_l1);
    dfree(g, k->it_i0), dfree(g, k->it_i1), dfree(g, k->fl_link), dfree(g, k->fl_dest);
    dfree(g, k->in_k), dfree(g, k->red_start), dfree(g, k->red_k);
    dfree(g, k->A), dfree(g, k->P), dfree(g, k->dP);
    k->it_dest = k->it_node = k->it_l0 = k->it_l1 = k->it_i0 = k->it_i1 = NULL;
    k->fl_link = k->fl_dest = k->in_k = k->red_start = k->red_k = NULL;
    k->A = k->P = k->dP = NULL;
    free(g->dh.lvl_start);
    memset(&g->dh, 0, sizeof g->dh);
}

/* The DAGs flattened on the host, before they go to the device. Items are
 * (destination, node) pairs, flat links the DAG links of all destinations. */
typedef struct dag_flat {
    int n_items, n_flat, n_levels;
    int *loff, *ioff;                                       /* per destination: first flat link, first item (nd + 1) */
    int *lvl, *slot;                                        /* per item in DAG order: level, position sorted by level */
    int *it_dest, *it_node, *it_l0, *it_l1, *it_i0, *it_i1; /* per sorted item */
    int *fl_link, *fl_dest, *in_k, *red_k;                  /* per flat link */
    int *red_start;                                         /* per network link (m + 2) */
    int *fill_pos;                                          /* scratch (m + 1) */
    int *scr, *wmax;                                        /* per worker: 2 n ints of scratch, deepest level */
} dag_flat;

static void flat_free(dag_flat *f)
{
    free(f->loff), free(f->ioff), free(f->lvl), free(f->slot), free(f->scr), free(f->wmax);
    free(f->it_dest), free(f->it_node), free(f->it_l0), free(f->it_l1), free(f->it_i0), free(f->it_i1);
    free(f->fl_link), free(f->fl_dest), free(f->in_k), free(f->red_k), free(f->red_start), free(f->fill_pos);
}

/* The flattening runs over destinations on the CPU loader's pool: every step
 * below writes only the items and flat links of its own destination, and its
 * scratch (indexed by node or by the destination's own item number) is the
 * worker's, so the arrays do not depend on the thread count. Counting the
 * in-links per destination-local item first (in cache) and writing each item's
 * count once is what keeps the set-up from paying a cache miss per DAG link
 * (Berlin-Center dsp: 11.8 million links, 11.1 million items). */
enum { FLAT_LEVELS, FLAT_ITEMS, FLAT_FILL };

typedef struct flat_job {
    const ds_gpu_loader *g;
    const ld_dag *dag;
    dag_flat *f;
    int step;
} flat_job;

/* Each item's level: the longest DAG path to the destination, in the DAG's
 * topological order (destination first), so every head of a node's links is
 * on a lower level. */
static void flat_levels(const ds_gpu_loader *g, const ld_dag *d, dag_flat *f, int di, int *lvl_node, int *wmax)
{
    for (int i = 0; i < d->n; i++) {
        int L = 0;
        for (int q = d->lstart[i]; q < d->lstart[i + 1]; q++) {
            int h = lvl_node[g->net->head[d->link[q]]] + 1;
            if (h > L) L = h;
        }
        if (i > 0 && L < 1) L = 1;
        lvl_node[d->node[i]] = L;
        f->lvl[f->ioff[di] + i] = L;
        if (L > *wmax) *wmax = L;
    }
}

/* Per sorted item: its destination, node, range of flat links and (in it_i0
 * for now) its number of in-links; per flat link: network link, destination. */
static void flat_items(const ds_gpu_loader *g, const ld_dag *d, dag_flat *f, int di, int *loc, int *cnt)
{
    const int *slot = f->slot + f->ioff[di], lo = f->loff[di];
    for (int i = 0; i < d->n; i++) {
        int s = slot[i];
        f->it_dest[s] = di;
        f->it_node[s] = d->node[i];
        f->it_l0[s] = lo + d->lstart[i];
        f->it_l1[s] = lo + d->lstart[i + 1];
        loc[d->node[i]] = i;
        cnt[i] = 0;
    }
    for (int q = 0; q < d->n_links; q++) {
        f->fl_link[lo + q] = d->link[q];
        f->fl_dest[lo + q] = di;
        cnt[loc[g->net->head[d->link[q]]]]++;
    }
    for (int i = 0; i < d->n; i++) f->it_i0[slot[i]] = cnt[i];
}

/* In-link lists (flat links in order) into the positions it_i0 gives. */
static void flat_fill(const ds_gpu_loader *g, const ld_dag *d, dag_flat *f, int di, int *loc, int *pos)
{
    const int *slot = f->slot + f->ioff[di], lo = f->loff[di];
    for (int i = 0; i < d->n; i++) {
        loc[d->node[i]] = i;
        pos[i] = f->it_i0[slot[i]];
    }
    for (int q = 0; q < d->n_links; q++) f->in_k[pos[loc[g->net->head[d->link[q]]]]++] = lo + q;
}

static void flat_job_fn(void *ctx, int worker, int di)
{
    flat_job *j = ctx;
    int n = j->g->n, *a = j->f->scr + (size_t)worker * 2 * (size_t)n, *b = a + n;
    const ld_dag *d = &j->dag[di];
    if (j->step == FLAT_LEVELS)
        flat_levels(j->g, d, j->f, di, a, &j->f->wmax[worker]);
    else if (j->step == FLAT_ITEMS)
        flat_items(j->g, d, j->f, di, a, b);
    else
        flat_fill(j->g, d, j->f, di, a, b);
}

static void flat_run(const ds_gpu_loader *g, const ld_dag *dag, dag_flat *f, int step)
{
    flat_job j = {g, dag, f, step};
    ds_pool_run(g->cpu->pool, g->nd, flat_job_fn, &j);
}

/* Item and link offsets per destination, each item's level, the number of
 * levels. 0 or -1. */
static int dag_levels(const ds_gpu_loader *g, const ld_dag *dag, dag_flat *f)
{
    int nd = g->nd, nw = ds_pool_threads(g->cpu->pool);
    f->scr = malloc(sizeof(int) * 2 * (size_t)g->n * (size_t)nw);
    f->wmax = calloc((size_t)nw, sizeof(int));
    f->loff = malloc(sizeof(int) * (size_t)(nd + 1));
    f->ioff = malloc(sizeof(int) * (size_t)(nd + 1));
    if (!f->scr || !f->wmax || !f->loff || !f->ioff) return -1;
    f->loff[0] = f->ioff[0] = 0;
    for (int di = 0; di < nd; di++) {
        f->loff[di + 1] = f->loff[di] + dag[di].n_links;
        f->ioff[di + 1] = f->ioff[di] + dag[di].n;
    }
    f->n_items = f->ioff[nd];
    f->n_flat = f->loff[nd];
    f->lvl = malloc(sizeof(int) * (size_t)(f->n_items + 1));
    f->slot = malloc(sizeof(int) * (size_t)(f->n_items + 1));
    if (!f->lvl || !f->slot) return -1;
    flat_run(g, dag, f, FLAT_LEVELS);
    f->n_levels = 0;
    for (int w = 0; w < nw; w++)
        if (f->wmax[w] + 1 > f->n_levels) f->n_levels = f->wmax[w] + 1;
    if (f->n_items == 0) f->n_levels = 0;
    return 0;
}

/* Stable counting sort of the items by level: slot[item] = sorted position;
 * the first position of each level into g->dh.lvl_start. 0 or -1. */
static int dag_sort_levels(ds_gpu_loader *g, dag_flat *f)
{
    int *cnt = calloc((size_t)f->n_levels + 1, sizeof(int));
    if (!cnt) return -1;
    for (int i = 0; i < f->n_items; i++) cnt[f->lvl[i] + 1]++;
    for (int L = 0; L < f->n_levels; L++) cnt[L + 1] += cnt[L];
    g->dh.lvl_start = malloc(sizeof(int) * (size_t)(f->n_levels + 1));
    if (!g->dh.lvl_start) {
        free(cnt);
        return -1;
    }
    memcpy(g->dh.lvl_start, cnt, sizeof(int) * (size_t)(f->n_levels + 1));
    for (int i = 0; i < f->n_items; i++) f->slot[i] = cnt[f->lvl[i]]++;
    free(cnt);
    return 0;
}

static int flat_alloc_items(const ds_gpu_loader *g, dag_flat *f)
{
    size_t ni = (size_t)f->n_items + 1, nf = (size_t)f->n_flat + 1;
    int m = g->m;
    f->it_dest = malloc(sizeof(int) * ni), f->it_node = malloc(sizeof(int) * ni);
    f->it_l0 = malloc(sizeof(int) * ni), f->it_l1 = malloc(sizeof(int) * ni);
    f->it_i0 = malloc(sizeof(int) * ni), f->it_i1 = malloc(sizeof(int) * ni);
    f->fl_link = malloc(sizeof(int) * nf), f->fl_dest = malloc(sizeof(int) * nf), f->in_k = malloc(sizeof(int) * nf);
    f->red_start = calloc((size_t)m + 2, sizeof(int)), f->red_k = malloc(sizeof(int) * nf);
    f->fill_pos = malloc(sizeof(int) * ((size_t)m + 1));
    return f->it_dest && f->it_node && f->it_l0 && f->it_l1 && f->it_i0 && f->it_i1 && f->fl_link && f->fl_dest &&
                   f->in_k && f->red_start && f->red_k && f->fill_pos
               ? 0
               : -1;
}

/* Items, flat links, and the in-link lists per item (in flat-link order):
 * counts per destination, prefix sums in sorted order, fill per destination. */
static void dag_items(const ds_gpu_loader *g, const ld_dag *dag, dag_flat *f)
{
    int acc = 0;
    flat_run(g, dag, f, FLAT_ITEMS);
    for (int s = 0; s < f->n_items; s++) {
        int c = f->it_i0[s];
        f->it_i0[s] = acc;
        f->it_i1[s] = acc + c;
        acc += c;
    }
    flat_run(g, dag, f, FLAT_FILL);
}

/* The copies of each network link, in destination order (for the reduction
 * of the per-destination flows onto links). */
static void dag_link_copies(const ds_gpu_loader *g, dag_flat *f)
{
    int m = g->m;
    for (int q = 0; q < f->n_flat; q++) f->red_start[f->fl_link[q] + 1]++;
    for (int e = 0; e < m; e++) f->red_start[e + 1] += f->red_start[e];
    for (int e = 0; e < m; e++) f->fill_pos[e] = f->red_start[e];
    for (int q = 0; q < f->n_flat; q++) f->red_k[f->fill_pos[f->fl_link[q]]++] = q;
}

/* The flattened arrays to the device, and A, P, dP of the filtered variants
 * (per DAG link; the full graph keeps them per (destination, link)). */
static int dag_to_device(ds_gpu_loader *g, const dag_flat *f)
{
    dsg_k *k = &g->k;
    size_t bi = sizeof(int) * (size_t)f->n_items, bf = sizeof(int) * (size_t)f->n_flat;
    size_t bd = sizeof(double) * (size_t)(f->n_flat + 1);
    if (!(k->it_dest = dup_dev(g, f->it_dest, bi)) || !(k->it_node = dup_dev(g, f->it_node, bi)) ||
        !(k->it_l0 = dup_dev(g, f->it_l0, bi)) || !(k->it_l1 = dup_dev(g, f->it_l1, bi)) ||
        !(k->it_i0 = dup_dev(g, f->it_i0, bi)) || !(k->it_i1 = dup_dev(g, f->it_i1, bi)) ||
        !(k->fl_link = dup_dev(g, f->fl_link, bf)) || !(k->fl_dest = dup_dev(g, f->fl_dest, bf)) ||
        !(k->in_k = dup_dev(g, f->in_k, bf)) ||
        !(k->red_start = dup_dev(g, f->red_start, sizeof(int) * (size_t)(g->m + 1))) ||
        !(k->red_k = dup_dev(g, f->red_k, bf)))
        return -1;
    if (!g->full && (!(k->A = dalloc(g, bd)) || !(k->P = dalloc(g, bd)) || !(k->dP = dalloc(g, bd)))) return -1;
    k->n_flat = f->n_flat;
    return 0;
}

/* Flatten the CPU loader's DAGs: items (destination, node) sorted by level
 * (level = longest DAG path to the destination, so every head of a node's
 * links is on a lower level and every tail of its in-links on a higher one),
 * then per-item link ranges, per-item in-link lists and per-link copy lists. */
static int dag_upload(ds_gpu_loader *g, const ld_dag *dag)
{
    dag_flat f;
    int rc = -1;
    memset(&f, 0, sizeof f);
    if (dag_levels(g, dag, &f) == 0 && dag_sort_levels(g, &f) == 0 && flat_alloc_items(g, &f) == 0) {
        dag_items(g, dag, &f);
        dag_link_copies(g, &f);
        if (dag_to_device(g, &f) == 0) {
            g->dh.n_levels = f.n_levels;
            g->dh.n_items = f.n_items;
            g->dh.n_flat = f.n_flat;
            rc = 0;
        }
    }
    if (rc != 0 && !last_err[0]) set_err("out of memory flattening the DAGs (%d items, %d links)", f.n_items, f.n_flat);
    flat_free(&f);
    return rc;
}

/* ------------------------------------------------------------- lifecycle */

const char *ds_gpu_loader_kind(const ds_gpu_loader *g) { return g->ops->name; }

int ds_gpu_loader_recorded(const ds_gpu_loader *g) { return g->n_recorded; }

void ds_gpu_loader_free(ds_gpu_loader *g)
{
    if (!g) return;
    if (g->ctx) {
        dsg_k *k = &g->k;
        dag_free_dev(g);
        dfree(g, k->tail), dfree(g, k->head), dfree(g, k->out_start), dfree(g, k->out_link);
        dfree(g, k->in_start), dfree(g, k->in_link), dfree(g, k->pos);
        dfree(g, k->cap_c), dfree(g, k->t0), dfree(g, k->bpr_b), dfree(g, k->bpr_p), dfree(g, k->fixed);
        dfree(g, k->dest_node), dfree(g, k->usable), dfree(g, g->rdag), dfree(g, k->Q);
        dfree(g, k->x), dfree(g, k->v), dfree(g, k->t), dfree(g, k->dtv), dfree(g, k->f);
        dfree(g, k->delta), dfree(g, k->phi), dfree(g, k->dphi), dfree(g, k->part), dfree(g, k->red);
        for (int i = 0; i < 2; i++) dfree(g, g->V[i]), dfree(g, g->R[i]), dfree(g, g->dV[i]), dfree(g, g->D[i]);
        dfree(g, g->Z), dfree(g, g->kr), dfree(g, g->krh), dfree(g, g->kp), dfree(g, g->kv), dfree(g, g->ks);
        dfree(g, g->kt), dfree(g, g->kb), dfree(g, g->ksc), dfree(g, g->dpart), dfree(g, g->dred), dfree(g, g->kact);
        dfree(g, g->kph), dfree(g, g->ksh), dfree(g, g->kkeep), dfree(g, g->kxb);
        g->ops->close(g->ctx);
    }
    free(g->h_red);
    free(g->h_prev);
    free(g->qtot);
    free(g->v_cold);
    free(g->h_act), free(g->h_it), free(g->h_stall), free(g->h_res), free(g->h_best);
    free(g->h_keep), free(g->h_bres);
    free(g);
}

/* The preconditioner's triangular part on the full graph: per destination
 * the usable links going strictly down in free-flow distance (acyclic by
 * construction), nodes in Dijkstra's settle order (a topological order,
 * destination first), in the layout of the filtered variants' DAGs. */
static int pc_dag_build(const ds_network *net, int dest, const double *dist, const int *order, int *lk, ld_dag *out)
{
    int R = 0, cnt = 0;
    for (int i = 0; i < net->n_nodes; i++) R += dist[i] < INFINITY; /* the settled nodes lead order */
    out->n = R;
    out->node = malloc(sizeof(int) * (size_t)(R + 1));
    out->lstart = malloc(sizeof(int) * (size_t)(R + 1));
    if (!out->node || !out->lstart) return -1;
    for (int i = 0; i < R; i++) {
        int u = order[i];
        out->node[i] = u;
        out->lstart[i] = cnt;
        if (u == dest) continue;
        for (int q = net->out_start[u]; q < net->out_start[u + 1]; q++) {
            int e = net->out_link[q];
            if (sp_link_usable(net, e, dest) && dist[net->head[e]] < dist[u]) lk[cnt++] = e;
        }
    }
    out->lstart[R] = cnt;
    out->n_links = cnt;
    out->link = malloc(sizeof(int) * (size_t)(cnt + 1));
    if (!out->link) return -1;
    memcpy(out->link, lk, sizeof(int) * (size_t)cnt);
    return 0;
}

static int upload_network(ds_gpu_loader *g)
{
    const ds_network *net = g->net;
    const ds_loader *cpu = g->cpu;
    dsg_k *k = &g->k;
    int n = g->n, m = g->m, nd = g->nd, rc = -1;
    size_t bm = sizeof(double) * (size_t)m, bnd = sizeof(double) * (size_t)nd * (size_t)n;
    int *pos = malloc(sizeof(int) * (size_t)(m + 1));
    double *fixed = malloc(sizeof(double) * (size_t)(m + 1));
    double *Q = calloc((size_t)nd * (size_t)n + 1, sizeof(double));
    unsigned char *usable = NULL;
    int *order = NULL, *lk = NULL, *hops = NULL;
    ld_dag *pc_dag = NULL;
    if (!pos || !fixed || !Q) goto oom;
    for (int q = 0; q < m; q++) pos[net->out_link[q]] = q;
    for (int e = 0; e < m; e++)
        fixed[e] = dsk_cost_fixed(cpu->cp.toll_factor, net->toll[e], cpu->cp.distance_factor, net->length[e]);
    /* demand that has a path, by (destination, origin), summed as the CPU does */
    g->loaded = 0;
    for (int di = 0; di < nd; di++) {
        g->qtot[di] = 0;
        for (int q = net->dest_od_start[di]; q < net->dest_od_start[di + 1]; q++) {
            if (!cpu->reach_ok[q]) continue;
            Q[(size_t)di * (size_t)n + (size_t)net->od_orig[q]] += net->od_demand[q];
            g->qtot[di] += net->od_demand[q];
        }
        g->loaded += g->qtot[di]; /* the certificate's, in destination order as the CPU's */
    }
    if (!(k->tail = dup_dev(g, net->tail, sizeof(int) * (size_t)m)) ||
        !(k->head = dup_dev(g, net->head, sizeof(int) * (size_t)m)) ||
        !(k->out_start = dup_dev(g, net->out_start, sizeof(int) * (size_t)(n + 1))) ||
        !(k->out_link = dup_dev(g, net->out_link, sizeof(int) * (size_t)m)) ||
        !(k->in_start = dup_dev(g, net->in_start, sizeof(int) * (size_t)(n + 1))) ||
        !(k->in_link = dup_dev(g, net->in_link, sizeof(int) * (size_t)m)) ||
        !(k->pos = dup_dev(g, pos, sizeof(int) * (size_t)m)) || !(k->cap_c = dup_dev(g, net->capacity, bm)) ||
        !(k->t0 = dup_dev(g, net->t0, bm)) || !(k->bpr_b = dup_dev(g, net->bpr_b, bm)) ||
        !(k->bpr_p = dup_dev(g, net->bpr_power, bm)) || !(k->fixed = dup_dev(g, fixed, bm)) ||
        !(k->dest_node = dup_dev(g, net->dest_node, sizeof(int) * (size_t)nd)) || !(k->Q = dup_dev(g, Q, bnd)))
        goto out;
    /* per-call and per-destination work arrays */
    if (!(k->x = dalloc(g, bm)) || !(k->v = dalloc(g, bm)) || !(k->t = dalloc(g, bm)) || !(k->dtv = dalloc(g, bm)) ||
        !(k->f = dalloc(g, bm)) || !(k->phi = dalloc(g, bnd)) || !(k->dphi = dalloc(g, bnd)) ||
        !(k->part = dalloc(g, sizeof(double) * (size_t)nd * DSG_BLOCK)) ||
        !(k->red = dalloc(g, sizeof(double) * (size_t)nd)) || !(g->V[0] = dalloc(g, bnd)) ||
        !(g->dV[0] = dalloc(g, bnd)))
        goto out;
    if (g->full) {
        size_t bdm = sizeof(double) * (size_t)nd * (size_t)m;
        usable = malloc((size_t)nd * (size_t)m + 1);
        if (!usable) goto oom;
        for (int di = 0; di < nd; di++)
            for (int q = 0; q < m; q++)
                usable[(size_t)di * (size_t)m + (size_t)q] =
                    (unsigned char)sp_link_usable(net, net->out_link[q], net->dest_node[di]);
        g->v_cold = malloc(bnd);
        if (!g->v_cold) goto oom;
        if (!(pc_dag = calloc((size_t)nd, sizeof(ld_dag))) || !(order = malloc(sizeof(int) * (size_t)n)) ||
            !(lk = malloc(sizeof(int) * (size_t)(m + 1))) || !(hops = malloc(sizeof(int) * (size_t)(n + 1))))
            goto oom;
        g->depth = 0;
        sp_work sw; /* one search workspace for every destination (ds_sp_to_dest builds one a call) */
        if (sp_work_init(&sw, net) != 0) goto oom;
        for (int di = 0; di < nd; di++) {
            double *row = g->v_cold + (size_t)di * (size_t)n;
            sp_dijkstra_to(net, cpu->tff, net->dest_node[di], row, hops, order, &sw);
            if (pc_dag_build(net, net->dest_node[di], row, order, lk, &pc_dag[di]) != 0) {
                sp_work_free(&sw);
                goto oom;
            }
            for (int i = 0; i < n; i++) {
                if (hops[i] > g->depth) g->depth = hops[i];
                row[i] = row[i] < INFINITY ? -g->mu * row[i] : -INFINITY;
            }
        }
        sp_work_free(&sw);
        if (!(k->usable = dup_dev(g, usable, (size_t)nd * (size_t)m)) || !(g->V[1] = dalloc(g, bnd)) ||
            !(g->dV[1] = dalloc(g, bnd)) || !(g->R[0] = dalloc(g, bnd)) || !(g->R[1] = dalloc(g, bnd)) ||
            !(k->delta = dalloc(g, bnd)) || !(k->A = dalloc(g, bdm)) || !(k->P = dalloc(g, bdm)) ||
            !(k->dP = dalloc(g, bdm)))
            goto out;
        /* the exact inner solves */
        if (!(g->D[0] = dalloc(g, bnd)) || !(g->D[1] = dalloc(g, bnd)) || !(g->Z = dalloc(g, bnd)) ||
            !(g->kr = dalloc(g, bnd)) || !(g->krh = dalloc(g, bnd)) || !(g->kp = dalloc(g, bnd)) ||
            !(g->kv = dalloc(g, bnd)) || !(g->ks = dalloc(g, bnd)) || !(g->kt = dalloc(g, bnd)) ||
            !(g->kb = dalloc(g, bnd)) || !(g->ksc = dalloc(g, sizeof(double) * (size_t)nd * DSG_SC_N)) ||
            !(g->dpart = dalloc(g, sizeof(double) * (size_t)nd * 2 * DSG_BLOCK)) ||
            !(g->dred = dalloc(g, sizeof(double) * (size_t)nd * 2)) || !(g->kact = dalloc(g, sizeof(int) * (size_t)nd)))
            goto out;
        g->h_act = malloc(sizeof(int) * (size_t)nd);
        g->h_it = malloc(sizeof(int) * (size_t)nd);
        g->h_stall = malloc(sizeof(int) * (size_t)nd);
        g->h_res = malloc(sizeof(double) * (size_t)nd);
        g->h_best = malloc(sizeof(double) * (size_t)nd);
        g->h_keep = malloc(sizeof(int) * (size_t)nd);
        g->h_bres = malloc(sizeof(double) * (size_t)nd);
        if (!g->h_act || !g->h_it || !g->h_stall || !g->h_res || !g->h_best || !g->h_keep || !g->h_bres) goto oom;
        if (!(g->kph = dalloc(g, bnd)) || !(g->ksh = dalloc(g, bnd)) || !(g->kxb = dalloc(g, bnd)) ||
            !(g->kkeep = dalloc(g, sizeof(int) * (size_t)nd)) || dag_upload(g, pc_dag) != 0)
            goto out;
    } else if (dag_upload(g, cpu->dag) != 0) {
        goto out;
    }
    rc = 0;
    goto out;
oom:
    set_err("out of host memory preparing the GPU loading map");
out:
    free(pos);
    free(fixed);
    free(Q);
    free(usable);
    free(order);
    free(lk);
    free(hops);
    for (int di = 0; pc_dag && di < nd; di++) free(pc_dag[di].node), free(pc_dag[di].lstart), free(pc_dag[di].link);
    free(pc_dag);
    return rc;
}

ds_gpu_loader *ds_gpu_loader_create(ds_loader *cpu, int emulate, ds_error *err)
{
    ds_gpu_loader *g;
    char why[512];
    const dsg_ops *ops = emulate ? dsg_emul_ops() : cuda_ops();
    last_err[0] = 0;
    if (!ops) {
        set_err("GPU: none (%s)", lib_why);
        ds_error_set(err, NULL, 0, "%s", last_err);
        return NULL;
    }
    if (!cpu->dag && cpu->filter != DS_FILTER_FULL) {
        set_err("the CPU loader has no DAGs for filter %s", ds_filter_name(cpu->filter));
        ds_error_set(err, NULL, 0, "%s", last_err);
        return NULL;
    }
    g = calloc(1, sizeof *g);
    if (!g) {
        set_err("out of host memory creating the GPU loading map");
        ds_error_set(err, NULL, 0, "%s", last_err);
        return NULL;
    }
    g->cpu = cpu;
    g->net = cpu->net;
    g->ops = ops;
    g->emulate = emulate;
    g->full = cpu->dag == NULL;
    g->n = g->net->n_nodes;
    g->m = g->net->n_links;
    g->nd = cpu->n_dest;
    g->mu = cpu->mu;
    g->inner_max = cpu->inner_max;
    g->absorb_max = cpu->absorb_max;
    g->inner_tol = cpu->inner_tol;
    g->krylov = g->full; /* the default inner solver (ds_config.inner = direct) */
    g->h_red = malloc(sizeof(double) * (size_t)g->nd);
    g->h_prev = malloc(sizeof(double) * (size_t)g->nd);
    g->qtot = malloc(sizeof(double) * (size_t)g->nd);
    g->stats.diverged_dest = -1;
    if (!g->h_red || !g->h_prev || !g->qtot) {
        set_err("out of host memory creating the GPU loading map");
        goto fail;
    }
    g->ctx = ops->open(why, sizeof why);
    if (!g->ctx) {
        set_err("%s", why);
        goto fail;
    }
    g->k.n = g->n;
    g->k.m = g->m;
    g->k.n_dest = g->nd;
    g->k.nbn = (g->n + DSG_BLOCK - 1) / DSG_BLOCK;
    g->k.mu = g->mu;
    g->k.cap = cpu->cp.cap;
    if (upload_network(g) != 0) goto fail;
    return g;
fail:
    ds_error_set(err, NULL, 0, "%s", last_err);
    ds_gpu_loader_free(g);
    return NULL;
}

int ds_gpu_loader_set_inner(ds_gpu_loader *g, ds_inner mode)
{
    int kr = g->full && mode == DS_INNER_DIRECT;
    if (kr != g->krylov) {
        g->krylov = kr;
        g->warm = 0;
        g->jv_ok = 0;
    }
    return 0;
}

void ds_gpu_loader_set_passes(ds_gpu_loader *g, int inner_max, int absorb_max)
{
    g->inner_max = inner_max;
    g->absorb_max = absorb_max;
    g->depth = 0; /* the caps exactly as given */
}

int ds_gpu_loader_pass_limit(const ds_gpu_loader *g) { return g->inner_max + g->depth; }

const char *ds_gpu_loader_inner(const ds_gpu_loader *g)
{
    return !g->full ? "levels (exact on the DAG)" : g->krylov ? "BiCGSTAB (exact)" : "Jacobi passes";
}

int ds_gpu_loader_sync_dags(ds_gpu_loader *g)
{
    last_err[0] = 0;
    if (g->full) return 0;
    dag_free_dev(g);
    g->jv_ok = 0;
    g->n_seq = 0; /* the recorded sweeps name the old arrays and levels */
    return dag_upload(g, g->cpu->dag);
}

/* --start relax on the device: the CPU loader's DSP-DAG bits, by CSR position
 * like `usable`, and the same penalty (dsk_relax_pen, dsk_relax_cost). */
int ds_gpu_loader_set_relax(ds_gpu_loader *g, double lambda)
{
    const ds_loader *cpu = g->cpu;
    last_err[0] = 0;
    if (!g->full || !(lambda > 0) || !(lambda <= 1))
        return set_err("relax: lambda %g on a %s loader", lambda, g->full ? "full-graph" : "filtered");
    if (lambda < 1 && (!cpu->relax_dag || cpu->relax_lambda != lambda))
        return set_err("relax: the CPU loader is not at lambda %g (ds_loader_set_relax first)", lambda);
    if (lambda < 1 && !g->rdag) {
        size_t nm = (size_t)g->nd * (size_t)g->m;
        unsigned char *h = malloc(nm + 1);
        if (!h) return set_err("out of host memory for the relax mask");
        for (int di = 0; di < g->nd; di++) {
            const unsigned char *bits = cpu->relax_dag + (size_t)di * cpu->relax_stride;
            for (int q = 0; q < g->m; q++) {
                int e = g->net->out_link[q];
                h[(size_t)di * (size_t)g->m + (size_t)q] = (unsigned char)((bits[e >> 3] >> (e & 7)) & 1);
            }
        }
        g->rdag = dup_dev(g, h, nm);
        free(h);
        if (!g->rdag) return -1;
    }
    const unsigned char *rd = lambda < 1 ? g->rdag : NULL;
    double pen = lambda < 1 ? dsk_relax_pen(cpu->relax_lambda, cpu->mu) : 0;
    if (rd != g->k.rdag || pen != g->k.rpen) {
        g->k.rdag = rd;
        g->k.rpen = pen;
        g->warm = g->phi_ok = g->jv_ok = 0; /* a new model: cold starts, as the CPU's passes */
    }
    return 0;
}

/* ---------------------------------------------------------- full graph */

/* Jacobi passes to convergence; 0, 1 (diverged, stats.diverged_dest set) or -1. */
static int bellman_full(ds_gpu_loader *g)
{
    dsg_k k = g->k;
    long nn = (long)g->nd * g->n;
    int pass = 0, budget = g->inner_max + g->depth, hard = budget + g->n + DSG_CHECK, converged = 0, checks = 0;
    double dmax = INFINITY;
    if (!g->warm) {
        /* cold start from the best single path at free flow, -mu D_ff: a
         * finite value at every node that reaches the destination (the CPU's
         * z >= 1 start), so no pass is spent filling in -inf values */
        for (int b = 0; b < 2; b++)
            if (g->ops->put(g->ctx, g->V[b], g->v_cold, sizeof(double) * (size_t)nn) != 0)
                return gfail(g, "copy start values to device");
        g->warm = 1;
    }
    for (;;) {
        k.vin = g->V[g->vcur];
        k.vout = g->V[g->vcur ^ 1];
        k.want_p = 0;
        if (launch(g, DSG_KID_bell_full, nn, &k) != 0) return -1;
        g->vcur ^= 1;
        pass++;
        if (pass % DSG_CHECK != 0 && pass < budget) continue;
        if (checks++ > 0) memcpy(g->h_prev, g->h_red, sizeof(double) * (size_t)g->nd);
        if (reduce(g, k.delta, g->n, DSG_RED_MAXABS) != 0) return -1;
        dmax = 0;
        for (int d = 0; d < g->nd; d++) dmax = dsk_max_nan(dmax, g->h_red[d]);
        if (dmax <= g->inner_tol) {
            converged = 1;
            break;
        }
        if (dmax != dmax) break;
        /* a cold start needs as many passes as the longest shortest path
         * (values are -inf until then), whatever inner_max says */
        if (pass >= budget && !(isinf(dmax) && pass < hard)) break;
    }
    g->stats.bellman_passes = pass + 1;
    g->stats.bellman_resid = dmax;
    g->stats.diverged_dest = -1;
    g->stats.unconverged = 0;
    g->stats.contraction = 0;
    if (!converged && !(dmax <= LD_TRUST_TOL)) {
        /* Not converged within inner_max passes (the CPU's trust rule): f(x)
         * would be off by about max |dV|, so it is not returned. Passes cannot
         * tell a slow contraction (rho 0.99 needs thousands) from divergence:
         * this is "unconverged", with the residual, the pass count and the last
         * contraction ratio, never a verdict. */
        int worst = 0;
        for (int d = 1; d < g->nd; d++)
            if (!(g->h_red[d] <= g->h_red[worst])) worst = d;
        g->stats.diverged_dest = worst;
        g->stats.unconverged = 1;
        /* per pass, from the last two checks DSG_CHECK passes apart */
        g->stats.contraction =
            checks > 1 && g->h_prev[worst] > 0 ? pow(g->h_red[worst] / g->h_prev[worst], 1.0 / DSG_CHECK) : 0;
        g->warm = 0; /* forget values that are not the fixed point (as the CPU does) */
        return 1;
    }
    /* one more pass that also leaves the choice probabilities in P */
    k.vin = g->V[g->vcur];
    k.vout = g->V[g->vcur ^ 1];
    k.want_p = 1;
    if (launch(g, DSG_KID_bell_full, nn, &k) != 0) return -1;
    g->vcur ^= 1;
    return 0;
}

/* Jacobi absorption (pull) of src through P into acc (phi or dphi), starting
 * from r = src (acc must already hold src). Stops when, for every destination,
 * the mass in transit is <= inner_tol * scale[d]. Returns passes or -1. */
static int absorb_full(ds_gpu_loader *g, const double *src, double *acc, const double *scale, double *resid)
{
    dsg_k k = g->k;
    long nn = (long)g->nd * g->n;
    int pass = 0, b = 0, budget = g->absorb_max + g->depth;
    double worst = 0;
    k.rin = src;
    k.phi = acc;
    for (;;) {
        k.rout = g->R[b];
        if (launch(g, DSG_KID_abs_full, nn, &k) != 0) return -1;
        k.rin = g->R[b];
        b ^= 1;
        pass++;
        if (pass % DSG_CHECK != 0 && pass < budget) continue;
        if (reduce(g, k.rin, g->n, DSG_RED_SUMABS) != 0) return -1;
        worst = 0;
        for (int d = 0; d < g->nd; d++) {
            double r = scale[d] > 0 ? g->h_red[d] / scale[d] : 0;
            worst = dsk_max_nan(worst, r);
        }
        if (worst <= g->inner_tol || pass >= budget) break;
    }
    *resid = worst;
    return pass;
}

/* ------------------------------------------- full graph, exact solves */

typedef struct ksolve {
    int iters;    /* iterations until the last destination stopped */
    double resid; /* worst scaled residual at the end (NaN if a solve broke) */
    int worst;    /* its destination */
} ksolve;

static int mat_vec(ds_gpu_loader *g, dsg_k *k, int tr, const double *x, const double *rhs, double *y)
{
    k->mx = x;
    k->rhs = rhs;
    k->my = y;
    return launch_dn(g, tr ? DSG_KID_mv_in : DSG_KID_mv_out, k);
}

/* Per-destination (a0 . b0) and (a1 . b1) into k->dred on the device. */
static int dots(ds_gpu_loader *g, dsg_k *k, const double *a0, const double *b0, const double *a1, const double *b1)
{
    k->da0 = a0, k->db0 = b0, k->da1 = a1, k->db1 = b1;
    if (g->ops->launch(g->ctx, DSG_KID_dot1, g->nd, k) != 0) return gfail(g, "kernel launch");
    return launch(g, DSG_KID_dot2, 2L * g->nd, k);
}

/* Scaled residual of k->bx, k->br per destination into g->h_red. */
static int residuals(ds_gpu_loader *g, dsg_k *k)
{
    if (reduce(g, k->bx, g->n, DSG_RED_MAXABS) != 0) return -1;
    k->scale = k->red; /* max|x| per destination, still on the device */
    if (launch_dn(g, DSG_KID_kres, k) != 0) return -1;
    return reduce(g, k->delta, g->n, DSG_RED_MAXABS);
}

static int put_act(ds_gpu_loader *g)
{
    if (g->ops->put(g->ctx, g->kact, g->h_act, sizeof(int) * (size_t)g->nd) != 0) return gfail(g, "copy to device");
    return 0;
}

static int levels(ds_gpu_loader *g, int kid, int up, dsg_k *k, int from_level);

/* y = M^-1 r with M = I - L (tr = 0) or I - L^T (tr = 1), L the coefficients
 * on the free-flow down-links (pc_dag_build): one exact triangular solve, a
 * launch per level (bottom up, or top down for the transpose). */
static int precond(ds_gpu_loader *g, dsg_k *k, int tr, const double *r, double *y)
{
    k->dst = y;
    k->src = r;
    k->len = (long)g->nd * g->n;
    if (launch(g, DSG_KID_copy, k->len, k) != 0) return -1;
    k->mx = r;
    k->my = y;
    return levels(g, tr ? DSG_KID_pc_in : DSG_KID_pc_out, !tr, k, 1);
}

/* Copies of the best iterates as h_keep says (DSG_KEEP_*); 0 or -1. */
static int keep_best(ds_gpu_loader *g, dsg_k *k)
{
    if (g->ops->put(g->ctx, g->kkeep, g->h_keep, sizeof(int) * (size_t)g->nd) != 0) return gfail(g, "copy to device");
    return launch_dn(g, DSG_KID_bk_keep, k);
}

/* Solve (I - C) x = rhs (tr = 0: C over out-links) or (I - C^T) x = rhs
 * (tr = 1) for every destination at once by BiCGSTAB; x holds the start and
 * receives the solution. Right-preconditioned by precond() (Gauss-Seidel on
 * the free-flow down-links: the transport towards the destination is solved
 * exactly, only what flows back is left to the iteration). Each destination
 * stops when its true scaled residual
 * max_u |r(u)| / (|x(u)| + DSG_RES_FLOOR max|x|) is <= tol; one that stalls
 * is restarted, then given up. Returns 0 (all <= tol), 1 (some not) or -1.
 * Each destination's best iterate (least true residual at a check) is kept,
 * and one that ends worse than its best ends at its best: BiCGSTAB iterated
 * on past the accuracy it can attain can break down and diverge (Sioux Falls
 * full, tau 100, J v's absorption derivative: 1.1e-13 after 4 iterations, tol
 * 1e-13, then 1e158 and a residual of 0.999 that no restart recovered, so J v
 * failed and Newton took 30 iterations where the CPU's LU takes 22). Only at
 * the end: going back to the best and restarting at a residual spike made
 * Newton on Anaheim and EMA full at tau 1 and 10 take 10 to 20 times as many
 * iterations (BiCGSTAB's residual is not monotone; the spike is often passed). */
static int krylov(ds_gpu_loader *g, int tr, const double *coef, const double *rhs, double *x, double tol, ksolve *out)
{
    dsg_k k = g->k;
    int nd = g->nd, it = 0, left = 0;
    k.coef = coef;
    k.bx = x, k.br = g->kr, k.brh = g->krh, k.bp = g->kp, k.bv = g->kv, k.bs = g->ks, k.bt = g->kt;
    k.sc = g->ksc, k.act = g->kact, k.dpart = g->dpart, k.dred = g->dred, k.bph = g->kph, k.bsh = g->ksh;
    k.keep = g->kkeep, k.bxb = g->kxb;
    if (mat_vec(g, &k, tr, x, rhs, g->kr) != 0 || residuals(g, &k) != 0) return -1;
    for (int d = 0; d < nd; d++) {
        g->h_res[d] = g->h_best[d] = g->h_bres[d] = g->h_red[d];
        g->h_it[d] = g->h_stall[d] = 0;
        g->h_act[d] = g->h_red[d] <= tol || g->h_red[d] != g->h_red[d] ? DSG_ACT_DONE : DSG_ACT_RESTART;
        g->h_keep[d] = g->h_act[d] != DSG_ACT_DONE ? DSG_KEEP_SAVE : DSG_KEEP_NONE;
        left += g->h_act[d] != DSG_ACT_DONE;
    }
    if (left && (keep_best(g, &k) != 0 || put_act(g) != 0 || launch_dn(g, DSG_KID_bk_rs_vec, &k) != 0 ||
                 launch(g, DSG_KID_bk_rs_sc, nd, &k) != 0))
        return -1;
    while (left > 0 && it < DSG_KMAX) {
        int restarts = 0, keeps = 0;
        it++;
        if (dots(g, &k, g->krh, g->kr, NULL, NULL) != 0 || launch(g, DSG_KID_sc_beta, nd, &k) != 0 ||
            launch_dn(g, DSG_KID_bk_p, &k) != 0 || precond(g, &k, tr, g->kp, g->kph) != 0 ||
            mat_vec(g, &k, tr, g->kph, NULL, g->kv) != 0 || dots(g, &k, g->krh, g->kv, NULL, NULL) != 0 ||
            launch(g, DSG_KID_sc_alpha, nd, &k) != 0 || launch_dn(g, DSG_KID_bk_s, &k) != 0 ||
            precond(g, &k, tr, g->ks, g->ksh) != 0 || mat_vec(g, &k, tr, g->ksh, NULL, g->kt) != 0 ||
            dots(g, &k, g->kt, g->ks, g->kt, g->kt) != 0 || launch(g, DSG_KID_sc_omega, nd, &k) != 0 ||
            launch_dn(g, DSG_KID_bk_xr, &k) != 0)
            return -1;
        if (it % DSG_KCHECK != 0 && it < DSG_KMAX) continue;
        /* residual replacement: test (and go on from) the true residual of x */
        if (mat_vec(g, &k, tr, x, rhs, g->kr) != 0 || residuals(g, &k) != 0) return -1;
        if (g->ops->get(g->ctx, g->h_act, g->kact, sizeof(int) * (size_t)nd) != 0) return gfail(g, "copy from device");
        left = 0;
        for (int d = 0; d < nd; d++) {
            double r = g->h_red[d];
            g->h_keep[d] = DSG_KEEP_NONE;
            if (g->h_act[d] == DSG_ACT_DONE) continue;
            g->h_res[d] = r;
            g->h_it[d] = it;
            if (r <= tol || r != r) {
                g->h_act[d] = DSG_ACT_DONE;
                continue;
            }
            if (r < g->h_bres[d]) {
                g->h_bres[d] = r;
                g->h_keep[d] = DSG_KEEP_SAVE;
                keeps++;
            }
            if (r < 0.5 * g->h_best[d]) {
                g->h_best[d] = r;
                g->h_stall[d] = 0;
            } else {
                /* no progress: restart, then give up; a breakdown (the device
                 * asks for a restart) weighs as several stalled checks */
                g->h_stall[d] += g->h_act[d] == DSG_ACT_RESTART ? DSG_KSTALL / 4 : 1;
                if (g->h_stall[d] >= 2 * DSG_KSTALL) {
                    g->h_act[d] = DSG_ACT_DONE;
                    continue;
                }
                if (g->h_stall[d] >= DSG_KSTALL) g->h_act[d] = DSG_ACT_RESTART;
            }
            left++;
            restarts += g->h_act[d] == DSG_ACT_RESTART;
        }
        if (keeps && keep_best(g, &k) != 0) return -1;
        if (put_act(g) != 0) return -1;
        if (restarts && (launch_dn(g, DSG_KID_bk_rs_vec, &k) != 0 || launch(g, DSG_KID_bk_rs_sc, nd, &k) != 0))
            return -1;
    }
    /* a destination that ended worse than its best iterate ends at it */
    int backs = 0;
    for (int d = 0; d < nd; d++) {
        g->h_keep[d] = DSG_KEEP_NONE;
        if (g->h_res[d] > g->h_bres[d] || (g->h_res[d] != g->h_res[d] && g->h_bres[d] == g->h_bres[d])) {
            g->h_keep[d] = DSG_KEEP_RESTORE;
            g->h_res[d] = g->h_bres[d];
            backs++;
        }
    }
    if (backs && keep_best(g, &k) != 0) return -1;
    out->iters = 0;
    out->resid = 0;
    out->worst = 0;
    for (int d = 0; d < nd; d++) {
        if (g->h_it[d] > out->iters) out->iters = g->h_it[d];
        if (!(g->h_res[d] <= out->resid)) {
            out->resid = g->h_res[d];
            out->worst = d;
        }
    }
    return out->resid <= tol ? 0 : 1;
}

/* Shortest distances to every destination at the current costs (k.t) into
 * g->D[returned index]: synchronous Bellman-Ford from +inf, stopped when a
 * check finds no change. -1 on error. */
static int distances(ds_gpu_loader *g)
{
    dsg_k k = g->k;
    long nn = (long)g->nd * g->n;
    int c = 0;
    if (fill(g, g->D[0], nn, INFINITY) != 0) return -1;
    k.delta = g->k.delta;
    for (int pass = 1;; pass++) {
        k.vin = g->D[c];
        k.vout = g->D[c ^ 1];
        if (launch_dn(g, DSG_KID_sp_full, &k) != 0) return -1;
        c ^= 1;
        if (pass % DSG_CHECK != 0 && pass <= g->n) continue;
        if (reduce(g, k.delta, g->n, DSG_RED_MAXABS) != 0) return -1;
        double dmax = 0;
        for (int d = 0; d < g->nd; d++) dmax = dsk_max_nan(dmax, g->h_red[d]);
        if (dmax == 0) return c;
        if (pass > g->n)
            return set_err("%s backend: shortest distances still change after %d passes (negative costs?)",
                           g->ops->name, pass);
    }
}

/* The exact values: z, the existence test, P and V. 0, 1 (unconverged or no
 * fixed point: stats say which) or -1. */
static int bellman_krylov(ds_gpu_loader *g)
{
    dsg_k k = g->k;
    long nn = (long)g->nd * g->n;
    ksolve ks;
    int c = distances(g), rc;
    if (c < 0) return -1;
    k.dist = g->D[c];
    if (launch(g, DSG_KID_wred_full, (long)g->nd * g->m, &k) != 0) return -1;
    if (!g->warm && fill(g, g->V[g->vcur], nn, -INFINITY) != 0) return -1;
    k.vin = g->V[g->vcur];
    k.bb = g->kb;
    k.bx = g->Z;
    if (launch_dn(g, DSG_KID_zinit_full, &k) != 0) return -1;
    rc = krylov(g, 0, k.A, g->kb, g->Z, g->inner_tol, &ks);
    if (rc < 0) return -1;
    g->stats.bellman_passes = ks.iters;
    g->stats.bellman_resid = ks.resid;
    g->stats.diverged_dest = -1;
    g->stats.unconverged = 0;
    g->stats.contraction = 0;
    if (!(ks.resid <= LD_TRUST_TOL)) {
        /* not solved to the CPU's trust tolerance within DSG_KMAX iterations */
        g->stats.diverged_dest = ks.worst;
        g->stats.unconverged = 1;
        g->warm = 0;
        return 1;
    }
    if (launch_dn(g, DSG_KID_zcheck, &k) != 0 || reduce(g, k.delta, g->n, DSG_RED_MAXABS) != 0) return -1;
    for (int d = 0; d < g->nd; d++)
        if (g->h_red[d] != 0) {
            /* solved, and the solution is not >= 1: no fixed point at these costs */
            g->stats.diverged_dest = d;
            g->warm = 0;
            return 1;
        }
    if (launch(g, DSG_KID_prob_full, (long)g->nd * g->m, &k) != 0) return -1;
    k.vout = g->V[g->vcur];
    if (launch_dn(g, DSG_KID_vz_full, &k) != 0) return -1;
    g->warm = 1;
    return 0;
}

/* phi from (I - P^T) phi = Q, warm-started from the last phi. 0, 1, -1. */
static int absorb_krylov(ds_gpu_loader *g)
{
    dsg_k k = g->k;
    ksolve ks;
    int rc;
    if (!g->phi_ok) {
        k.dst = k.phi;
        k.src = k.Q;
        k.len = (long)g->nd * g->n;
        if (launch(g, DSG_KID_copy, k.len, &k) != 0) return -1;
    }
    rc = krylov(g, 1, k.P, k.Q, k.phi, g->inner_tol, &ks);
    if (rc < 0) return -1;
    g->stats.absorb_passes = ks.iters;
    g->stats.absorb_resid = ks.resid;
    if (!(ks.resid <= LD_TRUST_TOL)) {
        g->phi_ok = 0;
        g->stats.diverged_dest = ks.worst;
        g->stats.unconverged = 1;
        return 1;
    }
    g->phi_ok = 1;
    return 0;
}

/* J v on the full graph with the exact solves: 0 or -1. */
static int jv_krylov(ds_gpu_loader *g, dsg_k *k)
{
    long nn = (long)g->nd * g->n;
    ksolve ks;
    if (launch_dn(g, DSG_KID_dvrhs_full, (k->bb = g->kb, k)) != 0 || fill(g, g->dV[0], nn, 0) != 0) return -1;
    if (krylov(g, 0, k->P, g->kb, g->dV[0], g->inner_tol, &ks) < 0) return -1;
    if (!(ks.resid <= LD_TRUST_TOL))
        return set_err("J v: the Bellman derivative did not converge (scaled residual %.3g after %d iterations, "
                       "destination %d)",
                       ks.resid, ks.iters, g->net->dest_node[ks.worst] + 1);
    k->vin = g->dV[0];
    if (launch(g, DSG_KID_dp_full, (long)g->nd * g->m, k) != 0) return -1;
    k->rout = g->kb;
    if (launch(g, DSG_KID_src_full, nn, k) != 0) return -1; /* kb = dphi = s */
    if (krylov(g, 1, k->P, g->kb, k->dphi, g->inner_tol, &ks) < 0) return -1;
    if (!(ks.resid <= LD_TRUST_TOL))
        return set_err("J v: the absorption derivative did not converge (scaled residual %.3g after %d iterations, "
                       "destination %d)",
                       ks.resid, ks.iters, g->net->dest_node[ks.worst] + 1);
    return launch(g, DSG_KID_jv_full, g->m, k);
}

/* ---------------------------------------------------------------- eval */

static int levels_run(ds_gpu_loader *g, int kid, int up, const dsg_k *k0, int from_level)
{
    int nl = g->dh.n_levels;
    dsg_k k = *k0;
    for (int s = from_level; s < nl; s++) {
        int L = up ? s : nl - 1 - s + from_level;
        k.lv0 = g->dh.lvl_start[L];
        k.lv1 = g->dh.lvl_start[L + 1];
        if (launch(g, kid, k.lv1 - k.lv0, &k) != 0) return -1;
    }
    return 0;
}

/* One launch per level, from_level up (or down). A sweep of many levels is
 * recorded once and replayed (a CUDA graph: the launches of a few hundred
 * small kernels cost more than their work); it is found again by its kernel,
 * direction and every byte of its parameters, so a replay runs exactly the
 * launches levels_run would. A miss on padding bytes only records again. */
#define SEQ_MIN_LEVELS 8
static int levels(ds_gpu_loader *g, int kid, int up, dsg_k *k, int from_level)
{
    int slot;
    if (g->dh.n_levels - from_level < SEQ_MIN_LEVELS) return levels_run(g, kid, up, k, from_level);
    for (slot = 0; slot < g->n_seq; slot++)
        if (g->seq[slot].kid == kid && g->seq[slot].up == up && g->seq[slot].from == from_level &&
            memcmp(&g->seq[slot].k, k, sizeof *k) == 0)
            break;
    if (slot == g->n_seq) {
        slot = g->n_seq < DSG_SEQS ? g->n_seq++ : g->next_seq++ % DSG_SEQS;
        g->seq[slot].kid = -1;
        if (g->ops->rec_begin(g->ctx) != 0) return gfail(g, "recording a level sweep");
        if (levels_run(g, kid, up, k, from_level) != 0) {
            g->ops->rec_end(g->ctx, -1);
            return -1;
        }
        if (g->ops->rec_end(g->ctx, slot) != 0) return gfail(g, "recording a level sweep");
        g->seq[slot].kid = kid, g->seq[slot].up = up, g->seq[slot].from = from_level;
        memcpy(&g->seq[slot].k, k, sizeof *k);
        g->n_recorded++;
    }
    if (g->ops->replay(g->ctx, slot) != 0) return gfail(g, "replaying a level sweep");
    return 0;
}

static void phase_times(ds_gpu_loader *g, int nmarks, const int *phase)
{
    for (int i = 0; i + 1 < nmarks; i++) {
        double s = 0;
        if (g->ops->elapsed(g->ctx, i, i + 1, &s) == 0) g->stats.t_phase[phase[i]] += s;
    }
}

/* What reached the destinations after a loading (the certificate's arrivals),
 * summed in destination order as the CPU's loader sums them. The demand with a
 * path (g->loaded) is fixed at creation. */
static int arrivals(ds_gpu_loader *g)
{
    dsg_k k = g->k;
    double arrived = 0;
    if (!g->full) {
        /* the absorption stops above level 0, the destinations: their phi,
         * what their in-links bring, is computed here only */
        k.lv0 = g->dh.lvl_start[0];
        k.lv1 = g->dh.lvl_start[1];
        if (k.lv1 > k.lv0 && launch(g, DSG_KID_abs_dag, k.lv1 - k.lv0, &k) != 0) return -1;
    }
    k.phi_c = k.phi;
    k.dst = k.red;
    if (launch(g, g->full ? DSG_KID_arr_full : DSG_KID_arr_dag, g->nd, &k) != 0) return -1;
    if (g->ops->get(g->ctx, g->h_red, k.red, sizeof(double) * (size_t)g->nd) != 0)
        return gfail(g, "copy arrivals from device");
    for (int d = 0; d < g->nd; d++) arrived += g->h_red[d];
    g->arrived = arrived;
    return 0;
}

void ds_gpu_loader_arrivals(const ds_gpu_loader *g, double *loaded, double *arrived)
{
    if (loaded) *loaded = g->loaded;
    if (arrived) *arrived = g->arrived;
}

int ds_gpu_loader_eval(ds_gpu_loader *g, const double *x, double *f, ds_load_stats *st)
{
    dsg_k k = g->k;
    int rc = 0, nm = 0;
    static const int phase[] = {DS_PHASE_COSTS, DS_PHASE_BELLMAN, DS_PHASE_ABSORB, DS_PHASE_OTHER};
    last_err[0] = 0;
    g->jv_ok = 0;
    for (int p = 0; p < DS_PHASE_N; p++) g->stats.t_phase[p] = 0;
    if (g->ops->mark(g->ctx, nm++) != 0) return gfail(g, "timer");
    if (g->ops->put(g->ctx, (void *)k.x, x, sizeof(double) * (size_t)g->m) != 0) return gfail(g, "copy x to device");
    if (launch(g, DSG_KID_costs, g->m, &k) != 0) return -1;
    if (g->ops->mark(g->ctx, nm++) != 0) return gfail(g, "timer");
    if (g->full) {
        rc = g->krylov ? bellman_krylov(g) : bellman_full(g);
        if (rc < 0) return -1;
        if (g->ops->mark(g->ctx, nm++) != 0) return gfail(g, "timer");
        if (rc == 0 && g->krylov) {
            rc = absorb_krylov(g);
            if (rc < 0) return -1;
        } else if (rc == 0) {
            k.dst = k.phi;
            k.src = k.Q;
            k.len = (long)g->nd * g->n;
            if (launch(g, DSG_KID_copy, k.len, &k) != 0) return -1;
            g->stats.absorb_passes = absorb_full(g, k.Q, k.phi, g->qtot, &g->stats.absorb_resid);
            if (g->stats.absorb_passes < 0) return -1;
            if (!(g->stats.absorb_resid <= LD_TRUST_TOL)) {
                /* demand still in transit after absorb_max passes: f would miss it */
                g->stats.diverged_dest = 0;
                g->stats.unconverged = 1;
                rc = 1;
            }
        }
        if (rc == 0) {
            k.phi_c = k.phi;
            if (launch(g, DSG_KID_flow_full, g->m, &k) != 0) return -1;
        }
    } else {
        k.vout = g->V[0];
        if (levels(g, DSG_KID_bell_dag, 1, &k, 0) != 0) return -1;
        if (g->ops->mark(g->ctx, nm++) != 0) return gfail(g, "timer");
        if (levels(g, DSG_KID_abs_dag, 0, &k, 1) != 0) return -1;
        k.phi_c = k.phi;
        if (launch(g, DSG_KID_flow_dag, g->m, &k) != 0) return -1;
        g->stats.bellman_passes = g->stats.absorb_passes = 1;
        g->stats.bellman_resid = g->stats.absorb_resid = 0;
        g->stats.diverged_dest = -1;
    }
    if (rc == 0 && arrivals(g) != 0) return -1;
    if (g->ops->mark(g->ctx, nm++) != 0) return gfail(g, "timer");
    if (rc == 0 && g->ops->get(g->ctx, f, k.f, sizeof(double) * (size_t)g->m) != 0)
        return gfail(g, "copy flows from device");
    if (g->ops->mark(g->ctx, nm++) != 0) return gfail(g, "timer");
    phase_times(g, nm, phase);
    if (rc == 0)
        for (int e = 0; e < g->m; e++)
            if (!isfinite(f[e])) rc = 1;
    g->jv_ok = rc == 0;
    if (st) *st = g->stats;
    return rc;
}

/* ------------------------------------------------------------------ J v */

int ds_gpu_loader_jv(ds_gpu_loader *g, const double *x, const double *v, double *out, ds_load_stats *st)
{
    dsg_k k = g->k;
    double s = 0, resid = 0;
    last_err[0] = 0;
    if (!g->jv_ok) return set_err("J v needs a successful loading-map evaluation first");
    if (g->ops->mark(g->ctx, 0) != 0) return gfail(g, "timer");
    if (g->ops->put(g->ctx, (void *)k.x, x, sizeof(double) * (size_t)g->m) != 0 ||
        g->ops->put(g->ctx, (void *)k.v, v, sizeof(double) * (size_t)g->m) != 0)
        return gfail(g, "copy x, v to device");
    if (launch(g, DSG_KID_dtv, g->m, &k) != 0) return -1;
    k.phi_c = k.phi;
    if (g->full && g->krylov) {
        if (jv_krylov(g, &k) != 0) return -1;
    } else if (g->full) {
        long nn = (long)g->nd * g->n;
        int c = 0, pass = 0, cap = g->inner_max * 4 + g->depth;
        if (fill(g, g->dV[0], nn, 0) != 0) return -1;
        for (;;) {
            k.vin = g->dV[c];
            k.vout = g->dV[c ^ 1];
            if (launch(g, DSG_KID_dv_full, nn, &k) != 0) return -1;
            c ^= 1;
            pass++;
            if (pass % DSG_CHECK != 0 && pass < cap) continue;
            double dmax = 0, scale = 0;
            if (reduce(g, k.delta, g->n, DSG_RED_MAXABS) != 0) return -1;
            for (int d = 0; d < g->nd; d++) dmax = dsk_max_nan(dmax, g->h_red[d]);
            if (reduce(g, g->dV[c], g->n, DSG_RED_MAXABS) != 0) return -1;
            for (int d = 0; d < g->nd; d++) scale = dsk_max_nan(scale, g->h_red[d]);
            if (dmax != dmax) return set_err("J v: the Bellman derivative is not a number");
            if (dmax <= g->inner_tol * (scale > 1 ? scale : 1)) break;
            /* passes that ran out far from the answer (the evaluation's trust
             * rule, LD_TRUST_TOL) make J v fail, as on the CPU */
            if (pass >= cap) {
                if (dmax <= LD_TRUST_TOL * (scale > 1 ? scale : 1)) break;
                return set_err("J v: the Bellman derivative did not converge within %d passes (largest change "
                               "%.3g, scale %.3g)",
                               cap, dmax, scale);
            }
        }
        k.vin = g->dV[c];
        if (launch(g, DSG_KID_dp_full, (long)g->nd * g->m, &k) != 0) return -1;
        k.rout = g->R[0];
        if (launch(g, DSG_KID_src_full, nn, &k) != 0) return -1;
        /* the source's size per destination scales the stopping test */
        if (reduce(g, g->R[0], g->n, DSG_RED_SUMABS) != 0) return -1;
        memcpy(g->h_prev, g->h_red, sizeof(double) * (size_t)g->nd);
        /* absorb_full alternates R[0], R[1]; start from a copy of the source */
        k.dst = g->dV[c ^ 1];
        k.src = g->R[0];
        k.len = nn;
        if (launch(g, DSG_KID_copy, nn, &k) != 0) return -1;
        int np = absorb_full(g, g->dV[c ^ 1], k.dphi, g->h_prev, &resid);
        if (np < 0) return -1;
        if (!(resid <= LD_TRUST_TOL))
            return set_err("J v: the absorption derivative did not converge within %d passes (scaled residual %.3g)",
                           np, resid);
        if (launch(g, DSG_KID_jv_full, g->m, &k) != 0) return -1;
    } else {
        k.vout = g->dV[0];
        if (fill(g, g->dV[0], (long)g->nd * g->n, 0) != 0) return -1;
        if (levels(g, DSG_KID_dv_dag, 1, &k, 1) != 0) return -1;
        k.vin = g->dV[0];
        if (launch(g, DSG_KID_dp_dag, g->dh.n_flat, &k) != 0) return -1;
        if (levels(g, DSG_KID_dphi_dag, 0, &k, 1) != 0) return -1;
        if (launch(g, DSG_KID_jv_dag, g->m, &k) != 0) return -1;
    }
    if (g->ops->get(g->ctx, out, k.f, sizeof(double) * (size_t)g->m) != 0) return gfail(g, "copy J v from device");
    if (g->ops->mark(g->ctx, 1) != 0) return gfail(g, "timer");
    if (g->ops->elapsed(g->ctx, 0, 1, &s) == 0) g->stats.t_phase[DS_PHASE_DERIV] = s;
    if (st) *st = g->stats;
    return 0;
}
