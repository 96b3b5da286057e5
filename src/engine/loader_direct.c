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
 * The sparsity pattern depends on the network only, and one pattern serves
 * every destination (below), so KLU's symbolic analysis (BTF + AMD ordering)
 * is done once.
 */
#include <klu.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "clock.h"
#include "loader_int.h"

/* node i reaches the destination (ld->reach_node's bit) */
#define REACHED(r, i) ((r)[(i) >> 3] >> ((i)&7) & 1)

typedef struct ld_direct {
    /* kept for J v (and the factors for the next evaluation's refactor) */
    klu_numeric *num;
    double *z, *phi, *P;  /* [n] (z = 1 at the destination, 0 where d is not reached), [n], [n_links] */
    int shared;           /* z, phi, P came from the shared factors (z unreduced); P beyond the budget not kept */
    int ur_wait, ur_skip; /* unreduced attempts still to skip, and the length of the last skip */
    /* unreduced attempts, those out of range, those skipped (ld_direct_ur_counts) */
    long ur_tries, ur_ranged, ur_skips;
} ld_direct;

/* One sparsity pattern and one symbolic analysis serve every destination.
 * Rows and columns are all nodes (index = node); the entry (tail, head) of a
 * link exists where its head is a through node, the only links that can be
 * interior to some destination's system. For destination d, the links it may
 * not use (tail d, head another centroid, an end that does not reach d) weigh
 * 0, the links into d go to the right-hand side, so row and column d and the
 * rows of nodes that do not reach d reduce to the identity (z = 0 there). The
 * factors are per destination; the pattern, the index arrays and KLU's
 * symbolic analysis (BTF + AMD) are not, which is what makes a planning-scale
 * full graph fit in memory (per destination they were about 450 KB on
 * Austin-SDB, 1,117 destinations). */
struct ld_direct_all {
    int n, nnz;
    int *Ap, *Ai, *dpos; /* CSC of I - W~: [n+1], [nnz]; the diagonal entry of each column [n] */
    int *pos;            /* [n_links] entry of each link, -1 where its head is a centroid */
    klu_symbolic *sym;
    ld_direct *d;               /* [n_dest] */
    klu_common *common;         /* per worker */
    double **Ax, **b, **y, **w; /* per worker scratch: [nnz], [n], [n], [n_links] */
    unsigned char *keep_num;    /* [n_dest] keep this destination's factors between evaluations
                                   (refactor with its pivot order; J v from them) */
    double factor_bytes;        /* estimated memory of the kept factors */
    double dest_bytes;          /* estimated memory of one destination's factors */
    int n_kept;
    /* Shared factors (ld_direct_prepare): at plain full-graph costs a centroid
     * destination's matrix is the one I - W of every destination (below), so
     * one LU per evaluation serves them all. KLU's solve writes into its
     * numeric object, so each worker factorises its own copy (the same bits). */
    int sh_on;               /* this evaluation solves centroid destinations with it */
    unsigned gen;            /* evaluation generation */
    double *sh_Ax;           /* [nnz] I - W, W = exp(-mu t), at the evaluation's costs */
    double *sh_w;            /* [n_links] W by link (0: underflow) */
    klu_numeric **tm;        /* per worker: a diagonal pivot order (tm_factor) */
    klu_numeric **sh_num;    /* per worker */
    unsigned *sh_gen;        /* per worker: the generation sh_num[w] factorises (0 none) */
    unsigned char *sh_diag;  /* per worker: sh_num[w] has the diagonal pivot order (refactor into it) */
    double **gY, **gQ, **gP; /* per worker, J v of a group (ld_direct_jv_group): [JV_GROUP n], [JV_GROUP n_links] x 2 */
    int **act;               /* per worker [n_links]: unreduced_eval's links with a weight */
};

static int cmp_int(const void *x, const void *y)
{
    int p = *(const int *)x, q = *(const int *)y;
    return (p > q) - (p < q);
}

/* The shared pattern (duplicates of a (tail, head) pair merged) and its
 * symbolic analysis. */
static int build_pattern(ds_loader *ld, struct ld_direct_all *a)
{
    const ds_network *net = ld->net;
    int n = net->n_nodes, m = net->n_links, ft = net->first_thru;
    int *start = malloc(sizeof(int) * (size_t)(n + 1)), *fill = malloc(sizeof(int) * (size_t)(n + 1));
    int *rows = malloc(sizeof(int) * (size_t)(m + n + 1));
    int rc = -1;
    a->n = n;
    a->Ap = calloc((size_t)n + 1, sizeof(int));
    a->dpos = malloc(sizeof(int) * (size_t)(n + 1));
    a->pos = malloc(sizeof(int) * (size_t)(m + 1));
    if (!start || !fill || !rows || !a->Ap || !a->dpos || !a->pos) goto out;
    for (int j = 0; j <= n; j++) fill[j] = 1; /* the diagonal */
    for (int e = 0; e < m; e++)
        if (!dsk_is_centroid(net->head[e], ft)) fill[net->head[e]]++;
    start[0] = 0;
    for (int j = 0; j < n; j++) start[j + 1] = start[j] + fill[j];
    for (int j = 0; j < n; j++) {
        rows[start[j]] = j;
        fill[j] = 1;
    }
    for (int e = 0; e < m; e++)
        if (!dsk_is_centroid(net->head[e], ft)) rows[start[net->head[e]] + fill[net->head[e]]++] = net->tail[e];
    a->Ai = malloc(sizeof(int) * (size_t)(start[n] + 1));
    if (!a->Ai) goto out;
    int nnz = 0;
    for (int j = 0; j < n; j++) {
        int s0 = start[j], len = start[j + 1] - s0;
        qsort(rows + s0, (size_t)len, sizeof(int), cmp_int);
        a->Ap[j] = nnz;
        for (int t = 0; t < len; t++)
            if (t == 0 || rows[s0 + t] != rows[s0 + t - 1]) {
                if (rows[s0 + t] == j) a->dpos[j] = nnz;
                a->Ai[nnz++] = rows[s0 + t];
            }
    }
    a->Ap[n] = a->nnz = nnz;
    /* entry position of each link: binary search in its column */
    for (int e = 0; e < m; e++) {
        int j = net->head[e];
        if (dsk_is_centroid(j, ft)) {
            a->pos[e] = -1;
            continue;
        }
        int lo = a->Ap[j], hi = a->Ap[j + 1] - 1, r = net->tail[e];
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (a->Ai[mid] < r)
                lo = mid + 1;
            else
                hi = mid;
        }
        a->pos[e] = lo;
    }
    a->sym = n > 0 ? klu_analyze(n, a->Ap, a->Ai, &a->common[0]) : NULL;
    rc = n > 0 && !a->sym ? -1 : 0;
