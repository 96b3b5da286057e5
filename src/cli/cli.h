/* cli.h - subcommands of the dillsue program. Each returns the process exit
 * code (DESIGN.md 3: 0 converged, 1 max-iterations, 2 usage/input, 3 ill-posed,
 * 4 cancelled). argv[0] is the subcommand name. */
#ifndef DS_CLI_H
#define DS_CLI_H
#include "dillsue.h"

int cmd_solve(int argc, char **argv);
int cmd_ue(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_sweep(int argc, char **argv); /* cmd_sweep.c, docs/sweep.md */
/* The ncurses front end (src/tui/). argv[0] is "tui"; without --net it runs
 * on the embedded default network. */
int tui_main(int argc, char **argv);

/* Helpers shared by the subcommands (src/cli/main.c). */

/* Print "dillsue CMD: <msg>" and a hint to `dillsue CMD --help` on stderr;
 * returns 2, the usage exit code. */
int cli_usage(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Print "dillsue: file:line: msg" on stderr; returns 2. */
int cli_input_error(const ds_error *err);
/* Strict number parsing of an option argument: the whole string must be a
 * finite number (an integer in [lo, hi]). On failure prints a usage error
 * naming the option and returns 2; returns 0 on success. */
int cli_double(const char *cmd, const char *opt, const char *arg, double *out);
int cli_int(const char *cmd, const char *opt, const char *arg, long lo, long hi, int *out);
/* getopt_long error reporting after it returned '?' or ':' (opterr = 0 and
 * an optstring starting with ':'). Returns 2. */
int cli_getopt_error(const char *cmd, int c, char **argv);
/* Load NET (NULL = the embedded default) with TRIPS (NULL = sibling). */
ds_network *cli_load_network(const char *net_path, const char *trips_path, ds_error *err);
/* Usage error if the directory that would hold path is not writable, so that
 * a long solve does not end in an unwritable output. Returns 0 or 2. */
int cli_check_writable(const char *cmd, const char *opt, const char *path);
#endif
