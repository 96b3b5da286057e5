/* layout.c - screen layout as a pure function of terminal size.
 *
 * Three shapes: compact (80x24 up: one side slot, Tab cycles through the side
 * panels), medium (two stacked side slots) and wide (all four side panels in
 * two columns). The residual plot always gets the most room because it is
 * what people watch. */
#include "layout.h"

const tui_panel_id tui_side_panels[TUI_SIDE_N] = {TUI_P_SAFEGUARDS, TUI_P_TIMINGS, TUI_P_MASK, TUI_P_LINKS};

static tui_rect rect(int y, int x, int h, int w)
{
    tui_rect r = {y, x, h, w};
    if (h <= 0 || w <= 0) r.y = r.x = r.h = r.w = 0;
    return r;
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

int tui_rect_overlap(tui_rect a, tui_rect b)
{
    if (a.w <= 0 || a.h <= 0 || b.w <= 0 || b.h <= 0) return 0;
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

void tui_layout_compute(int w, int h, int side_first, tui_layout *lo)
{
    int i, body_y, body_h, runs_h, top_h, side_w, side_cols, per_col;
    *lo = (tui_layout){0};
    lo->w = w;
    lo->h = h;
    if (w < TUI_MIN_W || h < TUI_MIN_H) {
        lo->too_small = 1;
        return;
    }
    lo->p[TUI_P_HEADER] = rect(0, 0, 2, w);
    lo->p[TUI_P_STATUS] = rect(h - 1, 0, 1, w);
    body_y = 2;
    body_h = h - 3;

    /* The run list keeps a title, a column header and at least four rows. */
    runs_h = clampi(body_h / 3, 7, 14);
    top_h = body_h - runs_h;
    lo->p[TUI_P_RUNS] = rect(body_y + top_h, 0, runs_h, w);

    if (w >= 150 && h >= 40) {
        lo->side_slots = 4;
        side_cols = 2;
        side_w = clampi((w - 70) / 2, 40, 56);
    } else if (w >= 110 && h >= 34) {
        lo->side_slots = 2;
        side_cols = 1;
        side_w = clampi(w / 3, 40, 52);
    } else {
        lo->side_slots = 1;
        side_cols = 1;
        side_w = clampi(w * 2 / 5, 32, 44);
    }
    lo->p[TUI_P_RESIDUALS] = rect(body_y, 0, top_h, w - side_cols * side_w);

    per_col = lo->side_slots / side_cols;
    if (side_first < 0) side_first = -side_first;
    for (i = 0; i < lo->side_slots; i++) {
        int col = i / per_col, row = i % per_col;
        int slot_h = top_h / per_col;
        int y = body_y + row * slot_h;
        int x = w - (side_cols - col) * side_w;
        if (row == per_col - 1) slot_h = top_h - row * slot_h; /* last takes the rest */
        lo->p[tui_side_panels[(side_first + i) % TUI_SIDE_N]] = rect(y, x, slot_h, side_w);
    }
}
