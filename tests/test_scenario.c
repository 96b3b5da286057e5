/* test_scenario.c - the perturbation protocol of paper eqs. 9-11: seeded and
 * reproducible, multipliers in their sets, scenario 0 = base. */
#include "dillsue.h"
#include "ds_scenario.h"
#include "tcheck.h"

#include <math.h>

static ds_network *base_net(void)
{
    ds_error err;
    const char *p = tc_tntp("SiouxFalls/SiouxFalls_net.tntp");
    ds_network *net = p ? ds_network_load(p, NULL, NULL, NULL, &err) : NULL;
    if (!net) net = ds_network_load_default(&err); /* the embedded network needs no data */
    return net;
}

static int same_net(const ds_network *a, const ds_network *b)
{
    size_t nl = sizeof(double) * (size_t)a->n_links, nq = sizeof(double) * (size_t)a->n_od;
    return a->n_links == b->n_links && a->n_od == b->n_od && memcmp(a->capacity, b->capacity, nl) == 0 &&
           memcmp(a->t0, b->t0, nl) == 0 && memcmp(a->od_demand, b->od_demand, nq) == 0 &&
           memcmp(&a->total_demand, &b->total_demand, sizeof(double)) == 0;
}

static int in_set(double v, const double *set, int n)
{
    for (int i = 0; i < n; i++)
        if (v == set[i]) return 1;
    return 0;
}

static double sum_demand(const ds_network *net)
{
    double s = 0.0;
    for (int i = 0; i < net->n_od; i++) s += net->od_demand[i];
    return s;
}

static void test_base_and_reproducible(ds_network *base)
{
    tc_begin("scenario_base_unchanged_and_reproducible");
    ds_network *a = ds_network_clone(base), *b = ds_network_clone(base);
    ds_scenario_summary s;
    ds_error err;
    TC_CHECK(ds_scenario_apply(a, 0, 42, &s, &err) == 0, "k = 0 failed");
    TC_CHECK(same_net(a, base), "scenario 0 changed the network");
    TC_CHECK(s.n_links_changed_cap == 0 && s.n_links_changed_t0 == 0 && s.demand_after == s.demand_before,
             "scenario 0 summary reports changes");
    ds_network_free(a);

    a = ds_network_clone(base);
    TC_CHECK(ds_scenario_apply(a, 7, 42, NULL, &err) == 0, "k = 7");
    TC_CHECK(ds_scenario_apply(b, 7, 42, NULL, &err) == 0, "k = 7 again");
    TC_CHECK(same_net(a, b), "scenario 7 seed 42 differs between two draws");
    TC_CHECK(!same_net(a, base), "scenario 7 equals the base");
    ds_network *c = ds_network_clone(base);
    TC_CHECK(same_net(c, base), "perturbing clones touched the base");
    /* draws do not depend on what was drawn before */
    ds_scenario_apply(c, 3, 42, NULL, &err);
    ds_network_free(c);
    c = ds_network_clone(base);
    ds_scenario_apply(c, 7, 42, NULL, &err);
    TC_CHECK(same_net(a, c), "scenario 7 depends on earlier scenarios");
    ds_network_free(c);
    TC_CHECK(ds_scenario_apply(b, -1, 42, NULL, &err) != 0, "k < 0 accepted");
    ds_network_free(a);
    ds_network_free(b);
    tc_end();
}

static void test_ranges(ds_network *base)
{
    static const double cap_set[4] = {0.5, 1.0, 2.0, 3.0}, t0_set[4] = {0.8, 1.0, 1.2, 1.4};
    tc_begin("scenario_multipliers_in_range");
    for (int k = 1; k <= 5; k++) {
        ds_network *a = ds_network_clone(base);
        ds_scenario_summary s;
        ds_error err;
        ds_scenario_apply(a, k, 12345, &s, &err);
        int nc = 0, nt = 0;
        double cm = 0.0, tm = 0.0;
        for (int e = 0; e < a->n_links; e++) {
            double mc = a->capacity[e] / base->capacity[e], mt = a->t0[e] / base->t0[e];
            /* the products are exact or one rounding off the set member */
            double rc = mc, rt = mt;
            for (int i = 0; i < 4; i++) {
                if (fabs(mc - cap_set[i]) < 1e-12) rc = cap_set[i];
                if (fabs(mt - t0_set[i]) < 1e-12) rt = t0_set[i];
            }
            TC_CHECK(in_set(rc, cap_set, 4), "k %d link %d capacity multiplier %.17g", k, e, mc);
            if (base->t0[e] > 0) TC_CHECK(in_set(rt, t0_set, 4), "k %d link %d t0 multiplier %.17g", k, e, mt);
            nc += rc != 1.0;
            nt += ds_scenario_t0_mult(k, 12345, e) != 1.0;
            cm += rc;
            tm += ds_scenario_t0_mult(k, 12345, e);
        }
        TC_CHECK(nc == s.n_links_changed_cap && nt == s.n_links_changed_t0, "k %d change counts %d/%d vs %d/%d", k, nc,
                 nt, s.n_links_changed_cap, s.n_links_changed_t0);
        TC_NEAR(s.cap_mult_mean, cm / a->n_links, 1e-12);
        TC_NEAR(s.t0_mult_mean, tm / a->n_links, 1e-12);
        for (int i = 0; i < a->n_od; i++) {
            double m = a->od_demand[i] / base->od_demand[i];
            TC_CHECK(m >= 0.5 - 1e-12 && m < 3.0 + 1e-12, "k %d OD %d demand multiplier %g", k, i, m);
        }
        TC_NEAR(a->total_demand, sum_demand(a), 1e-9 * sum_demand(a));
        TC_NEAR(s.demand_after, a->total_demand, 1e-9 * a->total_demand);
        TC_NEAR(s.demand_before, base->total_demand, 1e-9 * base->total_demand);
        ds_network_free(a);
    }
    tc_end();
}

