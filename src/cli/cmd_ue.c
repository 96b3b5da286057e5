/* cmd_ue.c - `dillsue ue`: the Wardrop UE reference by (bi-)conjugate Frank-Wolfe. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "dillsue.h"
#include "ds_csv.h"
#include "ds_metrics.h"
#include "ds_ue.h"

#define CMD "ue"

static const cli_help_section help_sections[] = {
    {"",
     {OPT_NET, OPT_TRIPS, OPT_GAP, OPT_MAX_ITER, OPT_METHOD, OPT_THREADS, OPT_CAP, OPT_TOLL_FACTOR, OPT_DIST_FACTOR,
      OPT_OUT, OPT_CHECKPOINT, OPT_QUIET, OPT_HELP, -1}},
    {NULL, {-1}},
};

static const char *help_note(int id, char *buf, size_t n)
{
    ds_ue_config d;
    ds_ue_config_default(&d);
    switch (id) {
    case OPT_NET: return "(required)";
    case OPT_CHECKPOINT: return "(--out)";
    case OPT_GAP: snprintf(buf, n, "(0 <= G < 1; default %g)", d.gap); break;
    case OPT_MAX_ITER: snprintf(buf, n, "(Frank-Wolfe; default %d)", d.max_iter); break;
    case OPT_METHOD: snprintf(buf, n, "(default %s)", ds_ue_method_name(d.method)); break;
    case OPT_THREADS: snprintf(buf, n, "(default %d)", d.threads); break;
    case OPT_CAP: snprintf(buf, n, "(default %g)", d.cost.cap); break;
    default: return NULL;
    }
    return buf;
}

/* Returns 0, or 2 when the table and the sections above disagree. */
static int print_help(void)
{
    printf("Usage: dillsue ue --net NET [OPTIONS]\n"
           "Wardrop user equilibrium by conjugate (cfw) or bi-conjugate (bfw) Frank-Wolfe\n"
           "to a relative gap. OD pairs without a path are not assigned, as solve\n"
           "leaves them (stdout: lost_od, lost_demand).\n"
           "\n");
    int rc = cli_help_options(CMD, help_sections, help_note, stdout);
    printf("\n"
           "Exit 0 gap reached, 1 max iterations, 2 usage or input error, 4 stopped by\n"
           "Ctrl-C, SIGTERM or a hang-up within a fraction of a second, the iteration under\n"
           "way dropped (the flows of the last finished one are still written; before\n"
           "iteration 0 has finished, or while the network is read, at once, saying so,\n"
           "nothing written; a second signal a second later kills at once).\n");
    return rc ? 2 : 0;
}

typedef struct {
    int quiet;
    double t_start, t_last;
    int last_iter;
    double last_gap;
    /* --checkpoint: OUT.checkpoint rewritten every `every` seconds from the
     * flows the solver holds when it reports an iteration (ds_ue_solve's
     * contract); removed once the run's own output is written */
    const ds_network *net;
    const ds_ue_config *cfg;
    const char *out;
    double every, t_ckpt; /* t_ckpt: when the next write is due (cli_mono_s) */
    int written, failed;
    const double *flows;
    double *costs;
    /* the smallest gap so far, and as it was at iteration 2^k; the stall note said once */
    double best_gap, best_at[32];
    int stall_said;
} ue_progress;

/* Frank-Wolfe's gap can fall too slowly to reach a tight --gap (Winnipeg-
 * Asymmetric: near 5e-7 after 24,000 iterations, 2 minutes). At iteration
 * 2^k >= UE_STALL_ITERS the smallest gap's fall over the last doubling of
 * the iterations is carried forward; where it would not reach --gap within
 * --max-iter the user is told once, so that futile iterations are a choice.
 * Nothing about the solve changes. */
#define UE_STALL_ITERS 4096

/* Set by the stop watcher on SIGINT, SIGTERM or SIGHUP (the CLI's one stop
 * rule: a batch scheduler's SIGTERM keeps the flows so far, as Ctrl-C does). */
static volatile int ue_cancel_flag = 0;

static void ue_stop(int sig, void *ctx)
{
    (void)sig;
    (void)ctx;
    __atomic_store_n(&ue_cancel_flag, 1, __ATOMIC_RELEASE);
}

/* The flows as they stand, written atomically: a crash or a kill loses at
 * most p->every seconds. A failed write is said once and not tried again. */
static void ue_checkpoint(ue_progress *p, int iter, double now)
{
    ds_error err = {0};
    ds_costs_eval(p->net, &p->cfg->cost, p->flows, p->costs);
    if (ds_flows_write(p->out, p->net, p->flows, p->costs, &err) != 0) {
        cli_checkpoint_failed(&err);
        p->failed = 1;
        return;
    }
    p->t_ckpt = cli_checkpoint_next(now, cli_mono_s(), p->every);
    p->written++;
    if (!p->quiet) fprintf(stderr, "checkpoint  iteration %d: %s (every %g s)\n", iter, p->out, p->every);
}

