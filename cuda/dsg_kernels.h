/* dsg_kernels.h - the kernel bodies of the GPU loading map, shared by the CUDA
 * build (cuda/gpu_cuda.cu wraps each in a __global__ launcher) and the CPU
 * emulation (cuda/emul.c loops over the same grid and block indices).
 *
 * Invariant that makes the sequential emulation exact: within one launch every
 * output element is written by exactly one thread, and no thread reads what
 * another thread of the same launch writes (Jacobi passes read one buffer and
 * write the other; level passes read lower levels only; reductions are two
 * launches). No shared memory, no atomics, no __syncthreads. So the order in
 * which the emulation visits (block, thread) cannot change a result, and every
 * sum is taken in a fixed order: results are deterministic on both.
 *
 * Index conventions: node arrays are per destination, [d * n + node]; full-
 * graph link arrays are [d * m + k] with k the CSR out-position of the link;
 * DAG link arrays are indexed by the flattened DAG link k (all destinations'
 * DAGs concatenated), DAG items (destination, node) are sorted by level.
 */
#ifndef DS_DSG_KERNELS_H
#define DS_DSG_KERNELS_H

#include "kernels.h"
#include "kernels_dev.h"

#define DSG_BLOCK 128 /* threads per block of every launch */

/* reductions: max of |x| (NaN wins, so divergence is never hidden) or sum of |x| */
enum { DSG_RED_MAXABS = 0, DSG_RED_SUMABS = 1 };

/* Everything a kernel may touch: device pointers and scalars, passed by value.
 * The "role" pointers (vin, vout, rin, ...) are set by the host per launch. */
typedef struct dsg_k {
    int n, m, n_dest;
    double mu, cap;
    /* network */
    const int *tail, *head, *out_start, *out_link, *in_start, *in_link;
    const int *pos;              /* [m] CSR out-position of each link */
    const double *cap_c, *t0, *bpr_b, *bpr_p, *fixed;
    const int *dest_node;        /* [n_dest] */
    const unsigned char *usable; /* [n_dest * m] by CSR position */
    const unsigned char *rdag;   /* --start relax: [n_dest * m] by CSR position, 1 = in the
                                    destination's DSP DAG; NULL = no penalty */
    double rpen;                 /* the penalty -log(lambda) / mu on the links outside */
    const double *Q;             /* [n_dest * n] demand with a path, by origin */
    /* per call */
    const double *x, *v;
    double *t, *dtv, *f;         /* [m] */
    /* per destination and node */
    const double *vin;
    double *vout, *delta;
    const double *rin;
    double *rout, *phi, *dphi;
    const double *phi_c;         /* phi read-only (derivative passes) */
    /* per destination and link */
    double *A, *P, *dP;
    int want_p;                  /* Bellman full: write normalized P this pass */
    /* DAG (filtered variants) */
    int lv0, lv1;                /* item range of the level in this launch */
    int n_flat;                  /* flattened DAG links */
    const int *it_dest, *it_node, *it_l0, *it_l1, *it_i0, *it_i1;
    const int *fl_link, *fl_dest, *in_k, *red_start, *red_k;
    /* reductions, copies */
    const double *src;
    double *dst, *part, *red;
    long len;
    int red_mode;
    double fill;
    /* exact full-graph inner solves (batched BiCGSTAB, see gpu.c) */
    const double *dist;          /* [n_dest * n] shortest distance to each destination */
    const double *coef;          /* [n_dest * m] matrix weights by CSR position (w~ or P) */
    const double *mx, *rhs;      /* mat-vec input, right-hand side (NULL: y = A x) */
    double *my;                  /* mat-vec output */
    double *bx, *br, *brh, *bp, *bv, *bs, *bt, *bb; /* [n_dest * n] solver vectors */
    const double *bph, *bsh;     /* preconditioned p and s */
    double *sc;                  /* [n_dest * DSG_SC_N] per-destination scalars */
    int *act;                    /* [n_dest] DSG_ACT_* */
    int *keep;                   /* [n_dest] DSG_KEEP_*: the best iterate's copy (bk_keep) */
    double *bxb;                 /* [n_dest * n] the best iterate of each destination */
    const double *da0, *db0, *da1, *db1; /* dot products: (da0, db0) and optionally (da1, db1) */
    double *dpart, *dred;        /* [n_dest * 2 * DSG_BLOCK], [n_dest * 2] */
    const double *scale;         /* [n_dest] per-destination scale of the residual test */
    int nbn;                     /* blocks per destination in [destination x node] launches */
} dsg_k;

/* The cost of CSR position k (link e) in destination d's problem: t, plus the
 * relax penalty off d's DSP DAG (g = d * m + k). */
DSK_FN double dsg_t_dk(const dsg_k *p, long g, int e)
{
    return p->rdag ? dsk_relax_cost(p->t[e], p->rdag[g], p->rpen) : p->t[e];
}

