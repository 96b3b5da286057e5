/* loader_direct.c - exact full-graph inner problems by sparse LU (KLU).
 *
 * With D the shortest distance to d at the current costs and reduced weights
 * w~_e = exp(-mu (t_e + D(v) - D(u))) in (0,1], the exponentiated values
 * z = exp(V + mu D) solve the sparse system (I - W~) z = b, b_u = sum of w~
 * over links u -> d. One factorisation per destination and evaluation gives
 *   - the values exactly (no pass budget, no truncation),
 *   - an exact existence test: (I - W~) z = b >= 0 has a solution z > 0 iff
 *     the spectral radius of W~ (= that of exp(-mu t)) is below 1 (Collatz-
 *     Wielandt, every node reaching d), so z >= 1 everywhere or "no fixed point",
 *   - the absorption: P = Z^-1 W~ Z, so (I - P^T) phi = q is
 *     phi = Z (I - W~^T)^-1 Z^-1 q, a transposed solve with the same factors,
 *   - and the two linear solves of J v, with the same factors again.
 * The sparsity pattern depends on the network only, so KLU's symbolic analysis
 * (BTF + AMD ordering) is done once per destination.
 */
#include <klu.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "clock.h"
#include "loader_int.h"

typedef struct ld_direct {
    int nn, nl, nnz;
    int *node;               /* [nn] index -> node */
    int *Ap, *Ai;            /* CSC of I - W~, [nn+1], [nnz] */
    int *dpos;               /* [nn] position of the diagonal entry of each column */
    int *lk, *pos, *ti, *hi; /* [nl] link, its entry (-1: head is d), tail index, head index (-1: d) */
    klu_symbolic *sym;
    /* kept for J v */
    klu_numeric *num;
    double *z, *phi, *P; /* [nn], [nn], [nl] */
} ld_direct;

struct ld_direct_all {
    ld_direct *d;               /* [n_dest] */
    klu_common *common;         /* per worker */
    double **Ax, **b, **y, **w; /* per worker scratch: [max nnz], [max nn], [max nn], [max nl] */
    int **idx;                  /* per worker: node -> index, [n] */
    int max_nn, max_nnz, max_nl;
    unsigned char *keep_num; /* [n_dest] keep this destination's factors between evaluations
                                (refactor with its pivot order; J v from them) */
    double factor_bytes;     /* estimated memory of the kept factors */
    int n_kept;
};

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Pattern and symbolic analysis for one destination. */
static int build_one(ds_loader *ld, int di, ld_scratch *s, klu_common *c, ld_direct *g)
{
    const ds_network *net = ld->net;
    int d = net->dest_node[di], n = net->n_nodes;
    int R = sp_bfs_to(net, d, s->hops, s->order, s->order);
    int *idx = s->rank, nn = R - 1, nl = 0, nnz = 0;
    for (int i = 0; i < n; i++) idx[i] = -2; /* unreachable */
    idx[d] = -1;
    g->nn = nn;
    g->node = malloc(sizeof(int) * (size_t)(nn > 0 ? nn : 1));
    if (!g->node) return -1;
    for (int i = 1; i < R; i++) {
        g->node[i - 1] = s->order[i];
        idx[s->order[i]] = i - 1;
    }
    /* usable links between reachable nodes, tail != d */
    for (int i = 0; i < nn; i++) {
        int u = g->node[i];
        for (int k = net->out_start[u]; k < net->out_start[u + 1]; k++) {
            int e = net->out_link[k];
            if (idx[net->head[e]] == -2 || !sp_link_usable(net, e, d)) continue;
            s->link_tmp[nl++] = e;
        }
    }
    g->nl = nl;
    g->lk = malloc(sizeof(int) * (size_t)(nl + 1));
    g->pos = malloc(sizeof(int) * (size_t)(nl + 1));
    g->ti = malloc(sizeof(int) * (size_t)(nl + 1));
    g->hi = malloc(sizeof(int) * (size_t)(nl + 1));
    g->Ap = calloc((size_t)nn + 1, sizeof(int));
    g->dpos = malloc(sizeof(int) * (size_t)(nn > 0 ? nn : 1));
    if (!g->lk || !g->pos || !g->ti || !g->hi || !g->Ap || !g->dpos) return -1;
    memcpy(g->lk, s->link_tmp, sizeof(int) * (size_t)nl);
    /* column counts: diagonal + one per incoming (tail, head) pair, duplicates merged below */
    int *colcnt = s->ls; /* n+1 ints, enough */
    for (int j = 0; j <= nn; j++) colcnt[j] = 0;
    for (int k = 0; k < nl; k++) {
        int e = g->lk[k];
        g->ti[k] = idx[net->tail[e]];
        g->hi[k] = idx[net->head[e]];
        if (g->hi[k] >= 0) colcnt[g->hi[k]]++;
    }
    /* gather rows per column (with duplicates), sort, dedupe */
    int *start = malloc(sizeof(int) * (size_t)(nn + 1)), *rows = malloc(sizeof(int) * (size_t)(nl + nn + 1));
    if (!start || !rows) {
        free(start), free(rows);
        return -1;
    }
    start[0] = 0;
    for (int j = 0; j < nn; j++) start[j + 1] = start[j] + colcnt[j] + 1;
    for (int j = 0; j < nn; j++) {
        rows[start[j]] = j;
        colcnt[j] = 1;
    }
    for (int k = 0; k < nl; k++)
        if (g->hi[k] >= 0) rows[start[g->hi[k]] + colcnt[g->hi[k]]++] = g->ti[k];
    g->Ai = malloc(sizeof(int) * (size_t)(start[nn] + 1));
    if (!g->Ai) {
        free(start), free(rows);
        return -1;
    }
    for (int j = 0; j < nn; j++) {
        int a = start[j], len = start[j + 1] - a;
        qsort(rows + a, (size_t)len, sizeof(int), cmp_int);
        g->Ap[j] = nnz;
        for (int t = 0; t < len; t++)
            if (t == 0 || rows[a + t] != rows[a + t - 1]) {
                if (rows[a + t] == j) g->dpos[j] = nnz;
                g->Ai[nnz++] = rows[a + t];
            }
    }
    g->Ap[nn] = nnz;
    g->nnz = nnz;
    free(start), free(rows);
    /* entry position of each link: binary search in its column */
    for (int k = 0; k < nl; k++) {
        int j = g->hi[k];
        if (j < 0) {
            g->pos[k] = -1;
            continue;
        }
        int lo = g->Ap[j], hi = g->Ap[j + 1] - 1, r = g->ti[k];
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (g->Ai[mid] < r)
                lo = mid + 1;
            else
                hi = mid;
        }
        g->pos[k] = lo;
    }
    if (nn > 0) {
        g->sym = klu_analyze(nn, g->Ap, g->Ai, c);
        if (!g->sym) return -1;
    }
    return 0;
}

