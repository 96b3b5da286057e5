/* gpu_check.c - `make gpu-check`: GPU against CPU on every TNTP network.
 *
 * For each network under the TNTP directory and each variant (full, dsp) at
 * tau 10 with base demand, walks a short MSA sequence x_{k+1} = x_k +
 * (f(x_k) - x_k) / (k + 1) driven by the CPU flows, evaluates the loading map
 * on both backends at every point, and reports the worst MAPE (%) over the
 * points, the normwise error of J v at the last point and the time per
 * evaluation of each backend. Exit status 1 if a cell's MAPE exceeds the
 * paper's table 4 bound (6.1e-5 %) or the backends disagree on whether f(x)
 * exists; 0 otherwise, and 0 with a note on a machine without a GPU.
 *
 *   gpu_check [--emulate] [--dir DIR] [--net SUBSTR] [--tau T] [--points K]
 *             [--inner-max N] [--inner-tol E] [--threads N]
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
    int emulate, points, inner_max, threads;
    double tau, inner_tol;
    const char *dir, *only;
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

/* One table cell; returns 1 if it fails the bound, 0 otherwise. */
static int check_cell(const ds_network *net, ds_filter filter, const opts *o)
{
    int m = net->n_links, bad = 0, rc_c = 0, rc_g = 0, pts = 0;
    ds_config cfg;
    ds_cost_params cp;
    ds_error err;
    char buf[600];
    double mu, worst = 0, tc = 0, tg = 0, jerr = -1;
    double *x = calloc((size_t)m, sizeof(double)), *fc = calloc((size_t)m, sizeof(double));
    double *fg = calloc((size_t)m, sizeof(double)), *jc = calloc((size_t)m, sizeof(double));
    double *jg = calloc((size_t)m, sizeof(double));
    ds_loader *cpu;
    ds_gpu_loader *g = NULL;
    ds_load_stats st = {0}, gst = {0};
    /* the program's default costs: the cap, the network's toll and distance factors */
    ds_config_default(&cfg);
    cp = cfg.cost;
    if (isnan(cp.toll_factor)) cp.toll_factor = net->toll_factor;
    if (isnan(cp.distance_factor)) cp.distance_factor = net->distance_factor;
    mu = o->tau / ds_network_cbar(net, &cp);
    cpu = ds_loader_create(net, &cp, filter, mu, o->threads, o->inner_max, o->inner_tol, &err);
    if (!cpu || ds_loader_set_keep(cpu, 1) != 0 || !(g = ds_gpu_loader_create(cpu, o->emulate, &err))) {
        ds_error_format(&err, buf, sizeof buf);
        printf("%-22s %-5s  error: %s\n", net->name, ds_filter_name(filter), buf);
        bad = 1;
        goto out;
    }
    for (int k = 0; k <= o->points; k++) {
        double t0 = now_s();
        rc_c = ds_loader_eval(cpu, x, fc);
        tc += now_s() - t0;
        t0 = now_s();
        rc_g = ds_gpu_loader_eval(g, x, fg, &gst);
        tg += now_s() - t0;
        if (rc_g < 0) {
            printf("%-22s %-5s  GPU error: %s\n", net->name, ds_filter_name(filter), ds_gpu_last_error());
            bad = 1;
            goto out;
        }
        if (rc_c != rc_g) {
            printf("%-22s %-5s  disagree at point %d: f(x) exists on %s only\n", net->name, ds_filter_name(filter),
                   k, rc_c == 0 ? "the CPU" : "the GPU");
            bad = 1;
            goto out;
        }
        if (rc_c != 0) {
            if (k == 0) { /* no fixed point at free flow: start from capacity */
                for (int e = 0; e < m; e++) x[e] = net->capacity[e];
                rc_c = ds_loader_eval(cpu, x, fc);
                rc_g = ds_gpu_loader_eval(g, x, fg, &gst);
                if (rc_c == rc_g && rc_c == 0) goto compare;
                if (rc_c != rc_g) {
                    printf("%-22s %-5s  disagree at 1 x capacity\n", net->name, ds_filter_name(filter));
                    bad = 1;
                    goto out;
                }
            }
            break;
        }
    compare:
        pts++;
        double mp = mape(fg, fc, m);
        if (!(mp <= worst)) worst = mp;
        if (k == o->points) {
            double *v = jc; /* direction: the MSA step, reused buffer then overwritten */
            for (int e = 0; e < m; e++) v[e] = fc[e] - x[e];
            memcpy(fg, v, sizeof(double) * (size_t)m);
            if (ds_loader_jv(cpu, x, fg, jc) == 0 && ds_gpu_loader_jv(g, x, fg, jg, NULL) == 0) jerr = norm_err(jg, jc, m);
            break;
        }
        for (int e = 0; e < m; e++) x[e] += (fc[e] - x[e]) / (k + 1);
    }
    ds_loader_stats(cpu, &st);
    if (pts == 0) {
        printf("%-22s %-5s  f(x) does not exist at free flow nor at capacity on either backend (agree)\n", net->name,
               ds_filter_name(filter));
        goto out;
    }
    bad = !(worst <= MAPE_BOUND);
    printf("%-22s %-5s %7d %5d %11.3g %11.3g %10.2f %10.2f  %s\n", net->name, ds_filter_name(filter), m, net->n_dest,
           worst, jerr, 1e3 * tc / (o->points + 1), 1e3 * tg / (o->points + 1), bad ? "FAIL" : "ok");
    printf("%-22s        GPU phases last eval (ms): costs %.2f bellman %.2f (%d passes) absorb %.2f other %.2f\n", "",
           1e3 * gst.t_phase[DS_PHASE_COSTS], 1e3 * gst.t_phase[DS_PHASE_BELLMAN], gst.bellman_passes,
           1e3 * gst.t_phase[DS_PHASE_ABSORB], 1e3 * gst.t_phase[DS_PHASE_OTHER]);
out:
    fflush(stdout);
    ds_gpu_loader_free(g);
    ds_loader_free(cpu);
    free(x), free(fc), free(fg), free(jc), free(jg);
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

int main(int argc, char **argv)
{
    opts o = {0, 10, 500, 0, 10.0, 1e-13, NULL, NULL};
    char info[512], **nets = NULL;
    int n, fails = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--emulate")) o.emulate = 1;
        else if (!strcmp(a, "--dir") && val) o.dir = argv[++i];
        else if (!strcmp(a, "--net") && val) o.only = argv[++i];
        else if (!strcmp(a, "--tau") && val) o.tau = atof(argv[++i]);
        else if (!strcmp(a, "--points") && val) o.points = atoi(argv[++i]);
        else if (!strcmp(a, "--inner-max") && val) o.inner_max = atoi(argv[++i]);
        else if (!strcmp(a, "--inner-tol") && val) o.inner_tol = atof(argv[++i]);
        else if (!strcmp(a, "--threads") && val) o.threads = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: gpu_check [--emulate] [--dir DIR] [--net SUBSTR] [--tau T] [--points K] "
                            "[--inner-max N] [--inner-tol E] [--threads N]\n");
            return 2;
        }
    }
    if (!o.dir) o.dir = getenv("DILLSUE_TNTP_DIR");
    if (!o.dir || !*o.dir) o.dir = "../shared/data/tntp";
    if (!ds_gpu_probe(info, sizeof info) && !o.emulate) {
        printf("gpu-check: %s: nothing to compare on this machine (run it where a GPU is; --emulate runs the "
               "kernel bodies on the CPU instead)\n",
               info);
        return 0;
    }
    printf("gpu-check: %s; backend under test: %s; tau %g, %d MSA points, inner_max %d, inner_tol %g\n", info,
           o.emulate ? "emulation" : "cuda", o.tau, o.points + 1, o.inner_max, o.inner_tol);
    n = list_nets(o.dir, &nets);
    if (n < 0) {
        printf("gpu-check: cannot open %s (set DILLSUE_TNTP_DIR)\n", o.dir);
        return 1;
    }
    printf("%-22s %-5s %7s %5s %11s %11s %10s %10s\n", "network", "var", "links", "dest", "MAPE %", "Jv err",
           "CPU ms", "GPU ms");
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
            fails += check_cell(net, DS_FILTER_FULL, &o);
            fails += check_cell(net, DS_FILTER_DSP, &o);
        }
        ds_network_free(net);
        free(nets[i]);
    }
    free(nets);
    printf("gpu-check: %d cell(s) failed (bound: worst-cell MAPE <= %g %%)\n", fails, MAPE_BOUND);
    return fails ? 1 : 0;
}
