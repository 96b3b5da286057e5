/* test_tui_ladder.c - the solver ladder's grid (src/tui/view_ladder.c)
 * without a terminal: rows are the distinct taus ascending (mu rows after
 * them), columns the solvers in order of first appearance, a column per
 * solver and filter once the filters differ, the latest run of a cell wins
 * (and says so), cells without a run are empty, more than 16 taus are cut. */
#include "ladder.h"
#include "tcheck.h"

static tui_run runs[40];
static const tui_run *ptr[40];

static void mk(int k, double tau, double mu, ds_solver_kind s, ds_filter f)
{
    memset(&runs[k], 0, sizeof runs[k]);
    ds_config_default(&runs[k].cfg);
    runs[k].id = k + 1;
    runs[k].cfg.tau = tau;
    runs[k].cfg.mu = mu;
    runs[k].cfg.solver = s;
    runs[k].cfg.filter = f;
    ptr[k] = &runs[k];
}

int main(void)
{
    ladder_grid g;

    tc_begin("ladder_tau_by_solver");
    /* a queue "tau 10,3 solver sra,newton": 10/sra, 10/newton, 3/sra, 3/newton */
    mk(0, 10, 0, DS_SOLVER_SRA, DS_FILTER_FULL);
    mk(1, 10, 0, DS_SOLVER_NEWTON, DS_FILTER_FULL);
    mk(2, 3, 0, DS_SOLVER_SRA, DS_FILTER_FULL);
    mk(3, 3, 0, DS_SOLVER_NEWTON, DS_FILTER_FULL);
    ladder_grid_build(ptr, 4, &g);
    TC_CHECK(g.nrow == 2 && g.ncol == 2, "%d x %d", g.nrow, g.ncol);
    TC_CHECK(g.disp[0] == 3 && g.disp[1] == 10, "rows %g %g, want 3 10", g.disp[0], g.disp[1]);
    TC_CHECK(g.solver[0] == DS_SOLVER_SRA && g.solver[1] == DS_SOLVER_NEWTON, "columns not in order of appearance");
    TC_CHECK(g.cell[0][0] == 2 && g.cell[0][1] == 3 && g.cell[1][0] == 0 && g.cell[1][1] == 1, "cells %d %d %d %d",
             g.cell[0][0], g.cell[0][1], g.cell[1][0], g.cell[1][1]);
    TC_CHECK(!g.by_filter && !g.dup && !g.cut, "flags %d %d %d", g.by_filter, g.dup, g.cut);
    tc_end();

    tc_begin("ladder_latest_wins_and_gaps");
    mk(4, 10, 0, DS_SOLVER_SRA, DS_FILTER_FULL); /* 10/sra again */
    mk(5, 30, 0, DS_SOLVER_SRA, DS_FILTER_FULL); /* 30 only for sra */
    ladder_grid_build(ptr, 6, &g);
    TC_CHECK(g.nrow == 3 && g.disp[2] == 30, "rows %d, last %g", g.nrow, g.disp[2]);
    TC_CHECK(g.dup && g.cell[1][0] == 4, "the latest run of 10/sra is not shown (cell %d, dup %d)", g.cell[1][0],
             g.dup);
    TC_CHECK(g.cell[2][1] == -1, "30/newton has no run but holds %d", g.cell[2][1]);
    tc_end();

    tc_begin("ladder_filters_split_columns");
    mk(0, 10, 0, DS_SOLVER_NEWTON, DS_FILTER_FULL);
    mk(1, 10, 0, DS_SOLVER_NEWTON, DS_FILTER_DSP);
    ladder_grid_build(ptr, 2, &g);
    TC_CHECK(g.by_filter && g.ncol == 2 && g.filter[0] == DS_FILTER_FULL && g.filter[1] == DS_FILTER_DSP,
             "by_filter %d, %d columns", g.by_filter, g.ncol);
    TC_CHECK(g.cell[0][0] == 0 && g.cell[0][1] == 1, "cells %d %d", g.cell[0][0], g.cell[0][1]);
    tc_end();

    tc_begin("ladder_mu_rows_after_tau");
    mk(0, 10, 0.5, DS_SOLVER_NEWTON, DS_FILTER_FULL);
    mk(1, 10, 0, DS_SOLVER_NEWTON, DS_FILTER_FULL);
    mk(2, 3, 0, DS_SOLVER_NEWTON, DS_FILTER_FULL);
    ladder_grid_build(ptr, 3, &g);
    TC_CHECK(g.nrow == 3 && !g.use_mu[0] && g.disp[0] == 3 && !g.use_mu[1] && g.disp[1] == 10 && g.use_mu[2] &&
                 g.disp[2] == 0.5,
             "rows %g%s %g%s %g%s", g.disp[0], g.use_mu[0] ? "mu" : "", g.disp[1], g.use_mu[1] ? "mu" : "", g.disp[2],
             g.use_mu[2] ? "mu" : "");
    TC_CHECK(g.cell[2][0] == 0 && g.cell[0][0] == 2, "cells follow their rows when rows are inserted");
    tc_end();

    tc_begin("ladder_cut_beyond_16_taus");
    for (int k = 0; k < 20; k++) mk(k, 1 + k, 0, DS_SOLVER_NEWTON, DS_FILTER_FULL);
    ladder_grid_build(ptr, 20, &g);
    TC_CHECK(g.nrow == LADDER_MAX_AXIS && g.cut, "%d rows, cut %d", g.nrow, g.cut);
    for (int i = 0; i < g.nrow; i++) TC_CHECK(g.cell[i][0] == i, "row %d holds run %d", i, g.cell[i][0]);
    tc_end();
    return tc_failed_ ? 1 : 0;
}
