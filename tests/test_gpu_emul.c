/* test_gpu_emul.c - the GPU code path (kernel bodies and host driver, run by
 * the CPU emulation) gives the CPU backend's flows and J v on Sioux Falls and
 * Anaheim, full (exact batched BiCGSTAB and Jacobi passes) and dsp; visiting
 * order does not matter; an inner solve that does not converge is reported as
 * unconverged with its residual and pass count, never as divergence, and the
 * exact solver then solves the same point like the CPU's sparse LU (and on
 * Eastern Massachusetts after a stale warm start); the demand loaded and
 * arrived (the certificate's totals) equal the CPU's; without a
 * device the probe says "GPU: none"; level sweeps are recorded once and
 * replayed. On a machine with a GPU the device path
 * is compared too. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cuda/dsg_ops.h"
#include "dillsue.h"
#include "gpu.h"
#include "tcheck.h"

#define REL_TOL 1e-12
#define DEV_TOL 1e-10 /* device exp/log may differ from glibc's in the last bits */

/* max over links of |a - b| / |b|, links carrying less than 1e-9 of the
 * largest value measured against that floor instead (their own size is
 * rounding noise of the sums that produce them). */
static double rel_err(const double *a, const double *b, int m, int *where)
{
    double big = 0, worst = 0;
    for (int e = 0; e < m; e++)
        if (fabs(b[e]) > big) big = fabs(b[e]);
    *where = -1;
    for (int e = 0; e < m; e++) {
        double s = fabs(b[e]) > 1e-9 * big ? fabs(b[e]) : 1e-9 * big;
        double r = s > 0 ? fabs(a[e] - b[e]) / s : fabs(a[e] - b[e]);
        if (!(r <= worst)) {
            worst = r;
            *where = e;
        }
    }
    return worst;
}

typedef struct net_case {
    const char *name, *path;
} net_case;

/* Where to compare: tau 10 at free flow if f exists there, else tau 10 at
 * 1 x capacity, else tau 20 at 1 x capacity (Anaheim's full graph has no
 * fixed point at tau 10). Returns the CPU loader with fc = f(x), or NULL. */
static ds_loader *pick_start(const ds_network *net, ds_filter filter, double *x, double *fc, char *used, size_t n)
{
    static const double taus[] = {10, 10, 20}, caps[] = {0, 1, 1};
    int full = filter == DS_FILTER_FULL;
    ds_cost_params cp = {0};
    double cbar = ds_network_cbar(net, &cp);
    for (int c = 0; c < 3; c++) {
        ds_error err;
        ds_loader *cpu = ds_loader_create(net, &cp, filter, taus[c] / cbar, 1, full ? 2000 : 0, full ? 1e-14 : 0, &err);
        if (!cpu) return NULL;
        for (int e = 0; e < net->n_links; e++) x[e] = caps[c] * net->capacity[e];
        if (ds_loader_set_keep(cpu, 1) == 0 && ds_loader_eval(cpu, x, fc) == 0) {
            snprintf(used, n, "tau %g at %g x capacity", taus[c], caps[c]);
            return cpu;
        }
        ds_loader_free(cpu);
    }
    return NULL;
}

/* Normwise: max over links of |a - b| / max over links of |b|. Used for J v,
 * whose entries are sums of terms of both signs: a link whose J v cancels to
 * ~0 carries the rounding of its terms, not a relative error of its own. */
static double norm_err(const double *a, const double *b, int m, int *where)
{
    double big = 0, worst = -1;
    *where = -1; /* m == 0 (gcc -O3: -Wmaybe-uninitialized at the callers) */
    for (int e = 0; e < m; e++)
        if (fabs(b[e]) > big) big = fabs(b[e]);
    for (int e = 0; e < m; e++)
        if (!(fabs(a[e] - b[e]) <= worst)) {
            worst = fabs(a[e] - b[e]);
            *where = e;
        }
    return big > 0 ? worst / big : worst;
}