out:
    free(start), free(fill), free(rows);
    return rc;
}

/* fmax(acc, q) for an acc that is never NaN: a NaN q leaves acc as fmax
 * does, without fmax's call (it is not inlined where NaNs must be honoured) */
static inline double max_ignoring_nan(double acc, double q) { return q > acc ? q : acc; }

/* KLU's row scaling (its default, scale 2) divides row i by its largest
 * magnitude. Every matrix here has a unit diagonal, and its off-diagonals are
 * minus weights that rarely exceed 1 (only parallel links or rounding could):
 * then every row's scale factor is exactly 1, dividing by it changes no bit,
 * and the scaling pass is a tenth of a small network's evaluation (Sioux Falls
 * full). So scaling is asked for only where some factor would differ from 1. */
static void set_scaling(const struct ld_direct_all *a, const double *Ax, klu_common *c)
{
    int unit = 1;
    for (int j = 0; unit && j < a->n; j++) unit = Ax[a->dpos[j]] == 1.0;
    for (int k = 0; unit && k < a->nnz; k++) unit = fabs(Ax[k]) <= 1.0;
    c->scale = unit ? -1 : 2; /* -1: no scaling (and no pattern check: the pattern is ours) */
}

static klu_numeric *lu_factor(const struct ld_direct_all *a, double *Ax, klu_common *c)
{
    set_scaling(a, Ax, c);
    return klu_factor(a->Ap, a->Ai, Ax, a->sym, c);
}

static int lu_refactor(const struct ld_direct_all *a, double *Ax, klu_numeric *num, klu_common *c)
{
    set_scaling(a, Ax, c);
    return klu_refactor(a->Ap, a->Ai, Ax, a->sym, num, c);
}

/* Bytes of a numeric object: its LU blocks, workspace, permutations and
 * off-diagonal blocks (singleton blocks have no LU block; KLU leaves their
 * LUsize unset). */
static double num_bytes(const struct ld_direct_all *a, const klu_numeric *num)
{
    double bytes = (double)num->worksize + 12.0 * num->nzoff + 64.0 * num->n;
    for (int k = 0; k < num->nblocks; k++)
        if (a->sym->R[k + 1] - a->sym->R[k] > 1) bytes += (double)num->LUsize[k] * sizeof(double);
    return bytes;
}

static klu_numeric *tm_factor(struct ld_direct_all *a, int w);

static void free_one(ld_direct *g, klu_common *c)
{
    if (g->num) klu_free_numeric(&g->num, c);
    free(g->z), free(g->phi), free(g->P);
    memset(g, 0, sizeof *g);
}

int ld_direct_init(ds_loader *ld)
{
    int W = ds_pool_threads(ld->pool), n = ld->net->n_nodes, m = ld->net->n_links;
    struct ld_direct_all *a = calloc(1, sizeof *a);
    if (!a) return -1;
    ld->direct = a;
    a->d = calloc((size_t)ld->n_dest + 1, sizeof(ld_direct));
    a->common = calloc((size_t)W, sizeof(klu_common));
    a->Ax = calloc((size_t)W, sizeof(double *));
    a->b = calloc((size_t)W, sizeof(double *));
    a->y = calloc((size_t)W, sizeof(double *));
    a->w = calloc((size_t)W, sizeof(double *));
    if (!a->d || !a->common || !a->Ax || !a->b || !a->y || !a->w) return -1;
    for (int w = 0; w < W; w++) klu_defaults(&a->common[w]);
    if (build_pattern(ld, a) != 0) return -1;
    a->sh_Ax = malloc(sizeof(double) * (size_t)(a->nnz + 1));
    a->sh_w = malloc(sizeof(double) * (size_t)(m + 1));
    a->sh_num = calloc((size_t)W, sizeof(klu_numeric *));
    a->sh_gen = calloc((size_t)W, sizeof(unsigned));
    a->sh_diag = calloc((size_t)W, 1);
    a->tm = calloc((size_t)W, sizeof(klu_numeric *));
    a->gY = calloc((size_t)W, sizeof(double *));
    a->gQ = calloc((size_t)W, sizeof(double *));
    a->gP = calloc((size_t)W, sizeof(double *));
    a->act = calloc((size_t)W, sizeof(int *));
    if (!a->act || !ld->reach_node || !a->sh_Ax || !a->sh_w || !a->tm || !a->sh_num || !a->sh_gen || !a->sh_diag ||
        !a->gY || !a->gQ || !a->gP)
        return -1;
    for (int w = 0; w < W; w++) {
        a->Ax[w] = malloc(sizeof(double) * (size_t)(a->nnz + 1));
        a->b[w] = malloc(sizeof(double) * (size_t)(n + 1));
        a->y[w] = malloc(sizeof(double) * (size_t)(n + 1));
        a->w[w] = malloc(sizeof(double) * (size_t)(m + 1));
        a->gY[w] = malloc(sizeof(double) * ((size_t)JV_GROUP * (size_t)n + 1));
        a->gQ[w] = malloc(sizeof(double) * ((size_t)JV_GROUP * (size_t)m + 1));
        a->gP[w] = malloc(sizeof(double) * ((size_t)JV_GROUP * (size_t)m + 1));
        a->act[w] = malloc(sizeof(int) * (size_t)(m + 1));
        if (!a->act[w] || !a->Ax[w] || !a->b[w] || !a->y[w] || !a->w[w] || !a->gY[w] || !a->gQ[w] || !a->gP[w])
            return -1;
    }
    /* Refactoring with the previous pivot order skips the pivot search (the
     * numeric LU is most of an evaluation), and J v reuses the factors of the
     * evaluation. A destination's factors cost what the template's do (the
     * pattern's whole fill; KLU's estimate from the symbolic analysis, (lnz +
     * unz) x 12 bytes, was half of it on Austin-SDB): destinations keep theirs,
     * in destination order, while the total stays within the budget; the
     * others are refactored into the template in each evaluation and in each
     * J v. The choice depends on the network and the budget only, so flows
     * stay thread-count free. */
    a->keep_num = calloc((size_t)ld->n_dest + 1, 1);
    if (!a->keep_num) return -1;
    a->dest_bytes = a->sym ? (a->sym->lnz + a->sym->unz) * 12.0 + n * 48.0 : 0;
    if (a->sym && tm_factor(a, 0)) a->dest_bytes = fmax(a->dest_bytes, num_bytes(a, a->tm[0]));
    for (int di = 0; di < ld->n_dest; di++) {
        if (a->factor_bytes + a->dest_bytes <= ld->factor_budget) {
            a->factor_bytes += a->dest_bytes;
            a->keep_num[di] = 1;
            a->n_kept++;
        }
    }
    return 0;
}

