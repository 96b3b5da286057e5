/* test_tui_settings.c - the TUI's settings table and flow numbers without a
 * terminal: every row reads back what it writes, refuses what `dillsue solve`
 * refuses (same limits) and leaves the config unchanged then; choice rows
 * cycle through the engine's names; the flow comparison gives the numbers of
 * ds_metrics_compare (what `dillsue compare` prints) and the links in order
 * of difference; system totals add up; nice axis ends. */
#include <math.h>
#include <string.h>

#include "flowstat.h"
#include "plot.h"
#include "settings.h"
#include "tcheck.h"

int main(void)
{
    ds_config c, d;
    char msg[300], v[64];

    tc_begin("tui_settings_round_trip");
    ds_config_default(&c);
    for (int i = 0; i < tui_n_settings; i++) {
        const tui_setting *s = &tui_settings[i];
        s->get(&c, v, sizeof v);
        d = c;
        TC_CHECK(settings_set(i, &d, v, msg, sizeof msg) == 0, "%s: its own value '%s' refused: %s", s->name, v, msg);
        char w[64];
        s->get(&d, w, sizeof w);
        TC_CHECK(!strcmp(v, w), "%s: '%s' read back as '%s'", s->name, v, w);
        TC_CHECK(settings_find(s->name) == i, "%s not found by name", s->name);
        TC_CHECK(s->option[0] == '-' && s->option[1] == '-', "%s: option '%s'", s->name, s->option);
    }
    tc_end();

    tc_begin("tui_settings_solve_limits");
    {
        static const struct {
            const char *name, *good, *bad;
        } t[] = {
            {"tau", "3", "0"},
            {"tau", "1e3", "abc"},
            {"mu", "0.5", "-1"},
            {"tol", "1e-9", "0"},
            {"max_iter", "0", "-1"},
            {"threads", "4096", "4097"},
            {"cap", "0", "-0.5"},
            {"inner_max", "1", "0"},
            {"edsp_refresh", "0", "1000001"},
            {"edsp_damping", "1", "0"},
            {"edsp_damping", "0.5", "1.5"},
            {"filter", "edsp", "dps"},
            {"solver", "newton", "nweton"},
            {"inner", "passes", "lu"},
            {"globalise", "paper", "none"},
            {"start", "capacity", "one"},
            {"toll_factor", "net", "x"},
            {"backend", "cpu", "gpu"},
        };
        for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
            int i = settings_find(t[k].name);
            TC_CHECK(i >= 0, "no setting %s", t[k].name);
            if (i < 0) continue;
            ds_config_default(&c);
            TC_CHECK(settings_set(i, &c, t[k].good, msg, sizeof msg) == 0, "%s = %s refused: %s", t[k].name, t[k].good,
                     msg);
            d = c;
            TC_CHECK(settings_set(i, &c, t[k].bad, msg, sizeof msg) != 0, "%s = %s accepted", t[k].name, t[k].bad);
            TC_CHECK(!memcmp(&c, &d, sizeof c), "%s = %s changed the config", t[k].name, t[k].bad);
            TC_CHECK(strstr(msg, t[k].bad) && strstr(msg, "unchanged"), "message '%s'", msg);
        }
        ds_config_default(&c);
        c.mu = 2;
        settings_set(settings_find("tau"), &c, "7", msg, sizeof msg);
        TC_CHECK(c.tau == 7 && c.mu == 0, "tau did not clear mu");
        settings_set(settings_find("toll_factor"), &c, "net", msg, sizeof msg);
        TC_CHECK(isnan(c.cost.toll_factor), "toll_factor net is not the network's (NAN)");
    }
    tc_end();

    tc_begin("tui_settings_cycle_engine_names");
    {
        int i = settings_find("solver"), seen = 0;
        ds_config_default(&c);
        for (int k = 0; k < DS_SOLVER_N; k++) {
            settings_cycle(i, &c, 1);
            seen |= 1 << c.solver;
        }
        TC_CHECK(seen == (1 << DS_SOLVER_N) - 1, "cycling the solver saw mask %x", seen);
        i = settings_find("start");
        ds_config_default(&c);
        settings_cycle(i, &c, -1);
        TC_CHECK(c.start == DS_START_N - 1, "start cycled back to %s", ds_start_name(c.start));
    }
    tc_end();

    tc_begin("tui_flowstat_compare_matches_metrics");
    {
        double a[6] = {10, 20, 30, 0.5, 100, 7}, b[6] = {12, 20, 27, 0.4, 90, 7};
        flowstat_cmp fc;
        ds_metrics m;
        flowstat_compare(a, b, 6, &fc);
        ds_metrics_compare(a, b, 6, NULL, 1.0, &m);
        TC_CHECK(fc.finite && fc.m.mape == m.mape && fc.m.r2 == m.r2 && fc.m.max_abs == m.max_abs &&
                     fc.m.n_mape == m.n_mape,
                 "flowstat %g %g %g, metrics %g %g %g", fc.m.mape, fc.m.r2, fc.m.max_abs, m.mape, m.r2, m.max_abs);
        TC_CHECK(fc.n_top == 6 && fc.top[0] == 4 && fc.top[1] == 2 && fc.top[2] == 0 && fc.top[3] == 3,
                 "order %d %d %d %d", fc.top[0], fc.top[1], fc.top[2], fc.top[3]);
        TC_CHECK(fabs(fc.m.max_abs - 10) < 1e-12, "max abs %g", fc.m.max_abs);
    }
    tc_end();

    tc_begin("tui_flowstat_totals");
    {
        ds_error err = {0};
        ds_network *net = ds_network_load_default(&err);
        TC_CHECK(net != NULL, "default network: %s", err.msg);
        if (net) {
            double *x = calloc((size_t)net->n_links, sizeof *x), *t = calloc((size_t)net->n_links, sizeof *t);
            flowstat_totals ft;
            ds_config_default(&c);
            for (int e = 0; e < net->n_links; e++) x[e] = 0.5 * net->capacity[e];
            flowstat_totals_compute(net, &c, x, &ft);
            ds_cost_params cp = {c.cost.cap, 0, 0};
            ds_costs_eval(net, &cp, x, t);
            double vh = 0, fl = 0;
            for (int e = 0; e < net->n_links; e++) vh += x[e] * t[e], fl += x[e];
            TC_CHECK(fabs(ft.veh_hours - vh) <= 1e-9 * vh, "vehicle-time %g want %g", ft.veh_hours, vh);
            TC_CHECK(fabs(ft.vc_max - 0.5) < 1e-12 && fabs(ft.vc_mean - 0.5) < 1e-12, "v/c %g %g", ft.vc_max,
                     ft.vc_mean);
            TC_CHECK(ft.flow_total == fl && ft.demand == net->total_demand, "flow %g demand %g", ft.flow_total,
                     ft.demand);
            free(x);
            free(t);
            ds_network_free(net);
        }
    }
    tc_end();

    tc_begin("tui_plot_nice_up");
    TC_CHECK(plot_nice_up(0.0043) == 0.005 && plot_nice_up(0.5) == 0.5 && plot_nice_up(3) == 5 &&
                 plot_nice_up(1000) == 1000 && plot_nice_up(0) == 1 && plot_nice_up(NAN) == 1,
             "nice_up %g %g %g", plot_nice_up(0.0043), plot_nice_up(3), plot_nice_up(1000));
    tc_end();
    return tc_exit();
}