static void compare_case(const ds_network *net, const char *nname, ds_filter filter, ds_inner inner, int device)
{
    char name[160], buf[512];
    int m = net->n_links, where;
    double e1, e2;
    ds_error err;
    ds_loader *cpu;
    ds_gpu_loader *g;
    ds_load_stats st;
    double *x = calloc((size_t)m, sizeof(double)), *x2 = calloc((size_t)m, sizeof(double));
    double *fc = calloc((size_t)m, sizeof(double)), *fg = calloc((size_t)m, sizeof(double));
    double *v = calloc((size_t)m, sizeof(double)), *jc = calloc((size_t)m, sizeof(double));
    double *jg = calloc((size_t)m, sizeof(double)), *fr = calloc((size_t)m, sizeof(double));
    double tol = device ? DEV_TOL : REL_TOL, r;
    const char *kind = device ? "device" : "emul";
    char used[64];

    snprintf(name, sizeof name, "gpu_%s_%s_%s%s", kind, nname, ds_filter_name(filter),
             filter == DS_FILTER_FULL ? (inner == DS_INNER_DIRECT ? "_exact" : "_passes") : "");
    cpu = pick_start(net, filter, x, fc, used, sizeof used);
    if (!cpu) {
        tc_skip(name, "f(x) does not exist at tau 10 (free flow, 1 x capacity) nor at tau 20 (1 x capacity)");
        goto out;
    }
    printf("# %s: %s\n", name, used);
    g = ds_gpu_loader_create(cpu, !device, &err);
    tc_begin(name);
    ds_error_format(&err, buf, sizeof buf);
    TC_CHECK(g != NULL, "create: %s", buf);
    if (!g) {
        tc_end();
        goto out;
    }
    ds_gpu_loader_set_inner(g, inner);
    /* first point: cold start on the GPU side */
    TC_CHECK(ds_gpu_loader_eval(g, x, fg, &st) == 0, "eval: %s", ds_gpu_last_error());
    r = e1 = rel_err(fg, fc, m, &where);
    TC_CHECK(r <= tol, "flows at the start point: rel err %.3g on link %d (gpu %.17g cpu %.17g)", r, where,
             where >= 0 ? fg[where] : 0, where >= 0 ? fc[where] : 0);
    TC_CHECK(st.t_phase[DS_PHASE_BELLMAN] >= 0 && st.bellman_passes >= 1 && st.diverged_dest == -1,
             "stats: passes %d diverged %d", st.bellman_passes, st.diverged_dest);
    /* second point (one MSA step): the GPU side warm-starts */
    for (int e = 0; e < m; e++) x2[e] = 0.5 * (x[e] + fc[e]);
    TC_CHECK(ds_loader_eval(cpu, x2, fc) == 0, "CPU eval at x2");
    TC_CHECK(ds_gpu_loader_eval(g, x2, fg, &st) == 0, "eval x2: %s", ds_gpu_last_error());
    r = e2 = rel_err(fg, fc, m, &where);
    e1 = e1 > e2 ? e1 : e2;
    TC_CHECK(r <= tol, "flows after a step (warm start): rel err %.3g on link %d", r, where);
    {
        /* the certificate's totals: demand with a path, demand that arrived */
        double lc, ac, lg, ag;
        ds_loader_arrivals(cpu, &lc, &ac);
        ds_gpu_loader_arrivals(g, &lg, &ag);
        TC_CHECK(lg == lc && lc > 0, "demand loaded: gpu %.17g cpu %.17g", lg, lc);
        TC_CHECK(fabs(ag - ac) <= tol * lc && ac > 0.999 * lc, "demand arrived: gpu %.17g cpu %.17g of %.17g", ag, ac,
                 lc);
    }
    /* J v in a direction with both signs */
    for (int e = 0; e < m; e++) v[e] = (fc[e] - x2[e]) * (e % 3 == 0 ? -0.5 : 1.0) + 0.1 * net->capacity[e];
    TC_CHECK(ds_loader_jv(cpu, x2, v, jc) == 0, "CPU jv");
    TC_CHECK(ds_gpu_loader_jv(g, x2, v, jg, &st) == 0, "jv: %s", ds_gpu_last_error());
    r = norm_err(jg, jc, m, &where);
    TC_CHECK(r <= tol, "J v: normwise rel err %.3g on link %d (gpu %.17g cpu %.17g)", r, where,
             where >= 0 ? jg[where] : 0, where >= 0 ? jc[where] : 0);
    TC_CHECK(st.t_phase[DS_PHASE_DERIV] >= 0, "deriv time");
    printf("# %s: flows rel err %.2g (per link), J v rel err %.2g (normwise)\n", name, e1, r);
    if (!device) {
        /* the one-writer invariant: the reverse visiting order gives the same
         * bits, in the evaluation's kernels and in J v's (dtv, the derivative
         * passes or solves, dP, the sources, the per-link sums) */
        ds_gpu_loader *g2 = ds_gpu_loader_create(cpu, 1, &err);
        TC_CHECK(g2 != NULL, "second loader");
        if (g2) {
            ds_gpu_loader_set_inner(g2, inner);
            dsg_emul_reverse(1);
            TC_CHECK(ds_gpu_loader_eval(g2, x2, fr, NULL) == 0, "reverse eval");
            TC_CHECK(ds_gpu_loader_jv(g2, x2, v, jc, NULL) == 0, "reverse J v: %s", ds_gpu_last_error());
            dsg_emul_reverse(0);
            /* g was warm-started from x: evaluate g cold as well */
            ds_gpu_loader *g3 = ds_gpu_loader_create(cpu, 1, &err);
            if (g3) ds_gpu_loader_set_inner(g3, inner);
            TC_CHECK(g3 && ds_gpu_loader_eval(g3, x2, fg, NULL) == 0, "forward eval");
            TC_CHECK(memcmp(fr, fg, sizeof(double) * (size_t)m) == 0, "reverse visiting order changed the flows");
            TC_CHECK(g3 && ds_gpu_loader_jv(g3, x2, v, jg, NULL) == 0, "forward J v: %s", ds_gpu_last_error());
            TC_CHECK(memcmp(jc, jg, sizeof(double) * (size_t)m) == 0, "reverse visiting order changed J v");
            ds_gpu_loader_free(g3);
            ds_gpu_loader_free(g2);
        }
    }
    ds_gpu_loader_free(g);
    tc_end();
out:
    ds_loader_free(cpu);
    free(x), free(x2), free(fc), free(fg), free(v), free(jc), free(jg), free(fr);
}

