/* fuzz_sweep.c - libFuzzer harness of a sweep directory's readers
 * (src/engine/sweep_data.c), what `dillsue sweep --resume` / `--merge` and the
 * TUI's sweep viewer read: the input is a sweep.conf, optionally followed by
 * a 0xFF byte and a journal. A grid either parses to one inside its limits
 * that writes back as text which parses to the same grid, or is refused with
 * a one-line message; every journal row that parses is a cell of the grid
 * (of a fallback grid where the sweep.conf is refused) and reads back the
 * same once written; sweep_load_journals reads the journal from a file. */
#include "sweep_data.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64], file[96];

static void cleanup(void)
{
    unlink(file);
    rmdir(dir);
}

static void check_grid(const sweep_grid *g)
{
    static char text[16384], again[16384], cmd[8192];
    sweep_grid h;
    ds_error err;
    if (g->scenarios < 1 || g->n_disp < 1 || g->n_disp > SWEEP_MAX_LIST || g->n_filter < 1 ||
        g->n_filter > DS_FILTER_N || g->n_solver < 1 || g->n_solver > DS_SOLVER_N || !g->net[0])
        abort();
    for (int i = 0; i < g->n_filter; i++)
        if (g->filter[i] < 0 || g->filter[i] >= DS_FILTER_N) abort();
    for (int i = 0; i < g->n_solver; i++)
        if (g->solver[i] < 0 || g->solver[i] >= DS_SOLVER_N) abort();
    /* what --resume writes back and reads again is the same grid */
    sweep_grid_format(g, text, sizeof text);
    if (strlen(text) + 1 >= sizeof text) abort();
    memset(&err, 0, sizeof err);
    if (sweep_grid_parse(text, "again", &h, &err) != 0) abort();
    sweep_grid_format(&h, again, sizeof again);
    if (strcmp(text, again)) abort();
    /* the viewer's command of the first and the last cell, whole and cut */
    long total = sweep_grid_total(g);
    sweep_cell_id last = sweep_grid_cell(g, total - 1);
    if (last.k != g->scenarios - 1) abort();
    size_t n = sweep_cell_command(g, sweep_grid_cell(g, 0), cmd, sizeof cmd);
    if (n < sizeof cmd && strlen(cmd) != n) abort();
    (void)sweep_cell_command(g, last, cmd, 16);
}

/* the same number, any NaN the same as any other (a row writes NaN as "") */
static int same(double a, double b) { return a == b ? signbit(a) == signbit(b) : a != a && b != b; }

static void check_rows(const sweep_grid *g, const char *journal, size_t len)
{
    char *copy = malloc(len + 1), row[2048];
    if (!copy) return;
    memcpy(copy, journal, len);
    copy[len] = '\0';
    for (char *p = copy; *p;) {
        char *e = strchr(p, '\n'), save = 0;
        if (e) save = e[1], e[1] = '\0';
        sweep_result r, s;
        if (sweep_result_parse(g, p, &r) == 0) {
            if (r.cell < 0 || r.cell >= sweep_grid_total(g)) abort();
            int n = sweep_result_format(g, &r, row, sizeof row);
            if (n <= 0 || (size_t)n + 1 >= sizeof row || sweep_result_parse(g, row, &s) != 0) abort();
            if (s.cell != r.cell || s.status != r.status || s.iterations != r.iterations || s.evals != r.evals ||
                s.jv != r.jv || s.lost_od != r.lost_od || s.rank != r.rank || s.worker != r.worker ||
                !same(s.tau, r.tau) || !same(s.mu, r.mu) || !same(s.gap_rel, r.gap_rel) ||
                !same(s.lost_demand, r.lost_demand) || !same(s.total_flow, r.total_flow) ||
                !same(s.veh_time, r.veh_time) || !same(s.mape_ue, r.mape_ue))
                abort();
        }
        if (!e) break;
        e[1] = save;
        p = e + 1;
    }
    free(copy);
}

static void load_journal(const sweep_grid *g, const char *journal, size_t len)
{
    long total = sweep_grid_total(g), bad = 0;
    if (total > 4096) return; /* the arrays of a huge grid: not what is fuzzed here */
    FILE *f = fopen(file, "wb");
    if (!f) return;
    if (len) fwrite(journal, 1, len, f);
    fclose(f);
    sweep_result *res = calloc((size_t)total, sizeof *res);
    unsigned char *done = calloc((size_t)total, 1);
    if (res && done) {
        long n = sweep_load_journals(dir, g, res, done, &bad);
        long k = 0;
        for (long i = 0; i < total; i++) k += done[i];
        if (n < 0 || n != k || bad < 0) abort();
    }
    free(res);
    free(done);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *sep = memchr(data, 0xFF, size);
    size_t conf_len = sep ? (size_t)(sep - data) : size;
    const char *journal = sep ? (const char *)sep + 1 : "";
    size_t journal_len = sep ? size - conf_len - 1 : 0;
    sweep_grid g;
    ds_error err;
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/fuzz_sweep.XXXXXX");
        if (!mkdtemp(dir)) abort();
        snprintf(file, sizeof file, "%s/journal.csv", dir);
        atexit(cleanup);
    }
    char *conf = malloc(conf_len + 1);
    if (!conf) return 0;
    memcpy(conf, data, conf_len);
    conf[conf_len] = '\0';
    memset(&err, 0, sizeof err);
    if (sweep_grid_parse(conf, "sweep.conf", &g, &err) == 0) {
        check_grid(&g);
    } else {
        if (!err.msg[0] || strchr(err.msg, '\n')) abort(); /* an error says something, on one line */
        /* the rows are still read, against a grid of their own */
        sweep_grid_defaults(&g);
        snprintf(g.net, sizeof g.net, "n.tntp");
        g.scenarios = 3;
        g.seed = 7;
        g.disp[1] = 0.1;
        g.n_disp = 2;
        g.filter[1] = DS_FILTER_FULL == g.filter[0] ? DS_FILTER_DSP : DS_FILTER_FULL;
        g.n_filter = 2;
    }
    free(conf);
    check_rows(&g, journal, journal_len);
    load_journal(&g, journal, journal_len);
    return 0;
}
