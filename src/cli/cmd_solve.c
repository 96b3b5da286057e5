/* cmd_solve.c - `dillsue solve`: one SUE run from the command line, with a
 * progress line per iteration, Ctrl-C that stops cleanly, and flow/history
 * CSV outputs that are written whenever there is something to write. */
#include "cli.h"
#include "ds_csv.h"
#include "ds_scenario.h"

#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CMD "solve"

/* --help: the options from the table (src/cli/opts.c), in these sections. */
static const cli_help_section help_sections[] = {
    {"Network:", {OPT_NET, OPT_TRIPS, OPT_SCENARIO, OPT_SEED, -1}},
    {"Model:", {OPT_TAU, OPT_MU, OPT_FILTER, OPT_CAP, OPT_TOLL_FACTOR, OPT_DIST_FACTOR, -1}},
    {"Solver:",
     {OPT_SOLVER, OPT_TOL, OPT_MAX_ITER, OPT_GLOBALISE, OPT_NEWTON_WARM, OPT_START, OPT_EDSP_REFRESH, OPT_EDSP_DAMPING,
      OPT_INNER, OPT_INNER_MAX, OPT_FACTOR_MEMORY, OPT_THREADS, OPT_BACKEND, OPT_WARM, -1}},
    {"Output:", {OPT_OUT, OPT_HISTORY, OPT_CHECKPOINT, OPT_QUIET, OPT_PROGRESS_EVERY, OPT_HELP, -1}},
    {NULL, {-1}},
};

static const char *help_note(int id, char *buf, size_t n)
{
    switch (id) {
    case OPT_NET: return "(default: the embedded network)";
    case OPT_SEED: return "(with --scenario)";
    case OPT_CHECKPOINT:
        return "(--out, and --history with final_status running; go on with --warm FLOWS.csv.checkpoint)";
    default: return cli_config_default(id, buf, n);
    }
}

/* Returns 0, or 2 when the table and the sections above disagree. */
static int print_help(void)
{
    printf("Usage: dillsue solve [--net NET] [OPTIONS]\n"
           "Solve the link-based logit SUE x = f(x) and write the flows.\n"
           "\n");
    int rc = cli_help_options(CMD, help_sections, help_note, stdout);
    printf("\n"
           "Progress lines and the steps totals go to stderr (not with --quiet), the\n"
           "summary and certificate lines to stdout. Ctrl-C stops\n"
           "the run and writes the last finished iteration (twice: quit at once; during\n"
           "set-up, before any iteration, nothing is written; while reading the network\n"
           "it stops at once and says so).\n"
           "Exit codes: 0 converged, 1 stopped at max iterations (results still written),\n"
           "2 usage or input error, or a run that ended in error (the summary says why),\n"
           "3 ill-posed model, 4 cancelled (results of the last finished iteration written).\n");
    return rc ? 2 : 0;
}

/* ------------------------------------------------------ progress monitor */

struct progress {
    int quiet;
    /* --checkpoint: OUT.checkpoint and HIST.checkpoint rewritten every `every`
     * seconds of the run, from the iterate just published (the engine thread,
     * between iterations: the flows and the history rows are of the same
     * iterate); removed once the run's own outputs are written */
    const ds_network *net;
    const char *out, *hist; /* the checkpoint paths (NULL: none) */
    double every, next;     /* seconds; when the next write is due (cli_mono_s) */
    int written, failed;
    double *x, *cost; /* [n_links] */
};

