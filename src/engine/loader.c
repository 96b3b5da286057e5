/* loader.c - the recursive-logit loading map f(x) on the CPU, all destinations
 * batched (DESIGN.md 1).
 *
 * Work is split into fixed blocks of destinations whose size depends only on
 * the network, never on the thread count; each block accumulates its link
 * flows into its own buffer in destination order, and the blocks are summed in
 * block order. So 1 thread and N threads give bitwise-equal flows.
 *
 * Full graph: per destination, Dijkstra at the current costs gives D(n); the
 * exponentiated values z = exp(V + mu D) >= 1 satisfy the linear recursion
 * z(u) = sum_e w~_e z(v) with w~_e = exp(-mu (t_e + D(v) - D(u))) in (0,1],
 * solved by Gauss-Seidel passes in increasing-D order, warm-started from the
 * previous values: one exp per link and destination, none per pass.
 * Filtered graphs (dsp, bfs, edsp): one log-domain pass in topological order.
 * Absorption pushes unabsorbed demand downstream in decreasing-key order; on a
 * DAG one sweep is exact, on the full graph sweeps repeat until the mass still
 * in transit is below inner_tol of the destination's demand.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "clock.h"
#include "loader_int.h"
#include "sp.h"

/* ------------------------------------------------------------ DAG masks */

static void dag_free(ld_dag *g)
{
    free(g->node);
    free(g->lstart);
    free(g->link);
    free(g->hpos);
    free(g->opos);
    memset(g, 0, sizeof *g);
}

/* Keep only the nodes a route from an origin reaches (the destination, the
 * origins, and the heads of every kept node's links, found farthest first)
 * and their links, in the same order: nodes nearer the destination than its
 * farthest origin but off every route (side streets no origin's route goes
 * down, the far side of the destination) carry no flow, and nothing a kept
 * node computes reads them (its links' heads are kept), so the flows keep
 * their bits. Compacts g (n, node, lstart, n_links, n_multi), heads[] and
 * links[] in place and leaves pos[] the kept nodes' new positions; live[]
 * (at least R bytes, zero) is left zero. */
static void dag_keep_routes(const ds_network *net, int di, ld_dag *g, const int *hops, int *pos, int *heads, int *links,
                            unsigned char *live)
{
    int R = g->n, nr = 0, nc = 0;
    live[0] = 1;
    for (int q = net->dest_od_start[di]; q < net->dest_od_start[di + 1]; q++)
        if (hops[net->od_orig[q]] >= 0) live[pos[net->od_orig[q]]] = 1;
    for (int i = R - 1; i >= 1; i--)
        if (live[i])
            for (int k = g->lstart[i]; k < g->lstart[i + 1]; k++) live[pos[heads[k]]] = 1;
    g->n_multi = 0;
    for (int i = 0; i < R; i++) {
        int a = g->lstart[i], b = g->lstart[i + 1]; /* (read before nr <= i overwrites) */
        if (!live[i]) continue;
        live[i] = 0;
        g->node[nr] = g->node[i];
        pos[g->node[nr]] = nr; /* heads come first: theirs are new already */
        g->lstart[nr] = nc;
        for (int k = a; k < b; k++) heads[nc] = heads[k], links[nc++] = links[k];
        if (b - a > 1) g->n_multi += b - a;
        nr++;
    }
    g->lstart[nr] = nc;
    g->n = nr;
    g->n_links = nc;
    int *p = realloc(g->node, sizeof(int) * (size_t)nr), *l = realloc(g->lstart, sizeof(int) * (size_t)(nr + 1));
    if (p) g->node = p; /* (a failed shrink keeps the larger block) */
    if (l) g->lstart = l;
}

/* Per-destination DAG of usable links (u,v) going strictly down the search's
 * key: distance (dsp at free-flow costs, edsp at current costs), with ties in
 * distance broken by hops only along zero-cost shortest-path links; hop count
 * for bfs. The settle order of the search (increasing (dist, hops)) is a
 * topological order of the DAG. */
