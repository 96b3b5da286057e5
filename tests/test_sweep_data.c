/* test_sweep_data.c - the data of a sweep directory (src/engine/sweep_data.c):
 * grid index <-> cell, sweep.conf round trip, cell rows written and read back
 * bitwise (quotes, commas and NaN included), rows cut short refused,
 * percentiles worked out by hand, journals of several shards read together. */
#include "sweep_data.h"
#include "tcheck.h"

#include <pthread.h>
#include <stdatomic.h>
#include <sys/stat.h>

static sweep_grid small_grid(void)
{
    sweep_grid g;
    sweep_grid_defaults(&g);
    snprintf(g.net, sizeof g.net, "/data/X_net.tntp");
    g.scenarios = 3;
    g.seed = 18446744073709551615ULL;
    g.n_disp = 2;
    g.disp[0] = 0.1; /* not exact in binary: must survive %.17g */
    g.disp[1] = 30;
    g.n_filter = 2;
    g.filter[0] = DS_FILTER_DSP;
    g.filter[1] = DS_FILTER_FULL;
    g.n_solver = 3;
    g.solver[0] = DS_SOLVER_NEWTON;
    g.solver[1] = DS_SOLVER_SRA;
    g.solver[2] = DS_SOLVER_MSA;
    g.tol = 1e-7;
    g.max_iter = 123;
    g.cap = 100;
    g.ue = 1;
    g.ue_gap = 1e-9;
    g.ue_max_iter = 5000;
    g.globalise = DS_GLOBALISE_PAPER; /* solver settings other than the defaults */
    g.inner_max = 80;
    g.edsp_damping = 0.3;
    return g;
}

/* line with its field i (0-based, quotes honoured) replaced by val */
static void replace_field(const char *line, int i, const char *val, char *out, size_t n)
{
    const char *p = line, *start = line;
    int f = 0, q = 0;
    for (; *p && *p != '\n'; p++) {
        if (*p == '"') q = !q;
        if (!q && *p == ',') {
            if (f == i) break;
            f++;
            start = p + 1;
        }
    }
    if (f < i || (*p != ',' && f != i)) { /* no such field */
        snprintf(out, n, "%s", line);
        return;
    }
    snprintf(out, n, "%.*s%s%s", (int)(start - line), line, val, p);
}

/* a row of grid g's cell (its tau: journals match rows to cells by it) */
static sweep_result a_result(const sweep_grid *g, long cell)
{
    sweep_result r;
    memset(&r, 0, sizeof r);
    r.cell = cell;
    double tau = g->disp[sweep_grid_cell(g, cell).d];
    r.status = DS_STATUS_ILL_POSED;
    snprintf(r.reason, sizeof r.reason, "rho \"lower bound\" 1.02 >= 1, at the cap");
    r.iterations = 17;
    r.evals = 40;
    r.jv = 99;
    r.gap_rel = 1.0 / 3.0;
    r.tau = tau;
    r.mu = tau / 8.81;
    r.lost_od = 2;
    r.lost_demand = 12.5;
    r.total_flow = NAN;
    r.veh_time = NAN;
    r.mape_ue = 2.0 / 7.0;
    r.wall_s = 0.25;
    r.t_end = 1700000000.5;
    r.rank = 2;
    r.worker = 0;
    return r;
}

/* Each line, added as line 7 of a complete sweep.conf, is refused on line 7
 * with a message holding the second string. */
static void refused_on_line_7(const char *const cases[][2], size_t n)
{
    sweep_grid h;
    ds_error err;
    for (size_t i = 0; i < n; i++) {
        char conf[512];
        snprintf(conf, sizeof conf, "version=1\nnet=a\nscenarios=2\ntau=1\nfilter=full\nsolver=newton\n%s\n",
                 cases[i][0]);
        TC_CHECK(sweep_grid_parse(conf, "c.conf", &h, &err) != 0 && err.line == 7 && strstr(err.msg, cases[i][1]),
                 "%s: line %ld '%s'", cases[i][0], err.line, err.msg);
    }
}