/* Different k, different seeds: different draws; and the draws have the
 * distribution the protocol asks for (large sample, loose bounds). */
static void test_distribution(ds_network *base)
{
    tc_begin("scenario_draws_differ_and_are_uniform");
    ds_network *a = ds_network_clone(base), *b = ds_network_clone(base), *c = ds_network_clone(base);
    ds_error err;
    ds_scenario_apply(a, 1, 42, NULL, &err);
    ds_scenario_apply(b, 2, 42, NULL, &err);
    ds_scenario_apply(c, 1, 43, NULL, &err);
    int same_ab = 0, same_ac = 0;
    for (int i = 0; i < a->n_od; i++) {
        same_ab += a->od_demand[i] == b->od_demand[i];
        same_ac += a->od_demand[i] == c->od_demand[i];
    }
    TC_CHECK(same_ab == 0 && same_ac == 0, "equal demands: %d (k 1 vs 2), %d (seed 42 vs 43) of %d", same_ab, same_ac,
             a->n_od);
    ds_network_free(a);
    ds_network_free(b);
    ds_network_free(c);

    const int N = 200000;
    double s = 0.0, s2 = 0.0, lo = 10, hi = -10;
    int cap_cnt[4] = {0}, t0_cnt[4] = {0};
    static const double cap_set[4] = {0.5, 1.0, 2.0, 3.0}, t0_set[4] = {0.8, 1.0, 1.2, 1.4};
    for (int i = 0; i < N; i++) {
        double u = ds_scenario_demand_mult(1 + i % 7, 42, i / 7, i % 13);
        s += u;
        s2 += u * u;
        if (u < lo) lo = u;
        if (u > hi) hi = u;
        double mc = ds_scenario_cap_mult(1 + i % 5, 99, i), mt = ds_scenario_t0_mult(1 + i % 5, 99, i);
        for (int j = 0; j < 4; j++) {
            cap_cnt[j] += mc == cap_set[j];
            t0_cnt[j] += mt == t0_set[j];
        }
    }
    double mean = s / N, var = s2 / N - mean * mean;
    /* U(0.5, 3): mean 1.75, variance 2.5^2/12; standard error of the mean 0.0016 */
    TC_NEAR(mean, 1.75, 0.01);
    TC_NEAR(var, 6.25 / 12.0, 0.01);
    TC_CHECK(lo >= 0.5 && lo < 0.51 && hi < 3.0 && hi > 2.99, "range [%g, %g]", lo, hi);
    for (int j = 0; j < 4; j++) {
        TC_NEAR((double)cap_cnt[j] / N, 0.25, 0.01);
        TC_NEAR((double)t0_cnt[j] / N, 0.25, 0.01);
    }
    tc_end();
}

/* The draws are the same bits on every build: these multipliers are ones
 * where 0.5 + 2.5 u fused into one fma (clang's default where the target has
 * FMA: arm64, -march=native) rounds otherwise; the values are the splitmix64
 * stream of ds_scenario.h, computed independently (Python, exact), and the
 * capacity / free-flow draws are pinned as well. */
static void test_golden_bits(void)
{
    static const struct {
        int k, o, d;
        double m;
    } g[] = {{1, 4, 4, 0x1.109c8723066e0p+1},
             {1, 4, 5, 0x1.0cb4df148337cp+1},
             {1, 5, 4, 0x1.1310c07af62f6p+1},
             {1, 6, 16, 0x1.09ce025448640p+1}};
    tc_begin("scenario_draws_same_bits_on_every_build");
    for (size_t i = 0; i < sizeof g / sizeof *g; i++) {
        double m = ds_scenario_demand_mult(g[i].k, 42, g[i].o, g[i].d);
        TC_CHECK(m == g[i].m, "k %d OD (%d,%d) seed 42: %a, expected %a", g[i].k, g[i].o, g[i].d, m, g[i].m);
    }
    TC_CHECK(ds_scenario_cap_mult(1, 42, 3) == 0.5 && ds_scenario_t0_mult(1, 42, 3) == 1.4,
             "k 1 link 3 seed 42: capacity x%g, free-flow x%g", ds_scenario_cap_mult(1, 42, 3),
             ds_scenario_t0_mult(1, 42, 3));
    tc_end();
}

int main(void)
{
    ds_network *base = base_net();
    tc_begin("scenario_network_loads");
    TC_CHECK(base != NULL && base->n_od > 0 && base->n_links > 0, "no network with demand");
    tc_end();
    if (!base) return tc_exit();
    test_base_and_reproducible(base);
    test_ranges(base);
    test_distribution(base);
    test_golden_bits();
    ds_network_free(base);
    return tc_exit();
}
