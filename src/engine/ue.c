/*
 * ue.c - Wardrop user equilibrium by conjugate / bi-conjugate Frank-Wolfe
 * (Mitradjieva & Lindberg 2013, Transportation Science 47(2)).
 *
 * Each iteration: costs t(x), an all-or-nothing loading y on shortest paths
 * at t, the relative gap from the two, a search point s that combines y with
 * the previous search points so that s - x is conjugate (w.r.t. the Hessian
 * diag t'(x) of the Beckmann objective) to the previous directions, and an
 * exact line search on the Beckmann objective along s - x.
 *
 * Determinism: origins are cut into chunks whose size depends on the network
 * only; each chunk loads into its own buffer, and the buffers are summed in
 * chunk order, so the thread count never changes a bit of the result.
 */
#include "ds_ue.h"
#include "clock.h"
#include "kernels.h"
#include "pool.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Upper bound on the number of origin chunks: more would only cost memory
 * (one n_links buffer each) once every thread has a few chunks to balance. */
#define UE_MAX_CHUNKS 64
/* CFW keeps the search point away from the previous one (alpha <= 1 - delta,
 * Mitradjieva & Lindberg's delta). At 1 - 1e-5 CFW crawled along nearly the
 * old direction: Barcelona needed 5,947 iterations to 1e-6, 997 at 0.99
 * (Winnipeg 2,362 -> 2,166, Sioux Falls unchanged). */
#define UE_CFW_ALPHA_MAX 0.99
/* A step this close to 1 lands on the previous search point, which makes the
 * next conjugacy conditions degenerate: restart with a plain FW step. */
#define UE_RESTART_STEP (1.0 - 1e-12)

void ds_ue_config_default(ds_ue_config *c)
{
    memset(c, 0, sizeof *c);
    c->gap = 1e-6;
    c->max_iter = 100000;
    c->threads = 1;
    c->cost.cap = 100.0;
    c->cost.toll_factor = 0.0;
    c->cost.distance_factor = 0.0;
    c->method = DS_UE_BFW;
}

const char *ds_ue_method_name(int method)
{
    switch (method) {
    case DS_UE_CFW: return "cfw";
    case DS_UE_BFW: return "bfw";
    default: return "?";
    }
}

int ds_ue_method_parse(const char *s)
{
    if (!s) return -1;
    if (strcmp(s, "cfw") == 0) return DS_UE_CFW;
    if (strcmp(s, "bfw") == 0) return DS_UE_BFW;
    return -1;
}

/* ------------------------------------------------------------ Beckmann */

/* Closed form of int_0^x t(s) ds for the capped BPR: the polynomial part up
 * to the cap, then the constant capped cost beyond it. */
static double link_beckmann(double x, double t0, double b, double p, double c, double cap, double lin)
{
    double v = lin * x;
    if (x <= 0.0) return v;
    if (b == 0.0 || p == 0.0 || !(c > 0.0)) {
        /* flow-independent: pow(r, 0) = 1 makes the cost t0 (1 + b) */
        double tc = (p == 0.0) ? t0 * (1.0 + b) : t0;
        return v + tc * x;
    }
    double xc = cap > 0.0 ? cap * c : INFINITY;
    if (x <= xc) return v + t0 * x + t0 * b * c / (p + 1.0) * pow(x / c, p + 1.0);
    return v + t0 * xc + t0 * b * c / (p + 1.0) * pow(cap, p + 1.0) + t0 * (1.0 + b * pow(cap, p)) * (x - xc);
}

double ds_ue_beckmann(const ds_network *net, const ds_cost_params *cp, const double *x)
{
    double z = 0.0;
    for (int e = 0; e < net->n_links; e++) {
        double lin = dsk_cost_fixed(cp->toll_factor, net->toll[e], cp->distance_factor, net->length[e]);
        z += link_beckmann(x[e], net->t0[e], net->bpr_b[e], net->bpr_power[e], net->capacity[e], cp->cap, lin);
    }
    return z;
}

/* ------------------------------------------------ all-or-nothing loading */

typedef struct {
    double key;
    int node;
} heap_item;

