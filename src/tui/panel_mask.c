/* panel_mask.c - eDSP mask changes per refresh as a bar chart, and a
 * warning when a mask repeats an earlier one (the refresh oscillates). */
#include "tui.h"

void panel_mask_draw(tui_app *app, tui_rect r)
{
    tui_rect in = draw_inner(r);
    tui_run *run = app_focus_run(app);
    int add[64] = {0}, rem[64] = {0}, nref = 0, osc = 0, maxc = 1, y = 0;
    char title[48];
    snprintf(title, sizeof title, run ? "eDSP mask #%d" : "eDSP mask (no run)", run ? run->id : 0);
    draw_box(app, r, title);
    if (!run) return;
    if (run->cfg.filter != DS_FILTER_EDSP) {
        /* wrapped: at 80x24 the lines were cut ("the mask is fixe>") */
        char fk[32], txt[160];
        snprintf(txt, sizeof txt, "filter %s: the mask is fixed.", ds_filter_name(run->cfg.filter));
        int y = draw_wrap(in, 0, A_NORMAL, txt, in.h);
        y += draw_wrap(in, y, A_DIM, "Mask refreshes happen with edsp", in.h);
        snprintf(txt, sizeof txt, "(%s cycles the filter).", keys_label(&app->keys, ACT_FILTER, 0, "/", fk, sizeof fk));
        draw_wrap(in, y, A_DIM, txt, in.h);
        return;
    }
    int seen = 0;
    for (size_t i = 0; i < run->n; i++) {
        const ds_iter_record *x = &run->rec[i];
        if (x->mask_oscillation) osc = x->mask_refresh;
        if (x->mask_refresh > seen && x->mask_refresh < 64) {
            seen = x->mask_refresh;
            add[seen] = x->mask_added;
            rem[seen] = x->mask_removed;
            if (seen > nref) nref = seen;
            if (add[seen] > maxc) maxc = add[seen];
            if (rem[seen] > maxc) maxc = rem[seen];
        }
    }
    /* a rebuild past the limit is a look-ahead only (its flows are not solved) */
    if (nref > run->cfg.edsp_max_refresh)
        draw_text(in, y++, 0, term_attr(app, ROLE_LABEL), "refreshes %d (max) + look-ahead r%d",
                  run->cfg.edsp_max_refresh, nref);
    else
        draw_text(in, y++, 0, term_attr(app, ROLE_LABEL), "refreshes %d (max %d)", nref, run->cfg.edsp_max_refresh);
    if (osc) draw_text(in, y++, 0, term_attr(app, ROLE_WARN), "! mask %d repeats an earlier one", osc);
    int barw = in.w - 16;
    int first = nref - (in.h - y) + 1;
    if (first < 1) first = 1;
    for (int k = first; k <= nref && y < in.h; k++, y++) {
        int na = barw > 0 ? (add[k] * (barw / 2) + maxc - 1) / maxc : 0;
        int nr = barw > 0 ? (rem[k] * (barw / 2) + maxc - 1) / maxc : 0;
        draw_text(in, y, 0, A_NORMAL, "r%-2d +%-4d -%-4d", k, add[k], rem[k]);
        for (int j = 0; j < na; j++) draw_text(in, y, 16 + j, term_attr(app, ROLE_ACCEPT), "+");
        for (int j = 0; j < nr; j++) draw_text(in, y, 16 + na + j, term_attr(app, ROLE_REJECT), "-");
    }
    if (!nref && y < in.h) draw_text(in, y, 0, A_DIM, "no refresh yet (first mask)");
}