/* Per-destination state of the batched BiCGSTAB. */
enum { DSG_SC_RHO = 0, DSG_SC_ALPHA, DSG_SC_OMEGA, DSG_SC_BETA, DSG_SC_N };
enum { DSG_ACT_DONE = 0, DSG_ACT_RUN = 1, DSG_ACT_RESTART = 2 };
enum { DSG_KEEP_NONE = 0, DSG_KEEP_SAVE = 1, DSG_KEEP_RESTORE = 2 };
/* Residual test floor: |r(u)| is measured against |x(u)| + DSG_RES_FLOOR max|x|. */
#define DSG_RES_FLOOR 1e-3
/* Largest warm start of z taken (see dsg_k_zinit_full). */
#define DSG_Z0_MAX 1e8

/* ------------------------------------------------------------------ costs */

DSK_FN void dsg_k_costs(const dsg_k *p, int b, int th)
{
    int e = b * DSG_BLOCK + th;
    if (e >= p->m) return;
    p->t[e] = dsk_cost(p->x[e], p->cap_c[e], p->t0[e], p->bpr_b[e], p->bpr_p[e], p->cap, p->fixed[e]);
}

/* dt_e v_e, the cost direction of J v (same product order as loader_jv.c). */
DSK_FN void dsg_k_dtv(const dsg_k *p, int b, int th)
{
    int e = b * DSG_BLOCK + th;
    double d;
    if (e >= p->m) return;
    d = dsk_cost_deriv(p->x[e], p->cap_c[e], p->t0[e], p->bpr_b[e], p->bpr_p[e], p->cap);
    p->dtv[e] = d * p->v[e];
}

/* ------------------------------------------------------- generic helpers */

DSK_FN void dsg_k_fill(const dsg_k *p, int b, int th)
{
    long g = (long)b * DSG_BLOCK + th;
    if (g < p->len) p->dst[g] = p->fill;
}

DSK_FN void dsg_k_copy(const dsg_k *p, int b, int th)
{
    long g = (long)b * DSG_BLOCK + th;
    if (g < p->len) p->dst[g] = p->src[g];
}

/* Per-destination reduction, stage 1: block d, thread th folds elements
 * th, th + DSG_BLOCK, ... of row d of src (row length len). */
DSK_FN void dsg_k_red1(const dsg_k *p, int b, int th)
{
    const double *row = p->src + (long)b * p->len;
    double acc = 0;
    if (b >= p->n_dest) return;
    for (long i = th; i < p->len; i += DSG_BLOCK) {
        double x = row[i];
        x = x < 0 ? -x : x;
        acc = p->red_mode == DSG_RED_MAXABS ? dsk_max_nan(acc, x) : acc + x;
    }
    p->part[(long)b * DSG_BLOCK + th] = acc;
}

/* Stage 2: one thread per destination folds its DSG_BLOCK partials in order. */
DSK_FN void dsg_k_red2(const dsg_k *p, int b, int th)
{
    int d = b * DSG_BLOCK + th;
    double acc = 0;
    if (d >= p->n_dest) return;
    for (int i = 0; i < DSG_BLOCK; i++) {
        double x = p->part[(long)d * DSG_BLOCK + i];
        acc = p->red_mode == DSG_RED_MAXABS ? dsk_max_nan(acc, x) : acc + x;
    }
    p->red[d] = acc;
}

/* ------------------------------------------------------------ full graph */

/* One synchronous (Jacobi) Bellman pass, all destinations at once: thread
 * (d, u) sets V_out(u) = logsumexp over usable out-links of -mu t_e + V_in(v).
 * With want_p it also leaves the normalized choice probabilities in P. */
DSK_FN void dsg_k_bell_full(const dsg_k *p, int b, int th)
{
    long g = (long)b * DSG_BLOCK + th;
    int d, u, k0, k1;
    double vnew, sum;
    const double *vin;
    double *a, *ex;
    if (g >= (long)p->n_dest * p->n) return;
    d = (int)(g / p->n);
    u = (int)(g % p->n);
    k0 = p->out_start[u];
    k1 = p->out_start[u + 1];
    if (u == p->dest_node[d]) {
        /* the destination absorbs: no choice there (P = 0 keeps the flow sums finite) */
        if (p->want_p)
            for (int k = k0; k < k1; k++) p->P[(long)d * p->m + k] = 0;
        p->vout[g] = 0;
        p->delta[g] = 0;
        return;
    }
    vin = p->vin + (long)d * p->n;
    a = p->A + (long)d * p->m;
    ex = p->want_p ? p->P + (long)d * p->m : a;
    for (int k = k0; k < k1; k++) {
        int e = p->out_link[k];
        long g = (long)d * p->m + k;
        a[k] = p->usable[g] ? dsk_bellman_term(p->mu, dsg_t_dk(p, g, e), vin[p->head[e]]) : -INFINITY;
    }
    if (k1 > k0) {
        vnew = dsk_logsumexp(a + k0, k1 - k0, ex + k0, &sum);
        if (p->want_p)
            for (int k = k0; k < k1; k++) ex[k] = dsk_prob_norm(ex[k], sum);
    } else {
        vnew = -INFINITY;
    }
    p->vout[g] = vnew;
    p->delta[g] = dsk_log_change(vnew, p->vin[g]);
}

