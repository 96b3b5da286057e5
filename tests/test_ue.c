/* test_ue.c - Wardrop UE reference: hand-solvable networks, the cap, centroids,
 * the best-known TNTP flows, and thread-count independence. */
#include "dillsue.h"
#include "ds_metrics.h"
#include "ds_ue.h"
#include "tcheck.h"

#include <math.h>
#include <pthread.h>
#include <time.h>

/* Braess's paradox network (as in the TNTP Braess-Example, whose tiny
 * t0 * huge b encodes t = 10 x): 6 trips 1 -> 2. By symmetry and equal path
 * costs, the UE has 2 trips on each of the three paths, cost 92. */
static const char braess_net[] = "<NUMBER OF ZONES> 2\n<NUMBER OF NODES> 4\n<FIRST THRU NODE> 1\n<NUMBER OF LINKS> 5\n"
                                 "<END OF METADATA>\n"
                                 "~ init term cap len fft b power speed toll type ;\n"
                                 "1 3 1 100 0.00000001 1000000000 1 0 0 1 ;\n"
                                 "1 4 1 100 50 0.02 1 0 0 1 ;\n"
                                 "3 2 1 100 50 0.02 1 0 0 1 ;\n"
                                 "3 4 1 100 10 0.1 1 0 0 1 ;\n"
                                 "4 2 1 100 0.00000001 1000000000 1 0 0 1 ;\n";
static const char braess_trips[] = "<NUMBER OF ZONES> 2\n<TOTAL OD FLOW> 6.0\n<END OF METADATA>\n"
                                   "Origin 1\n 2 : 6.0;\n";

/* Two parallel roads 1 -> 2 via 3 and via 4. Road A (1-3-2): 1 + x/1 on its
 * first link, capped at x/c = 2 (cost 3 beyond). Road B (1-4-2): 3.5 flat.
 * 10 trips. Uncapped UE: 1 + x = 3.5, x_A = 2.5. With cap 2 road A never
 * costs more than 3 < 3.5: all 10 trips on A. */
static const char par_net[] = "<NUMBER OF ZONES> 2\n<NUMBER OF NODES> 4\n<FIRST THRU NODE> 1\n<NUMBER OF LINKS> 4\n"
                              "<END OF METADATA>\n"
                              "1 3 1 1 1 1 1 0 0 1 ;\n"
                              "3 2 1 1 0 0 1 0 0 1 ;\n"
                              "1 4 1 1 3.5 0 1 0 0 1 ;\n"
                              "4 2 1 1 0 0 1 0 0 1 ;\n";
static const char par_trips[] = "<NUMBER OF ZONES> 2\n<END OF METADATA>\nOrigin 1\n 2 : 10;\n";

/* Zones 1..3 (FIRST THRU NODE 4): the cheap way 1 -> 3 -> 2 runs through
 * zone 3 and is forbidden; the only legal route is 1 -> 4 -> 2. The second
 * net lacks node 4's links, so the OD pair has no legal path at all. */
static const char cen_net[] = "<NUMBER OF ZONES> 3\n<NUMBER OF NODES> 4\n<FIRST THRU NODE> 4\n<NUMBER OF LINKS> 4\n"
                              "<END OF METADATA>\n"
                              "1 3 1 1 1 0.15 4 0 0 1 ;\n"
                              "3 2 1 1 1 0.15 4 0 0 1 ;\n"
                              "1 4 1 1 5 0.15 4 0 0 1 ;\n"
                              "4 2 1 1 5 0.15 4 0 0 1 ;\n";
static const char cen_net_cut[] = "<NUMBER OF ZONES> 3\n<NUMBER OF NODES> 4\n<FIRST THRU NODE> 4\n<NUMBER OF LINKS> 3\n"
                                  "<END OF METADATA>\n"
                                  "1 3 1 1 1 0.15 4 0 0 1 ;\n"
                                  "3 2 1 1 1 0.15 4 0 0 1 ;\n"
                                  "1 4 1 1 5 0.15 4 0 0 1 ;\n";
