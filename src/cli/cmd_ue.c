/* cmd_ue.c - `dillsue ue`: the Wardrop UE reference by (bi-)conjugate Frank-Wolfe. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "dillsue.h"
#include "ds_csv.h"
#include "ds_metrics.h"
#include "ds_ue.h"

static const char ue_usage[] =
    "usage: dillsue ue --net NET [--trips T] [--gap 1e-6] [--max-iter N] [--threads N]\n"
    "                  [--cap 100] [--toll-factor F] [--distance-factor F]\n"
    "                  [--method cfw|bfw] [--out FLOWS.csv] [--quiet] [--help]\n"
    "Wardrop user equilibrium by conjugate (cfw) or bi-conjugate (bfw, default)\n"
    "Frank-Wolfe to a relative gap. Toll and distance factors default to the\n"
    "net file's metadata. Exit 0 gap reached, 1 max iterations, 2 usage or input\n"
    "error, 4 interrupted (flows so far are still written).\n";

typedef struct {
    int quiet;
    double t_start, t_last;
    int last_iter;
    double last_gap;
} ue_progress;

static volatile int ue_cancel_flag = 0;

static void ue_on_sigint(int sig)
{
    (void)sig;
    ue_cancel_flag = 1;
}

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void ue_on_iter(int iter, double gap, void *ctx)
{
    ue_progress *p = ctx;
    double now = mono_now();
    p->last_iter = iter;
    p->last_gap = gap;
    if (p->quiet) return;
    /* every iteration at first, every 10th up to 100, then once a second:
     * fast networks run thousands of iterations a second */
    if (iter < 10 || (iter < 100 && iter % 10 == 0) || now - p->t_last >= 1.0) {
        fprintf(stderr, "ue iter %7d  rel_gap %.6e  %9.3f s\n", iter, gap, now - p->t_start);
        p->t_last = now;
    }
}

static int ue_bad(const char *fmt, const char *arg)
{
    fprintf(stderr, "dillsue: ue: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", ue_usage);
    return 2;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno == ERANGE || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

static int parse_int(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno == ERANGE || v < -1000000000L || v > 1000000000L) return -1;
    *out = (int)v;
    return 0;
}

