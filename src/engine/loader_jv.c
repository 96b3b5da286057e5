/* loader_jv.c - derivative of the loading map (J v), the spectral radius of
 * the weight matrix, and the eDSP mask refresh.
 *
 * J v by implicit differentiation of the converged inner problems: with
 * dt = t'(x) v,
 *   dV(u) = sum_e P_e (dV(v) - mu dt_e)                  (Bellman, linear in dV)
 *   dP_e  = P_e (dV(v) - dV(u) - mu dt_e)
 *   dphi(v) = sum_{e=(u,v)} (P_e dphi(u) + dP_e phi(u))  (absorption)
 *   (J v)_e = sum_d dP_e phi(u) + P_e dphi(u)
 * Both linear systems are solved by the same Gauss-Seidel / push passes as the
 * loading map itself (one exact pass on a DAG).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "kernels.h"
#include "loader_int.h"

/* ------------------------------------------------------------ keep state */

static int grow(void **p, size_t need, size_t elem)
{
    void *q = realloc(*p, need * elem);
    if (!q) return -1;
    *p = q;
    return 0;
}

/* On a DAG (dsp, bfs, edsp) the processing order, link ranges, link ids and
 * heads are the DAG's own arrays, and phi is recomputed by J v in the same
 * downstream pass that pushes dphi: only P is stored, and only where it is
 * not 1 by construction (the links of nodes with more than one DAG link, see
 * ld_keep), by the evaluation itself (ld_keep_dag_buffer / _done): Berlin-Center
 * dsp Newton 524 MB at first, then P of every link, now of 11 % (docs/bench.md).
 * Should a node's only link have P != 1 (its head's value -inf: never on a DAG
 * of reachable nodes, but then kept exactly), every link's P is stored here
 * instead (multi 0). The full graph's passes keep their own copies and phi. */
int ld_keep_store(ds_loader *ld, int di, int R, const int *order, const int *ls, const int *lk, const int *vi,
                  const double *P, const double *phi_by_node)
{
    ld_keep *k = &ld->kept[di];
    int cnt = ls[R], own = ld->dag == NULL;
    if (R + 1 > k->cap_R) {
        if (own && (grow((void **)&k->order, (size_t)R + 1, sizeof(int)) ||
                    grow((void **)&k->ls, (size_t)R + 1, sizeof(int)) ||
                    grow((void **)&k->phi, (size_t)R + 1, sizeof(double))))
            return -1;
        k->cap_R = R + 1;
    }
    if (cnt + 1 > k->cap_cnt) {
        if ((own && (grow((void **)&k->lk, (size_t)cnt + 1, sizeof(int)) ||
                     grow((void **)&k->vi, (size_t)cnt + 1, sizeof(int)))) ||
            grow((void **)&k->P, (size_t)cnt + 1, sizeof(double)))
            return -1;
        k->cap_cnt = cnt + 1;
    }
    k->R = R;
    k->cnt = cnt;
    k->multi = 0;
    if (own) {
        memcpy(k->order, order, sizeof(int) * (size_t)R);
        memcpy(k->ls, ls, sizeof(int) * (size_t)(R + 1));
        k->ls[0] = 0;
        memcpy(k->lk, lk, sizeof(int) * (size_t)cnt);
        memcpy(k->vi, vi, sizeof(int) * (size_t)cnt);
    }
    memcpy(k->P, P, sizeof(double) * (size_t)cnt);
    if (own)
        for (int i = 0; i < R; i++) k->phi[i] = phi_by_node[order[i]];
    return 0;
}

double *ld_keep_dag_buffer(ds_loader *ld, int di, int n_multi)
{
    ld_keep *k = &ld->kept[di];
    if (n_multi + 1 > k->cap_cnt) {
        if (grow((void **)&k->P, (size_t)n_multi + 1, sizeof(double))) return NULL;
        k->cap_cnt = n_multi + 1;
    }
    return k->P;
}

void ld_keep_dag_done(ds_loader *ld, int di, int R, int cnt)
{
    ld_keep *k = &ld->kept[di];
    k->R = R;
    k->cnt = cnt;
    k->multi = 1;
}