static void step_details(const ds_iter_record *r, char *buf, size_t n)
{
    size_t k = 0;
    switch (r->kind) {
    case DS_STEP_START: buf[0] = '\0'; break;
    case DS_STEP_MSA: k = snprintf(buf, n, "step %.3g", r->step); break;
    case DS_STEP_SRA:
    case DS_STEP_SRA_HARMONIC:
    case DS_STEP_NEWTON_WARM: k = snprintf(buf, n, "step %.3g halvings %d", r->step, r->halvings); break;
    case DS_STEP_ANDERSON_OK:
    case DS_STEP_ANDERSON_REJ:
        k = snprintf(buf, n, "m %d reg %.1e%s step %.3g", r->aa_used, r->aa_reg, r->aa_restart ? " restart" : "",
                     r->step);
        break;
    case DS_STEP_NEWTON_OK:
    case DS_STEP_NEWTON_REJ:
    case DS_STEP_NEWTON_RECOVER:
        k = snprintf(buf, n, "gmres %d resid %.1e eta %.1e step %.3g", r->gmres_iters, r->gmres_resid, r->forcing,
                     r->step);
        if (k < n && r->kind == DS_STEP_NEWTON_OK && r->halvings)
            k += snprintf(buf + k, n - k, " backtracks %d", r->halvings);
        if (k < n && r->ptc_shift > 0) k += snprintf(buf + k, n - k, " ptc dtau %.3g", 1 / r->ptc_shift);
        break;
    case DS_STEP_MASK_REFRESH: k = snprintf(buf, n, "refresh %d", r->mask_refresh); break;
    default: buf[0] = '\0'; break;
    }
    if (k < n && (r->mask_added || r->mask_removed || r->mask_oscillation))
        snprintf(buf + k, n - k, "%smask +%d -%d%s", k ? " " : "", r->mask_added, r->mask_removed,
                 r->mask_oscillation ? " OSCILLATING" : "");
}

/* The outputs as they stand after iteration r, both written atomically
 * beside the outputs; a crash or a kill -9 then loses at most p->every
 * seconds, and --warm goes on from the flows. A write that fails is said
 * once and not tried again (the final write, at the end, says what it says). */
static void checkpoint(ds_run *run, struct progress *p, const ds_iter_record *r)
{
    if (!(p->every > 0) || p->failed || (!p->out && !p->hist)) return;
    double t0 = cli_mono_s();
    if (t0 < p->next) return;
    ds_error err = {0};
    int bad = 0;
    if (p->out) {
        if (ds_run_snapshot(run, p->x, NULL, p->cost) != r->iter) return; /* not this iterate: next time */
        bad = ds_flows_write(p->out, p->net, p->x, p->cost, &err) != 0;
    }
    if (!bad && p->hist) {
        size_t n = ds_run_history_count(run);
        ds_iter_record *recs = calloc(n ? n : 1, sizeof *recs);
        n = recs ? ds_run_history_copy(run, 0, recs, n) : 0;
        bad = !recs || ds_history_write_final(p->hist, recs, n, DS_STATUS_RUNNING, &err) != 0;
        if (!recs) snprintf(err.msg, sizeof err.msg, "out of memory");
        free(recs);
    }
    if (bad) {
        cli_checkpoint_failed(&err);
        p->failed = 1;
        return;
    }
    p->next = cli_checkpoint_next(t0, cli_mono_s(), p->every);
    p->written++;
    if (!p->quiet)
        fprintf(stderr, "checkpoint  iteration %d: %s%s%s (every %g s)\n", r->iter, p->out ? p->out : "",
                p->out && p->hist ? ", " : "", p->hist ? p->hist : "", p->every);
}

