/* cmd_load.c - `dillsue load`: one evaluation of the loading map f(x) at given
 * flows (or at x = 0), written as a flow CSV. The building block every solver
 * iterates, exposed so that any f(x) the program computes can be reproduced
 * and checked against another implementation. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ds_scenario.h"
#include "ds_csv.h"

#define CMD "load"

static const cli_help_section help_sections[] = {
    {"",
     {OPT_NET, OPT_TRIPS, OPT_FLOWS, OPT_TAU, OPT_MU, OPT_FILTER, OPT_INNER, OPT_INNER_MAX, OPT_CAP, OPT_TOLL_FACTOR,
      OPT_DIST_FACTOR, OPT_SCENARIO, OPT_SEED, OPT_THREADS, OPT_OUT, OPT_HELP, -1}},
    {NULL, {-1}},
};

static const char *help_note(int id, char *buf, size_t n)
{
    switch (id) {
    case OPT_NET: return "(default: the embedded network)";
    case OPT_FLOWS: return "(default x = 0)";
    case OPT_FILTER: return "(default full; edsp's first mask is dsp)";
    case OPT_THREADS: return "(default 1; the result does not depend on it)";
    case OPT_OUT: return "(required; here f(x) and its costs t(x))";
    case OPT_SEED: return "(with --scenario)";
    default: return cli_config_default(id, buf, n);
    }
}

/* Returns 0, or 2 when the table and the sections above disagree. */
static int usage(void)
{
    printf("Usage: dillsue load [--net NET] [--flows X.csv] [OPTIONS] --out F.csv\n"
           "Evaluate the loading map once, f = f(x), at the flows of X.csv (default x = 0),\n"
           "and write f with its costs t(x) as init_node,term_node,flow,cost.\n"
           "\n");
    int rc = cli_help_options(CMD, help_sections, help_note, stdout);
    printf("\n"
           "Prints gap_rel = ||f - x|| / ||x|| (undefined at x = 0), mu and cbar on stdout.\n"
           "Exit 0, 2 on usage or input errors or inner passes that do not converge within\n"
           "--inner-max, 3 if f(x) does not exist at x (the Bellman values diverge),\n"
           "4 stopped by Ctrl-C, SIGTERM or a hang-up (at once, saying what it was doing;\n"
           "nothing written).\n");
    return rc ? 2 : 0;
}

