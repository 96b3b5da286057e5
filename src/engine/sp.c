/* sp.c - shortest paths to a destination with the centroid rule. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "sp.h"

int ds_node_is_centroid(const ds_network *net, int node) { return dsk_is_centroid(node, net->first_thru); }

int sp_work_init(sp_work *w, int n)
{
    w->n = n;
    w->heap = malloc(sizeof(sp_heap_item) * (size_t)(n > 0 ? n : 1));
    w->pos = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    w->cand_first = w->cand_next = NULL;
    w->record = 0;
    w->stop = NULL;
    w->stop_left = 0;
    if (w->heap && w->pos) return 0;
    free(w->heap), free(w->pos);
    w->heap = NULL, w->pos = NULL;
    return -1;
}

int sp_work_candidates(sp_work *w, int m)
{
    if (w->cand_first) return 0;
    w->cand_first = malloc(sizeof(int) * (size_t)(w->n > 0 ? w->n : 1));
    w->cand_next = malloc(sizeof(int) * (size_t)(m > 0 ? m : 1));
    if (w->cand_first && w->cand_next) return 0;
    free(w->cand_first), free(w->cand_next);
    w->cand_first = w->cand_next = NULL;
    return -1;
}

void sp_work_free(sp_work *w)
{
    free(w->heap);
    free(w->pos);
    free(w->cand_first);
    free(w->cand_next);
    w->heap = NULL;
    w->pos = NULL;
    w->cand_first = w->cand_next = NULL;
}

/* Ties in distance are broken by hop count, then node id, so that the settle
 * order is a strict total order: the DSP filter relies on it being a
 * topological order even with zero-cost links. Being a total order, any
 * correct priority queue settles the nodes in the same order. */
/* The comparison without branches (a heap's comparisons are coin flips to
 * the branch predictor: they were most of a search's time). A distance is
 * >= 0 and not NaN, so its bits order as its value; hops and node (both >= 0)
 * sit in the next 8 bytes as hops << 32 | node on a little-endian machine,
 * which orders as (hops, node). The same order as comparing field by field. */
static inline uint64_t key_hi(const sp_heap_item *a)
{
    uint64_t k;
    memcpy(&k, &a->dist, sizeof k);
    return k;
}
static inline uint64_t key_lo(const sp_heap_item *a)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t k;
    memcpy(&k, &a->node, sizeof k);
    return k;
#else
    return (uint64_t)(uint32_t)a->hops << 32 | (uint32_t)a->node;
#endif
}
static inline int key_less(const sp_heap_item *a, const sp_heap_item *b)
{
    uint64_t ah = key_hi(a), bh = key_hi(b);
    return (ah < bh) | ((ah == bh) & (key_lo(a) < key_lo(b)));
}

static void heap_up(sp_heap_item *heap, int *pos, int i)
{
    sp_heap_item x = heap[i];
    while (i > 0) {
        int p = (i - 1) / 4;
        if (!key_less(&x, &heap[p])) break;
        heap[i] = heap[p];
        pos[heap[i].node] = i;
        i = p;
    }
    heap[i] = x;
    pos[x.node] = i;
}

static void heap_down(sp_heap_item *heap, int *pos, int n, int i)
{
    sp_heap_item x = heap[i];
    for (;;) {
        int c = 4 * i + 1, best = c;
        if (c >= n) break;
        int end = c + 4 < n ? c + 4 : n;
        for (int k = c + 1; k < end; k++)
            if (key_less(&heap[k], &heap[best])) best = k;
        if (!key_less(&heap[best], &x)) break;
        heap[i] = heap[best];
        pos[heap[i].node] = i;
        i = best;
    }
    heap[i] = x;
    pos[x.node] = i;
}