static void monitor(ds_run *run, const ds_event *ev, void *ctx)
{
    struct progress *p = ctx;
    if (ev->kind == DS_EVENT_ITER && ev->rec) checkpoint(run, p, ev->rec);
    if (p->quiet) return;
    if (ev->kind == DS_EVENT_ITER && ev->rec) {
        const ds_iter_record *r = ev->rec;
        char det[160];
        step_details(r, det, sizeof det);
        char inner[48];
        /* The residual only says something when the Bellman passes iterate (full graph). */
        if (r->inner_passes > 1 || r->inner_resid > 0)
            snprintf(inner, sizeof inner, "inner %d (%.0e)", r->inner_passes, r->inner_resid);
        else
            snprintf(inner, sizeof inner, "inner %d", r->inner_passes);
        /* n/a where it is undefined (x = 0), as the summary and the history say, never inf */
        char gap[32] = "n/a      ";
        if (isfinite(r->gap_rel)) cli_gap_text(r->gap_rel, ds_run_config(run)->tol, 3, gap, sizeof gap);
        fprintf(stderr, "iter %6d  gap_rel %s  %-13s %-34s %-17s %8.3f s\n", r->iter, gap, ds_step_name(r->kind), det,
                inner, r->t_run);
    } else if (ev->kind == DS_EVENT_MESSAGE && ev->message) {
        fprintf(stderr, "dillsue: %s\n", ev->message);
    } else if (ev->kind == DS_EVENT_SETUP && ev->message) {
        ds_run_times tm;
        ds_run_times_get(run, &tm);
        fprintf(stderr, "setup %3.0f%%  %-58s %8.3f s\n", 100 * ev->progress, ev->message, tm.wall);
    } else if (ev->kind == DS_EVENT_PROGRESS && ev->message) {
        ds_run_times tm;
        ds_run_times_get(run, &tm);
        fprintf(stderr, "busy        %-58s %8.3f s\n", ev->message, tm.wall);
    }
}

/* At the end: the checkpoints served their purpose, unless the outputs could
 * not be written; the flows' checkpoint also stays when the run ended without
 * flows to write (error, ill-posed): it is then the only iterate left, and
 * --warm goes on from it. */
static void checkpoints_end(const struct progress *p, int io_failed, int flows_unwritten)
{
    if (!p->written) {
        if (p->every > 0 && !io_failed && !flows_unwritten) {
            cli_checkpoint_stale(p->out);
            cli_checkpoint_stale(p->hist);
        }
        return;
    }
    if (io_failed) {
        fprintf(stderr, "dillsue: the last checkpoint is kept: %s%s%s\n", p->out ? p->out : "",
                p->out && p->hist ? ", " : "", p->hist ? p->hist : "");
        return;
    }
    if (p->out && flows_unwritten)
        fprintf(stderr, "dillsue: the last checkpoint of the flows is kept: %s (--warm %s goes on from it)\n", p->out,
                p->out);
    else if (p->out)
        remove(p->out);
    if (p->hist) remove(p->hist);
}

/* ------------------------------------------------------ signals */

static void stop_run(int sig, void *ctx)
{
    fprintf(stderr, "dillsue: %s: stopping now; the outputs hold the last finished iteration (again to quit at once)\n",
            cli_stop_word(sig));
    ds_run_cancel(ctx);
}

/* ------------------------------------------------------ the command */

struct solve_opts {
    const char *net, *trips, *warm, *out, *hist;
    double tau, mu, tol, cap, tollf, distf;
    int have_tau, have_mu, have_tollf, have_distf, have_cap;
    int filter, solver, backend, max_iter, threads, inner_max, have_inner, inner, edsp_refresh, globalise, start;
    double edsp_damping, factor_mb;
    int scenario, have_scenario, have_seed, quiet, newton_warm;
    double progress_s;   /* --progress-every */
    double checkpoint_s; /* --checkpoint */
    unsigned long long seed;
};