/* Where the CPU says f(x) does not exist (tiny mu: the weight matrix has
 * spectral radius > 1), the GPU path says so too, and recovers afterwards. */
static void divergence_case(const ds_network *net)
{
    ds_cost_params cp = {0};
    ds_error err;
    int m = net->n_links;
    double cbar = ds_network_cbar(net, &cp);
    double *x = calloc((size_t)m, sizeof(double)), *f = calloc((size_t)m, sizeof(double));
    ds_loader *cpu = ds_loader_create(net, &cp, DS_FILTER_FULL, 0.01 / cbar, 1, 200, 1e-13, &err);
    ds_gpu_loader *g = cpu ? ds_gpu_loader_create(cpu, 1, &err) : NULL;
    ds_load_stats st;
    tc_begin("gpu_emul_divergence_like_cpu");
    TC_CHECK(cpu && g, "create");
    if (cpu && g) {
        int rc_cpu = ds_loader_eval(cpu, x, f), rc_gpu = ds_gpu_loader_eval(g, x, f, &st);
        TC_CHECK(rc_cpu == 1, "CPU should find no fixed point at tau 0.01, got %d", rc_cpu);
        TC_CHECK(rc_gpu == 1 && st.diverged_dest >= 0, "GPU path: rc %d diverged_dest %d", rc_gpu, st.diverged_dest);
        printf("# tau 0.01, exact solver: %s after %d iterations (scaled residual %.3g)\n",
               st.unconverged ? "unconverged" : "solved, no positive solution", st.bellman_passes, st.bellman_resid);
        TC_CHECK(ds_gpu_loader_jv(g, x, x, f, NULL) == -1 && strstr(ds_gpu_last_error(), "successful"),
                 "J v after a diverged eval must fail, said '%s'", ds_gpu_last_error());
    }
    tc_end();
    ds_gpu_loader_free(g);
    ds_loader_free(cpu);
    free(x), free(f);
}

/* Anaheim, full graph, tau 10, x = 2 x capacity (where solve starts: f
 * exists, spectral radius ~ 0.95 there). Jacobi passes capped at 5 (plus
 * the trees' depth) do not converge: eval reports "unconverged" with the pass count and the residual
 * (never a divergence verdict), returns no flows and refuses J v. The exact
 * solver (batched BiCGSTAB) at the same point gives the CPU sparse LU's flows
 * and J v, and its statistics say how many iterations to what residual. */
