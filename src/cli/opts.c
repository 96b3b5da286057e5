/* opts.c - the one option table of the dillsue program and its one parser.
 *
 * Every option of every command is one row below: its name, what it takes,
 * the commands that accept it and, for numbers, the engine's rule for the
 * setting (ds_setting_parse), so that a setting is validated one way whether
 * it comes from `solve`, `ue`, `load`, `info` or the TUI's config file. The
 * parser (getopt_long over the rows of one command) accepts `--opt value` and
 * `--opt=value` alike and reports every mistake the same way. Shell
 * completion reads the table through `dillsue --list-options CMD`. */
#include "cli.h"
#include "ds_scenario.h"
#include "ds_ue.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Messages of the parser (here, not in main.c, so that the TUI's objects
 * link the parser without the program's main). */
void cli_fputs_escaped(const char *s, FILE *fp)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            fprintf(fp, "\\x%02x", *p);
        else
            fputc(*p, fp);
    }
}

void cli_say_error(const char *prefix, const ds_error *err)
{
    char buf[1200];
    ds_error_format(err, buf, sizeof buf);
    fprintf(stderr, "dillsue: %s", prefix);
    cli_fputs_escaped(buf, stderr);
    fputc('\n', stderr);
}

int cli_input_error(const ds_error *err)
{
    cli_say_error("", err);
    return 2;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "dillsue%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    cli_fputs_escaped(msg, stderr);
    fprintf(stderr, "\nTry 'dillsue%s%s --help'.\n", cmd ? " " : "", cmd ? cmd : "");
    return 2;
}

#define ALL (CLI_SOLVE | CLI_UE | CLI_INFO | CLI_COMPARE | CLI_LOAD | CLI_TUI | CLI_SWEEP)

/* Choice names by index (NULL past the last), for completion and --help. */
#define NAMES(kind, type, n)                                                                                           \
    static const char *kind##_name_i(int i) { return i >= 0 && i < (n) ? ds_##kind##_name((type)i) : NULL; }
NAMES(filter, ds_filter, DS_FILTER_N)
NAMES(solver, ds_solver_kind, DS_SOLVER_N)
NAMES(backend, ds_backend, DS_BACKEND_N)
NAMES(inner, ds_inner, DS_INNER_N)
NAMES(globalise, ds_globalise, DS_GLOBALISE_N)
NAMES(start, ds_start, DS_START_N)
NAMES(ue_method, int, 2)
#undef NAMES

/* Rows by kind (inside the braces of a row): name, commands, [rule or
 * choice,] metavar, [commands that take a comma-separated list,] help. */
#define FLAG(name, cmds, help) name, CLI_FLAG, cmds, NULL, NULL, NULL, NULL, 0, help
#define PATH(name, cmds, meta, help) name, CLI_PATH, cmds, NULL, NULL, NULL, meta, 0, help
#define NUM(name, cmds, rule, meta, lists, help) name, CLI_NUM, cmds, rule, NULL, NULL, meta, lists, help
#define CHOICE(name, cmds, kind, meta, lists, help)                                                                    \
    name, CLI_CHOICE, cmds, NULL, ds_##kind##_parse, kind##_name_i, meta, lists, help

