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
#include "ds_ue.h"

#include <errno.h>
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

/* id, name, kind, commands, setting rule (numbers) or parser (choices), metavar */
const cli_opt cli_opts[OPT_N] = {
    [OPT_NET] = {"net", CLI_PATH, ALL & ~CLI_SWEEP, NULL, NULL, "NET"},
    [OPT_TRIPS] = {"trips", CLI_PATH, CLI_SOLVE | CLI_UE | CLI_INFO | CLI_LOAD | CLI_TUI, NULL, NULL, "TRIPS"},
    [OPT_TAU] = {"tau", CLI_NUM, CLI_SOLVE | CLI_LOAD | CLI_TUI, "tau", NULL, "T"},
    [OPT_MU] = {"mu", CLI_NUM, CLI_SOLVE | CLI_LOAD, "mu", NULL, "M"},
    [OPT_FILTER] = {"filter", CLI_CHOICE, CLI_SOLVE | CLI_LOAD | CLI_TUI, NULL, ds_filter_parse, "F"},
    [OPT_SOLVER] = {"solver", CLI_CHOICE, CLI_SOLVE | CLI_TUI, NULL, ds_solver_parse, "S"},
    [OPT_TOL] = {"tol", CLI_NUM, CLI_SOLVE, "tol", NULL, "X"},
    [OPT_MAX_ITER] = {"max-iter", CLI_NUM, CLI_SOLVE | CLI_UE, "max_iter", NULL, "N"},
    [OPT_THREADS] = {"threads", CLI_NUM, CLI_SOLVE | CLI_UE | CLI_LOAD | CLI_TUI, "threads", NULL, "N"},
    [OPT_BACKEND] = {"backend", CLI_CHOICE, CLI_SOLVE, NULL, ds_backend_parse, "B"},
    [OPT_CAP] = {"cap", CLI_NUM, CLI_SOLVE | CLI_UE | CLI_INFO | CLI_LOAD, "cap", NULL, "C"},
    [OPT_WARM] = {"warm", CLI_PATH, CLI_SOLVE, NULL, NULL, "FLOWS.csv"},
    [OPT_TOLL_FACTOR] = {"toll-factor", CLI_NUM, CLI_SOLVE | CLI_UE | CLI_LOAD, "toll_factor", NULL, "F"},
    [OPT_DIST_FACTOR] = {"distance-factor", CLI_NUM, CLI_SOLVE | CLI_UE | CLI_LOAD, "distance_factor", NULL, "F"},
    [OPT_INNER] = {"inner", CLI_CHOICE, CLI_SOLVE | CLI_LOAD, NULL, ds_inner_parse, "I"},
    [OPT_INNER_MAX] = {"inner-max", CLI_NUM, CLI_SOLVE | CLI_LOAD, "inner_max", NULL, "N"},
    [OPT_EDSP_REFRESH] = {"edsp-refresh", CLI_NUM, CLI_SOLVE, "edsp_refresh", NULL, "N"},
    [OPT_EDSP_DAMPING] = {"edsp-damping", CLI_NUM, CLI_SOLVE, "edsp_damping", NULL, "D"},
    [OPT_SCENARIO] = {"scenario", CLI_NUM, CLI_SOLVE | CLI_INFO, "scenario", NULL, "K"},
    [OPT_SEED] = {"seed", CLI_SEED, CLI_SOLVE | CLI_INFO, NULL, NULL, "S"},
    [OPT_OUT] = {"out", CLI_PATH, CLI_SOLVE | CLI_UE | CLI_LOAD, NULL, NULL, "FLOWS.csv"},
    [OPT_HISTORY] = {"history", CLI_PATH, CLI_SOLVE, NULL, NULL, "HIST.csv"},
    [OPT_FLOWS] = {"flows", CLI_PATH, CLI_LOAD, NULL, NULL, "X.csv"},
    [OPT_GAP] = {"gap", CLI_NUM, CLI_UE, "gap", NULL, "G"},
    [OPT_METHOD] = {"method", CLI_CHOICE, CLI_UE, NULL, ds_ue_method_parse, "cfw|bfw"},
    [OPT_MIN_REF] = {"min-ref", CLI_NUM, CLI_COMPARE, "min_ref", NULL, "R"},
    [OPT_FLOW_DEP] = {"flow-dependent-only", CLI_FLAG, CLI_COMPARE, NULL, NULL, NULL},
    [OPT_QUIET] = {"quiet", CLI_FLAG, CLI_SOLVE | CLI_UE, NULL, NULL, NULL},
    [OPT_HELP] = {"help", CLI_FLAG, ALL, NULL, NULL, NULL},
    [OPT_GLOBALISE] = {"globalise", CLI_CHOICE, CLI_SOLVE, NULL, ds_globalise_parse, "G"},
    [OPT_START] = {"start", CLI_CHOICE, CLI_SOLVE, NULL, ds_start_parse, "S"},
    [OPT_NEWTON_WARM] = {"newton-warm", CLI_NUM, CLI_SOLVE, "newton_warm", NULL, "N"},
    [OPT_FACTOR_MEMORY] = {"factor-memory", CLI_NUM, CLI_SOLVE, "factor_mb", NULL, "MB"},
    [OPT_ASCII] = {"ascii", CLI_FLAG, CLI_TUI, NULL, NULL, NULL},
    [OPT_NO_COLOR] = {"no-color", CLI_FLAG, CLI_TUI, NULL, NULL, NULL},
    [OPT_NO_COLOUR] = {"no-colour", CLI_FLAG, CLI_TUI, NULL, NULL, NULL},
    [OPT_NO_CONFIG] = {"no-config", CLI_FLAG, CLI_TUI, NULL, NULL, NULL},
    [OPT_NO_RUNLOG] = {"no-runlog", CLI_FLAG, CLI_TUI, NULL, NULL, NULL},
    [OPT_CONFIG] = {"config", CLI_PATH, CLI_TUI, NULL, NULL, "FILE"},
    [OPT_RUNLOG] = {"runlog", CLI_PATH, CLI_TUI, NULL, NULL, "FILE"},
    [OPT_DELAY] = {"delay", CLI_NUM, CLI_TUI, "delay_ms", NULL, "MS"},
};

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