static void unconverged_case(const ds_network *net)
{
    ds_cost_params cp = {0};
    ds_error err;
    int m = net->n_links, where;
    double mu = 10 / ds_network_cbar(net, &cp), r;
    double *x = calloc((size_t)m, sizeof(double)), *v = calloc((size_t)m, sizeof(double));
    double *fc = calloc((size_t)m, sizeof(double)), *fg = calloc((size_t)m, sizeof(double));
    double *jc = calloc((size_t)m, sizeof(double)), *jg = calloc((size_t)m, sizeof(double));
    ds_loader *lu = ds_loader_create(net, &cp, DS_FILTER_FULL, mu, 1, 0, 0, &err);
    ds_loader *cpu5 = ds_loader_create(net, &cp, DS_FILTER_FULL, mu, 1, 5, 1e-13, &err);
    ds_gpu_loader *g = cpu5 ? ds_gpu_loader_create(cpu5, 1, &err) : NULL;
    ds_load_stats st;
    tc_begin("gpu_emul_unconverged_then_exact");
    TC_CHECK(lu && cpu5 && g, "create");
    if (lu && cpu5 && g) {
        for (int e = 0; e < m; e++) x[e] = 2 * net->capacity[e];
        TC_CHECK(ds_loader_set_inner(lu, DS_INNER_DIRECT) == 0 && ds_loader_set_keep(lu, 1) == 0, "CPU LU set-up");
        TC_CHECK(ds_loader_eval(lu, x, fc) == 0, "CPU sparse LU: f(2 x capacity) should exist");
        TC_CHECK(strcmp(ds_gpu_loader_inner(g), "BiCGSTAB (exact)") == 0, "default inner solver: %s",
                 ds_gpu_loader_inner(g));
        ds_gpu_loader_set_inner(g, DS_INNER_PASSES);
        memset(&st, 0, sizeof st);
        TC_CHECK(ds_gpu_loader_eval(g, x, fg, &st) == 1, "5 passes must not be accepted");
        printf("# passes: %d, max |dV| %.3g, contraction %.4f per pass\n", st.bellman_passes, st.bellman_resid,
               st.contraction);
        TC_CHECK(st.unconverged == 1 && st.diverged_dest >= 0 && st.diverged_dest < net->n_dest,
                 "must be reported as unconverged (unconverged %d, destination %d)", st.unconverged, st.diverged_dest);
        /* the limit: 5 plus the free-flow trees' depth (Jacobi carries a change a link a pass) */
        int lim = ds_gpu_loader_pass_limit(g);
        TC_CHECK(lim > 5 && st.bellman_passes >= lim && st.bellman_passes <= lim + 1 && st.bellman_resid > 1e-10 &&
                     st.contraction > 0 && st.contraction < 1,
                 "pass count %d (limit %d), residual %.3g, contraction %.3g", st.bellman_passes, lim, st.bellman_resid,
                 st.contraction);
        TC_CHECK(ds_gpu_loader_jv(g, x, x, jg, NULL) == -1, "J v after an unconverged eval must fail");
        /* the exact solver, same loader, same point */
        ds_gpu_loader_set_inner(g, DS_INNER_DIRECT);
        memset(&st, 0, sizeof st);
        TC_CHECK(ds_gpu_loader_eval(g, x, fg, &st) == 0, "exact solve: %s", ds_gpu_last_error());
        printf("# BiCGSTAB: %d iterations to scaled residual %.3g; absorption %d to %.3g\n", st.bellman_passes,
               st.bellman_resid, st.absorb_passes, st.absorb_resid);
        TC_CHECK(st.unconverged == 0 && st.diverged_dest == -1 && st.bellman_resid <= 1e-13 &&
                     st.absorb_resid <= 1e-13 && st.bellman_passes > 5,
                 "stats: unconverged %d dest %d resid %.3g/%.3g iterations %d", st.unconverged, st.diverged_dest,
                 st.bellman_resid, st.absorb_resid, st.bellman_passes);
        r = rel_err(fg, fc, m, &where);
        TC_CHECK(r <= REL_TOL, "flows vs CPU sparse LU: rel err %.3g on link %d", r, where);
        for (int e = 0; e < m; e++) v[e] = (fc[e] - x[e]) * (e % 2 ? 1.0 : -0.3);
        TC_CHECK(ds_loader_jv(lu, x, v, jc) == 0 && ds_gpu_loader_jv(g, x, v, jg, NULL) == 0, "J v: %s",
                 ds_gpu_last_error());
        r = norm_err(jg, jc, m, &where);
        TC_CHECK(r <= REL_TOL, "J v vs CPU sparse LU: normwise rel err %.3g on link %d", r, where);
        printf("# exact: flows and J v vs CPU sparse LU within %g\n", REL_TOL);
    }
    tc_end();
    ds_gpu_loader_free(g);
    ds_loader_free(cpu5);
    ds_loader_free(lu);
    free(x), free(v), free(fc), free(fg), free(jc), free(jg);
}