static int dag_build_one(ds_loader *ld, int di, const double *t, ld_scratch *s, ld_dag *g)
{
    const ds_network *net = ld->net;
    int d = net->dest_node[di], R, cnt = 0, q0 = net->dest_od_start[di], q1 = net->dest_od_start[di + 1];
    /* The search stops once it has settled every origin of the destination:
     * a route only goes down the key (distance, then hops; hops for bfs), so
     * no node settled later is on one, and the DAG holds only nodes whose
     * key is at most an origin's (their flows, values and derivatives were
     * never read). The relax mask (dag_whole) keeps every reached node. */
    int n_stop = 0;
    if (!ld->dag_whole)
        for (int q = q0; q < q1; q++)
            if (!s->stop[net->od_orig[q]]) s->stop[net->od_orig[q]] = 1, n_stop++;
    if (ld->filter == DS_FILTER_BFS) {
        R = sp_bfs_to(net, d, s->hops, s->order, s->order, n_stop ? s->stop : NULL, n_stop);
        for (int i = 0; i < net->n_nodes; i++) s->dist[i] = s->hops[i] < 0 ? INFINITY : 0;
    } else {
        /* the search lists each node's links into nodes settled before it */
        if (sp_work_candidates(&s->sp, net->n_links) != 0) return -1;
        s->sp.record = 1;
        s->sp.stop = n_stop ? s->stop : NULL;
        s->sp.stop_left = n_stop;
        R = sp_dijkstra_to(net, t, d, s->dist, s->hops, s->order, &s->sp);
        s->sp.record = 0;
        s->sp.stop = NULL;
    }
    for (int q = q0; q < q1; q++) s->stop[net->od_orig[q]] = 0;
    g->n = R;
    g->node = malloc(sizeof(int) * (size_t)R);
    g->lstart = malloc(sizeof(int) * (size_t)(R + 1));
    if (!g->node || !g->lstart) return -1;
    const double *dist = s->dist;
    const int *hops = s->hops, bfs = ld->filter == DS_FILTER_BFS, ft = net->first_thru;
    int *head_tmp = s->vi, *cb = s->lk; /* (the full graph's scratch: a DAG's heads, a node's links) */
    const int *cf = s->sp.cand_first, *cn = s->sp.cand_next;
    g->n_multi = 0;
    for (int i = 0; i < R; i++) {
        int u = s->order[i];
        g->node[i] = u;
        g->lstart[i] = cnt;
        if (u == d) continue;
        /* the tie tolerance LD_TIE_REL max(1, |dFF(u)|), once a node (dist(u) is finite) */
        double du = dist[u], au = fabs(du), eps = LD_TIE_REL * (au > 1.0 ? au : 1.0);
        int hu = hops[u], nc = 0;
        /* the links to test, in out-link order (increasing id): all of them
         * for bfs, the search's candidates (into nodes settled before u;
         * no other can pass the tests below) for the distance filters */
        if (bfs)
            for (int k = net->out_start[u]; k < net->out_start[u + 1]; k++) cb[nc++] = net->out_link[k];
        else
            for (int e = cf[u]; e >= 0; e = cn[e]) {
                int c = nc++;
                for (; c > 0 && cb[c - 1] > e; c--) cb[c] = cb[c - 1];
                cb[c] = e;
            }
        for (int c = 0; c < nc; c++) {
            int e = cb[c], v = net->head[e];
            if (!dsk_link_usable(u, v, d, ft)) continue;
            int keep;
            if (bfs)
                keep = hops[v] >= 0 && hops[v] < hu; /* (-1: not reached) */
            else {
                /* The paper's dFF(v) < dFF(u), with distances within LD_TIE_REL of
                 * each other counted as equal: which of two decimal-equal path sums
                 * is smaller in doubles depends on the summation order, and the mask
                 * must not. A tie is kept only for a zero-cost link (cost within the
                 * tolerance) going down in hops, which keeps origins connected across
                 * zero-cost links, and only if v was settled before u (the search
                 * settles in increasing (dist, hops, node), so with fewer hops that
                 * is dist(v) <= dist(u)), which keeps the mask acyclic. A node not
                 * reached (dist +inf) passes neither test. */
                if (dist[v] < du - eps)
                    keep = 1;
                else
                    keep = fabs(dist[v] - du) <= eps && t[e] <= eps && hops[v] < hu && dist[v] <= du;
            }
            if (keep) head_tmp[cnt] = v, s->link_tmp[cnt++] = e;
        }
        if (cnt - g->lstart[i] > 1) g->n_multi += cnt - g->lstart[i];
    }
    g->lstart[R] = cnt;
    g->n_links = cnt;
    if (t == ld->tff && ld->filter != DS_FILTER_BFS) {
        /* the same free-flow tree gives the OD costs behind cbar (no second Dijkstra) */
        for (int k = net->dest_od_start[di]; k < net->dest_od_start[di + 1]; k++)
            ld->od_ffcost[k] = s->dist[net->od_orig[k]];
    }
    /* heads and origins as positions in the node order: the passes then
     * read and write their own node's entries in sequence */
    int nq = q1 - q0, *pos = s->rank;
    for (int i = 0; i < R; i++) pos[g->node[i]] = i; /* (read only for nodes the search reached) */
    if (!ld->dag_whole) dag_keep_routes(net, di, g, hops, pos, head_tmp, s->link_tmp, s->stop);
    cnt = g->n_links;
    g->link = malloc(sizeof(int) * (size_t)(cnt > 0 ? cnt : 1));
    g->hpos = malloc(sizeof(int) * (size_t)(cnt > 0 ? cnt : 1));
    g->opos = malloc(sizeof(int) * (size_t)(nq > 0 ? nq : 1));
    if (!g->link || !g->hpos || !g->opos) return -1;
    memcpy(g->link, s->link_tmp, sizeof(int) * (size_t)cnt);
    for (int k = 0; k < cnt; k++) g->hpos[k] = pos[head_tmp[k]];
    for (int q = 0; q < nq; q++) {
        int o = net->od_orig[q0 + q];
        g->opos[q] = hops[o] >= 0 ? pos[o] : -1;
    }
    return 0;
}

/* fn over the destinations, all at once, or (while a progress function
 * watches the set-up) in about ten groups of at least 64 with a report after
 * each: the same calls, each destination's work its own, so the same result.
 * With a cancel flag (ld_create_cancellable) every destination looks at it
 * first and, once it is set, the rest are skipped (a large network's group
 * takes seconds). Returns -1 if the progress function or the flag stopped it. */
struct dest_chunk {
    ds_loader *ld;
    ds_pool_fn fn;
    void *ctx;
    int first;
};

static void dest_chunk_fn(void *ctx, int worker, int i)
{
    struct dest_chunk *c = ctx;
    if (ld_cancelled(c->ld)) return;
    c->fn(c->ctx, worker, c->first + i);
}

static int run_dests(ds_loader *ld, const char *what, ds_pool_fn fn, void *ctx)
{
    int nd = ld->n_dest, step = (nd + 9) / 10;
    if (!ld->progress) {
        struct dest_chunk c = {ld, fn, ctx, 0};
        ds_pool_run(ld->pool, nd, dest_chunk_fn, &c);
        if (ld_cancelled(ld)) {
            ld->stopped = 1;
            return -1;
        }
        return 0;
    }
    if (step < 64) step = 64;
    for (int d0 = 0; d0 < nd; d0 += step) {
        struct dest_chunk c = {ld, fn, ctx, d0};
        int k = nd - d0 < step ? nd - d0 : step;
        ds_pool_run(ld->pool, k, dest_chunk_fn, &c);
        if (ld->progress(ld->progress_ctx, what, d0 + k, nd) || ld_cancelled(ld)) {
            ld->stopped = 1;
            return -1;
        }
    }
    return 0;
}

struct dag_job {
    ds_loader *ld;
    const double *t;
    ld_dag *out;
    int failed;
};

static void dag_job_fn(void *ctx, int worker, int di)
{
    struct dag_job *j = ctx;
    if (dag_build_one(j->ld, di, j->t, &j->ld->scr[worker], &j->out[di]) != 0) j->failed = 1;
}

int ld_dag_rebuild(ds_loader *ld, const double *t, ld_dag *out)
{
    struct dag_job j = {ld, t, out, 0};
    if (run_dests(ld, "filter DAGs", dag_job_fn, &j) != 0) return -1;
    return j.failed ? -1 : 0;
}

void ld_dags_free(ds_loader *ld, ld_dag *dags)
{
    if (!dags) return;
    for (int i = 0; i < ld->n_dest; i++) dag_free(&dags[i]);
    free(dags);
}

/* ---------------------------------------------------------- per destination */