int main(void)
{
    sweep_grid g = small_grid();

    tc_begin("sweep_grid_index_roundtrip");
    TC_CHECK(sweep_grid_total(&g) == 36, "total %ld", sweep_grid_total(&g));
    for (long c = 0; c < sweep_grid_total(&g); c++) {
        sweep_cell_id id = sweep_grid_cell(&g, c);
        long back = ((long)(id.k * g.n_disp + id.d) * g.n_filter + id.f) * g.n_solver + id.s;
        TC_CHECK(back == c, "cell %ld -> %d %d %d %d -> %ld", c, id.k, id.d, id.f, id.s, back);
    }
    sweep_cell_id last = sweep_grid_cell(&g, 35);
    TC_CHECK(last.k == 2 && last.d == 1 && last.f == 1 && last.s == 2, "last cell %d %d %d %d", last.k, last.d, last.f,
             last.s);
    tc_end();

    tc_begin("sweep_conf_roundtrip");
    char text[8192], text2[8192];
    sweep_grid h;
    ds_error err;
    sweep_grid_format(&g, text, sizeof text);
    TC_CHECK(sweep_grid_parse(text, "sweep.conf", &h, &err) == 0, "parse: %s", err.msg);
    sweep_grid_format(&h, text2, sizeof text2);
    TC_CHECK(!strcmp(text, text2), "format(parse(format)) differs:\n%s\n%s", text, text2);
    TC_CHECK(h.disp[0] == 0.1 && h.seed == g.seed && h.filter[0] == DS_FILTER_DSP && h.ue_max_iter == 5000,
             "values changed");
    TC_CHECK(h.globalise == DS_GLOBALISE_PAPER && h.inner_max == 80 && h.edsp_damping == 0.3 &&
                 strstr(text, "\nglobalise=paper\n") && strstr(text, "\ninner_max=80\n"),
             "solver settings not kept:\n%s", text);
    /* defaults are not written: a sweep made before these keys reads as the same grid */
    sweep_grid d;
    sweep_grid_defaults(&d);
    d.scenarios = 1;
    snprintf(d.net, sizeof d.net, "n");
    sweep_grid_format(&d, text, sizeof text);
    TC_CHECK(!strstr(text, "globalise") && !strstr(text, "inner") && !strstr(text, "start") && !strstr(text, "edsp") &&
                 !strstr(text, "factor"),
             "defaults written:\n%s", text);
    tc_end();

    tc_begin("sweep_conf_errors_name_line");
    TC_CHECK(sweep_grid_parse("version=1\nnet=a\nscenarios=2\ntau=1\nfilter=full,nope\n", "c.conf", &h, &err) != 0 &&
                 err.line == 5 && strstr(err.msg, "nope"),
             "bad filter: line %ld '%s'", err.line, err.msg);
    TC_CHECK(sweep_grid_parse("net=a\nscenarios=2\n", "c.conf", &h, &err) != 0 && strstr(err.msg, "incomplete"),
             "missing lists accepted: '%s'", err.msg);
    TC_CHECK(sweep_grid_parse("net=a\nbogus=1\n", "c.conf", &h, &err) != 0 && err.line == 2, "unknown key accepted");
    tc_end();

    /* sweep.conf numbers by the rules the command line applies (ds_setting_parse) */
    tc_begin("sweep_conf_same_rules_as_cli");
    static const char *const bad[][2] = {
        {"tol=2", "must be in (0, 1)"},
        {"tau=3,0", "must be a number > 0"},
        {"tau=0x10", "decimal"},
        {"max_iter=-1", "must be in [0, "},
        {"cap=inf", "finite"},
        {"scenarios=0", "[1, "},
        {"ue_gap=1", "must be in [0, 1)"},
        {"globalise=nope", "unknown name"},
        {"inner_max=0", "[1, "},
        {"mu=1,nan", "must be finite"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char conf[512];
        /* the base's line of the same key (tau for mu) gives way to ue=0: a
         * key given a second time is refused as such */
        static const char *const base[] = {"version=1", "net=a",       "scenarios=2",
                                           "tau=1",     "filter=full", "solver=newton"};
        size_t u = 0, kl = strcspn(bad[i][0], "=");
        int disp_row = !strncmp(bad[i][0], "tau=", 4) || !strncmp(bad[i][0], "mu=", 3);
        for (int l = 0; l < 6; l++) {
            int same = !strncmp(base[l], bad[i][0], kl) && base[l][kl] == '=';
            if (disp_row && !strncmp(base[l], "tau=", 4)) same = 1;
            u += (size_t)snprintf(conf + u, sizeof conf - u, "%s\n", same ? "ue=0" : base[l]);
        }
        snprintf(conf + u, sizeof conf - u, "%s\n", bad[i][0]);
        TC_CHECK(sweep_grid_parse(conf, "c.conf", &h, &err) != 0 && err.line == 7 && strstr(err.msg, bad[i][1]),
                 "%s: line %ld '%s'", bad[i][0], err.line, err.msg);
    }
    tc_end();

    /* a key twice, or a list value twice, is refused with its line (the
     * command line refuses `--tau 3,3.0`; a second key silently won) */
    tc_begin("sweep_conf_twice_refused");
    static const char *const twice[][2] = {
        {"tau=3", "tau given a second time"},
        {"mu=0.5", "mu given a second time"},
        {"filter=dsp", "filter given a second time"},
    };
    refused_on_line_7(twice, sizeof twice / sizeof *twice);
    TC_CHECK(sweep_grid_parse("version=1\nnet=a\nscenarios=2\ntau=10,3,10.0\nfilter=full\nsolver=newton\n", "c.conf",
                              &h, &err) != 0 &&
                 err.line == 4 && strstr(err.msg, "listed twice (items 1 and 3)"),
             "tau=10,3,10.0: line %ld '%s'", err.line, err.msg);
    tc_end();

    /* the command line's rules for seed and the flags, the TUI settings file's
     * for layout: ue=4294967297 wrapped to 1, ue= read as 0, a seed past 64
     * bits saturated; a BOM, CRLF and spaces around = refused the file */
    tc_begin("sweep_conf_values_as_the_command_line");
    static const char *const badv[][2] = {
        {"ue=4294967297", "for ue"}, {"ue=", "for ue"},
        {"flows=2", "for flows"},    {"seed=99999999999999999999999", "for seed"},
        {"seed=+5", "for seed"},
    };
    refused_on_line_7(badv, sizeof badv / sizeof *badv);
    TC_CHECK(sweep_grid_parse("\xEF\xBB\xBFversion=1\r\nnet = a\r\nscenarios=2\r\ntau= 1,3 \r\nfilter=full\r\n"
                              "solver=newton\r\nseed=18446744073709551615\r\nue=1\r\n",
                              "c.conf", &h, &err) == 0 &&
                 !strcmp(h.net, "a") && h.n_disp == 2 && h.seed == 18446744073709551615ULL && h.ue == 1,
             "BOM, CRLF and spaces: '%s' (line %ld)", err.msg, err.line);
    tc_end();

    /* a net or trips path longer than the grid holds is refused on its line:
     * it was cut to 1023 bytes, and --resume loaded another file (fuzz_sweep) */
    tc_begin("sweep_conf_long_path_refused");
    for (int t = 0; t < 2; t++) {
        static char conf[4096];
        char long_path[1100];
        memset(long_path, 'a', sizeof long_path - 1);
        long_path[0] = '/';
        long_path[sizeof long_path - 1] = '\0';
        snprintf(conf, sizeof conf, "version=1\nnet=%s\nscenarios=2\ntau=1\nfilter=full\nsolver=newton\n%s%s\n",
                 t ? "a" : long_path, t ? "trips=" : "", t ? long_path : "");
        TC_CHECK(sweep_grid_parse(conf, "c.conf", &h, &err) != 0 && err.line == (t ? 7 : 2) &&
                     strstr(err.msg, t ? "trips path of 1099 bytes" : "net path of 1099 bytes"),
                 "%s of 1099 bytes: rc 0 or line %ld '%s'", t ? "trips" : "net", err.line, err.msg);
        long_path[sizeof h.net - 1] = '\0'; /* the longest that fits is still read whole */
        snprintf(conf, sizeof conf, "version=1\nnet=%s\nscenarios=2\ntau=1\nfilter=full\nsolver=newton\n", long_path);
        TC_CHECK(sweep_grid_parse(conf, "c.conf", &h, &err) == 0 && !strcmp(h.net, long_path),
                 "net of 1023 bytes: '%s'", err.msg);
    }
    tc_end();

    tc_begin("sweep_row_roundtrip_bitwise");
    sweep_result r = a_result(&g, 29), q;
    char line[2048], line2[2048];
    int n = sweep_result_format(&g, &r, line, sizeof line);
    TC_CHECK(n > 0 && line[n - 1] == '\n', "no newline");
    TC_CHECK(sweep_result_parse(&g, line, &q) == 0, "cannot parse its own row: %s", line);
    TC_CHECK(q.cell == 29 && q.status == DS_STATUS_ILL_POSED && !strcmp(q.reason, r.reason), "fields: '%s'", q.reason);
    TC_CHECK(q.gap_rel == r.gap_rel && q.mu == r.mu && q.tau == r.tau && q.mape_ue == r.mape_ue, "doubles not bitwise");
    TC_CHECK(isnan(q.total_flow) && isnan(q.veh_time), "NaN not kept");
    TC_CHECK(q.iterations == 17 && q.evals == 40 && q.jv == 99 && q.lost_od == 2 && q.rank == 2, "integers");
    sweep_result_format(&g, &q, line2, sizeof line2);
    TC_CHECK(!strcmp(line, line2), "row changed on a round trip:\n%s%s", line, line2);
    tc_end();

    tc_begin("sweep_row_cut_short_refused");
    char cut[2048];
    snprintf(cut, sizeof cut, "%.*s", n - 1, line); /* no newline: cut by a kill */
    TC_CHECK(sweep_result_parse(&g, cut, &q) != 0, "row without newline accepted");
    snprintf(cut, sizeof cut, "%.*s\n", n / 2, line);
    TC_CHECK(sweep_result_parse(&g, cut, &q) != 0, "half row accepted");
    /* a row of another grid: solver name does not match the cell */
    char other[2048];
    snprintf(other, sizeof other, "%s", line);
    char *p = strstr(other, ",msa,");
    TC_CHECK(p != NULL, "test row has no msa");
    if (p) memcpy(p, ",sra,", 5);
    TC_CHECK(sweep_result_parse(&g, other, &q) != 0, "row of another grid accepted");
    tc_end();

    /* numbers of a row by the rule of every reader (ds_parse_double,
     * ds_parse_long): inf, nan and hexadecimal floats, and integers beyond
     * the int they are kept in, refuse the line as a cut one is (strtol and
     * strtod took them: 4294967313 iterations became 17, "inf" a gap) */
    tc_begin("sweep_row_numbers_refused");
    {
        static const struct {
            int field;
            const char *val;
        } bad[] = {
            {9, "4294967313"}, {9, "2147483648"}, {10, "-1"},   {11, "99999999999999999999"},
            {13, " 2"},        {13, "0x2"},       {20, "2.0"},  {21, "1e3"},
            {0, "0x1d"},       {12, "inf"},       {12, "-inf"}, {12, "nan"},
            {12, "0x1p-2"},    {14, "1e999"},     {17, "NAN"},  {18, "infinity"},
            {19, "0x1.9p+30"},
        };
        char row[2048];
        replace_field(line, 9, "2147483647", row, sizeof row); /* the largest int is one */
        TC_CHECK(sweep_result_parse(&g, row, &q) == 0 && q.iterations == 2147483647, "INT_MAX refused: %s", row);
        for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
            replace_field(line, bad[i].field, bad[i].val, row, sizeof row);
            TC_CHECK(strcmp(row, line) != 0, "field %d not replaced", bad[i].field);
            TC_CHECK(sweep_result_parse(&g, row, &q) != 0, "field %d '%s' accepted: %s", bad[i].field, bad[i].val, row);
        }
        /* what the writer is given that is not finite is written empty (NaN),
         * so that its own rows are never refused */
        sweep_result w = a_result(&g, 29);
        w.gap_rel = INFINITY;
        w.mape_ue = -INFINITY;
        sweep_result_format(&g, &w, row, sizeof row);
        TC_CHECK(sweep_result_parse(&g, row, &q) == 0 && isnan(q.gap_rel) && isnan(q.mape_ue), "inf row: %s", row);
        long lv = 7;
        double dv = 7;
        TC_CHECK(sweep_parse_int("12", 0, 20, &lv) == 0 && lv == 12 && sweep_parse_int("21", 0, 20, &lv) != 0 &&
                     lv == 12 && sweep_parse_double("0x10", &dv) != 0 && sweep_parse_double("inf", &dv) != 0 &&
                     sweep_parse_double("2.5e-3", &dv) == 0 && dv == 2.5e-3,
                 "sweep_parse_*");
    }
    tc_end();

    tc_begin("sweep_percentiles");
    double v[5] = {5, 1, 4, 2, 3}, w[4] = {10, 40, 20, 30};
    TC_NEAR(sweep_percentile(v, 5, 50), 3, 0);
    TC_NEAR(sweep_percentile(v, 5, 10), 1.4, 1e-12); /* pos 0.4 between 1 and 2 */
    TC_NEAR(sweep_percentile(v, 5, 90), 4.6, 1e-12);
    TC_NEAR(sweep_percentile(w, 4, 50), 25, 0);
    TC_NEAR(sweep_percentile(w, 1, 90), 10, 0);
    TC_CHECK(isnan(sweep_percentile(w, 0, 50)), "empty set gives a number");
    tc_end();

    tc_begin("sweep_journals_of_shards");
    char dir[] = "/tmp/test_sweep_data.XXXXXX", path[256];
    TC_CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    FILE *f1, *f2;
    snprintf(path, sizeof path, "%s/journal-1-of-2.csv", dir);
    f1 = fopen(path, "w");
    snprintf(path, sizeof path, "%s/journal-2-of-2.csv", dir);
    f2 = fopen(path, "w");
    TC_CHECK(f1 && f2, "cannot write in %s", dir);
    if (f1 && f2) {
        fputs(sweep_cells_header, f1);
        fputs(sweep_cells_header, f2);
        for (long c = 0; c < 36; c += 2) {
            sweep_result x = a_result(&g, c);
            sweep_result_format(&g, &x, line, sizeof line);
            fputs(line, c < 18 ? f1 : f2);
        }
        fputs("35,2,1,30", f2); /* cut short */
        /* rows of another grid: cell 1 at another tau, cell 3 of another seed */
        sweep_result o = a_result(&g, 1);
        o.tau = g.disp[sweep_grid_cell(&g, 1).d] * 3;
        sweep_result_format(&g, &o, line, sizeof line);
        fputs(line, f1);
        sweep_grid other = g;
        other.seed = 7;
        o = a_result(&g, 3);
        sweep_result_format(&other, &o, line, sizeof line);
        fputs(line, f1);
        fclose(f1);
        fclose(f2);
        sweep_result *res = calloc(36, sizeof *res);
        unsigned char *done = calloc(36, 1);
        long bad = 0, nd = sweep_load_journals(dir, &g, res, done, &bad);
        TC_CHECK(nd == 18 && bad == 3, "done %ld bad %ld", nd, bad);
        TC_CHECK(done[0] && done[34] && !done[1] && !done[3] && !done[35], "wrong cells marked done");
        TC_CHECK(res[34].cell == 34 && res[34].iterations == 17, "row 34 not read");
        free(res);
        free(done);
        snprintf(path, sizeof path, "%s/journal-1-of-2.csv", dir);
        remove(path);
        snprintf(path, sizeof path, "%s/journal-2-of-2.csv", dir);
        remove(path);
    }
    rmdir(dir);
    tc_end();

    /* the solve command of a cell, as the viewer shows it: every setting that
     * differs from solve's default, numbers in their shortest exact form,
     * paths quoted for a shell where needed */
    tc_begin("sweep_cell_command");
    char cmd[4096];
    sweep_cell_id id = sweep_grid_cell(&g, 3 * 2 * 1 + 0); /* k 0, tau 30, dsp, newton */
    sweep_cell_command(&g, id, cmd, sizeof cmd);
    const char *want = "dillsue solve --net /data/X_net.tntp --scenario 0 --seed 18446744073709551615 --tau 30 "
                       "--filter dsp --solver newton --tol 1e-07 --max-iter 123 --inner-max 80 --globalise paper "
                       "--edsp-damping 0.3";
    TC_CHECK(!strcmp(cmd, want), "got\n  %s\nwant\n  %s", cmd, want);
    sweep_grid qg = g;
    snprintf(qg.net, sizeof qg.net, "/my data/it's_net.tntp");
    snprintf(qg.trips, sizeof qg.trips, "/t/T_trips.tntp");
    qg.use_mu = 1;
    qg.cap = 0;
    sweep_cell_command(&qg, sweep_grid_cell(&qg, 35), cmd, sizeof cmd); /* k 2, mu 30, full, msa */
    want = "dillsue solve --net '/my data/it'\\''s_net.tntp' --trips /t/T_trips.tntp --scenario 2 "
           "--seed 18446744073709551615 --mu 30 --filter full --solver msa --tol 1e-07 --max-iter 123 --cap 0 "
           "--inner-max 80 --globalise paper --edsp-damping 0.3";
    TC_CHECK(!strcmp(cmd, want), "got\n  %s\nwant\n  %s", cmd, want);
    TC_CHECK(sweep_cell_command(&g, sweep_grid_cell(&g, 1), cmd, 16) > 16 && strlen(cmd) == 15,
             "a short buffer: cut, the length needed returned");
    tc_end();

    /* a stop that came after the job was taken and before the run was in its
     * slot (sweep_request_stop's pass over the slots missed it) cancels the
     * run at once: it went to its end (minutes on a large network) */
    tc_begin("sweep_cell_stop_before_slot_cancels");
    {
        ds_error err = {{0}, 0, {0}};
        ds_network *net = ds_network_load_default(&err);
        sweep_grid cg;
        sweep_grid_defaults(&cg);
        cg.scenarios = 1;
        cg.n_disp = 1;
        cg.disp[0] = 10;
        cg.n_filter = 1;
        cg.filter[0] = DS_FILTER_DSP;
        cg.n_solver = 1;
        cg.solver[0] = DS_SOLVER_MSA;
        cg.max_iter = 200;
        ds_run *volatile slot = NULL;
        pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
        atomic_int stop = 1, go = 0;
        sweep_result r;
        int have = 0;
        TC_CHECK(net != NULL, "no embedded network");
        if (net) {
            sweep_cell_solve(net, &cg, sweep_grid_cell(&cg, 0), 1, &slot, &lock, &stop, &r, NULL, NULL, &have, NULL);
            TC_CHECK(r.status == DS_STATUS_CANCELLED && r.iterations == 0, "stopped before its slot: %s after %d (%s)",
                     ds_status_name((ds_status)r.status), r.iterations, r.reason);
            TC_CHECK(slot == NULL, "the slot is left holding the run");
            sweep_cell_solve(net, &cg, sweep_grid_cell(&cg, 0), 1, &slot, &lock, &go, &r, NULL, NULL, &have, NULL);
            TC_CHECK(r.status == DS_STATUS_MAX_ITER && r.iterations == 200, "not stopped: %s after %d",
                     ds_status_name((ds_status)r.status), r.iterations);
            ds_network_free(net);
        }
    }
    tc_end();

    /* --mu: a cell reports tau = mu * cbar of its scenario; cbar (all-origin
     * shortest paths at free flow, a second on Austin-SDB) is the same for
     * every cell of the scenario, so the first cell leaves it in the memo and
     * the next take it from there instead of computing it again */
    tc_begin("sweep_cell_mu_cbar_memo");
    {
        ds_error err = {{0}, 0, {0}};
        ds_network *net = ds_network_load_default(&err);
        sweep_grid cg;
        sweep_grid_defaults(&cg);
        cg.scenarios = 1;
        cg.use_mu = 1;
        cg.n_disp = 1;
        cg.disp[0] = 0.5;
        cg.n_filter = 1;
        cg.filter[0] = DS_FILTER_DSP;
        cg.n_solver = 1;
        cg.solver[0] = DS_SOLVER_MSA;
        cg.max_iter = 3;
        sweep_result r;
        int have = 0;
        TC_CHECK(net != NULL, "no embedded network");
        if (net) {
            ds_cost_params cp = {cg.cap, net->toll_factor, net->distance_factor};
            double cbar = ds_network_cbar(net, &cp), memo = NAN;
            sweep_cell_solve(net, &cg, sweep_grid_cell(&cg, 0), 1, NULL, NULL, NULL, &r, NULL, NULL, &have, &memo);
            TC_CHECK(memcmp(&memo, &cbar, sizeof cbar) == 0, "memo %.17g, cbar %.17g", memo, cbar);
            TC_CHECK(r.tau == 0.5 * cbar, "tau %.17g, mu cbar %.17g", r.tau, 0.5 * cbar);
            sweep_cell_solve(net, &cg, sweep_grid_cell(&cg, 0), 1, NULL, NULL, NULL, &r, NULL, NULL, &have, NULL);
            TC_CHECK(r.tau == 0.5 * cbar, "no memo: tau %.17g, mu cbar %.17g", r.tau, 0.5 * cbar);
            memo = 2 * cbar; /* not computed again: the memo's value is the one used */
            sweep_cell_solve(net, &cg, sweep_grid_cell(&cg, 0), 1, NULL, NULL, NULL, &r, NULL, NULL, &have, &memo);
            TC_CHECK(r.tau == cbar && memo == 2 * cbar, "memo 2 cbar: tau %.17g, want %.17g", r.tau, cbar);
            ds_network_free(net);
        }
    }
    tc_end();
    return tc_failed_ ? 1 : 0;
}