void ld_keep_free(ds_loader *ld)
{
    if (!ld->kept) return;
    for (int i = 0; i < ld->n_dest; i++) {
        ld_keep *k = &ld->kept[i];
        free(k->order);
        free(k->ls);
        free(k->lk);
        free(k->vi);
        free(k->P);
        free(k->phi);
    }
    free(ld->kept);
    ld->kept = NULL;
}

int ds_loader_set_keep(ds_loader *ld, int keep)
{
    if (keep && !ld->kept) {
        ld->kept = calloc((size_t)ld->n_dest, sizeof(ld_keep));
        if (!ld->kept) return -1;
        for (int w = 0; w < ds_pool_threads(ld->pool); w++) {
            ld_scratch *s = &ld->scr[w];
            int n = ld->net->n_nodes, m = ld->net->n_links;
            s->dv = malloc(sizeof(double) * (size_t)n);
            s->dr = malloc(sizeof(double) * (size_t)n);
            s->dphi = malloc(sizeof(double) * (size_t)n);
            s->dp = malloc(sizeof(double) * (size_t)(m + 1));
            if (!s->dv || !s->dr || !s->dphi || !s->dp) return -1;
        }
        ld->dtv = malloc(sizeof(double) * (size_t)(ld->net->n_links + 1));
        if (!ld->dtv) return -1;
    }
    ld->keep = keep;
    ld->keep_failed = 0;
    ld->kept_valid = 0;
    return 0;
}

/* ------------------------------------------------------------------ J v */

/* J v on a DAG: dV by one pass, nearest nodes first, then one downstream pass
 * (farthest first, as the loading map's absorption) that rebuilds phi from the
 * demand exactly as the absorption did (same order of additions, so the same
 * phi bit for bit) and pushes dphi with it. dV, dr and phi are indexed by
 * position in the DAG's node order (ld_dag), so each node's own entries are
 * read and written in sequence. A node's probabilities are its kept ones, or
 * 1 for its only link (kept compactly, see ld_keep), which has a branch of its
 * own: the same arithmetic as with every P stored (acc = 0, then acc += the
 * term: 0 + x keeps x's bits but for -0), so the same bits. */
static void jv_dest_dag(ds_loader *ld, int di, ld_scratch *s, double *out)
{
    const ds_network *net = ld->net;
    const ld_dag *g = &ld->dag[di];
    const ld_keep *k = &ld->kept[di];
    const int *ls = g->lstart, *lk = g->link, *hp = g->hpos;
    const double *dtv = ld->dtv, mu = ld->mu, *Pk = k->P;
    double *dV = s->dv, *dr = s->dr, *phi = s->phi;
    int R = k->R, multi = k->multi, q = 0, q0 = net->dest_od_start[di];
    dV[0] = 0;
    for (int i = 1; i < R; i++) {
        int a = ls[i], b = ls[i + 1];
        double acc = 0;
        if (multi && b - a == 1) {
            acc += dsk_dv_term(1.0, dV[hp[a]], mu, dtv[lk[a]]);
        } else {
            const double *P = multi ? Pk + q : Pk + a; /* P[j - a]: link j's */
            for (int j = a; j < b; j++) acc += dsk_dv_term(P[j - a], dV[hp[j]], mu, dtv[lk[j]]);
            q += b - a;
        }
        dV[i] = acc;
    }
    memset(dr, 0, sizeof(double) * (size_t)R);
    memset(phi, 0, sizeof(double) * (size_t)R);
    for (int c = q0; c < net->dest_od_start[di + 1]; c++)
        if (ld->reach_ok[c]) phi[g->opos[c - q0]] += net->od_demand[c];
    for (int i = R - 1; i >= 1; i--) {
        int a = ls[i], b = ls[i + 1];
        double ph = phi[i], m = dr[i], dVu = dV[i];
        if (multi && b - a == 1) {
            int e = lk[a], v = hp[a];
            double dP = dsk_dprob(1.0, dV[v], dVu, mu, dtv[e]);
            double y = dsk_dflow(1.0, dP, ph, m);
            phi[v] += 1.0 * ph;
            dr[v] += y;
            out[e] += y;
            continue;
        }
        q -= b - a;
        const double *P = multi ? Pk + q : Pk + a;
        for (int j = a; j < b; j++) {
            int e = lk[j], v = hp[j];
            double dP = dsk_dprob(P[j - a], dV[v], dVu, mu, dtv[e]);
            double y = dsk_dflow(P[j - a], dP, ph, m);
            phi[v] += P[j - a] * ph;
            dr[v] += y;
            out[e] += y;
        }
    }
}

