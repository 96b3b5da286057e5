/* termcheck.c - term_check (termcheck.h). Its own file: <term.h> defines
 * macros such as `lines` and `columns` that the drawing code must not see. */
#include "termcheck.h"

#include <curses.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <term.h>
#include <unistd.h>

int term_check(char *why, size_t n)
{
    const char *t = getenv("TERM");
    int err = 0;
    if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
        snprintf(why, n, "TERM=%s is not a terminal type this system knows (terminfo)", t ? t : "");
        return -1;
    }
    const char *cup = tigetstr("cup");
    int ok = cup && cup != (const char *)-1;
    del_curterm(cur_term); /* initscr sets the terminal up again */
    if (!ok) {
        snprintf(why, n,
                 "the terminal (TERM=%s) cannot position the cursor; use one that can (xterm, screen, "
                 "tmux) or `dillsue solve`",
                 t ? t : "");
        return -1;
    }
    return 0;
}

int term_gone(int revents)
{
    if (!revents) {
        struct pollfd pf = {STDIN_FILENO, POLLIN, 0};
        if (poll(&pf, 1, 0) <= 0) return 0;
        revents = pf.revents;
    }
    return (revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}
