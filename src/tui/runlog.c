/* runlog.c - the session's runs as one CSV file, written on quit and on the
 * export key so that a session can be reviewed later: settings, status,
 * reason, iterations, final gap and the engine's times of every run. Written
 * through ds_file_write_atomic (a temporary file in the target directory,
 * synced and renamed), so a reader never sees half a file and a failure
 * leaves the old one. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ds_csv.h"
#include "settings.h"
#include "tui.h"

#define RUNLOG_HEADER                                                                                                  \
    "run,network,net_path,solver,filter,tau,mu,tol,max_iter,threads,backend,cap,inner,inner_max,edsp_refresh,"         \
    "edsp_damping,globalise,start,warm_from,status,iterations,gap_rel,wall_s,setup_s,paused_s,t_tol_s,"                \
    "lost_pct,max_imbalance,reason,evals,jv,queue,toll_factor,distance_factor,newton_warm,factor_mb"

/* RFC 4180 field: quoted, quotes doubled */
static void csv_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void write_rows(FILE *f, const tui_app *app)
{
    fprintf(f, "%s\n", RUNLOG_HEADER);
    for (int i = 0; i < app->s.n_runs; i++) {
        const tui_run *r = app->s.runs[i];
        const ds_config *c = &r->cfg;
        fprintf(f, "%d,", r->id);
        csv_str(f, r->net->name);
        fputc(',', f);
        csv_str(f, r->net->net_path);
        char tau[32] = ""; /* empty for a run given mu: its tau was not used */
        if (!(c->mu > 0)) snprintf(tau, sizeof tau, "%.17g", c->tau);
        fprintf(f, ",%s,%s,%s,%.17g,%.17g,%d,%d,%s,%.17g,%s,%d,%d,%.17g,%s,%s,", ds_solver_name(c->solver),
                ds_filter_name(c->filter), tau, r->mu, c->tol, c->max_iter, c->threads, ds_backend_name(c->backend),
                c->cost.cap, ds_inner_name(c->inner), c->inner_max, c->edsp_max_refresh, c->edsp_damping,
                ds_globalise_name(c->globalise), ds_start_name(c->start));
        if (r->warm && r->warm_from < 0)
            csv_str(f, r->warm_path);
        else if (r->warm)
            fprintf(f, "%d", r->warm_from);
        fprintf(f, ",%s,%d,", r->joined ? ds_status_name(r->status) : "running", r->n ? r->rec[r->n - 1].iter : 0);
        if (r->n && isfinite(r->rec[r->n - 1].gap_rel)) fprintf(f, "%.6e", r->rec[r->n - 1].gap_rel);
        fprintf(f, ",%.6f,%.6f,%.6f,", session_run_wall(r), r->times.setup, r->times.paused);
        if (r->joined && r->times.t_tol >= 0) fprintf(f, "%.6f", r->times.t_tol);
        fputc(',', f);
        if (r->cert.valid && r->cert.lost_pct >= 0) fprintf(f, "%.6g", r->cert.lost_pct);
        fputc(',', f);
        if (r->cert.valid) fprintf(f, "%.6g", r->cert.max_imbalance);
        fputc(',', f);
        csv_str(f, r->reason);
        fprintf(f, ",%d,%d,%d", r->n ? r->rec[r->n - 1].evals : 0, r->n ? r->rec[r->n - 1].jv : 0, r->queue);
        /* the other settings that change a result, as the settings view spells
         * them (toll and distance factors: "net" = the network file's) */
        for (int k = 0; k < tui_n_settings_more; k++) {
            char val[64] = "";
            int row = settings_find(tui_settings_more[k]);
            if (row >= 0) tui_settings[row].get(c, val, sizeof val);
            fprintf(f, ",%s", val);
        }
        fputc('\n', f);
    }
}

static int runlog_body(FILE *f, const void *app, ds_error *err)
{
    (void)err;
    write_rows(f, app);
    return ferror(f) ? -1 : 0;
}

int runlog_write(const tui_app *app, const char *path, ds_error *err)
{
    char dir[1024];
    /* the directory (XDG state) may not exist yet */
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir) return ds_error_set(err, path, 0, "path too long");
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(dir, 0700) != 0 && errno != EEXIST)
                return ds_error_set(err, path, 0, "cannot create %s: %s", dir, strerror(errno));
            *p = '/';
        }
    /* the one output writer (src/engine/flowcsv.c): regular files only (a
     * FIFO or /dev/null given as --runlog was replaced by a regular file), a
     * symlink written where it points, the old file's permissions kept, a
     * temporary file left by a killed TUI removed */
    return ds_file_write_atomic(path, runlog_body, app, err);
}