/* One Jacobi absorption pass in pull form: the mass r_out(v) arriving at v
 * this pass is what its in-links carry from r_in; it is added to phi(v). The
 * destination absorbs (r_out = 0 there). Used for the demand (phi) and for
 * its derivative (phi = dphi, P the same). */
DSK_FN void dsg_k_abs_full(const dsg_k *p, int b, int th)
{
    long g = (long)b * DSG_BLOCK + th;
    int d, v;
    double acc = 0;
    if (g >= (long)p->n_dest * p->n) return;
    d = (int)(g / p->n);
    v = (int)(g % p->n);
    if (v == p->dest_node[d]) {
        p->rout[g] = 0;
        return;
    }
    for (int j = p->in_start[v]; j < p->in_start[v + 1]; j++) {
        int e = p->in_link[j];
        acc += p->P[(long)d * p->m + p->pos[e]] * p->rin[(long)d * p->n + p->tail[e]];
    }
    p->rout[g] = acc;
    p->phi[g] += acc;
}

/* f_e = sum over destinations, in order, of P_e phi(tail). */
DSK_FN void dsg_k_flow_full(const dsg_k *p, int b, int th)
{
    int e = b * DSG_BLOCK + th;
    double acc = 0;
    if (e >= p->m) return;
    for (int d = 0; d < p->n_dest; d++)
        acc += p->P[(long)d * p->m + p->pos[e]] * p->phi_c[(long)d * p->n + p->tail[e]];
    p->f[e] = acc;
}

/* Jacobi pass of the linear Bellman derivative dV(u) = sum P_e (dV(v) - mu dt_e). */
DSK_FN void dsg_k_dv_full(const dsg_k *p, int b, int th)
{
    long g = (long)b * DSG_BLOCK + th;
    int d, u;
    double acc = 0;
    if (g >= (long)p->n_dest * p->n) return;
    d = (int)(g / p->n);
    u = (int)(g % p->n);
    if (u != p->dest_node[d])
        for (int k = p->out_start[u]; k < p->out_start[u + 1]; k++) {
            int e = p->out_link[k];
            if (!p->usable[(long)d * p->m + k]) continue;
            acc += dsk_dv_term(p->P[(long)d * p->m + k], p->vin[(long)d * p->n + p->head[e]], p->mu, p->dtv[e]);
        }
    p->vout[g] = acc;
    p->delta[g] = dsk_log_change(acc, p->vin[g]);
}

/* dP for every (destination, CSR position). */
DSK_FN void dsg_k_dp_full(const dsg_k *p, int b, int th)
{
    long g = (long)b * DSG_BLOCK + th;
    int d, k, e;
    if (g >= (long)p->n_dest * p->m) return;
    d = (int)(g / p->m);
    k = (int)(g % p->m);
    e = p->out_link[k];
    p->dP[g] = p->usable[g] ? dsk_dprob(p->P[g], p->vin[(long)d * p->n + p->head[e]],
                                        p->vin[(long)d * p->n + p->tail[e]], p->mu, p->dtv[e])
                            : 0.0;
}

/* Source of the absorption derivative: s(v) = sum over in-links dP_e phi(u);
 * it starts both the mass in transit and dphi. */
DSK_FN void dsg_k_src_full(const dsg_k *p, int b, int th)
{
    long g = (long)b * DSG_BLOCK + th;
    int d, v;
    double acc = 0;
    if (g >= (long)p->n_dest * p->n) return;
    d = (int)(g / p->n);
    v = (int)(g % p->n);
    if (v != p->dest_node[d])
        for (int j = p->in_start[v]; j < p->in_start[v + 1]; j++) {
            int e = p->in_link[j];
            acc += p->dP[(long)d * p->m + p->pos[e]] * p->phi_c[(long)d * p->n + p->tail[e]];
        }
    p->rout[g] = acc;
    p->dphi[g] = acc;
}

/* (J v)_e = sum over destinations, in order, of dP_e phi(u) + P_e dphi(u). */
DSK_FN void dsg_k_jv_full(const dsg_k *p, int b, int th)
{
    int e = b * DSG_BLOCK + th;
    double acc = 0;
    if (e >= p->m) return;
    for (int d = 0; d < p->n_dest; d++) {
        long k = (long)d * p->m + p->pos[e], u = (long)d * p->n + p->tail[e];
        acc += dsk_dflow(p->P[k], p->dP[k], p->phi_c[u], p->dphi[u]);
    }
    p->f[e] = acc;
}

/* -------------------------------------------------------- DAG, by levels */

/* Exact log-domain Bellman step for the items of one level (all
 * destinations): the same code as the CPU's eval_dag, heads are lower levels. */
