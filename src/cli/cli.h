/* cli.h - subcommands of the dillsue program. Each returns the process exit
 * code (DESIGN.md 3: 0 converged, 1 max-iterations, 2 usage/input, 3 ill-posed,
 * 4 cancelled). argv[0] is the subcommand name. */
#ifndef DS_CLI_H
#define DS_CLI_H
int cmd_solve(int argc, char **argv);
int cmd_ue(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_compare(int argc, char **argv);
/* The ncurses front end (src/tui/). net_path NULL = embedded default network. */
int tui_main(int argc, char **argv);
#endif
