/* kernels.h - the per-element arithmetic of the loading map, in one place.
 *
 * Every formula that the CPU backend and the CUDA backend both evaluate lives
 * here, once, as a function that compiles as plain C and as CUDA __host__
 * __device__: generalized costs (capped BPR, toll and distance), the centroid
 * rule, log-sum-exp, the exponentiated (reduced-weight) Bellman form and its
 * warm start, choice probabilities and the derivative terms of J v. The CPU
 * loader (loader*.c, costs.c, sp.c), the UE (ue.c) and the GPU kernels
 * (cuda/dsg_kernels.h) call these; none writes its own copy. So the CPU test
 * suite exercises the very bodies the GPU kernels run.
 */
#ifndef DS_KERNELS_H
#define DS_KERNELS_H

#include <math.h>

#ifdef __CUDACC__
#define DSK_FN __host__ __device__ static inline
#else
#define DSK_FN static inline
#endif

/* Flow-independent part of the generalized cost (TNTP: toll factor x toll +
 * distance factor x length). */
DSK_FN double dsk_cost_fixed(double toll_factor, double toll, double distance_factor, double length)
{
    return toll_factor * toll + distance_factor * length;
}

/* Whether a link's cost t0 (1 + b (x/c)^p) + fixed changes with its flow: a
 * link with free-flow time 0 (Chicago-Sketch's connectors), b = 0 or power 0
 * costs the same at every flow. */
DSK_FN int dsk_flow_dependent(double t0, double b, double p) { return t0 * b > 0 && p > 0; }

/* Capped BPR time plus fixed generalized-cost part. Negative flows cost free
 * flow (trial iterates of Anderson/Newton may dip below zero). */
DSK_FN double dsk_cost(double x, double cap_c, double t0, double b, double p, double cap, double fixed)
{
    double r = x / cap_c, pw;
    if (!(r > 0)) r = 0;
    if (cap > 0 && r > cap) r = cap;
    if (p == 0.0)
        pw = 1.0;
    else if (p == 4.0)
        pw = (r * r) * (r * r);
    else if (p == 1.0)
        pw = r;
    else
        pw = pow(r, p);
    return t0 * (1.0 + b * pw) + fixed;
}

/* d cost / d x; zero where the cap is active (the cost is flat there). */
DSK_FN double dsk_cost_deriv(double x, double cap_c, double t0, double b, double p, double cap)
{
    double r = x / cap_c;
    if (b == 0 || p == 0) return 0;
    if (cap > 0 && r >= cap) return 0;
    if (p == 1.0) return t0 * b / cap_c;
    if (!(r > 0)) return 0;
    return t0 * b * p * pow(r, p - 1.0) / cap_c;
}

/* The flow at which the capped BPR time (fixed part excluded) reaches u:
 * dsk_cost's inverse on a flow-dependent link (t0, b, p > 0); 0 at or below
 * free flow, the cap's flow at or above the capped time. */
DSK_FN double dsk_cost_flow(double u, double cap_c, double t0, double b, double p, double cap)
{
    double q = (u / t0 - 1.0) / b;
    if (!(q > 0)) return 0;
    double r = p == 1.0 ? q : pow(q, 1.0 / p);
    if (cap > 0 && r > cap) r = cap;
    return r * cap_c;
}

/* The centroid rule. Nodes numbered below FIRST THRU NODE (0-based: node <
 * first_thru - 1) are zones: a route may start or end there, never pass
 * through. */
DSK_FN int dsk_is_centroid(int node, int first_thru) { return node < first_thru - 1; }

/* A route that starts or ends at `end` may continue through `node`: node is
 * that endpoint or not a centroid. (Backward searches pass the destination,
 * forward searches the origin.) */
DSK_FN int dsk_node_passable(int node, int end, int first_thru)
{
    return node == end || !dsk_is_centroid(node, first_thru);
}

/* Link (u,v) may be used on the way to dest: u is not dest (the destination
 * absorbs) and v may be entered. */
DSK_FN int dsk_link_usable(int u, int v, int dest, int first_thru)
{
    return u != dest && dsk_node_passable(v, dest, first_thru);
}

/* exp(x) for the weights, which underflow often (large mu, long detours):
 * below -745.5 exp() is +0 exactly in IEEE double, but libm reaches that
 * through its slow underflow path (errno, a special case); returning the 0
 * directly gives the same bits (Sioux Falls full at tau 100: 3.5 % of an
 * SRA run's time was that path). exp(0) = 1 exactly too, and 0 is common:
 * the largest term of every log-sum-exp, every shortest-path-tree link's
 * reduced weight; most DAG nodes have one link (Austin-SDB dsp: 7,459 nodes,
 * 9,350 links a destination), so most of their exp calls were exp(0). */
DSK_FN double dsk_exp_weight(double x) { return x < -745.5 ? 0.0 : x == 0 ? 1.0 : exp(x); }

/* --start relax: the penalty on the links outside a destination's DSP DAG,
 * -log(lambda) / mu (their weight exp(-mu t) times lambda). */