/* Sioux Falls, full graph, tau 10, x = capacity, Jacobi passes: with the
 * evaluation's state kept, J v whose passes run out (caps cut to 1 Bellman
 * pass, J v 4, or 1 absorption pass) fails and says so, on the device as on
 * the CPU (test_loader.c): it returned the product of unconverged passes
 * without a word. With the caps restored it agrees with the CPU's. */
static void passes_jv_case(const ds_network *net)
{
    ds_cost_params cp = {0};
    ds_error err;
    int m = net->n_links, where;
    double mu = 10 / ds_network_cbar(net, &cp);
    double *x = calloc((size_t)m, sizeof(double)), *v = calloc((size_t)m, sizeof(double));
    double *f = calloc((size_t)m, sizeof(double)), *jg = calloc((size_t)m, sizeof(double));
    double *jc = calloc((size_t)m, sizeof(double));
    ds_loader *cpu = ds_loader_create(net, &cp, DS_FILTER_FULL, mu, 1, 2000, 1e-13, &err);
    ds_gpu_loader *g = cpu ? ds_gpu_loader_create(cpu, 1, &err) : NULL;
    tc_begin("gpu_emul_passes_jv_unconverged_fails");
    TC_CHECK(cpu && g, "create");
    if (cpu && g) {
        ds_gpu_loader_set_inner(g, DS_INNER_PASSES);
        for (int e = 0; e < m; e++) x[e] = net->capacity[e], v[e] = e % 2 ? 1.0 : -0.3;
        TC_CHECK(ds_gpu_loader_eval(g, x, f, NULL) == 0, "eval: %s", ds_gpu_last_error());
        ds_gpu_loader_set_passes(g, 1, 1000);
        TC_CHECK(ds_gpu_loader_jv(g, x, v, jg, NULL) == -1 &&
                     strstr(ds_gpu_last_error(), "Bellman derivative did not converge within 4 passes"),
                 "J v with 4 Bellman passes must fail, said '%s'", ds_gpu_last_error());
        ds_gpu_loader_set_passes(g, 2000, 1);
        TC_CHECK(ds_gpu_loader_jv(g, x, v, jg, NULL) == -1 &&
                     strstr(ds_gpu_last_error(), "absorption derivative did not converge within 1 passes"),
                 "J v with 1 absorption pass must fail, said '%s'", ds_gpu_last_error());
        ds_gpu_loader_set_passes(g, 2000, 2000);
        TC_CHECK(ds_loader_set_keep(cpu, 1) == 0 && ds_loader_eval(cpu, x, f) == 0 &&
                     ds_loader_jv(cpu, x, v, jc) == 0 && ds_gpu_loader_jv(g, x, v, jg, NULL) == 0,
                 "J v with the loader's caps: %s", ds_gpu_last_error());
        double r = norm_err(jg, jc, m, &where);
        TC_CHECK(r <= REL_TOL, "J v vs the CPU's: normwise rel err %.3g on link %d", r, where);
    }
    tc_end();
    ds_gpu_loader_free(g);
    ds_loader_free(cpu);
    free(x), free(v), free(f), free(jg), free(jc);
}

/* Eastern Massachusetts, full graph, tau 10: from 1 x capacity one MSA step
 * to x = f(x) raises the costs so far that the previous values make a start
 * z = exp(V + mu D) near e^600 (its squared residual overflowed the dot
 * products once): the exact solver must restart from z = 1 and agree with the
 * CPU's sparse LU there (this test fails without that restart). */
static void stale_warm_case(const ds_network *net)
{
    ds_cost_params cp = {0};
    ds_error err;
    int m = net->n_links, where;
    double mu = 10 / ds_network_cbar(net, &cp), r;
    double *x = calloc((size_t)m, sizeof(double)), *fc = calloc((size_t)m, sizeof(double));
    double *fg = calloc((size_t)m, sizeof(double));
    ds_loader *lu = ds_loader_create(net, &cp, DS_FILTER_FULL, mu, 1, 0, 0, &err);
    ds_gpu_loader *g = lu ? ds_gpu_loader_create(lu, 1, &err) : NULL;
    ds_load_stats st;
    tc_begin("gpu_emul_EMA_tau10_stale_warm_start");
    TC_CHECK(lu && g && ds_loader_set_inner(lu, DS_INNER_DIRECT) == 0, "create");
    if (lu && g) {
        for (int e = 0; e < m; e++) x[e] = net->capacity[e];
        TC_CHECK(ds_loader_eval(lu, x, fc) == 0 && ds_gpu_loader_eval(g, x, fg, &st) == 0, "f(capacity): %s",
                 ds_gpu_last_error());
        memcpy(x, fc, sizeof(double) * (size_t)m);
        TC_CHECK(ds_loader_eval(lu, x, fc) == 0, "CPU sparse LU: f should exist after the step");
        memset(&st, 0, sizeof st);
        TC_CHECK(ds_gpu_loader_eval(g, x, fg, &st) == 0, "GPU after the step: unconverged %d, residual %.3g after %d",
                 st.unconverged, st.bellman_resid, st.bellman_passes);
        r = rel_err(fg, fc, m, &where);
        TC_CHECK(r <= REL_TOL, "flows vs CPU sparse LU: rel err %.3g on link %d", r, where);
    }
    tc_end();
    ds_gpu_loader_free(g);
    ds_loader_free(lu);
    free(x), free(fc), free(fg);
}

