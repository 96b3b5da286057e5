/* sp.c - shortest paths to a destination with the centroid rule. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "sp.h"

int ds_node_is_centroid(const ds_network *net, int node) { return dsk_is_centroid(node, net->first_thru); }

int sp_work_init(sp_work *w, const ds_network *net)
{
    int n = net->n_nodes, m = net->n_links;
    w->n = n;
    w->item = malloc(sizeof(sp_heap_item) * (size_t)(m + 1));
    w->next = malloc(sizeof(int) * (size_t)(m + 1));
    w->done = malloc((size_t)(n > 0 ? n : 1));
    w->adj = malloc(sizeof(sp_in_link) * (size_t)(m > 0 ? m : 1));
    w->cand_first = w->cand_next = NULL;
    w->record = 0;
    w->stop = NULL;
    w->stop_left = 0;
    if (w->item && w->next && w->done && w->adj) {
        for (int k = 0; k < m; k++) w->adj[k] = (sp_in_link){net->tail[net->in_link[k]], net->in_link[k]};
        return 0;
    }
    sp_work_free(w);
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
    free(w->item);
    free(w->next);
    free(w->done);
    free(w->adj);
    free(w->cand_first);
    free(w->cand_next);
    w->item = NULL;
    w->next = NULL;
    w->done = NULL;
    w->adj = NULL;
    w->cand_first = w->cand_next = NULL;
}

/* Ties in distance are broken by hop count, then node id, so that the settle
 * order is a strict total order: the DSP filter relies on it being a
 * topological order even with zero-cost links. Being a total order, any
 * correct priority queue settles the nodes in the same order. */
/* A key as two words, compared without branches. A distance is >= 0 and not
 * NaN, so its bits order as its value; hops and node (both >= 0) sit in the
 * next 8 bytes as hops << 32 | node on a little-endian machine, which orders
 * as (hops, node). The same order as comparing field by field. */
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

/* The queue: a radix heap on the 128-bit key (hi, lo) above. Dijkstra's keys
 * only grow: a node is queued with a key above the one just settled (a
 * longer distance, or the same with one hop more), so an item sits in bucket
 * b = 1 + the highest bit in which its key differs from the last key taken
 * (0: equal), and b only falls as the last key grows. Taking the least: from
 * bucket 0 if it holds one, else the lowest non-empty bucket is scanned for
 * its least key, which becomes the last, and its items go down to lower
 * buckets. Lazy: a node whose key improves is queued again, and the stale
 * item is skipped when taken; each link queues at most once (when its head
 * settles), so m + 1 items. (It replaced a 4-ary heap with decrease-key:
 * the DSP set-up's searches on Berlin-Center took 0.44 s, now 0.32 s.) */
typedef struct {
    sp_heap_item *item; /* [m+1] items in the order queued */
    int *next;          /* [m+1] the next item in the same bucket, -1 none */
    int head[129];      /* first item of each bucket, -1 none */
    uint64_t full[3];   /* bit b: bucket b holds an item */
    uint64_t hi, lo;    /* the last key taken */
    int used;
} radix_heap;

static inline int rh_bucket(const radix_heap *h, const sp_heap_item *a)
{
    uint64_t x = key_hi(a) ^ h->hi;
    if (x) return 128 - __builtin_clzll(x);
    x = key_lo(a) ^ h->lo;
    return x ? 64 - __builtin_clzll(x) : 0;
}

static inline void rh_put(radix_heap *h, int i)
{
    int b = rh_bucket(h, &h->item[i]);
    h->next[i] = h->head[b];
    h->head[b] = i;
    h->full[b >> 6] |= (uint64_t)1 << (b & 63);
}

static void rh_init(radix_heap *h, sp_work *w, sp_heap_item first)
{
    h->item = w->item;
    h->next = w->next;
    for (int b = 0; b < 129; b++) h->head[b] = -1;
    h->full[0] = h->full[1] = h->full[2] = 0;
    h->hi = key_hi(&first);
    h->lo = key_lo(&first);
    h->item[0] = first;
    h->used = 1;
    rh_put(h, 0);
}

/* The least item, taken out; -1 if none. */
static int rh_pop(radix_heap *h)
{
    int i = h->head[0];
    if (i >= 0) { /* (keys are distinct: bucket 0 holds one at most) */
        h->head[0] = -1;
        h->full[0] &= ~(uint64_t)1;
        return i;
    }
    int q = h->full[0] ? 0 : h->full[1] ? 1 : h->full[2] ? 2 : -1;
    if (q < 0) return -1;
    int b = 64 * q + __builtin_ctzll(h->full[q]), list = h->head[b], best = list;
    h->head[b] = -1;
    h->full[q] &= h->full[q] - 1;
    for (int k = h->next[list]; k >= 0; k = h->next[k])
        if (key_less(&h->item[k], &h->item[best])) best = k;
    h->hi = key_hi(&h->item[best]);
    h->lo = key_lo(&h->item[best]);
    for (int k = list; k >= 0;) {
        int nx = h->next[k];
        if (k != best) rh_put(h, k); /* (to a bucket below b) */
        k = nx;
    }
    return best;
}

