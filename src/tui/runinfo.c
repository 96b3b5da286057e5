/* runinfo.c - how a run is named and described on screen, one definition
 * for every panel: its state word, its legend label, its times (the engine's
 * clock), mu and the thread count in words, and the settings line. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "settings.h"
#include "tui.h"

const char *runinfo_state(const tui_run *r)
{
    if (r->joined) return r->status == DS_STATUS_MAX_ITER ? "max-iter" : ds_status_name(r->status);
    if (session_run_paused(r)) return "paused";
    return session_run_phase(r, NULL, NULL, 0) <= 1 ? "set-up" : "running";
}

const char *runinfo_label(const tui_run *r, int width, char *buf, size_t n)
{
    /* widest first; every form keeps the run number, solver, filter and tau */
    char d[32];
    if (r->cfg.mu > 0)
        snprintf(d, sizeof d, "m%g", r->cfg.mu);
    else
        snprintf(d, sizeof d, "t%g", r->cfg.tau);
    if (width >= 22)
        snprintf(buf, n, "#%d %s/%s %s", r->id, ds_solver_name(r->cfg.solver), ds_filter_name(r->cfg.filter), d);
    else
        snprintf(buf, n, "#%d %.3s/%.1s %s", r->id, ds_solver_name(r->cfg.solver), ds_filter_name(r->cfg.filter), d);
    return buf;
}

const char *runinfo_time(const tui_run *r, char *buf, size_t n)
{
    fmt_secs(session_run_wall(r), buf, n);
    return buf;
}

const char *runinfo_disp(const ds_config *c, int width, char *buf, size_t n)
{
    if (!(c->mu > 0)) {
        snprintf(buf, n, width > 0 ? "%g" : "tau %g", c->tau);
        return buf;
    }
    if (width <= 0) {
        snprintf(buf, n, "mu %g", c->mu);
        return buf;
    }
    /* "mu0.5", else fewer digits: the details give them all */
    static const char *const forms[] = {"mu%g", "m%g", "m%.3g", "m%.2g", "m%.1g"};
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++)
        if (snprintf(buf, n, forms[i], c->mu) <= width) break;
    return buf;
}

const char *runinfo_mu(const tui_run *r, char *buf, size_t n)
{
    if (r->mu > 0)
        snprintf(buf, n, "%.4g", r->mu);
    else if (r->cfg.mu > 0)
        snprintf(buf, n, "%.4g", r->cfg.mu);
    else
        snprintf(buf, n, r->joined ? "n/a (no set-up)" : "n/a (setting up)");
    return buf;
}

const char *runinfo_threads(int threads, char *buf, size_t n)
{
    if (threads > 0)
        snprintf(buf, n, "%d", threads);
    else
        snprintf(buf, n, "all %ld", sysconf(_SC_NPROCESSORS_ONLN));
    return buf;
}

const char *runinfo_gap(const tui_run *r, char *buf, size_t n)
{
    if (!r->n) {
        snprintf(buf, n, "n/a");
        return buf;
    }
    fmt_gap_tol(r->rec[r->n - 1].gap_rel, r->cfg.tol, buf, n);
    return buf;
}

const char *runinfo_noiter(const tui_app *app, const tui_run *r, char *buf, size_t n)
{
    char vk[32];
    if (!r->joined || r->n) return NULL;
    snprintf(buf, n, "ended %s before its first iterate (%s: why)", runinfo_state(r),
             keys_label(&app->keys, ACT_DETAILS, 0, "/", vk, sizeof vk));
    return buf;
}

const char *runinfo_start(const tui_run *r, char *buf, size_t n)
{
    if (r->warm && r->warm_from < 0) {
        const char *base = strrchr(r->warm_path, '/');
        snprintf(buf, n, "warm file %s", base ? base + 1 : r->warm_path);
    } else if (r->warm) {
        snprintf(buf, n, "warm #%d", r->warm_from);
    } else {
        snprintf(buf, n, "%s", ds_start_name(r->cfg.start));
    }
    return buf;
}

void runinfo_settings(const ds_config *c, char *buf, size_t n)
{
    char thr[32];
    size_t k = 0;
    char d[40];
    k += (size_t)snprintf(buf + k, n - k, "%s", runinfo_disp(c, 0, d, sizeof d));
    if (k < n)
        k += (size_t)snprintf(buf + k, n - k, " | %s | %s | tol %g | max %d | thr %s | %s | cap %g | inner %s",
                              ds_filter_name(c->filter), ds_solver_name(c->solver), c->tol, c->max_iter,
                              runinfo_threads(c->threads, thr, sizeof thr), ds_backend_name(c->backend), c->cost.cap,
                              ds_inner_name(c->inner));
    if (k < n && c->inner == DS_INNER_PASSES) k += (size_t)snprintf(buf + k, n - k, " %d", c->inner_max);
    if (k < n && c->filter == DS_FILTER_EDSP)
        k += (size_t)snprintf(buf + k, n - k, " | edsp %d d%g", c->edsp_max_refresh, c->edsp_damping);
    if (k < n && c->solver == DS_SOLVER_NEWTON)
        k += (size_t)snprintf(buf + k, n - k, " | %s", ds_globalise_name(c->globalise));
    if (k < n) k += (size_t)snprintf(buf + k, n - k, " | start %s", ds_start_name(c->start));
    /* every other setting that changes the result, where it is not the
     * default: the line must say all a user needs to run it again */
    for (int i = 0; i < tui_n_settings_more && k < n; i++) {
        int row = settings_find(tui_settings_more[i]);
        char v[64];
        if (row >= 0 && settings_differs(row, c, v, sizeof v))
            k += (size_t)snprintf(buf + k, n - k, " | %s %s", tui_settings_more[i], v);
    }
}
