/* termcheck.h - whether the terminal can hold a full-screen UI, asked before
 * curses takes it: TERM=dumb (no cursor addressing) started a TUI that drew
 * only its bottom line, blind to the user. */
#ifndef TUI_TERMCHECK_H
#define TUI_TERMCHECK_H

#include <stddef.h>

/* 0 if TERM names a terminal that can position the cursor; else -1 with why
 * filled ("the terminal (TERM=dumb) cannot position the cursor"). */
int term_check(char *why, size_t n);

#endif
