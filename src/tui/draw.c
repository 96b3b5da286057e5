/* draw.c - clipped text, boxes and number formats shared by the panels. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "../cli/cli.h"

int draw_cols(const char *s)
{
    int c = 0;
    for (; *s; s++) c += (*s & 0xC0) != 0x80;
    return c;
}

const char *draw_skip_cols(const char *s, int n)
{
    for (; n > 0 && *s; n--) {
        s++;
        while ((*s & 0xC0) == 0x80) s++; /* past the character's continuation bytes */
    }
    return s;
}

void draw_text(tui_rect r, int row, int col, attr_t attr, const char *fmt, ...)
{
    char buf[2048]; /* (the sweep viewer's reproduce command is one line) */
    va_list ap;
    int room;
    if (row < 0 || row >= r.h || col < 0 || col >= r.w) return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    room = r.w - col;
    /* Text cut at the edge ends in '>', so that a cut is not read as the
     * whole (a range "0..10000" cut from 0..100000000, "GPU: no" from "none").
     * Characters, not bytes, are counted: UTF-8 glyphs take one column each. */
    int chars = draw_cols(buf);
    attron(attr);
    if (chars > room && room >= 2) {
        buf[draw_skip_cols(buf, room - 1) - buf] = '\0';
        mvaddstr(r.y + row, r.x + col, buf);
        addch('>');
    } else if (chars <= room)
        mvaddstr(r.y + row, r.x + col, buf); /* (addnstr counts bytes: it cut "┄ tol 1.00e-07" that fits) */
    else
        mvaddnstr(r.y + row, r.x + col, buf, room);
    attroff(attr);
}

int draw_wrap(tui_rect r, int row, attr_t attr, const char *text, int max_lines)
{
    /* words onto lines of r.w; a word longer than a line is cut by draw_text (>) */
    int lines = 0;
    const char *s = text;
    while (*s && row + lines < r.h && lines < max_lines) {
        while (*s == ' ') s++;
        const char *end = s, *brk = NULL;
        int cols = 0;
        while (*end && cols < r.w) {
            if (*end == ' ') brk = end;
            end = draw_skip_cols(end, 1);
            cols++;
        }
        int last = lines + 1 == max_lines || row + lines + 1 == r.h;
        if (*end && last)
            end = s + strlen(s); /* the last line: draw_text marks the cut */
        else if (*end && *end != ' ' && brk)
            end = brk; /* break at the last space */
        draw_text(r, row + lines, 0, attr, "%.*s", (int)(end - s), s);
        lines++;
        s = end;
    }
    return lines;
}

void draw_fill(tui_rect r, attr_t attr)
{
    attron(attr);
    for (int i = 0; i < r.h; i++) mvhline(r.y + i, r.x, ' ', r.w);
    attroff(attr);
}

tui_rect draw_inner(tui_rect r)
{
    tui_rect in = {r.y + 1, r.x + 1, r.h - 2, r.w - 2};
    if (in.h < 0) in.h = 0;
    if (in.w < 0) in.w = 0;
    return in;
}

void draw_box(const tui_app *app, tui_rect r, const char *title)
{
    if (r.w < 2 || r.h < 2) return;
    attr_t a = term_attr(app, ROLE_DIM);
    attron(a);
    mvhline(r.y, r.x + 1, ACS_HLINE, r.w - 2);
    mvhline(r.y + r.h - 1, r.x + 1, ACS_HLINE, r.w - 2);
    mvvline(r.y + 1, r.x, ACS_VLINE, r.h - 2);
    mvvline(r.y + 1, r.x + r.w - 1, ACS_VLINE, r.h - 2);
    mvaddch(r.y, r.x, ACS_ULCORNER);
    mvaddch(r.y, r.x + r.w - 1, ACS_URCORNER);
    mvaddch(r.y + r.h - 1, r.x, ACS_LLCORNER);
    mvaddch(r.y + r.h - 1, r.x + r.w - 1, ACS_LRCORNER);
    attroff(a);
    if (title) {
        tui_rect top = {r.y, r.x + 2, 1, r.w - 4};
        draw_text(top, 0, 0, term_attr(app, ROLE_TITLE), " %s ", title);
    }
}

void fmt_gap(double v, char *buf, size_t n)
{
    if (!isfinite(v)) /* (inf: gap_rel at x = 0, which divides by ||x||; solve says n/a too) */
        snprintf(buf, n, "n/a");
    else
        snprintf(buf, n, "%.2e", v);
}

void fmt_gap_tol(double v, double tol, char *buf, size_t n) { fmt_gap_digits(v, tol, 2, buf, n); }

void fmt_gap_digits(double v, double tol, int p, char *buf, size_t n)
{
    cli_gap_text(v, tol, p, buf, n); /* the rule solve prints by (n/a where not finite) */
}

void fmt_secs(double s, char *buf, size_t n)
{
    if (!(s >= 0))
        snprintf(buf, n, "-");
    else if (s < 1e-3)
        snprintf(buf, n, "%.0f us", s * 1e6);
    else if (s < 1)
        snprintf(buf, n, "%.1f ms", s * 1e3);
    else if (s < 600)
        snprintf(buf, n, "%.2f s", s);
    else
        snprintf(buf, n, "%.0f min", s / 60);
}
