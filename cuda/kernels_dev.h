/* kernels_dev.h - per-element formulas the GPU backend needs beyond kernels.h.
 *
 * Same rule as kernels.h: plain C that also compiles as CUDA __host__
 * __device__ (DSK_FN comes from kernels.h), so the CPU emulation runs exactly
 * the arithmetic the device runs. Anything the CPU backend also evaluates is
 * in kernels.h and used from there; only formulas the CPU writes differently
 * (Jacobi instead of Gauss-Seidel, pull instead of push) live here.
 */
#ifndef DS_KERNELS_DEV_H
#define DS_KERNELS_DEV_H

#include "kernels.h"

/* Flow-independent part of the generalized cost (toll and distance terms),
 * in the same operation order as costs.c so that both give bitwise-equal t. */
DSK_FN double dsk_cost_fixed(double toll_factor, double toll, double distance_factor, double length)
{
    return toll_factor * toll + distance_factor * length;
}

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

/* Derivative of the Bellman value through one link: P_e (dV(v) - mu dt_e). */
DSK_FN double dsk_dv_term(double p, double dvv, double mu, double dt) { return p * (dvv - mu * dt); }

/* Derivative of a choice probability: dP_e = P_e (dV(v) - dV(u) - mu dt_e). */
DSK_FN double dsk_dprob(double p, double dvv, double dvu, double mu, double dt)
{
    return p * (dvv - dvu - mu * dt);
}

/* Derivative of a link flow P_e phi(u): dP_e phi(u) + P_e dphi(u). */
DSK_FN double dsk_dflow(double p, double dp, double phi, double dphi) { return dp * phi + p * dphi; }

/* max that propagates NaN, so a diverging value is never hidden by a reduction. */
DSK_FN double dsk_max_nan(double acc, double x)
{
    return (x > acc || x != x) ? x : acc;
}
#endif
