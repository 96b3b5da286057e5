/* tcheck.h - the tiny test harness every tests/test_*.c uses.
 * Each check prints one line "PASS name", "FAIL name: why" or "SKIP name: why";
 * tests/run.sh counts them. TNTP files come from $DILLSUE_TNTP_DIR, default
 * ../shared/data/tntp (relative to the repository root, where tests run). */
#ifndef TCHECK_H
#define TCHECK_H
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int tc_failed_ = 0, tc_cur_failed_ = 0;
static char tc_cur_[256];

static inline void tc_begin(const char *name)
{
    snprintf(tc_cur_, sizeof tc_cur_, "%s", name);
    tc_cur_failed_ = 0;
}
static inline void tc_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    if (tc_cur_failed_++) return; /* report the first failure of a test only */
    printf("FAIL %s: %s:%d: ", tc_cur_, file, line);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    tc_failed_++;
}
static inline void tc_end(void)
{
    if (!tc_cur_failed_) printf("PASS %s\n", tc_cur_);
    fflush(stdout);
}
static inline void tc_skip(const char *name, const char *why)
{
    printf("SKIP %s: %s\n", name, why);
    fflush(stdout);
}

#define TC_CHECK(cond, ...)                                                                                            \
    do {                                                                                                               \
        if (!(cond)) tc_fail(__FILE__, __LINE__, __VA_ARGS__);                                                         \
    } while (0)
#define TC_NEAR(a, b, tol)                                                                                             \
    do {                                                                                                               \
        double a_ = (a), b_ = (b);                                                                                     \
        if (!(fabs(a_ - b_) <= (tol)))                                                                                 \
            tc_fail(__FILE__, __LINE__, "%s = %.17g, %s = %.17g, |diff| %.3g > %.3g", #a, a_, #b, b_, fabs(a_ - b_),   \
                    (double)(tol));                                                                                    \
    } while (0)

/* Path of a TNTP file, e.g. tc_tntp("SiouxFalls/SiouxFalls_net.tntp"), or NULL if absent. */
static inline const char *tc_tntp(const char *rel)
{
    static char buf[8][1024];
    static int k = 0;
    const char *dir = getenv("DILLSUE_TNTP_DIR");
    char *p = buf[k++ % 8];
    if (!dir || !*dir) dir = "../shared/data/tntp";
    snprintf(p, 1024, "%s/%s", dir, rel);
    return access(p, R_OK) == 0 ? p : NULL;
}
static inline int tc_exit(void) { return 0; } /* failures are counted from the output */
#endif