static const char cen_trips[] = "<NUMBER OF ZONES> 3\n<END OF METADATA>\nOrigin 1\n 2 : 4; 3 : 1;\n";

static ds_network *parse(const char *net, const char *trips)
{
    ds_error err;
    ds_network *n = ds_network_parse(net, strlen(net), "test_net", trips, strlen(trips), "test_trips", &err);
    if (!n) printf("# parse failed: %s\n", err.msg);
    return n;
}

static int link_of(const ds_network *net, int from, int to)
{
    for (int e = 0; e < net->n_links; e++)
        if (net->tail[e] == from - 1 && net->head[e] == to - 1) return e;
    return -1;
}

/* Relative gap recomputed with the engine's own destination-based shortest
 * paths, independent of the UE solver's origin-based Dijkstra. */
static double gap_check(const ds_network *net, const ds_cost_params *cp, const double *x)
{
    int n = net->n_links;
    double *t = malloc(sizeof(double) * n), *dist = malloc(sizeof(double) * net->n_nodes);
    ds_costs_eval(net, cp, x, t);
    double tstt = 0.0, sptt = 0.0;
    for (int e = 0; e < n; e++) tstt += t[e] * x[e];
    for (int j = 0; j < net->n_dest; j++) {
        ds_sp_to_dest(net, t, net->dest_node[j], dist, NULL, NULL);
        for (int k = net->dest_od_start[j]; k < net->dest_od_start[j + 1]; k++)
            sptt += net->od_demand[k] * dist[net->od_orig[k]];
    }
    free(t);
    free(dist);
    return (tstt - sptt) / tstt;
}

static int n_progress;
static double last_gap;
static void count_progress(int iter, double gap, void *ctx)
{
    (void)ctx;
    (void)iter;
    n_progress++;
    last_gap = gap;
}

static void test_braess(void)
{
    tc_begin("ue_braess");
    ds_network *net = parse(braess_net, braess_trips);
    TC_CHECK(net != NULL, "parse");
    if (!net) return tc_end();
    for (int m = DS_UE_CFW; m <= DS_UE_BFW; m++) {
        ds_ue_config c;
        ds_ue_config_default(&c);
        c.method = m;
        c.gap = 1e-10;
        double x[5];
        ds_ue_result r;
        ds_error err;
        n_progress = 0;
        int rc = ds_ue_solve(net, &c, x, &r, count_progress, NULL, NULL, &err);
        TC_CHECK(rc == DS_UE_CONVERGED, "%s rc %d", ds_ue_method_name(m), rc);
        TC_NEAR(x[link_of(net, 1, 3)], 4.0, 1e-6);
        TC_NEAR(x[link_of(net, 1, 4)], 2.0, 1e-6);
        TC_NEAR(x[link_of(net, 3, 2)], 2.0, 1e-6);
        TC_NEAR(x[link_of(net, 3, 4)], 2.0, 1e-6);
        TC_NEAR(x[link_of(net, 4, 2)], 4.0, 1e-6);
        TC_CHECK(r.rel_gap <= 1e-10, "gap %g", r.rel_gap);
        TC_CHECK(n_progress == r.iters + 1, "progress calls %d for %d iterations", n_progress, r.iters);
        TC_NEAR(last_gap, r.rel_gap, 0.0);
        /* Beckmann by hand: 10x^2/2 * 2 + (50x + x^2/2) * 2 + 10x + x^2/2 at x = 4,2,2 */
        TC_NEAR(r.beckmann, 2 * (5.0 * 16) + 2 * (100.0 + 2.0) + 20.0 + 2.0, 1e-5);
    }
    ds_network_free(net);
    tc_end();
}

