/* test_tui_stall.c - the links panel's stall test counts iterations, not
 * records: an eDSP refresh's record repeats its iteration. */
#include "tcheck.h"
#include "tui.h"

/* a run of n records: iteration it[i], gap_rel g[i] */
static void fill(tui_run *r, ds_iter_record *rec, double *gap, const int *it, const double *g, size_t n)
{
    memset(r, 0, sizeof *r);
    for (size_t i = 0; i < n; i++) {
        memset(&rec[i], 0, sizeof rec[i]);
        rec[i].iter = it[i];
        rec[i].gap_rel = gap[i] = g[i];
    }
    r->rec = rec, r->gap = gap, r->n = n;
}

int main(void)
{
    enum { N = 120 };
    static ds_iter_record rec[N];
    static double gap[N], g[N];
    static int it[N];
    tui_run r;

    tc_begin("tui_stall_counts_iterations");
    /* iterations 0..59, each its own record, the gap halved every 10: no stall */
    for (int i = 0; i < 60; i++) it[i] = i, g[i] = pow(0.5, i / 10.0);
    fill(&r, rec, gap, it, g, 60);
    TC_CHECK(panel_links_stalled(&r) == 0, "steady fall read as %d", panel_links_stalled(&r));
    /* 45 iterations with 20 repeated (eDSP refresh) records: 65 records, too
     * few iterations for the test (counted by record, it compared with
     * a point 50 records but only 30-odd iterations back) */
    int n = 0;
    for (int i = 0; i < 45; i++) {
        it[n] = i, g[n++] = 1.0;
        if (i >= 25) it[n] = i, g[n++] = 1.0;
    }
    fill(&r, rec, gap, it, g, (size_t)n);
    TC_CHECK(n > TUI_STALL_K && panel_links_stalled(&r) == -1, "%d records of 45 iterations: %d", n,
             panel_links_stalled(&r));
    /* 70 iterations, flat for the last 55: stalled */
    for (int i = 0; i < 70; i++) it[i] = i, g[i] = i < 15 ? pow(0.5, i) : pow(0.5, 15);
    fill(&r, rec, gap, it, g, 70);
    TC_CHECK(panel_links_stalled(&r) == 1, "flat gap read as %d", panel_links_stalled(&r));
    /* a retired run: every tenth record kept; 70 iterations in 7 records */
    for (int i = 0; i < 7; i++) it[i] = 10 * i + 9, g[i] = pow(0.5, i);
    fill(&r, rec, gap, it, g, 7);
    TC_CHECK(panel_links_stalled(&r) == 0, "thinned run's fall read as %d", panel_links_stalled(&r));
    tc_end();
    return tc_exit();
}
