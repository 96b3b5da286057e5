/* settings.c - the one set of number parsers and the one rule per numeric
 * setting, shared by every reader: TNTP and CSV files, the command line of
 * every command, the TUI's config file. */
#include "dillsue.h"
#include "c_locale.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Decimal only: hexadecimal floats, "inf" and "nan" are refused (no data file
 * writes them on purpose, and each tool reads them differently). */
static int decimal_text(const char *s)
{
    if (!*s) return 0;
    for (const char *q = s; *q; q++)
        if (!((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E' || *q == '+' || *q == '-')) return 0;
    return 1;
}

/* Clinger's fast path (PLDI 1990): a decimal [+-]digits[.digits][e[+-]digits]
 * whose digits make an integer w <= 2^53 and whose scale 10^k has |k| <= 22
 * is w * 10^k or w / 10^-k: both operands are exact doubles, so the one
 * rounding of the product or quotient is the correctly rounded value, the
 * same bits strtod gives. Returns 0 with *out set, or -1 (not that form:
 * strtod decides). Data files are almost all this form; strtod's general
 * path was a fifth of the time to read Berlin-Center. */
static int fast_decimal(const char *s, double *out)
{
    static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *q = s;
    int neg = 0, digits = 0, frac = 0, ex = 0, exneg = 0, exdig = 0;
    unsigned long long w = 0;
    if (*q == '+' || *q == '-') neg = *q++ == '-';
    for (; *q >= '0' && *q <= '9'; q++, digits++) {
        if (w > (1ULL << 53) / 10) return -1;
        w = w * 10 + (unsigned)(*q - '0');
    }
    if (*q == '.')
        for (q++; *q >= '0' && *q <= '9'; q++, digits++, frac++) {
            if (w > (1ULL << 53) / 10) return -1;
            w = w * 10 + (unsigned)(*q - '0');
        }
    if (!digits) return -1;
    if (*q == 'e' || *q == 'E') {
        q++;
        if (*q == '+' || *q == '-') exneg = *q++ == '-';
        for (; *q >= '0' && *q <= '9'; q++, exdig++)
            if ((ex = ex * 10 + (*q - '0')) > 1000) return -1;
        if (!exdig) return -1;
    }
    if (*q || w > (1ULL << 53)) return -1;
    int k = (exneg ? -ex : ex) - frac;
    if (k < -22 || k > 22) return -1;
    double v = (double)w;
    v = k >= 0 ? v * p10[k] : v / p10[-k];
    *out = neg ? -v : v;
    return 0;
}

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static void c_locale_make(void) { c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0); }

locale_t ds_c_locale(void)
{
    pthread_once(&c_locale_once, c_locale_make);
    return c_locale;
}

double ds_strtod_c(const char *s, char **end)
{
    locale_t c = ds_c_locale();
    return c ? strtod_l(s, end, c) : strtod(s, end);
}

int ds_parse_double(const char *s, double *out)
{
    char *e;
    double v;
    if (!s) return -1;
    if (fast_decimal(s, out) == 0) return 0;
    if (!decimal_text(s)) {
        /* inf, infinity, nan (any case, signed) are numbers, just not finite ones */
        const char *w = s + (*s == '-' || *s == '+');
        return (!strcasecmp(w, "inf") || !strcasecmp(w, "infinity") || !strcasecmp(w, "nan")) ? -2 : -1;
    }
    errno = 0;
    v = ds_strtod_c(s, &e); /* not the caller's locale: files are "C" */
    if (e == s || *e) return -1;
    if (!isfinite(v)) return -2;
    *out = v; /* ERANGE on underflow still gives the nearest value */
    return 0;
}

int ds_parse_long(const char *s, long *out)
{
    char *e;
    long v;
    if (!s || !*s) return -1;
    for (const char *q = s; *q; q++)
        if (!((*q >= '0' && *q <= '9') || (q == s && (*q == '-' || *q == '+')))) return -1;
    errno = 0;
    v = strtol(s, &e, 10);
    if (e == s || *e) return -1;
    if (errno == ERANGE) return -2;
    *out = v;
    return 0;
}

/* name, integer, lo, hi, lo excluded, hi excluded, what it is */
static const ds_setting_rule rules[] = {
    {"tau", 0, 0, DBL_MAX, 1, 0, "dispersion (mu = tau / cbar)"},
    {"mu", 0, 0, DBL_MAX, 1, 0, "dispersion per unit cost"},
    {"tol", 0, 0, 1, 1, 1, "gap_rel tolerance"},
    {"max_iter", 1, 0, 100000000, 0, 0, "outer iterations"},
    {"threads", 1, 0, 4096, 0, 0, "worker threads (0 = all cores)"},
    {"cap", 0, 0, DBL_MAX, 0, 0, "cap on x/c (0 = none)"},
    {"toll_factor", 0, -DBL_MAX, DBL_MAX, 0, 0, "generalized-cost weight of toll"},
    {"distance_factor", 0, -DBL_MAX, DBL_MAX, 0, 0, "generalized-cost weight of length"},
    {"inner_max", 1, 1, 1000000000, 0, 0, "Bellman passes per evaluation"},
    {"edsp_refresh", 1, 0, 1000000, 0, 0, "eDSP mask refreshes"},
    {"edsp_damping", 0, 0, 1, 1, 0, "eDSP mask damping"},
    {"newton_warm", 1, -1, 1000000, 0, 0, "SRA steps before Newton (-1: by the globalisation)"},
    {"factor_mb", 0, 0, 1e12, 0, 0, "MiB of LU factors kept"},
    {"progress_s", 0, 0, 1e9, 0, 0, "seconds of an iteration without output before a progress line"},
    {"checkpoint_s", 0, 0, 1e9, 0, 0, "seconds between checkpoints of a run's outputs (0 = none)"},
    {"cuda_emulate", 1, 0, 1, 0, 0, "cuda backend in CPU emulation (1) or on a device (0)"},
    {"scenario", 1, 0, INT_MAX, 0, 0, "scenario number"},
    {"gap", 0, 0, 1, 0, 1, "UE relative gap"},
    {"min_ref", 0, 0, DBL_MAX, 0, 0, "MAPE threshold on the reference flow"},
    {"delay_ms", 1, 10, 60000, 0, 0, "milliseconds between screen updates"},
    {"scenarios", 1, 1, INT_MAX, 0, 0, "scenarios of a sweep"},
    {"workers", 1, 0, 256, 0, 0, "cells solved at once (0 = cores / threads)"},
};

const ds_setting_rule *ds_setting_find(const char *name)
{
    for (size_t i = 0; i < sizeof rules / sizeof *rules; i++)
        if (!strcmp(rules[i].name, name)) return &rules[i];
    return NULL;
}

static void fmt_bound(double v, char *buf, size_t n)
{
    if (v >= DBL_MAX)
        snprintf(buf, n, "inf");
    else if (v <= -DBL_MAX)
        snprintf(buf, n, "-inf");
    else
        snprintf(buf, n, "%.15g", v);
}

/* 0 if v is within r's range, else -1 with msg naming the range and text */
static int range_msg(const ds_setting_rule *r, double v, const char *text, char *msg, size_t n)
{
    char lo[32], hi[32];
    if (!(v < r->lo || v > r->hi || (r->lo_open && v == r->lo) || (r->hi_open && v == r->hi))) return 0;
    fmt_bound(r->lo, lo, sizeof lo);
    fmt_bound(r->hi, hi, sizeof hi);
    if (r->hi >= DBL_MAX)
        snprintf(msg, n, "must be %s %s %s, got '%.40s'", r->integer ? "an integer" : "a number",
                 r->lo_open ? ">" : ">=", lo, text);
    else if (r->lo <= -DBL_MAX)
        snprintf(msg, n, "must be %s %s, got '%.40s'", r->hi_open ? "<" : "<=", hi, text);
    else
        snprintf(msg, n, "must be in %s%s, %s%s, got '%.40s'", r->lo_open ? "(" : "[", lo, hi, r->hi_open ? ")" : "]",
                 text);
    return -1;
}

int ds_setting_parse(const char *name, const char *text, double *out, char *msg, size_t n)
{
    const ds_setting_rule *r = ds_setting_find(name);
    double v = 0;
    int rc;
    if (!r) {
        snprintf(msg, n, "unknown setting '%s'", name);
        return -1;
    }
    if (r->integer) {
        long l = 0;
        rc = ds_parse_long(text, &l);
        v = (double)l;
        if (rc == -1) {
            snprintf(msg, n, "needs an integer, got '%.40s'", text);
            return -1;
        }
        if (rc == -2) v = text[0] == '-' ? -HUGE_VAL : HUGE_VAL;
    } else {
        rc = ds_parse_double(text, &v);
        if (rc == -1) {
            snprintf(msg, n, "needs a decimal number, got '%.40s'", text);
            return -1;
        }
        if (rc == -2) {
            snprintf(msg, n, "must be finite, got '%.40s'", text);
            return -1;
        }
    }
    if (range_msg(r, v, text, msg, n)) return -1;
    *out = v;
    return 0;
}

int ds_setting_check(const char *name, double v, char *msg, size_t n)
{
    const ds_setting_rule *r = ds_setting_find(name);
    char text[40];
    if (!r) {
        snprintf(msg, n, "unknown setting '%s'", name);
        return -1;
    }
    snprintf(text, sizeof text, "%.15g", v);
    if (isnan(v) || (!r->integer && isinf(v))) {
        snprintf(msg, n, "must be finite, got '%s'", text);
        return -1;
    }
    if (r->integer && v != floor(v)) {
        snprintf(msg, n, "needs an integer, got '%s'", text);
        return -1;
    }
    return range_msg(r, v, text, msg, n);
}
