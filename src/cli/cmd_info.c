/* cmd_info.c - `dillsue info`: what a network is before solving it: size,
 * demand, the dispersion scale cbar, and the structural features that make
 * SUE flows non-unique or the full-graph model delicate. */
#include "cli.h"
#include "ds_metrics.h"
#include "ds_scenario.h"
#include "sweep_data.h" /* sweep_percentile: the one percentile of the project */

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMD "info"

static const cli_help_section help_sections[] = {
    {"",
     {OPT_NET, OPT_TRIPS, OPT_CAP, OPT_TOLL_FACTOR, OPT_DIST_FACTOR, OPT_SCENARIO, OPT_SEED, OPT_THREADS, OPT_HELP,
      -1}},
    {NULL, {-1}},
};

static const char *help_note(int id, char *buf, size_t n)
{
    switch (id) {
    case OPT_NET: return "(default: the embedded network)";
    case OPT_CAP: {
        ds_config d;
        ds_config_default(&d);
        snprintf(buf, n, "(used for cbar; default %g)", d.cost.cap);
        return buf;
    }
    case OPT_SEED: return "(with --scenario)";
    case OPT_THREADS: return "(default 0: the same numbers on any count)";
    default: return cli_config_default(id, buf, n);
    }
}

/* Returns 0, or 2 when the table and the sections above disagree. */
static int print_help(void)
{
    printf("Usage: dillsue info [--net NET] [OPTIONS]\n"
           "Describe a network: nodes, links, zones, demand, OD pairs without a path, cbar\n"
           "and mu at tau = 1, hop diameter, links whose cost does not depend on flow, zero\n"
           "free-flow-time links, the spread of free-flow times, parallel links, and the\n"
           "GPU available.\n"
           "\n");
    return cli_help_options(CMD, help_sections, help_note, stdout) ? 2 : 0;
}

/* The positive free-flow times: min, median, max; or, when every link has the
 * same one, that: with no free links, tolls or distance in the cost the
 * free-flow shortest paths are then the fewest links, the dsp filter ranks
 * nodes as the bfs filter does (two public networks, Hessen- and
 * Terrassa-Asymmetric, are published so: their dsp and bfs solves agree). */
static void print_free_flow(const ds_network *net, const ds_cost_params *cp)
{
    double *t = malloc(sizeof(double) * (size_t)(net->n_links + 1));
    int n = 0;
    if (!t) return;
    for (int e = 0; e < net->n_links; e++)
        if (net->t0[e] > 0) t[n++] = net->t0[e];
    if (n == 0) {
        printf("free-flow time:     none positive\n");
    } else {
        double median = sweep_percentile(t, n, 50); /* (sorts t) */
        if (t[0] == t[n - 1] && n == net->n_links && cp->toll_factor == 0 && cp->distance_factor == 0)
            printf("free-flow time:     %.10g on every link (free-flow shortest paths are the fewest links, as "
                   "the bfs filter counts them)\n",
                   t[0]);
        else if (t[0] == t[n - 1])
            printf("free-flow time:     %.10g on every link with a positive one\n", t[0]);
        else
            printf("free-flow time:     min %.6g, median %.6g, max %.6g (over the %d positive)\n", t[0], median,
                   t[n - 1], n);
    }
    free(t);
}

static int cmp_pair(const void *a, const void *b)
{
    const long long *x = a, *y = b;
    return (*x > *y) - (*x < *y);
}

/* Pairs of links sharing (tail, head): a group of k parallel links is k(k-1)/2 pairs. */
static long parallel_pairs(const ds_network *net)
{
    long long *key = malloc((net->n_links ? net->n_links : 1) * sizeof *key);
    if (!key) return -1;
    for (int e = 0; e < net->n_links; e++) key[e] = (long long)net->tail[e] * INT_MAX + net->head[e];
    qsort(key, net->n_links, sizeof *key, cmp_pair);
    long pairs = 0;
    for (int e = 0, run = 1; e < net->n_links; e++) {
        if (e + 1 < net->n_links && key[e + 1] == key[e]) {
            run++;
        } else {
            pairs += (long)run * (run - 1) / 2;
            run = 1;
        }
    }
    free(key);
    return pairs;
}