typedef struct {
    double *dist;
    int *pred;                /* link into the node on the shortest-path tree */
    heap_item *heap;          /* binary min-heap; keys stored inline for locality */
    int *pos;                 /* node's index in heap, -1 if never reached, -2 settled */
    int *order;               /* nodes in the order settled */
    double *nf;               /* demand still to be pushed up the tree */
    unsigned char *is_target; /* destinations of the current origin */
} sp_work;

typedef struct {
    const ds_network *net;
    int n_orig;
    int *orig;    /* [n_orig] origin nodes with demand, ascending */
    int *o_start; /* [n_orig+1] into o_dest/o_q */
    int *o_dest;
    double *o_q;
    int chunk, n_chunks;
    double *cy;    /* [n_chunks * n_links] per-chunk loadings */
    double *csp;   /* [n_chunks] per-chunk sum q * SP */
    int *cbad;     /* [n_chunks] first OD (index into o_*) with no path, or -1 */
    double *clost; /* [n_chunks] demand of the OD pairs with no path (not assigned) */
    /* out-links in CSR order, so the scan of a node's links reads memory
     * sequentially: link id, head node and (per call) cost */
    int *csr_link, *csr_head;
    double *csr_t;
    int n_threads;
    sp_work *ws; /* [n_threads] */
    ds_pool *pool;
    /* the solve's cancel flag (may be NULL), polled before every origin's
     * tree: one loading takes seconds on a large network, a Ctrl-C should
     * not wait for it; stopped (atomic) says a chunk gave up part-way */
    volatile int *cancel;
    int stopped;
} aon_ctx;

static void heap_up(heap_item *heap, int *pos, int i)
{
    heap_item v = heap[i];
    while (i > 0) {
        int p = (i - 1) / 2;
        if (heap[p].key <= v.key) break;
        heap[i] = heap[p];
        pos[heap[i].node] = i;
        i = p;
    }
    heap[i] = v;
    pos[v.node] = i;
}

static void heap_down(heap_item *heap, int *pos, int n, int i)
{
    heap_item v = heap[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && heap[c + 1].key < heap[c].key) c++;
        if (v.key <= heap[c].key) break;
        heap[i] = heap[c];
        pos[heap[i].node] = i;
        i = c;
    }
    heap[i] = v;
    pos[v.node] = i;
}

/* Dijkstra from o until every destination of o is settled. Centroids other
 * than the origin are settled (they may be destinations) but never expanded.
 * Returns the number of nodes settled (in w->order). */
static int dijkstra_from(const aon_ctx *a, int o, int n_targets, const unsigned char *is_target, sp_work *w)
{
    const ds_network *net = a->net;
    int n = net->n_nodes, hn = 0, m = 0, left = n_targets;
    for (int i = 0; i < n; i++) {
        w->dist[i] = INFINITY;
        w->pos[i] = -1;
    }
    w->dist[o] = 0.0;
    w->pred[o] = -1;
    w->heap[hn++] = (heap_item){0.0, o};
    w->pos[o] = 0;
    while (hn > 0) {
        int u = w->heap[0].node;
        double du = w->heap[0].key;
        w->pos[u] = -2;
        hn--;
        if (hn > 0) {
            w->heap[0] = w->heap[hn];
            heap_down(w->heap, w->pos, hn, 0);
        }
        w->order[m++] = u;
        if (is_target[u] && --left == 0) break;
        if (!dsk_node_passable(u, o, net->first_thru)) continue;
        for (int k = net->out_start[u]; k < net->out_start[u + 1]; k++) {
            int v = a->csr_head[k];
            double nd = du + a->csr_t[k];
            if (nd < w->dist[v]) {
                int pv = w->pos[v];
                if (pv == -2) continue; /* settled: only possible with t < 0 */
                w->dist[v] = nd;
                w->pred[v] = a->csr_link[k];
                if (pv < 0) {
                    pv = hn++;
                    w->pos[v] = pv;
                }
                w->heap[pv] = (heap_item){nd, v};
                heap_up(w->heap, w->pos, pv);
            }
        }
    }
    return m;
}

