/* gpu_check.c - `make gpu-check`: GPU against CPU on every TNTP network and filter.
 *
 * For each network under the TNTP directory and each variant (full, dsp, bfs,
 * edsp) at tau 10 with base demand and the program's default costs:
 *   - the loading map on both backends along a short MSA sequence
 *     x_{k+1} = x_k + (f(x_k) - x_k) / (k + 1) driven by the CPU flows, from
 *     x = 0 or, where f(0) does not exist, the first s x capacity (s = 1, 2,
 *     4, ... 100) where it does; the worst MAPE (%) over the points (paper
 *     table 4: <= 6.1e-5 %), the normwise error of J v at the last point, the
 *     time per evaluation of each backend and the speed-up; on edsp the mask is
 *     refreshed at the last point on the CPU, re-read by the GPU and compared
 *     once more;
 *   - unless --no-solve, a whole `solve` (Newton, tol 1e-7) on each backend:
 *     status, wall time, speed-up and the MAPE of the final flows.
 * The full graph uses the exact inner solvers on both sides (CPU sparse LU,
 * GPU batched BiCGSTAB) unless --inner passes. The CPU runs on 2 threads
 * unless --threads. Exit status 1 if a cell exceeds the MAPE bound or the
 * backends disagree on whether f(x) exists or on a solve's status; 0
 * otherwise, and 0 with a note on a machine without a GPU.
 *
 *   gpu_check [--emulate] [--dir DIR] [--net SUBSTR] [--filter LIST] [--tau T]
 *             [--points K] [--threads N] [--inner direct|passes] [--inner-max N]
 *             [--inner-tol E] [--no-solve]
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dillsue.h"
#include "gpu.h"

#define MAPE_BOUND 6.1e-5 /* percent, paper table 4 */

typedef struct opts {
    int emulate, points, inner_max, threads, solve;
    ds_inner inner;
    double tau, inner_tol;
    const char *dir, *only;
    int filters[DS_FILTER_N], n_filters;
} opts;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Mean absolute percentage error over links the CPU loads (> 1e-9 of the max). */
static double mape(const double *g, const double *c, int m)
{
    double big = 0, acc = 0;
    int cnt = 0;
    for (int e = 0; e < m; e++)
        if (fabs(c[e]) > big) big = fabs(c[e]);
    for (int e = 0; e < m; e++)
        if (fabs(c[e]) > 1e-9 * big) {
            acc += fabs(g[e] - c[e]) / fabs(c[e]);
            cnt++;
        }
    return cnt ? 100.0 * acc / cnt : 0;
}

static double norm_err(const double *a, const double *b, int m)
{
    double big = 0, worst = 0;
    for (int e = 0; e < m; e++) {
        if (fabs(b[e]) > big) big = fabs(b[e]);
        if (!(fabs(a[e] - b[e]) <= worst)) worst = fabs(a[e] - b[e]);
    }
    return big > 0 ? worst / big : worst;
}

/* The program's default costs: the cap, the network's toll and distance factors. */
static ds_cost_params default_costs(const ds_network *net)
{
    ds_config cfg;
    ds_cost_params cp;
    ds_config_default(&cfg);
    cp = cfg.cost;
    if (isnan(cp.toll_factor)) cp.toll_factor = net->toll_factor;
    if (isnan(cp.distance_factor)) cp.distance_factor = net->distance_factor;
    return cp;
}

typedef struct cell {
    const ds_network *net;
    ds_filter filter;
    const opts *o;
    ds_loader *cpu;
    ds_gpu_loader *g;
    double *x, *fc, *fg;
    double tc, tg;
    int n_eval;
    ds_load_stats gst; /* of the last GPU evaluation */
} cell;

/* f(x) on both backends, timed. 0 both exist, 1 neither, -1 GPU error or the
 * backends disagree (printed). */
static int eval_both(cell *c, const char *where)
{
    const char *fn = ds_filter_name(c->filter);
    ds_load_stats *st = &c->gst;
    double t0 = now_s();
    int rc_c = ds_loader_eval(c->cpu, c->x, c->fc), rc_g;
    c->tc += now_s() - t0;
    t0 = now_s();
    rc_g = ds_gpu_loader_eval(c->g, c->x, c->fg, st);
    c->tg += now_s() - t0;
    c->n_eval++;
    if (rc_g < 0) {
        printf("%-22s %-5s  GPU error at %s: %s\n", c->net->name, fn, where, ds_gpu_last_error());
        return -1;
    }
    if (rc_c != rc_g) {
        printf("%-22s %-5s  disagree at %s: f(x) %s on the CPU, %s on the GPU\n", c->net->name, fn, where,
               rc_c == 0 ? "exists" : "does not exist",
               rc_g == 0         ? "exists"
               : st->unconverged ? "inner solve unconverged"
                                 : "no positive solution");
        return -1;
    }
    return rc_c == 0 ? 0 : 1;
}

