/* sweep_data.c - the data of a sweep directory without solving anything: the
 * grid and its sweep.conf text, cell rows (journal and cells.csv), reading a
 * directory's journals back, percentiles. Shared by `dillsue sweep` and the
 * TUI's sweep viewer. */
#include "sweep_data.h"

#include "ds_scenario.h"
#include "infile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

long sweep_grid_total(const sweep_grid *g) { return (long)g->scenarios * g->n_disp * g->n_filter * g->n_solver; }

sweep_cell_id sweep_grid_cell(const sweep_grid *g, long index)
{
    sweep_cell_id id;
    id.s = (int)(index % g->n_solver);
    index /= g->n_solver;
    id.f = (int)(index % g->n_filter);
    index /= g->n_filter;
    id.d = (int)(index % g->n_disp);
    id.k = (int)(index / g->n_disp);
    return id;
}

/* ------------------------------------------------------------ sweep.conf */

void sweep_grid_defaults(sweep_grid *g)
{
    ds_config d;
    ds_config_default(&d);
    memset(g, 0, sizeof *g);
    g->n_disp = 1;
    g->disp[0] = d.tau;
    g->n_filter = 1;
    g->filter[0] = d.filter;
    g->n_solver = 1;
    g->solver[0] = d.solver;
    g->tol = d.tol;
    g->max_iter = d.max_iter;
    g->cap = d.cost.cap;
    g->ue_gap = SWEEP_UE_GAP_DEFAULT;
    g->ue_max_iter = SWEEP_UE_MAX_ITER_DEFAULT;
    g->inner = d.inner;
    g->inner_max = d.inner_max;
    g->globalise = d.globalise;
    g->start = d.start;
    g->newton_warm = d.newton_warm;
    g->edsp_refresh = d.edsp_max_refresh;
    g->factor_mb = d.factor_mb;
    g->edsp_damping = d.edsp_damping;
}

static const char *inner_name(int i) { return ds_inner_name((ds_inner)i); }
static const char *globalise_name(int i) { return ds_globalise_name((ds_globalise)i); }
static const char *start_name(int i) { return ds_start_name((ds_start)i); }

/* The solver settings of sweep.conf beyond the lists: key, the rule of the
 * setting (numbers) or the names (choices), where it is in the grid. */
static const struct knob {
    const char *key, *rule;
    int (*parse)(const char *);
    const char *(*name)(int);
    size_t off;
    int is_int;
    const char *option; /* `dillsue solve`'s option of the setting */
} knobs[] = {
    {"inner", NULL, ds_inner_parse, inner_name, offsetof(sweep_grid, inner), 1, "inner"},
    {"inner_max", "inner_max", NULL, NULL, offsetof(sweep_grid, inner_max), 1, "inner-max"},
    {"globalise", NULL, ds_globalise_parse, globalise_name, offsetof(sweep_grid, globalise), 1, "globalise"},
    {"start", NULL, ds_start_parse, start_name, offsetof(sweep_grid, start), 1, "start"},
    {"newton_warm", "newton_warm", NULL, NULL, offsetof(sweep_grid, newton_warm), 1, "newton-warm"},
    {"factor_mb", "factor_mb", NULL, NULL, offsetof(sweep_grid, factor_mb), 0, "factor-memory"},
    {"edsp_refresh", "edsp_refresh", NULL, NULL, offsetof(sweep_grid, edsp_refresh), 1, "edsp-refresh"},
    {"edsp_damping", "edsp_damping", NULL, NULL, offsetof(sweep_grid, edsp_damping), 0, "edsp-damping"},
};

static double knob_get(const sweep_grid *g, const struct knob *k)
{
    const char *p = (const char *)g + k->off;
    return k->is_int ? *(const int *)p : *(const double *)p;
}

/* key=value of a knob into g: 0, or -1 with the rule's words in why. */
static int knob_set(sweep_grid *g, const struct knob *k, const char *v, char *why, size_t n)
{
    double x = 0;
    char *p = (char *)g + k->off;
    if (k->parse) {
        int c = k->parse(v);
        if (c < 0) return snprintf(why, n, "unknown name"), -1;
        x = c;
    } else if (ds_setting_parse(k->rule, v, &x, why, n) != 0) {
        return -1;
    }
    if (k->is_int)
        *(int *)p = (int)x;
    else
        *(double *)p = x;
    return 0;
}

