/* panel_status.c - the bottom line (prompt, message or key summary from the
 * key table) and the help overlay (the whole key table). */
#include <string.h>

#include "tui.h"

void panel_status_draw(tui_app *app, tui_rect r)
{
    attr_t bar = term_attr(app, ROLE_STATUS);
    draw_fill(r, bar);
    if (app->prompt) {
        draw_text(r, 0, 0, bar | A_BOLD, "%s: %s", app->prompt_label, app->prompt_buf);
        int x = (int)strlen(app->prompt_label) + 2 + app->prompt_len;
        if (x < r.w) mvaddch(r.y, r.x + x, '_' | A_BLINK | bar);
        draw_text(r, 0, x + 2 < r.w - 22 ? r.w - 22 : r.w, bar, "Enter ok  Esc cancel");
        return;
    }
    if (app->msg[0] && session_now() < app->msg_until) {
        draw_text(r, 0, 0, app->msg_error ? (bar | A_BOLD) : bar, "%s%s", app->msg_error ? "! " : "", app->msg);
        return;
    }
    int x = 0;
    for (int i = 0; i < tui_n_keys && x < r.w; i++) {
        const tui_key *k = &tui_keys[i];
        if (!k->bar) continue;
        draw_text(r, 0, x, bar | A_BOLD, "%s", k->name);
        x += (int)strlen(k->name);
        draw_text(r, 0, x, bar, " %s  ", k->bar);
        x += (int)strlen(k->bar) + 3;
    }
    if (x + 16 < r.w) draw_text(r, 0, x, bar, "1-5 tau 1..100");
}

void panel_help_draw(tui_app *app)
{
    int n = 0;
    for (int i = 0; i < tui_n_keys; i++) n += tui_keys[i].help != NULL;
    int w = 76, h = n + 4;
    if (w > COLS) w = COLS;
    if (h > LINES - 1) h = LINES - 1;
    tui_rect r = {(LINES - h) / 2, (COLS - w) / 2, h, w};
    draw_fill(r, A_NORMAL);
    draw_box(app, r, "keys (? or Esc closes)");
    tui_rect in = draw_inner(r);
    int y = 0;
    for (int i = 0; i < tui_n_keys && y < in.h; i++) {
        if (!tui_keys[i].help) continue;
        draw_text(in, y, 1, term_attr(app, ROLE_LABEL), "%-7s", tui_keys[i].name);
        draw_text(in, y, 9, A_NORMAL, "%s", tui_keys[i].help);
        y++;
    }
    if (y < in.h) draw_text(in, in.h - 1, 1, A_DIM, "docs/tui.md explains every panel and number");
}