/* J v by passes (full graph without the direct solver), phi kept. */
static void jv_dest(ds_loader *ld, int di, ld_scratch *s, double *out)
{
    const ld_keep *kp = &ld->kept[di], *k = kp;
    const double *dtv = ld->dtv, mu = ld->mu;
    double *dV = s->dv, *dr = s->dr, *dP = s->dp;
    int R = kp->R, passes = ld->filter == DS_FILTER_FULL ? ld->inner_max * 4 : 1;
    double delta = 0, scale = 0, left = 0;
    for (int i = 0; i < R; i++) {
        dV[k->order[i]] = 0;
        dr[k->order[i]] = 0;
    }
    /* Bellman derivative: Gauss-Seidel in increasing-key order. */
    for (int p = 0; p < passes; p++) {
        scale = 0;
        delta = 0;
        for (int i = 1; i < R; i++) {
            int u = k->order[i];
            double acc = 0;
            for (int j = k->ls[i]; j < k->ls[i + 1]; j++) acc += dsk_dv_term(k->P[j], dV[k->vi[j]], mu, dtv[k->lk[j]]);
            double ch = fabs(acc - dV[u]);
            if (ch > delta) delta = ch;
            if (fabs(acc) > scale) scale = fabs(acc);
            dV[u] = acc;
        }
        if (delta <= 1e-15 * (scale > 1 ? scale : 1)) break;
    }
    /* dP and the absorption source term; the first part of (J v)_e. */
    for (int i = 1; i < R; i++) {
        int u = k->order[i];
        double ph = kp->phi[i];
        for (int j = k->ls[i]; j < k->ls[i + 1]; j++) {
            dP[j] = dsk_dprob(k->P[j], dV[k->vi[j]], dV[u], mu, dtv[k->lk[j]]);
            double y = dP[j] * ph;
            dr[k->vi[j]] += y;
            out[k->lk[j]] += y;
        }
    }
    /* Absorption derivative: push dr downstream through P. */
    double tot = 0;
    for (int i = 1; i < R; i++) tot += fabs(dr[k->order[i]]);
    for (int p = 0; p < (ld->filter == DS_FILTER_FULL ? ld->absorb_max : 1); p++) {
        left = 0;
        for (int i = R - 1; i >= 1; i--) {
            int u = k->order[i];
            double m = dr[u];
            if (m == 0) continue;
            dr[u] = 0;
            for (int j = k->ls[i]; j < k->ls[i + 1]; j++) {
                double y = k->P[j] * m;
                dr[k->vi[j]] += y;
                out[k->lk[j]] += y;
            }
        }
        for (int i = 1; i < R; i++) left += fabs(dr[k->order[i]]);
        if (!(left > ld->inner_tol * tot)) break;
    }
    /* Passes that ran out far from the answer leave J v inexact: judged by
     * the evaluation's own trust rule (LD_TRUST_TOL), it is a failed J v, as
     * where the direct solver cannot factorise, not a wrong product that
     * GMRES would build a direction on. */
    if (ld->filter == DS_FILTER_FULL &&
        (!(delta <= LD_TRUST_TOL * (scale > 1 ? scale : 1)) || !(left <= LD_TRUST_TOL * tot)))
        ld->jv_failed = 1; /* atomic: several workers may fail at once */
}

struct jv_job {
    ds_loader *ld;
};