void sweep_grid_format(const sweep_grid *g, char *buf, size_t n)
{
    size_t u = 0;
#define PUT(...) (u += (size_t)snprintf(buf + (u < n ? u : n), u < n ? n - u : 0, __VA_ARGS__))
    PUT("# dillsue sweep grid (written by dillsue sweep; --resume and --merge read it)\n");
    PUT("version=1\nnet=%s\ntrips=%s\nscenarios=%d\nseed=%llu\n", g->net, g->trips, g->scenarios, g->seed);
    if (g->inputs[0]) PUT("inputs=%s\n", g->inputs); /* (only when known: older directories read the same) */
    PUT("%s=", g->use_mu ? "mu" : "tau");
    for (int i = 0; i < g->n_disp; i++) PUT("%s%.17g", i ? "," : "", g->disp[i]);
    PUT("\nfilter=");
    for (int i = 0; i < g->n_filter; i++) PUT("%s%s", i ? "," : "", ds_filter_name((ds_filter)g->filter[i]));
    PUT("\nsolver=");
    for (int i = 0; i < g->n_solver; i++) PUT("%s%s", i ? "," : "", ds_solver_name((ds_solver_kind)g->solver[i]));
    PUT("\ntol=%.17g\nmax_iter=%d\ncap=%.17g\nue=%d\n", g->tol, g->max_iter, g->cap, g->ue);
    if (g->ue) PUT("ue_gap=%.17g\nue_max_iter=%d\n", g->ue_gap, g->ue_max_iter);
    if (g->flows) PUT("flows=1\n"); /* (only when set: older directories read the same) */
    /* only what differs from the defaults: the directory of a sweep made
     * before these keys existed still reads as the same grid */
    sweep_grid d;
    sweep_grid_defaults(&d);
    for (size_t i = 0; i < sizeof knobs / sizeof *knobs; i++) {
        const struct knob *k = &knobs[i];
        double x = knob_get(g, k);
        if (x == knob_get(&d, k)) continue;
        if (k->name)
            PUT("%s=%s\n", k->key, k->name((int)x));
        else
            PUT("%s=%.17g\n", k->key, x);
    }
#undef PUT
}

/* A regular file's checksum only: a FIFO's bytes are the network's, read
 * once (and opening one without a writer would block). */
static int fnv_file(const char *path, uint64_t *h)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return -1;
    FILE *f = fopen(path, "rb");
    unsigned char buf[65536];
    size_t got;
    if (!f) return -1;
    *h = 1469598103934665603ULL;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < got; i++) *h = (*h ^ buf[i]) * 1099511628211ULL;
    int bad = ferror(f);
    fclose(f);
    return bad ? -1 : 0;
}

int sweep_inputs_sum(const sweep_grid *g, char *out, size_t n)
{
    char sib[1100];
    const char *trips = g->trips[0] ? g->trips : ds_tntp_sibling(g->net, "trips", sib, sizeof sib) ? sib : NULL;
    uint64_t a, b;
    if (n) out[0] = 0;
    if (!trips || fnv_file(g->net, &a) != 0 || fnv_file(trips, &b) != 0) return -1;
    snprintf(out, n, "%016llx:%016llx", (unsigned long long)a, (unsigned long long)b);
    return 0;
}

/* A path as one shell word: as it is where it holds only characters no
 * shell treats specially, else in single quotes (a quote as '\''). */
size_t sweep_shell_word(const char *s, char *buf, size_t n)
{
    size_t u = 0;
    int plain = *s != 0;
    for (const char *p = s; *p && plain; p++)
        plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                strchr("_./+-,:=@%", *p) != NULL;
#define PUTC(c) (u + 1 < n ? (void)(buf[u] = (c)) : (void)0, u++)
    if (!plain) PUTC('\'');
    for (const char *p = s; *p; p++) {
        if (!plain && *p == '\'') {
            PUTC('\''), PUTC('\\'), PUTC('\''), PUTC('\'');
        } else
            PUTC(*p);
    }
    if (!plain) PUTC('\'');
#undef PUTC
    if (n) buf[u < n ? u : n - 1] = 0;
    return u;
}