static void free_one(ld_direct *g, klu_common *c)
{
    if (g->num) klu_free_numeric(&g->num, c);
    if (g->sym) klu_free_symbolic(&g->sym, c);
    free(g->node), free(g->Ap), free(g->Ai), free(g->dpos), free(g->lk), free(g->pos), free(g->ti), free(g->hi);
    free(g->z), free(g->phi), free(g->P);
    memset(g, 0, sizeof *g);
}

struct build_job {
    ds_loader *ld;
    int failed;
};

static void build_fn(void *ctx, int worker, int di)
{
    struct build_job *j = ctx;
    ds_loader *ld = j->ld;
    if (build_one(ld, di, &ld->scr[worker], &ld->direct->common[worker], &ld->direct->d[di]) != 0) j->failed = 1;
}

int ld_direct_init(ds_loader *ld)
{
    int W = ds_pool_threads(ld->pool);
    struct ld_direct_all *a = calloc(1, sizeof *a);
    struct build_job j = {ld, 0};
    if (!a) return -1;
    ld->direct = a;
    a->d = calloc((size_t)ld->n_dest, sizeof(ld_direct));
    a->common = calloc((size_t)W, sizeof(klu_common));
    a->Ax = calloc((size_t)W, sizeof(double *));
    a->b = calloc((size_t)W, sizeof(double *));
    a->y = calloc((size_t)W, sizeof(double *));
    a->w = calloc((size_t)W, sizeof(double *));
    a->idx = calloc((size_t)W, sizeof(int *));
    if (!a->d || !a->common || !a->Ax || !a->b || !a->y || !a->w || !a->idx) return -1;
    for (int w = 0; w < W; w++) klu_defaults(&a->common[w]);
    ds_pool_run(ld->pool, ld->n_dest, build_fn, &j);
    if (j.failed) return -1;
    for (int di = 0; di < ld->n_dest; di++) {
        if (a->d[di].nn > a->max_nn) a->max_nn = a->d[di].nn;
        if (a->d[di].nnz > a->max_nnz) a->max_nnz = a->d[di].nnz;
        if (a->d[di].nl > a->max_nl) a->max_nl = a->d[di].nl;
    }
    /* Refactoring with the previous pivot order skips the pivot search (the
     * numeric LU is most of an evaluation), and J v reuses the factors of the
     * evaluation. Keeping them costs about (lnz + unz) x 12 bytes a destination
     * (KLU's estimate from the symbolic analysis): destinations keep theirs, in
     * destination order, while the total stays within the budget; the others
     * factorise afresh in each evaluation and in each J v. The choice depends
     * on the network and the budget only, so flows stay thread-count free. */
    a->keep_num = calloc((size_t)ld->n_dest + 1, 1);
    if (!a->keep_num) return -1;
    for (int di = 0; di < ld->n_dest; di++) {
        ld_direct *g = &a->d[di];
        double b = g->sym ? (g->sym->lnz + g->sym->unz) * 12.0 + g->nn * 48.0 : 0;
        if (a->factor_bytes + b <= ld->factor_budget) {
            a->factor_bytes += b;
            a->keep_num[di] = 1;
            a->n_kept++;
        }
    }
    for (int w = 0; w < W; w++) {
        a->Ax[w] = malloc(sizeof(double) * (size_t)(a->max_nnz + 1));
        a->b[w] = malloc(sizeof(double) * (size_t)(a->max_nn + 1));
        a->y[w] = malloc(sizeof(double) * (size_t)(a->max_nn + 1));
        a->w[w] = malloc(sizeof(double) * (size_t)(a->max_nl + 1));
        a->idx[w] = malloc(sizeof(int) * (size_t)(ld->net->n_nodes + 1));
        if (!a->Ax[w] || !a->b[w] || !a->y[w] || !a->w[w] || !a->idx[w]) return -1;
    }
    return 0;
}