static void jv_block_fn(void *ctx, int worker, int b)
{
    struct jv_job *j = ctx;
    ds_loader *ld = j->ld;
    double *out = ld->partial + (size_t)b * (size_t)ld->net->n_links;
    int d0 = b * ld->blk, d1 = d0 + ld->blk;
    if (d1 > ld->n_dest) d1 = ld->n_dest;
    ld_block_clear(ld, b, out);
    int grp[JV_GROUP], k = 0;
    for (int di = d0; di < d1 && !ld_cancelled(ld); di++) {
        if (ld->direct && !ld->jv_group_off && ld_direct_jv_shared(ld, di)) {
            grp[k++] = di; /* consecutive shared destinations go together */
            if (k == JV_GROUP) ld_direct_jv_group(ld, grp, k, worker, out), k = 0;
            continue;
        }
        if (k) ld_direct_jv_group(ld, grp, k, worker, out), k = 0;
        if (ld->direct)
            ld_direct_jv(ld, di, worker, out);
        else if (ld->dag)
            jv_dest_dag(ld, di, &ld->scr[worker], out);
        else
            jv_dest(ld, di, &ld->scr[worker], out);
    }
    if (k) ld_direct_jv_group(ld, grp, k, worker, out);
}

/* out = (df/dt) ld->dtv at the kept state */
static int jv_of_dtv(ds_loader *ld, double *out, double t0)
{
    struct jv_job j = {ld};
    ld->jv_failed = 0;
    ds_pool_run(ld->pool, ld->n_blocks, jv_block_fn, &j);
    if (ld_cancelled(ld)) return LD_CANCELLED; /* destinations skipped: out is left as it was */
    if (ld->jv_failed) return -1;
    ld_reduce(ld, out);
    ld->stats.t_phase[DS_PHASE_DERIV] = ds_clock_now() - t0;
    return 0;
}

int ds_loader_jv(ds_loader *ld, const double *x, const double *v, double *out)
{
    int m = ld->net->n_links;
    double t0 = ds_clock_now();
    if (!ld->keep || !ld->kept_valid) return -1;
    ds_costs_deriv(ld->net, &ld->cp, x, ld->dtv);
    for (int e = 0; e < m; e++) ld->dtv[e] *= v[e];
    return jv_of_dtv(ld, out, t0);
}

int ds_loader_jv_costs(ds_loader *ld, const double *w, double *out)
{
    double t0 = ds_clock_now();
    if (!ld->keep || !ld->kept_valid) return -1;
    memcpy(ld->dtv, w, sizeof(double) * (size_t)ld->net->n_links);
    return jv_of_dtv(ld, out, t0);
}

/* ------------------------------------------------------- spectral radius */

/* Power iteration on (I + W_d) (the shift makes the Perron root dominant even
 * on periodic graphs), then Collatz-Wielandt bounds: for any node set S and
 * y > 0 on S, rho(W) >= rho(W_S) >= min_{i in S} (W_S y)_i / y_i. Nodes whose
 * ratio is far below the estimate (sinks, nodes feeding only the destination)
 * would make that minimum useless, so S is pruned to where the Perron vector
 * lives and y refined on it, keeping the best bound found; every one is valid. */
static double cw_bound(const ds_network *net, const double *w, int d, const double *y, const unsigned char *in,
                       double *ratio)
{
    double lb = INFINITY;
    for (int u = 0; u < net->n_nodes; u++) {
        if (!in[u]) continue;
        double acc = 0;
        for (int k = net->out_start[u]; k < net->out_start[u + 1]; k++) {
            int e = net->out_link[k], v = net->head[e];
            if (in[v] && sp_link_usable(net, e, d)) acc += w[e] * y[v];
        }
        ratio[u] = acc / y[u];
        if (ratio[u] < lb) lb = ratio[u];
    }
    return isfinite(lb) ? lb : 0;
}

/* The weight matrix's entries exp(-mu t) of every link (loaded costs underflow
 * often: dsk_exp_weight gives their 0 without libm's slow path, same bits). */
static void rho_weights(const ds_loader *ld, const double *t, double *w)
{
    for (int e = 0; e < ld->net->n_links; e++) w[e] = dsk_exp_weight(-ld->mu * t[e]);
}

/* The nodes of destination di's matrix: those that reach d (the full graph's
 * reach_node, free-flow trees over usable links), d itself out. A cycle that
 * cannot reach d leaves its values at 0 (b = 0 there; the sparse LU never sees
 * those nodes), so counting it "proved" a model ill-posed that is not (a
 * dead-end pair of links of cost 0). y = 1 on them, 0 elsewhere. */