DSK_FN void dsg_k_bell_dag(const dsg_k *p, int b, int th)
{
    int i = p->lv0 + b * DSG_BLOCK + th, d, u, a0, a1;
    double *V, sum;
    if (i >= p->lv1) return;
    d = p->it_dest[i];
    u = p->it_node[i];
    a0 = p->it_l0[i];
    a1 = p->it_l1[i];
    V = p->vout + (long)d * p->n;
    if (u == p->dest_node[d]) {
        V[u] = 0;
        return;
    }
    for (int k = a0; k < a1; k++) {
        int e = p->fl_link[k];
        p->A[k] = dsk_bellman_term(p->mu, p->t[e], V[p->head[e]]);
    }
    if (a1 > a0) {
        V[u] = dsk_logsumexp(p->A + a0, a1 - a0, p->P + a0, &sum);
        for (int k = a0; k < a1; k++) p->P[k] = dsk_prob_norm(p->P[k], sum);
    } else {
        V[u] = -INFINITY;
    }
}

/* Absorption for one level, top down: phi(v) = q(v) + sum over DAG in-links
 * P_e phi(u); tails are higher levels, done in earlier launches. */
DSK_FN void dsg_k_abs_dag(const dsg_k *p, int b, int th)
{
    int i = p->lv0 + b * DSG_BLOCK + th, d, v;
    double acc;
    if (i >= p->lv1) return;
    d = p->it_dest[i];
    v = p->it_node[i];
    acc = p->Q[(long)d * p->n + v];
    for (int j = p->it_i0[i]; j < p->it_i1[i]; j++) {
        int k = p->in_k[j];
        acc += p->P[k] * p->phi[(long)d * p->n + p->tail[p->fl_link[k]]];
    }
    p->phi[(long)d * p->n + v] = acc;
}

/* f_e = sum over the DAG copies of link e (destination order) of P phi(tail). */
DSK_FN void dsg_k_flow_dag(const dsg_k *p, int b, int th)
{
    int e = b * DSG_BLOCK + th;
    double acc = 0;
    if (e >= p->m) return;
    for (int j = p->red_start[e]; j < p->red_start[e + 1]; j++) {
        int k = p->red_k[j];
        acc += p->P[k] * p->phi_c[(long)p->fl_dest[k] * p->n + p->tail[e]];
    }
    p->f[e] = acc;
}

/* The demand that reached each destination (the certificate's arrivals, as the
 * CPU's loader counts them): on the full graph what the destination's in-links
 * carry, sum of P_e phi(tail), in in-link order; on a DAG the destination's own
 * phi (it absorbs what its in-links bring). One thread per destination, into dst. */
DSK_FN void dsg_k_arr_full(const dsg_k *p, int b, int th)
{
    int d = b * DSG_BLOCK + th, v;
    double acc = 0;
    if (d >= p->n_dest) return;
    v = p->dest_node[d];
    for (int j = p->in_start[v]; j < p->in_start[v + 1]; j++) {
        int e = p->in_link[j];
        acc += p->P[(long)d * p->m + p->pos[e]] * p->phi_c[(long)d * p->n + p->tail[e]];
    }
    p->dst[d] = acc;
}

DSK_FN void dsg_k_arr_dag(const dsg_k *p, int b, int th)
{
    int d = b * DSG_BLOCK + th;
    if (d >= p->n_dest) return;
    p->dst[d] = p->phi_c[(long)d * p->n + p->dest_node[d]];
}

/* Bellman derivative for one level, bottom up (dV = 0 at the destination). */
DSK_FN void dsg_k_dv_dag(const dsg_k *p, int b, int th)
{
    int i = p->lv0 + b * DSG_BLOCK + th, d, u;
    double acc = 0, *dV;
    if (i >= p->lv1) return;
    d = p->it_dest[i];
    u = p->it_node[i];
    dV = p->vout + (long)d * p->n;
    if (u != p->dest_node[d])
        for (int k = p->it_l0[i]; k < p->it_l1[i]; k++) {
            int e = p->fl_link[k];
            acc += dsk_dv_term(p->P[k], dV[p->head[e]], p->mu, p->dtv[e]);
        }
    dV[u] = acc;
}

DSK_FN void dsg_k_dp_dag(const dsg_k *p, int b, int th)
{
    int k = b * DSG_BLOCK + th, e;
    const double *dV;
    if (k >= p->n_flat) return;
    e = p->fl_link[k];
    dV = p->vin + (long)p->fl_dest[k] * p->n;
    p->dP[k] = dsk_dprob(p->P[k], dV[p->head[e]], dV[p->tail[e]], p->mu, p->dtv[e]);
}

/* Absorption derivative for one level, top down:
 * dphi(v) = sum over in-links dP_e phi(u) + P_e dphi(u). */
DSK_FN void dsg_k_dphi_dag(const dsg_k *p, int b, int th)
{
    int i = p->lv0 + b * DSG_BLOCK + th, d, v;
    double acc = 0;
    if (i >= p->lv1) return;
    d = p->it_dest[i];
    v = p->it_node[i];
    for (int j = p->it_i0[i]; j < p->it_i1[i]; j++) {
        int k = p->in_k[j];
        long u = (long)d * p->n + p->tail[p->fl_link[k]];
        acc += dsk_dflow(p->P[k], p->dP[k], p->phi_c[u], p->dphi[u]);
    }
    p->dphi[(long)d * p->n + v] = acc;
}