static int parse_args(int argc, char **argv, struct solve_opts *o, const ds_config *d)
{
    cli_values v;
    int rc = cli_parse(CMD, argc, argv, &v, NULL);
    if (rc == 1) return print_help() ? 2 : -1;
    if (rc) return rc;
#define NUM(id, dflt) (v.have[id] ? v.num[id] : (dflt))
    o->net = v.str[OPT_NET];
    o->trips = v.str[OPT_TRIPS];
    o->warm = v.str[OPT_WARM];
    o->out = v.str[OPT_OUT];
    o->hist = v.str[OPT_HISTORY];
    o->tau = v.num[OPT_TAU], o->have_tau = v.have[OPT_TAU];
    o->mu = v.num[OPT_MU], o->have_mu = v.have[OPT_MU];
    o->cap = v.num[OPT_CAP], o->have_cap = v.have[OPT_CAP];
    o->tollf = v.num[OPT_TOLL_FACTOR], o->have_tollf = v.have[OPT_TOLL_FACTOR];
    o->distf = v.num[OPT_DIST_FACTOR], o->have_distf = v.have[OPT_DIST_FACTOR];
    o->filter = (int)NUM(OPT_FILTER, d->filter);
    o->solver = (int)NUM(OPT_SOLVER, d->solver);
    o->backend = (int)NUM(OPT_BACKEND, d->backend);
    o->inner = (int)NUM(OPT_INNER, d->inner);
    o->globalise = (int)NUM(OPT_GLOBALISE, d->globalise);
    o->start = (int)NUM(OPT_START, d->start);
    o->newton_warm = (int)NUM(OPT_NEWTON_WARM, d->newton_warm);
    o->factor_mb = NUM(OPT_FACTOR_MEMORY, d->factor_mb);
    o->inner_max = (int)v.num[OPT_INNER_MAX], o->have_inner = v.have[OPT_INNER_MAX];
    o->edsp_refresh = (int)NUM(OPT_EDSP_REFRESH, d->edsp_max_refresh);
    o->edsp_damping = NUM(OPT_EDSP_DAMPING, d->edsp_damping);
    o->max_iter = (int)NUM(OPT_MAX_ITER, d->max_iter);
    o->threads = (int)NUM(OPT_THREADS, d->threads);
    o->tol = NUM(OPT_TOL, d->tol);
    o->scenario = (int)v.num[OPT_SCENARIO], o->have_scenario = v.have[OPT_SCENARIO];
    o->seed = v.seed, o->have_seed = v.have[OPT_SEED];
    o->quiet = v.have[OPT_QUIET];
    o->progress_s = v.have[OPT_PROGRESS_EVERY] ? v.num[OPT_PROGRESS_EVERY] : 10;
    o->checkpoint_s = v.have[OPT_CHECKPOINT] ? v.num[OPT_CHECKPOINT] : 60;
#undef NUM
    if (o->have_tau && o->have_mu) return cli_usage(CMD, "give --tau or --mu, not both");
    if (o->trips && !o->net) return cli_usage(CMD, "--trips needs --net");
    if (o->have_scenario != o->have_seed) return cli_usage(CMD, "--scenario and --seed go together");
    if (o->out && (rc = cli_check_writable(CMD, "--out", o->out))) return rc;
    if (o->hist && (rc = cli_check_writable(CMD, "--history", o->hist))) return rc;
    char sib[PATH_MAX], ck_out[PATH_MAX + 16], ck_hist[PATH_MAX + 16];
    /* --checkpoint writes OUT.checkpoint and HIST.checkpoint, and removes them
     * when the run ends: neither may be another output or an input it reads
     * later (--history OUT.checkpoint, or a trips file of that name, was
     * overwritten, then deleted). --warm OUT.checkpoint is the documented way
     * on: it is read before any write, so only the first list checks --warm. */
    int ck_on = o->checkpoint_s > 0;
    const char *trips =
        o->trips ? o->trips : (o->net && ds_tntp_sibling(o->net, "trips", sib, sizeof sib) ? sib : NULL);
    const cli_file io[] = {
        {"--out", o->out, 1},  {"--history", o->hist, 1}, {"--net", o->net, 0},
        {"--trips", trips, 0}, {"--warm", o->warm, 0},
    };
    if ((rc = cli_check_io(CMD, io, (int)(sizeof io / sizeof *io)))) return rc;
    const cli_file ck[] = {
        {"--out", o->out, 1},
        {"--history", o->hist, 1},
        {"--out's checkpoint",
         ck_on && o->out && cli_checkpoint_path(o->out, ck_out, sizeof ck_out) == 0 ? ck_out : NULL, 1},
        {"--history's checkpoint",
         ck_on && o->hist && cli_checkpoint_path(o->hist, ck_hist, sizeof ck_hist) == 0 ? ck_hist : NULL, 1},
        {"--net", o->net, 0},
        {"--trips", trips, 0},
    };
    return cli_check_io(CMD, ck, (int)(sizeof ck / sizeof *ck));
}