/* Loading-map comparison along the MSA path; returns 1 if the cell fails. */
static int check_maps(cell *c, double *worst, double *jerr)
{
    const ds_network *net = c->net;
    int m = net->n_links, rc = 1;
    double s = 0;
    char where[64];
    /* a start where f exists: 0, else s x capacity */
    for (;;) {
        for (int e = 0; e < m; e++) c->x[e] = s * net->capacity[e];
        snprintf(where, sizeof where, "x = %g x capacity", s);
        rc = eval_both(c, where);
        if (rc <= 0 || s >= 100) break;
        s = s == 0 ? 1 : 2 * s > 100 ? 100 : 2 * s;
    }
    if (rc < 0) return 1;
    if (rc > 0) {
        printf("%-22s %-5s  f(x) does not exist at 0 nor at s x capacity up to 100 on either backend (GPU: %s)\n",
               net->name, ds_filter_name(c->filter),
               c->gst.unconverged ? "inner solve unconverged" : "no positive solution");
        *worst = -1;
        return 0;
    }
    for (int k = 0;; k++) {
        double mp = mape(c->fg, c->fc, m);
        if (!(mp <= *worst)) *worst = mp;
        if (k == c->o->points) break;
        memcpy(c->fg, c->x, sizeof(double) * (size_t)m); /* the last point where f exists */
        for (int e = 0; e < m; e++) c->x[e] += (c->fc[e] - c->x[e]) / (k + 1);
        snprintf(where, sizeof where, "MSA point %d", k + 1);
        rc = eval_both(c, where);
        if (rc < 0) return 1;
        if (rc > 0) {
            /* both say f does not exist here: J v and edsp at the last point where it does */
            memcpy(c->x, c->fg, sizeof(double) * (size_t)m);
            if (eval_both(c, "the last point again") != 0) return 1;
            break;
        }
    }
    if (c->filter == DS_FILTER_EDSP) {
        /* the mask at the costs of the last point, on both */
        double *t = malloc(sizeof(double) * (size_t)m);
        long add = 0, rem = 0;
        ds_cost_params cp = default_costs(net);
        if (!t) return 1;
        ds_costs_eval(net, &cp, c->x, t);
        rc = ds_loader_refresh_mask(c->cpu, t, &add, &rem, NULL) != 0 || ds_gpu_loader_sync_dags(c->g) != 0;
        free(t);
        if (rc) {
            printf("%-22s %-5s  mask refresh failed: %s\n", net->name, "edsp", ds_gpu_last_error());
            return 1;
        }
        if (eval_both(c, "the refreshed mask") != 0) return 1;
        double mp = mape(c->fg, c->fc, m);
        if (!(mp <= *worst)) *worst = mp;
    }
    /* J v in the direction of the MSA step */
    {
        double *v = malloc(sizeof(double) * (size_t)m), *jc = malloc(sizeof(double) * (size_t)m);
        double *jg = malloc(sizeof(double) * (size_t)m);
        if (v && jc && jg) {
            for (int e = 0; e < m; e++) v[e] = c->fc[e] - c->x[e];
            if (ds_loader_jv(c->cpu, c->x, v, jc) == 0 && ds_gpu_loader_jv(c->g, c->x, v, jg, NULL) == 0)
                *jerr = norm_err(jg, jc, m);
        }
        free(v), free(jc), free(jg);
    }
    return !(*worst <= MAPE_BOUND);
}

/* A whole Newton solve on one backend: status, seconds, final flows into x. */
static ds_status solve_one(const cell *c, ds_backend backend, double *x, double *sec, char *reason, size_t n)
{
    ds_config cfg;
    ds_error err;
    ds_run *run;
    ds_status st;
    double t0;
    ds_config_default(&cfg);
    cfg.tau = c->o->tau;
    cfg.filter = c->filter;
    cfg.threads = c->o->threads;
    cfg.backend = backend;
    cfg.cuda_emulate = c->o->emulate;
    cfg.inner = c->o->inner;
    cfg.inner_max = c->o->inner_max;
    cfg.inner_tol = c->o->inner_tol;
    run = ds_run_create(c->net, &cfg, &err);
    if (!run) {
        ds_error_format(&err, reason, n);
        return DS_STATUS_ERROR;
    }
    t0 = now_s();
    st = ds_run_execute(run);
    *sec = now_s() - t0;
    ds_run_reason(run, reason, n);
    if (ds_run_snapshot(run, x, NULL, NULL) < 0) memset(x, 0, sizeof(double) * (size_t)c->net->n_links);
    ds_run_free(run);
    return st;
}

