/* sweep_view.h - the TUI's sweep viewer (`dillsue tui --sweep DIR`,
 * sweep_view.c): a screen of its own that watches a sweep directory. */
#ifndef DS_SWEEP_VIEW_H
#define DS_SWEEP_VIEW_H
#include <signal.h>
#include <stddef.h>

/* dillsue tui --sweep DIR [--ascii] [--delay MS] (options read by the one
 * option table in tui_main.c): the sweep viewer on its own screen. */
int sweep_view_run(const char *dir, int ascii, int delay_ms);
/* The viewer on the main TUI's screen (curses already started): returns 0
 * when the user goes back (q or Escape), 1 if *quit was set meanwhile, -1 if
 * dir is not a readable sweep directory (err says why; nothing was drawn).
 * A FIFO, a missing path or a file in the way is refused at once, never
 * opened. idle(ctx) runs a few times a second while the viewer shows. The
 * caller restores its own input mode (the viewer sets timeout(100)). */
int sweep_view_embedded(const char *dir, int ascii, volatile sig_atomic_t *quit, void (*idle)(void *), void *ctx,
                        char *err, size_t n);
/* Histogram bin of v over nbins log-spaced bins, two per decade from lo
 * (values below lo in bin 0, above the top in the last); -1 if v <= 0 or
 * not finite. */
int sweep_view_bin(double v, double lo, int nbins);
/* One glyph per bin, heights relative to the largest count (any nonzero
 * count shows): block elements, or " .:-=+*#" with ascii. */
void sweep_view_hist_text(const int *counts, int nbins, int ascii, char *out, size_t n);
#endif