static void print_summary(ds_run *run, ds_status st, const ds_iter_record *last, double secs, int mu_given)
{
    char reason[1024];
    ds_run_reason(run, reason, sizeof reason);
    /* n/a, never nan or inf: gap_rel at x = 0 (--max-iter 0) is undefined, as
     * the history's empty field says; mu and cbar before set-up derived them */
    char gap[32] = "n/a", cbar[32] = "n/a", mu[32] = "n/a";
    ds_certificate cert;
    ds_run_times tm;
    if (last && isfinite(last->gap_rel)) cli_gap_text(last->gap_rel, ds_run_config(run)->tol, 6, gap, sizeof gap);
    if (isfinite(ds_run_cbar(run)))
        snprintf(cbar, sizeof cbar, "%.6g", ds_run_cbar(run));
    else if (mu_given)
        snprintf(cbar, sizeof cbar, "- (mu given)");
    if (ds_run_mu(run) > 0 && isfinite(ds_run_mu(run))) snprintf(mu, sizeof mu, "%.6g", ds_run_mu(run));
    ds_run_times_get(run, &tm);
    printf("%s | iterations %d | gap_rel %s | time %.3f s (set-up %.3f s) | mu %s | cbar %s | %s\n", ds_status_name(st),
           last ? last->iter : 0, gap, secs, tm.setup, mu, cbar, reason[0] ? reason : "-");
    if (ds_run_certificate(run, &cert) == 0) {
        char lost[96] = "not measured (no accepted iterate)";
        const ds_network *net = ds_run_network(run);
        if (cert.lost_pct >= 0)
            snprintf(lost, sizeof lost, "%.3g of %.6g (%.3g %%)", fmax(0.0, cert.demand_total - cert.demand_arrived),
                     cert.demand_total, cert.lost_pct);
        char trip[96] = "n/a (no demand assigned)";
        if (isfinite(cert.mean_links)) {
            int k = snprintf(trip, sizeof trip, "%.4g links", cert.mean_links);
            if (k > 0 && isfinite(cert.mean_cost_cbar))
                snprintf(trip + k, sizeof trip - (size_t)k, ", %.4g x cbar", cert.mean_cost_cbar);
        }
        printf("certificate | lost demand %s | demand assigned %.6g | max flow-conservation violation %.3g at "
               "node %d | mean trip %s\n",
               lost, cert.demand_loaded, cert.max_imbalance,
               cert.imbalance_node >= 0 && net ? ds_node_id(net, cert.imbalance_node) : 0, trip);
    }
    fflush(stdout);
}

/* The options into cfg; the free-flow costs checked; the warm start read
 * (*warm, freed by the caller after ds_run_create). Returns 0 or 2. */