const cli_opt cli_opts[OPT_N] = {
    [OPT_NET] = {PATH("net", ALL, "NET", "TNTP _net.tntp file, or a directory holding one")},
    [OPT_TRIPS] = {PATH("trips", CLI_SOLVE | CLI_UE | CLI_INFO | CLI_LOAD | CLI_TUI | CLI_SWEEP, "TRIPS",
                        "trips file (default: NET's sibling _trips.tntp; needs --net)")},
    [OPT_TAU] = {NUM("tau", CLI_SOLVE | CLI_LOAD | CLI_TUI | CLI_SWEEP, "tau", "T", CLI_SWEEP,
                     "dispersion, mu = T / cbar")},
    [OPT_MU] = {NUM("mu", CLI_SOLVE | CLI_LOAD | CLI_SWEEP, "mu", "M", CLI_SWEEP,
                    "dispersion mu directly (instead of --tau)")},
    [OPT_FILTER] = {CHOICE("filter", CLI_SOLVE | CLI_LOAD | CLI_TUI | CLI_SWEEP, filter, "F", CLI_SWEEP,
                           "link set of the loading map")},
    [OPT_SOLVER] = {CHOICE("solver", CLI_SOLVE | CLI_TUI | CLI_SWEEP, solver, "S", CLI_SWEEP, "outer solver")},
    [OPT_TOL] = {NUM("tol", CLI_SOLVE | CLI_SWEEP, "tol", "X", 0, "stop when gap_rel < X")},
    [OPT_MAX_ITER] = {NUM("max-iter", CLI_SOLVE | CLI_UE | CLI_SWEEP, "max_iter", "N", 0,
                          "at most N outer iterations")},
    [OPT_THREADS] = {NUM("threads", CLI_SOLVE | CLI_UE | CLI_INFO | CLI_LOAD | CLI_TUI | CLI_SWEEP, "threads", "N", 0,
                         "worker threads, 0 = all cores")},
    [OPT_BACKEND] = {CHOICE("backend", CLI_SOLVE, backend, "B", 0, "where the loading map runs")},
    [OPT_CAP] = {NUM("cap", CLI_SOLVE | CLI_UE | CLI_INFO | CLI_LOAD | CLI_SWEEP, "cap", "C", 0,
                     "cap on x/c in the BPR cost, 0 = none")},
    [OPT_WARM] = {PATH("warm", CLI_SOLVE, "FLOWS.csv",
                       "start from these flows (a flow CSV of this network); where f does not exist there, the "
                       "links of the diverging cycles are loaded on top of them")},
    [OPT_TOLL_FACTOR] = {NUM("toll-factor", CLI_SOLVE | CLI_UE | CLI_INFO | CLI_LOAD, "toll_factor", "F", 0,
                             "generalized-cost weight of toll (default: the net file's)")},
    [OPT_DIST_FACTOR] = {NUM("distance-factor", CLI_SOLVE | CLI_UE | CLI_INFO | CLI_LOAD, "distance_factor", "F", 0,
                             "generalized-cost weight of length (default: the net file's)")},
    [OPT_INNER] = {CHOICE("inner", CLI_SOLVE | CLI_LOAD | CLI_SWEEP, inner, "I", 0,
                          "full graph inner solver: direct (exact sparse LU per destination) or passes "
                          "(warm-started Bellman passes, the paper's L_val)")},
    [OPT_INNER_MAX] = {NUM("inner-max", CLI_SOLVE | CLI_LOAD | CLI_SWEEP, "inner_max", "N", 0,
                           "at most N Bellman passes per evaluation with --inner passes, on either backend "
                           "(the GPU's Jacobi passes: N plus the free-flow trees' depth in links)")},
    [OPT_EDSP_REFRESH] = {NUM("edsp-refresh", CLI_SOLVE | CLI_SWEEP, "edsp_refresh", "N", 0,
                              "eDSP: at most N mask refreshes solved (one more rebuild only looks ahead)")},
    [OPT_EDSP_DAMPING] = {NUM("edsp-damping", CLI_SOLVE | CLI_SWEEP, "edsp_damping", "D", 0,
                              "eDSP: build the mask from (1-D) old mask costs + D current costs, 0 < D <= 1; "
                              "below 1 damps mask flips")},
    [OPT_SCENARIO] = {NUM("scenario", CLI_SOLVE | CLI_INFO | CLI_LOAD, "scenario", "K", 0,
                          "perturb demand, capacity and free-flow time (paper eqs. 9-11); scenario 0 is the "
                          "network unchanged; needs --seed")},
    [OPT_SEED] = {"seed", CLI_SEED, CLI_SOLVE | CLI_INFO | CLI_SWEEP | CLI_LOAD, NULL, NULL, NULL, "S", 0,
                  "seed of the scenario draws"},
    [OPT_OUT] = {PATH("out", CLI_SOLVE | CLI_UE | CLI_LOAD, "FLOWS.csv",
                      "write flows: init_node,term_node,flow,cost, one row per link")},
    [OPT_HISTORY] = {PATH("history", CLI_SOLVE, "HIST.csv",
                          "write one row per iteration (and per eDSP mask refresh) with all telemetry")},
    [OPT_FLOWS] = {PATH("flows", CLI_LOAD, "X.csv", "the point x (a flow CSV of this network)")},
    [OPT_GAP] = {NUM("gap", CLI_UE, "gap", "G", 0, "stop at this relative gap")},
    [OPT_METHOD] = {CHOICE("method", CLI_UE, ue_method, "M", 0,
                           "Frank-Wolfe variant: cfw (conjugate) or bfw (bi-conjugate)")},
    [OPT_MIN_REF] = {NUM("min-ref", CLI_COMPARE, "min_ref", "R", 0,
                         "MAPE over the links whose reference flow is at least R")},
    [OPT_FLOW_DEP] = {FLAG("flow-dependent-only", CLI_COMPARE, "only the links whose cost depends on flow")},
    [OPT_QUIET] = {FLAG("quiet", CLI_SOLVE | CLI_UE | CLI_SWEEP, "no progress on stderr")},
    [OPT_HELP] = {FLAG("help", ALL, "this text")},
    [OPT_GLOBALISE] = {CHOICE("globalise", CLI_SOLVE | CLI_SWEEP, globalise, "G", 0,
                              "Newton: ptc (the line search below; where a trial leaves the domain of f, the next "
                              "directions are regularised as in pseudo-transient continuation until full steps "
                              "return them to Newton's), linesearch (backtracking on the Newton direction with a "
                              "sufficient-decrease test; a trial's cost on each link stays within 0.25/mu of its "
                              "linear model) or paper (full or half step, else an MSA step)")},
    [OPT_START] = {CHOICE(
        "start", CLI_SOLVE | CLI_SWEEP, start, "S", 0,
        "start point: auto (x = 0, or where f(0) does not exist the links of the diverging cycles "
        "only, each loaded to the same cost increase), zero (x = 0, else s x capacity on every link), capacity (that "
        "search always), dsp (the DSP solution at the same mu, plus s x capacity if f does not "
        "exist there) or relax (full graph: from the DSP solution, a continuation that lowers a "
        "penalty on the links outside the DSP DAGs to 0; an alternative to auto's cycle load, slower on "
        "the shared networks)")},
    [OPT_NEWTON_WARM] = {NUM("newton-warm", CLI_SOLVE | CLI_SWEEP, "newton_warm", "N", 0,
                             "Newton: N SRA steps before the first Newton step (default -1: 5 with --globalise "
                             "paper, 0 with ptc and linesearch)")},
    [OPT_FACTOR_MEMORY] = {NUM("factor-memory", CLI_SOLVE | CLI_SWEEP, "factor_mb", "MB", 0,
                               "--inner direct: keep at most MB MiB of LU factors between evaluations; beyond it "
                               "destinations refactor each time")},
    [OPT_PROGRESS_EVERY] = {NUM("progress-every", CLI_SOLVE, "progress_s", "S", 0,
                                "a line saying how far an iteration has got each S seconds it runs without "
                                "other output (default 10; 0: after every evaluation and J v)")},
    [OPT_CHECKPOINT] = {NUM("checkpoint", CLI_SOLVE | CLI_UE, "checkpoint_s", "S", 0,
                            "while the run goes, write its outputs as they stand to OUT.checkpoint beside each "
                            "output OUT every S seconds (after an iteration, at least ten times a write's "
                            "length apart), removed when the run ends, so that a crash or a kill loses at "
                            "most S seconds (default 60; 0: none)")},
    [OPT_ASCII] = {FLAG("ascii", CLI_TUI, "plain ASCII plots and borders")},
    [OPT_NO_COLOR] = {FLAG("no-color", CLI_TUI, "no colour (as NO_COLOR in the environment)")},
    [OPT_NO_COLOUR] = {FLAG("no-colour", CLI_TUI, "the same as --no-color")},
    [OPT_NO_CONFIG] = {FLAG("no-config", CLI_TUI, "read no config file")},
    [OPT_NO_RUNLOG] = {FLAG("no-runlog", CLI_TUI, "write no run log on quit")},
    [OPT_CONFIG] = {PATH("config", CLI_TUI, "FILE", "settings and key bindings from FILE")},
    [OPT_RUNLOG] = {PATH("runlog", CLI_TUI, "FILE", "write the session's runs to FILE on quit")},
    [OPT_DELAY] = {NUM("delay", CLI_TUI, "delay_ms", "MS", 0, "minimum time between screen updates")},
    [OPT_SCENARIOS] = {NUM("scenarios", CLI_SWEEP, "scenarios", "N", 0,
                           "scenarios 0..N-1 (paper eqs. 9-11; 0 is the network unchanged)")},
    [OPT_OUT_DIR] = {PATH("out", CLI_SWEEP, "DIR",
                          "the sweep directory: sweep.conf, journal*.csv (one line per finished cell), cells.csv "
                          "(grid order), summary.csv, progress")},
    [OPT_SWEEP_FLOWS] = {FLAG("flows", CLI_SWEEP, "also write each cell's flows to DIR/flows/")},
    [OPT_UE] = {FLAG("ue", CLI_SWEEP,
                     "also solve a Wardrop UE per scenario and report each cell's MAPE against it (the paper's "
                     "SUE->UE bridge)")},
    [OPT_UE_GAP] = {NUM("ue-gap", CLI_SWEEP, "gap", "G", 0, "relative gap of those UE references")},
    [OPT_UE_MAX_ITER] = {NUM("ue-max-iter", CLI_SWEEP, "max_iter", "N", 0, "Frank-Wolfe iterations of each at most")},
    [OPT_WORKERS] = {NUM("workers", CLI_SWEEP, "workers", "W", 0,
                         "cells solved at once on this machine, 0 = cores / T")},
    [OPT_SHARD] = {"shard", CLI_SHARD, CLI_SWEEP, NULL, NULL, NULL, "K/M", 0,
                   "run only the K-th of M contiguous slices (K = 1..M), for job arrays without MPI; then "
                   "`dillsue sweep --merge --out DIR`"},
    [OPT_RESUME] = {FLAG("resume", CLI_SWEEP,
                         "finish a sweep in DIR without redoing finished cells (the grid is read from "
                         "DIR/sweep.conf when not given)")},
    [OPT_MERGE] = {FLAG("merge", CLI_SWEEP,
                        "write DIR/cells.csv and DIR/summary.csv from what DIR holds (shards, partial runs) "
                        "without solving anything")},
    /* tui --sweep DIR: the sweep viewer (src/tui/sweep_view.c), with the options tui_main.c lets beside it */
    [OPT_SWEEP_VIEW] = {PATH("sweep", CLI_TUI, "DIR", "watch a sweep directory fill (docs/sweep.md)")},
};
#undef FLAG
#undef PATH
#undef NUM
#undef CHOICE

