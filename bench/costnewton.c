/* costnewton.c - a measurement, not a solver of the program: Newton's method
 * on the fixed point in link costs, u = T(f(u)), against the engine's Newton
 * on flows, x = f(T(x)) (docs/results.md "Newton in cost variables").
 *
 * Usage: costnewton NET TRIPS [--tau T] [--filter dsp|bfs|full] [--tol X]
 *                   [--threads N] [--start FLOWS.csv] [--verbose]
 *
 * The iterate is the cost vector u, from the free-flow costs, or from the
 * cost column of a flow CSV (`dillsue solve --max-iter 0 --out F.csv` writes
 * the engine's start there: the full graph's f does not exist at free flow).
 * The full graph uses the sparse LU inner solver, as the engine does. Each step
 * solves (I - diag(T'(f(u))) df/dt) du = T(f(u)) - u by GMRES(30) (the
 * operator from ds_loader_jv_costs), with Eisenstat-Walker forcing (choice 2,
 * at most 0.5, never tighter than the tolerance needs), and halves the step
 * until ||T(f(u)) - u|| falls (Armijo). The stopping test is the engine's:
 * gap_rel = ||f(T(x)) - x|| / ||x|| at x = f(u) < tol, which costs one more
 * evaluation an iteration, counted apart ("check evaluations"), so that the
 * iterations, the evaluations of the method and its J v products compare
 * with `dillsue solve --solver newton` on the same cell.
 * Prints one line: iterations / evaluations / J v, check evaluations, gap_rel.
 */
#include "bench_util.h"
#include "gmres.h"

typedef struct cn_ctx {
    ds_loader *ld;
    const double *dtf; /* T'(f(u)) */
    int m, jv;
} cn_ctx;

/* y = (I - diag(T'(f)) df/dt) w */
static int cn_op(void *ctx, const double *w, double *y)
{
    cn_ctx *c = ctx;
    if (ds_loader_jv_costs(c->ld, w, y) != 0) return 1;
    c->jv++;
    for (int e = 0; e < c->m; e++) y[e] = w[e] - c->dtf[e] * y[e];
    return 0;
}

static double cn_norm(const double *a, int m)
{
    double s = 0;
    for (int i = 0; i < m; i++) s += a[i] * a[i];
    return sqrt(s);
}

typedef struct cn_state {
    const ds_network *net;
    ds_cost_params cp;
    ds_loader *ld;
    int m, evals, checks;
    double *u, *f, *h; /* iterate, f(u), T(f(u)) - u */
} cn_state;

/* f and h at costs u; 0, or -1 where f does not exist there */
static int cn_eval(cn_state *s, const double *u, double *f, double *h)
{
    s->evals++;
    if (ds_loader_eval_costs(s->ld, u, f) != 0) return -1;
    ds_costs_eval(s->net, &s->cp, f, h);
    for (int e = 0; e < s->m; e++) h[e] -= u[e];
    return 0;
}

/* the engine's gap_rel at x = f(u) (T(x) = u + h); leaves the loader's state at u */
static double cn_gap(cn_state *s, double *tmp, double *g)
{
    for (int e = 0; e < s->m; e++) tmp[e] = s->u[e] + s->h[e];
    s->checks += 2;
    double gap = INFINITY;
    if (ds_loader_eval_costs(s->ld, tmp, g) == 0) {
        for (int e = 0; e < s->m; e++) g[e] -= s->f[e];
        gap = cn_norm(g, s->m) / cn_norm(s->f, s->m);
    } /* f need not exist at T(f(u)) far from the solution (full graph): gap inf */
    return ds_loader_eval_costs(s->ld, s->u, g) == 0 ? gap : INFINITY;
}