DSK_FN double dsk_relax_pen(double lambda, double mu) { return -log(lambda) / mu; }

/* --start relax: the cost destination d sees on a link its DSP DAG leaves out,
 * t + pen with pen = -log(lambda) / mu (weight lambda exp(-mu t)); links in the
 * DAG keep t. */
DSK_FN double dsk_relax_cost(double t, int in_dag, double pen) { return in_dag ? t : t + pen; }

/* Reduced weight exp(-mu (t + D(v) - D(u))), in (0,1] when D is the shortest
 * distance at cost t: the exponentiated Bellman recursion then needs no exp per
 * pass and cannot overflow. */
DSK_FN double dsk_reduced_weight(double mu, double t, double dv, double du)
{
    return dsk_exp_weight(-mu * (t + dv - du));
}

/* Start value of the exponentiated recursion z = exp(V + mu D) from log-domain
 * values v (the previous evaluation's) and the current distance D: at least 1
 * (the shortest route alone contributes 1), and 1 where v is unknown (-inf) or
 * would overflow. */
DSK_FN double dsk_z_start(double v, double mu, double dist)
{
    double lz = v + mu * dist;
    return (lz > 0 && lz < 600) ? exp(lz) : 1.0;
}

/* Existence test of the exponentiated system (I - W~) z = b: its solution is
 * z >= 1 at every node that reaches the destination (the shortest route alone
 * contributes 1) iff the spectral radius of W~ is below 1; a computed z that
 * fails this (NaN and overflow included) means no fixed point at these costs. */
DSK_FN int dsk_z_exists(double z) { return z >= 1 - 1e-9 && z < 1e300; }

/* Log-domain value back from the exponentiated one: V = log z - mu D. */
DSK_FN double dsk_v_from_z(double z, double mu, double dist) { return log(z) - mu * dist; }

/* Log-domain Bellman term a = -mu t + V(v). */
DSK_FN double dsk_bellman_term(double mu, double t, double vv) { return -mu * t + vv; }

/* The log-sum-exp of one finite term a, with its choice probability in *p:
 * exactly what dsk_logsumexp and dsk_prob_norm give for it (exp(a - a) = 1,
 * a sum of 1, log(1) = +0, P = 1 / 1), without the calls. Most DAG nodes
 * have one link. */
DSK_FN double dsk_logsumexp1(double a, double *p)
{
    *p = 1.0;
    return a + 0.0;
}

/* Stable log-sum-exp of n terms a[0..n-1] (n >= 1); ex[] receives exp(a - max)
 * and *sum their sum, so that P_k = dsk_prob_norm(ex[k], *sum). Returns the
 * log-sum-exp. */
DSK_FN double dsk_logsumexp(const double *a, int n, double *ex, double *sum)
{
    double m = a[0], s = 0;
    if (n == 1 && m - m == 0) { /* one finite term */
        *sum = 1.0;
        return dsk_logsumexp1(m, ex);
    }
    for (int k = 1; k < n; k++)
        if (a[k] > m) m = a[k];
    if (m == -INFINITY) {
        *sum = 0;
        for (int k = 0; k < n; k++) ex[k] = 0;
        return -INFINITY;
    }
    for (int k = 0; k < n; k++) {
        ex[k] = dsk_exp_weight(a[k] - m);
        s += ex[k];
    }
    *sum = s;
    return s == 1 ? m + 0.0 : m + log(s); /* log(1) = +0: the same bits, no call */
}

/* Choice probability from a log-sum-exp's term ex and sum (dsk_logsumexp); 0
 * where no term counts (every link leads nowhere). */
DSK_FN double dsk_prob_norm(double ex, double sum) { return sum > 0 ? ex / sum : 0; }

/* Choice probability from the exponentiated values: w~ z(v) / z(u). */
DSK_FN double dsk_choice_prob(double wred, double zv, double zu) { return wred * zv / zu; }

/* J v (implicit differentiation of the converged inner problems, see
 * loader_jv.c), with dt = t'(x) v per link:
 * the Bellman derivative through one link, P_e (dV(v) - mu dt_e); */
DSK_FN double dsk_dv_term(double p, double dvv, double mu, double dt) { return p * (dvv - mu * dt); }

/* the derivative of a choice probability, dP_e = P_e (dV(v) - dV(u) - mu dt_e); */
DSK_FN double dsk_dprob(double p, double dvv, double dvu, double mu, double dt) { return p * (dvv - dvu - mu * dt); }

/* the derivative of a link flow P_e phi(u): dP_e phi(u) + P_e dphi(u). */
DSK_FN double dsk_dflow(double p, double dp, double phi, double dphi) { return dp * phi + p * dphi; }

/* Relative change used as the inner stopping test; equals |dV| to first order. */
DSK_FN double dsk_rel_change(double znew, double zold)
{
    double d = znew - zold;
    if (d < 0) d = -d;
    return d / znew;
}
#endif