static const struct {
    const char *name;
    unsigned bit;
} commands[] = {
    {"solve", CLI_SOLVE}, {"ue", CLI_UE},   {"info", CLI_INFO},   {"compare", CLI_COMPARE},
    {"load", CLI_LOAD},   {"tui", CLI_TUI}, {"sweep", CLI_SWEEP},
};

unsigned cli_command_bit(const char *cmd)
{
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (cmd && !strcmp(commands[i].name, cmd)) return commands[i].bit;
    return 0;
}

int cli_list_options(const char *cmd)
{
    unsigned bit = cli_command_bit(cmd);
    if (!bit) return cli_usage(NULL, "--list-options: no such command '%s'", cmd ? cmd : "");
    for (int i = 0; i < OPT_N; i++)
        if (cli_opts[i].cmds & bit) printf("--%s\n", cli_opts[i].name);
    return 0;
}

int cli_list_values(const char *cmd, const char *opt)
{
    unsigned bit = cli_command_bit(cmd);
    if (!bit) return cli_usage(NULL, "--list-values: no such command '%s'", cmd ? cmd : "");
    if (opt && !strncmp(opt, "--", 2)) opt += 2;
    int found = 0;
    for (int i = 0; i < OPT_N; i++) {
        const cli_opt *o = &cli_opts[i];
        if (!(o->cmds & bit) || !opt || strcmp(o->name, opt)) continue;
        found = 1; /* (an option of free values lists none) */
        if (o->kind != CLI_CHOICE) continue;
        for (int c = 0; o->choice_name(c); c++) printf("%s\n", o->choice_name(c));
    }
    if (!found) return cli_usage(NULL, "--list-values: 'dillsue %s' has no option --%s", cmd, opt ? opt : "");
    return 0;
}

