/*
 * ds_scenario.h - perturbed demand/supply scenarios (paper eqs. 9-11, the
 * protocol of Hu & Xie 2025): per element, independently,
 *   q_od *= U(0.5, 3.0), c_e *= DU{0.5, 1, 2, 3}, t0_e *= DU{0.8, 1.0, 1.2, 1.4}.
 *
 * Draws come from a counter-based generator (splitmix64 of seed, scenario,
 * element kind and element id), so scenario k with seed S is the same on
 * every machine and build and does not depend on which other scenarios were
 * drawn. An OD pair is identified by its two nodes, so its multiplier does
 * not depend on the order of the trips file; a link by its place among the
 * network's link rows (TNTP gives a link no id, and parallel links share
 * their two nodes), so a file whose link rows are reordered is, for its
 * scenarios, another network: its scenario k draws other capacity and
 * free-flow multipliers. Scenario 0 is the base network, unchanged.
 */
#ifndef DS_SCENARIO_H
#define DS_SCENARIO_H

#include "dillsue.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int k;
    uint64_t seed;
    int n_links_changed_cap, n_links_changed_t0; /* multiplier != 1 */
    double demand_before, demand_after;          /* total demand */
    double cap_mult_mean, t0_mult_mean;          /* mean multipliers over links */
} ds_scenario_summary;

/* Perturb net in place (clone first with ds_network_clone to keep the base).
 * Keeps net->total_demand consistent. Reference flows (net->ref_flow) belong
 * to the base network and are left untouched: do not compare a scenario
 * against them. sum may be NULL. Returns 0, or -1 with err filled (k < 0). */
int ds_scenario_apply(ds_network *net, int k, uint64_t seed, ds_scenario_summary *sum, ds_error *err);

/* A seed as every reader takes it (--seed, sweep.conf): decimal digits only,
 * within 64 bits. 0, or -1 (a sign, anything else, or out of range). */
int ds_parse_seed(const char *s, uint64_t *out);

/* The multipliers themselves (for tests and reports). od: TNTP-independent
 * 0-based (orig, dest) node ids; link: index in file order. */
double ds_scenario_demand_mult(int k, uint64_t seed, int orig, int dest);
double ds_scenario_cap_mult(int k, uint64_t seed, int link);
double ds_scenario_t0_mult(int k, uint64_t seed, int link);

#ifdef __cplusplus
}
#endif
#endif