const double *ld_dest_costs(ds_loader *ld, int di, ld_scratch *s, const double *t)
{
    if (!(ld->relax_lambda < 1) || !ld->relax_dag) return t;
    const unsigned char *bits = ld->relax_dag + (size_t)di * ld->relax_stride;
    double pen = dsk_relax_pen(ld->relax_lambda, ld->mu);
    for (int e = 0; e < ld->net->n_links; e++) s->trelax[e] = dsk_relax_cost(t[e], (bits[e >> 3] >> (e & 7)) & 1, pen);
    return s->trelax;
}

int ds_loader_set_relax(ds_loader *ld, double lambda)
{
    const ds_network *net = ld->net;
    if (ld->filter != DS_FILTER_FULL || !(lambda > 0) || !(lambda <= 1)) return -1;
    if (lambda < 1 && !ld->relax_dag) {
        /* the DSP DAGs at free-flow costs, as the dsp variant builds them */
        ld_dag *dags = calloc((size_t)ld->n_dest, sizeof(ld_dag));
        int rc = -1;
        ld->relax_stride = ((size_t)net->n_links + 7) / 8;
        ld->relax_dag = calloc((size_t)ld->n_dest * ld->relax_stride + 1, 1);
        for (int w = 0; w < ds_pool_threads(ld->pool); w++) {
            ld_scratch *s = &ld->scr[w];
            if (!s->trelax) s->trelax = malloc(sizeof(double) * (size_t)(net->n_links + 1));
            if (!s->trelax) dags = (free(dags), NULL);
        }
        if (dags && ld->relax_dag) {
            ld->filter = DS_FILTER_DSP;
            ld->dag_whole = 1;
            rc = ld_dag_rebuild(ld, ld->tff, dags);
            ld->dag_whole = 0;
            ld->filter = DS_FILTER_FULL;
        }
        for (int di = 0; rc == 0 && di < ld->n_dest; di++) {
            unsigned char *bits = ld->relax_dag + (size_t)di * ld->relax_stride;
            for (int k = 0; k < dags[di].n_links; k++)
                bits[dags[di].link[k] >> 3] |= (unsigned char)(1u << (dags[di].link[k] & 7));
        }
        if (dags) ld_dags_free(ld, dags);
        if (rc != 0) {
            free(ld->relax_dag);
            ld->relax_dag = NULL;
            return -1;
        }
    }
    if (lambda != ld->relax_lambda) {
        ld->relax_lambda = lambda;
        ld->kept_valid = 0;
        if (ld->v_valid) memset(ld->v_valid, 0, (size_t)ld->n_dest);
    }
    return 0;
}

/* a[list[i]] = 0 for the R nodes of list (of n): one sequential memset of the
 * whole array where the list covers most of it, cheaper than R scattered
 * stores; absorb reads no node outside its list. */
static void zero_nodes(double *a, int n, int R, const int *list)
{
    if (2 * R >= n)
        memset(a, 0, sizeof(double) * (size_t)n);
    else
        for (int i = 0; i < R; i++) a[list[i]] = 0;
}

/* Push the destination's demand downstream. list[0..R-1] is the processing
 * order (increasing key), links of list[i] are lk[ls[i]..ls[i+1]) with
 * probabilities P[k] and heads hd[k]. Returns the passes used. */
static int absorb(ds_loader *ld, int di, int R, const int *list, const int *ls, const int *lk, const int *hd,
                  const double *P, double *r, double *phi, double *flow, double *resid_out, int max_pass)
{
    const ds_network *net = ld->net;
    double qtot = 0, left = 0;
    int pass = 0;
    zero_nodes(r, net->n_nodes, R, list);
    zero_nodes(phi, net->n_nodes, R, list);
    for (int k = net->dest_od_start[di]; k < net->dest_od_start[di + 1]; k++) {
        int o = net->od_orig[k];
        if (!(ld->reach_ok[k])) continue;
        r[o] += net->od_demand[k];
        qtot += net->od_demand[k];
    }
    do {
        pass++;
        for (int i = R - 1; i >= 1; i--) {
            int u = list[i];
            double m = r[u];
            if (m == 0) continue;
            r[u] = 0;
            phi[u] += m;
            for (int k = ls[i]; k < ls[i + 1]; k++) {
                double y = P[k] * m;
                r[hd[k]] += y;
                flow[lk[k]] += y;
            }
        }
        left = 0;
        for (int i = 1; i < R; i++) left += r[list[i]];
    } while (left > ld->inner_tol * qtot && pass < max_pass);
    *resid_out = qtot > 0 ? left / qtot : 0;
    ld->st_loaded[di] = qtot;
    ld->st_arrived[di] = r[list[0]]; /* the destination is list[0] and is never pushed on */
    return pass;
}

/* The same on a DAG, where one pass is exact: farthest first, every node has
 * received all it will before it is pushed on and is left at 0, so nothing is
 * left over (no residual pass) and, as J v rebuilds phi itself, no phi. r is
 * indexed by position in the DAG's node order (see ld_dag). */
static void absorb_dag(ds_loader *ld, int di, const ld_dag *g, const double *P, double *r, double *flow)
{
    const ds_network *net = ld->net;
    const int *ls = g->lstart, *lk = g->link, *hp = g->hpos;
    int q0 = net->dest_od_start[di];
    double qtot = 0;
    memset(r, 0, sizeof(double) * (size_t)g->n);
    for (int k = q0; k < net->dest_od_start[di + 1]; k++) {
        if (!(ld->reach_ok[k])) continue;
        r[g->opos[k - q0]] += net->od_demand[k];
        qtot += net->od_demand[k];
    }
    ld->st_loaded[di] = qtot;
    for (int i = g->n - 1; i >= 1; i--) {
        double m = r[i];
        if (m == 0) continue;
        r[i] = 0;
        for (int k = ls[i]; k < ls[i + 1]; k++) {
            double y = P[k] * m;
            r[hp[k]] += y;
            flow[lk[k]] += y;
        }
    }
    ld->st_apass[di] = 1;
    ld->st_ares[di] = 0;
    ld->st_arrived[di] = r[0];
}

/* Filtered variants: one exact log-domain pass on the destination's DAG. With
 * Newton's keep, the probabilities of multi-link nodes go to the kept state as
 * they are computed (a node's only link has P = 1, see ld_keep). */