static void load_chunk(void *ctx, int worker, int c)
{
    aon_ctx *a = ctx;
    sp_work *w = &a->ws[worker];
    unsigned char *is_target = w->is_target;
    const ds_network *net = a->net;
    double *y = a->cy + (size_t)c * (size_t)net->n_links;
    double sp = 0.0, lost = 0.0;
    int bad = -1;
    memset(y, 0, sizeof(double) * (size_t)net->n_links);
    int i0 = c * a->chunk, i1 = i0 + a->chunk;
    if (i1 > a->n_orig) i1 = a->n_orig;
    for (int i = i0; i < i1; i++) {
        if (a->cancel && __atomic_load_n(a->cancel, __ATOMIC_ACQUIRE)) {
            __atomic_store_n(&a->stopped, 1, __ATOMIC_RELAXED);
            return; /* y is no loading now: aon_load discards it */
        }
        int o = a->orig[i], nt = 0;
        for (int k = a->o_start[i]; k < a->o_start[i + 1]; k++)
            if (!is_target[a->o_dest[k]]) {
                is_target[a->o_dest[k]] = 1;
                nt++;
            }
        int m = dijkstra_from(a, o, nt, is_target, w);
        for (int k = a->o_start[i]; k < a->o_start[i + 1]; k++) {
            int d = a->o_dest[k];
            is_target[d] = 0;
            if (d == o) continue;
            if (!(w->dist[d] < INFINITY)) {
                if (bad < 0) bad = k;
                lost += a->o_q[k];
                continue;
            }
            w->nf[d] += a->o_q[k];
            sp += a->o_q[k] * w->dist[d];
        }
        /* Push demand up the tree in reverse settle order: every node's
         * predecessor was settled before it. */
        for (int j = m - 1; j > 0; j--) {
            int v = w->order[j];
            double f = w->nf[v];
            if (f == 0.0) continue;
            int l = w->pred[v];
            y[l] += f;
            w->nf[net->tail[l]] += f;
            w->nf[v] = 0.0;
        }
        w->nf[o] = 0.0;
    }
    a->csp[c] = sp;
    a->cbad[c] = bad;
    a->clost[c] = lost;
}

/* Returned by aon_load when the cancel flag stopped it part-way. */
#define AON_CANCELLED (-1)

/* y = all-or-nothing loading at costs t of the OD pairs that have a path;
 * *sptt = sum q * SP over them, *lost = the demand of those that have none
 * (not assigned, as the SUE's loading map leaves it; which pairs they are
 * does not depend on the costs). Returns 0, or 1 + index into o_* of the
 * first OD pair with no path, or AON_CANCELLED (y, *sptt and *lost left
 * as they were: a cancel set after the last origin's tree changes nothing). */
static int aon_load(aon_ctx *a, const double *t, double *y, double *sptt, double *lost)
{
    int n_links = a->net->n_links, first = -1;
    for (int k = 0; k < n_links; k++) a->csr_t[k] = t[a->csr_link[k]];
    a->stopped = 0;
    ds_pool_run(a->pool, a->n_chunks, load_chunk, a);
    if (__atomic_load_n(&a->stopped, __ATOMIC_RELAXED)) return AON_CANCELLED;
    double sp = 0.0, q = 0.0;
    memset(y, 0, sizeof(double) * (size_t)n_links);
    for (int c = 0; c < a->n_chunks; c++) {
        if (a->cbad[c] >= 0 && first < 0) first = a->cbad[c];
        const double *cy = a->cy + (size_t)c * (size_t)n_links;
        for (int e = 0; e < n_links; e++) y[e] += cy[e];
        sp += a->csp[c];
        q += a->clost[c];
    }
    *sptt = sp;
    *lost = q;
    return first + 1;
}

static void aon_free(aon_ctx *a)
{
    if (a->ws)
        for (int i = 0; i < a->n_threads; i++) {
            free(a->ws[i].dist);
            free(a->ws[i].pred);
            free(a->ws[i].heap);
            free(a->ws[i].pos);
            free(a->ws[i].order);
            free(a->ws[i].nf);
            free(a->ws[i].is_target);
        }
    if (a->pool) ds_pool_free(a->pool);
    free(a->ws);
    free(a->orig);
    free(a->o_start);
    free(a->o_dest);
    free(a->o_q);
    free(a->cy);
    free(a->csp);
    free(a->cbad);
    free(a->clost);
    free(a->csr_link);
    free(a->csr_head);
    free(a->csr_t);
}

