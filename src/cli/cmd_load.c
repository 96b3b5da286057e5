/* cmd_load.c - `dillsue load`: one evaluation of the loading map f(x) at given
 * flows (or at x = 0), written as a flow CSV. The building block every solver
 * iterates, exposed so that any f(x) the program computes can be reproduced
 * and checked against another implementation. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ds_csv.h"

#define CMD "load"

static void usage(void)
{
    printf("Usage: dillsue load [--net NET] [--flows X.csv] [OPTIONS] --out F.csv\n"
           "Evaluate the loading map once, f = f(x), at the flows of X.csv (default x = 0),\n"
           "and write f with its costs t(x) as init_node,term_node,flow,cost.\n"
           "\n"
           "  --net NET             TNTP _net.tntp file (default: the embedded network)\n"
           "  --trips TRIPS         trips file (default: NET's sibling _trips.tntp)\n"
           "  --flows X.csv         the point x (a flow CSV of this network)\n"
           "  --tau T | --mu M      dispersion (default tau 10; mu = tau / cbar)\n"
           "  --filter F            full|dsp|bfs (default full; edsp's first mask is dsp)\n"
           "  --inner I             full graph: direct (sparse LU) or passes (default direct)\n"
           "  --inner-max N         passes with --inner passes (default 50)\n"
           "  --cap C               cap on x/c (default 100, 0 = none)\n"
           "  --toll-factor F       generalized-cost weights (default: the net file's)\n"
           "  --distance-factor F\n"
           "  --threads N           worker threads (default 1; the result does not depend on it)\n"
           "  --out F.csv           where to write f (required)\n"
           "  --help                this text\n"
           "\n"
           "Prints gap_rel = ||f - x|| / ||x|| and mu on stdout. Exit 0, 2 on usage or\n"
           "input errors, 3 if f(x) does not exist at x (the Bellman values diverge).\n");
}

enum { O_NET = 256, O_TRIPS, O_FLOWS, O_TAU, O_MU, O_FILTER, O_INNER, O_INNERMAX, O_CAP, O_TOLL, O_DIST,
       O_THREADS, O_OUT, O_HELP };

static const struct option opts[] = {
    {"net", required_argument, 0, O_NET},         {"trips", required_argument, 0, O_TRIPS},
    {"flows", required_argument, 0, O_FLOWS},     {"tau", required_argument, 0, O_TAU},
    {"mu", required_argument, 0, O_MU},           {"filter", required_argument, 0, O_FILTER},
    {"inner", required_argument, 0, O_INNER},     {"inner-max", required_argument, 0, O_INNERMAX},
    {"cap", required_argument, 0, O_CAP},         {"toll-factor", required_argument, 0, O_TOLL},
    {"distance-factor", required_argument, 0, O_DIST}, {"threads", required_argument, 0, O_THREADS},
    {"out", required_argument, 0, O_OUT},         {"help", no_argument, 0, O_HELP},
    {0, 0, 0, 0}};

int cmd_load(int argc, char **argv)
{
    const char *net_path = NULL, *trips = NULL, *flows_path = NULL, *out = NULL;
    double tau = 10, mu = 0, cap = 100, tollf = NAN, distf = NAN;
    int filter = DS_FILTER_FULL, inner = DS_INNER_DIRECT, inner_max = 50, threads = 1, c, rc = 0;
    ds_error err = {{0}, 0, {0}};

    opterr = 0;
    optind = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case O_NET: net_path = optarg; break;
        case O_TRIPS: trips = optarg; break;
        case O_FLOWS: flows_path = optarg; break;
        case O_TAU:
            rc = cli_double(CMD, "--tau", optarg, &tau);
            if (!rc && !(tau > 0)) rc = cli_usage(CMD, "--tau must be positive, got %s", optarg);
            break;
        case O_MU:
            rc = cli_double(CMD, "--mu", optarg, &mu);
            if (!rc && !(mu > 0)) rc = cli_usage(CMD, "--mu must be positive, got %s", optarg);
            break;
        case O_FILTER:
            filter = ds_filter_parse(optarg);
            if (filter < 0) rc = cli_usage(CMD, "unknown --filter '%s'", optarg);
            if (filter == DS_FILTER_EDSP) filter = DS_FILTER_DSP;
            break;
        case O_INNER:
            inner = ds_inner_parse(optarg);
            if (inner < 0) rc = cli_usage(CMD, "unknown --inner '%s'", optarg);
            break;
        case O_INNERMAX: rc = cli_int(CMD, "--inner-max", optarg, 1, 1000000000, &inner_max); break;
        case O_CAP:
            rc = cli_double(CMD, "--cap", optarg, &cap);
            if (!rc && cap < 0) rc = cli_usage(CMD, "--cap must be >= 0, got %s", optarg);
            break;
        case O_TOLL: rc = cli_double(CMD, "--toll-factor", optarg, &tollf); break;
        case O_DIST: rc = cli_double(CMD, "--distance-factor", optarg, &distf); break;
        case O_THREADS: rc = cli_int(CMD, "--threads", optarg, 0, 4096, &threads); break;
        case O_OUT: out = optarg; break;
        case 'h':
        case O_HELP: usage(); return 0;
        default: return cli_getopt_error(CMD, c, argv);
        }
        if (rc) return rc;
    }
    if (optind < argc) return cli_usage(CMD, "unexpected argument '%s'", argv[optind]);
    if (!out) return cli_usage(CMD, "--out F.csv is required");
    if ((rc = cli_check_writable(CMD, "--out", out))) return rc;

    ds_network *net = cli_load_network(net_path, trips, &err);
    if (!net) return cli_input_error(&err);
    ds_cost_params cp = {cap, isnan(tollf) ? net->toll_factor : tollf, isnan(distf) ? net->distance_factor : distf};
    int m = net->n_links;
    double *x = NULL, *f = malloc(sizeof(double) * (size_t)(m + 1)), *t = malloc(sizeof(double) * (size_t)(m + 1));
    if (flows_path) {
        int n = 0;
        if (ds_flows_read(flows_path, net, &x, NULL, &n, &err) != 0) {
            ds_network_free(net);
            free(f), free(t);
            return cli_input_error(&err);
        }
    } else {
        x = calloc((size_t)m + 1, sizeof(double));
    }
    double cbar = ds_network_cbar(net, &cp);
    if (mu <= 0) mu = tau / cbar;
    ds_loader *ld = ds_loader_create(net, &cp, (ds_filter)filter, mu, threads, inner_max, 1e-13, &err);
    if (!ld || ds_loader_set_inner(ld, (ds_inner)inner) != 0) {
        if (ld) ds_error_set(&err, NULL, 0, "out of memory");
        rc = cli_input_error(&err);
        goto done;
    }
    int lost_od = 0;
    double lost = 0;
    ds_loader_lost_demand(ld, &lost_od, &lost);
    if (lost_od)
        fprintf(stderr, "dillsue: %d OD pairs (demand %.6g) have no path under the %s filter and are not assigned\n",
                lost_od, lost, ds_filter_name((ds_filter)filter));
    int ev = ds_loader_eval(ld, x, f);
    if (ev != 0) {
        ds_load_stats st;
        ds_loader_stats(ld, &st);
        fprintf(stderr, "dillsue: f(x) does not exist here: the Bellman values %s (destination %d, mu %.6g)\n",
                st.unconverged ? "did not converge within --inner-max passes" : "diverge (spectral radius >= 1)",
                st.diverged_dest >= 0 ? ds_node_id(net, net->dest_node[st.diverged_dest]) : 0, mu);
        rc = 3;
        goto done;
    }
    ds_costs_eval(net, &cp, x, t);
    if (ds_flows_write(out, net, f, t, &err) != 0) {
        rc = cli_input_error(&err);
        goto done;
    }
    double a = 0, b = 0;
    for (int e = 0; e < m; e++) a += (f[e] - x[e]) * (f[e] - x[e]), b += x[e] * x[e];
    printf("gap_rel %.17g\nmu %.17g\ncbar %.17g\n", b > 0 ? sqrt(a / b) : INFINITY, mu, cbar);
done:
    ds_loader_free(ld);
    ds_network_free(net);
    free(x), free(f), free(t);
    return rc;
}
