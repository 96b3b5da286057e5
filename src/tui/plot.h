/* plot.h - residual plot maths and glyphs, no curses.
 *
 * A canvas of cols x rows terminal cells, each split into sub-cells ("dots"):
 * 2x4 for braille, 1x2 for half blocks, 1x1 for ASCII. The y axis is log10 of
 * the value, aligned to whole decades so that labels read 1e0, 1e-3, ...
 * Values that cannot be placed on a log axis (NaN, +-inf, <= 0) get their own
 * glyph in their column instead of a wrong point. */
#ifndef TUI_PLOT_H
#define TUI_PLOT_H
#include <stddef.h>

typedef enum { PLOT_BRAILLE = 0, PLOT_BLOCK, PLOT_ASCII, PLOT_GLYPHSET_N } plot_glyphset;

typedef enum { PLOT_SP_NONE = 0, PLOT_SP_TOL, PLOT_SP_NAN, PLOT_SP_INF, PLOT_SP_NONPOS } plot_special;

typedef struct plot_cell {
    unsigned char bits;    /* dots set, layout given by plot_dot_bit */
    unsigned char special; /* plot_special; wins over bits */
    signed char series;    /* index of the series that drew last, -1 none */
    char mark;             /* ASCII mark of that series */
} plot_cell;

typedef struct plot_canvas {
    int cols, rows;
    plot_glyphset gs;
    int sub_x, sub_y; /* dots per cell */
    double ylo, yhi;  /* log10 range, whole decades, ylo < yhi */
    double xmax;      /* x range is [0, xmax], xmax > 0 */
    plot_cell *cell;  /* rows * cols, row 0 at the top */
} plot_canvas;

typedef struct plot_series {
    const double *y; /* raw values (gap_rel), plotted as log10 */
    const double *x; /* x of each value; NULL means x[i] = i */
    size_t n;
    int series; /* index stored in cells (0..127) */
    char mark;  /* ASCII glyph for this series */
} plot_series;

const char *plot_glyphset_name(plot_glyphset gs);
/* Dots per cell of a glyph set. */
void plot_glyph_dims(plot_glyphset gs, int *sub_x, int *sub_y);

/* Decade-aligned log10 range covering finite positive values in
 * [vmin, vmax] and tol (ignored if <= 0); at least one decade wide.
 * With no finite positive value at all the range is [-8, 0]. */
void plot_decade_range(double vmin, double vmax, double tol, double *lo, double *hi);
/* Smallest 1, 2 or 5 times a power of ten >= v (v <= 1 gives 1). */
double plot_nice_max(double v);
/* Smallest 1, 2 or 5 times a power of ten >= v for any v > 0 (0.0043 -> 0.005);
 * 1 for v <= 0 or not finite. */
double plot_nice_up(double v);

/* Dot row (0 = top) of log10 value lv in a canvas of nsub dot rows. */
int plot_y_to_dot(double lv, double lo, double hi, int nsub);
/* Dot column of x in [0, xmax] over nsub dot columns. */
int plot_x_to_dot(double x, double xmax, int nsub);

/* Rows (0 = top, in cells) at which to label decades, at least two rows
 * apart; decade[k] is the exponent labelled at row[k]. Returns the count. */
int plot_decade_labels(double lo, double hi, int rows, plot_glyphset gs, int *decade, int *row, int max);
/* "1e-7", "1e0", "1e3"; "e-120" below 1e-99 (5 characters at most). */
void plot_format_decade(int d, char *buf, size_t n);

/* Canvas life cycle; returns -1 if out of memory. */
int plot_canvas_init(plot_canvas *c, int cols, int rows, plot_glyphset gs, double ylo, double yhi, double xmax);
void plot_canvas_free(plot_canvas *c);
void plot_canvas_clear(plot_canvas *c);
/* Horizontal tolerance line at value tol (> 0). */
void plot_canvas_hline(plot_canvas *c, double tol);
/* Draw a series, consecutive points joined by straight lines; values above
 * the axis get the +inf glyph (off scale) on the top row. Returns the
 * cell (*end_col, *end_row) of its last drawable point, or -1s if none. */
void plot_canvas_series(plot_canvas *c, const plot_series *s, int *end_col, int *end_row);
/* Set one dot (out-of-range dots ignored). */
void plot_canvas_dot(plot_canvas *c, int dx, int dy, int series, char mark);

/* Bit of dot (dx, dy) inside a cell for a glyph set. */
unsigned plot_dot_bit(plot_glyphset gs, int dx, int dy);
/* UTF-8 of the braille character with these dot bits (U+2800 + bits). */
void plot_braille_utf8(unsigned bits, char out[4]);
/* Printable glyph (UTF-8 or ASCII) of a cell; "" is never returned: an empty
 * cell is " ". buf must hold 8 bytes. */
const char *plot_cell_glyph(const plot_cell *cell, plot_glyphset gs, char buf[8]);
/* Glyph of a special value in a glyph set. */
const char *plot_special_glyph(plot_special sp, plot_glyphset gs);
#endif
