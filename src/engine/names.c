/* names.c - names of enums, as used on the command line, in CSV and on screen. */
#include <string.h>

#include "dillsue.h"

static const char *const filter_names[DS_FILTER_N] = {"full", "dsp", "bfs", "edsp"};
static const char *const solver_names[DS_SOLVER_N] = {"msa", "sra", "anderson", "newton"};
static const char *const backend_names[DS_BACKEND_N] = {"cpu", "cuda"};
static const char *const inner_names[DS_INNER_N] = {"direct", "passes"};
static const char *const step_names[DS_STEP_N] = {
    "start",           "msa",         "sra",          "sra-harmonic",  "anderson", "anderson-rejected", "newton",
    "newton-rejected", "newton-warm", "mask-refresh", "newton-recover"};
static const char *const globalise_names[DS_GLOBALISE_N] = {"linesearch", "paper", "ptc"};
static const char *const start_names[DS_START_N] = {"auto", "zero", "capacity", "dsp", "relax"};
static const char *const phase_names[DS_PHASE_N] = {"costs", "bellman", "absorb", "deriv", "other"};

#define NAME_OR_UNKNOWN(tab, n, i) (((int)(i) >= 0 && (int)(i) < (n)) ? (tab)[i] : "unknown")

const char *ds_filter_name(ds_filter f) { return NAME_OR_UNKNOWN(filter_names, DS_FILTER_N, f); }
const char *ds_solver_name(ds_solver_kind s) { return NAME_OR_UNKNOWN(solver_names, DS_SOLVER_N, s); }
const char *ds_backend_name(ds_backend b) { return NAME_OR_UNKNOWN(backend_names, DS_BACKEND_N, b); }
const char *ds_step_name(ds_step_kind k) { return NAME_OR_UNKNOWN(step_names, DS_STEP_N, k); }
const char *ds_phase_name(ds_phase p) { return NAME_OR_UNKNOWN(phase_names, DS_PHASE_N, p); }

static int lookup(const char *const *tab, int n, const char *s)
{
    for (int i = 0; s && i < n; i++)
        if (strcmp(tab[i], s) == 0) return i;
    return -1;
}
const char *ds_inner_name(ds_inner i) { return NAME_OR_UNKNOWN(inner_names, DS_INNER_N, i); }
int ds_inner_parse(const char *s) { return lookup(inner_names, DS_INNER_N, s); }
int ds_filter_parse(const char *s) { return lookup(filter_names, DS_FILTER_N, s); }
int ds_solver_parse(const char *s) { return lookup(solver_names, DS_SOLVER_N, s); }
int ds_backend_parse(const char *s) { return lookup(backend_names, DS_BACKEND_N, s); }
const char *ds_globalise_name(ds_globalise g) { return NAME_OR_UNKNOWN(globalise_names, DS_GLOBALISE_N, g); }
int ds_globalise_parse(const char *s) { return lookup(globalise_names, DS_GLOBALISE_N, s); }
const char *ds_start_name(ds_start s) { return NAME_OR_UNKNOWN(start_names, DS_START_N, s); }
int ds_start_parse(const char *s) { return lookup(start_names, DS_START_N, s); }

const char *ds_status_name(ds_status s)
{
    switch (s) {
    case DS_STATUS_PENDING: return "pending";
    case DS_STATUS_RUNNING: return "running";
    case DS_STATUS_CONVERGED: return "converged";
    case DS_STATUS_MAX_ITER: return "max-iterations";
    case DS_STATUS_ILL_POSED: return "ill-posed";
    case DS_STATUS_CANCELLED: return "cancelled";
    case DS_STATUS_ERROR: return "error";
    }
    return "unknown";
}

int ds_status_exit_code(ds_status s)
{
    switch (s) {
    case DS_STATUS_CONVERGED: return 0;
    case DS_STATUS_MAX_ITER: return 1;
    case DS_STATUS_ILL_POSED: return 3;
    case DS_STATUS_CANCELLED: return 4;
    default: return 2;
    }
}