/* Regroup the OD list (sorted by destination) by origin. */
static int aon_init(aon_ctx *a, const ds_network *net, int threads)
{
    int n = net->n_nodes;
    memset(a, 0, sizeof *a);
    a->net = net;
    int *cnt = calloc((size_t)n + 1, sizeof(int));
    if (!cnt) return -1;
    for (int k = 0; k < net->n_od; k++)
        if (net->od_demand[k] > 0.0) cnt[net->od_orig[k]]++;
    for (int i = 0; i < n; i++)
        if (cnt[i]) a->n_orig++;
    a->orig = malloc(sizeof(int) * (size_t)(a->n_orig + 1));
    a->o_start = malloc(sizeof(int) * (size_t)(a->n_orig + 1));
    a->o_dest = malloc(sizeof(int) * (size_t)(net->n_od + 1));
    a->o_q = malloc(sizeof(double) * (size_t)(net->n_od + 1));
    int *slot = malloc(sizeof(int) * (size_t)(n + 1));
    if (!a->orig || !a->o_start || !a->o_dest || !a->o_q || !slot) {
        free(cnt);
        free(slot);
        return -1;
    }
    int j = 0, pos = 0;
    for (int i = 0; i < n; i++) {
        slot[i] = -1;
        if (!cnt[i]) continue;
        a->orig[j] = i;
        a->o_start[j] = pos;
        slot[i] = pos;
        pos += cnt[i];
        j++;
    }
    a->o_start[j] = pos;
    for (int k = 0; k < net->n_od; k++)
        if (net->od_demand[k] > 0.0) {
            int p = slot[net->od_orig[k]]++;
            a->o_dest[p] = net->od_dest[k];
            a->o_q[p] = net->od_demand[k];
        }
    free(cnt);
    free(slot);

    a->chunk = a->n_orig > 0 ? (a->n_orig + UE_MAX_CHUNKS - 1) / UE_MAX_CHUNKS : 1;
    a->n_chunks = a->n_orig > 0 ? (a->n_orig + a->chunk - 1) / a->chunk : 0;
    if (threads > a->n_chunks) threads = a->n_chunks;
    if (threads < 1) threads = 1;
    a->n_threads = threads;
    a->cy = malloc(sizeof(double) * (size_t)(a->n_chunks > 0 ? a->n_chunks : 1) * (size_t)net->n_links + 1);
    a->csp = calloc((size_t)a->n_chunks + 1, sizeof(double));
    a->cbad = calloc((size_t)a->n_chunks + 1, sizeof(int));
    a->clost = calloc((size_t)a->n_chunks + 1, sizeof(double));
    a->ws = calloc((size_t)threads, sizeof(sp_work));
    size_t nl = (size_t)net->n_links + 1;
    a->csr_link = malloc(sizeof(int) * nl);
    a->csr_head = malloc(sizeof(int) * nl);
    a->csr_t = malloc(sizeof(double) * nl);
    if (!a->cy || !a->csp || !a->cbad || !a->clost || !a->ws || !a->csr_link || !a->csr_head || !a->csr_t) return -1;
    for (int k = 0; k < net->out_start[n]; k++) {
        a->csr_link[k] = net->out_link[k];
        a->csr_head[k] = net->head[net->out_link[k]];
    }
    for (int i = 0; i < threads; i++) {
        sp_work *w = &a->ws[i];
        w->dist = malloc(sizeof(double) * (size_t)n);
        w->pred = malloc(sizeof(int) * (size_t)n);
        w->heap = malloc(sizeof(heap_item) * (size_t)n);
        w->pos = malloc(sizeof(int) * (size_t)n);
        w->order = malloc(sizeof(int) * (size_t)n);
        w->nf = calloc((size_t)n, sizeof(double));
        w->is_target = calloc((size_t)n, 1);
        if (!w->dist || !w->pred || !w->heap || !w->pos || !w->order || !w->nf || !w->is_target) return -1;
    }
    a->pool = ds_pool_create(threads);
    if (!a->pool) return -1;
    return 0;
}