static void rho_nodes(const ds_loader *ld, int di, double *y, unsigned char *in)
{
    const ds_network *net = ld->net;
    int n = net->n_nodes, d = net->dest_node[di];
    const unsigned char *r = ld->reach_node ? ld->reach_node + (size_t)di * ld->reach_stride : NULL;
    for (int i = 0; i < n; i++) {
        in[i] = i != d && (!r || (r[i >> 3] >> (i & 7) & 1));
        y[i] = in[i] ? 1 : 0;
    }
}

/* Where a power iteration stands: iterations done, the last two growth
 * factors, and whether it stopped on a vanishing or non-finite vector. */
typedef struct pw_state {
    int it, dead;
    double lam, prev;
} pw_state;

/* y <- (I + W_S) y normalised, up to `iters` iterations in all (counting those
 * st says were done); returns the last growth factor - 1. Stops when two
 * growth factors agree to tol (after 20 iterations). Resuming a state that
 * stopped on a looser tol first makes the test the last iteration would have
 * made with this one, so a resumed run and a fresh run to the tighter tol
 * give the same bits (ds_loader_rho_support resumes the estimate's).
 * The usable links between nodes of S are gathered first (row by row, in the
 * network's out-link order), so the iterations run over a compact matrix
 * with the same additions in the same order: the same bits as walking the
 * network each time, several times faster (the start search calls this
 * dozens of times, serially: a tenth of Anaheim's solve). */
static double power_steps(const ds_network *net, const double *w, int d, double *y, double *y2, const unsigned char *in,
                          int iters, double tol, pw_state *st)
{
    int n = net->n_nodes, m = net->n_links, nnz = 0, it = st->it;
    double lam = st->lam, prev = st->prev;
    if (st->dead || (it > 21 && fabs(lam - prev) <= tol * lam)) return lam > 0 ? lam - 1 : 0;
    int *rs = malloc(sizeof(int) * (size_t)(n + 1)), *col = malloc(sizeof(int) * (size_t)(m + 1));
    double *val = malloc(sizeof(double) * (size_t)(m + 1));
    if (!rs || !col || !val) {
        free(rs), free(col), free(val);
        return 0;
    }
    for (int u = 0; u < n; u++) {
        rs[u] = nnz;
        if (!in[u]) continue;
        for (int k = net->out_start[u]; k < net->out_start[u + 1]; k++) {
            int e = net->out_link[k], v = net->head[e];
            if (in[v] && sp_link_usable(net, e, d)) col[nnz] = v, val[nnz++] = w[e];
        }
    }
    rs[n] = nnz;
    while (it < iters) {
        double nrm = 0;
        for (int u = 0; u < n; u++) {
            double acc = 0;
            if (in[u]) {
                acc = y[u];
                for (int k = rs[u]; k < rs[u + 1]; k++) acc += val[k] * y[col[k]];
            }
            y2[u] = acc;
            if (acc > nrm) nrm = acc;
        }
        if (!(nrm > 0) || !isfinite(nrm)) {
            st->dead = 1;
            break;
        }
        prev = lam;
        lam = nrm;
        double inv = 1 / nrm; /* (a division per node was half of a step's time) */
        for (int u = 0; u < n; u++) y[u] = y2[u] * inv;
        if (it++ > 20 && fabs(lam - prev) <= tol * lam) break;
    }
    st->it = it;
    st->lam = lam;
    st->prev = prev;
    free(rs), free(col), free(val);
    return lam > 0 ? lam - 1 : 0;
}

/* The estimate (power iteration) and, with `bound`, the Collatz-Wielandt
 * lower bound refined on the pruned support (*lower; 0 without). Without
 * `bound` and with `keep` (the costs t behind w), the iteration is kept in
 * ld->pw for ds_loader_rho_support. */
