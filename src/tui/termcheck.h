/* termcheck.h - whether the terminal can hold a full-screen UI, asked before
 * curses takes it: TERM=dumb (no cursor addressing) started a TUI that drew
 * only its bottom line, blind to the user. */
#ifndef TUI_TERMCHECK_H
#define TUI_TERMCHECK_H

#include <stddef.h>

/* 0 if TERM names a terminal that can position the cursor; else -1 with why
 * filled ("the terminal (TERM=dumb) cannot position the cursor"). */
int term_check(char *why, size_t n);

/* 1 where the terminal has gone: an SSH connection or a tmux server closed
 * while no SIGHUP reached the program (the session's leader, a wrapper in
 * between, caught it). Reads then fail at once, and the frame loop and the
 * sweep viewer's getch spun at 100% of a core for ever, the run log never
 * written; the callers quit as on SIGHUP. revents of a poll on stdin, or 0
 * to poll it now. */
int term_gone(int revents);

#endif