/* ----------------------------------------------------------- line search */

typedef struct {
    const ds_network *net;
    const ds_cost_params *cp;
    double *xa, *ta, *ha; /* scratch, n_links */
} ls_ctx;

/* g(a) = d/da Beckmann(x + a d) = sum t(x + a d) d; also g'(a) if gp, and
 * the size sum |t d| of the terms (the rounding floor of g) if scale. */
static double dir_deriv(ls_ctx *L, const double *x, const double *d, double a, double *gp, double *scale)
{
    int n = L->net->n_links;
    for (int e = 0; e < n; e++) {
        double v = x[e] + a * d[e];
        L->xa[e] = v > 0.0 ? v : 0.0; /* a = 1 can undershoot 0 by rounding */
    }
    ds_costs_eval(L->net, L->cp, L->xa, L->ta);
    double g = 0.0, sc = 0.0;
    for (int e = 0; e < n; e++) {
        g += L->ta[e] * d[e];
        sc += fabs(L->ta[e] * d[e]);
    }
    if (scale) *scale = sc;
    if (gp) {
        ds_costs_deriv(L->net, L->cp, L->xa, L->ha);
        double h = 0.0;
        for (int e = 0; e < n; e++) h += L->ha[e] * d[e] * d[e];
        *gp = h;
    }
    return g;
}

/* Exact minimiser of Beckmann(x + a d) over a in [0,1] given g0 = g(0) < 0:
 * the derivative is nondecreasing in a (costs are), so safeguarded Newton on
 * a shrinking sign bracket converges; bisection takes over wherever Newton
 * leaves the bracket or the curvature vanishes (flat or capped links). */
static double line_search(ls_ctx *L, const double *x, const double *d, double g0)
{
    double g1 = dir_deriv(L, x, d, 1.0, NULL, NULL);
    if (g1 <= 0.0) return 1.0;
    double lo = 0.0, hi = 1.0, glo = g0, ghi = g1;
    /* secant start: exact when the costs are linear along d */
    double a = lo - glo * (hi - lo) / (ghi - glo);
    for (int it = 0; it < 100; it++) {
        if (!(a > lo && a < hi)) a = 0.5 * (lo + hi);
        double gp = 0.0, sc = 0.0, g = dir_deriv(L, x, d, a, &gp, &sc);
        /* g is zero to within its own rounding: a is the minimiser as far
         * as double precision can tell */
        if (fabs(g) <= 1e-15 * sc) return a;
        if (g < 0.0) {
            lo = a;
            glo = g;
        } else {
            hi = a;
            ghi = g;
        }
        if (hi - lo <= 4e-16 * hi) break;
        double an = (gp > 0.0) ? a - g / gp : NAN;
        if (!(an > lo && an < hi)) an = lo - glo * (hi - lo) / (ghi - glo); /* regula falsi */
        /* keep the bracket shrinking geometrically even when the false
         * position stalls at one end */
        if (!(an > lo && an < hi) || (it % 4 == 3)) an = 0.5 * (lo + hi);
        a = an;
    }
    return -glo <= ghi ? lo : hi;
}

/* ------------------------------------------------------------------ solve */