static int parse_seed(const char *s, unsigned long long *out)
{
    uint64_t v;
    if (ds_parse_seed(s, &v)) return -1;
    *out = v;
    return 0;
}

/* K/M, 1 <= K <= M <= 1000000. */
static int parse_shard(const char *s, int *k, int *m)
{
    char a[32];
    const char *slash = strchr(s, '/');
    long lk, lm;
    if (!slash || (size_t)(slash - s) >= sizeof a) return -1;
    snprintf(a, sizeof a, "%.*s", (int)(slash - s), s);
    if (ds_parse_long(a, &lk) || ds_parse_long(slash + 1, &lm)) return -1;
    if (lk < 1 || lm < 1 || lk > lm || lm > 1000000) return -1;
    *k = (int)lk, *m = (int)lm;
    return 0;
}

/* One number or choice by the row's rule into *out. item > 0: the element's
 * place in a list, named in the message after the rule's own words (which
 * are solve's for the same value). */
static int parse_one(const char *cmd, const cli_opt *o, const char *arg, int item, double *out)
{
    char msg[200], where[48] = "";
    if (item) snprintf(where, sizeof where, " (item %d of the list)", item);
    if (o->kind == CLI_NUM) {
        if (ds_setting_parse(o->setting, arg, out, msg, sizeof msg))
            return cli_usage(cmd, "--%s %s%s", o->name, msg, where);
        return 0;
    }
    int c = o->choice(arg);
    if (c < 0) {
        char names[160] = "";
        size_t u = 0;
        for (int k = 0; o->choice_name(k) && u < sizeof names; k++)
            u += (size_t)snprintf(names + u, sizeof names - u, "%s%s", k ? ", " : "", o->choice_name(k));
        return cli_usage(cmd, "unknown --%s '%s' (one of: %s)%s", o->name, arg, names, where);
    }
    *out = c;
    return 0;
}