DSK_FN void dsg_k_jv_dag(const dsg_k *p, int b, int th)
{
    int e = b * DSG_BLOCK + th;
    double acc = 0;
    if (e >= p->m) return;
    for (int j = p->red_start[e]; j < p->red_start[e + 1]; j++) {
        int k = p->red_k[j];
        long u = (long)p->fl_dest[k] * p->n + p->tail[e];
        acc += dsk_dflow(p->P[k], p->dP[k], p->phi_c[u], p->dphi[u]);
    }
    p->f[e] = acc;
}

/* ------------------------------------- full graph, exact inner solves */

/* The exponentiated form of loader_direct.c, solved by a batched Krylov
 * method: per destination d, with D the shortest distance to d at the current
 * costs and w~_e = exp(-mu (t_e + D(v) - D(u))) in (0,1], z = exp(V + mu D)
 * solves (I - W~) z = b, b(u) = sum of w~ over usable links u -> d; then
 * P_e = w~_e z(v) / z(u); the absorption solves (I - P^T) phi = q; J v solves
 * (I - P) dV = b1 and (I - P^T) dphi = s. Row d of every system is the
 * identity with a zero right-hand side (x(d) = 0: the destination's own value
 * enters through b), nodes that cannot reach d have all-zero weights (x = 0). */

/* Thread (b, th) of a launch of n_dest x nbn blocks (gpu.c: launch_dn), nbn
 * blocks per destination: its destination d, node u and flat index g; 0 if it
 * has none. (The destination comes from the block alone, so the emulation's
 * block loop hoists the division out of the thread loop.) */
DSK_FN int dsg_dn(const dsg_k *p, int b, int th, long *g, int *d, int *u)
{
    *d = b / p->nbn;
    *u = (b - *d * p->nbn) * DSG_BLOCK + th;
    if (*d >= p->n_dest || *u >= p->n) return 0;
    *g = (long)*d * p->n + *u;
    return 1;
}

/* The same for the BiCGSTAB vector updates, which skip destinations that are
 * done: the destination, or -1. */
DSK_FN long dsg_run(const dsg_k *p, int b, int th, long *g)
{
    int d, u;
    if (!dsg_dn(p, b, th, g, &d, &u)) return -1;
    return p->act[d] == DSG_ACT_RUN ? d : -1;
}

/* One synchronous Bellman-Ford (min-plus) pass of the shortest distance to d,
 * from D = +inf, 0 at d: D_out(u) = min over usable out-links of D_in(v) + t_e
 * (the sum Dijkstra forms). Exact after (longest shortest path in links) + 1
 * passes; delta(u) = 0 once D(u) stopped changing. */
DSK_FN void dsg_k_sp_full(const dsg_k *p, int b, int th)
{
    long g;
    int d, u;
    double best = INFINITY;
    const double *din;
    if (!dsg_dn(p, b, th, &g, &d, &u)) return;
    din = p->vin + (long)d * p->n;
    if (u == p->dest_node[d]) {
        best = 0;
    } else {
        for (int k = p->out_start[u]; k < p->out_start[u + 1]; k++) {
            int e = p->out_link[k];
            double dv = din[p->head[e]];
            if (!p->usable[(long)d * p->m + k] || !(dv < INFINITY)) continue;
            dv = dv + dsg_t_dk(p, (long)d * p->m + k, e);
            if (dv < best) best = dv;
        }
    }
    p->vout[g] = best;
    p->delta[g] = dsk_log_change(best, din[u]);
}

/* Reduced weights w~ for every (destination, CSR position); 0 for links that
 * may not be used or touch a node that cannot reach d. */
DSK_FN void dsg_k_wred_full(const dsg_k *p, int b, int th)
{
    long g = (long)b * DSG_BLOCK + th;
    int d, k, e;
    double du, dv;
    if (g >= (long)p->n_dest * p->m) return;
    d = (int)(g / p->m);
    k = (int)(g % p->m);
    e = p->out_link[k];
    du = p->dist[(long)d * p->n + p->tail[e]];
    dv = p->dist[(long)d * p->n + p->head[e]];
    p->A[g] = (p->usable[g] && du < INFINITY && dv < INFINITY) ? dsk_reduced_weight(p->mu, dsg_t_dk(p, g, e), dv, du)
                                                                : 0.0;
}

/* Right-hand side b(u) = sum of w~ over links u -> d, and the start z from
 * the previous values V (vin): dsk_z_start, as the CPU's passes, except that a
 * start above DSG_Z0_MAX (the costs rose far since V was computed: a stale
 * estimate, and one whose squared residual could overflow the dot products)
 * is replaced by 1, the value of the shortest route alone. */
DSK_FN void dsg_k_zinit_full(const dsg_k *p, int b, int th)
{
    long g;
    int d, u, dn;
    double acc = 0, z0;
    if (!dsg_dn(p, b, th, &g, &d, &u)) return;
    dn = p->dest_node[d];
    if (u == dn || !(p->dist[g] < INFINITY)) {
        p->bb[g] = 0;
        p->bx[g] = 0;
        return;
    }
    for (int k = p->out_start[u]; k < p->out_start[u + 1]; k++)
        if (p->head[p->out_link[k]] == dn) acc += p->A[(long)d * p->m + k];
    p->bb[g] = acc;
    z0 = dsk_z_start(p->vin[g], p->mu, p->dist[g]);
    p->bx[g] = z0 <= DSG_Z0_MAX ? z0 : 1.0;
}

