/* textbuf.c - lines of a full-screen view and their scrolled drawing. */
#include "textbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VIEW_MAX_LINES 12500 /* TUI_LOG_MAX entries of up to 320 characters: at most 6 lines each at 80 columns */

static textbuf tb_static;

textbuf *tb_begin(int width)
{
    textbuf *t = &tb_static;
    if (!t->line) {
        t->line = malloc(VIEW_MAX_LINES * sizeof *t->line);
        t->role = malloc(VIEW_MAX_LINES * sizeof *t->role);
        t->row = malloc(VIEW_MAX_LINES * sizeof *t->row);
        if (!t->line || !t->role || !t->row) {
            free(t->line), free(t->role), free(t->row);
            t->line = NULL, t->role = NULL, t->row = NULL;
        }
    }
    t->n = 0;
    t->sticky = 0;
    t->head = -1;
    t->wide = 0;
    t->width = width < 20 ? 20 : width > TB_LINE - 1 ? TB_LINE - 1 : width;
    return t;
}

void tb_add(textbuf *t, tui_role role, int indent, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (!t->line) return;
    const char *p = buf;
    int first = 1;
    do {
        int pad = first ? 0 : indent, room = t->width - pad, len = (int)strlen(p), take = len;
        if (t->n >= VIEW_MAX_LINES) return;
        if (take > room) {
            /* at the last space that fits: a word is split only where it is
             * longer than a line (a path after a short start was split at
             * half a line: "SiouxFalls_f" / "low.tntp", and so was the
             * command the F view names, which then did not copy as one) */
            take = room;
            for (int k = room; k > 0; k--)
                if (p[k] == ' ') {
                    take = k;
                    break;
                }
        }
        snprintf(t->line[t->n], sizeof t->line[0], "%*s%.*s", pad, "", take, p);
        t->row[t->n] = 0;
        t->role[t->n++] = role;
        p += take;
        while (*p == ' ') p++;
        first = 0;
    } while (*p);
}

void tb_row(textbuf *t, tui_role role, const char *fmt, ...)
{
    va_list ap;
    if (!t->line || t->n >= VIEW_MAX_LINES) return;
    va_start(ap, fmt);
    vsnprintf(t->line[t->n], sizeof t->line[0], fmt, ap);
    va_end(ap);
    int len = (int)strlen(t->line[t->n]);
    if (len > t->wide) t->wide = len;
    t->row[t->n] = 1;
    t->role[t->n++] = role;
}

void tb_draw(tui_app *app, textbuf *t, tui_rect r, const char *title)
{
    tui_rect in = draw_inner(r);
    char head[300], close[32], side[80] = "";
    draw_fill(r, A_NORMAL);
    int sticky = t->sticky < in.h - 2 ? t->sticky : 0, rows = in.h - sticky, body = t->n - sticky;
    int hl = t->head >= sticky && in.h - sticky > 2 ? t->head : -1;
    /* with a header to pin, one row less for the body so the last line still shows */
    int maxtop = body - (rows - (hl >= 0)) > 0 ? body - (rows - (hl >= 0)) : 0;
    if (app->view_scroll > maxtop) app->view_scroll = maxtop;
    int top = app->view_scroll < 0 ? maxtop : app->view_scroll; /* -1 follows the end */
    int pin = hl >= 0 && sticky + top > hl;                     /* the header has scrolled off: pin it */
    if (pin) rows--;
    int maxh = t->wide - in.w > 0 ? t->wide - in.w : 0;
    if (app->view_hscroll > maxh) app->view_hscroll = maxh;
    if (app->view_hscroll < 0) app->view_hscroll = 0;
    int hx = app->view_hscroll;
    app->view_lines = rows;
    app->view_top = top;
    if (maxh) snprintf(side, sizeof side, "  Left/Right: columns %d-%d of %d", hx + 1, hx + in.w, t->wide);
    keys_label(&app->keys, ACT_CLOSE, 0, "/", close, sizeof close);
    if (body > rows)
        snprintf(head, sizeof head, "%s  %d-%d of %d%s  (%s closes)", title, top + 1,
                 top + rows < body ? top + rows : body, body, side, close);
    else
        snprintf(head, sizeof head, "%s%s  (%s closes)", title, side, close);
    draw_box(app, r, head);
    for (int y = 0; y < in.h; y++) {
        int i = y < sticky ? y : pin && y == sticky ? hl : top + y - pin; /* top counts lines below the sticky ones */
        if (i >= t->n) break;
        int len = (int)strlen(t->line[i]), shift = t->row[i] ? hx : 0; /* only table rows move sideways */
        draw_text(in, y, 0, term_attr(app, t->role[i]), "%s", shift < len ? t->line[i] + shift : "");
    }
}