static int load(int argc, char **argv)
{
    cli_values v;
    int rc = cli_parse(CMD, argc, argv, &v, NULL);
    if (rc == 1) return usage();
    if (rc) return rc;
    cli_keep_on_closed_pipe();
    const char *net_path = v.str[OPT_NET], *trips = v.str[OPT_TRIPS], *flows_path = v.str[OPT_FLOWS],
               *out = v.str[OPT_OUT];
    double tau = v.have[OPT_TAU] ? v.num[OPT_TAU] : 10, mu = v.num[OPT_MU];
    double cap = v.have[OPT_CAP] ? v.num[OPT_CAP] : 100;
    double tollf = v.have[OPT_TOLL_FACTOR] ? v.num[OPT_TOLL_FACTOR] : NAN;
    double distf = v.have[OPT_DIST_FACTOR] ? v.num[OPT_DIST_FACTOR] : NAN;
    int filter = v.have[OPT_FILTER] ? (int)v.num[OPT_FILTER] : DS_FILTER_FULL;
    int inner = v.have[OPT_INNER] ? (int)v.num[OPT_INNER] : DS_INNER_DIRECT;
    int inner_max = v.have[OPT_INNER_MAX] ? (int)v.num[OPT_INNER_MAX] : 50;
    int threads = v.have[OPT_THREADS] ? (int)v.num[OPT_THREADS] : 1;
    ds_error err = {{0}, 0, {0}};
    if (filter == DS_FILTER_EDSP) filter = DS_FILTER_DSP;
    if (v.have[OPT_TAU] && v.have[OPT_MU]) return cli_usage(CMD, "give --tau or --mu, not both");
    if (!out) return cli_usage(CMD, "--out F.csv is required");
    if (trips && !net_path) return cli_usage(CMD, "--trips needs --net");
    if (v.have[OPT_SCENARIO] != v.have[OPT_SEED]) return cli_usage(CMD, "--scenario and --seed go together");
    if ((rc = cli_check_writable(CMD, "--out", out))) return rc;
    {
        char sib[PATH_MAX];
        const cli_file io[] = {
            {"--out", out, 1},
            {"--net", net_path, 0},
            {"--flows", flows_path, 0},
            {"--trips", trips ? trips : (net_path && ds_tntp_sibling(net_path, "trips", sib, sizeof sib) ? sib : NULL),
             0},
        };
        if ((rc = cli_check_io(CMD, io, (int)(sizeof io / sizeof *io)))) return rc;
    }

    cli_setup_step("reading", net_path ? net_path : "the embedded network", NULL);
    ds_network *net = cli_load_network(net_path, trips, 0, &err);
    if (!net) return cli_input_error(&err);
    /* solve's scenario, so that f of any run of the program can be evaluated again */
    if (v.have[OPT_SCENARIO] && ds_scenario_apply(net, (int)v.num[OPT_SCENARIO], (uint64_t)v.seed, NULL, &err) != 0) {
        ds_network_free(net);
        return cli_input_error(&err);
    }
    ds_cost_params cp = {cap, isnan(tollf) ? net->toll_factor : tollf, isnan(distf) ? net->distance_factor : distf};
    int m = net->n_links;
    double *x = NULL, *f = malloc(sizeof(double) * (size_t)(m + 1)), *t = malloc(sizeof(double) * (size_t)(m + 1));
    cli_setup_step(flows_path ? "reading" : "evaluating f(x)", flows_path, NULL);
    if (flows_path) {
        if (ds_flows_read_start(flows_path, net, &x, &err) != 0) { /* (solve --warm's rule) */
            ds_network_free(net);
            free(f), free(t);
            return cli_input_error(&err);
        }
    } else {
        x = calloc((size_t)m + 1, sizeof(double));
    }
    ds_loader *ld = NULL;
    cli_setup_step("evaluating f(x)", NULL, NULL);
    if ((rc = cli_check_costs(net, &cp))) goto done;
    double cbar = ds_network_cbar_threads(net, &cp, threads); /* (the same value on any count) */
    if (mu <= 0) {
        char why[400];
        if (ds_mu_from_tau(tau, cbar, ds_filter_name((ds_filter)filter), &mu, why, sizeof why) != 0) {
            fprintf(stderr, "dillsue: %s\n", why);
            rc = 2;
            goto done;
        }
    }
    ld = ds_loader_create(net, &cp, (ds_filter)filter, mu, threads, inner_max, 1e-13, &err);
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
        int dest = st.diverged_dest >= 0 ? ds_node_id(net, net->dest_node[st.diverged_dest]) : 0;
        /* passes that stop at --inner-max say nothing about whether f exists
         * (solve ends such a run with status error, exit 2, not ill-posed) */
        if (st.unconverged)
            fprintf(stderr,
                    "dillsue: f(x) not computed: the Bellman values did not converge within --inner-max %d passes "
                    "(destination %d, mu %.6g), which says nothing about whether f exists here: raise --inner-max "
                    "or use --inner direct\n",
                    inner_max, dest, mu);
        else
            fprintf(stderr,
                    "dillsue: f(x) does not exist here: the Bellman values diverge (spectral radius >= 1) "
                    "(destination %d, mu %.6g)\n",
                    dest, mu);
        rc = st.unconverged ? 2 : 3;
        goto done;
    }
    ds_costs_eval(net, &cp, x, t);
    /* f(x) is computed: a signal from here on waits for the output (the
     * handlers stay until cmd_load returns); one that came just before is
     * the set-up's */
    cli_setup_end();
    if (cli_stop_signal()) {
        fprintf(stderr, "dillsue load: %s while evaluating f(x); nothing written\n", cli_stop_word(cli_stop_signal()));
        rc = 4;
        goto done;
    }
    if (ds_flows_write(out, net, f, t, &err) != 0) {
        rc = cli_input_error(&err);
        goto done;
    }
    double a = 0, b = 0;
    for (int e = 0; e < m; e++) a += (f[e] - x[e]) * (f[e] - x[e]), b += x[e] * x[e];
    if (!isfinite(a) || !isfinite(b)) {
        /* squares past DBL_MAX (flows above ~1e154): the same sums scaled by
         * a power of two, which changes no digit of their ratio */
        double big = 0;
        int k;
        for (int e = 0; e < m; e++) big = fmax(big, fmax(fabs(x[e]), fabs(f[e] - x[e])));
        frexp(big, &k);
        a = b = 0;
        for (int e = 0; e < m; e++) {
            double d = ldexp(f[e] - x[e], -k), y = ldexp(x[e], -k);
            a += d * d, b += y * y;
        }
    }
    if (!isfinite(a) || !isfinite(b)) {
        fprintf(stderr, "dillsue: gap_rel cannot be computed: ||f - x||^2 or ||x||^2 overflows at these flows\n");
        rc = 2;
        goto done;
    }
    /* At x = 0 there is no relative gap: said so, never printed as inf. */
    if (b > 0)
        printf("gap_rel %.17g\n", sqrt(a / b));
    else
        printf("gap_rel undefined (x = 0)\n");
    printf("mu %.17g\ncbar %.17g\n", mu, cbar);
done:
    ds_loader_free(ld);
    ds_network_free(net);
    free(x), free(f), free(t);
    return rc;
}

/* A stop signal before f(x) is computed ends load at once, saying so (exit 4,
 * nothing written: cli_setup_begin); load writes its one output after. */
int cmd_load(int argc, char **argv)
{
    cli_stop_saved old;
    cli_setup_begin(CMD, &old);
    int rc = load(argc, argv);
    cli_setup_end();
    cli_stop_signals_restore(&old);
    return rc;
}