static void test_cap(void)
{
    tc_begin("ue_cap_piecewise");
    ds_network *net = parse(par_net, par_trips);
    TC_CHECK(net != NULL, "parse");
    if (!net) return tc_end();
    int a = link_of(net, 1, 3), b = link_of(net, 1, 4);
    double x[4];
    ds_ue_result r;
    ds_error err;
    ds_ue_config c;
    ds_ue_config_default(&c);
    c.gap = 1e-12;
    c.cost.cap = 0.0;
    int rc = ds_ue_solve(net, &c, x, &r, NULL, NULL, NULL, &err);
    TC_CHECK(rc == DS_UE_CONVERGED, "uncapped rc %d gap %g", rc, r.rel_gap);
    TC_NEAR(x[a], 2.5, 1e-8);
    TC_NEAR(x[b], 7.5, 1e-8);
    c.cost.cap = 2.0;
    rc = ds_ue_solve(net, &c, x, &r, NULL, NULL, NULL, &err);
    TC_CHECK(rc == DS_UE_CONVERGED, "capped rc %d gap %g", rc, r.rel_gap);
    TC_NEAR(x[a], 10.0, 1e-8);
    TC_NEAR(x[b], 0.0, 1e-8);
    /* capped Beckmann: int_0^2 (1 + s) ds + 3 * 8 = 4 + 24 */
    TC_NEAR(r.beckmann, 28.0, 1e-9);
    ds_network_free(net);
    tc_end();
}

/* The closed-form Beckmann integral must be the antiderivative of the
 * engine's cost, on both sides of the cap and with the generalized terms. */
static void test_beckmann_matches_costs(void)
{
    tc_begin("ue_beckmann_derivative_is_cost");
    ds_network *net = parse(cen_net, cen_trips);
    TC_CHECK(net != NULL, "parse");
    if (!net) return tc_end();
    int n = net->n_links;
    for (int e = 0; e < n; e++) {
        net->toll[e] = 0.5 * e;
        net->length[e] = 1.0 + e;
    }
    ds_cost_params cp = {3.0, 0.7, 0.3};
    double x[4], xp[4], xm[4], t[4];
    const double probe[] = {0.0, 0.4, 1.7, 2.9, 3.2, 8.0}; /* x/c around the cap 3 */
    for (size_t i = 0; i < sizeof probe / sizeof probe[0]; i++) {
        for (int e = 0; e < n; e++) x[e] = probe[i] * net->capacity[e];
        ds_costs_eval(net, &cp, x, t);
        for (int e = 0; e < n; e++) {
            double hstep = 1e-6;
            memcpy(xp, x, sizeof x);
            memcpy(xm, x, sizeof x);
            xp[e] += hstep;
            xm[e] = x[e] > hstep ? x[e] - hstep : x[e];
            double fd = (ds_ue_beckmann(net, &cp, xp) - ds_ue_beckmann(net, &cp, xm)) / (xp[e] - xm[e]);
            TC_NEAR(fd, t[e], 1e-5 * (1.0 + fabs(t[e])));
        }
    }
    ds_network_free(net);
    tc_end();
}

