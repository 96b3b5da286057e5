/* kernels_dev.h - per-element formulas the GPU backend needs beyond kernels.h.
 *
 * Same rule as kernels.h: plain C that also compiles as CUDA __host__
 * __device__ (DSK_FN comes from kernels.h), so the CPU emulation runs exactly
 * the arithmetic the device runs. Anything the CPU backend also evaluates is
 * in kernels.h and used from there; only what the CPU does not compute at all
 * (the log-domain change of Jacobi passes, a NaN-propagating max, the scalar
 * recurrences of the batched Krylov solver) lives here.
 */
#ifndef DS_KERNELS_DEV_H
#define DS_KERNELS_DEV_H

#include "kernels.h"

/* |V_new - V_old| in the log domain. Equal values (including -inf = -inf for
 * a node that still cannot reach the destination) are no change; a node that
 * just became reachable is an infinite change, so a cold start never stops
 * before every reachable node has a finite value. */
DSK_FN double dsk_log_change(double vnew, double vold)
{
    double d;
    if (vnew == vold) return 0;
    d = vnew - vold;
    return d < 0 ? -d : d;
}

/* max that propagates NaN, so a diverging value is never hidden by a reduction. */
DSK_FN double dsk_max_nan(double acc, double x)
{
    return (x > acc || x != x) ? x : acc;
}
#endif
