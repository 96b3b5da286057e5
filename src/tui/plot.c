/* plot.c - log-scale residual plot on a dot canvas (no curses).
 *
 * Mapping, decade labels and glyph tables live here so they can be tested
 * without a terminal; src/tui/panel_residuals.c only copies cells to the
 * screen. */
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const plot_gs_names[PLOT_GLYPHSET_N] = {"braille", "block", "ascii"};

const char *plot_glyphset_name(plot_glyphset gs) { return gs >= 0 && gs < PLOT_GLYPHSET_N ? plot_gs_names[gs] : "?"; }

void plot_glyph_dims(plot_glyphset gs, int *sub_x, int *sub_y)
{
    switch (gs) {
    case PLOT_BRAILLE:
        *sub_x = 2;
        *sub_y = 4;
        break;
    case PLOT_BLOCK:
        *sub_x = 1;
        *sub_y = 2;
        break;
    default:
        *sub_x = 1;
        *sub_y = 1;
        break;
    }
}

static int usable(double v) { return isfinite(v) && v > 0; }

void plot_decade_range(double vmin, double vmax, double tol, double *lo, double *hi)
{
    double a = INFINITY, b = -INFINITY;
    if (usable(vmin)) a = b = log10(vmin);
    if (usable(vmax)) {
        double l = log10(vmax);
        a = fmin(a, l);
        b = fmax(b, l);
    }
    if (usable(tol)) {
        double l = log10(tol);
        a = fmin(a, l);
        b = fmax(b, l);
    }
    if (!isfinite(a)) {
        *lo = -8;
        *hi = 0;
        return;
    }
    /* A value exactly on a decade sits on the edge; nudge so 1e-7 gets the
     * decade below it as room and the line is not glued to the frame. */
    *lo = floor(a - 1e-9);
    *hi = ceil(b + 1e-9);
    if (*hi <= *lo) *hi = *lo + 1;
}

double plot_nice_max(double v)
{
    double p, m;
    if (!(v > 1)) return 1;
    p = pow(10, floor(log10(v)));
    for (m = 1; m <= 10; m = m == 1 ? 2 : m == 2 ? 5 : 10)
        if (m * p >= v - 1e-9 * p) return m * p;
    return 10 * p;
}

double plot_nice_up(double v)
{
    double p;
    if (!(v > 0) || !isfinite(v)) return 1;
    p = pow(10, floor(log10(v)));
    for (double m = 1; m <= 10; m = m == 1 ? 2 : m == 2 ? 5 : 10)
        if (m * p >= v * (1 - 1e-12)) return m * p;
    return 10 * p;
}

int plot_y_to_dot(double lv, double lo, double hi, int nsub)
{
    double f = (hi - lv) / (hi - lo);
    int d = (int)lround(f * (nsub - 1));
    return d < 0 ? 0 : d >= nsub ? nsub - 1 : d;
}

int plot_x_to_dot(double x, double xmax, int nsub)
{
    int d = (int)lround(x / xmax * (nsub - 1));
    return d < 0 ? 0 : d >= nsub ? nsub - 1 : d;
}

int plot_decade_labels(double lo, double hi, int rows, plot_glyphset gs, int *decade, int *row, int max)
{
    int sx, sy, n = 0, d, last = -100, step = 1, ndec;
    plot_glyph_dims(gs, &sx, &sy);
    ndec = (int)(hi - lo) + 1;
    /* Labels need a free row between them; thin out whole decades evenly. */
    while (step < ndec && (ndec + step - 1) / step > (rows + 1) / 2) step++;
    for (d = (int)hi; d >= (int)lo && n < max; d--) {
        int r;
        if (((int)hi - d) % step) continue;
        r = plot_y_to_dot(d, lo, hi, rows * sy) / sy;
        if (r - last < 2) continue;
        decade[n] = d;
        row[n] = r;
        last = r;
        n++;
    }
    return n;
}

void plot_format_decade(int d, char *buf, size_t n)
{
    /* at most 5 characters, the axis' label column: "1e-120" was cut to "1e-12",
     * a different decade (a run to tol 1e-300 labelled 1e-120 as 1e-12) */
    if (d > -100 && d < 1000)
        snprintf(buf, n, "1e%d", d);
    else
        snprintf(buf, n, "e%d", d);
}

int plot_canvas_init(plot_canvas *c, int cols, int rows, plot_glyphset gs, double ylo, double yhi, double xmax)
{
    memset(c, 0, sizeof *c);
    if (cols < 1) cols = 1;
    if (rows < 1) rows = 1;
    c->cell = malloc((size_t)cols * rows * sizeof *c->cell);
    if (!c->cell) return -1;
    c->cols = cols;
    c->rows = rows;
    c->gs = gs;
    plot_glyph_dims(gs, &c->sub_x, &c->sub_y);
    c->ylo = ylo;
    c->yhi = yhi > ylo ? yhi : ylo + 1;
    c->xmax = xmax > 0 ? xmax : 1;
    plot_canvas_clear(c);
    return 0;
}

void plot_canvas_free(plot_canvas *c)
{
    free(c->cell);
    c->cell = NULL;
}

void plot_canvas_clear(plot_canvas *c)
{
    int i;
    for (i = 0; i < c->cols * c->rows; i++) c->cell[i] = (plot_cell){0, PLOT_SP_NONE, -1, ' '};
}

