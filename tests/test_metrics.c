/* test_metrics.c - MAPE, R^2, max abs diff and the flow-dependent mask,
 * against values worked out by hand. */
#include "ds_metrics.h"
#include "tcheck.h"

int main(void)
{
    /* ref >= 1 on links 0 and 2 only: MAPE = (2/8 + 5/25)/2 = 22.5 %.
     * mean ref = 33.4/4 = 8.35; SS_tot = 0.1225 + 63.2025 + 277.2225 + 69.7225 = 410.27;
     * SS_res = 4 + 0.01 + 25 + 9 = 38.01. */
    const double x[4] = {10, 0.5, 20, 3}, ref[4] = {8, 0.4, 25, 0};
    ds_metrics m;

    tc_begin("metrics_all_links");
    TC_CHECK(ds_metrics_compare(x, ref, 4, NULL, 1.0, &m) == 0, "returned nonzero");
    TC_NEAR(m.mape, 22.5, 1e-12);
    TC_NEAR(m.r2, 1.0 - 38.01 / 410.27, 1e-12);
    TC_NEAR(m.max_abs, 5.0, 0);
    TC_CHECK(m.n_used == 4 && m.n_mape == 2, "counts %d %d", m.n_used, m.n_mape);
    tc_end();

    /* Mask drops link 2: MAPE over link 0 only = 25 %; mean ref = 8.4/3 = 2.8;
     * SS_tot = 27.04 + 5.76 + 7.84 = 40.64; SS_res = 4 + 0.01 + 9 = 13.01. */
    tc_begin("metrics_masked");
    const unsigned char mask[4] = {1, 1, 0, 1};
    TC_CHECK(ds_metrics_compare(x, ref, 4, mask, 1.0, &m) == 0, "returned nonzero");
    TC_NEAR(m.mape, 25.0, 1e-12);
    TC_NEAR(m.r2, 1.0 - 13.01 / 40.64, 1e-12);
    TC_NEAR(m.max_abs, 3.0, 0);
    TC_CHECK(m.n_used == 3 && m.n_mape == 1, "counts %d %d", m.n_used, m.n_mape);
    tc_end();

    tc_begin("metrics_min_ref_threshold");
    /* min_ref 10 keeps only link 2: MAPE = 20 %. */
    TC_CHECK(ds_metrics_compare(x, ref, 4, NULL, 10.0, &m) == 0, "returned nonzero");
    TC_NEAR(m.mape, 20.0, 1e-12);
    TC_CHECK(m.n_mape == 1, "n_mape %d", m.n_mape);
    /* ref exactly at the threshold counts (>=). */
    TC_CHECK(ds_metrics_compare(x, ref, 4, NULL, 8.0, &m) == 0 && m.n_mape == 2, "n_mape %d", m.n_mape);
    tc_end();

    tc_begin("metrics_identical");
    TC_CHECK(ds_metrics_compare(ref, ref, 4, NULL, 1.0, &m) == 0, "returned nonzero");
    TC_NEAR(m.mape, 0.0, 0);
    TC_NEAR(m.r2, 1.0, 0);
    TC_NEAR(m.max_abs, 0.0, 0);
    tc_end();

    tc_begin("metrics_degenerate");
    const double c3[3] = {2, 2, 2}, d3[3] = {2, 3, 2}, small[3] = {0.1, 0.2, 0.3};
    ds_metrics_compare(c3, c3, 3, NULL, 1.0, &m);
    TC_NEAR(m.r2, 1.0, 0);
    ds_metrics_compare(d3, c3, 3, NULL, 1.0, &m);
    TC_CHECK(isnan(m.r2), "constant reference, different flows: r2 %g, want NaN", m.r2);
    TC_NEAR(m.mape, 100.0 * 0.5 / 3, 1e-12);
    ds_metrics_compare(small, small, 3, NULL, 1.0, &m);
    TC_CHECK(isnan(m.mape) && m.n_mape == 0, "no link >= min_ref: mape %g n %d", m.mape, m.n_mape);
    const unsigned char none[3] = {0, 0, 0};
    ds_metrics_compare(d3, c3, 3, none, 1.0, &m);
    TC_CHECK(m.n_used == 0 && isnan(m.r2) && m.max_abs == 0, "empty mask: n %d r2 %g", m.n_used, m.r2);
    double bad[3] = {1, NAN, 2};
    TC_CHECK(ds_metrics_compare(bad, c3, 3, NULL, 1.0, &m) == -1 && isnan(m.mape), "NaN input accepted");
    tc_end();

    tc_begin("metrics_overflow_scaled");
    /* squares past DBL_MAX: R^2 from the scaled sums (exact 0.625 and
     * -1.5e200), -inf where the ratio itself overflows, never NaN */
    const double oa[3] = {1e200, 1, 2}, ob[3] = {2e200, 1, 2}, oc[3] = {1e100, 1, 3}, od[3] = {1e308, 1, 2};
    ds_metrics_compare(oa, ob, 3, NULL, 1.0, &m);
    TC_NEAR(m.r2, 0.625, 1e-15);
    ds_metrics_compare(oa, oc, 3, NULL, 1.0, &m);
    TC_NEAR(m.r2 / -1.5e200, 1.0, 1e-14);
    ds_metrics_compare(od, c3, 3, NULL, 1.0, &m);
    TC_CHECK(isnan(m.r2), "constant reference, overflowing flows: r2 %g, want NaN", m.r2);
    ds_metrics_compare(od, d3, 3, NULL, 1.0, &m);
    TC_CHECK(isinf(m.r2) && m.r2 < 0, "ratio past DBL_MAX: r2 %g, want -inf", m.r2);
    tc_end();

    tc_begin("metrics_flow_dependent_mask");
    /* the last link has free-flow time 0: its cost is the same at every flow */
    double b[6] = {0.15, 0, 0.15, 1, 2, 0.15}, pw[6] = {4, 4, 0, 1, 4, 4}, t0[6] = {1, 1, 1, 2, 3, 0};
    ds_network net = {0};
    net.n_links = 6;
    net.bpr_b = b;
    net.bpr_power = pw;
    net.t0 = t0;
    unsigned char fm[6];
    int k = ds_metrics_flow_dependent_mask(&net, fm);
    TC_CHECK(k == 3, "count %d, want 3", k);
    TC_CHECK(fm[0] == 1 && fm[1] == 0 && fm[2] == 0 && fm[3] == 1 && fm[4] == 1 && fm[5] == 0, "mask %d%d%d%d%d%d",
             fm[0], fm[1], fm[2], fm[3], fm[4], fm[5]);
    tc_end();
    return tc_exit();
}