/* eDSP: after the CPU loader rebuilds its DAGs at congested costs, the GPU
 * loader re-reads them and agrees again. */
static void edsp_case(const ds_network *net)
{
    ds_cost_params cp = {0};
    ds_error err;
    int m = net->n_links, where;
    double *x = calloc((size_t)m, sizeof(double)), *t = calloc((size_t)m, sizeof(double));
    double *fc = calloc((size_t)m, sizeof(double)), *fg = calloc((size_t)m, sizeof(double));
    ds_loader *cpu = ds_loader_create(net, &cp, DS_FILTER_EDSP, 10 / ds_network_cbar(net, &cp), 1, 0, 0, &err);
    ds_gpu_loader *g = cpu ? ds_gpu_loader_create(cpu, 1, &err) : NULL;
    long add = 0, rem = 0;
    uint64_t sig;
    tc_begin("gpu_emul_edsp_refresh");
    TC_CHECK(cpu && g, "create");
    if (cpu && g) {
        /* uneven loads: a uniform x/c scales every Sioux Falls cost alike (same b
         * and power everywhere), which leaves the exact DSP mask unchanged */
        for (int e = 0; e < m; e++) x[e] = (0.5 + (e % 4)) * net->capacity[e];
        ds_costs_eval(net, &cp, x, t);
        TC_CHECK(ds_loader_refresh_mask(cpu, t, &add, &rem, &sig) == 0, "refresh");
        TC_CHECK(add + rem > 0, "the mask should change at uneven loads");
        TC_CHECK(ds_gpu_loader_sync_dags(g) == 0, "sync: %s", ds_gpu_last_error());
        TC_CHECK(ds_loader_eval(cpu, x, fc) == 0 && ds_gpu_loader_eval(g, x, fg, NULL) == 0, "evals");
        double r = rel_err(fg, fc, m, &where);
        TC_CHECK(r <= REL_TOL, "flows after the refresh: rel err %.3g on link %d", r, where);
    }
    tc_end();
    ds_gpu_loader_free(g);
    ds_loader_free(cpu);
    free(x), free(t), free(fc), free(fg);
}

/* Level sweeps are recorded once and replayed (CUDA graphs on a device; the
 * emulation keeps the launches and runs them at replay): repeated evaluations
 * and J v record nothing new and give the same bits; after the DAGs change
 * (sync) the sweeps are recorded again and the flows follow the new DAGs. */