int main(int argc, char **argv)
{
    double tau = 10, tol = 1e-8;
    int threads = 2, verbose = 0;
    const char *start = NULL;
    ds_filter filt = DS_FILTER_DSP;
    if (argc < 3) {
        fprintf(stderr,
                "usage: costnewton NET TRIPS [--tau T] [--filter dsp|bfs|full] [--tol X] [--threads N] [--start F.csv] "
                "[--verbose]\n");
        return 2;
    }
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--tau") && i + 1 < argc)
            tau = atof(argv[++i]);
        else if (!strcmp(argv[i], "--tol") && i + 1 < argc)
            tol = atof(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc)
            i++, filt = !strcmp(argv[i], "bfs")    ? DS_FILTER_BFS
                        : !strcmp(argv[i], "full") ? DS_FILTER_FULL
                                                   : DS_FILTER_DSP;
        else if (!strcmp(argv[i], "--start") && i + 1 < argc)
            start = argv[++i];
        else if (!strcmp(argv[i], "--verbose"))
            verbose = 1;
        else {
            fprintf(stderr, "costnewton: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    ds_error err;
    ds_network *net = ds_network_load(argv[1], argv[2], NULL, NULL, &err);
    if (!net) {
        fprintf(stderr, "costnewton: %s\n", err.msg);
        return 1;
    }
    cn_state s = {net, bu_cost_params(net), NULL, net->n_links, 0, 0, NULL, NULL, NULL};
    int m = s.m, it = 0;
    double mu = tau / ds_network_cbar(net, &s.cp);
    s.ld = ds_loader_create(net, &s.cp, filt, mu, threads, 50, 1e-13, &err);
    if (!s.ld || ds_loader_set_keep(s.ld, 1) != 0 ||
        (filt == DS_FILTER_FULL && ds_loader_set_inner(s.ld, DS_INNER_DIRECT) != 0)) {
        fprintf(stderr, "costnewton: %s\n", s.ld ? "out of memory" : err.msg);
        return 1;
    }
    double *buf = calloc((size_t)m * 9, sizeof(double));
    s.u = buf, s.f = buf + m, s.h = buf + 2 * m;
    double *du = buf + 3 * m, *ut = buf + 4 * m, *ft = buf + 5 * m, *ht = buf + 6 * m, *tmp = buf + 7 * m,
           *g = buf + 8 * m;
    double t0 = bu_now();
    ds_costs_eval(net, &s.cp, du, s.u); /* du = 0 here: free-flow costs */
    if (start && bu_read_flow_csv(start, 3, s.u, m) != 0) {
        fprintf(stderr, "costnewton: cannot read %d costs from %s\n", m, start);
        return 1;
    }
    if (cn_eval(&s, s.u, s.f, s.h) != 0) {
        fprintf(stderr, "costnewton: f does not exist at the %s costs\n", start ? "start" : "free-flow");
        return 1;
    }
    cn_ctx c = {s.ld, tmp, m, 0};
    double hn = cn_norm(s.h, m), eta = 0.1, gap = cn_gap(&s, tmp, g);
    for (; gap >= tol && it < 500; it++) {
        double floor_eta = 0.5 * tol / gap, l = 1, hnt = INFINITY;
        gmres_result gr;
        if (eta < floor_eta) eta = floor_eta;
        ds_costs_deriv(net, &s.cp, s.f, tmp);
        memset(du, 0, sizeof(double) * (size_t)m);
        gmres_solve(m, cn_op, &c, s.h, du, eta, 30, 300, NULL, &gr);
        int ok = 0;
        for (int k = 0; k < 30 && !ok; k++, l *= 0.5) {
            for (int e = 0; e < m; e++) ut[e] = s.u[e] + l * du[e];
            ok = cn_eval(&s, ut, ft, ht) == 0 && (hnt = cn_norm(ht, m)) <= (1 - 1e-4 * l * (1 - gr.rel_resid)) * hn;
        }
        l *= 2;
        if (!ok) {
            fprintf(stderr, "costnewton: no acceptable step at iteration %d\n", it + 1);
            break;
        }
        memcpy(s.u, ut, sizeof(double) * (size_t)m);
        memcpy(s.f, ft, sizeof(double) * (size_t)m);
        memcpy(s.h, ht, sizeof(double) * (size_t)m);
        eta = gmres_ew_choice2(eta, hnt / hn);
        hn = hnt;
        if (eta > 0.5) eta = 0.5;
        gap = cn_gap(&s, tmp, g);
        if (verbose)
            fprintf(stderr, "iter %3d  gap_rel %.3e  |T(f(u)) - u| / |u| %.3e  gmres %d  step %.3g\n", it + 1, gap,
                    hn / cn_norm(s.u, m), gr.iters, l);
    }
    printf("%s tau %g %s: %s | iterations %d | evals %d | J*v %d | check evals %d | gap_rel %.3e | %.3f s\n", argv[1],
           tau, ds_filter_name(filt), gap < tol ? "converged" : "not converged", it, s.evals, c.jv, s.checks, gap,
           bu_now() - t0);
    ds_loader_free(s.ld);
    ds_network_free(net);
    free(buf);
    return gap < tol ? 0 : 1;
}