static int apply_opts(const struct solve_opts *o, const ds_network *net, ds_config *cfg, double **warm)
{
    ds_error err = {0};
    int rc;
    ds_cost_params cp = {o->have_cap ? o->cap : cfg->cost.cap, o->have_tollf ? o->tollf : net->toll_factor,
                         o->have_distf ? o->distf : net->distance_factor};
    if ((rc = cli_check_costs(net, &cp))) return rc;
    if (o->have_tau) cfg->tau = o->tau, cfg->mu = 0;
    if (o->have_mu) cfg->mu = o->mu;
    cfg->filter = (ds_filter)o->filter;
    cfg->solver = (ds_solver_kind)o->solver;
    cfg->backend = (ds_backend)o->backend;
    cfg->tol = o->tol;
    cfg->max_iter = o->max_iter;
    cfg->threads = o->threads;
    if (o->have_inner) cfg->inner_max = o->inner_max;
    cfg->inner = (ds_inner)o->inner;
    cfg->globalise = (ds_globalise)o->globalise;
    cfg->start = (ds_start)o->start;
    cfg->newton_warm = o->newton_warm;
    cfg->factor_mb = o->factor_mb;
    cfg->edsp_max_refresh = o->edsp_refresh;
    cfg->edsp_damping = o->edsp_damping;
    if (o->have_cap) cfg->cost.cap = o->cap;
    /* Left unset, the engine takes the net file's factors (TNTP generalized cost). */
    if (o->have_tollf) cfg->cost.toll_factor = o->tollf;
    if (o->have_distf) cfg->cost.distance_factor = o->distf;
    *warm = NULL;
    if (!o->warm) return 0;
    if (ds_flows_read_start(o->warm, net, warm, &err) != 0) return cli_input_error(&err);
    cfg->warm = *warm;
    return 0;
}

/* ds_run_execute with SIGINT/SIGTERM/SIGHUP turned into ds_run_cancel by a watcher
 * thread (the set-up's watch ends here: a signal since then cancels the run
 * at once); *secs receives the wall time. The handlers stay installed (the
 * caller restores them) until the outputs are written: a stop signal that
 * comes once the run has ended must not kill the process between its
 * outputs (a repeat a second later still does, main.c). */
static ds_status execute_with_signals(ds_run *run, double *secs)
{
    cli_setup_end();
    cli_stop_watch *w = cli_stop_watch_begin(stop_run, run);

    double t0 = cli_mono_s();
    ds_status st = ds_run_execute(run);
    *secs = cli_mono_s() - t0;

    cli_stop_watch_end(w);
    return st;
}

/* From the network read to the outputs written; the stop handlers are
 * installed (cmd_solve), a signal before the run's execute ends the command
 * with a word (cli_setup_begin). */
