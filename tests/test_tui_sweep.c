/* test_tui_sweep.c - the sweep viewer's histogram (src/tui/sweep_view.c):
 * log bins two per decade, clamped at both ends, nothing for v <= 0 or NaN;
 * bar heights relative to the largest count, any nonzero count visible. */
#include <math.h>
#include <string.h>

#include "sweep_data.h"
#include "sweep_view.h"
#include "tcheck.h"
#include "tui.h"

int main(void)
{
    tc_begin("sweep_view_bins");
    TC_CHECK(sweep_view_bin(1, 1, 12) == 0, "1 -> %d", sweep_view_bin(1, 1, 12));
    TC_CHECK(sweep_view_bin(3, 1, 12) == 0, "3 -> %d", sweep_view_bin(3, 1, 12));       /* [1, 3.16) */
    TC_CHECK(sweep_view_bin(3.2, 1, 12) == 1, "3.2 -> %d", sweep_view_bin(3.2, 1, 12)); /* [3.16, 10) */
    TC_CHECK(sweep_view_bin(10, 1, 12) == 2, "10 -> %d", sweep_view_bin(10, 1, 12));
    TC_CHECK(sweep_view_bin(999, 1, 12) == 5, "999 -> %d", sweep_view_bin(999, 1, 12));
    TC_CHECK(sweep_view_bin(1e9, 1, 12) == 11, "clamped top");
    TC_CHECK(sweep_view_bin(0.5, 1, 12) == 0, "clamped bottom");
    TC_CHECK(sweep_view_bin(2e-4, 1e-4, 12) == 0 && sweep_view_bin(1e-3, 1e-4, 12) == 2, "time bins");
    TC_CHECK(sweep_view_bin(0, 1, 12) == -1 && sweep_view_bin(-3, 1, 12) == -1 && sweep_view_bin(NAN, 1, 12) == -1,
             "non-positive or NaN binned");
    tc_end();

    /* the rate over the last minute, and over a sweep younger than that per
     * second since its first cell started (a sixtieth of it gave an ETA of
     * 2 minutes to a sweep 6 s from its end) */
    tc_begin("sweep_view_recent_rate");
    {
        /* cells: t_end, wall_s, done */
        static const double cell[6][3] = {{990, 1, 1}, {995, 1, 1}, {999, 1, 1},
                                          {999, 1, 1}, {900, 1, 1}, {1000, 0.5, 0}};
        sweep_result res[6];
        unsigned char done[6];
        memset(res, 0, sizeof res);
        for (int c = 0; c < 6; c++) res[c].t_end = cell[c][0], res[c].wall_s = cell[c][1], done[c] = cell[c][2] != 0;
        double now = 1000;
        /* 4 cells in the last minute, the first started at 989: 4 / 11 s */
        double r = sweep_view_recent_rate(res, done, 6, now);
        TC_CHECK(fabs(r - 4.0 / 11) < 1e-12, "young sweep: %g cells/s, want %g", r, 4.0 / 11);
        /* started 920, more than a minute ago: over 60 s */
        res[0].t_end = 950, res[0].wall_s = 30, res[1].t_end = 980, res[1].wall_s = 30, res[2].t_end = 999;
        r = sweep_view_recent_rate(res, done, 3, now);
        TC_CHECK(fabs(r - 3.0 / 60) < 1e-12, "old sweep: %g cells/s, want %g", r, 3.0 / 60);
        TC_CHECK(sweep_view_recent_rate(res, done, 3, 2000) == 0, "nothing in the last minute: not 0");
        res[0].t_end = 1000, res[0].wall_s = 0;
        r = sweep_view_recent_rate(res, done, 1, now); /* (at least 1 s: no division by 0) */
        TC_CHECK(r == 1, "one cell just now: %g", r);
    }
    tc_end();

    tc_begin("sweep_view_hist_ascii");
    int c[6] = {0, 1, 8, 4, 0, 100};
    char out[64];
    sweep_view_hist_text(c, 6, 1, out, sizeof out);
    /* levels ceil(8 c / max): 0, 1, 1, 1, 0, 8 */
    TC_CHECK(!strcmp(out, " ... #"), "got '%s'", out);
    int z[3] = {0, 0, 0};
    sweep_view_hist_text(z, 3, 1, out, sizeof out);
    TC_CHECK(!strcmp(out, "   "), "empty histogram '%s'", out);
    tc_end();

    tc_begin("sweep_view_hist_blocks");
    int d[2] = {1, 2};
    sweep_view_hist_text(d, 2, 0, out, sizeof out);
    TC_CHECK(!strcmp(out, "\u2584\u2588"), "got '%s'", out);
    tc_end();

    /* the gap as the viewer prints it (fmt_gap_digits, shared with the run
     * list): never rounded onto the other side of the tolerance */
    tc_begin("sweep_view_gap_side_of_tol");
    char g[40];
    fmt_gap_digits(9.999685e-08, 1e-7, 3, g, sizeof g);
    TC_CHECK(!strcmp(g, "9.9997e-08"), "got '%s'", g);
    fmt_gap_digits(1.00004e-07, 1e-7, 3, g, sizeof g);
    TC_CHECK(!strcmp(g, "1.000e-07"), "got '%s'", g); /* not below tol, nor is v */
    fmt_gap_digits(3.2e-09, 1e-7, 3, g, sizeof g);
    TC_CHECK(!strcmp(g, "3.200e-09"), "got '%s'", g);
    fmt_gap_digits(INFINITY, 1e-7, 3, g, sizeof g);
    TC_CHECK(!strcmp(g, "n/a"), "got '%s'", g);
    fmt_gap_tol(9.999685e-08, 1e-7, g, sizeof g);
    TC_CHECK(!strcmp(g, "9.9997e-08"), "got '%s'", g);
    tc_end();
    return tc_failed_ ? 1 : 0;
}
