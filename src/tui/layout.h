/* layout.h - where every panel goes, as a pure function of the terminal size.
 *
 * No curses here: tests/test_tui_layout.c sweeps sizes and checks that panels
 * never overlap and never leave the screen. */
#ifndef TUI_LAYOUT_H
#define TUI_LAYOUT_H

#define TUI_MIN_W 80
#define TUI_MIN_H 24

typedef struct tui_rect {
    int y, x, h, w; /* w == 0 or h == 0: not shown */
} tui_rect;

typedef enum {
    TUI_P_HEADER = 0,
    TUI_P_RESIDUALS,
    TUI_P_SAFEGUARDS,
    TUI_P_TIMINGS,
    TUI_P_MASK,
    TUI_P_LINKS,
    TUI_P_RUNS,
    TUI_P_STATUS,
    TUI_P_N
} tui_panel_id;

/* The side panels that share slots on smaller screens, in Tab order. */
#define TUI_SIDE_N 4
extern const tui_panel_id tui_side_panels[TUI_SIDE_N];

typedef struct tui_layout {
    int w, h;
    int too_small;       /* below TUI_MIN_W x TUI_MIN_H: show only a message */
    int side_slots;      /* 1, 2 or 4 side panels visible at once */
    tui_rect p[TUI_P_N]; /* zero rect = hidden */
} tui_layout;

/* Fill *lo for a w x h terminal. side_first picks which side panel (index into
 * tui_side_panels, taken modulo TUI_SIDE_N) occupies the first slot when not
 * all fit; the rest follow in Tab order. */
void tui_layout_compute(int w, int h, int side_first, tui_layout *lo);

/* 1 if the two rects share a cell (empty rects share nothing). */
int tui_rect_overlap(tui_rect a, tui_rect b);
#endif
