/* settings.c - the table of next-run settings (see settings.h). Numbers are
 * checked by the engine's rule for the setting (ds_setting_parse), names by
 * the engine's parsers: the same rules as `dillsue solve` and the config file. */
#include "settings.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WHY(...) (snprintf(why, n, __VA_ARGS__), -1)

/* %g that reads back as the same double */
static void fmt_num(double v, char *buf, size_t n)
{
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
}

/* Numbers through the engine's one rule per setting (ds_setting_parse), the
 * rule `dillsue solve` and the config file apply to the same option. */
static int rule(const char *name, const char *v, double *d, char *why, size_t n)
{
    char msg[160];
    while (*v == ' ') v++;
    if (ds_setting_parse(name, v, d, msg, sizeof msg) == 0) return 0;
    char *got = strstr(msg, ", got ");
    if (got) *got = 0; /* the caller quotes the value */
    return WHY("%s %s", name, msg);
}

/* a number setting of type T (int or double) checked by the engine's rule */
#define NUMBER(f, rulename, field, T, fmt)                                                                             \
    static int set_##f(ds_config *c, const char *v, char *why, size_t n)                                               \
    {                                                                                                                  \
        double d;                                                                                                      \
        if (rule(rulename, v, &d, why, n)) return -1;                                                                  \
        c->field = (T)d;                                                                                               \
        return 0;                                                                                                      \
    }                                                                                                                  \
    static void get_##f(const ds_config *c, char *b, size_t n) { fmt(c->field, b, n); }                                \
    static void cp_##f(ds_config *d, const ds_config *s) { d->field = s->field; }

static void fmt_int(int v, char *buf, size_t n) { snprintf(buf, n, "%d", v); }

static int set_tau(ds_config *c, const char *v, char *why, size_t n)
{
    double d;
    if (rule("tau", v, &d, why, n)) return -1;
    c->tau = d;
    c->mu = 0;
    return 0;
}
static void get_tau(const ds_config *c, char *b, size_t n) { fmt_num(c->tau, b, n); }
static void cp_tau(ds_config *d, const ds_config *s) { d->tau = s->tau; }

/* 0 = take mu from tau (the TUI's way to undo a mu) */
static int set_mu(ds_config *c, const char *v, char *why, size_t n)
{
    double d;
    while (*v == ' ') v++;
    if (!strcmp(v, "0")) {
        c->mu = 0;
        return 0;
    }
    if (rule("mu", v, &d, why, n)) return -1;
    c->mu = d;
    return 0;
}
static void get_mu(const ds_config *c, char *b, size_t n) { fmt_num(c->mu, b, n); }
static void cp_mu(ds_config *d, const ds_config *s) { d->mu = s->mu; }

NUMBER(tol, "tol", tol, double, fmt_num)
NUMBER(maxit, "max_iter", max_iter, int, fmt_int)
NUMBER(threads, "threads", threads, int, fmt_int)
NUMBER(cap, "cap", cost.cap, double, fmt_num)
NUMBER(imax, "inner_max", inner_max, int, fmt_int)
NUMBER(eref, "edsp_refresh", edsp_max_refresh, int, fmt_int)
NUMBER(edamp, "edsp_damping", edsp_damping, double, fmt_num)
NUMBER(nwarm, "newton_warm", newton_warm, int, fmt_int)
NUMBER(fmem, "factor_mb", factor_mb, double, fmt_num)

/* NAN = the network file's factor */
static int set_factor(double *f, const char *v, char *why, size_t n, const char *rulename)
{
    double d;
    if (!strcmp(v, "net") || !strcmp(v, "file")) {
        *f = NAN;
        return 0;
    }
    if (rule(rulename, v, &d, why, n)) return -1;
    *f = d;
    return 0;
}
static void get_factor(double f, char *b, size_t n)
{
    if (isnan(f))
        snprintf(b, n, "net");
    else
        fmt_num(f, b, n);
}
static int set_toll(ds_config *c, const char *v, char *why, size_t n)
{
    return set_factor(&c->cost.toll_factor, v, why, n, "toll_factor");
}
static void get_toll(const ds_config *c, char *b, size_t n) { get_factor(c->cost.toll_factor, b, n); }
static void cp_toll(ds_config *d, const ds_config *s) { d->cost.toll_factor = s->cost.toll_factor; }
static int set_dist(ds_config *c, const char *v, char *why, size_t n)
{
    return set_factor(&c->cost.distance_factor, v, why, n, "distance_factor");
}
static void get_dist(const ds_config *c, char *b, size_t n) { get_factor(c->cost.distance_factor, b, n); }
static void cp_dist(ds_config *d, const ds_config *s) { d->cost.distance_factor = s->cost.distance_factor; }

/* name-valued settings through the engine's parse and name functions */
#define CHOICE(field, type, parse, namefn, N, what)                                                                    \
    static const char *ch_##field(int i) { return namefn((type)i); }                                                   \
    static int set_##field(ds_config *c, const char *v, char *why, size_t n)                                           \
    {                                                                                                                  \
        int k = parse(v);                                                                                              \
        if (k < 0) {                                                                                                   \
            size_t u = (size_t)snprintf(why, n, "unknown " what " (");                                                 \
            for (int i = 0; i < N && u < n; i++)                                                                       \
                u += (size_t)snprintf(why + u, n - u, "%s%s", i ? "|" : "", namefn((type)i));                          \
            if (u < n) snprintf(why + u, n - u, ")");                                                                  \
            return -1;                                                                                                 \
        }                                                                                                              \
        c->field = (type)k;                                                                                            \
        return 0;                                                                                                      \
    }                                                                                                                  \
    static void get_##field(const ds_config *c, char *b, size_t n) { snprintf(b, n, "%s", namefn(c->field)); }         \
    static void cp_##field(ds_config *d, const ds_config *s) { d->field = s->field; }