/* One table row (and its solve line); returns 1 if the cell fails. */
static int check_cell(const ds_network *net, ds_filter filter, const opts *o)
{
    int m = net->n_links, bad = 0;
    ds_cost_params cp = default_costs(net);
    ds_error err;
    char buf[600];
    double worst = 0, jerr = -1;
    cell c = {net, filter, o, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, {0}};
    c.x = calloc((size_t)m, sizeof(double));
    c.fc = calloc((size_t)m, sizeof(double));
    c.fg = calloc((size_t)m, sizeof(double));
    c.cpu = ds_loader_create(net, &cp, filter, o->tau / ds_network_cbar(net, &cp), o->threads, o->inner_max,
                             o->inner_tol, &err);
    if (!c.x || !c.fc || !c.fg || !c.cpu || ds_loader_set_inner(c.cpu, o->inner) != 0 ||
        ds_loader_set_keep(c.cpu, 1) != 0 || !(c.g = ds_gpu_loader_create(c.cpu, o->emulate, &err))) {
        ds_error_format(&err, buf, sizeof buf);
        printf("%-22s %-5s  error: %s\n", net->name, ds_filter_name(filter), buf);
        bad = 1;
        goto out;
    }
    ds_gpu_loader_set_inner(c.g, o->inner);
    bad = check_maps(&c, &worst, &jerr);
    if (worst >= 0 && !bad)
        printf("%-22s %-5s %7d %5d %11.3g %11.3g %10.2f %10.2f %8.1fx  %s\n", net->name, ds_filter_name(filter), m,
               net->n_dest, worst, jerr, 1e3 * c.tc / c.n_eval, 1e3 * c.tg / c.n_eval, c.tg > 0 ? c.tc / c.tg : 0,
               "ok");
    else if (worst > MAPE_BOUND)
        printf("%-22s %-5s %7d %5d %11.3g %11.3g %10s %10s %9s  FAIL (MAPE bound %g %%)\n", net->name,
               ds_filter_name(filter), m, net->n_dest, worst, jerr, "", "", "", MAPE_BOUND);
    if (o->solve) {
        double *xc = calloc((size_t)m, sizeof(double)), *xg = calloc((size_t)m, sizeof(double)), sc = 0, sg = 0;
        char rc_[512], rg_[512];
        ds_status stc = DS_STATUS_ERROR, stg = DS_STATUS_ERROR;
        if (xc && xg) {
            stc = solve_one(&c, DS_BACKEND_CPU, xc, &sc, rc_, sizeof rc_);
            stg = solve_one(&c, DS_BACKEND_CUDA, xg, &sg, rg_, sizeof rg_);
        }
        if (stc != stg) {
            printf("%-22s %-5s  solve: CPU %s (%s), GPU %s (%s)  FAIL\n", "", ds_filter_name(filter),
                   ds_status_name(stc), rc_, ds_status_name(stg), rg_);
            bad = 1;
        } else {
            printf("%-22s %-5s  solve: %s on both; CPU %.3f s, GPU %.3f s, %.1fx; final flows MAPE %.3g %%\n", "",
                   ds_filter_name(filter), ds_status_name(stc), sc, sg, sg > 0 ? sc / sg : 0, mape(xg, xc, m));
        }
        free(xc), free(xg);
    }
out:
    fflush(stdout);
    ds_gpu_loader_free(c.g);
    ds_loader_free(c.cpu);
    free(c.x), free(c.fc), free(c.fg);
    return bad;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every *_net.tntp one level below dir, sorted. */
static int list_nets(const char *dir, char ***out)
{
    DIR *d = opendir(dir), *sd;
    struct dirent *de, *se;
    char **v = NULL, path[1400];
    int n = 0;
    if (!d) return -1;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (!(sd = opendir(path))) continue;
        while ((se = readdir(sd))) {
            size_t l = strlen(se->d_name);
            if (l > 9 && strcmp(se->d_name + l - 9, "_net.tntp") == 0) {
                char **nv = realloc(v, sizeof(char *) * (size_t)(n + 1));
                if (!nv) break;
                v = nv;
                snprintf(path, sizeof path, "%s/%s/%s", dir, de->d_name, se->d_name);
                v[n++] = strdup(path);
            }
        }
        closedir(sd);
    }
    closedir(d);
    qsort(v, (size_t)n, sizeof(char *), cmp_str);
    *out = v;
    return n;
}

