/* textbuf.h - the text of a full-screen view (views.c, view_ladder.c): lines
 * built each frame, wrapped at the view's width (tb_add) or kept whole for
 * tables (tb_row, scrolled sideways with Left/Right), then drawn in a box
 * from app->view_scroll; the first t->sticky lines (a caption) stay on top
 * while the rest scrolls, and a table's header line (t->head) stays too once
 * the table's rows have scrolled up to it. */
#ifndef TUI_TEXTBUF_H
#define TUI_TEXTBUF_H
#include "tui.h"

#define TB_LINE 256

typedef struct textbuf {
    char (*line)[TB_LINE];
    tui_role *role;
    unsigned char *row; /* 1 for a tb_row line (scrolls sideways), 0 for wrapped text */
    int n, width;
    int sticky; /* lines at the top that do not scroll */
    int head;   /* a table's header line: pinned below the sticky lines once scrolled past; -1 none */
    int wide;   /* longest tb_row line (for sideways scrolling) */
} textbuf;

/* The one buffer of the views, emptied, for a view width columns wide;
 * NULL lines if out of memory (then tb_add and tb_row do nothing). */
textbuf *tb_begin(int width);
/* Text wrapped at the width (at spaces where possible); continuation lines
 * are indented by indent spaces. */
void tb_add(textbuf *t, tui_role role, int indent, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* One line kept whole (a table row, cut at TB_LINE - 1); Left/Right scroll
 * the view sideways when it is wider than the screen. */
void tb_row(textbuf *t, tui_role role, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Draw in a box with title, scrolled by app->view_scroll (-1 follows the
 * end) and app->view_hscroll. */
void tb_draw(tui_app *app, textbuf *t, tui_rect r, const char *title);
#endif