static double dot(const double *a, const double *b, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

/* Demand of the OD pairs between two zones (an origin's own zone is no trip). */
static double od_demand(const aon_ctx *a)
{
    double q = 0.0;
    for (int i = 0; i < a->n_orig; i++)
        for (int k = a->o_start[i]; k < a->o_start[i + 1]; k++)
            if (a->o_dest[k] != a->orig[i]) q += a->o_q[k];
    return q;
}

/* No OD pair with demand has a path: nothing to assign, the first named. */
static ds_status fail_od(const ds_network *net, const aon_ctx *a, int k, ds_error *err)
{
    int o = -1;
    for (int i = 0; i < a->n_orig; i++)
        if (k >= a->o_start[i] && k < a->o_start[i + 1]) o = a->orig[i];
    /* centroids only where FIRST THRU NODE makes some (it said so on networks without) */
    ds_error_set(err, net->net_path, 0, "no path from zone %d to zone %d (demand %g)%s", ds_node_id(net, o),
                 ds_node_id(net, a->o_dest[k]), a->o_q[k],
                 net->first_thru > 1 ? " without passing through a centroid" : "");
    return DS_STATUS_ERROR;
}

/* A cost that overflowed is named with its link and line: what follows from
 * it (no shortest path, a NaN objective) would only hide the cause. */
static int costs_finite(const ds_network *net, const ds_cost_params *cp, const double *x, const double *t,
                        ds_error *err)
{
    for (int e = 0; e < net->n_links; e++)
        if (!isfinite(t[e])) {
            ds_error_set(err, net->net_path, net->src_line ? net->src_line[e] : 0,
                         "the cost of link %d->%d overflowed at flow %g (free-flow time %g, b %g, power %g, "
                         "capacity %g, cap %g)",
                         ds_node_id(net, net->tail[e]), ds_node_id(net, net->head[e]), x[e], net->t0[e], net->bpr_b[e],
                         net->bpr_power[e], net->capacity[e], cp->cap);
            return -1;
        }
    return 0;
}

static int ue_check(const ds_network *net, const ds_ue_config *cfg, const double *flows, ds_error *err)
{
    if (!net || !cfg || !flows)
        return ds_error_set(err, "", 0, "ds_ue_solve: missing network, configuration or output");
    if (!(cfg->gap >= 0.0) || cfg->max_iter < 0 || !(cfg->cost.cap >= 0.0) ||
        (cfg->method != DS_UE_CFW && cfg->method != DS_UE_BFW))
        return ds_error_set(err, "", 0, "bad UE configuration (gap %g, max_iter %d, cap %g, method %d)", cfg->gap,
                            cfg->max_iter, cfg->cost.cap, cfg->method);
    if (ds_network_check(net, err)) return -1;
    /* Costs grow with flow (b >= 0), so t(0) >= 0 keeps every cost Dijkstra
     * sees nonnegative; a negative toll or distance factor can break that. */
    for (int e = 0; e < net->n_links; e++)
        if (!(net->bpr_b[e] >= 0.0))
            return ds_error_set(err, net->net_path, net->src_line ? net->src_line[e] : 0,
                                "negative BPR b %g: the UE solver needs costs nondecreasing in flow", net->bpr_b[e]);
    return 0;
}

/* Working state of one solve. */
typedef struct ue_state {
    const ds_network *net;
    const ds_ue_config *cfg;
    int n;
    size_t sz;
    aon_ctx A;
    ls_ctx L;
    double *t, *h, *y, *d, *s1, *s2, *s; /* costs, cost derivatives, AON target, direction, search points */
    double *prev;                        /* the last iterate reported, kept while a cancel can come */
    int n_hist;                          /* search points kept for conjugation (0..2) */
    double tau_prev;
} ue_state;

static void ue_free(ue_state *u)
{
    aon_free(&u->A);
    free(u->t), free(u->h), free(u->y), free(u->d), free(u->s1), free(u->s2), free(u->s), free(u->prev);
    free(u->L.xa), free(u->L.ta), free(u->L.ha);
}

static int ue_alloc(ue_state *u, const ds_network *net, const ds_ue_config *cfg, ds_error *err)
{
    int threads = cfg->threads <= 0 ? ds_ncores() : cfg->threads;
    if (threads > UE_MAX_CHUNKS) threads = UE_MAX_CHUNKS;
    memset(u, 0, sizeof *u);
    u->net = net;
    u->cfg = cfg;
    u->n = net->n_links;
    u->sz = sizeof(double) * (size_t)(u->n > 0 ? u->n : 1);
    u->L.net = net;
    u->L.cp = &cfg->cost;
    double **bufs[] = {&u->t, &u->h, &u->y, &u->d, &u->s1, &u->s2, &u->s, &u->prev, &u->L.xa, &u->L.ta, &u->L.ha};
    int ok = aon_init(&u->A, net, threads) == 0;
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) ok &= (*bufs[i] = malloc(u->sz)) != NULL;
    if (ok) return 0;
    ue_free(u);
    return ds_error_set(err, "", 0, "out of memory for the UE solver (%d links)", u->n);
}

