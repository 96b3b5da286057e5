/* panel_status.c - the bottom line (prompt, message or key summary from the
 * key table) and the help overlay (the whole key table), both showing the
 * keys in force, so a rebound key is shown where it is used. */
#include <string.h>

#include "config.h"
#include "tui.h"

void panel_status_draw(tui_app *app, tui_rect r)
{
    attr_t bar = term_attr(app, ROLE_STATUS);
    draw_fill(r, bar);
    if (app->prompt) {
        /* label and text, scrolled so that their end and the cursor stay in
         * sight (a long path typed past the edge was invisible, and a long
         * overwrite question lost its "y/n" and the answer) */
        char line[1200];
        int len = snprintf(line, sizeof line, "%s: %s", app->prompt_label, app->prompt_buf);
        if (len >= (int)sizeof line) len = (int)sizeof line - 1;
        int cols = draw_cols(line);
        /* whole where it fits on the line (the hint then only where it fits
         * too); scrolled, the hint's room kept where the line is wide enough */
        int room = cols + 1 < r.w ? r.w : r.w - 22 > 20 ? r.w - 22 : r.w;
        const char *show = line;
        if (cols + 1 >= r.w && room > 3) {
            /* the last room - 3 characters: "<", the text, the cursor, a space */
            show = draw_skip_cols(line, cols - (room - 3));
            draw_text(r, 0, 0, bar | A_BOLD, "<%s", show);
        } else
            draw_text(r, 0, 0, bar | A_BOLD, "%s", line);
        int x = (show != line) + draw_cols(show);
        if (x < r.w) mvaddch(r.y, r.x + x, '_' | A_BLINK | bar);
        if (x + 2 <= r.w - 22) draw_text(r, 0, r.w - 22, bar, "Enter ok  Esc cancel");
        return;
    }
    if (app->msg[0] && session_now() < app->msg_until) {
        draw_text(r, 0, 0, app->msg_error ? (bar | A_BOLD) : bar, "%s%s", app->msg_error ? "! " : "", app->msg);
        return;
    }
    /* help and quit always show, at the right end; the other labels fill
     * the left in table order while they fit */
    char key[32], tail[96];
    int x = 0, tw = 0;
    {
        char hk[32], qk[32];
        keys_label(&app->keys, ACT_HELP, 0, "/", hk, sizeof hk);
        keys_label(&app->keys, ACT_QUIT, 0, "/", qk, sizeof qk);
        tw = snprintf(tail, sizeof tail, "%s help  %s quit", hk, qk);
        draw_text(r, 0, r.w - tw > 0 ? r.w - tw : 0, bar, "%s", tail);
        draw_text(r, 0, r.w - tw > 0 ? r.w - tw : 0, bar | A_BOLD, "%s", hk);
        draw_text(r, 0, r.w - tw + (int)strlen(hk) + 7, bar | A_BOLD, "%s", qk);
    }
    int room = r.w - tw - 1;
    for (int i = 0; i < tui_n_keys; i++) {
        const tui_key *k = &tui_keys[i];
        if (!k->bar || k->act == ACT_HELP || k->act == ACT_QUIT || !app->keys.keys[k->act][0]) continue;
        keys_label(&app->keys, k->act, 0, "/", key, sizeof key);
        int w = (int)strlen(key) + 1 + (int)strlen(k->bar);
        if (x + w > room) break;
        draw_text(r, 0, x, bar | A_BOLD, "%s", key);
        draw_text(r, 0, x + (int)strlen(key), bar, " %s  ", k->bar);
        x += w + 2;
    }
    /* the five tau presets fit in one label only while they are a run of characters */
    const int *p1 = app->keys.keys[ACT_TAU1];
    int run = p1[0] > ' ' && p1[0] < 127 && !p1[1];
    static const tui_action tau_acts[] = {ACT_TAU3, ACT_TAU10, ACT_TAU30, ACT_TAU100};
    for (int i = 0; i < 4 && run; i++)
        run = app->keys.keys[tau_acts[i]][0] == p1[0] + i + 1 && !app->keys.keys[tau_acts[i]][1];
    if (run && x + 14 <= room) draw_text(r, 0, x, bar, "%c-%c tau 1..100", p1[0], p1[0] + 4);
}

void panel_help_draw(tui_app *app)
{
    char keys[TUI_KEYS_PER_ACT * 16], title[64], h1[32], h2[32], path[600];
    int kw = 7;
    for (int i = 0; i < tui_n_keys; i++) {
        int l = (int)strlen(keys_label(&app->keys, tui_keys[i].act, 1, "/", keys, sizeof keys));
        if (l > kw) kw = l;
    }
    if (kw > 16) kw = 16;
    int w = 69 + kw, h = tui_n_keys + 5;
    if (w > COLS) w = COLS;
    if (h > LINES - 1) h = LINES - 1;
    tui_rect r = {(LINES - h) / 2, (COLS - w) / 2, h, w};
    draw_fill(r, A_NORMAL);
    /* two lines at the bottom for the config path and the docs pointer; the
     * keys page when they do not fit (80x24 shows them in two pages) */
    int rows = h - 2 - 2;
    if (rows < 1) rows = 1;
    app->help_pages = (tui_n_keys + rows - 1) / rows;
    if (app->help_page >= app->help_pages) app->help_page = app->help_pages - 1;
    if (app->help_pages > 1)
        snprintf(title, sizeof title, "keys %d/%d (%s: next page, %s closes)", app->help_page + 1, app->help_pages,
                 keys_label(&app->keys, ACT_HELP, 0, "/", h1, sizeof h1),
                 keys_label(&app->keys, ACT_CLOSE, 0, "/", h2, sizeof h2));
    else
        snprintf(title, sizeof title, "keys (%s or %s closes)", keys_label(&app->keys, ACT_HELP, 0, "/", h1, sizeof h1),
                 keys_label(&app->keys, ACT_CLOSE, 0, "/", h2, sizeof h2));
    draw_box(app, r, title);
    tui_rect in = draw_inner(r);
    int y = 0;
    for (int i = app->help_page * rows; i < tui_n_keys && y < rows; i++, y++) {
        keys_label(&app->keys, tui_keys[i].act, 1, "/", keys, sizeof keys);
        draw_text(in, y, 1, term_attr(app, ROLE_LABEL), "%-*.*s", kw, kw, keys);
        draw_text(in, y, kw + 2, A_NORMAL, "%s", tui_keys[i].help);
    }
    y = rows;
    if (y + 1 < in.h) {
        if (app->config_path[0])
            draw_text(in, in.h - 2, 1, A_DIM, "keys and defaults: %s (%s saves)",
                      config_display_path(app->config_path, path, sizeof path),
                      keys_label(&app->keys, ACT_SAVE, 0, "/", h1, sizeof h1));
        else
            draw_text(in, in.h - 2, 1, A_DIM, "no config file (--no-config)");
    }
    if (y < in.h) draw_text(in, in.h - 1, 1, A_DIM, "docs/tui.md explains every panel, number and setting");
}