static void eval_dag(ds_loader *ld, int di, ld_scratch *s, double *flow)
{
    const ld_dag *g = &ld->dag[di];
    const double *t = ld->t;
    const int *hp = g->hpos;
    double *V = s->z, mu = ld->mu, *P = s->w, *Pk = NULL; /* V by position */
    double t0 = ds_clock_now(), t1;
    int q = 0, compact = ld->keep && !ld->keep_all_p;
    if (compact && !(Pk = ld_keep_dag_buffer(ld, di, g->n_multi))) ld->keep_failed = 1, compact = 0;
    V[0] = 0;
    for (int i = 1; i < g->n; i++) {
        int a = g->lstart[i], b = g->lstart[i + 1], n = b - a;
        double sum;
        for (int k = a; k < b; k++) s->a[k - a] = dsk_bellman_term(mu, t[g->link[k]], V[hp[k]]);
        if (n == 1 && isfinite(s->a[0])) {
            V[i] = dsk_logsumexp1(s->a[0], &P[a]); /* no normalization: P = 1 */
            continue;
        }
        V[i] = dsk_logsumexp(s->a, n, P + a, &sum);
        for (int k = a; k < b; k++) P[k] = dsk_prob_norm(P[k], sum);
        if (!compact) continue;
        if (n > 1)
            for (int k = a; k < b; k++) Pk[q++] = P[k];
        else if (n == 1 && P[a] != 1)
            compact = 0; /* kept whole below */
    }
    t1 = ds_clock_now();
    s->t_bellman += t1 - t0;
    ld->st_bpass[di] = 1;
    ld->st_bres[di] = 0;
    ld->st_diverged[di] = 0;
    absorb_dag(ld, di, g, P, s->r, flow);
    if (compact)
        ld_keep_dag_done(ld, di, g->n, q);
    else if (ld->keep && ld_keep_store(ld, di, g->n, g->node, g->lstart, g->link, hp, P, s->phi) != 0)
        ld->keep_failed = 1;
    s->t_absorb += ds_clock_now() - t1;
}

/* Full graph: exponentiated Gauss-Seidel passes at the current costs. */
static void eval_full(ds_loader *ld, int di, ld_scratch *s, double *flow)
{
    const ds_network *net = ld->net;
    const double *t = ld_dest_costs(ld, di, s, ld->t);
    double mu = ld->mu, *D = s->dist, *z = s->z, *w = s->w;
    double *Vw = ld->V + (size_t)di * (size_t)net->n_nodes;
    int d = net->dest_node[di], cnt = 0, R, pass = 0, diverged = 0, warm = ld->v_valid[di];
    double delta = INFINITY, prev = INFINITY, t0 = ds_clock_now(), t1;

    R = sp_dijkstra_to(net, t, d, D, s->hops, s->order, &s->sp);
    s->ls[0] = 0;
    for (int i = 1; i < R; i++) {
        int u = s->order[i];
        s->ls[i] = cnt;
        for (int k = net->out_start[u]; k < net->out_start[u + 1]; k++) {
            int e = net->out_link[k], v = net->head[e];
            if (!(D[v] < INFINITY) || !sp_link_usable(net, e, d)) continue;
            w[cnt] = dsk_reduced_weight(mu, t[e], D[v], D[u]);
            s->vi[cnt] = v;
            s->lk[cnt] = e;
            cnt++;
        }
    }
    s->ls[R] = cnt;
    /* warm start: z = exp(V_prev + mu D), at least 1 (the shortest path alone) */
    z[d] = 1;
    for (int i = 1; i < R; i++) {
        int u = s->order[i];
        z[u] = dsk_z_start(warm ? Vw[u] : -INFINITY, mu, D[u]);
    }
    while (pass < ld->inner_max) {
        pass++;
        prev = delta;
        delta = 0;
        for (int i = 1; i < R; i++) {
            int u = s->order[i];
            double acc = 0;
            for (int k = s->ls[i]; k < s->ls[i + 1]; k++) acc += w[k] * z[s->vi[k]];
            double rc = dsk_rel_change(acc, z[u]);
            if (rc > delta) delta = rc;
            z[u] = acc;
        }
        if (!(delta < 1e300) || !(z[s->order[R - 1]] < 1e290)) {
            diverged = 1;
            break;
        }
        if (delta <= ld->inner_tol) break;
    }
    /* Not converged within the cap: if the passes no longer contract, the
     * spectral radius of the weight matrix is >= 1 and there is no fixed point;
     * if they still contract but are far from converged, f(x) would be wrong by
     * about max |dV|, so it is not trusted either (reported as unconverged). */
    ld->st_ratio[di] = prev > 0 && isfinite(prev) ? delta / prev : 0;
    if (!diverged && delta > ld->inner_tol && pass >= 3 && delta >= prev * (1 - 1e-12) && delta > 1e-9)
        diverged = 1;
    else if (!diverged && delta > LD_TRUST_TOL)
        diverged = 2;
    ld->st_bpass[di] = pass;
    ld->st_bres[di] = delta;
    ld->st_diverged[di] = diverged;
    if (diverged) {
        s->t_bellman += ds_clock_now() - t0;
        return;
    }
    for (int i = 0; i < R; i++) {
        int u = s->order[i];
        Vw[u] = dsk_v_from_z(z[u], mu, D[u]);
    }
    ld->v_valid[di] = 1;
    for (int i = 1; i < R; i++) {
        int u = s->order[i];
        for (int k = s->ls[i]; k < s->ls[i + 1]; k++) w[k] = dsk_choice_prob(w[k], z[s->vi[k]], z[u]);
    }
    t1 = ds_clock_now();
    s->t_bellman += t1 - t0;
    ld->st_apass[di] =
        absorb(ld, di, R, s->order, s->ls, s->lk, s->vi, w, s->r, s->phi, flow, &ld->st_ares[di], ld->absorb_max);
    /* demand still in transit after the sweep budget: f would miss it */
    if (ld->st_ares[di] > LD_TRUST_TOL) ld->st_diverged[di] = 2;
    if (ld->keep && ld_keep_store(ld, di, R, s->order, s->ls, s->lk, s->vi, w, s->phi) != 0) ld->keep_failed = 1;
    s->t_absorb += ds_clock_now() - t1;
}

struct eval_job {
    ds_loader *ld;
};