static void ue_on_iter(int iter, double gap, void *ctx)
{
    ue_progress *p = ctx;
    double now = cli_mono_s();
    p->last_iter = iter;
    p->last_gap = gap;
    if (p->every > 0 && p->out && p->costs && !p->failed && now >= p->t_ckpt) ue_checkpoint(p, iter, now);
    if (!(gap >= p->best_gap)) p->best_gap = gap; /* also the first (best_gap NaN) */
    int k = iter > 0 && (iter & (iter - 1)) == 0 ? __builtin_ctz((unsigned)iter) : -1;
    if (k >= 0 && k < 32) p->best_at[k] = p->best_gap;
    if (p->quiet) return;
    if (!p->stall_said && k > 0 && iter >= UE_STALL_ITERS && p->best_gap > p->cfg->gap) {
        double r = p->best_gap / p->best_at[k - 1], need = INFINITY; /* r: the fall per doubling */
        if (r < 1 && p->cfg->gap > 0) need = iter * pow(2, log(p->cfg->gap / p->best_gap) / log(r));
        if (!(need <= p->cfg->max_iter)) {
            char n[64];
            if (isfinite(need))
                snprintf(n, sizeof n, "needs about %.2g iterations, past --max-iter %d", need, p->cfg->max_iter);
            else
                snprintf(n, sizeof n, "is not reached at this rate");
            fprintf(stderr,
                    "ue: at the rate of iterations %d to %d (smallest gap %.3e -> %.3e), --gap %g %s; Ctrl-C stops "
                    "and keeps the flows\n",
                    iter / 2, iter, p->best_at[k - 1], p->best_gap, p->cfg->gap, n);
            p->stall_said = 1;
        }
    }
    /* every iteration at first, every 10th up to 100, then once a second:
     * fast networks run thousands of iterations a second */
    if (iter < 10 || (iter < 100 && iter % 10 == 0) || now - p->t_last >= 1.0) {
        fprintf(stderr, "ue iter %7d  rel_gap %.6e  %9.3f s\n", iter, gap, now - p->t_start);
        p->t_last = now;
    }
}

/* The reference-flow comparison when the network came with a _flow.tntp. */
static void report_reference(const ds_network *net, const ds_ue_config *cfg, const double *flows)
{
    int n = net->n_links;
    ds_metrics all, dep;
    unsigned char *mask = malloc((size_t)(n > 0 ? n : 1));
    char a[64], b[64], c[64];
    if (!mask) return;
    int nd = ds_metrics_flow_dependent_mask(net, mask);
    ds_metrics_compare(flows, net->ref_flow, n, NULL, 1.0, &all);
    ds_metrics_compare(flows, net->ref_flow, n, mask, 1.0, &dep);
    printf("mape_all %s (%d links with ref >= 1)\n", cli_num(all.mape, "%.4f%%", "undefined", a, sizeof a), all.n_mape);
    printf("mape_flow_dependent %s (%d of %d flow-dependent links with ref >= 1)\n",
           cli_num(dep.mape, "%.4f%%", "undefined", b, sizeof b), dep.n_mape, nd);
    printf("r2_all %s\n", cli_num(all.r2, "%.8f", "undefined (the reference flows do not vary)", c, sizeof c));
    /* the published flows solve the uncapped model: say so when the
     * cap shaped this solution, or the MAPE reads as a solver bug */
    int capped = 0;
    for (int e = 0; e < n; e++)
        if (mask[e] && cfg->cost.cap > 0 && flows[e] > cfg->cost.cap * net->capacity[e]) capped++;
    if (capped)
        fprintf(stderr,
                "note: x/c exceeds the cap %g on %d links; the reference flows were computed "
                "without a cap (compare with --cap 0)\n",
                cfg->cost.cap, capped);
    free(mask);
}

/* Options into cfg; paths into *net_path / *trips / *out. Returns 0, -1 for
 * --help (printed), or 2 after a usage error. */
