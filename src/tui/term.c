/* term.c - terminal set-up and restore, signals, colour roles.
 *
 * Signal handlers only set a flag and write a byte to the wake pipe. Crash
 * signals restore the terminal before the process dies so a crash in the
 * engine leaves a readable message and not a garbled screen. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui.h"

volatile sig_atomic_t tui_sig_quit = 0;
static volatile sig_atomic_t term_active = 0;
static const tui_session *term_session = NULL;

static void on_quit_signal(int sig)
{
    tui_sig_quit = sig; /* the exit status is 128 + sig, as shells expect */
    if (term_session) session_wake(term_session);
}

static void on_crash(int sig)
{
    static const char msg[] = "\ndillsue: crashed (signal ";
    char num[16];
    int n = 0, v = sig;
    if (term_active) endwin(); /* not async-signal-safe, but the process is dying anyway */
    term_active = 0;
    do {
        num[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v && n < 15);
    if (write(2, msg, sizeof msg - 1) < 0) {}
    while (n--)
        if (write(2, &num[n], 1) < 0) {}
    if (write(2, "); the terminal was restored\n", 29) < 0) {}
    signal(sig, SIG_DFL);
    raise(sig);
}

void term_install_signals(tui_session *s)
{
    struct sigaction sa;
    term_session = s;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_quit_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sa.sa_handler = on_crash;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGABRT, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGFPE, &sa, NULL);
    sigaction(SIGILL, &sa, NULL);
}

/* Pair numbers are role numbers; -1 keeps the terminal's own background. */
static const short role_fg[ROLE_N] = {
    [ROLE_NORMAL] = -1,
    [ROLE_TITLE] = COLOR_CYAN,
    [ROLE_LABEL] = -1,
    [ROLE_CURVE] = COLOR_GREEN,
    [ROLE_CURVE_OLD] = COLOR_BLUE,
    [ROLE_CURVE_OLD2] = COLOR_MAGENTA,
    [ROLE_CURVE_OLD3] = COLOR_CYAN,
    [ROLE_TOL] = COLOR_RED,
    [ROLE_ACCEPT] = COLOR_GREEN,
    [ROLE_REJECT] = COLOR_RED,
    [ROLE_WARN] = COLOR_YELLOW,
    [ROLE_SELECT] = -1,
    [ROLE_STATUS] = -1,
    [ROLE_DIM] = -1,
};

int term_start(tui_app *app, int want_color)
{
    const char *nc = getenv("NO_COLOR");
    /* the standalone sweep viewer may have had curses (r on a cell opens the
     * main TUI after it): initscr once a process, then refresh resumes */
    if (stdscr) {
        reset_prog_mode();
        refresh();
    } else if (!initscr())
        return -1;
    term_active = 1;
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);
    /* Home and End as tmux and screen send them, whatever TERM says, so that
     * they never arrive as Esc (closing a view) followed by stray keys */
    define_key("\033[1~", KEY_HOME);
    define_key("\033[4~", KEY_END);
    define_key("\033[H", KEY_HOME);
    define_key("\033[F", KEY_END);
    app->color = 0;
    if (want_color && !(nc && *nc) && has_colors()) {
        start_color();
        use_default_colors();
        for (short i = 1; i < ROLE_N; i++) init_pair(i, role_fg[i], -1);
        app->color = 1;
    }
    return 0;
}

void term_stop(void)
{
    if (!term_active) return;
    term_active = 0;
    curs_set(1);
    endwin();
}

attr_t term_attr(const tui_app *app, tui_role role)
{
    /* Monochrome: bold and reverse carry the meaning, dim marks old curves. */
    static const attr_t mono[ROLE_N] = {
        [ROLE_TITLE] = A_BOLD,     [ROLE_CURVE] = A_BOLD,     [ROLE_CURVE_OLD] = A_DIM,
        [ROLE_CURVE_OLD2] = A_DIM, [ROLE_CURVE_OLD3] = A_DIM, [ROLE_TOL] = A_NORMAL,
        [ROLE_ACCEPT] = A_NORMAL,  [ROLE_REJECT] = A_BOLD,    [ROLE_WARN] = A_BOLD | A_REVERSE,
        [ROLE_SELECT] = A_REVERSE, [ROLE_STATUS] = A_REVERSE, [ROLE_DIM] = A_DIM,
        [ROLE_LABEL] = A_BOLD,
    };
    if (!app->color) return mono[role];
    switch (role) {
    case ROLE_SELECT: return A_REVERSE;
    case ROLE_STATUS: return A_REVERSE;
    case ROLE_DIM: return A_DIM;
    case ROLE_NORMAL: return A_NORMAL;
    case ROLE_TITLE:
    case ROLE_WARN:
    case ROLE_LABEL: return COLOR_PAIR(role) | A_BOLD;
    default: return COLOR_PAIR(role);
    }
}
