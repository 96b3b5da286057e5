/* gmres.c - restarted GMRES(m) (Saad & Schultz 1986), matrix-free: one operator
 * product per iteration plus one per restart, none to start from x = 0.
 * Vector kernels from vec.h (why not OpenBLAS: see there). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gmres.h"
#include "vec.h"

int gmres_solve(int n, gmres_op op, void *ctx, const double *b, double *x, double tol, int restart, int max_iter,
                gmres_result *res)
{
    int m = restart > 0 ? restart : 30, total = 0, status = 1;
    double *V = malloc(sizeof(double) * (size_t)n * (size_t)(m + 1));
    double *H = calloc((size_t)(m + 1) * (size_t)m, sizeof(double));
    double *cs = malloc(sizeof(double) * (size_t)m), *sn = malloc(sizeof(double) * (size_t)m);
    double *g = malloc(sizeof(double) * (size_t)(m + 1)), *yv = malloc(sizeof(double) * (size_t)m);
    double *w = malloc(sizeof(double) * (size_t)n);
    double bn = vec_nrm2(n, b), rn = 0;
    memset(x, 0, sizeof(double) * (size_t)n);
    res->iters = 0;
    res->rel_resid = 1;
    res->status = -1;
    if (!V || !H || !cs || !sn || !g || !yv || !w || !isfinite(bn)) goto out;
    if (bn == 0) {
        res->rel_resid = 0;
        res->status = 0;
        status = 0;
        goto out;
    }
    int first = 1;
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
            for (int j = 0; j < k; j++) {
                double a = H[j * m + k], c = H[(j + 1) * m + k];
                H[j * m + k] = cs[j] * a + sn[j] * c;
                H[(j + 1) * m + k] = -sn[j] * a + cs[j] * c;
            }
            double a = H[k * m + k], c = H[(k + 1) * m + k], den = hypot(a, c);
            cs[k] = den > 0 ? a / den : 1;
            sn[k] = den > 0 ? c / den : 0;
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
    }
    res->rel_resid = rn / bn;
    res->status = status;
out:
    res->iters = total;
    free(V), free(H), free(cs), free(sn), free(g), free(yv), free(w);
    return res->status;
}
