/* sp.c - shortest paths to a destination with the centroid rule. */
#include <math.h>
#include <stdlib.h>

#include "sp.h"

int ds_node_is_centroid(const ds_network *net, int node) { return dsk_is_centroid(node, net->first_thru); }

int sp_work_init(sp_work *w, int n)
{
    w->n = n;
    w->heap = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    w->pos = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    return (w->heap && w->pos) ? 0 : -1;
}

void sp_work_free(sp_work *w)
{
    free(w->heap);
    free(w->pos);
    w->heap = w->pos = NULL;
}

/* Ties in distance are broken by hop count, then node id, so that the settle
 * order is a strict total order: the DSP filter relies on it being a
 * topological order even with zero-cost links. */
static inline int key_less(const double *dist, const int *hops, int a, int b)
{
    if (dist[a] != dist[b]) return dist[a] < dist[b];
    if (hops[a] != hops[b]) return hops[a] < hops[b];
    return a < b;
}

static void heap_up(int *heap, int *pos, const double *dist, const int *hops, int i)
{
    int x = heap[i];
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!key_less(dist, hops, x, heap[p])) break;
        heap[i] = heap[p];
        pos[heap[i]] = i;
        i = p;
    }
    heap[i] = x;
    pos[x] = i;
}

static void heap_down(int *heap, int *pos, const double *dist, const int *hops, int n, int i)
{
    int x = heap[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && key_less(dist, hops, heap[c + 1], heap[c])) c++;
        if (!key_less(dist, hops, heap[c], x)) break;
        heap[i] = heap[c];
        pos[heap[i]] = i;
        i = c;
    }
    heap[i] = x;
    pos[x] = i;
}

int sp_dijkstra_to(const ds_network *net, const double *t, int dest, double *dist, int *hops_out, int *order,
                   sp_work *w)
{
    int n = net->n_nodes, nh = 0, settled = 0;
    int *heap = w->heap, *pos = w->pos;
    int *hops = hops_out ? hops_out : heap + 0; /* replaced below if NULL */
    int *own = NULL;
    if (!hops_out) {
        own = malloc(sizeof(int) * (size_t)n);
        hops = own;
    }
    for (int i = 0; i < n; i++) {
        dist[i] = INFINITY;
        hops[i] = -1;
        pos[i] = -1;
    }
    dist[dest] = 0;
    hops[dest] = 0;
    heap[nh++] = dest;
    pos[dest] = 0;
    while (nh > 0) {
        int v = heap[0];
        pos[v] = -2; /* settled */
        heap[0] = heap[--nh];
        if (nh > 0) {
            pos[heap[0]] = 0;
            heap_down(heap, pos, dist, hops, nh, 0);
        }
        if (order) order[settled] = v;
        settled++;
        if (!dsk_node_passable(v, dest, net->first_thru)) continue; /* no passing through */
        for (int k = net->in_start[v]; k < net->in_start[v + 1]; k++) {
            int e = net->in_link[k], u = net->tail[e];
            if (u == dest || pos[u] == -2) continue;
            double nd = dist[v] + t[e];
            int nhps = hops[v] + 1;
            if (nd < dist[u] || (nd == dist[u] && nhps < hops[u])) {
                dist[u] = nd;
                hops[u] = nhps;
                if (pos[u] == -1) {
                    heap[nh] = u;
                    pos[u] = nh;
                    nh++;
                }
                heap_up(heap, pos, dist, hops, pos[u]);
            }
        }
    }
    free(own);
    return settled;
}

int sp_bfs_to(const ds_network *net, int dest, int *hops, int *order, int *queue)
{
    int n = net->n_nodes, qh = 0, qt = 0;
    for (int i = 0; i < n; i++) hops[i] = -1;
    hops[dest] = 0;
    queue[qt++] = dest;
    while (qh < qt) {
        int v = queue[qh++];
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
    if (sp_work_init(&w, net->n_nodes) != 0) return;
    sp_dijkstra_to(net, t, dest, dist, hops, order, &w);
    sp_work_free(&w);
}
