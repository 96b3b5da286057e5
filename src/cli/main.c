/* main.c - the dillsue program: dispatch to a subcommand, plus the option
 * helpers the subcommands share. Only this layer prints and exits. */
#include "cli.h"
#include "ds_csv.h"

#include <float.h>
#include <sys/stat.h>

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
    "  help COMMAND  help on a command (same as dillsue COMMAND --help)\n"
    "\n"
    "Options:\n"
    "  --help        this text\n"
    "  --version     print the version\n"
    "\n"
    "Exit codes: 0 converged, 1 stopped at max iterations (results still written),\n"
    "2 usage or input error, 3 ill-posed model, 4 cancelled.\n";

/* Control bytes (terminal escapes from a file or an argument) printed as
 * \xNN so that a message can never drive the terminal. */
void cli_fputs_escaped(const char *s, FILE *fp)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p == 0x7f) fprintf(fp, "\\x%02x", *p);
        else fputc(*p, fp);
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

int cli_input_error(const ds_error *err)
{
    char buf[1200];
    ds_error_format(err, buf, sizeof buf);
    fputs("dillsue: ", stderr);
    cli_fputs_escaped(buf, stderr);
    fputc('\n', stderr);
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
    ds_network *net = net_path ? ds_network_load(net_path, trips_path, NULL, NULL, err) : ds_network_load_default(err);
    if (!net) return NULL;
    /* What the reader dropped is said once, where the network is loaded. */
    for (int i = 0; i < net->n_loops; i++)
        fprintf(stderr, "dillsue: warning: %s:%ld: self-loop at node %d dropped (no route uses it; written with flow 0)\n",
                net->net_path, net->loops[i].line, net->loops[i].node_id);
    return net;
}

int cli_check_writable(const char *cmd, const char *opt, const char *path)
{
    char dir[PATH_MAX], note[2048];
    const char *slash = strrchr(path, '/');
    ds_error err = {0};
    if (!*path) return cli_usage(cmd, "%s needs a file name", opt);
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (ds_output_check(path, NULL, 0, note, sizeof note, &err) != 0) return cli_usage(cmd, "%s %s", opt, err.msg);
    if (note[0]) {
        fputs("dillsue: note: ", stderr);
        cli_fputs_escaped(note, stderr);
        fputc('\n', stderr);
    }
    if (access(dir, W_OK) != 0)
        return cli_usage(cmd, "%s %s: cannot write in directory '%s': %s", opt, path, dir, strerror(errno));
    return 0;
}

/* Same file: the same inode when both exist, else the same directory and name. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    char da[PATH_MAX], db[PATH_MAX], ra[PATH_MAX], rb[PATH_MAX];
    int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea && eb) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea || eb) return 0;
    const char *ba = strrchr(a, '/'), *bb = strrchr(b, '/');
    snprintf(da, sizeof da, "%.*s", ba ? (int)(ba - a) + 1 : 1, ba ? a : ".");
    snprintf(db, sizeof db, "%.*s", bb ? (int)(bb - b) + 1 : 1, bb ? b : ".");
    if (!realpath(da, ra) || !realpath(db, rb)) return !strcmp(a, b);
    return !strcmp(ra, rb) && !strcmp(ba ? ba + 1 : a, bb ? bb + 1 : b);
}

int cli_check_io(const char *cmd, const cli_file *files, int n)
{
    for (int i = 0; i < n; i++) {
        if (!files[i].path || !files[i].output) continue;
        for (int j = 0; j < n; j++) {
            if (j == i || !files[j].path || (files[j].output && j < i)) continue;
            if (same_file(files[i].path, files[j].path))
                return cli_usage(cmd, "%s %s is the same file as %s %s: refusing to overwrite %s", files[i].opt,
                                 files[i].path, files[j].opt, files[j].path,
                                 files[j].output ? "one output with another" : "an input");
        }
    }
    return 0;
}

int cli_check_costs(const ds_network *net, const ds_cost_params *cp)
{
    double *t = malloc(sizeof(double) * (size_t)(net->n_links + 1)), *x = calloc((size_t)net->n_links + 1, sizeof(double));
    double sum = 0.0;
    int worst = -1, rc = 0;
    if (!t || !x) {
        free(t), free(x);
        return 0;
    }
    ds_costs_eval(net, cp, x, t);
    for (int e = 0; e < net->n_links; e++) {
        if (!isfinite(t[e])) {
            fprintf(stderr, "dillsue: %s:%ld: the free-flow cost of link %d->%d overflows (free-flow time %g, toll %g x "
                    "%g, length %g x %g)\n", net->net_path, net->src_line ? net->src_line[e] : 0L,
                    ds_node_id(net, net->tail[e]), ds_node_id(net, net->head[e]), net->t0[e], net->toll[e],
                    cp->toll_factor, net->length[e], cp->distance_factor);
            rc = 2;
            goto out;
        }
        sum += t[e];
        if (worst < 0 || t[e] > t[worst]) worst = e;
    }
    /* Every path cost is at most the sum over all links: if that is finite, no sum can overflow. */
    if (!isfinite(sum) && worst >= 0) {
        fprintf(stderr, "dillsue: %s:%ld: path costs can overflow: the free-flow costs sum past %g (largest: link "
                "%d->%d, %g)\n", net->net_path, net->src_line ? net->src_line[worst] : 0L, DBL_MAX,
                ds_node_id(net, net->tail[worst]), ds_node_id(net, net->head[worst]), t[worst]);
        rc = 2;
    }
out:
    free(t), free(x);
    return rc;
}

const char *cli_num(double v, const char *fmt, const char *undefined, char *buf, size_t n)
{
    if (!isfinite(v)) return undefined;
    snprintf(buf, n, fmt, v);
    return buf;
}

/* Output that cannot be written (a full disk, a closed pipe) is an error,
 * not a silent success. */
static void check_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        int e = errno;
        fprintf(stderr, "dillsue: cannot write standard output: %s\n", strerror(e ? e : EIO));
        _exit(2);
    }
}

static int dispatch(const char *name, int argc, char **argv)
{
    if (!strcmp(name, "solve")) return cmd_solve(argc, argv);
    if (!strcmp(name, "ue")) return cmd_ue(argc, argv);
    if (!strcmp(name, "info")) return cmd_info(argc, argv);
    if (!strcmp(name, "compare")) return cmd_compare(argc, argv);
    if (!strcmp(name, "load")) return cmd_load(argc, argv);
    if (!strcmp(name, "tui")) return tui_main(argc, argv);
    return -1;
}

int main(int argc, char **argv)
{
    atexit(check_stdout);
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
    if (!strcmp(cmd, "--list-options")) {
        if (argc != 3) return cli_usage(NULL, "--list-options takes one command name");
        return cli_list_options(argv[2]);
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