/* A comma-separated list: every item by the row's rule, none twice. */
static int parse_list(const char *cmd, int id, const char *arg, cli_values *v)
{
    const cli_opt *o = &cli_opts[id];
    const char *p = arg;
    int n = 0, rc;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char item[128];
        if (n == CLI_MAX_LIST) return cli_usage(cmd, "--%s lists more than %d values", o->name, CLI_MAX_LIST);
        if (len >= sizeof item) return cli_usage(cmd, "--%s: item %d is too long", o->name, n + 1);
        memcpy(item, p, len);
        item[len] = '\0';
        if ((rc = parse_one(cmd, o, item, n + 1, &v->list[id][n]))) return rc;
        for (int j = 0; j < n; j++) {
            char x[32], y[32];
            snprintf(x, sizeof x, "%.10g", v->list[id][n]);
            snprintf(y, sizeof y, "%.10g", v->list[id][j]);
            /* the flow files are named by %.10g: values equal there are one cell */
            if (!strcmp(x, y) && v->list[id][n] == v->list[id][j])
                return cli_usage(cmd, "--%s lists %s twice (items %d and %d)", o->name, item, j + 1, n + 1);
            if (!strcmp(x, y))
                return cli_usage(cmd,
                                 "--%s: items %d and %d are equal to 10 significant digits (%s), as the flow "
                                 "files name them; give values that differ there",
                                 o->name, j + 1, n + 1, x);
        }
        n++;
        if (!comma) break;
        p = comma + 1;
    }
    v->n_list[id] = n;
    v->num[id] = v->list[id][0];
    return 0;
}

