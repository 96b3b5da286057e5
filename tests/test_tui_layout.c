/* test_tui_layout.c - the TUI layout over a sweep of terminal sizes. */
#include "layout.h"
#include "tcheck.h"

static int inside(tui_rect r, int w, int h) { return r.x >= 0 && r.y >= 0 && r.x + r.w <= w && r.y + r.h <= h; }

int main(void)
{
    int w, h, s, i, j;

    tc_begin("tui_layout_sweep_inside_no_overlap");
    for (w = 20; w <= 300; w++)
        for (h = 5; h <= 100; h++)
            for (s = 0; s < TUI_SIDE_N; s++) {
                tui_layout lo;
                tui_layout_compute(w, h, s, &lo);
                TC_CHECK(lo.w == w && lo.h == h, "size not recorded at %dx%d", w, h);
                for (i = 0; i < TUI_P_N; i++) {
                    TC_CHECK(inside(lo.p[i], w, h), "panel %d outside %dx%d: %d,%d %dx%d", i, w, h, lo.p[i].x,
                             lo.p[i].y, lo.p[i].w, lo.p[i].h);
                    for (j = i + 1; j < TUI_P_N; j++)
                        TC_CHECK(!tui_rect_overlap(lo.p[i], lo.p[j]), "panels %d and %d overlap at %dx%d side %d", i, j,
                                 w, h, s);
                }
            }
    tc_end();

    tc_begin("tui_layout_too_small");
    for (w = 20; w <= 300; w++)
        for (h = 5; h <= 100; h++) {
            tui_layout lo;
            tui_layout_compute(w, h, 0, &lo);
            int small = w < 80 || h < 24;
            TC_CHECK(lo.too_small == small, "too_small=%d at %dx%d", lo.too_small, w, h);
            if (small)
                for (i = 0; i < TUI_P_N; i++)
                    TC_CHECK(lo.p[i].w == 0 && lo.p[i].h == 0, "panel %d shown at %dx%d", i, w, h);
        }
    tc_end();

    /* Everything that is always on screen must be usable at every size from
     * the minimum up: plot wide enough for labels and a curve, run list with
     * a header and four rows, header and status line full width. */
    tc_begin("tui_layout_min_sizes");
    for (w = 80; w <= 300; w++)
        for (h = 24; h <= 100; h++) {
            tui_layout lo;
            tui_layout_compute(w, h, 0, &lo);
            TC_CHECK(lo.p[TUI_P_HEADER].w == w && lo.p[TUI_P_HEADER].h == 2, "header at %dx%d", w, h);
            TC_CHECK(lo.p[TUI_P_STATUS].w == w && lo.p[TUI_P_STATUS].y == h - 1, "status at %dx%d", w, h);
            TC_CHECK(lo.p[TUI_P_RESIDUALS].w >= 36 && lo.p[TUI_P_RESIDUALS].h >= 10, "plot %dx%d at %dx%d",
                     lo.p[TUI_P_RESIDUALS].w, lo.p[TUI_P_RESIDUALS].h, w, h);
            TC_CHECK(lo.p[TUI_P_RUNS].h >= 7, "runs %d rows at %dx%d", lo.p[TUI_P_RUNS].h, w, h);
            int shown = 0;
            for (i = 0; i < TUI_SIDE_N; i++) {
                tui_rect r = lo.p[tui_side_panels[i]];
                if (r.w) {
                    shown++;
                    TC_CHECK(r.w >= 32 && r.h >= 6, "side panel %d is %dx%d at %dx%d", i, r.w, r.h, w, h);
                }
            }
            TC_CHECK(shown == lo.side_slots, "%d side panels shown, %d slots at %dx%d", shown, lo.side_slots, w, h);
        }
    tc_end();

    /* Tab cycles: over TUI_SIDE_N presses every side panel gets the first slot. */
    tc_begin("tui_layout_tab_cycles_side_panels");
    {
        int seen[TUI_P_N] = {0};
        for (s = 0; s < TUI_SIDE_N; s++) {
            tui_layout lo;
            tui_layout_compute(80, 24, s, &lo);
            TC_CHECK(lo.side_slots == 1, "80x24 has %d side slots", lo.side_slots);
            for (i = 0; i < TUI_SIDE_N; i++)
                if (lo.p[tui_side_panels[i]].w) seen[tui_side_panels[i]]++;
        }
        for (i = 0; i < TUI_SIDE_N; i++)
            TC_CHECK(seen[tui_side_panels[i]] == 1, "side panel %d shown %d times", i, seen[tui_side_panels[i]]);
        tui_layout lo;
        tui_layout_compute(160, 48, 0, &lo);
        TC_CHECK(lo.side_slots == 4, "160x48 has %d side slots", lo.side_slots);
    }
    tc_end();
    return tc_exit();
}
