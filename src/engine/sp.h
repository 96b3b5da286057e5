/* sp.h - shortest paths to a destination (engine-internal). */
#ifndef DS_SP_H
#define DS_SP_H
#include "dillsue.h"
#include "kernels.h"

/* A queued node with its key (see key_less in sp.c). */
typedef struct sp_heap_item {
    double dist;
    int node, hops; /* (this order: see key_less in sp.c) */
} sp_heap_item;

/* An in-link of a node: its tail and its id, side by side (the search's
 * inner loop reads both; one load instead of two dependent ones). */
typedef struct sp_in_link {
    int tail, link;
} sp_in_link;

/* Reusable search workspace for one thread and one network. */
typedef struct sp_work {
    int n;
    sp_heap_item *item;  /* [m+1] the queue's items (a radix heap, see sp.c) */
    int *next;           /* [m+1] its bucket lists */
    unsigned char *done; /* [n] settled */
    sp_in_link *adj;     /* [m] the network's in-links in in_link order, with their tails */
    /* with sp_work_candidates: for each node u, the links (u, v) into nodes v
     * settled before u (the only links a DAG in settle order can hold), as
     * a list cand_first[u] -> cand_next[e] -> ..., -1 ending it, latest first */
    int *cand_first, *cand_next; /* [n], [m] */
    int record;                  /* record them in the next searches (set by the caller) */
    /* where set (by the caller, for one search): stop once the stop_left
     * nodes marked in stop are settled; nodes settled later have keys above
     * all of them (see sp_dijkstra_to) */
    const unsigned char *stop;
    int stop_left;
} sp_work;

/* For searches on net (its links and adjacency as they are now); 0 or -1. */
int sp_work_init(sp_work *w, const ds_network *net);
void sp_work_free(sp_work *w);
/* Room for the candidate lists (m links); 0 or -1. A search fills them
 * where w->record is set. */
int sp_work_candidates(sp_work *w, int m);

/* Reverse Dijkstra from dest with lexicographic key (dist, hops): a route never
 * passes through a centroid other than dest. Fills dist (+INF unreachable),
 * hops (-1 unreachable; may be NULL) and order (settled nodes, dest first, in
 * increasing key; may be NULL). Returns the number of settled nodes. With
 * w->stop, a node not settled when the search stops may hold a tentative
 * distance and hops: only the settled ones (order) are final. */
int sp_dijkstra_to(const ds_network *net, const double *t, int dest, double *dist, int *hops, int *order, sp_work *w);

/* Reverse BFS by link count with the same centroid rule; order = BFS order.
 * With stop (NULL: none), it ends once the stop_left nodes marked there are
 * dequeued and returns the nodes dequeued (the others queued keep their hops,
 * none below a returned node's). */
int sp_bfs_to(const ds_network *net, int dest, int *hops, int *order, int *queue, const unsigned char *stop,
              int stop_left);

/* A link (u,v) may be used on the way to dest: u is not dest and v may be
 * entered (v is dest or not a centroid); the rule is dsk_link_usable. */
static inline int sp_link_usable(const ds_network *net, int e, int dest)
{
    return dsk_link_usable(net->tail[e], net->head[e], dest, net->first_thru);
}
#endif