/* The search point s from the AON target y and the previous search points:
 * conjugate (s conjugate to the last direction) or bi-conjugate (to the last
 * two; Mitradjieva & Lindberg eqs. 15-16), or plain Frank-Wolfe. */
static void search_point(ue_state *u, const double *x)
{
    int n = u->n, kind = u->n_hist == 0 ? 0 : (u->cfg->method == DS_UE_BFW && u->n_hist >= 2 ? 2 : 1);
    double *h = u->h, *y = u->y, *s1 = u->s1, *s2 = u->s2, *s = u->s, *d = u->d;
    if (kind > 0) ds_costs_deriv(u->net, &u->cfg->cost, x, h);
    if (kind == 1) {
        /* s = a s1 + (1-a) y with (s - x) H (s1 - x) = 0 */
        for (int e = 0; e < n; e++) d[e] = s1[e] - x[e];
        double num = 0.0, den = 0.0;
        for (int e = 0; e < n; e++) {
            double hd = d[e] * h[e];
            num += hd * (y[e] - x[e]);
            den += hd * (y[e] - s1[e]);
        }
        double al = den != 0.0 ? num / den : 0.0;
        if (!(al > 0.0)) al = 0.0;
        if (al > UE_CFW_ALPHA_MAX) al = UE_CFW_ALPHA_MAX;
        for (int e = 0; e < n; e++) s[e] = al * s1[e] + (1.0 - al) * y[e];
    } else if (kind == 2) {
        /* s = b0 y + b1 s1 + b2 s2, (s - x) conjugate to dbar = s1 - x
         * and dbb = tau s1 + (1 - tau) s2 - x, the previous two
         * directions seen from x */
        double tp = u->tau_prev;
        double mnum = 0.0, mden = 0.0, nnum = 0.0, nden = 0.0;
        for (int e = 0; e < n; e++) {
            double dbar = s1[e] - x[e];
            double dbb = tp * s1[e] + (1.0 - tp) * s2[e] - x[e];
            double yx = y[e] - x[e];
            mnum += dbb * h[e] * yx;
            mden += dbb * h[e] * (s2[e] - s1[e]);
            nnum += dbar * h[e] * yx;
            nden += dbar * h[e] * dbar;
        }
        double mu = mden != 0.0 ? -mnum / mden : 0.0;
        if (!(mu > 0.0)) mu = 0.0;
        double nu = nden != 0.0 ? -nnum / nden + mu * tp / (1.0 - tp) : 0.0;
        if (!(nu > 0.0)) nu = 0.0;
        double b0 = 1.0 / (1.0 + mu + nu), b1 = nu * b0, b2 = mu * b0;
        if (!isfinite(b0) || !isfinite(b1) || !isfinite(b2)) {
            b0 = 1.0;
            b1 = b2 = 0.0;
        }
        for (int e = 0; e < n; e++) s[e] = b0 * y[e] + b1 * s1[e] + b2 * s2[e];
    } else {
        memcpy(s, y, u->sz);
    }
}

/* One iteration from flows x with costs u->t and AON target u->y: search
 * point, exact line search on the Beckmann objective, step. */
static void ue_step(ue_state *u, double *x)
{
    int n = u->n;
    search_point(u, x);
    for (int e = 0; e < n; e++) u->d[e] = u->s[e] - x[e];
    double g0 = dot(u->t, u->d, n);
    if (!(g0 < 0.0) && u->n_hist > 0) {
        /* conjugation lost descent (H is only a local model): FW step */
        memcpy(u->s, u->y, u->sz);
        for (int e = 0; e < n; e++) u->d[e] = u->s[e] - x[e];
        g0 = dot(u->t, u->d, n);
        u->n_hist = 0;
    }
    double tau = 0.0;
    if (g0 < 0.0) tau = line_search(&u->L, x, u->d, g0);
    for (int e = 0; e < n; e++) {
        double v = x[e] + tau * u->d[e];
        x[e] = v > 0.0 ? v : 0.0;
    }
    /* history of search points: s2 <- s1 <- s */
    double *tmp = u->s2;
    u->s2 = u->s1;
    u->s1 = u->s;
    u->s = tmp;
    u->n_hist = u->n_hist < 2 ? u->n_hist + 1 : 2;
    u->tau_prev = tau;
    if (tau >= UE_RESTART_STEP || tau <= 0.0) u->n_hist = 0;
}

