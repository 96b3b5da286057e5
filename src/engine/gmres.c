/* gmres.c - restarted GMRES(m) (Saad & Schultz 1986), matrix-free: one operator
 * product per iteration plus one per restart, none to start from x = 0.
 * Vector kernels from vec.h (why not OpenBLAS: see there). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gmres.h"
#include "vec.h"

/* A rotated diagonal at or below this times ||A|| (as far as the products
 * have shown it) is a singular operator's, not progress: an operator that
 * close to singular (condition number 1e14 or more) gives no usable Newton
 * direction anyway. */
#define GMRES_SINGULAR 1e-14

int gmres_basis_len(int n, int restart, int max_iter)
{
    /* a restart beyond max_iter is never reached: its basis (2e9 vectors
     * asked for) failed to allocate at every step and Newton took no step */
    if (restart > 0) return max_iter > 0 && restart > max_iter ? max_iter : restart;
    double fit = GMRES_BASIS_BYTES / (8.0 * ((double)n + 1)) - 1;
    int m = max_iter > 0 ? max_iter : 1;
    if (fit < m) m = fit > GMRES_RESTART_MIN ? (int)fit : GMRES_RESTART_MIN;
    return m;
}

void gmres_work_free(gmres_work *ws)
{
    free(ws->V), free(ws->H), free(ws->cs), free(ws->sn), free(ws->g), free(ws->yv), free(ws->w);
    memset(ws, 0, sizeof *ws);
}

/* The arrays for n unknowns and a basis of m, kept from the last call where
 * they fit: a Newton run solves one system a step, and the basis allocated
 * afresh each time was mapped and faulted in afresh (Sioux Falls' grid cells:
 * a fifth more time). Nothing a call leaves is read by the next: every
 * entry of H, cs, sn and yv a cycle reads it has written first, and g is
 * cleared each cycle, so reuse gives the same bits. */
static int work_fit(gmres_work *ws, int n, int m)
{
    if (ws->V && ws->n == n && (ws->m == m || ws->want == m)) return 0;
    gmres_work_free(ws);
    ws->n = n, ws->m = m;
    ws->V = malloc(sizeof(double) * (size_t)n * (size_t)(m + 1));
    ws->H = calloc((size_t)(m + 1) * (size_t)m, sizeof(double));
    ws->cs = malloc(sizeof(double) * (size_t)m), ws->sn = malloc(sizeof(double) * (size_t)m);
    ws->g = malloc(sizeof(double) * (size_t)(m + 1)), ws->yv = malloc(sizeof(double) * (size_t)m);
    ws->w = malloc(sizeof(double) * (size_t)n);
    if (ws->V && ws->H && ws->cs && ws->sn && ws->g && ws->yv && ws->w) return 0;
    gmres_work_free(ws);
    return -1;
}