static int set_value(const char *cmd, unsigned bit, int id, const char *arg, cli_values *v)
{
    const cli_opt *o = &cli_opts[id];
    int rc;
    v->have[id] = 1;
    switch (o->kind) {
    case CLI_FLAG: v->num[id] = 1; return 0;
    case CLI_PATH:
        if (!*arg) return cli_usage(cmd, "--%s needs a file name", o->name);
        if (id == OPT_NET) {
            /* a network's directory names its one net file, for every use of
             * the path (its siblings, the outputs' clash checks, a sweep's
             * record), as the reader would take it (ds_tntp_net_in_dir) */
            static char in_dir[4096]; /* (one --net a process; the values outlive v) */
            ds_error err = {{0}, 0, {0}};
            int r = ds_tntp_net_in_dir(arg, in_dir, sizeof in_dir, &err);
            if (r < 0) return cli_input_error(&err);
            if (r) arg = in_dir;
        }
        v->str[id] = arg;
        return 0;
    case CLI_NUM:
    case CLI_CHOICE:
        v->str[id] = arg;
        if (o->list_cmds & bit) return parse_list(cmd, id, arg, v);
        v->n_list[id] = 1;
        if ((rc = parse_one(cmd, o, arg, 0, &v->num[id]))) return rc;
        v->list[id][0] = v->num[id];
        return 0;
    case CLI_SEED:
        if (parse_seed(arg, &v->seed))
            return cli_usage(cmd, "--%s needs a non-negative integer, got '%s'", o->name, arg);
        return 0;
    case CLI_SHARD:
        if (parse_shard(arg, &v->shard_k, &v->shard_m))
            return cli_usage(cmd, "--%s needs K/M with 1 <= K <= M, got '%s'", o->name, arg);
        return 0;
    }
    return 0;
}

/* An option as typed (up to '='), spelled out in full: getopt_long would take
 * any unambiguous abbreviation, which a job script written today would read
 * differently once a longer option with the same start is added. */
static int spelled_out(const char *cmd, const char *typed, const char *name)
{
    size_t len = strcspn(typed + 2, "=");
    if (len == strlen(name) && !strncmp(typed + 2, name, len)) return 0;
    return cli_usage(cmd, "unknown option '%.*s' (did you mean --%s? options are not abbreviated)", (int)(len + 2),
                     typed, name);
}

/* What getopt_long refused (it returned '?' or ':'). */
static int parse_error(const char *cmd, int c, char **argv)
{
    const char *bad = argv[optind - 1];
    const char *eq = strchr(bad, '=');
    if (c == ':') return cli_usage(cmd, "option '%s' needs an argument", bad);
    if (optopt && optopt < 256) return cli_usage(cmd, "unknown option '-%c'", optopt);
    if (optopt >= 256 && eq) return cli_usage(cmd, "option '%.*s' takes no value", (int)(eq - bad), bad);
    if (!strncmp(bad, "--", 2) && eq) return cli_usage(cmd, "unknown option '%.*s'", (int)(eq - bad), bad);
    return cli_usage(cmd, "unknown option '%s'", bad);
}