int sp_dijkstra_to(const ds_network *net, const double *t, int dest, double *dist, int *hops_out, int *order,
                   sp_work *w)
{
    int n = net->n_nodes, nh = 0, settled = 0;
    sp_heap_item *heap = w->heap;
    int *pos = w->pos;
    int *hops = hops_out, *own = NULL;
    if (!hops_out) {
        own = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
        if (!own) return -1;
        hops = own;
    }
    int *cf = w->record ? w->cand_first : NULL, *cn = w->cand_next;
    for (int i = 0; i < n; i++) {
        dist[i] = INFINITY;
        hops[i] = -1;
        pos[i] = -1;
    }
    if (cf)
        for (int i = 0; i < n; i++) cf[i] = -1;
    dist[dest] = 0;
    hops[dest] = 0;
    heap[nh++] = (sp_heap_item){0.0, dest, 0};
    pos[dest] = 0;
    while (nh > 0) {
        int v = heap[0].node;
        pos[v] = -2; /* settled */
        if (--nh > 0) {
            heap[0] = heap[nh];
            pos[heap[0].node] = 0;
            heap_down(heap, pos, nh, 0);
        }
        if (order) order[settled] = v;
        settled++;
        if (w->stop && w->stop[v] && --w->stop_left == 0) break;
        if (!dsk_node_passable(v, dest, net->first_thru)) continue; /* no passing through */
        for (int k = net->in_start[v]; k < net->in_start[v + 1]; k++) {
            int e = net->in_link[k], u = net->tail[e];
            if (u == dest || pos[u] == -2) continue;
            if (cf) cn[e] = cf[u], cf[u] = e;
            double nd = dist[v] + t[e];
            int nhps = hops[v] + 1;
            if (nd < dist[u] || (nd == dist[u] && nhps < hops[u])) {
                dist[u] = nd;
                hops[u] = nhps;
                if (pos[u] == -1) pos[u] = nh++;
                heap[pos[u]] = (sp_heap_item){nd, u, nhps};
                heap_up(heap, pos, pos[u]);
            }
        }
    }
    free(own);
    return settled;
}

int sp_bfs_to(const ds_network *net, int dest, int *hops, int *order, int *queue, const unsigned char *stop,
              int stop_left)
{
    int n = net->n_nodes, qh = 0, qt = 0;
    for (int i = 0; i < n; i++) hops[i] = -1;
    hops[dest] = 0;
    queue[qt++] = dest;
    while (qh < qt) {
        int v = queue[qh++];
        if (stop && stop[v] && --stop_left == 0) {
            qt = qh;
            break;
        }
        if (!dsk_node_passable(v, dest, net->first_thru)) continue;
        for (int k = net->in_start[v]; k < net->in_start[v + 1]; k++) {
            int u = net->tail[net->in_link[k]];
            if (hops[u] >= 0) continue;
            hops[u] = hops[v] + 1;
            queue[qt++] = u;
        }
    }
    if (order && order != queue)
        for (int i = 0; i < qt; i++) order[i] = queue[i];
    return qt;
}

void ds_sp_to_dest(const ds_network *net, const double *t, int dest, double *dist, int *hops, int *order)
{
    sp_work w;
    if (!net || !t || !dist) return;
    if (dest < 0 || dest >= net->n_nodes) {
        /* no such node: nothing reaches it (dest -1 wrote before the heap's arrays: an abort in free) */
        for (int i = 0; i < net->n_nodes; i++) {
            dist[i] = INFINITY;
            if (hops) hops[i] = -1;
            if (order) order[i] = i;
        }
        return;
    }
    if (sp_work_init(&w, net->n_nodes) != 0) return;
    sp_dijkstra_to(net, t, dest, dist, hops, order, &w);
    sp_work_free(&w);
}

/* ds_od_no_path: which pairs have a path does not depend on the costs, so
 * no Dijkstra: a reverse search by reachability alone, 64 destinations at a
 * time, one bit each (reach[v] bit j: v reaches the block's destination j).
 * A node passes on the bits of every destination if it may be passed
 * through, a centroid only its own (as the destination); a worklist runs to
 * the least fixed point, which does not depend on the order of the work.
 * Blocks are dealt to the pool's workers; each writes only its own
 * destinations' OD pairs, so the flags do not depend on the thread count.
 * (One Dijkstra per destination took 30 s before the first iteration of
 * `dillsue ue` on 40,000 nodes and 4,000 zones; one BFS per destination 4 s.) */
#define OD_REACH_BLOCK 64

typedef struct {
    uint64_t *reach, *sent, *own; /* [n_nodes]: bits reached, passed on, own (a destination's) */
    int *queue;                   /* [n_nodes] ring: a node is in it at most once */
    unsigned char *queued;        /* [n_nodes] */
} od_reach_work;

