/* test_sp.c - sp_dijkstra_to against a plain O(n^2) Dijkstra written here:
 * on random networks with ties (zero-cost links, equal costs, parallel
 * links) and centroids, the same distances and hops bit for bit, the same
 * settle order, the same candidate lists when recording, with and without
 * the early stop at the origins. */
#include <math.h>
#include <stdint.h>

#include "dillsue.h"
#include "sp.h"
#include "tcheck.h"

static char net_buf[1 << 18], trips_buf[1 << 16];

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static unsigned rnd(unsigned k)
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return (unsigned)(rng_state >> 11) % k;
}

/* n nodes, the first z zones (centroids where first_thru > 1), m random
 * links with costs from a few values (0 among them, and sums that tie), a
 * trip from every zone to every other. */
static ds_network *random_net(int n, int z, int first_thru, int m)
{
    static const double cost[] = {0, 1, 2, 3, 0.5, 1.5, 0.1, 0.2, 0.30000000000000004};
    int k = snprintf(net_buf, sizeof net_buf,
                     "<NUMBER OF ZONES> %d\n<NUMBER OF NODES> %d\n<FIRST THRU NODE> %d\n<NUMBER OF LINKS> %d\n"
                     "<END OF METADATA>\n~ init term cap len fft b power speed toll type ;\n",
                     z, n, first_thru, m);
    for (int i = 0; i < m; i++) {
        int a = 1 + (int)rnd((unsigned)n), b = 1 + (int)rnd((unsigned)n);
        if (b == a) b = a % n + 1;
        double c = cost[rnd(sizeof cost / sizeof cost[0])];
        k += snprintf(net_buf + k, sizeof net_buf - (size_t)k, "%d %d 100 1 %.17g 0 4 0 0 1 ;\n", a, b, c);
    }
    k = snprintf(trips_buf, sizeof trips_buf, "<NUMBER OF ZONES> %d\n<TOTAL OD FLOW> %d\n<END OF METADATA>\n", z,
                 z * (z - 1));
    for (int o = 1; o <= z; o++) {
        k += snprintf(trips_buf + k, sizeof trips_buf - (size_t)k, "Origin %d\n", o);
        for (int d = 1; d <= z; d++)
            if (d != o) k += snprintf(trips_buf + k, sizeof trips_buf - (size_t)k, "%d : 1;\n", d);
    }
    ds_error err;
    ds_network *net =
        ds_network_parse(net_buf, strlen(net_buf), "sp_net", trips_buf, strlen(trips_buf), "sp_trips", &err);
    if (!net) printf("# parse failed: %s:%ld: %s\n", err.file, err.line, err.msg);
    return net;
}

/* The reference: settle the unsettled node of least (dist, hops, node) each
 * time, by a scan; the centroid rule and the candidate links (u, v) with v
 * settled before u, latest first, as sp.h states them. Returns the settled. */
static int ref_dijkstra(const ds_network *net, const double *t, int dest, const unsigned char *stop, int stop_left,
                        double *dist, int *hops, int *order, int *cf, int *cn)
{
    int n = net->n_nodes, settled = 0;
    unsigned char *done = calloc((size_t)n, 1);
    for (int i = 0; i < n; i++) dist[i] = INFINITY, hops[i] = -1, cf[i] = -1;
    dist[dest] = 0, hops[dest] = 0;
    for (;;) {
        int v = -1;
        for (int i = 0; i < n; i++) {
            if (done[i] || !(dist[i] < INFINITY)) continue;
            if (v < 0 || dist[i] < dist[v] || (dist[i] == dist[v] && hops[i] < hops[v])) v = i;
        }
        if (v < 0) break;
        done[v] = 1;
        order[settled++] = v;
        if (stop && stop[v] && --stop_left == 0) break;
        if (v != dest && dsk_is_centroid(v, net->first_thru)) continue;
        for (int k = net->in_start[v]; k < net->in_start[v + 1]; k++) {
            int e = net->in_link[k], u = net->tail[e];
            if (done[u]) continue;
            cn[e] = cf[u], cf[u] = e;
            double nd = dist[v] + t[e];
            if (nd < dist[u] || (nd == dist[u] && hops[v] + 1 < hops[u])) dist[u] = nd, hops[u] = hops[v] + 1;
        }
    }
    free(done);
    return settled;
}

/* 0 if the search and the reference agree on the settled nodes (all of
 * them when it ran to the end); else a message in why. */