static void rho_dest(ds_loader *ld, const double *w, int di, int bound, double *lower, double *est, double *y,
                     double *y2, double *ratio, unsigned char *in, const double *keep)
{
    const ds_network *net = ld->net;
    int n = net->n_nodes, d = net->dest_node[di];
    rho_nodes(ld, di, y, in);
    pw_state st = {0, 0, 0, 0};
    *est = power_steps(net, w, d, y, y2, in, 500, bound ? 1e-12 : 1e-9, &st);
    if (!bound && keep) {
        /* the estimate's iteration, for ds_loader_rho_support to resume */
        struct ld_power_cache *c = &ld->pw;
        if ((c->y || (c->y = malloc(sizeof(double) * (size_t)n))) &&
            (c->t || (c->t = malloc(sizeof(double) * (size_t)(net->n_links + 1))))) {
            memcpy(c->y, y, sizeof(double) * (size_t)n);
            memcpy(c->t, keep, sizeof(double) * (size_t)net->n_links);
            c->di = di, c->mu = ld->mu, c->it = st.it, c->dead = st.dead, c->lam = st.lam, c->prev = st.prev;
            c->valid = 1;
        }
    }
    *lower = 0;
    if (!bound) return;
    double ymax = 0, best = 0;
    for (int i = 0; i < n; i++) ymax = fmax(ymax, y[i]);
    for (int i = 0; i < n; i++) in[i] = in[i] && y[i] > 1e-12 * ymax;
    for (int round = 0; round < 30; round++) {
        double lb = cw_bound(net, w, d, y, in, ratio);
        if (lb > best) best = lb;
        if (best >= *est * (1 - 1e-9)) break;
        double thr = lb + 0.5 * (*est - lb);
        int removed = 0, left = 0;
        for (int i = 0; i < n; i++)
            if (in[i]) {
                if (ratio[i] < thr)
                    in[i] = 0, removed++;
                else
                    left++;
            }
        if (!removed || !left) break;
        pw_state st2 = {0, 0, 0, 0};
        power_steps(net, w, d, y, y2, in, 100, 1e-13, &st2);
        for (int i = 0; i < n; i++)
            if (in[i] && !(y[i] > 0)) in[i] = 0;
    }
    *lower = best;
}

/* The weight matrix of destination d holds the links whose head may be
 * entered (a through node, or d), without node d. Another centroid is never
 * entered, so its column is zero and it lies on no cycle: for every centroid
 * destination the matrix is the through-node matrix plus acyclic source rows,
 * with the same spectral radius. One computation serves them all (Austin-SDB:
 * 1 instead of 1,117); through-node destinations are computed each. Destinations run
 * in parallel in fixed chunks, in order, so the result (the first chunk with a
 * proof, the best bound over the chunks done) does not depend on the threads. */
#define RHO_CHUNK 16

struct rho_job {
    ds_loader *ld;
    const double *w;
    int bound;
    double *lb, *est;          /* [n_dest] */
    double **y, **y2, **ratio; /* per worker [n] */
    unsigned char **in;
    int *run;        /* the destinations of this chunk to compute, one per item */
    const double *t; /* the costs behind w */
    int class_di;    /* the centroid destination computed for all of them */
};

static void rho_fn(void *ctx, int worker, int k)
{
    struct rho_job *j = ctx;
    int di = j->run[k];
    rho_dest(j->ld, j->w, di, j->bound, &j->lb[di], &j->est[di], j->y[worker], j->y2[worker], j->ratio[worker],
             j->in[worker], !j->bound && di == j->class_di ? j->t : NULL);
}