void ds_loader_factor_plan(const ds_loader *ld, int *kept, int *total, double *kept_mib, double *all_mib)
{
    const struct ld_direct_all *a = ld->direct;
    double all = 0;
    *kept = *total = 0;
    *kept_mib = *all_mib = 0;
    if (!a) return;
    for (int di = 0; di < ld->n_dest; di++) {
        const ld_direct *g = &a->d[di];
        all += g->sym ? (g->sym->lnz + g->sym->unz) * 12.0 + g->nn * 48.0 : 0;
    }
    *kept = a->n_kept;
    *total = ld->n_dest;
    *kept_mib = a->factor_bytes / (1024.0 * 1024.0);
    *all_mib = all / (1024.0 * 1024.0);
}

void ld_direct_free(ds_loader *ld)
{
    struct ld_direct_all *a = ld->direct;
    if (!a) return;
    int W = ds_pool_threads(ld->pool);
    for (int di = 0; a->d && di < ld->n_dest; di++) free_one(&a->d[di], &a->common[0]);
    for (int w = 0; w < W; w++) {
        if (a->Ax) free(a->Ax[w]);
        if (a->b) free(a->b[w]);
        if (a->y) free(a->y[w]);
        if (a->w) free(a->w[w]);
        if (a->idx) free(a->idx[w]);
    }
    free(a->keep_num);
    free(a->d), free(a->common), free(a->Ax), free(a->b), free(a->y), free(a->w), free(a->idx);
    free(a);
    ld->direct = NULL;
}

/* z from (I - W~) z = b with the values' existence test (z >= 1) and the
 * residual as a max |dV| (*resid). First try: refactor the kept factors *num
 * (also those of a failed trial point: their pivot order serves) while the
 * pivots stay sound (crude rcond), and improve the solution by iterative
 * refinement with the same factors. Only if that does not reach 1e-10 or
 * fails the existence test is the answer decided by a fresh pivoted LU. A
 * refactored solve that fails the existence test is taken at its word where
 * only a step length depends on it (quick_reject); a verdict (the existence
 * test at the capped costs) is always decided afresh. *num is the factor
 * object afterwards (may be NULL), *kind 1 fresh, 2 refactored, 3 refined.
 * Returns 1 if a solution with z >= 1 exists. */