void ds_loader_factor_plan(const ds_loader *ld, int *kept, int *total, double *kept_mib, double *all_mib)
{
    const struct ld_direct_all *a = ld->direct;
    *kept = *total = 0;
    *kept_mib = *all_mib = 0;
    if (!a) return;
    *kept = a->n_kept;
    *total = ld->n_dest;
    *kept_mib = a->factor_bytes / (1024.0 * 1024.0);
    *all_mib = a->dest_bytes * ld->n_dest / (1024.0 * 1024.0);
}

void ld_direct_free(ds_loader *ld)
{
    struct ld_direct_all *a = ld->direct;
    if (!a) return;
    int W = ds_pool_threads(ld->pool);
    for (int di = 0; a->d && di < ld->n_dest; di++) free_one(&a->d[di], &a->common[0]);
    if (a->sym) klu_free_symbolic(&a->sym, &a->common[0]);
    for (int w = 0; w < W; w++) {
        if (a->sh_num && a->sh_num[w]) klu_free_numeric(&a->sh_num[w], &a->common[w]);
        if (a->tm && a->tm[w]) klu_free_numeric(&a->tm[w], &a->common[w]);
        if (a->Ax) free(a->Ax[w]);
        if (a->b) free(a->b[w]);
        if (a->y) free(a->y[w]);
        if (a->w) free(a->w[w]);
        if (a->gY) free(a->gY[w]);
        if (a->gQ) free(a->gQ[w]);
        if (a->gP) free(a->gP[w]);
        if (a->act) free(a->act[w]);
    }
    free(a->gY), free(a->gQ), free(a->gP), free(a->act);
    free(a->keep_num);
    free(a->sh_Ax), free(a->sh_w), free(a->tm), free(a->sh_num), free(a->sh_gen), free(a->sh_diag);
    free(a->Ap), free(a->Ai), free(a->dpos), free(a->pos);
    free(a->d), free(a->common), free(a->Ax), free(a->b), free(a->y), free(a->w);
    free(a);
    ld->direct = NULL;
}

/* One destination's system at the current weights: what solve_values and
 * the J v solves need besides the shared pattern. */
typedef struct {
    const ds_network *net;
    const struct ld_direct_all *a;
    int d;           /* destination node */
    const double *D; /* shortest distance to d (INFINITY: does not reach d) */
    const double *w; /* [n_links] reduced weights, 0 where not usable */
} dsys;

/* b: the weights of the links into d (z(d) = 1). */
static void rhs(const dsys *q, double *z)
{
    const ds_network *net = q->net;
    for (int j = 0; j < q->a->n; j++) z[j] = 0;
    for (int k = net->in_start[q->d]; k < net->in_start[q->d + 1]; k++) {
        int e = net->in_link[k];
        z[net->tail[e]] += q->w[e];
    }
}

/* Factors of the pattern at column-diagonally dominant values (the diagonal
 * 1, each column's off-diagonals summing to -0.5): KLU's pivot order (with the
 * shared AMD ordering) then takes every pivot on the diagonal, so the fill is
 * the symbolic analysis's, and any I - W~ whose diagonal pivots stay sound can
 * be refactored into them (klu_refactor keeps the pivot order and recomputes
 * every value) without a pivot search. Diagonal pivots are those of the
 * M-matrix I - W~ where f exists; where they are not sound (crude rcond) the
 * destination is factorised afresh. */
static klu_numeric *diag_factor(struct ld_direct_all *a, klu_common *c)
{
    double *Sx = malloc(sizeof(double) * (size_t)(a->nnz + 1));
    if (!Sx) return NULL;
    for (int j = 0; j < a->n; j++) {
        int cnt = a->Ap[j + 1] - a->Ap[j] - 1;
        for (int k = a->Ap[j]; k < a->Ap[j + 1]; k++) Sx[k] = k == a->dpos[j] ? 1.0 : -0.5 / cnt;
    }
    klu_numeric *num = lu_factor(a, Sx, c);
    free(Sx);
    return num;
}

/* Worker w's template: diag_factor's factors, into which a destination
 * without kept factors is refactored instead of factorised afresh; every
 * worker's template has the same pivot order, so the same bits on any thread. */
static klu_numeric *tm_factor(struct ld_direct_all *a, int w)
{
    if (!a->tm[w] && a->n > 0) a->tm[w] = diag_factor(a, &a->common[w]);
    return a->tm[w];
}

/* z from (I - W~) z = b with the values' existence test (z >= 1 where d is
 * reached) and the residual as a max |dV| (*resid); z(d) = 1 afterwards. First
 * try: refactor the kept factors *num (also those of a failed trial point:
 * their pivot order serves) while the pivots stay sound (crude rcond), and
 * improve the solution by iterative refinement with the same factors. Only if
 * that does not reach 1e-10 or fails the existence test is the answer decided
 * by a fresh pivoted LU. A refactored solve that fails the existence test is
 * taken at its word where only a step length depends on it (quick_reject); a
 * verdict (the existence test at the capped costs) is always decided afresh.
 * *num is the factor object afterwards (may be NULL), *kind 1 fresh, 2
 * refactored, 3 refined. Returns 1 if a solution with z >= 1 exists. */