static void eval_block_fn(void *ctx, int worker, int b)
{
    struct eval_job *j = ctx;
    ds_loader *ld = j->ld;
    ld_scratch *s = &ld->scr[worker];
    double *flow = ld->partial + (size_t)b * (size_t)ld->net->n_links;
    int d0 = b * ld->blk, d1 = d0 + ld->blk;
    if (d1 > ld->n_dest) d1 = ld->n_dest;
    ld_block_clear(ld, b, flow);
    for (int di = d0; di < d1 && !ld_cancelled(ld); di++) {
        if (ld->dag)
            eval_dag(ld, di, s, flow);
        else if (ld->direct)
            ld_direct_eval(ld, di, worker, flow);
        else
            eval_full(ld, di, s, flow);
    }
}

struct reduce_job {
    ds_loader *ld;
    double *f;
};

static void reduce_fn(void *ctx, int worker, int c)
{
    struct reduce_job *j = ctx;
    ds_loader *ld = j->ld;
    int m = ld->net->n_links, e0 = c * LD_REDUCE_CHUNK, e1 = e0 + LD_REDUCE_CHUNK;
    (void)worker;
    if (e1 > m) e1 = m;
    if (ld->lnk_start) {
        /* the blocks holding the link, in block order: the others hold +0,
         * and a sum that starts at +0 never becomes -0, so adding their +0
         * would not change a bit */
        for (int e = e0; e < e1; e++) {
            double acc = 0;
            for (int k = ld->lnk_start[e]; k < ld->lnk_start[e + 1]; k++)
                acc += ld->partial[(size_t)ld->lnk_blk[k] * (size_t)m + (size_t)e];
            j->f[e] = acc;
        }
        return;
    }
    for (int e = e0; e < e1; e++) {
        double acc = 0;
        for (int b = 0; b < ld->n_blocks; b++) acc += ld->partial[(size_t)b * (size_t)m + (size_t)e];
        j->f[e] = acc;
    }
}

void ld_block_clear(ds_loader *ld, int b, double *buf)
{
    if (!ld->blk_start) {
        memset(buf, 0, sizeof(double) * (size_t)ld->net->n_links);
        return;
    }
    for (int k = ld->blk_start[b]; k < ld->blk_start[b + 1]; k++) buf[ld->blk_link[k]] = 0;
}

/* A DAG filter's block touches only its destinations' DAG links (Berlin-Center
 * dsp: 7.8 % of the links a block, Austin-SDB 36 %), so clearing and summing
 * every link of every block buffer was most of their 9 % of the run. */
int ld_touch_index(ds_loader *ld)
{
    int m = ld->net->n_links, nb = ld->n_blocks, cnt = 0;
    free(ld->blk_start), free(ld->blk_link), free(ld->lnk_start), free(ld->lnk_blk);
    ld->blk_start = ld->blk_link = ld->lnk_start = ld->lnk_blk = NULL;
    memset(ld->partial, 0, sizeof(double) * (size_t)nb * (size_t)m);
    if (!ld->dag) return 0;
    int *mark = malloc(sizeof(int) * (size_t)(m + 1)), *bs = calloc((size_t)nb + 2, sizeof(int));
    int *ls = calloc((size_t)m + 2, sizeof(int)), *bl = NULL, *lb = NULL;
    if (!mark || !bs || !ls) goto oom;
    for (int e = 0; e < m; e++) mark[e] = -1;
    /* count (block, link) pairs, then list each link's blocks in block order */
    for (int pass = 0; pass < 2; pass++)
        for (int b = 0; b < nb; b++) {
            int d1 = (b + 1) * ld->blk < ld->n_dest ? (b + 1) * ld->blk : ld->n_dest;
            for (int di = b * ld->blk; di < d1; di++)
                for (int k = 0; k < ld->dag[di].n_links; k++) {
                    int e = ld->dag[di].link[k];
                    if (mark[e] == b + pass * nb) continue;
                    mark[e] = b + pass * nb;
                    if (pass == 0)
                        ls[e + 1]++, bs[b + 1]++, cnt++;
                    else
                        lb[ls[e]++] = b;
                }
            if (pass == 0 && b == nb - 1) {
                for (int e = 0; e < m; e++) ls[e + 1] += ls[e];
                for (int i = 0; i < nb; i++) bs[i + 1] += bs[i];
                bl = malloc(sizeof(int) * (size_t)(cnt + 1));
                lb = malloc(sizeof(int) * (size_t)(cnt + 1));
                if (!bl || !lb) goto oom;
            }
        }
    for (int e = m; e > 0; e--) ls[e] = ls[e - 1]; /* (the fill left ls[e] at e's end) */
    ls[0] = 0;
    /* each block's links, ascending: walk the links in order */
    for (int b = 0; b < nb; b++) mark[b] = bs[b];
    for (int e = 0; e < m; e++)
        for (int k = ls[e]; k < ls[e + 1]; k++) bl[mark[lb[k]]++] = e;
    free(mark);
    ld->blk_start = bs, ld->blk_link = bl, ld->lnk_start = ls, ld->lnk_blk = lb;
    return 0;
oom:
    free(mark), free(bs), free(ls), free(bl), free(lb);
    return -1;
}

/* f = sum of the block buffers, in block order, links in parallel. */
void ld_reduce(ds_loader *ld, double *f)
{
    struct reduce_job r = {ld, f};
    int m = ld->net->n_links;
    ds_pool_run(ld->pool, (m + LD_REDUCE_CHUNK - 1) / LD_REDUCE_CHUNK, reduce_fn, &r);
}