/* A cancel that stopped an all-or-nothing loading part-way at iteration
 * iter: the flows go back to the last iterate reported (u->prev, iteration
 * iter - 1, whose gap *gap still holds), the contract of a cancel between
 * iterations; before iteration 0 was reported there is none (iters -1). */
static void ue_cancelled_in_aon(ue_state *u, double *flows, int *iter, double *gap)
{
    if (*iter > 0) {
        memcpy(flows, u->prev, u->sz);
        (*iter)--;
    } else {
        memset(flows, 0, u->sz);
        *iter = -1;
        *gap = NAN;
    }
}

ds_status ds_ue_solve(const ds_network *net, const ds_ue_config *cfg, double *flows, ds_ue_result *res,
                      ds_ue_progress_fn progress, void *ctx, volatile int *cancel, ds_error *err)
{
    double t_start = ds_clock_now(), sptt = 0.0, gap = 0.0, lost = 0.0, demand;
    ue_state u;
    ds_status rc = DS_STATUS_ERROR;
    int iter = 0, ar;

    if (ue_check(net, cfg, flows, err) || ue_alloc(&u, net, cfg, err)) return DS_STATUS_ERROR;
    u.A.cancel = cancel;
    const ds_cost_params *cp = &cfg->cost;
    memset(flows, 0, u.sz);
    ds_costs_eval(net, cp, flows, u.t);
    if (ds_costs_check(net, cp, err)) goto out;
    if (costs_finite(net, cp, flows, u.t, err)) goto out;
    /* OD pairs without a path are left out, as solve leaves them (the caller
     * says how much demand that is); only where no demand has one is there
     * nothing to solve */
    demand = od_demand(&u.A);
    if ((ar = aon_load(&u.A, u.t, flows, &sptt, &lost)) == AON_CANCELLED) goto aon_cancelled;
    if (ar && !(lost < demand)) goto aon_failed;

    for (;;) {
        ds_costs_eval(net, cp, flows, u.t);
        if (costs_finite(net, cp, flows, u.t, err)) goto out;
        if ((ar = aon_load(&u.A, u.t, u.y, &sptt, &lost)) == AON_CANCELLED) goto aon_cancelled;
        if (ar && !(lost < demand)) goto aon_failed;
        double tstt = dot(u.t, flows, u.n);
        if (!isfinite(tstt) || !isfinite(sptt)) {
            ds_error_set(err, net->net_path, 0,
                         "the total travel time overflowed at iteration %d (%g, shortest "
                         "paths %g): costs too large for doubles",
                         iter, tstt, sptt);
            goto out;
        }
        gap = tstt > 0.0 ? (tstt - sptt) / tstt : 0.0;
        if (progress) progress(iter, gap, ctx);
        if (gap <= cfg->gap) {
            rc = DS_STATUS_CONVERGED;
            break;
        }
        if (iter >= cfg->max_iter) {
            rc = DS_STATUS_MAX_ITER;
            break;
        }
        if (cancel && __atomic_load_n(cancel, __ATOMIC_ACQUIRE)) {
            rc = DS_STATUS_CANCELLED;
            break;
        }
        if (cancel) memcpy(u.prev, flows, u.sz);
        ue_step(&u, flows);
        iter++;
    }
report:
    if (res) {
        res->iters = iter;
        res->rel_gap = gap;
        res->beckmann = iter >= 0 ? ds_ue_beckmann(net, cp, flows) : NAN;
        res->seconds = ds_clock_now() - t_start;
        if (iter >= 0 && !isfinite(res->beckmann)) {
            ds_error_set(err, net->net_path, 0, "the Beckmann objective overflowed at the final flows (%g)",
                         res->beckmann);
            rc = DS_STATUS_ERROR;
        }
    }
    goto out;

aon_cancelled:
    ue_cancelled_in_aon(&u, flows, &iter, &gap);
    rc = DS_STATUS_CANCELLED;
    goto report;
aon_failed:
    rc = fail_od(net, &u.A, ar - 1, err);
out:
    ue_free(&u);
    return rc;
}