int cmd_info(int argc, char **argv)
{
    ds_config d;
    cli_values v;
    ds_config_default(&d);
    int rc = cli_parse(CMD, argc, argv, &v, NULL);
    if (rc == 1) return print_help();
    if (rc) return rc;
    const char *net_path = v.str[OPT_NET], *trips = v.str[OPT_TRIPS];
    double cap = v.have[OPT_CAP] ? v.num[OPT_CAP] : d.cost.cap;
    /* every core unless told otherwise: the numbers do not depend on it, and
     * the searches behind them take a minute on a 33,000-node network */
    int threads = v.have[OPT_THREADS] ? (int)v.num[OPT_THREADS] : 0;
    int k = (int)v.num[OPT_SCENARIO], have_k = v.have[OPT_SCENARIO], have_seed = v.have[OPT_SEED];
    unsigned long long seed = v.seed;
    if (trips && !net_path) return cli_usage(CMD, "--trips needs --net");
    if (have_k != have_seed) return cli_usage(CMD, "--scenario and --seed go together");

    ds_error err = {0};
    ds_network *net = cli_load_network(net_path, trips, 0, &err);
    if (!net) return cli_input_error(&err);
    ds_scenario_summary sum;
    if (have_k && ds_scenario_apply(net, k, (uint64_t)seed, &sum, &err) != 0) {
        ds_network_free(net);
        return cli_input_error(&err);
    }

    /* solve's, load's and ue's generalized cost, so that cbar and mu are theirs */
    ds_cost_params cp = {cap, v.have[OPT_TOLL_FACTOR] ? v.num[OPT_TOLL_FACTOR] : net->toll_factor,
                         v.have[OPT_DIST_FACTOR] ? v.num[OPT_DIST_FACTOR] : net->distance_factor};
    if ((rc = cli_check_costs(net, &cp))) {
        ds_network_free(net);
        return rc;
    }
    double cbar = ds_network_cbar_threads(net, &cp, threads);
    int fixed = 0, zero_t0 = 0;
    unsigned char *dep = malloc((size_t)net->n_links + 1);
    if (dep) fixed = net->n_links - ds_metrics_flow_dependent_mask(net, dep);
    free(dep);
    for (int e = 0; e < net->n_links; e++) zero_t0 += net->t0[e] == 0;

    fputs("network:            ", stdout); /* (control bytes in a name escaped) */
    cli_fputs_escaped(net->name, stdout);
    fputs(" (", stdout);
    cli_fputs_escaped(net->net_path, stdout);
    fputs(")\n", stdout);
    if (have_k)
        printf("scenario:           %d seed %llu: demand %.6g -> %.6g, capacity changed on %d links "
               "(mean x%.4g), free-flow time on %d (mean x%.4g)\n",
               k, seed, sum.demand_before, sum.demand_after, sum.n_links_changed_cap, sum.cap_mult_mean,
               sum.n_links_changed_t0, sum.t0_mult_mean);
    printf("nodes:              %d", net->n_nodes);
    if (net->ids_mapped)
        printf(" (ids %d..%d mapped: the file numbers nodes sparsely; outputs keep its ids)",
               ds_node_id(net, net->node_by_id[0]), ds_node_id(net, net->node_by_id[net->n_nodes - 1]));
    else if (net->declared_nodes && net->declared_nodes != net->n_nodes)
        printf(" (<NUMBER OF NODES> says %ld)", net->declared_nodes);
    {
        /* nodes declared (or numbered below the largest) that no link touches */
        int lone = 0;
        for (int i = 0; i < net->n_nodes; i++)
            lone += net->out_start[i + 1] == net->out_start[i] && net->in_start[i + 1] == net->in_start[i];
        if (lone) printf(" (%d of them touch no link: no route starts, ends or passes there)", lone);
    }
    printf("\n");
    printf("links:              %d", net->n_links);
    if (net->n_loops) printf(" (%d self-loop rows dropped: flow 0)", net->n_loops);
    if (net->n_skipped_columns) {
        printf(" (column%s not used: ", net->n_skipped_columns > 1 ? "s" : "");
        cli_fputs_escaped(net->skipped_columns, stdout);
        printf(", named at line %ld)", net->columns_line);
    }
    printf("\n");
    if (net->column_note[0]) {
        printf("column names:       line %ld names ", net->columns_line);
        cli_fputs_escaped(net->column_note, stdout);
        printf(" (read by position as the TNTP columns)\n");
    }
    printf("zones:              %d", net->n_zones);
    if (net->zones_inferred)
        printf(" (taken from the trips file's origins and destinations%s%s)",
               net->first_thru > 1 ? " and the nodes below FIRST THRU NODE" : "",
               net->declared_zones ? "" : "; the net file has no <NUMBER OF ZONES>");
    if (net->zones_inferred && net->declared_zones && net->declared_zones != net->n_zones)
        printf(" (the net file's <NUMBER OF ZONES> says %ld)", net->declared_zones);
    if (net->zones_inferred && net->trips_declared_zones && net->trips_declared_zones != net->n_zones)
        printf(" (the trips file's <NUMBER OF ZONES> says %ld)", net->trips_declared_zones);
    printf("\n");
    if (net->first_thru > 1 && !net->ids_mapped)
        printf("first thru node:    %d (routes never pass through lower-numbered nodes)\n", net->first_thru);
    else if (net->first_thru > 1)
        printf("first thru node:    routes never pass through zones %d..%d\n", ds_node_id(net, 0),
               ds_node_id(net, net->first_thru - 2));
    else
        printf("first thru node:    1 (no centroid restriction)\n");
    printf("OD pairs:           %d\n", net->n_od);
    printf("total demand:       %.10g\n", net->total_demand);
    if (net->n_intrazonal > 0)
        printf(
            "intrazonal demand:  %.10g in %d entries from a zone to itself (in <TOTAL OD FLOW>, not assigned: such a "
            "trip uses no link)\n",
            net->intrazonal_demand, net->n_intrazonal);
    printf("destinations:       %d\n", net->n_dest);
    {
        /* a zone that no link touches, or a FIRST THRU NODE that walls it in:
         * solve, load and ue said so, info (which describes the network
         * before those) said nothing */
        cli_lost l;
        char why[96];
        if (net->n_od > 0 && cli_unreachable(net, threads, &l) == 0 && l.n_od > 0) {
            int centroid = cli_no_path_cause(net, &l, why, sizeof why);
            printf("no path:            %d OD pairs%s, demand %.10g of %.10g (the first: zone %d to zone %d, demand "
                   "%.10g%s): not assigned by solve, load, ue or sweep\n",
                   l.n_od, centroid ? " (none without passing through a centroid)" : "", l.demand, net->total_demand,
                   ds_node_id(net, l.orig), ds_node_id(net, l.dest), l.first, why);
        }
    }
    if (isfinite(cbar))
        printf("cbar:               %.10g (demand-weighted free-flow shortest-path cost, cap %g, toll factor %g, "
               "distance factor %g)\n",
               cbar, cap, cp.toll_factor, cp.distance_factor);
    else /* no OD pair with demand has a path (or there is no demand): undefined, as solve says */
        printf("cbar:               undefined (no OD pair with demand has a path: nothing to average)\n");
    if (net->first_thru > 1) {
        /* The paper's cbar ignores centroids; show it so its mu can be reproduced. */
        int ft = net->first_thru;
        net->first_thru = 1;
        double cb0 = ds_network_cbar_threads(net, &cp, threads);
        net->first_thru = ft;
        printf("cbar, centroids ignored: %.10g (routes may pass through zones; the paper's value)\n", cb0);
    }
    if (cbar > 0 && isfinite(cbar))
        printf("mu at tau = 1:      %.10g (= 1/cbar)\n", 1.0 / cbar);
    else
        printf("mu at tau = 1:      undefined (cbar is %s)\n", isfinite(cbar) ? "0" : "undefined");
    printf("hop diameter:       %d\n", ds_network_hop_diameter_threads(net, threads));
    printf("flow-independent:   %d links (free-flow time, b or power 0: cost fixed; a UE's flows on them are not "
           "unique, an "
           "SUE's are)\n",
           fixed);
    printf("zero free-flow time: %d links\n", zero_t0);
    print_free_flow(net, &cp);
    printf("parallel link pairs: %ld\n", parallel_pairs(net));
    {
        char gpu[512];
        ds_gpu_info(gpu, sizeof gpu);
        printf("%s\n", cli_cuda_emulate() ? "GPU: emulated on the CPU (DILLSUE_CUDA_EMULATE=1)" : gpu);
    }
    ds_network_free(net);
    return 0;
}