int cli_parse(const char *cmd, int argc, char **argv, cli_values *v, int *first_arg)
{
    unsigned bit = cli_command_bit(cmd);
    struct option lo[OPT_N + 1];
    int n = 0, c, idx;
    memset(v, 0, sizeof *v);
    for (int i = 0; i < OPT_N; i++) {
        if (!(cli_opts[i].cmds & bit)) continue;
        for (int j = 0; j < n; j++)
            if (!strcmp(lo[j].name, cli_opts[i].name)) {
                fprintf(stderr, "dillsue %s: internal error: two rows of the option table named '--%s'\n", cmd,
                        cli_opts[i].name);
                return 2;
            }
        lo[n].name = cli_opts[i].name;
        lo[n].has_arg = cli_opts[i].kind == CLI_FLAG ? no_argument : required_argument;
        lo[n].flag = NULL;
        lo[n].val = 256 + i;
        n++;
    }
    memset(&lo[n], 0, sizeof lo[n]);
    opterr = 0;
    optind = 0;
    while ((idx = -1, c = getopt_long(argc, argv, ":h", lo, &idx)) != -1) {
        int rc;
        if (c == 'h') return 1;
        if (c < 256) return parse_error(cmd, c, argv);
        /* the word that named it: the one before its value when that is a word of its own */
        const char *typed = argv[optind - 1 - (optarg && optarg == argv[optind - 1])];
        if (idx >= 0 && (rc = spelled_out(cmd, typed, lo[idx].name))) return rc;
        if (c == 256 + OPT_HELP) return 1;
        if ((rc = set_value(cmd, bit, c - 256, optarg, v))) return rc;
    }
    if (first_arg)
        *first_arg = optind;
    else if (optind < argc)
        return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
    return 0;
}

/* ------------------------------------------------------------ --help */