int gmres_solve(int n, gmres_op op, void *ctx, const double *b, double *x, double tol, int restart, int max_iter,
                gmres_work *work, gmres_result *res)
{
    int m = gmres_basis_len(n, restart, max_iter), total = 0, status = -1; /* 1 once iterating: not converged */
    gmres_work own = {0}, *ws = work ? work : &own;
    double bn = vec_nrm2(n, b), rn = 0, anorm = 0;
    memset(x, 0, sizeof(double) * (size_t)n);
    res->iters = 0;
    res->rel_resid = 1;
    /* where the whole basis cannot be had, GMRES(30) as before, and the next
     * call with the same request keeps that (no failed allocation a step) */
    if (work_fit(ws, n, m) != 0) {
        if (restart > 0 || m <= GMRES_RESTART_MIN || work_fit(ws, n, GMRES_RESTART_MIN) != 0) goto out;
        ws->want = m;
    }
    m = ws->m;
    if (!isfinite(bn)) goto out;
    double *V = ws->V, *H = ws->H, *cs = ws->cs, *sn = ws->sn, *g = ws->g, *yv = ws->yv, *w = ws->w;
    if (bn == 0) {
        res->rel_resid = 0;
        status = 0;
        goto out;
    }
    int first = 1, singular = 0;
    status = 1;
    while (total < max_iter) {
        /* r = b - A x (b itself in the first cycle: x = 0, no product needed) */
        if (first) {
            memcpy(V, b, sizeof(double) * (size_t)n);
            first = 0;
        } else {
            if (op(ctx, x, w) != 0) {
                status = -1;
                goto out;
            }
            for (int i = 0; i < n; i++) V[i] = b[i] - w[i];
        }
        rn = vec_nrm2(n, V);
        if (rn <= tol * bn) {
            status = 0;
            break;
        }
        vec_scal(n, 1.0 / rn, V);
        memset(g, 0, sizeof(double) * (size_t)(m + 1));
        g[0] = rn;
        int k;
        for (k = 0; k < m && total < max_iter; k++) {
            double *vk = V + (size_t)k * n, *vn = V + (size_t)(k + 1) * n;
            if (op(ctx, vk, vn) != 0) {
                status = -1;
                goto out;
            }
            total++;
            for (int j = 0; j <= k; j++) {
                double h = vec_dot(n, V + (size_t)j * n, vn);
                H[j * m + k] = h;
                vec_axpy(n, -h, V + (size_t)j * n, vn);
            }
            double hn = vec_nrm2(n, vn);
            if (!isfinite(hn)) {
                status = -1;
                goto out;
            }
            H[(k + 1) * m + k] = hn;
            if (hn > 0) vec_scal(n, 1.0 / hn, vn);
            /* ||A v_k||, from the column before its rotations (Pythagoras
             * over the Gram-Schmidt coefficients): the largest is a lower
             * bound on ||A|| */
            double cn = hn;
            for (int j = 0; j <= k; j++) cn = hypot(cn, H[j * m + k]);
            if (cn > anorm) anorm = cn;
            for (int j = 0; j < k; j++) {
                double a = H[j * m + k], c = H[(j + 1) * m + k];
                H[j * m + k] = cs[j] * a + sn[j] * c;
                H[(j + 1) * m + k] = -sn[j] * a + cs[j] * c;
            }
            double a = H[k * m + k], c = H[(k + 1) * m + k], den = hypot(a, c);
            if (den <= GMRES_SINGULAR * anorm) {
                /* A v_k lies in the span of A v_0 .. A v_k-1 to rounding (den
                 * is the part of it outside): A is singular on the basis, and
                 * no column from here on, in this cycle or after a restart,
                 * lowers the least-squares residual |g_k|. Taken as a happy
                 * breakdown, the rotation of that rounding reported residual
                 * 0 for an unsolved system (A = 0 "solved" by x = 0). */
                singular = 1;
                break;
            }
            cs[k] = a / den;
            sn[k] = c / den;
            H[k * m + k] = den;
            H[(k + 1) * m + k] = 0;
            g[k + 1] = -sn[k] * g[k];
            g[k] = cs[k] * g[k];
            if (fabs(g[k + 1]) <= tol * bn || hn == 0) {
                k++;
                break;
            }
        }
        /* back substitution H y = g, x += V y */
        for (int i = k - 1; i >= 0; i--) {
            double s = g[i];
            for (int j = i + 1; j < k; j++) s -= H[i * m + j] * yv[j];
            yv[i] = H[i * m + i] != 0 ? s / H[i * m + i] : 0;
        }
        for (int j = 0; j < k; j++) vec_axpy(n, yv[j], V + (size_t)j * n, x);
        /* The Givens residual |g_k| is the residual of the cycle's least-squares
         * problem; with modified Gram-Schmidt it equals the true residual to
         * rounding at the tolerances inexact Newton asks for (>= 1e-12), so no
         * extra operator product is spent confirming it (each one is a J v). */
        rn = fabs(g[k]);
        if (rn <= tol * bn) {
            status = 0;
            break;
        }
        if (singular) break; /* status 1: not solved, and a restart would repeat it */
    }
    res->rel_resid = rn / bn;
out:
    res->status = status;
    res->iters = total;
    if (ws == &own) gmres_work_free(&own);
    return res->status;
}
