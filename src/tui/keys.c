/* keys.c - the one key table: dispatch, the help overlay, the status bar and
 * the config file's bind.<action>= lines all read it, so a key cannot work
 * without being documented and an action cannot be rebound under a name the
 * help does not show. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tui.h"

#define CTRL(c) ((c)&0x1f)

const tui_key tui_keys[] = {
    {ACT_START, "start", {'r', '\r'}, "start a run with the settings shown under Runs (next:)", "run"},
    {ACT_PAUSE, "pause", {'p'}, "pause / resume the running run", "pause"},
    {ACT_ABORT, "abort", {'a'}, "abort the running run (it is kept as cancelled)", "abort"},
    {ACT_TAU, "tau", {'t'}, "type tau for the next run (> 0)", "tau"},
    {ACT_TAU1, "tau1", {'1'}, "tau = 1", NULL},
    {ACT_TAU3, "tau3", {'2'}, "tau = 3", NULL},
    {ACT_TAU10, "tau10", {'3'}, "tau = 10", NULL},
    {ACT_TAU30, "tau30", {'4'}, "tau = 30", NULL},
    {ACT_TAU100, "tau100", {'5'}, "tau = 100", NULL},
    {ACT_FILTER, "filter", {'f'}, "cycle filter: full, dsp, bfs, edsp", "filter"},
    {ACT_SOLVER, "solver", {'m'}, "cycle solver: msa, sra, anderson, newton", "solver"},
    {ACT_THREADS, "threads", {'T'}, "type the number of CPU threads (0 = all cores)", NULL},
    {ACT_THREADS_UP, "threads_up", {'+'}, "one more CPU thread", NULL},
    {ACT_THREADS_DOWN, "threads_down", {'-'}, "one CPU thread fewer", NULL},
    {ACT_BACKEND, "backend", {'b'}, "cycle backend: cpu, cuda", NULL},
    {ACT_TOL, "tol", {'e'}, "type the tolerance on gap_rel (0 < tol < 1)", NULL},
    {ACT_MAXITER, "max_iter", {'i'}, "type the maximum number of outer iterations", NULL},
    {ACT_WARM, "warm", {'w'}, "warm start on/off (from the run W chose, else the latest)", "warm"},
    {ACT_WARM_FROM, "warm_from", {'W'}, "warm start from run # (0 = latest) or a flow CSV (solve --warm)", NULL},
    {ACT_NET, "network", {'n'}, "open another network (a TNTP _net.tntp file, or a directory holding one)", NULL},
    {ACT_SCENARIO, "scenario", {'N'}, "scenario K SEED of this network (solve --scenario --seed)", NULL},
    {ACT_EXPORT, "export", {'x'}, "export flows and history of the selected run; write the run log", "export"},
    {ACT_SETTINGS, "settings", {'s'}, "settings of the next run: every solve option (Enter edits)", "set"},
    {ACT_DETAILS, "details", {'v'}, "selected run: reason, certificate, settings, totals, messages", "why"},
    {ACT_LOG, "log", {'L'}, "message log of the session with times (Up/Down/PgUp/PgDn)", "log"},
    {ACT_RERUN, "rerun", {'R'}, "run the selected run's settings again", NULL},
    {ACT_COPY, "copy", {'C'}, "copy the selected run's settings into the next run", NULL},
    {ACT_REF, "reference", {'F'}, "compare the selected run's flows with a file (_flow.tntp or CSV)", NULL},
    {ACT_QUEUE, "queue", {'Q'}, "queue runs, e.g. tau 1,3,10,30,100 or solvers or both; clear", NULL},
    {ACT_LADDER, "ladder", {'l'}, "solver ladder: the queue's runs, table and tau x solver grid", "ladder"},
    {ACT_SWEEP, "sweep", {'O'}, "open a sweep directory in the sweep viewer (r there runs a cell)", NULL},
    {ACT_UP, "up", {KEY_UP, 'k'}, "select the previous run in the run list", NULL},
    {ACT_DOWN, "down", {KEY_DOWN, 'j'}, "select the next run in the run list", NULL},
    {ACT_SHOW, "show", {' '}, "show / hide the selected run's curve on the plot", NULL},
    {ACT_COMPARE, "compare", {'c'}, "mark the selected run for comparison (two marks open it)", "cmp"},
    {ACT_TAB, "panels", {'\t'}, "cycle the side panels that do not fit on screen", "panels"},
    {ACT_GLYPHS, "glyphs", {'g'}, "cycle plot glyphs: braille, block, ascii", NULL},
    {ACT_XAXIS, "xaxis", {'X'}, "plot x axis: iterations, log iterations, evaluations, time", NULL},
    {ACT_NOTIFY, "notify", {'B'}, "bell and terminal title when a run ends: on / off", NULL},
    {ACT_MOUSE, "mouse", {'M'}, "mouse on/off (click: select a run / hide its legend curve)", NULL},
    {ACT_PGUP, "page_up", {KEY_PPAGE}, "scroll a view one page up (no view: a page up the run list)", NULL},
    {ACT_PGDN, "page_down", {KEY_NPAGE}, "scroll a view one page down (no view: a page down the run list)", NULL},
    {ACT_SAVE, "save", {'S'}, "save next-run settings, display and keys to the config file", NULL},
    {ACT_HELP, "help", {'?', 'h', KEY_F(1)}, "this help", "help"},
    {ACT_REDRAW, "redraw", {CTRL('l')}, "redraw the screen", NULL},
    {ACT_CLOSE, "close", {27}, "close help / comparison / dialog", NULL},
    {ACT_QUIT, "quit", {'q'}, "quit (cancels a running run first); Ctrl-C: exit 130", "quit"},
};
const int tui_n_keys = (int)(sizeof tui_keys / sizeof tui_keys[0]);

const tui_key *keys_row(tui_action act)
{
    for (int i = 0; i < tui_n_keys; i++)
        if (tui_keys[i].act == act) return &tui_keys[i];
    return NULL;
}

void keys_default(tui_keymap *km)
{
    memset(km, 0, sizeof *km);
    for (int i = 0; i < tui_n_keys; i++) memcpy(km->keys[tui_keys[i].act], tui_keys[i].keys, sizeof tui_keys[i].keys);
}

/* Terminals send several codes for what people think of as one key. */
static int keys_canon(int ch)
{
    if (ch == '\n' || ch == KEY_ENTER) return '\r';
    if (ch == 127) return KEY_BACKSPACE;
    return ch;
}

