/* sweep_view.h - the TUI's sweep viewer (`dillsue tui --sweep DIR`,
 * sweep_view.c): a screen of its own that watches a sweep directory. */
#ifndef DS_SWEEP_VIEW_H
#define DS_SWEEP_VIEW_H
#include <stddef.h>

/* argv as given to `dillsue tui` (argv[0] "tui"), holding --sweep DIR and
 * optionally --ascii and --delay MS. Returns the exit code. */
int sweep_view_main(int argc, char **argv);
/* Histogram bin of v over nbins log-spaced bins, two per decade from lo
 * (values below lo in bin 0, above the top in the last); -1 if v <= 0 or
 * not finite. */
int sweep_view_bin(double v, double lo, int nbins);
/* One glyph per bin, heights relative to the largest count (any nonzero
 * count shows): block elements, or " .:-=+*#" with ascii. */
void sweep_view_hist_text(const int *counts, int nbins, int ascii, char *out, size_t n);
#endif