/* x in the fewest significant digits (up to 17) that read back as x; a
 * whole number below 1e15 without an exponent (30, not 3e+01) */
static const char *exact(double x, char *buf, size_t n)
{
    if (x == floor(x) && fabs(x) < 1e15) {
        snprintf(buf, n, "%.0f", x);
        return buf;
    }
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, n, "%.*g", p, x);
        if (strtod(buf, NULL) == x) break;
    }
    return buf;
}

size_t sweep_cell_command(const sweep_grid *g, sweep_cell_id id, char *buf, size_t n)
{
    size_t u = 0;
    char w[2200], a[32], b[32];
#define PUT(...) (u += (size_t)snprintf(buf + (u < n ? u : n), u < n ? n - u : 0, __VA_ARGS__))
    sweep_shell_word(g->net, w, sizeof w);
    PUT("dillsue solve --net %s", w);
    if (g->trips[0]) {
        sweep_shell_word(g->trips, w, sizeof w);
        PUT(" --trips %s", w);
    }
    PUT(" --scenario %d --seed %llu --%s %s --filter %s --solver %s --tol %s --max-iter %d", id.k, g->seed,
        g->use_mu ? "mu" : "tau", exact(g->disp[id.d], a, sizeof a), ds_filter_name((ds_filter)g->filter[id.f]),
        ds_solver_name((ds_solver_kind)g->solver[id.s]), exact(g->tol, b, sizeof b), g->max_iter);
    sweep_grid d;
    sweep_grid_defaults(&d);
    if (g->cap != d.cap) PUT(" --cap %s", exact(g->cap, a, sizeof a));
    for (size_t i = 0; i < sizeof knobs / sizeof *knobs; i++) {
        const struct knob *k = &knobs[i];
        double x = knob_get(g, k);
        if (x == knob_get(&d, k)) continue;
        if (k->name)
            PUT(" --%s %s", k->option, k->name((int)x));
        else
            PUT(" --%s %s", k->option, exact(x, a, sizeof a));
    }
#undef PUT
    return u;
}

