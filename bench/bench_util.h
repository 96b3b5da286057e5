/* bench_util.h - small helpers shared by the bench programs (each bench .c
 * file is its own program, so everything here is static). */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "dillsue.h"

static inline double bu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int bu_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n-1] (sorts v). */
static inline double bu_median(double *v, int n)
{
    if (n <= 0) return NAN;
    qsort(v, (size_t)n, sizeof *v, bu_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static inline const char *bu_tntp_dir(void)
{
    const char *d = getenv("DILLSUE_TNTP_DIR");
    return d && d[0] ? d : "../shared/data/tntp";
}

static inline int bu_ends_with_ci(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcasecmp(s + a - b, suf) == 0;
}

/* The net file in directory dir/sub ("X_net.tntp" or "X.net.tntp") into out.
 * Returns 0 if found. */
static inline int bu_find_net(const char *dir, const char *sub, char *out, size_t n)
{
    char path[512];
    DIR *dp;
    struct dirent *de;
    int found = -1;
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    dp = opendir(path);
    if (!dp) return -1;
    while ((de = readdir(dp)) != NULL) {
        if (bu_ends_with_ci(de->d_name, "_net.tntp") || bu_ends_with_ci(de->d_name, ".net.tntp")) {
            snprintf(out, n, "%.511s/%.255s", path, de->d_name);
            found = 0;
            break;
        }
    }
    closedir(dp);
    return found;
}

/* Cost parameters as a run resolves them: defaults, then the net file's factors. */
/* Column `col` (2: flow, 3: cost) of a flow CSV (`dillsue solve --out`:
 * init_node,term_node,flow,cost by link order) into v[m]; 0, or -1 unless it
 * has m rows. */
static inline int bu_read_flow_csv(const char *path, int col, double *v, int m)
{
    FILE *fp = fopen(path, "r");
    char line[1024];
    int k = 0;
    if (!fp || !fgets(line, sizeof line, fp)) {
        if (fp) fclose(fp);
        return -1;
    }
    while (k < m && fgets(line, sizeof line, fp)) {
        int a, b;
        double f[2];
        if (sscanf(line, "%d,%d,%lf,%lf", &a, &b, &f[0], &f[1]) >= col + 1) v[k++] = f[col - 2];
    }
    fclose(fp);
    return k == m ? 0 : -1;
}

static inline ds_cost_params bu_cost_params(const ds_network *net)
{
    ds_config c;
    ds_config_default(&c);
    if (isnan(c.cost.toll_factor)) c.cost.toll_factor = net->toll_factor;
    if (isnan(c.cost.distance_factor)) c.cost.distance_factor = net->distance_factor;
    return c.cost;
}

/* Seconds as a short human figure: "12.3 ms", "1.23 s". */
static inline void bu_fmt_time(double s, char *buf, size_t n)
{
    if (!(s >= 0))
        snprintf(buf, n, "-");
    else if (s < 1e-3)
        snprintf(buf, n, "%.1f us", s * 1e6);
    else if (s < 1)
        snprintf(buf, n, "%.2f ms", s * 1e3);
    else
        snprintf(buf, n, "%.3f s", s);
}
#endif
