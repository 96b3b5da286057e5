/* cli.h - subcommands of the dillsue program. Each returns the process exit
 * code (DESIGN.md 3: 0 converged, 1 max-iterations, 2 usage/input, 3 ill-posed,
 * 4 cancelled). argv[0] is the subcommand name. */
#ifndef DS_CLI_H
#define DS_CLI_H
#include "dillsue.h"

#include <signal.h>
#include <stdio.h>

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
/* The same with prefix before the file (control bytes escaped). */
void cli_say_error(const char *prefix, const ds_error *err);
/* Load NET (NULL = the embedded default) with TRIPS (NULL = sibling). */
/* with_reference: also the node and flow files beside NET (only `ue` reports
 * against the reference flows; other commands read what they use). */
ds_network *cli_load_network(const char *net_path, const char *trips_path, int with_reference, ds_error *err);
/* Usage error if the directory that would hold path is not writable, so that
 * a long solve does not end in an unwritable output. Returns 0 or 2. */
int cli_check_writable(const char *cmd, const char *opt, const char *path);
/* Checks that no output of a command is one of its inputs or another of its
 * outputs (paths may be NULL: not given). Returns 0 or a usage error (2). */
typedef struct cli_file {
    const char *opt; /* "--out", "--net", ... */
    const char *path;
    int output;
} cli_file;
int cli_check_io(const char *cmd, const cli_file *files, int n);
/* Free-flow costs >= 0 (ds_costs_check) and finite, and their sum finite too
 * (so no path cost overflows); otherwise says which link, with file and line,
 * and returns 2. */
int cli_check_costs(const ds_network *net, const ds_cost_params *cp);
/* After a failed ds_run_create: names the first OD pair with no path at all
 * (centroids honoured) and how many there are, if any. */
void cli_name_unreachable(const ds_network *net, int threads);
/* The OD pairs with no path at all (centroids honoured; at any costs, so
 * none are given): how many, their demand, and the first (0-based nodes; -1
 * if none), by ds_od_no_path over threads (<= 0: all cores), the same for
 * any count. 0, or -1 out of memory. */
typedef struct cli_lost {
    int n_od, orig, dest;
    double demand, first;
} cli_lost;
int cli_unreachable(const ds_network *net, int threads, cli_lost *lost);
/* Why the first of them has no path: buf gets "; no link leaves zone a" or
 * "; no link enters zone b" (to follow its demand), else "". Returns 1 where
 * the cause to name is the centroid rule instead (the network has centroids
 * and both zones have links). */
int cli_no_path_cause(const ds_network *net, const cli_lost *l, char *buf, size_t n);
/* v printed with fmt into buf, or the text `undefined` when v is not finite. */
const char *cli_num(double v, const char *fmt, const char *undefined, char *buf, size_t n);
/* Prints s with control bytes as \xNN. */
void cli_fputs_escaped(const char *s, FILE *fp);
/* SIGINT, SIGTERM and SIGHUP (the first and the last unless ignored: a shell's
 * background job, nohup) to a handler that only sets a flag; the old actions
 * saved for the restore. Each asks for a clean stop (cli_stop_signal() then
 * returns the signal): a run over SSH whose connection drops, or a batch job
 * at its time limit, keeps what it has. A repeat a second or more later
 * kills (main.c). */
typedef struct cli_stop_saved {
    struct sigaction act[3]; /* SIGINT, SIGTERM, SIGHUP */
} cli_stop_saved;
void cli_stop_signals_install(cli_stop_saved *old);
int cli_stop_signal(void);
void cli_stop_signals_restore(const cli_stop_saved *old);
/* --checkpoint writes OUT.checkpoint beside an output OUT, never OUT itself:
 * a file at the output's path is always a finished run's (a pipeline that
 * tests for it is not fooled by a killed one). 0, or -1 if it does not fit. */
int cli_checkpoint_path(const char *out, char *buf, size_t n);
/* solve, load, ue, sweep: a closed stdout/stderr pipe fails writes instead of
 * killing the run (SIGPIPE ignored) */
void cli_keep_on_closed_pipe(void);
/* When the next checkpoint is due (cli_mono_s seconds): `every` after the end
 * of the last one, and never sooner than ten times its own length after it,
 * so that rewriting a history that grows costs at most a tenth of the run. */