static int solve(struct solve_opts o, ds_config cfg)
{
    ds_error err = {0};
    int rc;
    cli_setup_step("reading", o.net ? o.net : "the embedded network", NULL);
    ds_network *net = cli_load_network(o.net, o.trips, 0, &err);
    if (!net) return cli_input_error(&err);
    cli_setup_step("applying the scenario to", o.net ? o.net : "the embedded network", NULL);
    if (o.have_scenario && ds_scenario_apply(net, o.scenario, (uint64_t)o.seed, NULL, &err) != 0) {
        ds_network_free(net);
        return cli_input_error(&err);
    }

    double *warm = NULL;
    cli_setup_step(o.warm ? "reading the warm start" : "setting up the run", o.warm, NULL);
    if ((rc = apply_opts(&o, net, &cfg, &warm))) {
        ds_network_free(net);
        return rc;
    }
    cli_setup_step("setting up the run", NULL, NULL);
    ds_run *run = ds_run_create(net, &cfg, &err);
    free(warm);
    if (!run) {
        rc = cli_input_error(&err);
        cli_name_unreachable(net, cfg.threads);
        ds_network_free(net);
        return rc;
    }
    char ck_out[4200], ck_hist[4200];
    struct progress prog = {o.quiet, net, NULL, NULL, o.checkpoint_s, 0, 0, 0, NULL, NULL};
    if (o.out && cli_checkpoint_path(o.out, ck_out, sizeof ck_out) == 0) prog.out = ck_out;
    if (o.hist && cli_checkpoint_path(o.hist, ck_hist, sizeof ck_hist) == 0) prog.hist = ck_hist;
    if (prog.every > 0 && o.out) {
        prog.x = malloc(sizeof(double) * (size_t)(net->n_links + 1));
        prog.cost = malloc(sizeof(double) * (size_t)(net->n_links + 1));
        if (!prog.x || !prog.cost) prog.every = 0; /* no checkpoints, said below */
    }
    if (prog.every == 0 && o.checkpoint_s > 0 && o.out)
        fprintf(stderr, "dillsue: out of memory for checkpoints; the outputs are written at the end only\n");
    prog.next = cli_mono_s() + prog.every;
    ds_run_add_monitor(run, monitor, &prog);
    ds_run_set_progress(run, o.quiet ? -1 : o.progress_s, o.progress_s);

    double secs = 0;
    ds_status st = execute_with_signals(run, &secs);

    size_t nrec = ds_run_history_count(run);
    ds_iter_record *recs = calloc(nrec ? nrec : 1, sizeof *recs);
    nrec = recs ? ds_run_history_copy(run, 0, recs, nrec) : 0;
    const ds_iter_record *last = nrec ? &recs[nrec - 1] : NULL;
    int code = ds_status_exit_code(st);
    if (st == DS_STATUS_ERROR && nrec == 0) {
        /* set-up failed (e.g. no OD pair has a path, so no mu): name the first */
        cli_name_unreachable(net, cfg.threads);
    }
    int io_failed = 0;
    const char *out_ok = NULL, *hist_ok = NULL; /* the outputs written */

    const double *flows = ds_run_flows(run), *costs = ds_run_costs(run);
    /* Ill-posed or failed runs have no meaningful flows: writing them would
     * hand a script NaNs or a divergent iterate that looks like a result. */
    /* A run cancelled during set-up has no iterate: its x = 0 is no result. */
    int results_usable =
        nrec > 0 && (st == DS_STATUS_CONVERGED || st == DS_STATUS_MAX_ITER || st == DS_STATUS_CANCELLED);
    const char *before = nrec == 0 ? " before its first iterate" : "";
    /* "the run ended error": the status as a phrase, and an error's reason
     * (cbar 0, say), which the summary line gives on stdout only, on stderr
     * beside it as every other input error */
    const char *ended = st == DS_STATUS_ERROR ? "with an error" : ds_status_name(st);
    char err_why[1024] = "";
    if (st == DS_STATUS_ERROR) ds_run_reason(run, err_why, sizeof err_why);
    if (o.out) {
        if (results_usable && flows && costs) {
            if (ds_flows_write(o.out, net, flows, costs, &err) != 0)
                io_failed = cli_input_error(&err);
            else
                out_ok = o.out;
        } else {
            fprintf(stderr, "dillsue: no flows written to %s: the run ended %s%s%s%s\n", o.out, ended, before,
                    err_why[0] ? ": " : "", err_why);
        }
    }
    /* A history without its flows would look like a complete result; one
     * without rows would have no row to carry final_status. */
    if (o.hist && io_failed)
        fprintf(stderr, "dillsue: %s not written either: the flows could not be written\n", o.hist);
    else if (o.hist && nrec == 0)
        fprintf(stderr, "dillsue: no history written to %s: the run ended %s%s (the summary line says why)\n", o.hist,
                ended, before);
    else if (o.hist && ds_history_write_final(o.hist, recs, nrec, st, &err) != 0)
        io_failed = cli_input_error(&err);
    else if (o.hist)
        hist_ok = o.hist;
    checkpoints_end(&prog, io_failed, o.out && !(results_usable && flows && costs));
    char gtxt[32] = "n/a (x = 0)"; /* gap_rel at x = 0 is undefined, as the summary says */
    if (last && isfinite(last->gap_rel)) cli_gap_text(last->gap_rel, cfg.tol, 3, gtxt, sizeof gtxt);
    /* only the files written hold it: after a full disk's "write failed; old
     * file kept untouched" this line named both as holding the last iterate */
    if (st != DS_STATUS_CONVERGED && results_usable && !out_ok && !hist_ok && (o.out || o.hist))
        fprintf(stderr, "dillsue: NOT CONVERGED (%s, gap_rel %s, tol %g); the last iterate was not written (above)\n",
                ds_status_name(st), gtxt, cfg.tol);
    else if (st != DS_STATUS_CONVERGED && results_usable && (out_ok || hist_ok))
        fprintf(stderr, "dillsue: NOT CONVERGED (%s, gap_rel %s, tol %g): %s%s%s%s %s the last iterate\n",
                ds_status_name(st), gtxt, cfg.tol, out_ok ? out_ok : "", out_ok && hist_ok ? " and " : "",
                hist_ok ? hist_ok : "", hist_ok ? " (final_status column)" : "", out_ok && hist_ok ? "hold" : "holds");
    /* eDSP "converged" on a mask its own costs would change: the fixed point
     * of that mask, which another solver or refresh limit may not end on */
    if (st == DS_STATUS_CONVERGED && cfg.filter == DS_FILTER_EDSP && last && last->kind == DS_STEP_MASK_REFRESH &&
        (last->mask_added || last->mask_removed))
        fprintf(stderr,
                "dillsue: the eDSP mask did not settle (%s): the flows are the fixed point of the last mask solved, "
                "not of the mask its own costs give, and another solver, --edsp-refresh or --edsp-damping may end on "
                "another mask; --filter dsp and bfs have fixed masks\n",
                last->mask_oscillation ? "it oscillates" : "still changing at the refresh limit");
    /* what a user can do about a proof that the full graph has no fixed point */
    char why[2048];
    ds_run_reason(run, why, sizeof why);
    int any_dispersion = strstr(why, DS_REASON_ANY_DISPERSION) != NULL;
    if (st == DS_STATUS_ILL_POSED && cfg.filter == DS_FILTER_FULL && any_dispersion)
        fprintf(stderr,
                "dillsue: the acyclic filters (--filter dsp, bfs or edsp) always have a fixed point; no tau, mu "
                "or --cap gives the full graph one while links of cost 0 form cycles\n");
    else if (st == DS_STATUS_ILL_POSED && cfg.filter == DS_FILTER_FULL) {
        fprintf(stderr, "dillsue: the acyclic filters (--filter dsp, bfs or edsp) always have a fixed point; a larger "
                        "--tau or --mu (less dispersion, smaller weights exp(-mu t)) may give the full graph one\n");
        if (cfg.cost.cap > 0)
            fprintf(stderr,
                    "dillsue: the proof holds for costs capped at x/c = %g (--cap); without the cap (--cap 0) costs "
                    "grow without bound and the full graph may have a fixed point\n",
                    cfg.cost.cap);
    }

    if (!o.quiet && nrec > 0) {
        ds_totals tot;
        char line[1024];
        ds_totals_compute(recs, nrec, &tot);
        ds_totals_format(&tot, line, sizeof line);
        fprintf(stderr, "dillsue: %s\n", line);
    }
    print_summary(run, st, last, secs, cfg.mu > 0);
    free(prog.x);
    free(prog.cost);
    free(recs);
    ds_run_free(run);
    ds_network_free(net);
    /* Failing to save results is worse than any solver outcome. */
    return io_failed ? 2 : code;
}

int cmd_solve(int argc, char **argv)
{
    ds_config cfg;
    struct solve_opts o = {0};
    ds_config_default(&cfg);
    cfg.cuda_emulate = cli_cuda_emulate();
    int rc = parse_args(argc, argv, &o, &cfg);
    if (rc < 0) return 0; /* --help */
    if (rc) return rc;
    cli_keep_on_closed_pipe();
    cli_stop_saved old;
    cli_setup_begin("solve", &old);
    rc = solve(o, cfg);
    cli_setup_end(); /* (a set-up that failed) */
    cli_stop_signals_restore(&old);
    return rc;
}