static int solve_values(const dsys *q, klu_common *c, double *Ax, double *z, double *y, int quick_reject,
                        klu_numeric *tmpl, klu_numeric **num_io, double *resid, int *kind)
{
    const struct ld_direct_all *a = q->a;
    const ds_network *net = q->net;
    klu_numeric *num = *num_io ? *num_io : tmpl; /* (the template is never freed here) */
    int n = a->n, d = q->d, ok = 0;
    *kind = 0;
    *resid = 0;
    for (int attempt = 0; attempt < 2; attempt++) {
        int refactored = 0;
        if (num && attempt == 0 && lu_refactor(a, Ax, num, c) && klu_rcond(a->sym, num, c) && c->rcond > 1e-8) {
            refactored = 1;
        } else {
            if (num && num != tmpl) klu_free_numeric(&num, c);
            num = lu_factor(a, Ax, c);
        }
        rhs(q, z);
        ok = num != NULL && klu_solve(a->sym, num, n, 1, z, c);
        for (int refine = 0; ok; refine++) {
            z[d] = 1;
            /* existence: z >= 1 where d is reached (the shortest route alone contributes 1) */
            for (int i = 0; ok && i < n; i++)
                if (i != d && isfinite(q->D[i]) && !dsk_z_exists(z[i])) ok = 0;
            if (!ok) break;
            /* y = b - (I - W~) z; max |y| / z is the max |dV| equivalent */
            *resid = 0;
            for (int j = 0; j < n; j++) y[j] = -z[j];
            for (int e = 0; e < net->n_links; e++)
                if (q->w[e] > 0) y[net->tail[e]] += q->w[e] * z[net->head[e]];
            y[d] = 0;
            for (int j = 0; j < n; j++)
                if (z[j] > 0) *resid = max_ignoring_nan(*resid, fabs(y[j]) / z[j]);
            if (*resid <= 1e-10 || refine == 2 || !refactored) break;
            if (!klu_solve(a->sym, num, n, 1, y, c)) break;
            for (int j = 0; j < n; j++) z[j] += y[j];
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

/* Copy a destination's z, phi and P for J v (keep on). */
static void keep_state(ds_loader *ld, int di, ld_direct *g, const double *z, const double *phi, const double *P);

/* Destination di from its values z and weights w (usable links, 0 elsewhere;
 * either scaling): choice probabilities P = w z(v) / z(u) in place, the
 * absorption phi = Z (I - W^T)^-1 Z^-1 q into y (rows of d and of nodes that
 * do not reach it are the identity with a zero source; z = 0 there), flows
 * P phi(tail) added to flow, the state J v needs; the phase times from t0. */
static void finish_dest(ds_loader *ld, int di, int worker, klu_numeric *num, const double *z, double *y, double *w,
                        double *flow, double t0)
{
    const ds_network *net = ld->net;
    struct ld_direct_all *a = ld->direct;
    ld_scratch *s = &ld->scr[worker];
    klu_common *c = &a->common[worker];
    int n = a->n, m = net->n_links, d = net->dest_node[di];
    double arrived = 0, loaded = 0;
    for (int e = 0; e < m; e++)
        if (w[e] > 0) w[e] = dsk_choice_prob(w[e], z[net->head[e]], z[net->tail[e]]);
    double t1 = ds_clock_now();
    s->t_bellman += t1 - t0;
    for (int j = 0; j < n; j++) y[j] = 0;
    for (int k = net->dest_od_start[di]; k < net->dest_od_start[di + 1]; k++)
        if (ld->reach_ok[k] && net->od_orig[k] != d) y[net->od_orig[k]] += net->od_demand[k];
    for (int j = 0; j < n; j++) y[j] = z[j] > 0 ? y[j] / z[j] : 0;
    klu_tsolve(a->sym, num, n, 1, y, c);
    for (int j = 0; j < n; j++) y[j] *= z[j]; /* phi */
    for (int k = net->dest_od_start[di]; k < net->dest_od_start[di + 1]; k++)
        if (ld->reach_ok[k]) loaded += net->od_demand[k];
    for (int e = 0; e < m; e++) {
        if (!(w[e] > 0)) continue;
        double fl = w[e] * y[net->tail[e]];
        flow[e] += fl;
        if (net->head[e] == d) arrived += fl;
    }
    ld->st_loaded[di] = loaded;
    ld->st_arrived[di] = arrived;
    if (ld->keep) keep_state(ld, di, &a->d[di], z, y, w);
    s->t_absorb += ds_clock_now() - t1;
}

/* A destination served by the shared factors keeps its P only while the
 * destinations before it and it fit in ld->prob_budget; the others' J v
 * recomputes theirs (shared_probs, the same bits): 2n doubles a destination
 * instead of 2n + m. By destination index, so thread-count free. */
static void keep_state(ds_loader *ld, int di, ld_direct *g, const double *z, const double *phi, const double *P)
{
    int n = ld->direct->n, m = ld->net->n_links;
    int keep_p = !g->shared || (di + 1.0) * m * sizeof(double) <= ld->prob_budget;
    if (!g->z) g->z = malloc(sizeof(double) * (size_t)n);
    if (!g->phi) g->phi = malloc(sizeof(double) * (size_t)n);
    if (!keep_p) {
        free(g->P);
        g->P = NULL;
    } else if (!g->P)
        g->P = malloc(sizeof(double) * (size_t)(m + 1));
    if (!g->z || !g->phi || (keep_p && !g->P)) {
        ld->keep_failed = 1;
        return;
    }
    memcpy(g->z, z, sizeof(double) * (size_t)n);
    memcpy(g->phi, phi, sizeof(double) * (size_t)n);
    if (keep_p) memcpy(g->P, P, sizeof(double) * (size_t)m);
}

/* The link probabilities of a destination that the evaluation's shared
 * factors served, from its kept values and the shared weights, as
 * unreduced_eval and finish_dest made them (the same bits): the weights of
 * the links it may use are sh_w (0 where they underflow), P = w z(v) / z(u).
 * J v follows its keep evaluation, so sh_w is still that evaluation's. Kept,
 * they are most of the full graph's per-destination state (m of 2n + m
 * doubles a destination: 3.3 of 5.5 GiB on a network of 33,000 nodes, 124,730
 * links and 3,300 zones); recomputing costs a test and a division a link per
 * J v, 10 % of Anaheim's solve where every destination recomputes, hence the
 * budget (LD_PROB_BUDGET). */
static void shared_probs(const ds_loader *ld, int di, const double *z, double *P)
{
    const ds_network *net = ld->net;
    const double *sw = ld->direct->sh_w;
    const unsigned char *r = ld->reach_node + (size_t)di * ld->reach_stride;
    int d = net->dest_node[di], ft = net->first_thru, m = net->n_links;
    for (int e = 0; e < m; e++) {
        int u = net->tail[e], v = net->head[e];
        double w = dsk_link_usable(u, v, d, ft) && REACHED(r, u) && REACHED(r, v) ? sw[e] : 0;
        P[e] = w > 0 ? dsk_choice_prob(w, z[v], z[u]) : w;
    }
}

/* Shared factors. For a destination d that is a centroid (no link of the
 * pattern enters it), the matrix of its values is I - W over the shared
 * pattern with W = exp(-mu t) unreduced (z = exp(-mu V)), up to two
 * differences that change no value it needs: the row of d (its out-links;
 * nothing enters d, so z(d) feeds no other row, and the absorption has no
 * source at d) and the rows of nodes that do not reach d (nothing of theirs
 * enters a node that does). With D_d its distances, its reduced matrix is the
 * similarity exp(mu D_d) (I - W) exp(-mu D_d), so the one factorisation serves
 * every such destination with the same pivots: the values, the existence test
 * (a positive solution iff the spectral radius is below 1) and the flows, by
 * two triangular solves a destination instead of a Dijkstra and an LU.
 * Unreduced values span exp(-mu V), so the shared solve is only taken where
 * it is as exact as the destination's own: values within [SH_Z_MIN,
 * 1/SH_Z_MIN]; the weights that underflow (mu t > SH_TINY_EXP; they are 0 in
 * the matrix) carrying a choice probability below SH_TINY_PROB; a residual of
 * at most 1e-10 after two refinements. Elsewhere, and where (in a verdict) the
 * shared solve finds no positive solution, the destination is solved by its
 * own reduced LU as before. Destination-specific costs (--start relax below
 * lambda 1, which penalises each destination's own links) and destinations
 * that are through nodes (a rank-one correction would subtract, losing the
 * nonnegative arithmetic below) solve their own unreduced matrix I - W_d with
 * the same checks (no Dijkstra either), the reduced LU again the fallback. */
#define SH_Z_MIN 1e-290
/* Unreduced values out of range at one evaluation are out of range at the
 * next ones too, where the costs are congested (Sioux Falls' perturbed
 * scenarios at tau 100: 98 % of SRA's attempts failed, and the failed attempt
 * cost as much as the reduced LU after it). Per destination, so the choice
 * does not depend on the threads; the attempt is retried after the skip. */
#define UR_SKIP_MAX 32
#define SH_TINY_EXP 700.0
#define SH_TINY_PROB 1e-16

void ld_direct_prepare(ds_loader *ld)
{
    struct ld_direct_all *a = ld->direct;
    const ds_network *net = ld->net;
    const double *t = ld->t;
    int m = net->n_links;
    a->gen++;
    if (a->gen == 0) a->gen = 1; /* 0 means "no factors" */
    a->sh_on = 0;
    if (a->n == 0 || ld->shared_lu_off || (ld->relax_dag && ld->relax_lambda < 1)) return;
    for (int j = 0; j < a->nnz; j++) a->sh_Ax[j] = 0;
    for (int j = 0; j < a->n; j++) a->sh_Ax[a->dpos[j]] = 1;
    for (int e = 0; e < m; e++) {
        double x = ld->mu * t[e];
        if (!(x <= SH_TINY_EXP)) { /* (or NaN: then every destination checks it) */
            a->sh_w[e] = 0;
            continue;
        }
        a->sh_w[e] = exp(-x);
        if (a->pos[e] >= 0) a->sh_Ax[a->pos[e]] -= a->sh_w[e];
    }
    a->sh_on = 1;
}

/* Worker w's copy of the shared factors of this evaluation (NULL: singular):
 * I - W refactored into the diagonal pivot order (diag_factor's, the same on
 * every worker and at every evaluation, so the bits depend on the values
 * only), which is sound for the M-matrix I - W wherever f exists; where the
 * pivots are not (crude rcond), a fresh pivoted LU, never refactored into.
 * Both workers factorise at once, so this is the evaluation's serial time: a
 * refactor takes about a third of a fresh LU's instructions (Anaheim). */
static klu_numeric *sh_factor(struct ld_direct_all *a, int w)
{
    if (a->sh_gen[w] != a->gen) {
        klu_common *c = &a->common[w];
        klu_numeric *num = a->sh_diag[w] ? a->sh_num[w] : NULL;
        if (!num) {
            if (a->sh_num[w]) klu_free_numeric(&a->sh_num[w], c);
            num = diag_factor(a, c);
        }
        a->sh_diag[w] = num != NULL;
        if (num && !(lu_refactor(a, a->sh_Ax, num, c) && klu_rcond(a->sym, num, c) && c->rcond > 1e-8)) {
            klu_free_numeric(&num, c);
            num = lu_factor(a, a->sh_Ax, c);
            a->sh_diag[w] = 0;
        }
        a->sh_num[w] = num;
        a->sh_gen[w] = a->gen;
    }
    return a->sh_num[w];
}

/* Whether destination di keeps these fresh factors: it is one of those the
 * budget admits, and they are not much larger than the estimate the budget
 * counts (a pivoted LU at an extreme trial point can fill in far beyond KLU's
 * estimate; Austin-SDB's cycle-load start grew to 1.9 GB so). Per destination,
 * so thread-count free. */
static int keepable(const struct ld_direct_all *a, int di, const klu_numeric *num)
{
    return a->keep_num[di] && num && num_bytes(a, num) <= 1.25 * a->dest_bytes;
}

/* The factors of destination di's own unreduced matrix I - W_d (in Ax) for
 * unreduced_eval: its kept factors or the worker's template refactored (no
 * pivot search), or, for a destination that keeps factors and has none yet,
 * its own with the diagonal pivots refactored, else a fresh LU (*fresh set
 * for either). NULL where the refactored pivots are not sound. */
static klu_numeric *own_factor(ds_loader *ld, int di, int worker, const double *Ax, int *fresh)
{
    struct ld_direct_all *a = ld->direct;
    ld_direct *g = &a->d[di];
    klu_common *c = &a->common[worker];
    klu_numeric *num = g->num ? g->num : a->keep_num[di] ? NULL : tm_factor(a, worker);
    *fresh = 0;
    if (!num) {
        /* its own factors with the template's diagonal pivots, refactored */
        num = diag_factor(a, c);
        if (num && lu_refactor(a, (double *)Ax, num, c) && klu_rcond(a->sym, num, c) && c->rcond > 1e-8 &&
            keepable(a, di, num)) {
            *fresh = 1;
            return g->num = num;
        }
        if (num) klu_free_numeric(&num, c);
    }
    if (!num) {
        num = lu_factor(a, (double *)Ax, c);
        if (!keepable(a, di, num)) {
            if (num) klu_free_numeric(&num, c);
            return NULL; /* (the reduced LU decides, without keeping them) */
        }
        *fresh = 1;
        return g->num = num;
    }
    if (!lu_refactor(a, (double *)Ax, num, c) || !klu_rcond(a->sym, num, c) || !(c->rcond > 1e-8)) return NULL;
    return num;
}

/* One destination with unreduced values z = exp(-mu V): with the shared
 * factors (shared = 1: centroid destinations at destination-free costs) or
 * with its own matrix I - W_d refactored (shared = 0: through-node
 * destinations, the relax penalty), no Dijkstra either way. The checks of the
 * comment above decide whether the answer stands. Returns 0 when done (flows
 * added, or, with quick_reject, no positive solution reported), -1 when the
 * destination's reduced LU must decide. */
static int unreduced_eval(ds_loader *ld, int di, int worker, double *flow, int shared)
{
    const ds_network *net = ld->net;
    struct ld_direct_all *a = ld->direct;
    ld_direct *g = &a->d[di];
    ld_scratch *s = &ld->scr[worker];
    klu_common *c = &a->common[worker];
    double *z = a->b[worker], *y = a->y[worker], *w = a->w[worker], t0 = ds_clock_now();
    int d = net->dest_node[di], n = a->n, m = net->n_links, ft = net->first_thru, n_tiny = 0, fresh = 0;
    const double *t = shared ? ld->t : ld_dest_costs(ld, di, s, ld->t);
    const unsigned char *r = ld->reach_node + (size_t)di * ld->reach_stride;
    /* at the evaluation's own costs the weights are the shared ones (the same
     * exp(-mu t) bits): computed once, not once per destination */
    int same_w = a->sh_on && t == ld->t;
    klu_numeric *num;
    double *Ax = shared ? NULL : a->Ax[worker];
    int *act = a->act[worker], n_act = 0; /* the links with a weight, in link order */
    if (Ax) {
        for (int j = 0; j < a->nnz; j++) Ax[j] = 0;
        for (int j = 0; j < n; j++) Ax[a->dpos[j]] = 1;
    }
    /* weights of the links d's problem uses; b = those into d; with its own
     * matrix, I - W_d built in the same pass (each entry's subtractions in
     * link order, as a pass of its own would make them) */
    for (int j = 0; j < n; j++) z[j] = 0;
    for (int e = 0; e < m; e++) {
        int u = net->tail[e], v = net->head[e];
        w[e] = 0;
        if (!dsk_link_usable(u, v, d, ft) || !REACHED(r, u) || !REACHED(r, v)) continue;
        if (!(ld->mu * t[e] <= SH_TINY_EXP)) { /* underflow (0 in the shared matrix too) */
            n_tiny++;
            continue;
        }
        w[e] = same_w ? a->sh_w[e] : exp(-ld->mu * t[e]); /* > 0: mu t <= 700 */
        act[n_act++] = e;
        if (v == d)
            z[u] += w[e];
        else if (Ax)
            Ax[a->pos[e]] -= w[e];
    }
    if (shared)
        num = sh_factor(a, worker);
    else
        num = own_factor(ld, di, worker, Ax, &fresh);
    if (!num || !klu_solve(a->sym, num, n, 1, z, c)) return -1;
    int kind = shared ? 4 : fresh ? 1 : 2;
    double resid = 0;
    for (int refine = 0;; refine++) {
        z[d] = 1;
        for (int i = 0; i < n; i++) {
            if (i == d) continue;
            if (!REACHED(r, i)) {
                z[i] = 0;
                continue;
            }
            if (!(z[i] > -SH_Z_MIN)) {
                /* no positive solution: a verdict only where no weight was
                 * lost to underflow; 0 or a value within round-off of it is
                 * underflow (the range test below), never a verdict */
                if (!ld->quick_reject || n_tiny > 0 || isnan(z[i])) return -1;
                ld->st_lu[di] = kind;
                ld->st_diverged[di] = 1;
                s->t_bellman += ds_clock_now() - t0;
                return 0;
            }
            if (!(z[i] >= SH_Z_MIN && z[i] <= 1 / SH_Z_MIN)) {
                /* out of range: the next evaluations (their costs are close)
                 * go straight to the reduced LU, 1, 2, 4, ... UR_SKIP_MAX of
                 * them while the attempts keep failing */
                g->ur_skip = g->ur_skip ? (2 * g->ur_skip < UR_SKIP_MAX ? 2 * g->ur_skip : UR_SKIP_MAX) : 1;
                g->ur_wait = g->ur_skip;
                g->ur_ranged++;
                return -1;
            }
        }
        /* residual b - (I - W) z relative to z, as max |dV| */
        double *res = y;
        for (int j = 0; j < n; j++) res[j] = -z[j];
        for (int k = 0; k < n_act; k++) {
            int e = act[k];
            res[net->tail[e]] += w[e] * z[net->head[e]];
        }
        res[d] = 0;
        resid = 0;
        for (int j = 0; j < n; j++)
            if (z[j] > 0) resid = max_ignoring_nan(resid, fabs(res[j]) / z[j]);
        if (resid <= 1e-10) break;
        if (refine == 2) return -1;
        for (int j = 0; j < n; j++)
            if (!REACHED(r, j) || j == d) res[j] = 0;
        if (!klu_solve(a->sym, num, n, 1, res, c)) return -1;
        for (int j = 0; j < n; j++) z[j] += res[j];
        if (!shared) kind = 3;
    }
    /* the links left out by underflow must carry (next to) nothing: P =
     * exp(-mu t) z(v) / z(u), in logs */
    for (int e = 0; n_tiny > 0 && e < m; e++) {
        int u = net->tail[e], v = net->head[e];
        if (!dsk_link_usable(u, v, d, ft) || !REACHED(r, u) || !REACHED(r, v) || ld->mu * t[e] <= SH_TINY_EXP) continue;
        if (!(-ld->mu * t[e] + log(z[v]) - log(z[u]) < log(SH_TINY_PROB))) return -1;
    }
    ld->st_lu[di] = kind;
    ld->st_bres[di] = resid;
    g->shared = shared;
    g->ur_skip = 0;
    finish_dest(ld, di, worker, num, z, y, w, flow, t0);
    return 0;
}

/* One destination: values, choice probabilities, absorption, link flows. */
void ld_direct_eval(ds_loader *ld, int di, int worker, double *flow)
{
    const ds_network *net = ld->net;
    struct ld_direct_all *a = ld->direct;
    ld_direct *g = &a->d[di];
    ld_scratch *s = &ld->scr[worker];
    klu_common *c = &a->common[worker];
    const double *t = ld_dest_costs(ld, di, s, ld->t);
    double *D = s->dist, *Ax = a->Ax[worker], *z = a->b[worker], *y = a->y[worker], *w = a->w[worker];
    double mu = ld->mu, t0 = ds_clock_now(), resid = 0;
    int d = net->dest_node[di], n = a->n, m = net->n_links, ft = net->first_thru;
    klu_numeric *num;

    ld->st_bpass[di] = 1;
    ld->st_apass[di] = 1;
    ld->st_bres[di] = ld->st_ares[di] = 0;
    ld->st_ratio[di] = 0;
    ld->st_diverged[di] = 0;
    ld->st_loaded[di] = ld->st_arrived[di] = 0;
    if (n == 0) return;
    if (g->ur_wait > 0) {
        g->ur_wait--;
        g->ur_skips++;
    } else if (!ld->shared_lu_off) {
        g->ur_tries++;
        /* unreduced first: shared factors where they apply, else its own */
        if (unreduced_eval(ld, di, worker, flow, a->sh_on && dsk_is_centroid(d, ft)) == 0) return;
        ld->st_loaded[di] = ld->st_arrived[di] = 0;
        ld->st_bres[di] = 0;
        ld->st_lu[di] = 0;
    }
    g->shared = 0;
    sp_dijkstra_to(net, t, d, D, s->hops, NULL, &s->sp);
    for (int j = 0; j < a->nnz; j++) Ax[j] = 0;
    for (int j = 0; j < n; j++) Ax[a->dpos[j]] = 1;
    for (int e = 0; e < m; e++) {
        int u = net->tail[e], v = net->head[e];
        if (!dsk_link_usable(u, v, d, ft) || !isfinite(D[u]) || !isfinite(D[v])) {
            w[e] = 0;
            continue;
        }
        w[e] = dsk_reduced_weight(mu, t[e], D[v], D[u]);
        if (v != d) Ax[a->pos[e]] -= w[e];
    }
    dsys q = {net, a, d, D, w};
    num = g->num;
    g->num = NULL;
    /* a destination that keeps factors and has none yet starts from its own
     * with the diagonal pivots, as a kept one is refactored: a fresh pivoted
     * LU at these costs fills more and is not kept (Austin-SDB full: 3,028
     * fresh LUs instead of none; until stop 13 the set-up's existence test at
     * the capped costs, where I - W is close to I, had left such factors) */
    if (!num && a->keep_num[di]) num = diag_factor(a, c);
    klu_numeric *tmpl = a->keep_num[di] ? NULL : tm_factor(a, worker);
    int kind = 0, ok = solve_values(&q, c, Ax, z, y, ld->quick_reject, tmpl, &num, &resid, &kind);
    ld->st_lu[di] = kind;
    if (!ok) {
        ld->st_diverged[di] = 1;
        /* keep the factors: their pivot order serves the next point */
        if (num && num != tmpl && keepable(a, di, num))
            g->num = num;
        else if (num && num != tmpl)
            klu_free_numeric(&num, c);
        s->t_bellman += ds_clock_now() - t0;
        return;
    }
    ld->st_bres[di] = resid;
    finish_dest(ld, di, worker, num, z, y, w, flow, t0);
    if (num != tmpl && keepable(a, di, num))
        g->num = num;
    else if (num != tmpl)
        klu_free_numeric(&num, c);
}

/* The right-hand side of (I - W~) y = Z b1 for one destination's J v:
 * b1_u = -mu sum_e P_e dt_e over u's out-links, scaled by z. */
static void jv_rhs(const ds_network *net, const double *P, const double *z, const double *dtv, double mu, int n,
                   double *y)
{
    for (int j = 0; j < n; j++) y[j] = 0;
    for (int e = 0; e < net->n_links; e++)
        if (P[e] > 0) y[net->tail[e]] += dsk_dv_term(P[e], 0.0, mu, dtv[e]);
    for (int j = 0; j < n; j++) y[j] *= z[j];
}

/* dV = Z^-1 y from the solved column, 0 at the destination d */
static void jv_dv(const double *y, const double *z, int n, int d, double *dV)
{
    for (int j = 0; j < n; j++) dV[j] = z[j] > 0 ? y[j] / z[j] : 0;
    dV[d] = 0;
}

/* J v for one destination from the kept factors (see loader_jv.c for the math). */
void ld_direct_jv(ds_loader *ld, int di, int worker, double *out)
{
    const ds_network *net = ld->net;
    struct ld_direct_all *a = ld->direct;
    ld_direct *g = &a->d[di];
    klu_common *c = &a->common[worker];
    const double *dtv = ld->dtv, mu = ld->mu;
    const double *P = g->P, *z = g->z;
    double *y = a->y[worker], *dV = a->b[worker];
    int n = a->n, m = net->n_links, d = net->dest_node[di];
    klu_numeric *num = g->num;
    if (n == 0 || !z) return;
    if (g->shared && !P) {
        shared_probs(ld, di, z, a->w[worker]);
        P = a->w[worker];
    }
    if (!P) return;
    if (g->shared) {
        /* the evaluation's shared factors (J v follows its keep evaluation) */
        num = sh_factor(a, worker);
        if (!num) {
            ld->jv_failed = 1;
            return;
        }
    } else if (!num) {
        /* factors not kept (memory budget): I - W~ from the kept P and z
         * (w~_e = P_e z(u) / z(v)), factorised afresh, deterministically */
        double *Ax = a->Ax[worker];
        for (int j = 0; j < a->nnz; j++) Ax[j] = 0;
        for (int j = 0; j < n; j++) Ax[a->dpos[j]] = 1;
        for (int e = 0; e < m; e++)
            if (P[e] > 0 && net->head[e] != d) Ax[a->pos[e]] -= P[e] * z[net->tail[e]] / z[net->head[e]];
        num = tm_factor(a, worker);
        if (!num || !lu_refactor(a, Ax, num, c) || !klu_rcond(a->sym, num, c) || !(c->rcond > 1e-8))
            num = lu_factor(a, Ax, c);
        if (!num) {
            ld->jv_failed = 1; /* atomic: several workers may fail at once */
            return;
        }
    }
    /* (I - P) dV = b1, b1_u = -mu sum P dt; (I - P) = Z^-1 (I - W~) Z */
    jv_rhs(net, P, z, dtv, mu, n, y);
    klu_solve(a->sym, num, n, 1, y, c);
    jv_dv(y, z, n, d, dV);
    /* dP and the absorption source */
    for (int j = 0; j < n; j++) y[j] = 0;
    for (int e = 0; e < m; e++) {
        if (!(P[e] > 0)) continue;
        int u = net->tail[e], v = net->head[e];
        double dP = dsk_dprob(P[e], dV[v], dV[u], mu, dtv[e]);
        double qv = dP * g->phi[u];
        out[e] += qv;
        if (v != d) y[v] += qv;
    }
    /* (I - P^T) dphi = s: dphi = Z (I - W~^T)^-1 Z^-1 s */
    for (int j = 0; j < n; j++) y[j] = z[j] > 0 ? y[j] / z[j] : 0;
    klu_tsolve(a->sym, num, n, 1, y, c);
    for (int j = 0; j < n; j++) y[j] *= z[j];
    for (int e = 0; e < m; e++)
        if (P[e] > 0) out[e] += P[e] * y[net->tail[e]];
    if (num != g->num && !g->shared && num != a->tm[worker]) klu_free_numeric(&num, c);
}

void ds_loader_state_plan(const ds_loader *ld, int keep, double *least, double *most)
{
    double nd = ld->n_dest, n = ld->net->n_nodes, probs = nd * ld->net->n_links * sizeof(double);
    *least = *most = ld->direct ? 0 : nd * n * sizeof(double); /* ld->V: touched by --inner passes only */
    if (!keep) return;
    *least += 2 * nd * n * sizeof(double) + fmin(probs, ld->prob_budget);
    *most += 2 * nd * n * sizeof(double) + probs;
}

double ld_direct_state_bytes(const ds_loader *ld)
{
    double bytes = 0;
    for (int di = 0; ld->direct && di < ld->n_dest; di++) {
        const ld_direct *g = &ld->direct->d[di];
        bytes += ((g->z != NULL) + (g->phi != NULL)) * (double)ld->direct->n * sizeof(double);
        bytes += (g->P != NULL) * (double)ld->net->n_links * sizeof(double);
    }
    return bytes;
}

void ld_direct_ur_counts(const ds_loader *ld, long *tries, long *ranged, long *skips)
{
    *tries = *ranged = *skips = 0;
    for (int di = 0; ld->direct && di < ld->n_dest; di++) {
        const ld_direct *g = &ld->direct->d[di];
        *tries += g->ur_tries, *ranged += g->ur_ranged, *skips += g->ur_skips;
    }
}

int ld_direct_jv_shared(const ds_loader *ld, int di) { return ld->direct->d[di].shared && ld->direct->d[di].z; }

/* J v for k <= JV_GROUP destinations that took their values from the
 * evaluation's shared factors, as ld_direct_jv does one: their first solves
 * as one k-column solve, their transposed solves as another (KLU reads the
 * factors once for up to four columns: about half the time a column on
 * Austin-SDB). Each column's arithmetic is a one-column solve's, and each
 * destination's additions to out come in ld_direct_jv's order (its dP phi
 * terms kept in gQ until its turn), so the result is the same bits. */
void ld_direct_jv_group(ds_loader *ld, const int *dis, int k, int worker, double *out)
{
    const ds_network *net = ld->net;
    struct ld_direct_all *a = ld->direct;
    klu_common *c = &a->common[worker];
    const double *dtv = ld->dtv, mu = ld->mu;
    double *dV = a->b[worker];
    int n = a->n, m = net->n_links;
    klu_numeric *num = sh_factor(a, worker);
    if (!num) {
        ld->jv_failed = 1;
        return;
    }
    const double *Pq[JV_GROUP];
    for (int q = 0; q < k; q++) {
        const ld_direct *g = &a->d[dis[q]];
        Pq[q] = g->P;
        if (!Pq[q]) {
            double *P = a->gP[worker] + (size_t)q * m;
            shared_probs(ld, dis[q], g->z, P);
            Pq[q] = P;
        }
        jv_rhs(net, Pq[q], g->z, dtv, mu, n, a->gY[worker] + (size_t)q * n);
    }
    klu_solve(a->sym, num, n, k, a->gY[worker], c);
    for (int q = 0; q < k; q++) {
        const ld_direct *g = &a->d[dis[q]];
        const double *P = Pq[q], *z = g->z;
        double *y = a->gY[worker] + (size_t)q * n, *qv = a->gQ[worker] + (size_t)q * m;
        int d = net->dest_node[dis[q]];
        jv_dv(y, z, n, d, dV);
        for (int j = 0; j < n; j++) y[j] = 0;
        for (int e = 0; e < m; e++) {
            if (!(P[e] > 0)) continue;
            int u = net->tail[e], v = net->head[e];
            qv[e] = dsk_dprob(P[e], dV[v], dV[u], mu, dtv[e]) * g->phi[u];
            if (v != d) y[v] += qv[e];
        }
        for (int j = 0; j < n; j++) y[j] = z[j] > 0 ? y[j] / z[j] : 0;
    }
    klu_tsolve(a->sym, num, n, k, a->gY[worker], c);
    for (int q = 0; q < k; q++) {
        const ld_direct *g = &a->d[dis[q]];
        const double *P = Pq[q], *z = g->z, *qv = a->gQ[worker] + (size_t)q * m;
        double *y = a->gY[worker] + (size_t)q * n;
        for (int j = 0; j < n; j++) y[j] *= z[j];
        for (int e = 0; e < m; e++) /* (each link's two additions in their order) */
            if (P[e] > 0) {
                out[e] += qv[e];
                out[e] += P[e] * y[net->tail[e]];
            }
    }
}

void ds_loader_set_shared_lu(ds_loader *ld, int on)
{
    ld->shared_lu_off = on == 0;
    ld->kept_valid = 0;
}
