/*
 * scenario.c - seeded perturbation scenarios (paper eqs. 9-11).
 *
 * Counter-based draws: every multiplier is a hash of (seed, k, kind, id), so
 * it never depends on other scenarios or on the C library's rand(); the id
 * of an OD pair is its nodes, that of a link its row (ds_scenario.h).
 */
#include "ds_scenario.h"

#include <errno.h>
#include <stdlib.h>

enum { KIND_DEMAND = 1, KIND_CAP = 2, KIND_T0 = 3 };

static uint64_t splitmix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Chained so that each field goes through a full avalanche before the next
 * is mixed in: (seed, k, kind, id) tuples that differ anywhere give
 * independent-looking outputs. */
static uint64_t draw(uint64_t seed, int k, int kind, uint64_t id)
{
    uint64_t h = splitmix64(seed);
    h = splitmix64(h ^ (uint64_t)(uint32_t)k);
    h = splitmix64(h ^ (uint64_t)kind);
    return splitmix64(h ^ id);
}

/* Uniform in [0,1) from the top 53 bits. */
static double unit(uint64_t r) { return (double)(r >> 11) * 0x1.0p-53; }

double ds_scenario_demand_mult(int k, uint64_t seed, int orig, int dest)
{
    if (k == 0) return 1.0;
    uint64_t id = ((uint64_t)(uint32_t)orig << 32) | (uint64_t)(uint32_t)dest;
    double u = unit(draw(seed, k, KIND_DEMAND, id));
    /* 0.5 + 2.5 u, rounded twice, written so that no build can fuse it into
     * one fma (clang contracts a * b + c by default where the target has FMA:
     * arm64, -march=native): 2 u and 0.5 u are exact, so their sum is 2.5 u
     * rounded once whether contracted or not, and the last add has no product */
    return 0.5 + (2.0 * u + 0.5 * u);
}

double ds_scenario_cap_mult(int k, uint64_t seed, int link)
{
    static const double m[4] = {0.5, 1.0, 2.0, 3.0};
    if (k == 0) return 1.0;
    return m[draw(seed, k, KIND_CAP, (uint64_t)(uint32_t)link) >> 62];
}

double ds_scenario_t0_mult(int k, uint64_t seed, int link)
{
    static const double m[4] = {0.8, 1.0, 1.2, 1.4};
    if (k == 0) return 1.0;
    return m[draw(seed, k, KIND_T0, (uint64_t)(uint32_t)link) >> 62];
}

int ds_scenario_apply(ds_network *net, int k, uint64_t seed, ds_scenario_summary *sum, ds_error *err)
{
    if (!net) return ds_error_set(err, "", 0, "ds_scenario_apply: no network");
    if (k < 0) return ds_error_set(err, "", 0, "scenario number must be >= 0 (got %d)", k);
    double before = 0.0, after = 0.0, cm = 0.0, tm = 0.0;
    int nc = 0, nt = 0;
    for (int i = 0; i < net->n_od; i++) {
        before += net->od_demand[i];
        net->od_demand[i] *= ds_scenario_demand_mult(k, seed, net->od_orig[i], net->od_dest[i]);
        after += net->od_demand[i];
    }
    for (int e = 0; e < net->n_links; e++) {
        double c = ds_scenario_cap_mult(k, seed, e), t = ds_scenario_t0_mult(k, seed, e);
        net->capacity[e] *= c;
        net->t0[e] *= t;
        cm += c;
        tm += t;
        nc += c != 1.0;
        nt += t != 1.0;
    }
    /* the base keeps the loader's own total bit for bit */
    if (k != 0) net->total_demand = after;
    if (sum) {
        sum->k = k;
        sum->seed = seed;
        sum->n_links_changed_cap = nc;
        sum->n_links_changed_t0 = nt;
        sum->demand_before = before;
        sum->demand_after = k == 0 ? before : after;
        sum->cap_mult_mean = net->n_links ? cm / net->n_links : 1.0;
        sum->t0_mult_mean = net->n_links ? tm / net->n_links : 1.0;
    }
    return 0;
}

int ds_parse_seed(const char *s, uint64_t *out)
{
    char *end;
    unsigned long long v;
    if (!s || !*s) return -1;
    for (const char *q = s; *q; q++)
        if (*q < '0' || *q > '9') return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (*end || errno || v > UINT64_MAX) return -1;
    *out = (uint64_t)v;
    return 0;
}