static int usage(void)
{
    fprintf(stderr, "usage: gpu_check [--emulate] [--dir DIR] [--net SUBSTR] [--filter full,dsp,bfs,edsp] [--tau T]\n"
                    "                 [--points K] [--threads N] [--inner direct|passes] [--inner-max N]\n"
                    "                 [--inner-tol E] [--no-solve]\n");
    return 2;
}

static int parse_filters(opts *o, const char *list)
{
    char buf[128], *save = NULL;
    snprintf(buf, sizeof buf, "%s", list);
    o->n_filters = 0;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int f = ds_filter_parse(t);
        if (f < 0 || o->n_filters == DS_FILTER_N) return -1;
        o->filters[o->n_filters++] = f;
    }
    return o->n_filters > 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    opts o = {0, 10, 50, 2, 1, DS_INNER_DIRECT, 10.0, 1e-13, NULL, NULL, {0}, 0};
    char info[512], **nets = NULL;
    int n, fails = 0;
    parse_filters(&o, "full,dsp,bfs,edsp");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--emulate"))
            o.emulate = 1;
        else if (!strcmp(a, "--no-solve"))
            o.solve = 0;
        else if (!val)
            return usage();
        else if (!strcmp(a, "--dir"))
            o.dir = argv[++i];
        else if (!strcmp(a, "--net"))
            o.only = argv[++i];
        else if (!strcmp(a, "--tau"))
            o.tau = atof(argv[++i]);
        else if (!strcmp(a, "--points"))
            o.points = atoi(argv[++i]);
        else if (!strcmp(a, "--inner-max"))
            o.inner_max = atoi(argv[++i]);
        else if (!strcmp(a, "--inner-tol"))
            o.inner_tol = atof(argv[++i]);
        else if (!strcmp(a, "--threads"))
            o.threads = atoi(argv[++i]);
        else if (!strcmp(a, "--inner")) {
            int in = ds_inner_parse(argv[++i]);
            if (in < 0) return usage();
            o.inner = (ds_inner)in;
        } else if (!strcmp(a, "--filter")) {
            if (parse_filters(&o, argv[++i]) != 0) return usage();
        } else
            return usage();
    }
    if (!(o.tau > 0) || o.points < 0 || o.inner_max < 1 || o.threads < 0) return usage();
    if (!o.dir) o.dir = getenv("DILLSUE_TNTP_DIR");
    if (!o.dir || !*o.dir) o.dir = "../shared/data/tntp";
    if (!ds_gpu_probe(info, sizeof info) && !o.emulate) {
        printf("gpu-check: %s: nothing to compare on this machine (run it where a GPU is; --emulate runs the "
               "kernel bodies on the CPU instead)\n",
               info);
        return 0;
    }
    printf("gpu-check: %s; backend under test: %s; tau %g, %d MSA points, CPU threads %d, full-graph inner %s\n", info,
           o.emulate ? "emulation" : "cuda", o.tau, o.points + 1, o.threads, ds_inner_name(o.inner));
    n = list_nets(o.dir, &nets);
    if (n < 0) {
        printf("gpu-check: cannot open %s (set DILLSUE_TNTP_DIR)\n", o.dir);
        return 1;
    }
    printf("%-22s %-5s %7s %5s %11s %11s %10s %10s %9s\n", "network", "var", "links", "dest", "MAPE %", "Jv err",
           "CPU ms", "GPU ms", "speed-up");
    for (int i = 0; i < n; i++) {
        ds_error err;
        ds_network *net;
        char buf[600];
        if (o.only && !strstr(nets[i], o.only)) {
            free(nets[i]);
            continue;
        }
        net = ds_network_load(nets[i], NULL, NULL, NULL, &err);
        if (!net) {
            ds_error_format(&err, buf, sizeof buf);
            printf("%-22s skipped: %s\n", nets[i], buf);
        } else if (net->n_dest == 0) {
            printf("%-22s skipped: no demand\n", net->name);
        } else {
            for (int f = 0; f < o.n_filters; f++) fails += check_cell(net, (ds_filter)o.filters[f], &o);
        }
        ds_network_free(net);
        free(nets[i]);
    }
    free(nets);
    printf("gpu-check: %d cell(s) failed (bound: worst-cell MAPE <= %g %%; CPU ms and GPU ms per evaluation)\n", fails,
           MAPE_BOUND);
    return fails ? 1 : 0;
}