static int solve_values(ld_direct *g, klu_common *c, double *Ax, const double *w, double *z, double *y,
                        int quick_reject, klu_numeric **num_io, double *resid, int *kind)
{
    klu_numeric *num = *num_io;
    int nn = g->nn, ok = 0;
    *kind = 0;
    *resid = 0;
    for (int attempt = 0; attempt < 2; attempt++) {
        int refactored = 0;
        if (num && attempt == 0 && klu_refactor(g->Ap, g->Ai, Ax, g->sym, num, c) && klu_rcond(g->sym, num, c) &&
            c->rcond > 1e-8) {
            refactored = 1;
        } else {
            if (num) klu_free_numeric(&num, c);
            num = klu_factor(g->Ap, g->Ai, Ax, g->sym, c);
        }
        for (int j = 0; j < nn; j++) z[j] = 0;
        for (int k = 0; k < g->nl; k++)
            if (g->pos[k] < 0) z[g->ti[k]] += w[k];
        ok = num != NULL && klu_solve(g->sym, num, nn, 1, z, c);
        for (int refine = 0; ok; refine++) {
            /* existence: z >= 1 everywhere (the shortest route alone contributes 1) */
            for (int i = 0; ok && i < nn; i++)
                if (!dsk_z_exists(z[i])) ok = 0;
            if (!ok) break;
            /* y = b - (I - W~) z; max |y| / z is the max |dV| equivalent */
            *resid = 0;
            for (int j = 0; j < nn; j++) y[j] = -z[j];
            for (int k = 0; k < g->nl; k++) {
                double zv = g->hi[k] >= 0 ? z[g->hi[k]] : 1.0;
                y[g->ti[k]] += w[k] * zv;
            }
            for (int j = 0; j < nn; j++) *resid = fmax(*resid, fabs(y[j]) / z[j]);
            if (*resid <= 1e-10 || refine == 2 || !refactored) break;
            if (!klu_solve(g->sym, num, nn, 1, y, c)) break;
            for (int j = 0; j < nn; j++) z[j] += y[j];
            *kind = 3;
        }
        if (!ok && refactored && quick_reject) {
            *kind = 2;
            break;
        }
        if (!refactored || (ok && *resid <= 1e-10)) {
            if (*kind == 0 || !refactored) *kind = refactored ? 2 : 1;
            break;
        }
        *kind = 0;
    }
    *num_io = num;
    return ok;
}

/* One destination: values, choice probabilities, absorption, link flows. */
void ld_direct_eval(ds_loader *ld, int di, int worker, double *flow)
{
    const ds_network *net = ld->net;
    struct ld_direct_all *a = ld->direct;
    ld_direct *g = &a->d[di];
    ld_scratch *s = &ld->scr[worker];
    klu_common *c = &a->common[worker];
    const double *t = ld->t;
    double *D = s->dist, *Ax = a->Ax[worker], *z = a->b[worker], *y = a->y[worker], *w = a->w[worker];
    double mu = ld->mu, t0 = ds_clock_now(), t1, resid = 0;
    int d = net->dest_node[di], nn = g->nn;
    klu_numeric *num;

    ld->st_bpass[di] = 1;
    ld->st_apass[di] = 1;
    ld->st_bres[di] = ld->st_ares[di] = 0;
    ld->st_ratio[di] = 0;
    ld->st_diverged[di] = 0;
    ld->st_loaded[di] = ld->st_arrived[di] = 0;
    if (nn == 0) return;
    sp_dijkstra_to(net, t, d, D, s->hops, NULL, &s->sp);
    for (int j = 0; j < g->nnz; j++) Ax[j] = 0;
    for (int j = 0; j < nn; j++) Ax[g->dpos[j]] = 1;
    for (int k = 0; k < g->nl; k++) {
        int e = g->lk[k], u = net->tail[e], v = net->head[e];
        w[k] = dsk_reduced_weight(mu, t[e], D[v], D[u]);
        if (g->pos[k] >= 0) Ax[g->pos[k]] -= w[k];
    }
    num = g->num;
    g->num = NULL;
    int kind = 0, ok = solve_values(g, c, Ax, w, z, y, ld->quick_reject, &num, &resid, &kind);
    ld->st_lu[di] = kind;
    if (!ok) {
        ld->st_diverged[di] = 1;
        /* keep the factors: their pivot order serves the next point */
        if (num && a->keep_num[di])
            g->num = num;
        else if (num)
            klu_free_numeric(&num, c);
        s->t_bellman += ds_clock_now() - t0;
        return;
    }
    ld->st_bres[di] = resid;
    /* choice probabilities, in place */
    for (int k = 0; k < g->nl; k++) {
        double zv = g->hi[k] >= 0 ? z[g->hi[k]] : 1.0;
        w[k] = dsk_choice_prob(w[k], zv, z[g->ti[k]]);
    }
    t1 = ds_clock_now();
    s->t_bellman += t1 - t0;
    /* absorption: phi = Z (I - W~^T)^-1 Z^-1 q */
    int *idx = a->idx[worker];
    for (int j = 0; j < nn; j++) {
        idx[g->node[j]] = j;
        y[j] = 0;
    }
    for (int k = net->dest_od_start[di]; k < net->dest_od_start[di + 1]; k++)
        if (ld->reach_ok[k]) y[idx[net->od_orig[k]]] += net->od_demand[k];
    for (int j = 0; j < nn; j++) y[j] /= z[j];
    klu_tsolve(g->sym, num, nn, 1, y, c);
    for (int j = 0; j < nn; j++) y[j] *= z[j]; /* phi */
    {
        double arrived = 0, loaded = 0;
        for (int k = net->dest_od_start[di]; k < net->dest_od_start[di + 1]; k++)
            if (ld->reach_ok[k]) loaded += net->od_demand[k];
        for (int k = 0; k < g->nl; k++) {
            double fl = w[k] * y[g->ti[k]];
            flow[g->lk[k]] += fl;
            if (g->hi[k] < 0) arrived += fl;
        }
        ld->st_loaded[di] = loaded;
        ld->st_arrived[di] = arrived;
    }
    if (a->keep_num[di])
        g->num = num;
    else
        klu_free_numeric(&num, c);
    if (ld->keep) {
        if (!g->z) g->z = malloc(sizeof(double) * (size_t)nn);
        if (!g->phi) g->phi = malloc(sizeof(double) * (size_t)nn);
        if (!g->P) g->P = malloc(sizeof(double) * (size_t)(g->nl + 1));
        if (!g->z || !g->phi || !g->P) {
            ld->keep_failed = 1;
        } else {
            memcpy(g->z, z, sizeof(double) * (size_t)nn);
            memcpy(g->phi, y, sizeof(double) * (size_t)nn);
            memcpy(g->P, w, sizeof(double) * (size_t)g->nl);
        }
    }
    s->t_absorb += ds_clock_now() - t1;
}

