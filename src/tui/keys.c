/* keys.c - the one key table: dispatch, the help overlay and the status bar
 * all read it, so a key cannot work without being documented. */
#include "tui.h"

#define CTRL(c) ((c) & 0x1f)

const tui_key tui_keys[] = {
    {'r', "r", ACT_START, "start a run with the settings shown under Runs (next:)", "run"},
    {'\r', "Enter", ACT_START, "start a run (same as r)", NULL},
    {'p', "p", ACT_PAUSE, "pause / resume the running run", "pause"},
    {'a', "a", ACT_ABORT, "abort the running run (it is kept as cancelled)", "abort"},
    {'t', "t", ACT_TAU, "type tau for the next run (> 0)", "tau"},
    {'1', "1", ACT_TAU1, "tau = 1", NULL},
    {'2', "2", ACT_TAU3, "tau = 3", NULL},
    {'3', "3", ACT_TAU10, "tau = 10", NULL},
    {'4', "4", ACT_TAU30, "tau = 30", NULL},
    {'5', "5", ACT_TAU100, "tau = 100", NULL},
    {'f', "f", ACT_FILTER, "cycle filter: full, dsp, bfs, edsp", "filter"},
    {'m', "m", ACT_SOLVER, "cycle solver: msa, sra, anderson, newton", "solver"},
    {'T', "T", ACT_THREADS, "type the number of CPU threads (0 = all cores)", NULL},
    {'+', "+", ACT_THREADS_UP, "one more CPU thread", NULL},
    {'-', "-", ACT_THREADS_DOWN, "one CPU thread fewer", NULL},
    {'b', "b", ACT_BACKEND, "cycle backend: cpu, cuda", NULL},
    {'e', "e", ACT_TOL, "type the tolerance on gap_rel (0 < tol < 1)", NULL},
    {'i', "i", ACT_MAXITER, "type the maximum number of outer iterations", NULL},
    {'w', "w", ACT_WARM, "toggle warm start from the last finished run's flows", "warm"},
    {'n', "n", ACT_NET, "open another network (path to a TNTP _net.tntp file)", NULL},
    {'x', "x", ACT_EXPORT, "export flows and history of the selected finished run", "export"},
    {KEY_UP, "Up/k", ACT_UP, "select the previous run in the run list", NULL},
    {'k', "k", ACT_UP, NULL, NULL},
    {KEY_DOWN, "Down/j", ACT_DOWN, "select the next run in the run list", NULL},
    {'j', "j", ACT_DOWN, NULL, NULL},
    {' ', "Space", ACT_SHOW, "show / hide the selected run's curve on the plot", NULL},
    {'c', "c", ACT_COMPARE, "mark the selected run for comparison; two marks open the comparison", "cmp"},
    {'\t', "Tab", ACT_TAB, "cycle the side panels that do not fit on screen", "panels"},
    {'g', "g", ACT_GLYPHS, "cycle plot glyphs: braille, block, ascii", NULL},
    {'?', "?/h", ACT_HELP, "this help", "help"},
    {'h', "h", ACT_HELP, NULL, NULL},
    {KEY_F(1), "F1", ACT_HELP, NULL, NULL},
    {CTRL('l'), "C-l", ACT_REDRAW, "redraw the screen", NULL},
    {27, "Esc", ACT_CLOSE, "close help / comparison / dialog", NULL},
    {'q', "q", ACT_QUIT, "quit (cancels a running run first); Ctrl-C does the same", "quit"},
};
const int tui_n_keys = (int)(sizeof tui_keys / sizeof tui_keys[0]);

tui_action keys_lookup(int ch)
{
    if (ch == '\n' || ch == KEY_ENTER) ch = '\r';
    for (int i = 0; i < tui_n_keys; i++)
        if (tui_keys[i].key == ch) return tui_keys[i].act;
    return ACT_NONE;
}