/* text at column col, wrapped at 79 columns onto lines indented by indent. */
static void put_wrapped(FILE *fp, const char *text, int col, int indent)
{
    const char *p = text;
    while (*p) {
        while (*p == ' ') p++;
        size_t w = strcspn(p, " ");
        if (col > indent && col + 1 + (int)w > 79) {
            fprintf(fp, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', fp);
            col++;
        }
        fprintf(fp, "%.*s", (int)w, p);
        col += (int)w;
        p += w;
    }
    fputc('\n', fp);
}

/* Whether a choice row's help already names every choice. */
static int names_all_choices(const cli_opt *o)
{
    for (int c = 0; o->choice_name(c); c++) {
        const char *n = o->choice_name(c), *p = o->help;
        size_t len = strlen(n);
        int found = 0;
        while (!found && (p = strstr(p, n))) {
            found = (p == o->help || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[len]);
            p += len;
        }
        if (!found) return 0;
    }
    return 1;
}

static void help_row(const char *cmd, int id, const char *(*note)(int, char *, size_t), FILE *fp)
{
    const cli_opt *o = &cli_opts[id];
    unsigned bit = cli_command_bit(cmd);
    char head[80], text[1024], nb[256];
    size_t u;
    if (!o->metavar)
        snprintf(head, sizeof head, "  --%s", o->name);
    else if (o->list_cmds & bit)
        snprintf(head, sizeof head, "  --%s %s[,%s...]", o->name, o->metavar, o->metavar);
    else
        snprintf(head, sizeof head, "  --%s %s", o->name, o->metavar);
    u = (size_t)snprintf(text, sizeof text, "%s", o->help);
    if (o->kind == CLI_CHOICE && !names_all_choices(o) && u < sizeof text) {
        u += (size_t)snprintf(text + u, sizeof text - u, ": ");
        for (int c = 0; o->choice_name(c) && u < sizeof text; c++)
            u += (size_t)snprintf(text + u, sizeof text - u, "%s%s", c ? "|" : "", o->choice_name(c));
    }
    const char *extra = note ? note(id, nb, sizeof nb) : NULL;
    if (extra && *extra && u < sizeof text) snprintf(text + u, sizeof text - u, " %s", extra);
    fputs(head, fp);
    if (strlen(head) + 2 > 24) {
        fprintf(fp, "\n%24s", "");
        put_wrapped(fp, text, 24, 24);
    } else {
        fprintf(fp, "%*s", (int)(24 - strlen(head)), "");
        put_wrapped(fp, text, 24, 24);
    }
}

const char *cli_config_default(int id, char *buf, size_t n)
{
    ds_config d;
    ds_config_default(&d);
    switch (id) {
    case OPT_TAU: snprintf(buf, n, "(default %g)", d.tau); break;
    case OPT_FILTER: snprintf(buf, n, "(default %s)", ds_filter_name(d.filter)); break;
    case OPT_SOLVER: snprintf(buf, n, "(default %s)", ds_solver_name(d.solver)); break;
    case OPT_TOL: snprintf(buf, n, "(default %g)", d.tol); break;
    case OPT_MAX_ITER: snprintf(buf, n, "(default %d)", d.max_iter); break;
    case OPT_THREADS: snprintf(buf, n, "(default %d)", d.threads); break;
    case OPT_BACKEND: snprintf(buf, n, "(default %s)", ds_backend_name(d.backend)); break;
    case OPT_CAP: snprintf(buf, n, "(default %g)", d.cost.cap); break;
    case OPT_INNER: snprintf(buf, n, "(default %s)", ds_inner_name(d.inner)); break;
    case OPT_INNER_MAX: snprintf(buf, n, "(default %d)", d.inner_max); break;
    case OPT_EDSP_REFRESH: snprintf(buf, n, "(default %d)", d.edsp_max_refresh); break;
    case OPT_EDSP_DAMPING: snprintf(buf, n, "(default %g)", d.edsp_damping); break;
    case OPT_GLOBALISE: snprintf(buf, n, "(default %s)", ds_globalise_name(d.globalise)); break;
    case OPT_START: snprintf(buf, n, "(default %s)", ds_start_name(d.start)); break;
    case OPT_FACTOR_MEMORY: snprintf(buf, n, "(default %g)", d.factor_mb); break;
    default: return NULL;
    }
    return buf;
}

int cli_help_options(const char *cmd, const cli_help_section *sections,
                     const char *(*note)(int id, char *buf, size_t n), FILE *fp)
{
    unsigned bit = cli_command_bit(cmd);
    int seen[OPT_N] = {0}, bad = 0;
    for (const cli_help_section *s = sections; s->title; s++) {
        if (s->title[0]) fprintf(fp, "%s\n", s->title);
        for (const int *id = s->ids; *id >= 0; id++) {
            if (*id >= OPT_N || !(cli_opts[*id].cmds & bit) || seen[*id]++) {
                fprintf(stderr, "dillsue %s: internal error: --help lists option %d, which %s\n", cmd, *id,
                        *id < OPT_N && seen[*id] > 1 ? "it lists twice" : "the command does not take");
                bad = 1;
                continue;
            }
            help_row(cmd, *id, note, fp);
        }
    }
    for (int i = 0; i < OPT_N; i++)
        if ((cli_opts[i].cmds & bit) && !seen[i]) {
            fprintf(stderr, "dillsue %s: internal error: --help leaves out --%s\n", cmd, cli_opts[i].name);
            bad = 1;
        }
    return bad ? -1 : 0;
}

/* gap_rel as "%.*e" with p digits, more where p would put it on the other side
 * of tol (a run that converged with 9.999685e-08 printed "1.000e-07" at tol
 * 1e-07); "n/a" where it is not finite. One rule for solve and the TUI. */
void cli_gap_text(double v, double tol, int p, char *buf, size_t n)
{
    if (!isfinite(v)) {
        snprintf(buf, n, "n/a");
        return;
    }
    snprintf(buf, n, "%.*e", p, v);
    while (p < 16 && (strtod(buf, NULL) < tol) != (v < tol)) snprintf(buf, n, "%.*e", ++p, v);
}
