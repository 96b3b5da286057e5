/* sweep_view.h - the TUI's sweep viewer (`dillsue tui --sweep DIR`,
 * sweep_view.c): a screen of its own that watches a sweep directory. */
#ifndef DS_SWEEP_VIEW_H
#define DS_SWEEP_VIEW_H
#include <signal.h>
#include <stddef.h>

#include "dillsue.h"

/* A cell the user asked to open as a run of the main TUI (r on a cell):
 * everything `dillsue solve` needs to compute exactly that cell. */
typedef struct sweep_cell_request {
    long cell;                   /* its index in the grid */
    char net[1024], trips[1024]; /* the sweep's network; trips "" = the sibling of net */
    int k;                       /* scenario (0 = the network unchanged) */
    unsigned long long seed;
    ds_config cfg;    /* the cell's run configuration (threads 0: the caller picks, flows do not depend on it) */
    char flows[1400]; /* the sweep's flow file of the cell, "" where the sweep wrote none */
    char label[200];  /* "cell 17: k 2 tau 10 dsp newton" */
    char dir[1024];   /* the sweep directory */
} sweep_cell_request;
#define SWEEP_VIEW_OPEN_CELL 3 /* the viewer returned to open *req as a run */

/* dillsue tui --sweep DIR [--ascii] [--delay MS] (options read by the one
 * option table in tui_main.c): the sweep viewer on its own screen. Returns
 * the exit status (0, or 2 where dir is no sweep), or SWEEP_VIEW_OPEN_CELL
 * with *req filled when the user pressed r on a cell: the screen is left in
 * curses' shell mode (endwin), for the main TUI to take over. */
int sweep_view_run(const char *dir, int ascii, int delay_ms, sweep_cell_request *req);
/* The viewer on the main TUI's screen (curses already started): returns 0
 * when the user goes back (q or Escape), 1 if *quit was set meanwhile,
 * SWEEP_VIEW_OPEN_CELL with *req filled when the user pressed r on a cell, -1 if
 * dir is not a readable sweep directory (err says why; nothing was drawn).
 * A FIFO, a missing path or a file in the way is refused at once, never
 * opened. idle(ctx) runs a few times a second while the viewer shows. The
 * caller restores its own input mode (the viewer sets timeout(100)). */
int sweep_view_embedded(const char *dir, int ascii, volatile sig_atomic_t *quit, void (*idle)(void *), void *ctx,
                        sweep_cell_request *req, char *err, size_t n);
/* Histogram bin of v over nbins log-spaced bins, two per decade from lo
 * (values below lo in bin 0, above the top in the last); -1 if v <= 0 or
 * not finite. */
int sweep_view_bin(double v, double lo, int nbins);
/* Cells finished per second over the last minute before now (epoch s): the
 * cells c < n with done[c] whose res[c].t_end (epoch s) is within 60 s, over
 * the seconds since the first of them started (t_end - wall_s) when that is
 * under 60 s (at least 1 s: a young sweep's rate, not a sixtieth of it). */
struct sweep_result;
double sweep_view_recent_rate(const struct sweep_result *res, const unsigned char *done, long n, double now);
/* One glyph per bin, heights relative to the largest count (any nonzero
 * count shows): block elements, or " .:-=+*#" with ascii. */
void sweep_view_hist_text(const int *counts, int nbins, int ascii, char *out, size_t n);
#endif