static void recorded_case(const ds_network *net)
{
    ds_cost_params cp = {0};
    ds_error err;
    int m = net->n_links, where;
    double *x = calloc((size_t)m, sizeof(double)), *v = calloc((size_t)m, sizeof(double));
    double *f1 = calloc((size_t)m, sizeof(double)), *f2 = calloc((size_t)m, sizeof(double));
    double *fc = calloc((size_t)m, sizeof(double)), *t = calloc((size_t)m, sizeof(double));
    ds_loader *cpu = ds_loader_create(net, &cp, DS_FILTER_EDSP, 10 / ds_network_cbar(net, &cp), 1, 0, 0, &err);
    ds_gpu_loader *g = cpu ? ds_gpu_loader_create(cpu, 1, &err) : NULL;
    long add = 0, rem = 0;
    tc_begin("gpu_emul_recorded_sweeps");
    TC_CHECK(cpu && g, "create");
    if (cpu && g) {
        int r0, r1, r2;
        for (int e = 0; e < m; e++) x[e] = (0.5 + (e % 4)) * net->capacity[e], v[e] = (e % 3) - 1.0;
        TC_CHECK(ds_gpu_loader_recorded(g) == 0, "nothing recorded before the first evaluation");
        TC_CHECK(ds_gpu_loader_eval(g, x, f1, NULL) == 0, "eval: %s", ds_gpu_last_error());
        r0 = ds_gpu_loader_recorded(g);
        TC_CHECK(r0 == 2, "one Bellman and one absorption sweep recorded, got %d", r0);
        TC_CHECK(ds_gpu_loader_eval(g, x, f2, NULL) == 0 && memcmp(f1, f2, sizeof(double) * (size_t)m) == 0,
                 "a replayed evaluation gives the same bits");
        TC_CHECK(ds_gpu_loader_jv(g, x, v, f2, NULL) == 0, "J v: %s", ds_gpu_last_error());
        r1 = ds_gpu_loader_recorded(g);
        TC_CHECK(ds_gpu_loader_jv(g, x, v, f1, NULL) == 0 && memcmp(f1, f2, sizeof(double) * (size_t)m) == 0,
                 "a replayed J v gives the same bits");
        TC_CHECK(ds_gpu_loader_eval(g, x, f1, NULL) == 0, "eval again");
        TC_CHECK(r1 == r0 + 2 && ds_gpu_loader_recorded(g) == r1, "recorded %d, %d, then %d: repeats record again", r0,
                 r1, ds_gpu_loader_recorded(g));
        ds_costs_eval(net, &cp, x, t);
        TC_CHECK(ds_loader_refresh_mask(cpu, t, &add, &rem, NULL) == 0 && add + rem > 0, "the mask changes");
        TC_CHECK(ds_gpu_loader_sync_dags(g) == 0, "sync: %s", ds_gpu_last_error());
        TC_CHECK(ds_loader_eval(cpu, x, fc) == 0 && ds_gpu_loader_eval(g, x, f2, NULL) == 0, "evals after sync");
        r2 = ds_gpu_loader_recorded(g);
        TC_CHECK(r2 == r1 + 2, "new DAGs, new sweeps: recorded %d after %d", r2, r1);
        double r = rel_err(f2, fc, m, &where);
        TC_CHECK(r <= REL_TOL, "flows on the new DAGs: rel err %.3g on link %d", r, where);
    }
    tc_end();
    ds_gpu_loader_free(g);
    ds_loader_free(cpu);
    free(x), free(v), free(f1), free(f2), free(fc), free(t);
}

/* --start relax on the device: at a lambda < 1 the emulated GPU loader gives
 * the CPU's relaxed flows and J v; back at lambda 1 the plain full graph. */
static void relax_case(const ds_network *net, const char *nname, double tau, double load)
{
    ds_cost_params cp = {0};
    ds_error err;
    char name[96];
    int m = net->n_links, where;
    double mu = tau / ds_network_cbar(net, &cp), r;
    double *x = calloc((size_t)m, sizeof(double)), *v = calloc((size_t)m, sizeof(double));
    double *fc = calloc((size_t)m, sizeof(double)), *fg = calloc((size_t)m, sizeof(double));
    double *jc = calloc((size_t)m, sizeof(double)), *jg = calloc((size_t)m, sizeof(double));
    ds_loader *cpu = ds_loader_create(net, &cp, DS_FILTER_FULL, mu, 1, 0, 0, &err);
    ds_gpu_loader *g = cpu ? ds_gpu_loader_create(cpu, 1, &err) : NULL;
    snprintf(name, sizeof name, "gpu_emul_%s_relax", nname);
    tc_begin(name);
    TC_CHECK(cpu && g && ds_loader_set_inner(cpu, DS_INNER_DIRECT) == 0 && ds_loader_set_keep(cpu, 1) == 0, "create");
    if (cpu && g) {
        for (int e = 0; e < m; e++) x[e] = load * net->capacity[e], v[e] = ((e % 5) - 2) * 0.1 * net->capacity[e];
        TC_CHECK(ds_gpu_loader_set_relax(g, 0.01) != 0, "the GPU refuses a lambda the CPU loader is not at");
        TC_CHECK(ds_loader_set_relax(cpu, 0.01) == 0 && ds_gpu_loader_set_relax(g, 0.01) == 0, "set relax: %s",
                 ds_gpu_last_error());
        TC_CHECK(ds_loader_eval(cpu, x, fc) == 0 && ds_gpu_loader_eval(g, x, fg, NULL) == 0, "relaxed evals: %s",
                 ds_gpu_last_error());
        r = rel_err(fg, fc, m, &where);
        TC_CHECK(r <= REL_TOL, "relaxed flows: rel err %.3g on link %d", r, where);
        TC_CHECK(ds_loader_jv(cpu, x, v, jc) == 0 && ds_gpu_loader_jv(g, x, v, jg, NULL) == 0, "J v: %s",
                 ds_gpu_last_error());
        r = norm_err(jg, jc, m, &where);
        TC_CHECK(r <= REL_TOL, "relaxed J v: normwise err %.3g (worst link %d)", r, where);
        printf("# %s: lambda 0.01 at %g x capacity: flows and J v as the CPU's\n", name, load);
        TC_CHECK(ds_loader_set_relax(cpu, 1) == 0 && ds_gpu_loader_set_relax(g, 1) == 0, "lambda 1");
        TC_CHECK(ds_loader_eval(cpu, x, fc) == 0 && ds_gpu_loader_eval(g, x, fg, NULL) == 0, "evals at lambda 1");
        r = rel_err(fg, fc, m, &where);
        TC_CHECK(r <= REL_TOL, "flows at lambda 1: rel err %.3g on link %d", r, where);
    }
    tc_end();
    ds_gpu_loader_free(g);
    ds_loader_free(cpu);
    free(x), free(v), free(fc), free(fg), free(jc), free(jg);
}