int ld_eval_costs(ds_loader *ld, const double *t, double *f)
{
    struct eval_job j = {ld};
    double t0 = ds_clock_now(), tb = 0, ta = 0, wall;
    int m = ld->net->n_links;
    ld->t = t;
    if (ld->direct) ld_direct_prepare(ld);
    for (int w = 0; w < ds_pool_threads(ld->pool); w++) ld->scr[w].t_bellman = ld->scr[w].t_absorb = 0;
    ds_pool_run(ld->pool, ld->n_blocks, eval_block_fn, &j);
    if (ld_cancelled(ld)) {
        /* destinations were skipped: f is left as it was, and the inner state
         * (part this evaluation's, part the last one's) is not kept */
        ld->kept_valid = 0;
        if (ld->v_valid) memset(ld->v_valid, 0, (size_t)ld->n_dest);
        return LD_CANCELLED;
    }
    ld_reduce(ld, f);
    wall = ds_clock_now() - t0;
    /* Phase wall times: the parallel section's wall time split in proportion to
     * the thread time each phase took (the phases interleave per destination). */
    for (int w = 0; w < ds_pool_threads(ld->pool); w++) {
        tb += ld->scr[w].t_bellman;
        ta += ld->scr[w].t_absorb;
    }
    ld->stats.t_phase[DS_PHASE_BELLMAN] = (tb + ta) > 0 ? wall * tb / (tb + ta) : 0;
    ld->stats.t_phase[DS_PHASE_ABSORB] = (tb + ta) > 0 ? wall * ta / (tb + ta) : 0;
    ld->stats.bellman_passes = ld->stats.absorb_passes = 0;
    ld->stats.bellman_resid = ld->stats.absorb_resid = 0;
    ld->stats.diverged_dest = -1;
    ld->stats.unconverged = 0;
    ld->stats.contraction = 0;
    ld->stats.lu_fresh = ld->stats.lu_reused = ld->stats.lu_refined = ld->stats.lu_shared = 0;
    for (int di = 0; di < ld->n_dest; di++) {
        if (ld->direct) {
            ld->stats.lu_fresh += ld->st_lu[di] == 1;
            ld->stats.lu_reused += ld->st_lu[di] == 2 || ld->st_lu[di] == 3;
            ld->stats.lu_shared += ld->st_lu[di] == 4;
            ld->stats.lu_refined += ld->st_lu[di] == 3;
        }
        if (ld->st_diverged[di] &&
            (ld->stats.diverged_dest < 0 || (ld->stats.unconverged && ld->st_diverged[di] == 1))) {
            ld->stats.diverged_dest = di;
            ld->stats.unconverged = ld->st_diverged[di] == 2;
            ld->stats.contraction = ld->st_ratio[di];
        }
        if (ld->st_bpass[di] > ld->stats.bellman_passes) ld->stats.bellman_passes = ld->st_bpass[di];
        if (ld->st_bres[di] > ld->stats.bellman_resid) ld->stats.bellman_resid = ld->st_bres[di];
        if (ld->st_apass[di] > ld->stats.absorb_passes) ld->stats.absorb_passes = ld->st_apass[di];
        if (ld->st_ares[di] > ld->stats.absorb_resid) ld->stats.absorb_resid = ld->st_ares[di];
    }
    ld->kept_valid = ld->keep && !ld->keep_failed && ld->stats.diverged_dest < 0;
    ld->keep_failed = 0;
    if (ld->stats.diverged_dest >= 0) {
        /* forget the warm start: it came from diverging passes */
        if (ld->v_valid) memset(ld->v_valid, 0, (size_t)ld->n_dest);
        return 1;
    }
    for (int e = 0; e < m; e++)
        if (!isfinite(f[e])) return 1;
    return 0;
}

int ds_loader_eval(ds_loader *ld, const double *x, double *f)
{
    double t0 = ds_clock_now();
    ds_costs_eval(ld->net, &ld->cp, x, ld->tbuf);
    ld->stats.t_phase[DS_PHASE_COSTS] = ds_clock_now() - t0;
    for (int e = 0; e < ld->net->n_links; e++)
        if (!isfinite(ld->tbuf[e])) return -1;
    return ld_eval_costs(ld, ld->tbuf, f);
}

void ds_loader_stats(const ds_loader *ld, ds_load_stats *st) { *st = ld->stats; }

int ds_loader_eval_costs(ds_loader *ld, const double *t, double *f)
{
    for (int e = 0; e < ld->net->n_links; e++)
        if (!isfinite(t[e])) return -1;
    ld->stats.t_phase[DS_PHASE_COSTS] = 0;
    return ld_eval_costs(ld, t, f);
}

/* ------------------------------------------------------------- lifecycle */

static int scratch_init(ld_scratch *s, const ds_network *net)
{
    int n = net->n_nodes, m = net->n_links;
    memset(s, 0, sizeof *s);
    if (sp_work_init(&s->sp, net) != 0) return -1;
    s->dist = malloc(sizeof(double) * (size_t)n);
    s->z = malloc(sizeof(double) * (size_t)n);
    s->r = malloc(sizeof(double) * (size_t)n);
    s->phi = malloc(sizeof(double) * (size_t)n);
    s->hops = malloc(sizeof(int) * (size_t)n);
    s->order = malloc(sizeof(int) * (size_t)n);
    s->rank = malloc(sizeof(int) * (size_t)n);
    s->stop = calloc((size_t)n + 1, 1);
    s->ls = malloc(sizeof(int) * (size_t)(n + 1));
    s->w = malloc(sizeof(double) * (size_t)(m + 1));
    s->a = malloc(sizeof(double) * (size_t)(m + 1));
    s->vi = malloc(sizeof(int) * (size_t)(m + 1));
    s->lk = malloc(sizeof(int) * (size_t)(m + 1));
    s->link_tmp = malloc(sizeof(int) * (size_t)(m + 1));
    return (s->dist && s->z && s->r && s->phi && s->hops && s->order && s->rank && s->stop && s->ls && s->w && s->a &&
            s->vi && s->lk && s->link_tmp)
               ? 0
               : -1;
}

static void scratch_free(ld_scratch *s)
{
    free(s->dv);
    free(s->dr);
    free(s->dphi);
    free(s->dp);
    free(s->trelax);
    sp_work_free(&s->sp);
    free(s->dist);
    free(s->z);
    free(s->r);
    free(s->phi);
    free(s->hops);
    free(s->order);
    free(s->rank);
    free(s->stop);
    free(s->ls);
    free(s->w);
    free(s->a);
    free(s->vi);
    free(s->lk);
    free(s->link_tmp);
}

/* Which OD pairs have a path at all (in the variant's link set), and, from the
 * same free-flow trees, each OD pair's free-flow shortest-path cost (cbar).
 * Filtered variants read reachability off their DAGs; the DSP build already
 * stored the OD costs. Destinations run in parallel; the results go to per-OD
 * slots, so they do not depend on the thread count. */
struct reach_job {
    ds_loader *ld;
    int want_cost;
};