static void rho_all(ds_loader *ld, const double *t, int bound, double *lower, double *estimate, int *dest)
{
    const ds_network *net = ld->net;
    int m = net->n_links, n = net->n_nodes, W = ds_pool_threads(ld->pool), nd = ld->n_dest;
    double *w = malloc(sizeof(double) * (size_t)(m + 1));
    double *lb = calloc((size_t)nd, sizeof(double)), *est = calloc((size_t)nd, sizeof(double));
    double **y = calloc((size_t)W, sizeof(double *)), **y2 = calloc((size_t)W, sizeof(double *));
    double **ratio = calloc((size_t)W, sizeof(double *));
    unsigned char **in = calloc((size_t)W, sizeof(unsigned char *));
    int todo[RHO_CHUNK], run[RHO_CHUNK], ok = w && lb && est && y && y2 && ratio && in;
    int class_di = -1; /* the centroid destination computed for all of them */
    *lower = 0;
    *estimate = 0;
    *dest = -1;
    for (int k = 0; ok && k < W; k++) {
        y[k] = malloc(sizeof(double) * (size_t)n);
        y2[k] = malloc(sizeof(double) * (size_t)n);
        ratio[k] = malloc(sizeof(double) * (size_t)n);
        in[k] = malloc((size_t)n);
        ok = y[k] && y2[k] && ratio[k] && in[k];
    }
    if (ok) {
        struct rho_job j = {ld, w, bound, lb, est, y, y2, ratio, in, run, t, -1};
        rho_weights(ld, t, w);
        for (int c0 = 0; c0 < nd && (!bound || *lower < 1.0); c0 += RHO_CHUNK) {
            int cn = nd - c0 < RHO_CHUNK ? nd - c0 : RHO_CHUNK;
            for (int k = 0; k < cn; k++) {
                int di = c0 + k, centroid = ds_node_is_centroid(net, net->dest_node[di]);
                todo[k] = di;
                if (centroid && class_di >= 0) todo[k] = -1;
                if (centroid && class_di < 0) class_di = di;
            }
            /* only the destinations to compute go to the pool: where that is
             * one (every centroid destination is the class's), the caller
             * computes it, not a worker it would first have to wake */
            int nrun = 0;
            for (int k = 0; k < cn; k++)
                if (todo[k] >= 0) run[nrun++] = todo[k];
            j.class_di = class_di;
            ds_pool_run(ld->pool, nrun, rho_fn, &j);
            for (int k = 0; k < cn; k++) {
                int di = c0 + k;
                if (todo[k] < 0) {
                    lb[di] = lb[class_di];
                    est[di] = est[class_di];
                }
                if (est[di] > *estimate) {
                    *estimate = est[di];
                    *dest = di;
                }
                if (lb[di] > *lower) *lower = lb[di];
            }
        }
    }
    for (int k = 0; k < W; k++) { /* any of the arrays may be missing (out of memory) */
        if (y) free(y[k]);
        if (y2) free(y2[k]);
        if (ratio) free(ratio[k]);
        if (in) free(in[k]);
    }
    free(w), free(lb), free(est), free(y), free(y2), free(ratio), free(in);
}

void ds_loader_rho(ds_loader *ld, const double *t, double *lower, double *estimate, int *dest)
{
    rho_all(ld, t, 1, lower, estimate, dest);
}

void ds_loader_rho_estimate(ds_loader *ld, const double *t, double *estimate, int *dest)
{
    double lower;
    rho_all(ld, t, 0, &lower, estimate, dest);
}

/* Links of the Perron support of destination di's weight matrix at costs t:
 * the nodes where the power iteration's vector lives after pruning (the
 * cycles that make the spectral radius large), and the usable links between
 * them. mark[e] = 1 for those links (others untouched). Returns how many. */
int ds_loader_rho_support(ds_loader *ld, const double *t, int di, unsigned char *mark)
{
    const ds_network *net = ld->net;
    int m = net->n_links, n = net->n_nodes, cnt = 0;
    if (di < 0 || di >= ld->n_dest) return 0;
    double *w = calloc((size_t)m + 1, sizeof(double)), *y = calloc((size_t)n + 1, sizeof(double));
    double *y2 = calloc((size_t)n + 1, sizeof(double)), *ratio = calloc((size_t)n + 1, sizeof(double));
    unsigned char *in = calloc((size_t)n + 1, 1);
    if (w && y && y2 && ratio && in) {
        int d = net->dest_node[di];
        double ymax = 0;
        const struct ld_power_cache *pc = &ld->pw; /* written by rho_all, read here: one thread */
        pw_state st = {0, 0, 0, 0};
        rho_weights(ld, t, w);
        rho_nodes(ld, di, y, in);
        if (pc->valid && pc->di == di && pc->mu == ld->mu && memcmp(pc->t, t, sizeof(double) * (size_t)m) == 0) {
            /* the estimate at these costs got this far: resume it (same bits) */
            memcpy(y, pc->y, sizeof(double) * (size_t)n);
            st = (pw_state){pc->it, pc->dead, pc->lam, pc->prev};
            ld->pw.hits++;
        }
        power_steps(net, w, d, y, y2, in, 500, 1e-12, &st);
        /* the support: where the Perron vector is at least 1 % of its largest entry */
        for (int i = 0; i < n; i++) ymax = fmax(ymax, y[i]);
        for (int i = 0; i < n; i++) in[i] = in[i] && y[i] >= 0.01 * ymax;
        (void)ratio;
        for (int e = 0; e < m; e++)
            if (in[net->tail[e]] && in[net->head[e]] && sp_link_usable(net, e, d) && !mark[e]) {
                mark[e] = 1;
                cnt++;
            }
    }
    free(w), free(y), free(y2), free(ratio), free(in);
    return cnt;
}