tui_action keys_lookup(const tui_keymap *km, int ch)
{
    ch = keys_canon(ch);
    if (ch == 0) return ACT_NONE;
    for (int a = 1; a < ACT_N; a++)
        for (int j = 0; j < TUI_KEYS_PER_ACT && km->keys[a][j]; j++)
            if (km->keys[a][j] == ch) return (tui_action)a;
    return ACT_NONE;
}

tui_action keys_action_parse(const char *name)
{
    for (int i = 0; i < tui_n_keys; i++)
        if (!strcmp(tui_keys[i].name, name)) return tui_keys[i].act;
    return ACT_NONE;
}

static const struct {
    const char *name;
    int key;
} keys_named[] = {
    {"Enter", '\r'},  {"Space", ' '},      {"Tab", '\t'},       {"Esc", 27},          {"Backspace", KEY_BACKSPACE},
    {"Up", KEY_UP},   {"Down", KEY_DOWN},  {"Left", KEY_LEFT},  {"Right", KEY_RIGHT}, {"Home", KEY_HOME},
    {"End", KEY_END}, {"PgUp", KEY_PPAGE}, {"PgDn", KEY_NPAGE}, {"Ins", KEY_IC},      {"Del", KEY_DC},
};
#define KEYS_N_NAMED ((int)(sizeof keys_named / sizeof keys_named[0]))

int keys_parse(const char *s, int *key)
{
    size_t len = strlen(s);
    *key = 0;
    if (len == 1 && s[0] > ' ' && s[0] < 127) {
        *key = s[0];
        return 0;
    }
    for (int i = 0; i < KEYS_N_NAMED; i++)
        if (!strcasecmp(s, keys_named[i].name)) {
            *key = keys_named[i].key;
            return 0;
        }
    if (len == 3 && (s[0] == 'C' || s[0] == 'c') && s[1] == '-') {
        int c = s[2] | 0x20;                                                         /* lower case */
        if (s[2] == '\\' || c == 'c' || c == 'z' || c == 's' || c == 'q') return -2; /* signals, flow control */
        if (c < 'a' || c > 'z') return -1;
        *key = keys_canon(CTRL(c)); /* C-m and C-j are Enter, C-i is Tab */
        return 0;
    }
    if ((s[0] == 'F' || s[0] == 'f') && len >= 2 && len <= 3) {
        int n = 0;
        for (size_t i = 1; i < len; i++) {
            if (s[i] < '0' || s[i] > '9') return -1;
            n = n * 10 + (s[i] - '0');
        }
        if (n < 1 || n > 12) return -1;
        *key = KEY_F(n);
        return 0;
    }
    return -1;
}

const char *keys_name(int key, char *buf, size_t n)
{
    for (int i = 0; i < KEYS_N_NAMED; i++)
        if (keys_named[i].key == key) {
            snprintf(buf, n, "%s", keys_named[i].name);
            return buf;
        }
    if (key > ' ' && key < 127)
        snprintf(buf, n, "%c", key);
    else if (key >= 1 && key <= 26)
        snprintf(buf, n, "C-%c", 'a' + key - 1);
    else if (key >= KEY_F(1) && key <= KEY_F(12))
        snprintf(buf, n, "F%d", key - KEY_F(0));
    else
        snprintf(buf, n, "#%d", key);
    return buf;
}

const char *keys_label(const tui_keymap *km, tui_action act, int all, const char *sep, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    if (act <= ACT_NONE || act >= ACT_N || !km->keys[act][0]) {
        snprintf(buf, n, "(unbound)");
        return buf;
    }
    for (int j = 0; j < TUI_KEYS_PER_ACT && km->keys[act][j] && used < n; j++) {
        char one[16];
        keys_name(km->keys[act][j], one, sizeof one);
        used += (size_t)snprintf(buf + used, n - used, "%s%s", j ? sep : "", one);
        if (!all) break;
    }
    return buf;
}