typedef struct {
    const ds_network *net;
    unsigned char *no_path;
    od_reach_work *w; /* [threads] */
    volatile int *cancel;
    int stopped;
} od_reach_ctx;

/* The worklist to the fixed point; the queue holds the n_start seeds. */
static void od_reach_run(const ds_network *net, od_reach_work *w, int n_start)
{
    int n = net->n_nodes, qh = 0, len = n_start;
    while (len > 0) {
        int v = w->queue[qh];
        qh = qh + 1 == n ? 0 : qh + 1;
        len--;
        w->queued[v] = 0;
        uint64_t m = w->reach[v] & ~w->sent[v];
        if (dsk_is_centroid(v, net->first_thru)) m &= w->own[v]; /* only to itself */
        if (!m) continue;
        w->sent[v] |= m;
        for (int k = net->in_start[v]; k < net->in_start[v + 1]; k++) {
            int u = net->tail[net->in_link[k]];
            if (!(m & ~w->reach[u])) continue;
            w->reach[u] |= m;
            if (!w->queued[u]) {
                w->queued[u] = 1;
                int t = qh + len;
                w->queue[t >= n ? t - n : t] = u;
                len++;
            }
        }
    }
}

static void od_reach_block(void *ctx, int worker, int b)
{
    od_reach_ctx *r = ctx;
    const ds_network *net = r->net;
    od_reach_work *w = &r->w[worker];
    if (r->cancel && __atomic_load_n(r->cancel, __ATOMIC_ACQUIRE)) {
        __atomic_store_n(&r->stopped, 1, __ATOMIC_RELAXED);
        return;
    }
    int d0 = b * OD_REACH_BLOCK, d1 = d0 + OD_REACH_BLOCK;
    if (d1 > net->n_dest) d1 = net->n_dest;
    size_t words = sizeof(uint64_t) * (size_t)net->n_nodes;
    memset(w->reach, 0, words), memset(w->sent, 0, words), memset(w->own, 0, words);
    for (int d = d0; d < d1; d++) {
        int v = net->dest_node[d];
        w->reach[v] |= (uint64_t)1 << (d - d0);
        w->own[v] |= (uint64_t)1 << (d - d0);
        w->queue[d - d0] = v;
        w->queued[v] = 1;
    }
    od_reach_run(net, w, d1 - d0);
    for (int d = d0; d < d1; d++)
        for (int k = net->dest_od_start[d]; k < net->dest_od_start[d + 1]; k++)
            r->no_path[k] = !(w->reach[net->od_orig[k]] >> (d - d0) & 1);
}

int ds_od_no_path(const ds_network *net, int threads, volatile int *cancel, unsigned char *no_path)
{
    if (!net || !no_path) return -1;
    int blocks = (net->n_dest + OD_REACH_BLOCK - 1) / OD_REACH_BLOCK, rc = -1;
    if (threads <= 0) threads = ds_ncores();
    if (threads > blocks) threads = blocks;
    if (threads < 1) threads = 1;
    size_t n = (size_t)(net->n_nodes > 0 ? net->n_nodes : 1);
    od_reach_ctx r = {net, no_path, calloc((size_t)threads, sizeof(od_reach_work)), cancel, 0};
    int ok = r.w != NULL;
    for (int i = 0; ok && i < threads; i++) {
        od_reach_work *w = &r.w[i];
        w->reach = malloc(n * sizeof(uint64_t)), w->sent = malloc(n * sizeof(uint64_t));
        w->own = malloc(n * sizeof(uint64_t)), w->queue = malloc(n * sizeof(int)), w->queued = calloc(n, 1);
        ok = w->reach && w->sent && w->own && w->queue && w->queued;
    }
    ds_pool *pool = ok ? ds_pool_create(threads) : NULL;
    if (pool) {
        ds_pool_run(pool, blocks, od_reach_block, &r);
        ds_pool_free(pool);
        rc = __atomic_load_n(&r.stopped, __ATOMIC_RELAXED) ? 1 : 0;
    }
    for (int i = 0; r.w && i < threads; i++)
        free(r.w[i].reach), free(r.w[i].sent), free(r.w[i].own), free(r.w[i].queue), free(r.w[i].queued);
    free(r.w);
    return rc;
}