static int ue_args(int argc, char **argv, ds_ue_config *cfg, cli_values *v)
{
    int rc = cli_parse(CMD, argc, argv, v, NULL);
    if (rc == 1) return print_help() ? 2 : -1;
    if (rc) return rc;
    if (!v->str[OPT_NET]) return cli_usage(CMD, "--net NET is required");
    if (v->have[OPT_GAP]) cfg->gap = v->num[OPT_GAP];
    if (v->have[OPT_MAX_ITER]) cfg->max_iter = (int)v->num[OPT_MAX_ITER];
    if (v->have[OPT_THREADS]) cfg->threads = (int)v->num[OPT_THREADS];
    if (v->have[OPT_CAP]) cfg->cost.cap = v->num[OPT_CAP];
    if (v->have[OPT_METHOD]) cfg->method = (int)v->num[OPT_METHOD];
    char sib[4096], flow_sib[4096], node_sib[4096], ck[4200];
    /* --checkpoint writes OUT.checkpoint and removes it at the end: an input
     * of that name (--trips T --out T's stem) was overwritten, then deleted */
    int ck_on = v->str[OPT_OUT] && (!v->have[OPT_CHECKPOINT] || v->num[OPT_CHECKPOINT] > 0) &&
                cli_checkpoint_path(v->str[OPT_OUT], ck, sizeof ck) == 0;
    const char *net = v->str[OPT_NET], *trips = v->str[OPT_TRIPS];
    /* ue also reads the net file's _flow.tntp (the reference it compares with)
     * and _node.tntp siblings: as root, a read-only mode did not keep --out
     * from replacing the published flows */
    const cli_file io[] = {
        {"--out", v->str[OPT_OUT], 1},
        {"--out's checkpoint", ck_on ? ck : NULL, 1},
        {"--net", net, 0},
        {"--trips", trips ? trips : (ds_tntp_sibling(net, "trips", sib, sizeof sib) ? sib : NULL), 0},
        {"the reference", ds_tntp_sibling(net, "flow", flow_sib, sizeof flow_sib) ? flow_sib : NULL, 0},
        {"the node file", ds_tntp_sibling(net, "node", node_sib, sizeof node_sib) ? node_sib : NULL, 0},
    };
    if (v->str[OPT_OUT] && (rc = cli_check_writable(CMD, "--out", v->str[OPT_OUT]))) return rc;
    return cli_check_io(CMD, io, (int)(sizeof io / sizeof *io));
}

/* pr comes with its checkpoint settings (out, every, costs); the rest is set
 * here. The set-up's watch ends here (a signal since then stops the solve
 * within the current iteration, before iteration 0 with no iterate: res->iters
 * -1); the stop handlers stay installed (the caller
 * restores them once the outputs are written: a signal after the solve must
 * not kill the process between them; a repeat a second later still does,
 * main.c). */
static ds_status ue_run(const ds_network *net, const ds_ue_config *cfg, int quiet, double *flows, ds_ue_result *res,
                        ue_progress *pr, ds_error *err)
{
    pr->quiet = quiet, pr->t_start = pr->t_last = cli_mono_s(), pr->last_iter = -1, pr->last_gap = NAN;
    pr->t_ckpt = pr->t_start + pr->every;
    pr->net = net, pr->cfg = cfg, pr->flows = flows;
    pr->best_gap = NAN;
    memset(res, 0, sizeof *res);
    cli_setup_end();
    cli_stop_watch *w = cli_stop_watch_begin(ue_stop, NULL);
    ds_status st = ds_ue_solve(net, cfg, flows, res, ue_on_iter, pr, &ue_cancel_flag, err);
    cli_stop_watch_end(w);
    return st;
}

/* OD pairs with no path are not assigned, as solve leaves them (where some
 * demand has a path; none: the solve's error names the first): said once on
 * stderr, and on stdout as lost_od and lost_demand. */
static void say_lost(const ds_network *net, int threads, int quiet, cli_lost *l)
{
    char why[96];
    if (cli_unreachable(net, threads, l) != 0 || !l->n_od || quiet || !(l->demand < net->total_demand)) return;
    int centroid = cli_no_path_cause(net, l, why, sizeof why);
    fprintf(stderr,
            "dillsue: %d OD pairs (demand %.6g of %.6g) have no path%s and are not assigned; the first: zone %d to "
            "zone %d (demand %g%s)\n",
            l->n_od, l->demand, net->total_demand, centroid ? " without passing through a centroid" : "",
            ds_node_id(net, l->orig), ds_node_id(net, l->dest), l->first, why);
}