static void test_centroids(void)
{
    tc_begin("ue_never_through_centroids");
    ds_network *net = parse(cen_net, cen_trips);
    TC_CHECK(net != NULL, "parse");
    if (!net) return tc_end();
    double x[4];
    ds_ue_result r;
    ds_error err;
    ds_ue_config c;
    ds_ue_config_default(&c);
    c.gap = 1e-9;
    int rc = ds_ue_solve(net, &c, x, &r, NULL, NULL, NULL, &err);
    TC_CHECK(rc == DS_UE_CONVERGED, "rc %d", rc);
    TC_NEAR(x[link_of(net, 3, 2)], 0.0, 0.0);   /* would pass through zone 3 */
    TC_NEAR(x[link_of(net, 1, 3)], 1.0, 1e-12); /* only the trips to zone 3 */
    TC_NEAR(x[link_of(net, 1, 4)], 4.0, 1e-12);
    TC_NEAR(x[link_of(net, 4, 2)], 4.0, 1e-12);
    ds_network_free(net);

    net = parse(cen_net_cut, cen_trips);
    TC_CHECK(net != NULL, "parse cut");
    if (!net) return tc_end();
    /* 1 -> 2 has no legal path: it is not assigned, as solve leaves it (it
     * was an error, where solve assigned the rest and said what was lost) */
    memset(&err, 0, sizeof err);
    rc = ds_ue_solve(net, &c, x, &r, NULL, NULL, NULL, &err);
    TC_CHECK(rc == DS_UE_CONVERGED, "the pair with a path must be solved, rc %d: %s", rc, err.msg);
    TC_NEAR(x[link_of(net, 1, 3)], 1.0, 1e-12);
    TC_NEAR(x[link_of(net, 3, 2)], 0.0, 0.0);
    TC_NEAR(x[link_of(net, 1, 4)], 0.0, 0.0);
    TC_NEAR(r.rel_gap, 0.0, 1e-12);
    ds_network_free(net);

    /* no OD pair with demand has a path: nothing to solve, the pair named */
    net = parse(cen_net_cut, "<NUMBER OF ZONES> 3\n<END OF METADATA>\nOrigin 1\n 2 : 4;\n");
    TC_CHECK(net != NULL, "parse cut, one pair");
    if (!net) return tc_end();
    memset(&err, 0, sizeof err);
    rc = ds_ue_solve(net, &c, x, &r, NULL, NULL, NULL, &err);
    TC_CHECK(rc == DS_UE_ERROR, "no legal path for any pair must be an error, rc %d", rc);
    TC_CHECK(strstr(err.msg, "zone 1 to zone 2") != NULL, "message names the pair: '%s'", err.msg);
    ds_network_free(net);
    tc_end();
}

static void test_stops(void)
{
    tc_begin("ue_max_iter_cancel_badcfg");
    ds_network *net = parse(braess_net, braess_trips);
    TC_CHECK(net != NULL, "parse");
    if (!net) return tc_end();
    double x[5];
    ds_ue_result r;
    ds_error err;
    ds_ue_config c;
    ds_ue_config_default(&c);
    c.gap = 0.0;
    c.max_iter = 1;
    int rc = ds_ue_solve(net, &c, x, &r, NULL, NULL, NULL, &err);
    TC_CHECK(rc == DS_UE_MAX_ITER && r.iters == 1, "rc %d iters %d", rc, r.iters);
    double sum_out = x[link_of(net, 1, 3)] + x[link_of(net, 1, 4)];
    TC_NEAR(sum_out, 6.0, 1e-12); /* any iterate conserves the demand */
    /* a cancel before iteration 0 is reported stops the first loading:
     * no iterate (the flows all 0, no gap) */
    volatile int cancel = 1;
    c.max_iter = 100;
    rc = ds_ue_solve(net, &c, x, &r, NULL, NULL, &cancel, &err);
    TC_CHECK(rc == DS_UE_CANCELLED && r.iters == -1 && isnan(r.rel_gap) && x[0] == 0.0, "rc %d iters %d gap %g", rc,
             r.iters, r.rel_gap);
    c.method = 7;
    rc = ds_ue_solve(net, &c, x, &r, NULL, NULL, NULL, &err);
    TC_CHECK(rc == DS_UE_ERROR, "bad method accepted");
    c.method = DS_UE_BFW;
    c.cost.distance_factor = -1.0; /* 100 length units: every link costs < 0 */
    memset(&err, 0, sizeof err);
    rc = ds_ue_solve(net, &c, x, &r, NULL, NULL, NULL, &err);
    TC_CHECK(rc == DS_UE_ERROR && err.line > 0, "negative costs accepted (rc %d, line %ld)", rc, err.line);
    TC_CHECK(ds_ue_method_parse("cfw") == DS_UE_CFW && ds_ue_method_parse("bfw") == DS_UE_BFW &&
                 ds_ue_method_parse("fw") == -1,
             "method names");
    ds_network_free(net);
    tc_end();
}