int cmd_ue(int argc, char **argv)
{
    const char *net_path = NULL, *trips_path = NULL, *out_path = NULL;
    ds_ue_config cfg;
    int quiet = 0, have_toll = 0, have_dist = 0;
    double toll_f = 0.0, dist_f = 0.0;
    ds_ue_config_default(&cfg);

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = NULL;
        char name[64];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(ue_usage, stdout);
            return 0;
        }
        if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            quiet = 1;
            continue;
        }
        if (strncmp(a, "--", 2) != 0) return ue_bad("unexpected argument '%s'", a);
        const char *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        if (len >= sizeof name) return ue_bad("unknown option '%s'", a);
        memcpy(name, a, len);
        name[len] = '\0';
        if (eq) val = eq + 1;
        else if (i + 1 < argc) val = argv[++i];
        else return ue_bad("option '%s' needs a value", a);

        if (strcmp(name, "--net") == 0) net_path = val;
        else if (strcmp(name, "--trips") == 0) trips_path = val;
        else if (strcmp(name, "--out") == 0) out_path = val;
        else if (strcmp(name, "--gap") == 0) {
            if (parse_double(val, &cfg.gap) || cfg.gap < 0) return ue_bad("--gap wants a number >= 0, got '%s'", val);
        } else if (strcmp(name, "--max-iter") == 0) {
            if (parse_int(val, &cfg.max_iter) || cfg.max_iter < 0)
                return ue_bad("--max-iter wants an integer >= 0, got '%s'", val);
        } else if (strcmp(name, "--threads") == 0) {
            if (parse_int(val, &cfg.threads)) return ue_bad("--threads wants an integer, got '%s'", val);
        } else if (strcmp(name, "--cap") == 0) {
            if (parse_double(val, &cfg.cost.cap) || cfg.cost.cap < 0)
                return ue_bad("--cap wants a number >= 0 (0 = no cap), got '%s'", val);
        } else if (strcmp(name, "--toll-factor") == 0) {
            if (parse_double(val, &toll_f)) return ue_bad("--toll-factor wants a number, got '%s'", val);
            have_toll = 1;
        } else if (strcmp(name, "--distance-factor") == 0) {
            if (parse_double(val, &dist_f)) return ue_bad("--distance-factor wants a number, got '%s'", val);
            have_dist = 1;
        } else if (strcmp(name, "--method") == 0) {
            cfg.method = ds_ue_method_parse(val);
            if (cfg.method < 0) return ue_bad("--method wants cfw or bfw, got '%s'", val);
        } else
            return ue_bad("unknown option '%s'", name);
    }
    if (!net_path) return ue_bad("%s", "--net NET is required");

    ds_error err;
    char msg[1200];
    memset(&err, 0, sizeof err);
    ds_network *net = ds_network_load(net_path, trips_path, NULL, NULL, &err);
    if (!net) {
        ds_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "dillsue: %s\n", msg);
        return 2;
    }
    cfg.cost.toll_factor = have_toll ? toll_f : net->toll_factor;
    cfg.cost.distance_factor = have_dist ? dist_f : net->distance_factor;

    int n = net->n_links;
    double *flows = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    double *costs = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    if (!flows || !costs) {
        fprintf(stderr, "dillsue: out of memory\n");
        free(flows);
        free(costs);
        ds_network_free(net);
        return 2;
    }

    if (!quiet)
        fprintf(stderr, "ue: %s, %d nodes, %d links, %d OD pairs, demand %.6g; %s, gap %g, cap %g, "
                        "toll factor %g, distance factor %g\n",
                net->name, net->n_nodes, n, net->n_od, net->total_demand,
                ds_ue_method_name(cfg.method), cfg.gap, cfg.cost.cap, cfg.cost.toll_factor,
                cfg.cost.distance_factor);

    ue_progress pr = { quiet, mono_now(), 0.0, -1, NAN };
    pr.t_last = pr.t_start;
    ds_ue_result res;
    memset(&res, 0, sizeof res);
    struct sigaction sa, old_sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = ue_on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_sa);
    int rc = ds_ue_solve(net, &cfg, flows, &res, ue_on_iter, &pr, &ue_cancel_flag, &err);
    sigaction(SIGINT, &old_sa, NULL);
    if (rc == DS_UE_ERROR) {
        ds_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "dillsue: %s\n", msg);
        goto done;
    }
    /* the final state, whether or not the throttle showed it */
    if (!quiet) {
        fprintf(stderr, "ue iter %7d  rel_gap %.6e  %9.3f s  (%s)\n", res.iters, res.rel_gap,
                res.seconds,
                rc == DS_UE_CONVERGED ? "gap reached" : rc == DS_UE_MAX_ITER ? "max iterations" : "interrupted");
    }
    printf("status %s\niterations %d\nrel_gap %.6e\nseconds %.3f\nbeckmann %.15g\n",
           rc == DS_UE_CONVERGED ? "converged" : rc == DS_UE_MAX_ITER ? "max-iterations" : "cancelled",
           res.iters, res.rel_gap, res.seconds, res.beckmann);

    if (net->ref_flow) {
        ds_metrics all, dep;
        unsigned char *mask = malloc((size_t)(n > 0 ? n : 1));
        if (mask) {
            int nd = ds_metrics_flow_dependent_mask(net, mask);
            ds_metrics_compare(flows, net->ref_flow, n, NULL, 1.0, &all);
            ds_metrics_compare(flows, net->ref_flow, n, mask, 1.0, &dep);
            printf("mape_all %.4f%% (%d links with ref >= 1)\n", all.mape, all.n_mape);
            printf("mape_flow_dependent %.4f%% (%d of %d flow-dependent links with ref >= 1)\n",
                   dep.mape, dep.n_mape, nd);
            printf("r2_all %.8f\n", all.r2);
            /* the published flows solve the uncapped model: say so when the
             * cap shaped this solution, or the MAPE reads as a solver bug */
            int capped = 0;
            for (int e = 0; e < n; e++)
                if (mask[e] && cfg.cost.cap > 0 && flows[e] > cfg.cost.cap * net->capacity[e]) capped++;
            if (capped)
                fprintf(stderr, "note: x/c exceeds the cap %g on %d links; the reference flows were computed "
                                "without a cap (compare with --cap 0)\n", cfg.cost.cap, capped);
            free(mask);
        }
    }

    if (out_path) {
        ds_costs_eval(net, &cfg.cost, flows, costs);
        if (ds_flows_write(out_path, net, flows, costs, &err) != 0) {
            ds_error_format(&err, msg, sizeof msg);
            fprintf(stderr, "dillsue: %s\n", msg);
            rc = 2;
        }
    }
done:
    free(flows);
    free(costs);
    ds_network_free(net);
    return rc;
}
