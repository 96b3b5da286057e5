/* cell_run.c - a cell of a sweep opened as a run of the main TUI (r in the
 * sweep viewer, docs/sweep.md): the sweep's network, the cell's scenario and
 * the cell's configuration, so that the run is exactly what `dillsue solve
 * --scenario K --seed S ...` and the sweep computed for it (the same flows,
 * bit for bit: flows do not depend on the thread count). It then has what
 * every run has (residual curves, safeguards, timings, links, comparison,
 * export), and F offers the sweep's flow file of the cell as the reference.
 * The next-run settings and the warm-start choice are left as they were. */
#include <stdio.h>
#include <string.h>

#include "sweep_view.h"
#include "tui.h"

void app_open_cell(tui_app *app, const sweep_cell_request *req, int net_current)
{
    tui_session *s = &app->s;
    ds_error err = {0};
    char msg[700], key[sizeof app->cell_key];
    ds_network *prev = s->net;
    if (session_active(s)) {
        app_message(app, 1, "%s not started: a run is executing (a aborts it)", req->label);
        return;
    }
    /* the sweep's network: the one loaded for an earlier cell of the same
     * files, else loaded now (a network opened by hand may have other trips) */
    snprintf(key, sizeof key, "%s\n%s", req->net, req->trips);
    if (net_current) { /* the caller opened it (tui --sweep DIR, then r) */
        app->cell_net = s->net;
        snprintf(app->cell_key, sizeof app->cell_key, "%s", key);
    } else if (app->cell_net && !strcmp(app->cell_key, key)) {
        s->net = app->cell_net;
    } else {
        if (session_open(s, req->net, req->trips[0] ? req->trips : NULL, &err) != 0) {
            ds_error_format(&err, msg, sizeof msg);
            app_message(app, 1, "%s not started: %s", req->label, msg);
            return;
        }
        app->cell_net = s->net;
        snprintf(app->cell_key, sizeof app->cell_key, "%s", key);
    }
    if (session_scenario(s, req->k, req->seed, &err) != 0) {
        s->net = prev;
        ds_error_format(&err, msg, sizeof msg);
        app_message(app, 1, "%s not started: %s", req->label, msg);
        return;
    }
    ds_config keep = s->next;
    int keep_warm = s->warm_next;
    s->next = req->cfg;
    s->next.threads = keep.threads;
    s->warm_next = 0;
    tui_run *r = session_start(s, &err);
    s->next = keep;
    s->warm_next = keep_warm;
    if (!r) {
        ds_error_format(&err, msg, sizeof msg);
        app_message(app, 1, "%s not started: %s", req->label, msg);
        return;
    }
    snprintf(r->origin, sizeof r->origin, "%.200s of sweep %.1024s", req->label, req->dir);
    snprintf(r->origin_flows, sizeof r->origin_flows, "%s", req->flows);
    app->sel = s->n_runs - 1;
    app->view = VIEW_NONE;
    app_message(app, 0, "run #%d started: %s of sweep %s, on %s%s", r->id, req->label, req->dir, s->net->name,
                req->flows[0] ? "; F compares its flows with the sweep's" : "");
}
