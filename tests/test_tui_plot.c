/* test_tui_plot.c - residual plot maths: scaling, decade labels, glyphs. */
#include <math.h>

#include "plot.h"
#include "tcheck.h"

int main(void)
{
    double lo, hi;
    char buf[8];

    tc_begin("tui_plot_decade_range");
    plot_decade_range(3e-8, 0.5, 1e-7, &lo, &hi);
    TC_NEAR(lo, -8, 0);
    TC_NEAR(hi, 0, 0);
    plot_decade_range(2e-3, 2e-3, 0, &lo, &hi); /* one value: one decade around it */
    TC_NEAR(lo, -3, 0);
    TC_NEAR(hi, -2, 0);
    plot_decade_range(NAN, INFINITY, -1, &lo, &hi); /* nothing drawable: a default */
    TC_CHECK(lo < hi && lo == floor(lo) && hi == floor(hi), "default range %g..%g", lo, hi);
    plot_decade_range(1e-7, 1e-7, 1e-7, &lo, &hi); /* exact decade still gets room */
    TC_CHECK(lo < -7 + 1e-12 && hi > lo, "range %g..%g", lo, hi);
    plot_decade_range(5.0, 50.0, 1e-7, &lo, &hi); /* values above 1 too */
    TC_NEAR(hi, 2, 0);
    TC_NEAR(lo, -8, 0); /* tolerance exactly on 1e-7 gets the decade below as room */
    tc_end();

    tc_begin("tui_plot_scaling");
    /* top of range -> dot 0, bottom -> last dot, monotone in between */
    TC_CHECK(plot_y_to_dot(0, -8, 0, 40) == 0, "top");
    TC_CHECK(plot_y_to_dot(-8, -8, 0, 40) == 39, "bottom");
    TC_CHECK(plot_y_to_dot(-4, -8, 0, 41) == 20, "middle decade at the middle dot");
    TC_CHECK(plot_y_to_dot(3, -8, 0, 40) == 0 && plot_y_to_dot(-30, -8, 0, 40) == 39, "clamped");
    {
        int k, prev = -1, mono = 1;
        for (k = 0; k <= 800; k++) {
            int d = plot_y_to_dot(-8.0 * k / 800, -8, 0, 96);
            if (d < prev) mono = 0;
            prev = d;
        }
        TC_CHECK(mono, "y mapping not monotone");
    }
    TC_CHECK(plot_x_to_dot(0, 100, 81) == 0 && plot_x_to_dot(100, 100, 81) == 80 && plot_x_to_dot(50, 100, 81) == 40,
             "x mapping");
    TC_NEAR(plot_nice_max(0), 1, 0);
    TC_NEAR(plot_nice_max(7), 10, 0);
    TC_NEAR(plot_nice_max(10), 10, 0);
    TC_NEAR(plot_nice_max(11), 20, 0);
    TC_NEAR(plot_nice_max(438), 500, 0);
    TC_NEAR(plot_nice_max(2001), 5000, 0);
    tc_end();

    tc_begin("tui_plot_decade_labels");
    {
        int dec[64], row[64], n, k;
        /* 8 decades over 17 rows: every decade fits with a row between */
        n = plot_decade_labels(-8, 0, 17, PLOT_BRAILLE, dec, row, 64);
        TC_CHECK(n == 9, "%d labels for 9 decades on 17 rows", n);
        TC_CHECK(dec[0] == 0 && row[0] == 0 && dec[n - 1] == -8 && row[n - 1] == 16,
                 "ends: 1e%d at row %d, 1e%d at row %d", dec[0], row[0], dec[n - 1], row[n - 1]);
        /* 16 decades on 10 rows: thinned, still two rows apart, whole decades */
        n = plot_decade_labels(-16, 0, 10, PLOT_ASCII, dec, row, 64);
        TC_CHECK(n >= 2 && n <= 5, "%d labels on 10 rows", n);
        for (k = 1; k < n; k++) {
            TC_CHECK(row[k] - row[k - 1] >= 2, "labels %d and %d on rows %d %d", k - 1, k, row[k - 1], row[k]);
            TC_CHECK(dec[k] < dec[k - 1], "decades not descending");
        }
        /* every label sits on the row its decade maps to */
        n = plot_decade_labels(-10, 1, 20, PLOT_BLOCK, dec, row, 64);
        for (k = 0; k < n; k++)
            TC_CHECK(row[k] == plot_y_to_dot(dec[k], -10, 1, 40) / 2, "1e%d on row %d", dec[k], row[k]);
        plot_format_decade(-7, (char *)buf, sizeof buf);
        TC_CHECK(strcmp(buf, "1e-7") == 0, "format gave %s", buf);
        plot_format_decade(0, (char *)buf, sizeof buf);
        TC_CHECK(strcmp(buf, "1e0") == 0, "format gave %s", buf);
        /* 5 characters at most, the label column: 1e-120 was cut to 1e-12 */
        for (int d = -330; d <= 330; d++) {
            plot_format_decade(d, (char *)buf, sizeof buf);
            TC_CHECK(strlen(buf) <= 5 && atoi(strchr(buf, 'e') + 1) == d, "decade %d formatted %s", d, buf);
        }
    }
    tc_end();

    tc_begin("tui_plot_braille_bits");
    {
        int dx, dy;
        unsigned all = 0;
        for (dx = 0; dx < 2; dx++)
            for (dy = 0; dy < 4; dy++) {
                unsigned b = plot_dot_bit(PLOT_BRAILLE, dx, dy);
                TC_CHECK(b && !(b & (b - 1)) && !(all & b), "dot %d,%d bit %#x", dx, dy, b);
                all |= b;
            }
        TC_CHECK(all == 0xff, "all dots give %#x", all);
        TC_CHECK(plot_dot_bit(PLOT_BRAILLE, 0, 0) == 0x01 && plot_dot_bit(PLOT_BRAILLE, 1, 3) == 0x80 &&
                     plot_dot_bit(PLOT_BRAILLE, 0, 3) == 0x40 && plot_dot_bit(PLOT_BRAILLE, 1, 0) == 0x08,
                 "Unicode dot numbering");
        plot_braille_utf8(0xff, buf);
        TC_CHECK(strcmp(buf, "\xe2\xa3\xbf") == 0, "U+28FF encoded wrongly");
        plot_braille_utf8(0x00, buf);
        TC_CHECK(strcmp(buf, "\xe2\xa0\x80") == 0, "U+2800 encoded wrongly");
        plot_braille_utf8(0x47, buf); /* left column: dots 1,2,3,7 */
        TC_CHECK(strcmp(buf, "\xe2\xa1\x87") == 0, "U+2847 encoded wrongly");
    }
    tc_end();

    tc_begin("tui_plot_special_glyphs");
    {
        plot_canvas c;
        double y[6] = {1e-1, NAN, INFINITY, 0.0, -1.0, 1e-3};
        plot_series s = {y, NULL, 6, 2, 'o'};
        int ec, er, gs;
        TC_CHECK(plot_canvas_init(&c, 12, 8, PLOT_ASCII, -4, 0, 5) == 0, "init");
        plot_canvas_series(&c, &s, &ec, &er);
        /* x = i maps to column round(i * 11 / 5) */
        TC_CHECK(c.cell[0 * 12 + 2].special == PLOT_SP_NAN, "NaN not on top row col 2");
        TC_CHECK(c.cell[0 * 12 + 4].special == PLOT_SP_INF, "inf not on top row col 4");
        TC_CHECK(c.cell[7 * 12 + 7].special == PLOT_SP_NONPOS, "0 not on bottom row col 7");
        TC_CHECK(c.cell[7 * 12 + 9].special == PLOT_SP_NONPOS, "-1 not on bottom row col 9");
        TC_CHECK(ec == 11 && er == plot_y_to_dot(-3, -4, 0, 8), "end cell %d,%d", ec, er);
        /* the three kinds are distinct from each other and from a curve dot, in every set */
        for (gs = 0; gs < PLOT_GLYPHSET_N; gs++) {
            const char *a = plot_special_glyph(PLOT_SP_NAN, gs), *b = plot_special_glyph(PLOT_SP_INF, gs),
                       *d = plot_special_glyph(PLOT_SP_NONPOS, gs);
            TC_CHECK(strcmp(a, b) && strcmp(a, d) && strcmp(b, d), "specials alike in %s", plot_glyphset_name(gs));
            TC_CHECK(strcmp(a, " ") && strcmp(b, " ") && strcmp(d, " "), "blank special in %s", plot_glyphset_name(gs));
        }
        TC_CHECK(strcmp(plot_cell_glyph(&c.cell[0 * 12 + 2], PLOT_ASCII, buf), "?") == 0, "NaN glyph");
        plot_canvas_free(&c);
    }
    tc_end();

    tc_begin("tui_plot_curve_and_tolerance");
    {
        plot_canvas c;
        double y[3] = {1.0, 1e-4, 1e-8};
        plot_series s = {y, NULL, 3, 0, '*'};
        int ec, er, col, r, tolrow, dots = 0;
        TC_CHECK(plot_canvas_init(&c, 20, 9, PLOT_BRAILLE, -8, 0, 2) == 0, "init");
        plot_canvas_hline(&c, 1e-6);
        plot_canvas_series(&c, &s, &ec, &er);
        tolrow = plot_y_to_dot(-6, -8, 0, 36) / 4;
        for (col = 0; col < 20; col++) {
            plot_cell *cell = &c.cell[tolrow * 20 + col];
            TC_CHECK(cell->special == PLOT_SP_TOL || cell->bits, "tolerance gap at col %d", col);
        }
        /* a joined curve: every column has a dot somewhere */
        for (col = 0; col < 20; col++) {
            int any = 0;
            for (r = 0; r < 9; r++) any |= c.cell[r * 20 + col].bits != 0;
            dots += any;
        }
        TC_CHECK(dots == 20, "curve covers %d of 20 columns", dots);
        TC_CHECK(c.cell[0].bits & 0x01, "first point not top-left dot");
        TC_CHECK(c.cell[8 * 20 + 19].bits & 0x80, "last point not bottom-right dot");
        TC_CHECK(ec == 19 && er == 8, "end %d,%d", ec, er);
        plot_canvas_free(&c);
    }
    tc_end();
    return tc_exit();
}
