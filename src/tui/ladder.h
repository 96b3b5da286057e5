/* ladder.h - the solver ladder's grid (view_ladder.c) without curses: runs
 * placed in rows by tau (mu where given; tau rows first, each ascending)
 * and in columns by solver, or by solver and filter when the filters
 * differ, columns in order of first appearance. */
#ifndef TUI_LADDER_H
#define TUI_LADDER_H
#include "session.h"

#define LADDER_MAX_AXIS 16 /* distinct taus / columns a grid shows */

typedef struct ladder_grid {
    double disp[LADDER_MAX_AXIS]; /* row: tau, or mu where use_mu */
    int use_mu[LADDER_MAX_AXIS];
    int solver[LADDER_MAX_AXIS], filter[LADDER_MAX_AXIS]; /* column */
    int nrow, ncol;
    int by_filter;                              /* the runs' filters differ: a column per solver and filter */
    int dup;                                    /* a cell had several runs (it holds the latest) */
    int cut;                                    /* more than LADDER_MAX_AXIS rows or columns: the rest left out */
    int cell[LADDER_MAX_AXIS][LADDER_MAX_AXIS]; /* index into runs, -1 = none */
} ladder_grid;

/* Place runs[0..n-1] (in start order) into g. */
void ladder_grid_build(const tui_run *const *runs, int n, ladder_grid *g);
#endif