/* MAPE against the published best-known flows (uncapped BPR). */
static void test_bestknown(const char *name, const char *rel, double gap, int method)
{
    char tname[128];
    snprintf(tname, sizeof tname, "ue_bestknown_%s_%s", name, ds_ue_method_name(method));
    const char *path = tc_tntp(rel);
    if (!path) return tc_skip(tname, "TNTP data not found");
    tc_begin(tname);
    ds_error err;
    ds_network *net = ds_network_load(path, NULL, NULL, NULL, &err);
    TC_CHECK(net != NULL, "load: %s", net ? "" : err.msg);
    if (!net) return tc_end();
    TC_CHECK(net->ref_flow != NULL, "no reference flows loaded");
    double *x = malloc(sizeof(double) * net->n_links);
    ds_ue_config c;
    ds_ue_config_default(&c);
    c.gap = gap;
    c.method = method;
    c.threads = 2;
    c.cost.cap = 0.0;
    c.cost.toll_factor = net->toll_factor;
    c.cost.distance_factor = net->distance_factor;
    ds_ue_result r;
    int rc = ds_ue_solve(net, &c, x, &r, NULL, NULL, NULL, &err);
    TC_CHECK(rc == DS_UE_CONVERGED, "rc %d gap %g after %d", rc, r.rel_gap, r.iters);
    double g = gap_check(net, &c.cost, x);
    TC_NEAR(g, r.rel_gap, 1e-9);
    if (net->ref_flow) {
        ds_metrics m;
        ds_metrics_compare(x, net->ref_flow, net->n_links, NULL, 1.0, &m);
        TC_CHECK(m.mape < 0.5, "MAPE %.4f%% over %d links", m.mape, m.n_mape);
        printf("# %s: %d iterations, gap %.2e, %.3f s, MAPE %.4f%%\n", tname, r.iters, r.rel_gap, r.seconds, m.mape);
    }
    free(x);
    ds_network_free(net);
    tc_end();
}

static void test_threads_bitwise(void)
{
    const char *path = tc_tntp("Anaheim/Anaheim_net.tntp");
    if (!path) path = tc_tntp("SiouxFalls/SiouxFalls_net.tntp");
    if (!path) return tc_skip("ue_threads_bitwise", "TNTP data not found");
    tc_begin("ue_threads_bitwise");
    ds_error err;
    ds_network *net = ds_network_load(path, NULL, NULL, NULL, &err);
    TC_CHECK(net != NULL, "load");
    if (!net) return tc_end();
    int n = net->n_links;
    double *x1 = malloc(sizeof(double) * n), *x2 = malloc(sizeof(double) * n);
    ds_ue_config c;
    ds_ue_config_default(&c);
    c.gap = 0.0;
    c.max_iter = 40;
    ds_ue_result r1, r2;
    c.threads = 1;
    ds_ue_solve(net, &c, x1, &r1, NULL, NULL, NULL, &err);
    c.threads = 2;
    ds_ue_solve(net, &c, x2, &r2, NULL, NULL, NULL, &err);
    TC_CHECK(memcmp(x1, x2, sizeof(double) * n) == 0, "flows differ between 1 and 2 threads");
    TC_CHECK(memcmp(&r1.rel_gap, &r2.rel_gap, sizeof(double)) == 0, "gaps %.17g vs %.17g", r1.rel_gap, r2.rel_gap);
    c.threads = 3; /* more threads than cores, still the same */
    ds_ue_solve(net, &c, x2, &r2, NULL, NULL, NULL, &err);
    TC_CHECK(memcmp(x1, x2, sizeof(double) * n) == 0, "flows differ between 1 and 3 threads");
    free(x1);
    free(x2);
    ds_network_free(net);
    tc_end();
}

/* The last iterate the solve reported, as ds_ue_progress_fn sees it. */
typedef struct {
    const double *x;
    double *snap;
    int n, iter;
    double gap;
} cancel_watch;

static void snap_progress(int iter, double gap, void *ctx)
{
    cancel_watch *w = ctx;
    memcpy(w->snap, w->x, sizeof(double) * (size_t)w->n);
    w->iter = iter;
    w->gap = gap;
}

typedef struct {
    volatile int *flag;
    long delay_ns;
} canceller;