double cli_checkpoint_next(double started, double ended, double every);
/* Monotonic seconds. */
double cli_mono_s(void);
/* Once a run's own output is written: a checkpoint at its path (ck) that this
 * run did not write is an earlier, killed run's, and would be taken for this
 * one's (README: checkpoints are removed when the run ends): removed, and said. */
void cli_checkpoint_stale(const char *ck);
/* A --checkpoint write that failed, said on stderr (the caller stops trying). */
void cli_checkpoint_failed(const ds_error *err);
/* How a stop signal is named in messages: interrupted, terminated, hung up. */
const char *cli_stop_word(int sig);
/* A thread that calls on_stop(signal, ctx) once, when a stop signal has come
 * (checked every 20 ms); _end wakes and joins it at once. NULL: none. */
typedef struct cli_stop_watch cli_stop_watch;
cli_stop_watch *cli_stop_watch_begin(void (*on_stop)(int sig, void *ctx), void *ctx);
void cli_stop_watch_end(cli_stop_watch *w);

/* Set-up: solve, load, ue and sweep read their input (the network, a warm
 * start) and set up before the stop watch of their run begins. A stop
 * signal then ends the command at once: "dillsue CMD: interrupted while
 * reading NET; nothing written" on stderr and exit status 4 (cancelled), as
 * a run cancelled during its set-up ends (it exited 130, 143 or 129 without
 * a word). _begin installs the stop handlers (cli_stop_signals_install, old
 * for the restore; NULL: they are, and a signal that came since is said at
 * once) and starts the watch; _step says what the command is
 * doing (what: "reading", path: a file or NULL; after: what the line ends
 * with, NULL: "nothing written"); _end stops the watch and keeps the
 * handlers, so that a signal that comes later is the run's stop request
 * (cli_stop_signal) and is not lost. _end may be called more than once. */
void cli_setup_begin(const char *cmd, cli_stop_saved *old);
void cli_setup_step(const char *what, const char *path, const char *after);
void cli_setup_end(void);

/* OpenBLAS asked, through its environment, for one thread (blas_threads.c). */
void cli_blas_single_thread(void);
/* 1 if DILLSUE_CUDA_EMULATE=1 (env.c): for ds_config.cuda_emulate. */
int cli_cuda_emulate(void);

/* ------------------------------------------------ the one option table (opts.c) */

/* Commands as bits: a table row lists the commands that accept it. */
enum {
    CLI_SOLVE = 1u << 0,
    CLI_UE = 1u << 1,
    CLI_INFO = 1u << 2,
    CLI_COMPARE = 1u << 3,
    CLI_LOAD = 1u << 4,
    CLI_TUI = 1u << 5,
    CLI_SWEEP = 1u << 6,
};
/* FLAG: no value; PATH: a file name; NUM: a number checked by the engine's
 * rule for the setting; CHOICE: a name (solver, filter, ...); SEED: a
 * non-negative 64-bit integer; SHARD: K/M with 1 <= K <= M. */
typedef enum { CLI_FLAG, CLI_PATH, CLI_NUM, CLI_CHOICE, CLI_SEED, CLI_SHARD } cli_opt_kind;
/* Adding an option: an id here and its row in cli_opts (opts.c). */
typedef enum {
    OPT_NET,
    OPT_TRIPS,
    OPT_TAU,
    OPT_MU,
    OPT_FILTER,
    OPT_SOLVER,
    OPT_TOL,
    OPT_MAX_ITER,
    OPT_THREADS,
    OPT_BACKEND,
    OPT_CAP,
    OPT_WARM,
    OPT_TOLL_FACTOR,
    OPT_DIST_FACTOR,
    OPT_INNER,
    OPT_INNER_MAX,
    OPT_EDSP_REFRESH,
    OPT_EDSP_DAMPING,
    OPT_SCENARIO,
    OPT_SEED,
    OPT_OUT,
    OPT_HISTORY,
    OPT_FLOWS,
    OPT_GAP,
    OPT_METHOD,
    OPT_MIN_REF,
    OPT_FLOW_DEP,
    OPT_QUIET,
    OPT_HELP,
    OPT_GLOBALISE,
    OPT_START,
    OPT_NEWTON_WARM,
    OPT_FACTOR_MEMORY,
    OPT_PROGRESS_EVERY,
    OPT_CHECKPOINT,
    OPT_ASCII,
    OPT_NO_COLOR,
    OPT_NO_COLOUR,
    OPT_NO_CONFIG,
    OPT_NO_RUNLOG,
    OPT_CONFIG,
    OPT_RUNLOG,
    OPT_DELAY,
    OPT_SCENARIOS,
    OPT_OUT_DIR,
    OPT_SWEEP_FLOWS,
    OPT_UE,
    OPT_UE_GAP,
    OPT_UE_MAX_ITER,
    OPT_WORKERS,
    OPT_SHARD,
    OPT_RESUME,
    OPT_MERGE,
    OPT_SWEEP_VIEW,
    OPT_N
} cli_opt_id;
/* Two rows may share a name when no command takes both (`--out` is a file for
 * solve and a directory for sweep); the parser refuses a table where they
 * meet. */