static void probe_case(const ds_network *net)
{
    char info[512], buf[512];
    int has = ds_gpu_probe(info, sizeof info);
    tc_begin("gpu_probe_consistent");
    if (has) {
        TC_CHECK(strncmp(info, "GPU: ", 5) == 0 && strncmp(info, "GPU: none", 9) != 0, "probe said '%s'", info);
    } else {
        ds_cost_params cp = {0};
        ds_error err;
        ds_loader *cpu = ds_loader_create(net, &cp, DS_FILTER_DSP, 0.1, 1, 0, 0, &err);
        ds_gpu_loader *g = cpu ? ds_gpu_loader_create(cpu, 0, &err) : NULL;
        TC_CHECK(strncmp(info, "GPU: none (", 11) == 0 && info[strlen(info) - 1] == ')', "probe said '%s'", info);
        TC_CHECK(cpu && !g, "create without a device must fail");
        ds_error_format(&err, buf, sizeof buf);
        TC_CHECK(strncmp(buf, "GPU: none (", 11) == 0, "create said '%s'", buf);
        ds_gpu_loader_free(g);
        ds_loader_free(cpu);
    }
    printf("# %s\n", info);
    tc_end();
}

int main(void)
{
    net_case cases[] = {{"SiouxFalls", "SiouxFalls/SiouxFalls_net.tntp"},
                        {"Anaheim", "Anaheim/Anaheim_net.tntp"},
                        {"EMA", "Eastern-Massachusetts/EMA_net.tntp"}};
    char info[512];
    int device = ds_gpu_probe(info, sizeof info);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *p = tc_tntp(cases[i].path);
        ds_error err;
        ds_network *net;
        char why[600];
        if (!p) {
            snprintf(why, sizeof why, "%s not found (set DILLSUE_TNTP_DIR)", cases[i].path);
            tc_skip(cases[i].name, why);
            continue;
        }
        net = ds_network_load(p, NULL, NULL, NULL, &err);
        if (!net) {
            ds_error_format(&err, why, sizeof why);
            tc_begin(cases[i].name);
            TC_CHECK(0, "load: %s", why);
            tc_end();
            continue;
        }
        if (i == 2) {
            stale_warm_case(net);
            ds_network_free(net);
            continue;
        }
        for (int dev = 0; dev <= device; dev++) {
            compare_case(net, cases[i].name, DS_FILTER_FULL, DS_INNER_DIRECT, dev);
            compare_case(net, cases[i].name, DS_FILTER_FULL, DS_INNER_PASSES, dev);
            compare_case(net, cases[i].name, DS_FILTER_DSP, DS_INNER_DIRECT, dev);
        }
        if (i == 1) {
            unconverged_case(net);
            relax_case(net, cases[i].name, 10, 2);
        }
        if (i == 0) {
            compare_case(net, cases[i].name, DS_FILTER_BFS, DS_INNER_DIRECT, 0);
            edsp_case(net);
            recorded_case(net);
            relax_case(net, cases[i].name, 10, 1);
            divergence_case(net);
            passes_jv_case(net);
            probe_case(net);
        }
        ds_network_free(net);
    }
    return tc_exit();
}