static void reach_fn(void *ctx, int worker, int di)
{
    struct reach_job *j = ctx;
    ds_loader *ld = j->ld;
    const ds_network *net = ld->net;
    ld_scratch *s = &ld->scr[worker];
    double *dist = s->dist;
    if (j->want_cost || !ld->dag) {
        /* Only the origins' distances are read unless reach_node (the full
         * graph) wants every node's: then the search stops at the last origin
         * it settles, as the DSP build's and ds_network_cbar's do (a settled
         * distance is final: the same bits; bfs's cbar on Berlin-Center 2x). */
        int left = 0;
        if (!ld->reach_node)
            for (int k = net->dest_od_start[di]; k < net->dest_od_start[di + 1]; k++)
                if (!s->stop[net->od_orig[k]]) s->stop[net->od_orig[k]] = 1, left++;
        s->sp.stop = left ? s->stop : NULL;
        s->sp.stop_left = left;
        sp_dijkstra_to(net, ld->tff, net->dest_node[di], dist, s->hops, NULL, &s->sp);
        s->sp.stop = NULL;
        for (int k = net->dest_od_start[di]; left && k < net->dest_od_start[di + 1]; k++) s->stop[net->od_orig[k]] = 0;
    }
    for (int k = net->dest_od_start[di]; k < net->dest_od_start[di + 1]; k++) {
        int o = net->od_orig[k];
        if (j->want_cost) ld->od_ffcost[k] = dist[o];
        if (!ld->dag) ld->reach_ok[k] = dist[o] < INFINITY;
    }
    if (ld->reach_node) {
        unsigned char *r = ld->reach_node + (size_t)di * ld->reach_stride;
        for (int i = 0; i < net->n_nodes; i++)
            if (dist[i] < INFINITY) r[i >> 3] |= (unsigned char)(1u << (i & 7));
    }
    if (ld->dag) {
        /* in a DAG every listed node has a path (it has a link to a lower node) */
        int *mark = s->rank;
        for (int k = net->dest_od_start[di]; k < net->dest_od_start[di + 1]; k++) mark[net->od_orig[k]] = 0;
        for (int i = 0; i < ld->dag[di].n; i++) mark[ld->dag[di].node[i]] = 1;
        for (int k = net->dest_od_start[di]; k < net->dest_od_start[di + 1]; k++)
            ld->reach_ok[k] = mark[net->od_orig[k]] == 1;
    }
}

static int find_lost_demand(ds_loader *ld, int want_cost)
{
    const ds_network *net = ld->net;
    struct reach_job j = {ld, want_cost};
    /* (watched where it searches: without want_cost it only reads the DAGs) */
    if (!want_cost)
        ds_pool_run(ld->pool, ld->n_dest, reach_fn, &j);
    else if (run_dests(ld, "reachability", reach_fn, &j) != 0)
        return -1;
    if (want_cost) ld->have_ffcost = 1;
    ld->lost_od = 0;
    ld->lost_demand = 0;
    for (int k = 0; k < net->n_od; k++)
        if (!ld->reach_ok[k]) {
            ld->lost_od++;
            ld->lost_demand += net->od_demand[k];
        }
    return 0;
}

/* cbar as ds_network_cbar computes it (same trees, same summation order). */
double ds_loader_cbar(ds_loader *ld)
{
    const ds_network *net = ld->net;
    double num = 0, den = 0;
    if (!ld->have_ffcost) {
        struct reach_job j = {ld, 1};
        if (run_dests(ld, "cbar", reach_fn, &j) != 0) return NAN; /* cancelled */
        ld->have_ffcost = 1;
    }
    for (int k = 0; k < net->n_od; k++) {
        double c = ld->od_ffcost[k];
        if (!isfinite(c)) continue; /* OD pairs without a path carry no cost */
        num += net->od_demand[k] * c;
        den += net->od_demand[k];
    }
    return den > 0 ? num / den : NAN;
}

int ds_loader_set_mu(ds_loader *ld, double mu)
{
    if (!(mu > 0) || !isfinite(mu)) return -1;
    ld->mu = mu;
    ld->kept_valid = 0;
    if (ld->v_valid) memset(ld->v_valid, 0, (size_t)ld->n_dest);
    return 0;
}

void ds_loader_node_demand(const ds_loader *ld, double *bal, double sign)
{
    const ds_network *net = ld->net;
    for (int k = 0; k < net->n_od; k++)
        if (ld->reach_ok[k]) {
            bal[net->od_dest[k]] += sign * net->od_demand[k];
            bal[net->od_orig[k]] -= sign * net->od_demand[k];
        }
}

void ds_loader_set_factor_budget(ds_loader *ld, double bytes)
{
    if (bytes >= 0) ld->factor_budget = bytes;
}

void ds_loader_set_quick_reject(ds_loader *ld, int on) { ld->quick_reject = on != 0; }

void ds_loader_arrivals(const ds_loader *ld, double *loaded, double *arrived)
{
    double a = 0, l = 0;
    for (int di = 0; di < ld->n_dest; di++) {
        l += ld->st_loaded[di];
        a += ld->st_arrived[di];
    }
    if (loaded) *loaded = l;
    if (arrived) *arrived = a;
}

ds_loader *ds_loader_create(const ds_network *net, const ds_cost_params *cp, ds_filter filter, double mu, int threads,
                            int inner_max, double inner_tol, ds_error *err)
{
    return ds_loader_create_watched(net, cp, filter, mu, threads, inner_max, inner_tol, NULL, NULL, err);
}

ds_loader *ds_loader_create_watched(const ds_network *net, const ds_cost_params *cp, ds_filter filter, double mu,
                                    int threads, int inner_max, double inner_tol, ds_loader_progress_fn progress,
                                    void *progress_ctx, ds_error *err)
{
    return ld_create_cancellable(net, cp, filter, mu, threads, inner_max, inner_tol, progress, progress_ctx, NULL, err);
}