typedef struct cli_opt {
    const char *name; /* long name without the dashes */
    cli_opt_kind kind;
    unsigned cmds;                   /* CLI_* bits of the commands that take it */
    const char *setting;             /* CLI_NUM: the engine's rule (ds_setting_parse) */
    int (*choice)(const char *);     /* CLI_CHOICE: name -> index, -1 if unknown */
    const char *(*choice_name)(int); /* CLI_CHOICE: index -> name, NULL past the last */
    const char *metavar;
    unsigned list_cmds; /* CLI_NUM, CLI_CHOICE: the commands that take a comma-separated list */
    const char *help;   /* what it means, one phrase (cli_help_options adds the command's note) */
} cli_opt;
extern const cli_opt cli_opts[OPT_N];

#define CLI_MAX_LIST 64 /* values of one list option */

/* What a command line gave: have[id] for every option seen; numbers, flags
 * (1) and choices (their index) in num[id], paths and choice names in str[id]
 * (the text as given for a list). A list option's values are list[id][0 ..
 * n_list[id]-1] (num[id] is the first); a single value is a list of one. */
typedef struct cli_values {
    unsigned char have[OPT_N];
    double num[OPT_N];
    const char *str[OPT_N];
    int n_list[OPT_N];
    double list[OPT_N][CLI_MAX_LIST];
    unsigned long long seed;
    int shard_k, shard_m; /* CLI_SHARD */
} cli_values;

/* Parses argv (argv[0] = the command name) by the table's rows for cmd.
 * first_arg NULL: no positional arguments allowed; else *first_arg = index
 * of the first one. Returns 0, 1 if --help was asked for, or 2 after printing
 * a usage error. */
int cli_parse(const char *cmd, int argc, char **argv, cli_values *v, int *first_arg);
unsigned cli_command_bit(const char *cmd);
/* `dillsue --list-options CMD` (for shell completion): one option a line. */
int cli_list_options(const char *cmd);
/* `dillsue --list-values CMD OPTION` (for shell completion): the names a
 * choice option takes, one a line; nothing for another option. */
int cli_list_values(const char *cmd, const char *opt);

/* --help from the table: the options of cmd under section titles, each
 * "  --name METAVAR  help" wrapped to 79 columns, the row's help followed by
 * note(id) when that gives text (the command's default or an example).
 * sections: titles and the ids under each, an id < 0 ending a section's
 * list, a NULL title ending the whole. Every option of cmd must be in a
 * section and no other: returns -1 (and prints what is wrong on stderr) if
 * not, so that a test of --help catches a new option left out of it. */
typedef struct cli_help_section {
    const char *title;
    int ids[OPT_N + 1];
} cli_help_section;
/* A note for cli_help_options: "(default X)" from ds_config_default for the
 * options that set a field of it, NULL for the others. */
const char *cli_config_default(int id, char *buf, size_t n);
int cli_help_options(const char *cmd, const cli_help_section *sections,
                     const char *(*note)(int id, char *buf, size_t n), FILE *fp);
/* gap_rel in "%.*e", p digits at least and as many more as say on which side
 * of tol it is; "n/a" where it is not finite (opts.c) */
void cli_gap_text(double v, double tol, int p, char *buf, size_t n);

#endif