static void *cancel_later(void *arg)
{
    canceller *c = arg;
    struct timespec ts = {c->delay_ns / 1000000000L, c->delay_ns % 1000000000L};
    nanosleep(&ts, NULL);
    __atomic_store_n(c->flag, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* A cancel from another thread, wherever it lands (mostly inside an
 * all-or-nothing loading, which is most of an iteration): the solve returns
 * the last iterate it reported, bitwise, with that iterate's number and gap,
 * and that iterate is the one an uncancelled run to that many iterations
 * gives (an iteration stopped part-way leaves no trace). */
static void test_cancel_from_thread(void)
{
    const char *path = tc_tntp("Anaheim/Anaheim_net.tntp");
    if (!path) path = tc_tntp("SiouxFalls/SiouxFalls_net.tntp");
    if (!path) return tc_skip("ue_cancel_from_thread", "TNTP data not found");
    tc_begin("ue_cancel_from_thread");
    ds_error err;
    ds_network *net = ds_network_load(path, NULL, NULL, NULL, &err);
    TC_CHECK(net != NULL, "load");
    if (!net) return tc_end();
    int n = net->n_links;
    double *x = malloc(sizeof(double) * n), *snap = malloc(sizeof(double) * n), *ref = malloc(sizeof(double) * n);
    ds_ue_config c;
    ds_ue_config_default(&c);
    c.gap = 0.0;
    c.max_iter = 1000000;
    c.threads = 2;
    static const long delays_us[] = {200, 1000, 3000, 7000, 15000, 30000};
    for (size_t i = 0; i < sizeof delays_us / sizeof *delays_us; i++) {
        volatile int flag = 0;
        cancel_watch w = {x, snap, n, -2, NAN};
        canceller cn = {&flag, delays_us[i] * 1000L};
        pthread_t th;
        ds_ue_result r;
        if (pthread_create(&th, NULL, cancel_later, &cn) != 0) {
            TC_CHECK(0, "pthread_create");
            break;
        }
        int rc = ds_ue_solve(net, &c, x, &r, snap_progress, &w, &flag, &err);
        pthread_join(th, NULL);
        TC_CHECK(rc == DS_UE_CANCELLED, "delay %ld us: rc %d", delays_us[i], rc);
        TC_CHECK(r.iters == (w.iter >= 0 ? w.iter : -1), "delay %ld us: iters %d, last reported %d", delays_us[i],
                 r.iters, w.iter);
        if (r.iters < 0) continue; /* cancelled before iteration 0 */
        TC_CHECK(memcmp(&r.rel_gap, &w.gap, sizeof(double)) == 0, "delay %ld us: gap %.17g, reported %.17g",
                 delays_us[i], r.rel_gap, w.gap);
        TC_CHECK(memcmp(x, snap, sizeof(double) * n) == 0, "delay %ld us: flows are not the last reported",
                 delays_us[i]);
        ds_ue_config c2 = c;
        ds_ue_result r2;
        c2.max_iter = r.iters;
        ds_ue_solve(net, &c2, ref, &r2, NULL, NULL, NULL, &err);
        TC_CHECK(memcmp(x, ref, sizeof(double) * n) == 0, "delay %ld us: flows differ from an uncancelled run to %d",
                 delays_us[i], r.iters);
    }
    free(x);
    free(snap);
    free(ref);
    ds_network_free(net);
    tc_end();
}

/* A random net of n nodes, z of them zones (centroids unless thru), about
 * per_node one-way links out of each node, demand between every two zones:
 * many OD pairs without a path, some only through a centroid; with one link
 * a node, many small components in a chain (a DAG of them). */
static ds_network *random_net(unsigned seed, int n, int z, int thru, int per_node)
{
    size_t cap = 64 * (size_t)n * 4 + 256, m = 0, len = 0;
    char *net = malloc(cap), *body = malloc(cap), *trips = malloc(64 * (size_t)z * (size_t)z + 256);
    for (int u = 1; u <= n; u++)
        for (int k = 0; k < per_node; k++) {
            seed = seed * 1103515245u + 12345u;
            int v = 1 + (int)((seed >> 8) % (unsigned)n);
            if (v == u) continue;
            len += (size_t)snprintf(body + len, cap - len, "%d %d 1 1 %u 0.15 4 0 0 1 ;\n", u, v, 1 + (seed >> 20) % 9);
            m++;
        }
    snprintf(net, cap,
             "<NUMBER OF ZONES> %d\n<NUMBER OF NODES> %d\n<FIRST THRU NODE> %d\n<NUMBER OF LINKS> %zu\n"
             "<END OF METADATA>\n%s",
             z, n, thru ? 1 : z + 1, m, body);
    len = (size_t)sprintf(trips, "<NUMBER OF ZONES> %d\n<END OF METADATA>\n", z);
    for (int o = 1; o <= z; o++) {
        len += (size_t)sprintf(trips + len, "Origin %d\n", o);
        for (int d = 1; d <= z; d++) len += (size_t)sprintf(trips + len, " %d : %d;", d, o + d);
        trips[len++] = '\n';
    }
    trips[len] = '\0';
    ds_network *r = parse(net, trips);
    free(net), free(body), free(trips);
    return r;
}

/* ds_od_no_path (reachability alone, 64 destinations at a time, over
 * threads) says the same as a Dijkstra per destination at free flow, the
 * centroid rule honoured, for any thread count: `dillsue ue` reports its
 * OD pairs without a path from it. 150 zones: three blocks of 64, one
 * partial. */
static void test_od_no_path(void)
{
    tc_begin("ue_od_no_path_as_dijkstra");
    for (int s = 0; s < 12; s++) {
        ds_network *net = random_net(7u + (unsigned)s, 400, 150, s & 1, 1 + s / 4);
        TC_CHECK(net != NULL, "parse %d", s);
        if (!net) break;
        ds_cost_params cp = {100, 0, 0};
        double *x = calloc((size_t)net->n_links, sizeof(double)), *t = malloc(sizeof(double) * net->n_links);
        double *dist = malloc(sizeof(double) * net->n_nodes);
        unsigned char *want = malloc((size_t)net->n_od), *got = malloc((size_t)net->n_od);
        ds_costs_eval(net, &cp, x, t);
        int lost = 0;
        for (int d = 0; d < net->n_dest; d++) {
            ds_sp_to_dest(net, t, net->dest_node[d], dist, NULL, NULL);
            for (int k = net->dest_od_start[d]; k < net->dest_od_start[d + 1]; k++)
                lost += want[k] = !(dist[net->od_orig[k]] < INFINITY);
        }
        TC_CHECK(lost > 0 && lost < net->n_od, "net %d: %d of %d pairs without a path (want some, not all)", s, lost,
                 net->n_od);
        for (int th = 1; th <= 3; th++) {
            memset(got, 2, (size_t)net->n_od);
            int rc = ds_od_no_path(net, th, NULL, got);
            TC_CHECK(rc == 0 && memcmp(got, want, (size_t)net->n_od) == 0, "net %d, %d threads: rc %d, flags differ", s,
                     th, rc);
        }
        volatile int stop = 1;
        TC_CHECK(ds_od_no_path(net, 2, &stop, got) == 1, "net %d: a set cancel flag must stop it", s);
        free(x), free(t), free(dist), free(want), free(got);
        ds_network_free(net);
    }
    tc_end();
}

int main(void)
{
    test_braess();
    test_cap();
    test_beckmann_matches_costs();
    test_centroids();
    test_od_no_path();
    test_stops();
    test_bestknown("SiouxFalls", "SiouxFalls/SiouxFalls_net.tntp", 1e-6, DS_UE_BFW);
    test_bestknown("SiouxFalls", "SiouxFalls/SiouxFalls_net.tntp", 1e-5, DS_UE_CFW);
    test_bestknown("Anaheim", "Anaheim/Anaheim_net.tntp", 1e-7, DS_UE_BFW);
    test_threads_bitwise();
    test_cancel_from_thread();
    return tc_exit();
}