/* ------------------------------------------------------------ eDSP refresh */

static uint64_t mix64(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}

/* Links of a destination's DAG as a sorted id list (for diffing masks). */
static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The signature of a set of masks: each destination's link ids in increasing
 * order (a mask is a set; the DAG keeps its links in the search's order). */
static uint64_t mask_signature(const ds_loader *ld, const ld_dag *dags, int *tmp)
{
    uint64_t sig = 1469598103934665603ULL;
    for (int di = 0; di < ld->n_dest; di++) {
        const ld_dag *f = &dags[di];
        memcpy(tmp, f->link, sizeof(int) * (size_t)f->n_links);
        qsort(tmp, (size_t)f->n_links, sizeof(int), cmp_int);
        sig = mix64(sig, (uint64_t)di);
        for (int k = 0; k < f->n_links; k++) sig = mix64(sig, (uint64_t)tmp[k]);
    }
    return sig;
}

int ds_loader_refresh_mask(ds_loader *ld, const double *t, long *added, long *removed, uint64_t *signature)
{
    ld_dag *fresh;
    long add = 0, rem = 0;
    int m = ld->net->n_links;
    unsigned char *mark;
    int *tmp;
    if (!ld->dag) return -1;
    tmp = malloc(sizeof(int) * (size_t)(m + 1)); /* a DAG holds each link at most once */
    if (!tmp) return -1;
    if (ld->dag_ff && memcmp(t, ld->tff, sizeof(double) * (size_t)m) == 0) {
        /* the costs the masks were built from at set-up (eDSP's first mask,
         * at x = 0): the same DSP rule gives the same masks, so only their
         * signature is new (a rebuild was 10 % of Chicago-Sketch's set-up) */
        if (signature) *signature = mask_signature(ld, ld->dag, tmp);
        if (added) *added = 0;
        if (removed) *removed = 0;
        free(tmp);
        return 0;
    }
    fresh = calloc((size_t)ld->n_dest, sizeof(ld_dag));
    mark = calloc((size_t)m + 1, 1);
    if (!fresh || !mark || ld_dag_rebuild(ld, t, fresh) != 0) {
        free(mark), free(tmp);
        ld_dags_free(ld, fresh);
        return -1;
    }
    for (int di = 0; di < ld->n_dest; di++) {
        ld_dag *o = &ld->dag[di], *f = &fresh[di];
        for (int k = 0; k < o->n_links; k++) mark[o->link[k]] = 1;
        for (int k = 0; k < f->n_links; k++) {
            if (mark[f->link[k]] == 1)
                mark[f->link[k]] = 2;
            else
                add++;
        }
        for (int k = 0; k < o->n_links; k++) {
            if (mark[o->link[k]] == 1) rem++;
            mark[o->link[k]] = 0;
        }
        for (int k = 0; k < f->n_links; k++) mark[f->link[k]] = 0;
    }
    uint64_t sig = mask_signature(ld, fresh, tmp);
    free(mark), free(tmp);
    ld_dags_free(ld, ld->dag);
    ld->dag = fresh;
    ld->dag_ff = 0;
    ld->kept_valid = 0;
    ld_touch_index(ld); /* (out of memory: every link, as without) */
    if (added) *added = add;
    if (removed) *removed = rem;
    if (signature) *signature = sig;
    return 0;
}
