/* vec.h - the level-1 vector kernels of the outer solvers (engine-internal).
 *
 * Plain loops rather than OpenBLAS: OpenBLAS runs dot products of more than
 * about 10,000 entries on its own threads, which then spin (sched_yield) while
 * the loading map's worker pool needs the cores, and its summation order
 * depends on the machine's core count. These loops have a fixed order, so the
 * iterates depend on the inputs only; the compiler vectorises them. */
#ifndef DS_VEC_H
#define DS_VEC_H
#include <math.h>

static inline double vec_dot(int n, const double *a, const double *b)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    for (; i < n; i++) s0 += a[i] * b[i];
    return (s0 + s1) + (s2 + s3);
}

static inline double vec_nrm2(int n, const double *a) { return sqrt(vec_dot(n, a, a)); }

/* y += alpha x */
static inline void vec_axpy(int n, double alpha, const double *x, double *y)
{
    for (int i = 0; i < n; i++) y[i] += alpha * x[i];
}

static inline void vec_scal(int n, double alpha, double *x)
{
    for (int i = 0; i < n; i++) x[i] *= alpha;
}
#endif