ds_loader *ld_create_cancellable(const ds_network *net, const ds_cost_params *cp, ds_filter filter, double mu,
                                 int threads, int inner_max, double inner_tol, ds_loader_progress_fn progress,
                                 void *progress_ctx, const atomic_int *cancel, ds_error *err)
{
    ds_loader *ld;
    int m = net->n_links, n = net->n_nodes;
    if (!(mu > 0) || !isfinite(mu)) {
        ds_error_set(err, NULL, 0, "dispersion mu must be positive and finite, got %g", mu);
        return NULL;
    }
    if (ds_network_check(net, err)) return NULL;
    if (ds_costs_check(net, cp, err)) return NULL;
    ld = calloc(1, sizeof *ld);
    if (!ld) goto oom;
    ld->net = net;
    ld->progress = progress;
    ld->progress_ctx = progress_ctx;
    ld->cancel = cancel;
    ld->cp = *cp;
    ld->filter = filter;
    ld->mu = mu;
    ld->inner_max = inner_max > 0 ? inner_max : 50;
    ld->inner_tol = inner_tol > 0 ? inner_tol : 1e-13;
    ld->factor_budget = 768.0 * 1024 * 1024;
    ld->prob_budget = LD_PROB_BUDGET;
    ld->relax_lambda = 1;
    /* Absorption on the full graph converges at the rate of the choice matrix
     * (expected cycle traversals), independent of the Bellman cap. */
    ld->absorb_max = ld->inner_max > 1000 ? ld->inner_max : 1000;
    ld->n_dest = net->n_dest;
    ld->blk = (net->n_dest + LD_MAX_BLOCKS - 1) / LD_MAX_BLOCKS;
    if (ld->blk < JV_GROUP) ld->blk = JV_GROUP;
    ld->n_blocks = (net->n_dest + ld->blk - 1) / ld->blk;
    if (threads <= 0) threads = ds_ncores();
    ld->pool = ds_pool_create(threads);
    if (!ld->pool) goto oom;
    ld->scr = calloc((size_t)ds_pool_threads(ld->pool), sizeof(ld_scratch));
    if (!ld->scr) goto oom;
    for (int w = 0; w < ds_pool_threads(ld->pool); w++)
        if (scratch_init(&ld->scr[w], net) != 0) goto oom;
    ld->partial = malloc(sizeof(double) * (size_t)ld->n_blocks * (size_t)m);
    ld->tbuf = malloc(sizeof(double) * (size_t)(m + 1));
    ld->tff = malloc(sizeof(double) * (size_t)(m + 1));
    ld->reach_ok = calloc((size_t)net->n_od + 1, 1);
    ld->st_bpass = calloc((size_t)ld->n_dest, sizeof(int));
    ld->st_apass = calloc((size_t)ld->n_dest, sizeof(int));
    ld->st_diverged = calloc((size_t)ld->n_dest, sizeof(int));
    ld->st_lu = calloc((size_t)ld->n_dest, sizeof(int));
    ld->st_bres = calloc((size_t)ld->n_dest, sizeof(double));
    ld->st_ratio = calloc((size_t)ld->n_dest, sizeof(double));
    ld->st_ares = calloc((size_t)ld->n_dest, sizeof(double));
    ld->st_arrived = calloc((size_t)ld->n_dest, sizeof(double));
    ld->st_loaded = calloc((size_t)ld->n_dest, sizeof(double));
    ld->od_ffcost = malloc(sizeof(double) * (size_t)(net->n_od + 1));
    if (!ld->st_arrived || !ld->st_loaded || !ld->od_ffcost) goto oom;
    if (!ld->partial || !ld->tbuf || !ld->tff || !ld->reach_ok || !ld->st_bpass || !ld->st_apass || !ld->st_diverged ||
        !ld->st_lu || !ld->st_bres || !ld->st_ares || !ld->st_ratio)
        goto oom;
    {
        double *zero = calloc((size_t)m + 1, sizeof(double));
        if (!zero) goto oom;
        ds_costs_eval(net, cp, zero, ld->tff);
        free(zero);
    }
    if (filter == DS_FILTER_FULL) {
        ld->V = malloc(sizeof(double) * (size_t)ld->n_dest * (size_t)n);
        ld->v_valid = calloc((size_t)ld->n_dest + 1, 1);
        ld->reach_stride = ((size_t)n + 8) / 8;
        ld->reach_node = calloc((size_t)ld->n_dest * ld->reach_stride + 1, 1);
        if (!ld->V || !ld->v_valid || !ld->reach_node) goto oom;
    } else {
        ld->dag = calloc((size_t)ld->n_dest, sizeof(ld_dag));
        if (!ld->dag || ld_dag_rebuild(ld, ld->tff, ld->dag) != 0) goto oom;
        ld->dag_ff = 1;
        ld_touch_index(ld); /* (out of memory: every link, as without) */
    }
    /* full: the trees are needed anyway */
    if (find_lost_demand(ld, filter == DS_FILTER_FULL) != 0) goto oom;
    if (filter == DS_FILTER_DSP || filter == DS_FILTER_EDSP) ld->have_ffcost = 1;
    ld->progress = NULL; /* (a later DAG rebuild, the eDSP refresh, is not watched) */
    return ld;
oom:
    if (ld && ld->stopped) {
        ds_error_set(err, NULL, 0, "cancelled");
        ds_loader_free(ld);
        return NULL;
    }
    ds_error_set(err, NULL, 0, "out of memory setting up the loading map (%d nodes, %d links, %d destinations)", n, m,
                 net->n_dest);
    ds_loader_free(ld);
    return NULL;
}

void ds_loader_free(ds_loader *ld)
{
    if (!ld) return;
    if (ld->scr && ld->pool)
        for (int w = 0; w < ds_pool_threads(ld->pool); w++) scratch_free(&ld->scr[w]);
    ld_direct_free(ld);
    ds_pool_free(ld->pool);
    free(ld->scr);
    ld_dags_free(ld, ld->dag);
    ld_keep_free(ld);
    free(ld->partial);
    free(ld->blk_start), free(ld->blk_link), free(ld->lnk_start), free(ld->lnk_blk);
    free(ld->tbuf);
    free(ld->tff);
    free(ld->reach_ok);
    free(ld->reach_node);
    free(ld->st_bpass);
    free(ld->st_apass);
    free(ld->st_diverged);
    free(ld->st_lu);
    free(ld->st_bres);
    free(ld->st_ratio);
    free(ld->dtv);
    free(ld->st_ares);
    free(ld->st_arrived);
    free(ld->st_loaded);
    free(ld->od_ffcost);
    free(ld->V);
    free(ld->v_valid);
    free(ld->relax_dag);
    free(ld->pw.t);
    free(ld->pw.y);
    free(ld);
}

int ds_loader_set_inner(ds_loader *ld, ds_inner mode)
{
    if (ld->filter != DS_FILTER_FULL) return 0; /* DAG variants are exact in one pass */
    if (mode == DS_INNER_DIRECT && !ld->direct) {
        if (ld_direct_init(ld) != 0) {
            ld_direct_free(ld);
            return -1;
        }
    } else if (mode == DS_INNER_PASSES && ld->direct) {
        ld_direct_free(ld);
    }
    ld->kept_valid = 0;
    return 0;
}

void ds_loader_lost_demand(const ds_loader *ld, int *n_od, double *demand)
{
    if (n_od) *n_od = ld->lost_od;
    if (demand) *demand = ld->lost_demand;
}