unsigned plot_dot_bit(plot_glyphset gs, int dx, int dy)
{
    /* Unicode braille numbers dots 1-2-3 down the left column, 4-5-6 down
     * the right, then 7 and 8 for the bottom row (added later, hence 0x40/0x80). */
    static const unsigned braille[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
    if (gs == PLOT_BRAILLE) return braille[dy & 3][dx & 1];
    if (gs == PLOT_BLOCK) return dy ? 2u : 1u;
    return 1u;
}

void plot_canvas_dot(plot_canvas *c, int dx, int dy, int series, char mark)
{
    plot_cell *cell;
    if (dx < 0 || dy < 0 || dx >= c->cols * c->sub_x || dy >= c->rows * c->sub_y) return;
    cell = &c->cell[(dy / c->sub_y) * c->cols + dx / c->sub_x];
    cell->bits |= (unsigned char)plot_dot_bit(c->gs, dx % c->sub_x, dy % c->sub_y);
    cell->series = (signed char)series;
    cell->mark = mark;
    if (cell->special == PLOT_SP_TOL) cell->special = PLOT_SP_NONE;
}

static void special_at(plot_canvas *c, int col, int row, plot_special sp, int series, char mark)
{
    plot_cell *cell = &c->cell[row * c->cols + col];
    cell->special = (unsigned char)sp;
    cell->series = (signed char)series;
    cell->mark = mark;
}

void plot_canvas_hline(plot_canvas *c, double tol)
{
    int row, col;
    if (!usable(tol)) return;
    row = plot_y_to_dot(log10(tol), c->ylo, c->yhi, c->rows * c->sub_y) / c->sub_y;
    for (col = 0; col < c->cols; col++) {
        plot_cell *cell = &c->cell[row * c->cols + col];
        if (!cell->bits && cell->special == PLOT_SP_NONE) cell->special = PLOT_SP_TOL;
    }
}

static void line(plot_canvas *c, int x0, int y0, int x1, int y1, int series, char mark)
{
    int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
    int dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
    int err = dx + dy;
    for (;;) {
        plot_canvas_dot(c, x0, y0, series, mark);
        if (x0 == x1 && y0 == y1) break;
        int e2 = 2 * err;
        if (e2 >= dy) {
            err += dy;
            x0 += sx;
        }
        if (e2 <= dx) {
            err += dx;
            y0 += sy;
        }
    }
}

void plot_canvas_series(plot_canvas *c, const plot_series *s, int *end_col, int *end_row)
{
    int nx = c->cols * c->sub_x, ny = c->rows * c->sub_y;
    int have_prev = 0, px = 0, py = 0;
    size_t i;
    *end_col = *end_row = -1;
    for (i = 0; i < s->n; i++) {
        double x = s->x ? s->x[i] : (double)i, v = s->y[i];
        int dx;
        if (x < 0 || x > c->xmax) continue;
        dx = plot_x_to_dot(x, c->xmax, nx);
        if (!usable(v)) {
            /* NaN and +inf sit on the top row, zero/negative on the bottom
             * row, as their own glyph; the curve is broken there. */
            int row = (isnan(v) || v > 0) ? 0 : c->rows - 1;
            plot_special sp = isnan(v) ? PLOT_SP_NAN : v > 0 ? PLOT_SP_INF : PLOT_SP_NONPOS;
            special_at(c, dx / c->sub_x, row, sp, s->series, s->mark);
            *end_col = dx / c->sub_x;
            *end_row = row;
            have_prev = 0;
            continue;
        }
        if (log10(v) > c->yhi + 1e-9) {
            /* above the axis: drawn like +inf (off scale high), curve broken */
            special_at(c, dx / c->sub_x, 0, PLOT_SP_INF, s->series, s->mark);
            *end_col = dx / c->sub_x;
            *end_row = 0;
            have_prev = 0;
            continue;
        }
        int dy = plot_y_to_dot(log10(v), c->ylo, c->yhi, ny);
        if (have_prev)
            line(c, px, py, dx, dy, s->series, s->mark);
        else
            plot_canvas_dot(c, dx, dy, s->series, s->mark);
        px = dx;
        py = dy;
        have_prev = 1;
        *end_col = dx / c->sub_x;
        *end_row = dy / c->sub_y;
    }
}

void plot_braille_utf8(unsigned bits, char out[4])
{
    unsigned cp = 0x2800u + (bits & 0xffu);
    out[0] = (char)(0xe0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[2] = (char)(0x80 | (cp & 0x3f));
    out[3] = 0;
}

const char *plot_special_glyph(plot_special sp, plot_glyphset gs)
{
    int u = gs != PLOT_ASCII;
    switch (sp) {
    case PLOT_SP_TOL: return u ? "\xe2\x94\x84" : "-"; /* U+2504 light triple dash */
    case PLOT_SP_NAN: return "?";
    case PLOT_SP_INF: return u ? "\xe2\x86\x91" : "^";    /* U+2191 up arrow */
    case PLOT_SP_NONPOS: return u ? "\xe2\x86\x93" : "v"; /* U+2193 down arrow */
    default: return " ";
    }
}

const char *plot_cell_glyph(const plot_cell *cell, plot_glyphset gs, char buf[8])
{
    if (cell->special != PLOT_SP_NONE) return plot_special_glyph((plot_special)cell->special, gs);
    if (!cell->bits) return " ";
    switch (gs) {
    case PLOT_BRAILLE: plot_braille_utf8(cell->bits, buf); return buf;
    case PLOT_BLOCK:
        /* U+2580 upper half, U+2584 lower half, U+2588 full block */
        return cell->bits == 1 ? "\xe2\x96\x80" : cell->bits == 2 ? "\xe2\x96\x84" : "\xe2\x96\x88";
    default:
        buf[0] = cell->mark ? cell->mark : '*';
        buf[1] = 0;
        return buf;
    }
}