static int compare_one(const ds_network *net, const double *t, int dest, int use_stop, int record, sp_work *w,
                       char *why, size_t nw)
{
    int n = net->n_nodes, m = net->n_links, bad = 0;
    double *d1 = malloc(sizeof(double) * (size_t)n), *d2 = malloc(sizeof(double) * (size_t)n);
    int *h1 = malloc(sizeof(int) * (size_t)n), *h2 = malloc(sizeof(int) * (size_t)n);
    int *o1 = malloc(sizeof(int) * (size_t)n), *o2 = malloc(sizeof(int) * (size_t)n);
    int *cf = malloc(sizeof(int) * (size_t)n), *cn = malloc(sizeof(int) * (size_t)(m + 1));
    unsigned char *stop = calloc((size_t)n, 1);
    int left = 0, di = -1;
    for (int k = 0; k < net->n_dest; k++)
        if (net->dest_node[k] == dest) di = k;
    if (use_stop && di >= 0)
        for (int q = net->dest_od_start[di]; q < net->dest_od_start[di + 1]; q++)
            if (!stop[net->od_orig[q]]) stop[net->od_orig[q]] = 1, left++;
    w->record = record;
    w->stop = left ? stop : NULL;
    w->stop_left = left;
    int R1 = sp_dijkstra_to(net, t, dest, d1, h1, o1, w);
    w->record = 0;
    w->stop = NULL;
    int R2 = ref_dijkstra(net, t, dest, left ? stop : NULL, left, d2, h2, o2, cf, cn);
    if (R1 != R2) snprintf(why, nw, "dest %d: %d settled, reference %d", dest, R1, R2), bad = 1;
    for (int i = 0; !bad && i < R1; i++) {
        int u = o1[i];
        if (u != o2[i])
            snprintf(why, nw, "dest %d: settled #%d is %d, reference %d", dest, i, u, o2[i]), bad = 1;
        else if (memcmp(&d1[u], &d2[u], sizeof(double)) != 0 || h1[u] != h2[u])
            snprintf(why, nw, "dest %d node %d: dist %.17g hops %d, reference %.17g %d", dest, u, d1[u], h1[u], d2[u],
                     h2[u]),
                bad = 1;
        else if (record) {
            int a = w->cand_first[u], b = cf[u];
            for (; a >= 0 && b >= 0 && a == b; a = w->cand_next[a], b = cn[b]) {}
            if (a != b) snprintf(why, nw, "dest %d node %d: candidate lists differ", dest, u), bad = 1;
        }
    }
    if (!bad && !use_stop) /* both ran to the end: every node, the unreached too (+inf, -1) */
        for (int i = 0; !bad && i < n; i++)
            if (memcmp(&d1[i], &d2[i], sizeof(double)) != 0 || h1[i] != h2[i])
                snprintf(why, nw, "dest %d node %d: dist %.17g hops %d, reference %.17g %d", dest, i, d1[i], h1[i],
                         d2[i], h2[i]),
                    bad = 1;
    free(d1), free(d2), free(h1), free(h2), free(o1), free(o2), free(cf), free(cn), free(stop);
    return bad;
}

static void test_random(const char *name, int n, int z, int first_thru, int m, int nets)
{
    tc_begin(name);
    char why[256] = "";
    int bad = 0, cases = 0;
    for (int r = 0; r < nets && !bad; r++) {
        ds_network *net = random_net(n, z, first_thru, m);
        TC_CHECK(net != NULL, "random network did not parse");
        if (!net) return;
        sp_work w;
        TC_CHECK(sp_work_init(&w, net) == 0 && sp_work_candidates(&w, net->n_links) == 0, "out of memory");
        for (int dest = 0; dest < net->n_nodes && !bad; dest++)
            for (int mode = 0; mode < 4 && !bad; mode++, cases++)
                bad = compare_one(net, net->t0, dest, mode & 1, mode >> 1, &w, why, sizeof why);
        sp_work_free(&w);
        ds_network_free(net);
    }
    TC_CHECK(!bad, "%s", why);
    printf("# %s: %d searches compared\n", name, cases);
    tc_end();
}

int main(void)
{
    test_random("sp_random_small_ties", 12, 4, 1, 30, 200);
    test_random("sp_random_centroids", 40, 8, 9, 120, 40);
    test_random("sp_random_dense_ties", 60, 10, 1, 400, 10);
    test_random("sp_random_sparse", 200, 20, 5, 500, 3);
    return tc_exit();
}