/* J v for one destination from the kept factors (see loader_jv.c for the math). */
void ld_direct_jv(ds_loader *ld, int di, int worker, double *out)
{
    struct ld_direct_all *a = ld->direct;
    ld_direct *g = &a->d[di];
    klu_common *c = &a->common[worker];
    const double *dtv = ld->dtv, mu = ld->mu;
    double *y = a->y[worker], *dV = a->b[worker], *dP = a->w[worker];
    int nn = g->nn;
    klu_numeric *num = g->num;
    if (nn == 0 || !g->P || !g->z) return;
    if (!num) {
        /* factors not kept (memory budget): I - W~ from the kept P and z
         * (w~_e = P_e z(u) / z(v)), factorised afresh, deterministically */
        double *Ax = a->Ax[worker];
        for (int j = 0; j < g->nnz; j++) Ax[j] = 0;
        for (int j = 0; j < nn; j++) Ax[g->dpos[j]] = 1;
        for (int k = 0; k < g->nl; k++)
            if (g->pos[k] >= 0) Ax[g->pos[k]] -= g->P[k] * g->z[g->ti[k]] / g->z[g->hi[k]];
        num = klu_factor(g->Ap, g->Ai, Ax, g->sym, c);
        if (!num) {
            ld->jv_failed = 1; /* only ever set to 1; read after the pool joined */
            return;
        }
    }
    /* (I - P) dV = b1, b1_u = -mu sum P dt; (I - P) = Z^-1 (I - W~) Z */
    for (int j = 0; j < nn; j++) y[j] = 0;
    for (int k = 0; k < g->nl; k++) y[g->ti[k]] += dsk_dv_term(g->P[k], 0.0, mu, dtv[g->lk[k]]);
    for (int j = 0; j < nn; j++) y[j] *= g->z[j];
    klu_solve(g->sym, num, nn, 1, y, c);
    for (int j = 0; j < nn; j++) dV[j] = y[j] / g->z[j];
    /* dP and the absorption source */
    for (int j = 0; j < nn; j++) y[j] = 0;
    for (int k = 0; k < g->nl; k++) {
        double dvv = g->hi[k] >= 0 ? dV[g->hi[k]] : 0.0;
        dP[k] = dsk_dprob(g->P[k], dvv, dV[g->ti[k]], mu, dtv[g->lk[k]]);
        double q = dP[k] * g->phi[g->ti[k]];
        out[g->lk[k]] += q;
        if (g->hi[k] >= 0) y[g->hi[k]] += q;
    }
    /* (I - P^T) dphi = s: dphi = Z (I - W~^T)^-1 Z^-1 s */
    for (int j = 0; j < nn; j++) y[j] /= g->z[j];
    klu_tsolve(g->sym, num, nn, 1, y, c);
    for (int j = 0; j < nn; j++) y[j] *= g->z[j];
    for (int k = 0; k < g->nl; k++) out[g->lk[k]] += g->P[k] * y[g->ti[k]];
    if (num != g->num) klu_free_numeric(&num, c);
}
