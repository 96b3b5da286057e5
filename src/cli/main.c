/* main.c - the dillsue program: dispatch to a subcommand, plus the option
 * helpers the subcommands share. Only this layer prints and exits. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
    "Usage: dillsue [COMMAND [OPTIONS]]\n"
    "Link-based logit stochastic user equilibrium (recursive logit) on TNTP networks.\n"
    "\n"
    "Commands:\n"
    "  (none)        terminal UI on the embedded default network\n"
    "  tui           terminal UI on a given network (--net NET)\n"
    "  solve         solve for SUE flows; write flows and the iteration history as CSV\n"
    "  ue            Wardrop user equilibrium reference flows (Frank-Wolfe)\n"
    "  info          describe a network: size, demand, cbar, structure\n"
    "  compare       compare two flow CSV files: MAPE, R^2, max abs diff\n"
    "  load          evaluate the loading map once, f(x), at given flows\n"
    "  sweep         a grid of scenarios x tau x filter x solver (locally or with mpirun)\n"
    "  help COMMAND  help on a command (same as dillsue COMMAND --help)\n"
    "\n"
    "Options:\n"
    "  --help        this text\n"
    "  --version     print the version\n"
    "\n"
    "Exit codes: 0 converged, 1 stopped at max iterations (results still written),\n"
    "2 usage or input error, 3 ill-posed model, 4 cancelled.\n";

int cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "dillsue%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'dillsue%s%s --help'.\n", cmd ? " " : "", cmd ? cmd : "");
    return 2;
}

int cli_input_error(const ds_error *err)
{
    char buf[1200];
    ds_error_format(err, buf, sizeof buf);
    fprintf(stderr, "dillsue: %s\n", buf);
    return 2;
}

int cli_double(const char *cmd, const char *opt, const char *arg, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    if (end == arg || *end || errno == ERANGE || !isfinite(v))
        return cli_usage(cmd, "%s needs a number, got '%s'", opt, arg);
    *out = v;
    return 0;
}

int cli_int(const char *cmd, const char *opt, const char *arg, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(arg, &end, 10);
    if (end == arg || *end || errno == ERANGE)
        return cli_usage(cmd, "%s needs an integer, got '%s'", opt, arg);
    if (v < lo || v > hi) {
        if (hi == INT_MAX) return cli_usage(cmd, "%s must be at least %ld, got %ld", opt, lo, v);
        return cli_usage(cmd, "%s must be between %ld and %ld, got %ld", opt, lo, hi, v);
    }
    *out = (int)v;
    return 0;
}

int cli_getopt_error(const char *cmd, int c, char **argv)
{
    const char *bad = argv[optind - 1];
    if (c == ':') return cli_usage(cmd, "option '%s' needs an argument", bad);
    if (optopt) return cli_usage(cmd, "unknown option '-%c'", optopt);
    return cli_usage(cmd, "unknown or ambiguous option '%s'", bad);
}

ds_network *cli_load_network(const char *net_path, const char *trips_path, ds_error *err)
{
    if (!net_path) return ds_network_load_default(err);
    return ds_network_load(net_path, trips_path, NULL, NULL, err);
}

int cli_check_writable(const char *cmd, const char *opt, const char *path)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    if (!*path) return cli_usage(cmd, "%s needs a file name", opt);
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (access(dir, W_OK) != 0)
        return cli_usage(cmd, "%s %s: cannot write in directory '%s': %s", opt, path, dir, strerror(errno));
    return 0;
}

static int dispatch(const char *name, int argc, char **argv)
{
    if (!strcmp(name, "solve")) return cmd_solve(argc, argv);
    if (!strcmp(name, "ue")) return cmd_ue(argc, argv);
    if (!strcmp(name, "info")) return cmd_info(argc, argv);
    if (!strcmp(name, "compare")) return cmd_compare(argc, argv);
    if (!strcmp(name, "load")) return cmd_load(argc, argv);
    if (!strcmp(name, "sweep")) return cmd_sweep(argc, argv);
    if (!strcmp(name, "tui")) return tui_main(argc, argv);
    return -1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        char *targv[] = {"tui", NULL};
        return tui_main(1, targv);
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
        printf("dillsue %s\n", DS_VERSION);
        return 0;
    }
    if (!strcmp(cmd, "help")) {
        if (argc == 2) {
            fputs(usage_text, stdout);
            return 0;
        }
        if (argc > 3) return cli_usage(NULL, "help takes one command name");
        char *hargv[] = {argv[2], "--help", NULL};
        int rc = dispatch(argv[2], 2, hargv);
        if (rc < 0) return cli_usage(NULL, "no such command '%s'", argv[2]);
        return rc;
    }
    int rc = dispatch(cmd, argc - 1, argv + 1);
    if (rc < 0) {
        if (cmd[0] == '-') return cli_usage(NULL, "unknown option '%s'", cmd);
        return cli_usage(NULL, "unknown command '%s'", cmd);
    }
    return rc;
}