/* y = (I - C) x, or y = rhs - (I - C) x: pull over out-links (C by CSR
 * position). Row d is the identity. */
DSK_FN void dsg_k_mv_out(const dsg_k *p, int b, int th)
{
    long g;
    int d, u;
    double acc = 0, y;
    const double *x;
    if (!dsg_dn(p, b, th, &g, &d, &u)) return;
    x = p->mx + (long)d * p->n;
    if (u != p->dest_node[d])
        for (int k = p->out_start[u]; k < p->out_start[u + 1]; k++)
            acc += p->coef[(long)d * p->m + k] * x[p->head[p->out_link[k]]];
    y = x[u] - acc;
    p->my[g] = p->rhs ? p->rhs[g] - y : y;
}

/* y = (I - C^T) x, or y = rhs - (I - C^T) x: pull over in-links. Row d is
 * the identity. */
DSK_FN void dsg_k_mv_in(const dsg_k *p, int b, int th)
{
    long g;
    int d, v;
    double acc = 0, y;
    const double *x;
    if (!dsg_dn(p, b, th, &g, &d, &v)) return;
    x = p->mx + (long)d * p->n;
    if (v != p->dest_node[d])
        for (int j = p->in_start[v]; j < p->in_start[v + 1]; j++) {
            int e = p->in_link[j];
            acc += p->coef[(long)d * p->m + p->pos[e]] * x[p->tail[e]];
        }
    y = x[v] - acc;
    p->my[g] = p->rhs ? p->rhs[g] - y : y;
}

/* Per-destination dot products, stage 1: block d, thread th folds elements
 * th, th + DSG_BLOCK, ... of (da0 . db0) and, if da1, (da1 . db1). */
DSK_FN void dsg_k_dot1(const dsg_k *p, int b, int th)
{
    long o = (long)b * p->n;
    double a0 = 0, a1 = 0;
    if (b >= p->n_dest) return;
    for (long i = th; i < p->n; i += DSG_BLOCK) {
        a0 += p->da0[o + i] * p->db0[o + i];
        if (p->da1) a1 += p->da1[o + i] * p->db1[o + i];
    }
    p->dpart[((long)b * 2) * DSG_BLOCK + th] = a0;
    p->dpart[((long)b * 2 + 1) * DSG_BLOCK + th] = a1;
}

/* Stage 2: one thread per (destination, product) folds the partials in order. */
DSK_FN void dsg_k_dot2(const dsg_k *p, int b, int th)
{
    long i = (long)b * DSG_BLOCK + th;
    double acc = 0;
    if (i >= 2L * p->n_dest) return;
    for (int j = 0; j < DSG_BLOCK; j++) acc += p->dpart[i * DSG_BLOCK + j];
    p->dred[i] = acc;
}

/* BiCGSTAB, all destinations in lock step; a destination that is done (or
 * waits for a restart) is left untouched. Scalars, after (rhat . r):
 * beta = (rho_new / rho)(alpha / omega). A zero or non-finite denominator is a
 * breakdown: the step becomes a no-op and the host restarts that destination
 * from its current residual at the next check. */
DSK_FN void dsg_k_sc_beta(const dsg_k *p, int b, int th)
{
    int d = b * DSG_BLOCK + th;
    double *s, rn;
    if (d >= p->n_dest || p->act[d] != DSG_ACT_RUN) return;
    s = p->sc + (long)d * DSG_SC_N;
    rn = p->dred[2 * d];
    if (rn == 0 || s[DSG_SC_OMEGA] == 0 || s[DSG_SC_RHO] == 0 || !(rn - rn == 0)) {
        s[DSG_SC_BETA] = s[DSG_SC_ALPHA] = s[DSG_SC_OMEGA] = 0;
        p->act[d] = DSG_ACT_RESTART;
        return;
    }
    s[DSG_SC_BETA] = (rn / s[DSG_SC_RHO]) * (s[DSG_SC_ALPHA] / s[DSG_SC_OMEGA]);
    s[DSG_SC_RHO] = rn;
}

/* p = r + beta (p - omega v) */
DSK_FN void dsg_k_bk_p(const dsg_k *p, int b, int th)
{
    long g, d = dsg_run(p, b, th, &g);
    const double *s;
    if (d < 0) return;
    s = p->sc + d * DSG_SC_N;
    p->bp[g] = p->br[g] + s[DSG_SC_BETA] * (p->bp[g] - s[DSG_SC_OMEGA] * p->bv[g]);
}

/* after (rhat . v): alpha = rho / (rhat . v) */
DSK_FN void dsg_k_sc_alpha(const dsg_k *p, int b, int th)
{
    int d = b * DSG_BLOCK + th;
    double *s, den;
    if (d >= p->n_dest || p->act[d] != DSG_ACT_RUN) return;
    s = p->sc + (long)d * DSG_SC_N;
    den = p->dred[2 * d];
    s[DSG_SC_ALPHA] = (den != 0 && den - den == 0) ? s[DSG_SC_RHO] / den : 0.0;
    if (!(s[DSG_SC_ALPHA] - s[DSG_SC_ALPHA] == 0) || s[DSG_SC_ALPHA] == 0) {
        s[DSG_SC_ALPHA] = 0;
        p->act[d] = DSG_ACT_RESTART;
    }
}