static void search_reset(int n, double *dist, int *hops, unsigned char *done, int *cf)
{
    for (int i = 0; i < n; i++) {
        dist[i] = INFINITY;
        hops[i] = -1;
    }
    if (n > 0) memset(done, 0, (size_t)n);
    if (cf)
        for (int i = 0; i < n; i++) cf[i] = -1;
}

int sp_dijkstra_to(const ds_network *net, const double *t, int dest, double *dist, int *hops_out, int *order,
                   sp_work *w)
{
    int n = net->n_nodes, settled = 0, i;
    unsigned char *done = w->done;
    const sp_in_link *adj = w->adj;
    const int *in_start = net->in_start;
    int *hops = hops_out, *own = NULL;
    if (!hops_out) {
        own = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
        if (!own) return -1;
        hops = own;
    }
    int *cf = w->record ? w->cand_first : NULL, *cn = w->cand_next;
    search_reset(n, dist, hops, done, cf);
    dist[dest] = 0;
    hops[dest] = 0;
    radix_heap h;
    rh_init(&h, w, (sp_heap_item){0.0, dest, 0});
    while ((i = rh_pop(&h)) >= 0) {
        int v = h.item[i].node;
        if (done[v]) continue; /* stale: v was queued again with a lower key */
        done[v] = 1;
        if (order) order[settled] = v;
        settled++;
        if (w->stop && w->stop[v] && --w->stop_left == 0) break;
        if (!dsk_node_passable(v, dest, net->first_thru)) continue; /* no passing through */
        double dv = dist[v];
        int nhps = hops[v] + 1;
        for (int k = in_start[v]; k < in_start[v + 1]; k++) {
            int u = adj[k].tail, e = adj[k].link;
            if (done[u]) continue;
            if (cf) cn[e] = cf[u], cf[u] = e;
            double nd = dv + t[e];
            if (nd < dist[u] || (nd == dist[u] && nhps < hops[u])) {
                dist[u] = nd;
                hops[u] = nhps;
                h.item[h.used] = (sp_heap_item){nd, u, nhps};
                rh_put(&h, h.used++);
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
    if (sp_work_init(&w, net) != 0) return;
    sp_dijkstra_to(net, t, dest, dist, hops, order, &w);
    sp_work_free(&w);
}

/* ds_od_no_path: which pairs have a path does not depend on the costs, so
 * no Dijkstra, and no search per destination: the strongly connected
 * components of the nodes a route may pass through (all but the centroids)
 * are found once (Tarjan); a component's nodes reach the same destinations.
 * Then 64 destinations at a time, one bit each: a component reaches
 * destination j if one of its nodes has a link into it (or holds it), or a
 * component it has a link into does; Tarjan numbers the components so that
 * those come first, so one pass in that order finishes each. A centroid
 * origin (never passed through) reaches what its links' heads reach.
 * Blocks are dealt to the pool's workers; each writes only its own
 * destinations' flags, so they do not depend on the thread count. (A
 * Dijkstra per destination took 30 s before the first iteration of
 * `dillsue ue` on 40,000 nodes and 4,000 zones, 64-bit worklists 5 s.) */
#define OD_REACH_BLOCK 64

typedef struct {
    const ds_network *net;
    int n_comp;
    int *comp;       /* [n_nodes] component of a passable node, -1 a centroid */
    int *order;      /* [n_nodes] passable nodes by component, components in Tarjan's order */
    int *comp_start; /* [n_comp+1] into order */
    unsigned char *no_path;
    uint64_t *reach, *own; /* [threads * n_comp], [threads * n_nodes] */
    volatile int *cancel;
    int stopped;
} od_reach_ctx;

static int od_passable(const ds_network *net, int v) { return !dsk_is_centroid(v, net->first_thru); }

/* Iterative Tarjan over the passable nodes; a component is numbered once
 * every component it reaches is. t: 5 * n_nodes ints of scratch. */
static void od_reach_tarjan(od_reach_ctx *r, int *t)
{
    const ds_network *net = r->net;
    int n = net->n_nodes, *index = t, *low = t + n, *stack = t + 2 * n, *call = t + 3 * n, *at = t + 4 * n;
    int next = 0, sp = 0, cs = 0, no = 0;
    for (int i = 0; i < n; i++) index[i] = -1, r->comp[i] = -1;
    r->n_comp = 0;
    r->comp_start[0] = 0;
    for (int s = 0; s < n; s++) {
        if (!od_passable(net, s) || index[s] >= 0) continue;
        index[s] = low[s] = next++, stack[sp++] = s, call[cs++] = s, at[s] = net->out_start[s];
        while (cs > 0) {
            int v = call[cs - 1];
            if (at[v] < net->out_start[v + 1]) {
                int x = net->head[net->out_link[at[v]++]];
                if (!od_passable(net, x)) continue;
                if (index[x] < 0)
                    index[x] = low[x] = next++, stack[sp++] = x, call[cs++] = x, at[x] = net->out_start[x];
                else if (r->comp[x] < 0 && index[x] < low[v]) /* on the stack: no component yet */
                    low[v] = index[x];
                continue;
            }
            if (--cs > 0 && low[v] < low[call[cs - 1]]) low[call[cs - 1]] = low[v];
            if (low[v] != index[v]) continue;
            int w;
            do {
                w = stack[--sp];
                r->comp[w] = r->n_comp;
                r->order[no++] = w;
            } while (w != v);
            r->comp_start[++r->n_comp] = no;
        }
    }
}

/* A centroid origin o's bits: those of its links' heads (o is never passed
 * through; a head that is a centroid counts only as a destination). */
static uint64_t od_reach_centroid(const od_reach_ctx *r, const uint64_t *reach, const uint64_t *own, int o)
{
    const ds_network *net = r->net;
    uint64_t m = own[o]; /* o -> o */
    for (int k = net->out_start[o]; k < net->out_start[o + 1]; k++) {
        int x = net->head[net->out_link[k]];
        m |= r->comp[x] >= 0 ? reach[r->comp[x]] : own[x];
    }
    return m;
}

static void od_reach_block(void *ctx, int worker, int b)
{
    od_reach_ctx *r = ctx;
    const ds_network *net = r->net;
    if (r->cancel && __atomic_load_n(r->cancel, __ATOMIC_ACQUIRE)) {
        __atomic_store_n(&r->stopped, 1, __ATOMIC_RELAXED);
        return;
    }
    uint64_t *reach = r->reach + (size_t)worker * (size_t)(r->n_comp > 0 ? r->n_comp : 1);
    uint64_t *own = r->own + (size_t)worker * (size_t)net->n_nodes;
    int d0 = b * OD_REACH_BLOCK, d1 = d0 + OD_REACH_BLOCK;
    if (d1 > net->n_dest) d1 = net->n_dest;
    memset(reach, 0, sizeof(uint64_t) * (size_t)r->n_comp);
    for (int d = d0; d < d1; d++) { /* seeds: the destination's component and those with a link into it */
        int v = net->dest_node[d];
        uint64_t bit = (uint64_t)1 << (d - d0);
        own[v] = bit;
        if (r->comp[v] >= 0) reach[r->comp[v]] |= bit;
        for (int k = net->in_start[v]; k < net->in_start[v + 1]; k++) {
            int u = net->tail[net->in_link[k]];
            if (r->comp[u] >= 0) reach[r->comp[u]] |= bit;
        }
    }
    for (int c = 0; c < r->n_comp; c++) /* the components a link leads to are finished first */
        for (int i = r->comp_start[c]; i < r->comp_start[c + 1]; i++) {
            int v = r->order[i];
            for (int k = net->out_start[v]; k < net->out_start[v + 1]; k++) {
                int x = net->head[net->out_link[k]];
                if (r->comp[x] >= 0) reach[c] |= reach[r->comp[x]];
            }
        }
    for (int d = d0; d < d1; d++)
        for (int k = net->dest_od_start[d]; k < net->dest_od_start[d + 1]; k++) {
            int o = net->od_orig[k];
            uint64_t m = r->comp[o] >= 0 ? reach[r->comp[o]] | own[o] : od_reach_centroid(r, reach, own, o);
            r->no_path[k] = !(m >> (d - d0) & 1);
        }
    for (int d = d0; d < d1; d++) own[net->dest_node[d]] = 0;
}

int ds_od_no_path(const ds_network *net, int threads, volatile int *cancel, unsigned char *no_path)
{
    if (!net || !no_path) return -1;
    int blocks = (net->n_dest + OD_REACH_BLOCK - 1) / OD_REACH_BLOCK, rc = -1;
    if (threads <= 0) threads = ds_ncores();
    if (threads > blocks) threads = blocks;
    if (threads < 1) threads = 1;
    size_t n = (size_t)(net->n_nodes > 0 ? net->n_nodes : 1);
    od_reach_ctx r = {.net = net, .no_path = no_path, .cancel = cancel};
    int *scratch = malloc(5 * n * sizeof(int));
    r.comp = malloc(n * sizeof(int)), r.order = malloc(n * sizeof(int)), r.comp_start = malloc((n + 1) * sizeof(int));
    r.reach = malloc((size_t)threads * n * sizeof(uint64_t)), r.own = calloc((size_t)threads * n, sizeof(uint64_t));
    ds_pool *pool = NULL;
    if (scratch && r.comp && r.order && r.comp_start && r.reach && r.own && (pool = ds_pool_create(threads))) {
        od_reach_tarjan(&r, scratch);
        ds_pool_run(pool, blocks, od_reach_block, &r);
        ds_pool_free(pool);
        rc = __atomic_load_n(&r.stopped, __ATOMIC_RELAXED) ? 1 : 0;
    }
    free(scratch), free(r.comp), free(r.order), free(r.comp_start), free(r.reach), free(r.own);
    return rc;
}
