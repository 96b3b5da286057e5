/* evalpoint.c - wall time of one evaluation and one J v at a given point:
 * the full graph with the direct inner solver (the figures docs/model.md and
 * docs/bench.md give for the shared and unreduced solves) or a DAG filter.
 *
 * Usage: evalpoint NET FLOWS.csv [--threads N] [--tau T] [--relax LAMBDA]
 *                  [--reduced] [--factor-memory MB] [--reps R]
 *                  [--filter full|dsp|bfs]
 * FLOWS.csv is a flow CSV of NET (`dillsue solve --out`: the point x, by link
 * order). --relax sets the --start relax penalty on the links outside each
 * destination's DSP DAG; --reduced turns the unreduced solves off (every
 * destination by its own reduced LU, with its Dijkstra: the engine before
 * them). Prints the first evaluation, the median of R more and of R J v
 * products, with the loader's counts (fresh / reused / shared LU). Not part
 * of `make bench`'s run: it needs a solution point.
 */
#include "bench_util.h"

int main(int argc, char **argv)
{
    int threads = 2, reps = 3, reduced = 0, filter = DS_FILTER_FULL;
    double tau = 10, lambda = 1, fmem = -1;
    if (argc < 3) {
        fprintf(stderr, "usage: evalpoint NET FLOWS.csv [--threads N] [--tau T] [--relax LAMBDA] [--reduced] "
                        "[--factor-memory MB] [--reps R] [--filter full|dsp|bfs]\n");
        return 2;
    }
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--reduced"))
            reduced = 1;
        else if (i + 1 < argc && !strcmp(argv[i], "--threads"))
            threads = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--tau"))
            tau = atof(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--relax"))
            lambda = atof(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--factor-memory"))
            fmem = atof(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--reps"))
            reps = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--filter") &&
                 ((filter = ds_filter_parse(argv[++i])) == DS_FILTER_FULL || filter == DS_FILTER_DSP ||
                  filter == DS_FILTER_BFS))
            ;
        else {
            fprintf(stderr, "evalpoint: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if (reps < 1 || reps > 100) reps = 3;
    ds_error err;
    ds_network *net = ds_network_load(argv[1], NULL, NULL, NULL, &err);
    if (!net) {
        fprintf(stderr, "evalpoint: %s\n", err.msg);
        return 1;
    }
    ds_cost_params cp = bu_cost_params(net);
    int m = net->n_links;
    double *x = calloc((size_t)m, sizeof(double)), *f = calloc((size_t)m, sizeof(double));
    double *v = calloc((size_t)m, sizeof(double)), *o = calloc((size_t)m, sizeof(double));
    double te[100], tj[100];
    if (bu_read_flow_csv(argv[2], 2, x, m) != 0) {
        fprintf(stderr, "evalpoint: %s: not a flow CSV of %d links\n", argv[2], m);
        return 1;
    }
    for (int e = 0; e < m; e++) v[e] = x[e] * ((e % 7) - 3) * 0.01;
    ds_loader *ld =
        ds_loader_create(net, &cp, (ds_filter)filter, tau / ds_network_cbar(net, &cp), threads, 50, 1e-13, &err);
    if (!ld) {
        fprintf(stderr, "evalpoint: %s\n", err.msg);
        return 1;
    }
    if (fmem >= 0) ds_loader_set_factor_budget(ld, fmem * 1024 * 1024);
    ds_loader_set_shared_lu(ld, !reduced);
    if ((filter == DS_FILTER_FULL && ds_loader_set_inner(ld, DS_INNER_DIRECT) != 0) || ds_loader_set_keep(ld, 1) != 0 ||
        (lambda < 1 && ds_loader_set_relax(ld, lambda) != 0)) {
        fprintf(stderr, "evalpoint: cannot set up the loader\n");
        return 1;
    }
    ds_loader_set_quick_reject(ld, 1); /* as inside a solve */
    double t0 = bu_now();
    if (ds_loader_eval(ld, x, f) != 0) {
        fprintf(stderr, "evalpoint: f does not exist at this point\n");
        return 1;
    }
    double first = bu_now() - t0;
    ds_load_stats st;
    for (int r = 0; r < reps; r++) {
        t0 = bu_now();
        ds_loader_eval(ld, x, f);
        te[r] = bu_now() - t0;
    }
    ds_loader_stats(ld, &st);
    for (int r = 0; r < reps; r++) {
        t0 = bu_now();
        if (ds_loader_jv(ld, x, v, o) != 0) {
            fprintf(stderr, "evalpoint: J v failed\n");
            return 1;
        }
        tj[r] = bu_now() - t0;
    }
    printf("threads %d tau %g lambda %g %s: first evaluation %.4g s, then %.4g s (median of %d; LU fresh %d, "
           "reused %d, shared %d), J v %.4g s (median of %d)\n",
           threads, tau, lambda, reduced ? "reduced" : "unreduced", first, bu_median(te, reps), reps, st.lu_fresh,
           st.lu_reused, st.lu_shared, bu_median(tj, reps), reps);
    ds_loader_free(ld);
    ds_network_free(net);
    free(x), free(f), free(v), free(o);
    return 0;
}