CHOICE(filter, ds_filter, ds_filter_parse, ds_filter_name, DS_FILTER_N, "filter")
CHOICE(solver, ds_solver_kind, ds_solver_parse, ds_solver_name, DS_SOLVER_N, "solver")
CHOICE(backend, ds_backend, ds_backend_parse, ds_backend_name, DS_BACKEND_N, "backend")
CHOICE(inner, ds_inner, ds_inner_parse, ds_inner_name, DS_INNER_N, "inner solver")
CHOICE(globalise, ds_globalise, ds_globalise_parse, ds_globalise_name, DS_GLOBALISE_N, "globalisation")
CHOICE(start, ds_start, ds_start_parse, ds_start_name, DS_START_N, "start point")

#define ROW(name, opt, help, N, ch, f)                                                                                 \
    {                                                                                                                  \
        name, opt, help, N, ch, set_##f, get_##f, cp_##f                                                               \
    }
const tui_setting tui_settings[] = {
    ROW("tau", "--tau", "dispersion, > 0; mu = tau / cbar (sets mu to 0)", 0, NULL, tau),
    ROW("mu", "--mu", "dispersion directly, > 0; 0 = take it from tau", 0, NULL, mu),
    ROW("filter", "--filter", "link set of the loading map", DS_FILTER_N, ch_filter, filter),
    ROW("solver", "--solver", "outer fixed-point solver", DS_SOLVER_N, ch_solver, solver),
    ROW("tol", "--tol", "stop when gap_rel < tol, 0 < tol < 1", 0, NULL, tol),
    ROW("max_iter", "--max-iter", "at most this many outer iterations, 0..100000000", 0, NULL, maxit),
    ROW("threads", "--threads", "worker threads, 0 = all cores, 0..4096", 0, NULL, threads),
    ROW("backend", "--backend", "cpu, or cuda (needs a CUDA build and a GPU)", DS_BACKEND_N, ch_backend, backend),
    ROW("cap", "--cap", "cap on x/c in the BPR cost, >= 0, 0 = none", 0, NULL, cap),
    ROW("toll_factor", "--toll-factor", "generalized-cost weight of toll; net = the file's", 0, NULL, toll),
    ROW("distance_factor", "--distance-factor", "generalized-cost weight of length; net = the file's", 0, NULL, dist),
    ROW("inner", "--inner", "full graph inner solver: direct (sparse LU) or passes", DS_INNER_N, ch_inner, inner),
    ROW("inner_max", "--inner-max", "Bellman passes per evaluation (inner passes, cuda), >= 1", 0, NULL, imax),
    ROW("edsp_refresh", "--edsp-refresh", "eDSP: at most this many mask refreshes, 0..1000000", 0, NULL, eref),
    ROW("edsp_damping", "--edsp-damping", "eDSP: mask costs (1-D) old + D new, 0 < D <= 1", 0, NULL, edamp),
    ROW("globalise", "--globalise",
        "Newton: ptc (line search, regularised at the boundary of f), line search or the paper's rule", DS_GLOBALISE_N,
        ch_globalise, globalise),
    ROW("start", "--start", "start point when not warm: auto, zero, capacity, dsp, relax", DS_START_N, ch_start, start),
    ROW("newton_warm", "--newton-warm", "Newton: SRA steps first; -1 = 5 with paper, 0 otherwise", 0, NULL, nwarm),
    ROW("factor_mb", "--factor-memory", "inner direct: MiB of LU factors kept, >= 0", 0, NULL, fmem),
};
const int tui_n_settings = (int)(sizeof tui_settings / sizeof tui_settings[0]);

const char *const tui_settings_more[] = {"toll_factor", "distance_factor", "newton_warm", "factor_mb"};
const int tui_n_settings_more = (int)(sizeof tui_settings_more / sizeof tui_settings_more[0]);

int settings_differs(int i, const ds_config *c, char *v, size_t n)
{
    ds_config def;
    char dv[64];
    ds_config_default(&def);
    tui_settings[i].get(c, v, n);
    tui_settings[i].get(&def, dv, sizeof dv);
    return strcmp(v, dv) != 0;
}

int settings_find(const char *name)
{
    for (int i = 0; i < tui_n_settings; i++)
        if (!strcmp(tui_settings[i].name, name)) return i;
    return -1;
}

int settings_set(int i, ds_config *c, const char *value, char *msg, size_t n)
{
    ds_config t = *c;
    char why[200];
    if (i < 0 || i >= tui_n_settings) {
        snprintf(msg, n, "no such setting");
        return -1;
    }
    if (tui_settings[i].set(&t, value, why, sizeof why) != 0) {
        snprintf(msg, n, "%s, got \"%.60s\"; unchanged", why, value);
        return -1;
    }
    *c = t;
    char now[64];
    tui_settings[i].get(c, now, sizeof now);
    snprintf(msg, n, "%s = %s", tui_settings[i].name, now);
    return 0;
}

void settings_cycle(int i, ds_config *c, int dir)
{
    const tui_setting *s = &tui_settings[i];
    char cur[64], why[200];
    if (s->n_choices <= 0) return;
    s->get(c, cur, sizeof cur);
    int k = 0;
    for (int j = 0; j < s->n_choices; j++)
        if (!strcmp(cur, s->choice(j))) k = j;
    k = (k + dir + s->n_choices) % s->n_choices;
    s->set(c, s->choice(k), why, sizeof why);
}