static int parse_seed(const char *s, unsigned long long *out)
{
    char *end;
    if (!*s || *s == '-' || *s == '+') return -1;
    for (const char *q = s; *q; q++)
        if (*q < '0' || *q > '9') return -1;
    errno = 0;
    *out = strtoull(s, &end, 10);
    return (*end || errno) ? -1 : 0;
}

static int set_value(const char *cmd, int id, const char *arg, cli_values *v)
{
    const cli_opt *o = &cli_opts[id];
    char msg[200];
    v->have[id] = 1;
    switch (o->kind) {
    case CLI_FLAG: v->num[id] = 1; return 0;
    case CLI_PATH:
        if (!*arg) return cli_usage(cmd, "--%s needs a file name", o->name);
        v->str[id] = arg;
        return 0;
    case CLI_NUM:
        if (ds_setting_parse(o->setting, arg, &v->num[id], msg, sizeof msg))
            return cli_usage(cmd, "--%s %s", o->name, msg);
        return 0;
    case CLI_CHOICE: {
        int c = o->choice(arg);
        if (c < 0) return cli_usage(cmd, "unknown --%s '%s'", o->name, arg);
        v->num[id] = c;
        v->str[id] = arg;
        return 0;
    }
    case CLI_SEED:
        if (parse_seed(arg, &v->seed))
            return cli_usage(cmd, "--%s needs a non-negative integer, got '%s'", o->name, arg);
        return 0;
    }
    return 0;
}

int cli_parse(const char *cmd, int argc, char **argv, cli_values *v, int *first_arg)
{
    unsigned bit = cli_command_bit(cmd);
    struct option lo[OPT_N + 1];
    int n = 0, c;
    memset(v, 0, sizeof *v);
    for (int i = 0; i < OPT_N; i++) {
        if (!(cli_opts[i].cmds & bit)) continue;
        lo[n].name = cli_opts[i].name;
        lo[n].has_arg = cli_opts[i].kind == CLI_FLAG ? no_argument : required_argument;
        lo[n].flag = NULL;
        lo[n].val = 256 + i;
        n++;
    }
    memset(&lo[n], 0, sizeof lo[n]);
    opterr = 0;
    optind = 0;
    while ((c = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
        int rc;
        if (c == 'h' || c == 256 + OPT_HELP) return 1;
        if (c < 256) {
            const char *bad = argv[optind - 1];
            const char *eq = strchr(bad, '=');
            if (c == ':') return cli_usage(cmd, "option '%s' needs an argument", bad);
            if (optopt && optopt < 256) return cli_usage(cmd, "unknown option '-%c'", optopt);
            if (optopt >= 256 && eq) return cli_usage(cmd, "option '%.*s' takes no value", (int)(eq - bad), bad);
            return cli_usage(cmd, "unknown or ambiguous option '%s'", bad);
        }
        if ((rc = set_value(cmd, c - 256, optarg, v))) return rc;
    }
    if (first_arg)
        *first_arg = optind;
    else if (optind < argc)
        return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
    return 0;
}