int cmd_ue(int argc, char **argv)
{
    cli_stop_saved old_sigs;
    ds_ue_config cfg;
    cli_values v;
    ds_error err = {0};
    ds_ue_config_default(&cfg);
    int rc = ue_args(argc, argv, &cfg, &v);
    if (rc) return rc < 0 ? 0 : rc;
    int quiet = v.have[OPT_QUIET];
    cli_keep_on_closed_pipe();

    cli_setup_begin(CMD, &old_sigs);
    cli_setup_step("reading", v.str[OPT_NET], NULL);
    ds_network *net = cli_load_network(v.str[OPT_NET], v.str[OPT_TRIPS], 1, &err);
    if (!net) {
        cli_setup_end();
        cli_stop_signals_restore(&old_sigs);
        return cli_input_error(&err);
    }
    cli_setup_step("setting up the solve of", v.str[OPT_NET], NULL);
    cfg.cost.toll_factor = v.have[OPT_TOLL_FACTOR] ? v.num[OPT_TOLL_FACTOR] : net->toll_factor;
    cfg.cost.distance_factor = v.have[OPT_DIST_FACTOR] ? v.num[OPT_DIST_FACTOR] : net->distance_factor;
    int n = net->n_links;
    double *flows = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    double *costs = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    if (!flows || !costs) {
        fprintf(stderr, "dillsue: out of memory\n");
        rc = 2;
        goto done;
    }
    if ((rc = cli_check_costs(net, &cfg.cost))) goto done;
    if (!quiet)
        fprintf(stderr,
                "ue: %s, %d nodes, %d links, %d OD pairs, demand %.6g; %s, gap %g, cap %g, "
                "toll factor %g, distance factor %g\n",
                net->name, net->n_nodes, n, net->n_od, net->total_demand, ds_ue_method_name(cfg.method), cfg.gap,
                cfg.cost.cap, cfg.cost.toll_factor, cfg.cost.distance_factor);

    cli_lost lost;
    say_lost(net, cfg.threads, quiet, &lost);
    ds_ue_result res;
    ue_progress ckpt = {0};
    char ck_out[4200];
    if (v.str[OPT_OUT] && cli_checkpoint_path(v.str[OPT_OUT], ck_out, sizeof ck_out) == 0) ckpt.out = ck_out;
    ckpt.every = v.have[OPT_CHECKPOINT] ? v.num[OPT_CHECKPOINT] : 60;
    ckpt.costs = costs;
    ds_status st = ue_run(net, &cfg, quiet, flows, &res, &ckpt, &err);
    if (st == DS_STATUS_ERROR) {
        rc = cli_input_error(&err);
        if (ckpt.written) remove(ckpt.out); /* a checkpoint is no result of a solve that failed */
        goto done;
    }
    if (st == DS_STATUS_CANCELLED && res.iters < 0) {
        /* stopped before iteration 0 was finished: no flows to write */
        fprintf(stderr, "dillsue ue: %s before the first iteration was finished; nothing written\n",
                cli_stop_word(cli_stop_signal()));
        rc = ds_status_exit_code(st);
        goto done;
    }
    /* the final state, whether or not the throttle showed it */
    if (!quiet)
        fprintf(stderr, "ue iter %7d  rel_gap %.6e  %9.3f s  (%s)\n", res.iters, res.rel_gap, res.seconds,
                st == DS_STATUS_CONVERGED  ? "gap reached"
                : st == DS_STATUS_MAX_ITER ? "max iterations"
                                           : cli_stop_word(cli_stop_signal()));
    printf("status %s\niterations %d\nrel_gap %.6e\nseconds %.3f\nbeckmann %.15g\nlost_od %d\nlost_demand %.15g\n",
           ds_status_name(st), res.iters, res.rel_gap, res.seconds, res.beckmann, lost.n_od, lost.demand);
    if (net->ref_flow) {
        report_reference(net, &cfg, flows);
        /* the published flows solve the net's own demand: a --trips of other
         * demand gave a MAPE (111 % for Sioux Falls' trips doubled) with no word */
        char own[4096];
        struct stat a, b;
        const char *t = v.str[OPT_TRIPS];
        if (t && !(ds_tntp_sibling(v.str[OPT_NET], "trips", own, sizeof own) && stat(own, &a) == 0 &&
                   stat(t, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino))
            fprintf(stderr,
                    "note: the reference flows were computed for %s's own trips file, not --trips %s: "
                    "mape and r2 compare different demands\n",
                    v.str[OPT_NET], t);
    }
    rc = ds_status_exit_code(st);
    if (v.str[OPT_OUT]) {
        ds_costs_eval(net, &cfg.cost, flows, costs);
        if (ds_flows_write(v.str[OPT_OUT], net, flows, costs, &err) != 0) {
            rc = cli_input_error(&err);
            if (ckpt.written) fprintf(stderr, "dillsue: the last checkpoint is kept: %s\n", ckpt.out);
        } else {
            if (ckpt.written)
                remove(ckpt.out); /* served its purpose */
            else if (ckpt.every > 0)
                cli_checkpoint_stale(ckpt.out);
            /* as solve says it: a flow file of a stopped run looks like any other */
            if (st != DS_STATUS_CONVERGED)
                fprintf(stderr, "dillsue: NOT CONVERGED (%s, rel_gap %.3e, --gap %g): %s holds the last iterate\n",
                        ds_status_name(st), res.rel_gap, cfg.gap, v.str[OPT_OUT]);
        }
    }
done:
    cli_setup_end(); /* (a set-up that failed) */
    cli_stop_signals_restore(&old_sigs);
    free(flows);
    free(costs);
    ds_network_free(net);
    return rc;
}