/* s = r - alpha v */
DSK_FN void dsg_k_bk_s(const dsg_k *p, int b, int th)
{
    long g, d = dsg_run(p, b, th, &g);
    if (d < 0) return;
    p->bs[g] = p->br[g] - p->sc[d * DSG_SC_N + DSG_SC_ALPHA] * p->bv[g];
}

/* after (t . s) and (t . t): omega = (t . s) / (t . t) */
DSK_FN void dsg_k_sc_omega(const dsg_k *p, int b, int th)
{
    int d = b * DSG_BLOCK + th;
    double *s, ts, tt;
    if (d >= p->n_dest || p->act[d] != DSG_ACT_RUN) return;
    s = p->sc + (long)d * DSG_SC_N;
    ts = p->dred[2 * d];
    tt = p->dred[2 * d + 1];
    s[DSG_SC_OMEGA] = (tt > 0 && tt - tt == 0 && ts - ts == 0) ? ts / tt : 0.0;
}

/* x += alpha M^-1 p + omega M^-1 s; r = s - omega t (a zero omega: the next beta restarts) */
DSK_FN void dsg_k_bk_xr(const dsg_k *p, int b, int th)
{
    long g, d = dsg_run(p, b, th, &g);
    const double *s;
    if (d < 0) return;
    s = p->sc + d * DSG_SC_N;
    p->bx[g] += s[DSG_SC_ALPHA] * p->bph[g] + s[DSG_SC_OMEGA] * p->bsh[g];
    p->br[g] = p->bs[g] - s[DSG_SC_OMEGA] * p->bt[g];
}

/* (Re)start the destinations marked DSG_ACT_RESTART from their current
 * residual: rhat = r, p = v = 0; then bk_rs_sc resets their scalars. */
DSK_FN void dsg_k_bk_rs_vec(const dsg_k *p, int b, int th)
{
    long g;
    int d, u;
    if (!dsg_dn(p, b, th, &g, &d, &u) || p->act[d] != DSG_ACT_RESTART) return;
    p->brh[g] = p->br[g];
    p->bp[g] = 0;
    p->bv[g] = 0;
}

DSK_FN void dsg_k_bk_rs_sc(const dsg_k *p, int b, int th)
{
    int d = b * DSG_BLOCK + th;
    double *s;
    if (d >= p->n_dest || p->act[d] != DSG_ACT_RESTART) return;
    s = p->sc + (long)d * DSG_SC_N;
    s[DSG_SC_RHO] = s[DSG_SC_ALPHA] = s[DSG_SC_OMEGA] = 1;
    s[DSG_SC_BETA] = 0;
    p->act[d] = DSG_ACT_RUN;
}

/* The best iterate of each destination: saved (x -> bxb) where keep says
 * DSG_KEEP_SAVE, restored (bxb -> x) where it says DSG_KEEP_RESTORE. */
DSK_FN void dsg_k_bk_keep(const dsg_k *p, int b, int th)
{
    long g;
    int d, u;
    if (!dsg_dn(p, b, th, &g, &d, &u)) return;
    if (p->keep[d] == DSG_KEEP_SAVE)
        p->bxb[g] = p->bx[g];
    else if (p->keep[d] == DSG_KEEP_RESTORE)
        p->bx[g] = p->bxb[g];
}

/* Scaled residual per node, |r(u)| / (|x(u)| + DSG_RES_FLOOR max|x|), the
 * destination's max|x| in scale[]; NaN stays NaN. */
DSK_FN void dsg_k_kres(const dsg_k *p, int b, int th)
{
    long g;
    int d, u;
    double r, x, den;
    if (!dsg_dn(p, b, th, &g, &d, &u)) return;
    r = p->br[g];
    x = p->bx[g];
    r = r < 0 ? -r : r;
    x = x < 0 ? -x : x;
    den = x + DSG_RES_FLOOR * p->scale[d];
    p->delta[g] = den > 0 ? r / den : r;
}

/* Existence test (loader_direct.c): the solution is z >= 1 at every node that
 * reaches d iff the spectral radius of W~ is below 1. delta(u) = 1 where it
 * fails (NaN and overflow included), else 0. */
DSK_FN void dsg_k_zcheck(const dsg_k *p, int b, int th)
{
    long g;
    int d, u;
    double z;
    if (!dsg_dn(p, b, th, &g, &d, &u)) return;
    z = p->bx[g];
    p->delta[g] = (u == p->dest_node[d] || !(p->dist[g] < INFINITY) || dsk_z_exists(z)) ? 0.0 : 1.0;
}