/* Comma-separated list of names or numbers. Returns the count or -1. */
static int parse_names(const char *v, int *out, int max, int (*parse)(const char *))
{
    char tmp[512], *save = NULL;
    int n = 0;
    if (strlen(v) >= sizeof tmp) return -1; /* never parse a list cut short */
    snprintf(tmp, sizeof tmp, "%s", v);
    for (char *t = strtok_r(tmp, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int x = parse(t);
        if (x < 0 || n >= max) return -1;
        for (int i = 0; i < n; i++)
            if (out[i] == x) return -1;
        out[n++] = x;
    }
    return n ? n : -1;
}

/* Comma-separated numbers, each by the rule of setting (as on the command
 * line). Returns the count, or -1 with the rule's words in why. */
static int parse_numbers(const char *v, const char *setting, double *out, int max, char *why, size_t n_why)
{
    /* 64 values of up to 24 characters (%.17g) and their commas: a list cut
     * to a shorter buffer read back as another grid (its last value cut
     * mid-number), and MPI worker ranks solved the cells of that grid */
    char tmp[4096], *save = NULL;
    int n = 0;
    if (strlen(v) >= sizeof tmp) return snprintf(why, n_why, "list too long"), -1;
    snprintf(tmp, sizeof tmp, "%s", v);
    for (char *t = strtok_r(tmp, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (n >= max || ds_setting_parse(setting, t, &out[n], why, n_why) != 0) return -1;
        for (int i = 0; i < n; i++) /* (the command line refuses a value listed twice too) */
            if (out[i] == out[n]) return snprintf(why, n_why, "%s listed twice (items %d and %d)", t, i + 1, n + 1), -1;
        n++;
    }
    return n ? n : -1;
}

/* One list of the grid: kind "tau" or "mu" (numbers), "filter" or "solver"
 * (names, no repeats). Returns 0 or -1 (why: the rule's words, if a number). */
static int parse_list(const char *kind, const char *v, sweep_grid *g, char *why, size_t n_why)
{
    if (!strcmp(kind, "filter"))
        return (g->n_filter = parse_names(v, g->filter, DS_FILTER_N, ds_filter_parse)) < 0 ? -1 : 0;
    if (!strcmp(kind, "solver"))
        return (g->n_solver = parse_names(v, g->solver, DS_SOLVER_N, ds_solver_parse)) < 0 ? -1 : 0;
    return (g->n_disp = parse_numbers(v, kind, g->disp, SWEEP_MAX_LIST, why, n_why)) < 0 ? -1 : 0;
}

/* A number of sweep.conf by the rule of its setting (as on the command line):
 * 0, or 1 with the rule's words in why. */
static int setting(const char *name, const char *v, double *out, char *why, size_t n)
{
    return ds_setting_parse(name, v, out, why, n) != 0;
}

static const struct knob *knob_find(const char *key)
{
    for (size_t i = 0; i < sizeof knobs / sizeof *knobs; i++)
        if (!strcmp(knobs[i].key, key)) return &knobs[i];
    return NULL;
}

/* s without leading and trailing blanks (spaces, tabs, CR), in place */
static void trim(char *s)
{
    size_t a = strspn(s, " \t\r"), n = strlen(s);
    while (n > a && strchr(" \t\r", s[n - 1])) n--;
    memmove(s, s + a, n - a);
    s[n - a] = '\0';
}

int sweep_grid_parse(const char *text, const char *path, sweep_grid *g, ds_error *err)
{
    sweep_grid_defaults(g);
    g->n_disp = g->n_filter = g->n_solver = 0;
    long lineno = 0;
    int seen_grid = 0;
    char seen[64][24]; /* the keys read: each at most once (a second would silently win) */
    int n_seen = 0;
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char line[4200]; /* a tau list of 64 values in %.17g, a net path of 1023 bytes */
        lineno++;
        if (len >= sizeof line) return ds_error_set(err, path, lineno, "line too long");
        memcpy(line, p, len);
        line[len] = '\0';
        p += len + (e ? 1 : 0);
        /* as the TUI's settings file is read: a BOM, CRLF and spaces around key and value */
        char *ln = line;
        if (lineno == 1 && !memcmp(ln, "\xEF\xBB\xBF", 3)) ln += 3;
        trim(ln);
        if (!ln[0] || ln[0] == '#') continue;
        char *eq = strchr(ln, '=');
        if (!eq) return ds_error_set(err, path, lineno, "expected key=value, got '%s'", ln);
        *eq = '\0';
        char *k = ln, *v = eq + 1;
        trim(k);
        trim(v);
        char why[160] = "";
        double x = 0;
        int bad = 0;
        for (int i = 0; i < n_seen; i++)
            if (!strcmp(seen[i], k) ||
                ((!strcmp(k, "tau") || !strcmp(k, "mu")) && (!strcmp(seen[i], "tau") || !strcmp(seen[i], "mu"))))
                return ds_error_set(err, path, lineno, "%s given a second time (the grid names each key once)", k);
        if (n_seen < 64 && strlen(k) < sizeof seen[0]) memcpy(seen[n_seen++], k, strlen(k) + 1); /* fits: checked */
        if (!strcmp(k, "version"))
            bad = strcmp(v, "1") != 0;
        else if (!strcmp(k, "net") || !strcmp(k, "trips")) {
            /* a path longer than the grid holds was cut to fit, and --resume,
             * --merge and the viewer named another file than the sweep's */
            size_t lv = strlen(v);
            if (lv >= sizeof g->net)
                return ds_error_set(err, path, lineno, "%s path of %zu bytes, longer than the %zu a sweep holds", k, lv,
                                    sizeof g->net - 1);
            memcpy(k[0] == 'n' ? g->net : g->trips, v, lv + 1);
        } else if (!strcmp(k, "inputs")) {
            size_t lv = strlen(v);
            bad = lv != 33 || v[16] != ':' || strspn(v, "0123456789abcdef") != 16 ||
                  strspn(v + 17, "0123456789abcdef") != 16;
            if (bad) snprintf(why, sizeof why, "two checksums of 16 hex digits joined by ':'");
            if (!bad) memcpy(g->inputs, v, lv + 1);
        } else if (!strcmp(k, "scenarios"))
            bad = setting("scenarios", v, &x, why, sizeof why), g->scenarios = (int)x;
        else if (!strcmp(k, "seed")) {
            uint64_t sd = 0;
            bad = ds_parse_seed(v, &sd) != 0, g->seed = sd;
        } else if (!strcmp(k, "tau") || !strcmp(k, "mu")) {
            g->use_mu = !strcmp(k, "mu");
            bad = parse_list(k, v, g, why, sizeof why) != 0;
            seen_grid |= 1;
        } else if (!strcmp(k, "filter"))
            bad = parse_list(k, v, g, why, sizeof why) != 0, seen_grid |= 2;
        else if (!strcmp(k, "solver"))
            bad = parse_list(k, v, g, why, sizeof why) != 0, seen_grid |= 4;
        else if (!strcmp(k, "tol"))
            bad = setting("tol", v, &g->tol, why, sizeof why);
        else if (!strcmp(k, "max_iter"))
            bad = setting("max_iter", v, &x, why, sizeof why), g->max_iter = (int)x;
        else if (!strcmp(k, "cap"))
            bad = setting("cap", v, &g->cap, why, sizeof why);
        else if (!strcmp(k, "ue"))
            bad = strcmp(v, "0") && strcmp(v, "1"), g->ue = !strcmp(v, "1");
        else if (!strcmp(k, "flows"))
            bad = strcmp(v, "0") && strcmp(v, "1"), g->flows = !strcmp(v, "1");
        else if (!strcmp(k, "ue_gap"))
            bad = setting("gap", v, &g->ue_gap, why, sizeof why);
        else if (!strcmp(k, "ue_max_iter"))
            bad = setting("max_iter", v, &x, why, sizeof why), g->ue_max_iter = (int)x;
        else if (knob_find(k))
            bad = knob_set(g, knob_find(k), v, why, sizeof why) != 0;
        else
            return ds_error_set(err, path, lineno, "unknown key '%s'", k);
        if (bad) return ds_error_set(err, path, lineno, "bad value '%s' for %s%s%s", v, k, why[0] ? ": " : "", why);
    }
    if (!g->net[0] || g->scenarios < 1 || seen_grid != 7)
        return ds_error_set(err, path, 0, "incomplete sweep grid (needs net, scenarios, tau or mu, filter, solver)");
    return 0;
}

/* ------------------------------------------------------------ cell rows */

const char sweep_cells_header[] =
    "cell,scenario,seed,tau,mu,filter,solver,status,reason,iterations,evaluations,jv,gap_rel,"
    "lost_od,lost_demand,total_flow,veh_time,mape_ue,wall_s,t_end,rank,worker\n";

/* A value that is not a finite number is written as an empty field (read
 * back as NaN): the reader refuses inf and nan as every reader of numbers
 * does (ds_parse_double), and a row it refuses is redone. */
static const char *num(char *b, size_t n, double v)
{
    if (!isfinite(v))
        b[0] = '\0';
    else
        snprintf(b, n, "%.17g", v);
    return b;
}

int sweep_result_format(const sweep_grid *g, const sweep_result *r, char *buf, size_t n)
{
    sweep_cell_id id = sweep_grid_cell(g, r->cell);
    char reason[2 * sizeof r->reason + 3], *q = reason;
    char a[8][32];
    *q++ = '"';
    for (const char *s = r->reason; *s && s < r->reason + sizeof r->reason; s++) {
        if (*s == '"') *q++ = '"';
        *q++ = (*s == '\n' || *s == '\r') ? ' ' : *s;
    }
    *q++ = '"';
    *q = '\0';
    int len =
        snprintf(buf, n, "%ld,%d,%llu,%s,%s,%s,%s,%s,%s,%d,%d,%d,%s,%d,%s,%s,%s,%s,%.6f,%.6f,%d,%d\n", r->cell, id.k,
                 g->seed, num(a[0], 32, r->tau), num(a[1], 32, r->mu), ds_filter_name((ds_filter)g->filter[id.f]),
                 ds_solver_name((ds_solver_kind)g->solver[id.s]), ds_status_name((ds_status)r->status), reason,
                 r->iterations, r->evals, r->jv, num(a[2], 32, r->gap_rel), r->lost_od, num(a[3], 32, r->lost_demand),
                 num(a[4], 32, r->total_flow), num(a[5], 32, r->veh_time), num(a[6], 32, r->mape_ue), r->wall_s,
                 r->t_end, r->rank, r->worker);
    return len < 0 ? 0 : (len < (int)n ? len : (int)n - 1);
}

/* Next field of a row (quoted fields unescaped into out). Returns the
 * position after the separator, or NULL at a malformed field. */
static const char *field(const char *p, char *out, size_t n, int *last)
{
    size_t k = 0;
    if (*p == '"') {
        p++;
        for (;;) {
            if (!*p || *p == '\n') return NULL;
            if (*p == '"') {
                if (p[1] == '"')
                    p++;
                else {
                    p++;
                    break;
                }
            }
            if (k + 1 < n) out[k++] = *p;
            p++;
        }
    } else {
        while (*p && *p != ',' && *p != '\n') {
            if (k + 1 < n) out[k++] = *p;
            p++;
        }
    }
    out[k] = '\0';
    if (*p == ',') {
        *last = 0;
        return p + 1;
    }
    *last = 1;
    return *p == '\n' ? p + 1 : p;
}

int sweep_parse_double(const char *s, double *v) { return ds_parse_double(s, v) == 0 ? 0 : -1; }

int sweep_parse_int(const char *s, long lo, long hi, long *v)
{
    long x;
    if (ds_parse_long(s, &x) != 0 || x < lo || x > hi) return -1;
    *v = x;
    return 0;
}

/* a number of a row: finite and decimal (ds_parse_double: no inf, nan or
 * hexadecimal), or empty for NaN (num) */
static int to_d(const char *s, double *v)
{
    if (!*s) {
        *v = NAN;
        return 0;
    }
    return sweep_parse_double(s, v);
}

/* a count or index of a row: decimal digits that fit the int it is kept in */
static int to_i(const char *s, long *v) { return sweep_parse_int(s, 0, INT_MAX, v); }

int sweep_result_parse(const sweep_grid *g, const char *line, sweep_result *r)
{
    enum { NF = 22 };
    char f[NF][256];
    int last = 0, nf = 0;
    const char *p = line;
    size_t len = strlen(line);
    if (!len || line[len - 1] != '\n') return -1; /* a line cut short by a kill */
    while (nf < NF) {
        p = field(p, f[nf], sizeof f[nf], &last);
        if (!p) return -1;
        nf++;
        if (last) break;
    }
    if (nf != NF || !last) return -1;
    memset(r, 0, sizeof *r);
    long v[8];
    double d[8];
    int st = -1;
    for (int s = DS_STATUS_PENDING; s <= DS_STATUS_ERROR; s++)
        if (!strcmp(f[7], ds_status_name((ds_status)s))) st = s;
    if (sweep_parse_int(f[0], 0, LONG_MAX, &v[0]) || to_i(f[1], &v[1]) || to_d(f[3], &d[0]) || to_d(f[4], &d[1]) ||
        st < 0 || to_i(f[9], &v[2]) || to_i(f[10], &v[3]) || to_i(f[11], &v[4]) || to_d(f[12], &d[2]) ||
        to_i(f[13], &v[5]) || to_d(f[14], &d[3]) || to_d(f[15], &d[4]) || to_d(f[16], &d[5]) || to_d(f[17], &d[6]) ||
        to_d(f[18], &r->wall_s) || to_d(f[19], &r->t_end) || to_i(f[20], &v[6]) || to_i(f[21], &v[7]))
        return -1;
    if (v[0] < 0 || v[0] >= sweep_grid_total(g)) return -1;
    sweep_cell_id id = sweep_grid_cell(g, v[0]);
    /* the row is this grid's cell: scenario, seed, tau (or mu: the value the
     * grid lists, to the bit), filter and solver; a journal copied from a
     * sweep of another grid is skipped, never taken for these cells */
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", g->seed);
    double disp = g->use_mu ? d[1] : d[0];
    if (id.k != v[1] || strcmp(f[2], seed) || !(disp == g->disp[id.d]) ||
        strcmp(f[5], ds_filter_name((ds_filter)g->filter[id.f])) ||
        strcmp(f[6], ds_solver_name((ds_solver_kind)g->solver[id.s])))
        return -1;
    r->cell = v[0];
    r->tau = d[0];
    r->mu = d[1];
    r->status = st;
    sweep_copy_text(r->reason, sizeof r->reason, f[8]);
    r->iterations = (int)v[2];
    r->evals = (int)v[3];
    r->jv = (int)v[4];
    r->gap_rel = d[2];
    r->lost_od = (int)v[5];
    r->lost_demand = d[3];
    r->total_flow = d[4];
    r->veh_time = d[5];
    r->mape_ue = d[6];
    r->rank = (int)v[6];
    r->worker = (int)v[7];
    return 0;
}

/* ------------------------------------------------------------ statistics */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double sweep_percentile(double *v, int n, double p)
{
    if (n <= 0) return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    double pos = p / 100.0 * (n - 1);
    int lo = (int)floor(pos);
    if (lo >= n - 1) return v[n - 1];
    double w = pos - lo;
    return v[lo] + w * (v[lo + 1] - v[lo]);
}

/* ------------------------------------------------------------ directories */

/* Seconds as 42s, 3m05s or 2h07m; ? where unknown (ETA of the progress line and the viewer). */
void sweep_fmt_duration(double s, char *buf, size_t n)
{
    if (!isfinite(s) || s < 0)
        snprintf(buf, n, "?");
    else if (s < 60)
        snprintf(buf, n, "%.0fs", s);
    else if (s < 3600)
        snprintf(buf, n, "%dm%02ds", (int)(s / 60), (int)fmod(s, 60));
    else
        snprintf(buf, n, "%dh%02dm", (int)(s / 3600), (int)fmod(s / 60, 60));
}

void sweep_copy_text(char *dst, size_t n, const char *src)
{
    size_t l = strlen(src);
    if (!n) return;
    if (l >= n) l = n - 1;
    memcpy(dst, src, l);
    dst[l] = '\0';
}

char *sweep_read_file(const char *path, size_t *len)
{
    /* opened without blocking and kept only if a regular file: a FIFO put
     * where a journal or sweep.conf belongs blocked the sweep (and the TUI's
     * thread) in open until a writer came */
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return NULL;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        int e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        close(fd);
        errno = e;
        return NULL;
    }
    FILE *fp = fdopen(fd, "rb");
    if (!fp) {
        close(fd);
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, fp)) > 0) {
        n += got;
        if (n > DS_INFILE_MAX_BYTES) {
            free(buf);
            fclose(fp);
            errno = EFBIG;
            return NULL;
        }
        if (cap - n - 1 == 0) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(fp);
    if (buf) buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

int sweep_is_journal(const char *name)
{
    size_t n = strlen(name);
    return !strncmp(name, "journal", 7) && n >= 11 && !strcmp(name + n - 4, ".csv");
}

long sweep_load_journals(const char *dir, const sweep_grid *g, sweep_result *res, unsigned char *done, long *bad_lines)
{
    DIR *dp = opendir(dir);
    long n_done = 0;
    if (bad_lines) *bad_lines = 0;
    if (!dp) return -1;
    struct dirent *de;
    while ((de = readdir(dp))) {
        if (!sweep_is_journal(de->d_name)) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        char *text = sweep_read_file(path, NULL);
        if (!text) continue;
        char *p = text;
        while (*p) {
            char *e = strchr(p, '\n');
            char save = 0;
            if (e) {
                save = e[1];
                e[1] = '\0';
            }
            sweep_result r;
            if (!strncmp(p, "cell,", 5)) {
                /* header */
            } else if (sweep_result_parse(g, p, &r) == 0) {
                if (!done[r.cell]) n_done++;
                done[r.cell] = 1;
                res[r.cell] = r;
            } else if (bad_lines) {
                (*bad_lines)++;
            }
            if (!e) break;
            e[1] = save;
            p = e + 1;
        }
        free(text);
    }
    closedir(dp);
    return n_done;
}