/* Choice probabilities P = w~ z(v) / z(u) (z(d) = 1), 0 on links not used. */
DSK_FN void dsg_k_prob_full(const dsg_k *p, int b, int th)
{
    long g = (long)b * DSG_BLOCK + th;
    int d, k, e, v;
    double zv;
    if (g >= (long)p->n_dest * p->m) return;
    d = (int)(g / p->m);
    k = (int)(g % p->m);
    if (p->A[g] == 0) {
        p->P[g] = 0;
        return;
    }
    e = p->out_link[k];
    v = p->head[e];
    zv = v == p->dest_node[d] ? 1.0 : p->bx[(long)d * p->n + v];
    p->P[g] = dsk_choice_prob(p->A[g], zv, p->bx[(long)d * p->n + p->tail[e]]);
}

/* Log-domain values V = log z - mu D (the warm start of the next call):
 * 0 at d, -inf where d cannot be reached. */
DSK_FN void dsg_k_vz_full(const dsg_k *p, int b, int th)
{
    long g;
    int d, u;
    if (!dsg_dn(p, b, th, &g, &d, &u)) return;
    if (u == p->dest_node[d])
        p->vout[g] = 0;
    else
        p->vout[g] = p->dist[g] < INFINITY ? dsk_v_from_z(p->bx[g], p->mu, p->dist[g]) : -INFINITY;
}

/* Preconditioner M = I - L, L the matrix weights on the free-flow down-links
 * (a DAG, flattened by level like the filtered variants'), y = M^-1 r exactly:
 * y starts as a copy of r; one launch per level, bottom up, sets y(u) = r(u) +
 * sum over u's DAG links of C_e y(v) (heads are lower levels). */
DSK_FN void dsg_k_pc_out(const dsg_k *p, int b, int th)
{
    int i = p->lv0 + b * DSG_BLOCK + th, d, u;
    double acc;
    const double *y;
    if (i >= p->lv1) return;
    d = p->it_dest[i];
    u = p->it_node[i];
    if (u == p->dest_node[d]) return;
    y = p->my + (long)d * p->n;
    acc = p->mx[(long)d * p->n + u];
    for (int k = p->it_l0[i]; k < p->it_l1[i]; k++) {
        int e = p->fl_link[k];
        acc += p->coef[(long)d * p->m + p->pos[e]] * y[p->head[e]];
    }
    p->my[(long)d * p->n + u] = acc;
}

/* The transpose, M = I - L^T, top down: y(v) = r(v) + sum over v's DAG
 * in-links of C_e y(u) (tails are higher levels). */
DSK_FN void dsg_k_pc_in(const dsg_k *p, int b, int th)
{
    int i = p->lv0 + b * DSG_BLOCK + th, d, v;
    double acc;
    const double *y;
    if (i >= p->lv1) return;
    d = p->it_dest[i];
    v = p->it_node[i];
    if (v == p->dest_node[d]) return;
    y = p->my + (long)d * p->n;
    acc = p->mx[(long)d * p->n + v];
    for (int j = p->it_i0[i]; j < p->it_i1[i]; j++) {
        int e = p->fl_link[p->in_k[j]];
        acc += p->coef[(long)d * p->m + p->pos[e]] * y[p->tail[e]];
    }
    p->my[(long)d * p->n + v] = acc;
}

/* Right-hand side of the Bellman derivative, b1(u) = sum over used links of
 * P_e (0 - mu dt_e): dsk_dv_term with dV(v) moved to the left-hand side. */
DSK_FN void dsg_k_dvrhs_full(const dsg_k *p, int b, int th)
{
    long g;
    int d, u;
    double acc = 0;
    if (!dsg_dn(p, b, th, &g, &d, &u)) return;
    if (u != p->dest_node[d])
        for (int k = p->out_start[u]; k < p->out_start[u + 1]; k++)
            if (p->usable[(long)d * p->m + k])
                acc += dsk_dv_term(p->P[(long)d * p->m + k], 0.0, p->mu, p->dtv[p->out_link[k]]);
    p->bb[g] = acc;
}

/* Every kernel, once: X(name). The CUDA file makes a __global__ launcher of
 * each, the emulation a grid loop; both dispatch on DSG_KID_<name>. */
#define DSG_KERNELS(X)                                                                                              \
    X(costs) X(dtv) X(fill) X(copy) X(red1) X(red2) X(bell_full) X(abs_full) X(flow_full) X(dv_full)    \
        X(dp_full) X(src_full) X(jv_full) X(bell_dag) X(abs_dag) X(flow_dag) X(dv_dag) X(dp_dag) X(dphi_dag)       \
            X(jv_dag) X(sp_full) X(wred_full) X(zinit_full) X(mv_out) X(mv_in) X(dot1) X(dot2) X(sc_beta)        \
                X(bk_p) X(sc_alpha) X(bk_s) X(sc_omega) X(bk_xr) X(bk_rs_vec) X(bk_rs_sc) X(bk_keep) X(kres) X(zcheck)\
                    X(prob_full) X(vz_full) X(dvrhs_full) X(pc_out) X(pc_in) X(arr_full) X(arr_dag)

#define DSG_KID_ENUM(name) DSG_KID_##name,
enum { DSG_KERNELS(DSG_KID_ENUM) DSG_KID_N };
#undef DSG_KID_ENUM
#endif
