/* test_csv.c - flow and history CSV: bitwise round trip, validation errors
 * that name file and line, atomic replacement, every history field. */
#include "ds_csv.h"
#include "tcheck.h"

#include <csv.h>
#include <dirent.h>
#include <stdint.h>

static char dir[256];

static const char *tpath(const char *name)
{
    static char buf[4][512];
    static int k;
    char *p = buf[k++ % 4];
    snprintf(p, 512, "%s/%s", dir, name);
    return p;
}

static void put_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "wb");
    fputs(text, fp);
    fclose(fp);
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    buf[n] = '\0';
    fclose(fp);
    return buf;
}

static int leftover_temps(void)
{
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *de;
    while ((de = readdir(d)))
        if (strstr(de->d_name, ".tmp")) n++;
    closedir(d);
    return n;
}

/* A 3-link network: only the fields the CSV code looks at. */
static int tail3[3] = {0, 1, 2}, head3[3] = {1, 2, 0};
static ds_network net3(void)
{
    ds_network n = {0};
    snprintf(n.net_path, sizeof n.net_path, "tri_net.tntp");
    n.n_nodes = 3;
    n.n_links = 3;
    n.tail = tail3;
    n.head = head3;
    return n;
}

/* Parse a CSV with libcsv into rows x fields counts and a copy of one cell. */
struct grid {
    int rows, nf, cols[64];
    int want_row, want_col;
    char cell[128];
};
static void g_field(void *s, size_t len, void *d)
{
    struct grid *g = d;
    if (g->rows == g->want_row && g->nf == g->want_col) snprintf(g->cell, sizeof g->cell, "%.*s", (int)len, (char *)s);
    g->nf++;
}
static void g_row(int c, void *d)
{
    struct grid *g = d;
    (void)c;
    if (g->rows < 64) g->cols[g->rows] = g->nf;
    g->rows++;
    g->nf = 0;
}
static void grid_read(const char *path, struct grid *g, int row, int col)
{
    memset(g, 0, sizeof *g);
    g->want_row = row;
    g->want_col = col;
    char *text = slurp(path);
    struct csv_parser p;
    csv_init(&p, CSV_STRICT);
    csv_parse(&p, text, strlen(text), g_field, g_row, g);
    csv_fini(&p, g_field, g_row, g);
    csv_free(&p);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/ds_test_csv.XXXXXX");
    if (!mkdtemp(dir)) {
        printf("FAIL csv_setup: mkdtemp\n");
        return 1;
    }
    ds_network net = net3();
    ds_error err;

    tc_begin("csv_flows_roundtrip_bitwise");
    double f[3] = {0.1, 5e-324, 1234567.8901234567}, c[3] = {1.0 / 3.0, 1e33, 2.2250738585072014e-308};
    TC_CHECK(ds_flows_write(tpath("a.csv"), &net, f, c, &err) == 0, "write: %s", err.msg);
    double *rf = NULL, *rc = NULL;
    int n = -1;
    TC_CHECK(ds_flows_read(tpath("a.csv"), &net, &rf, &rc, &n, &err) == 0, "read: %s:%ld: %s", err.file, err.line,
             err.msg);
    TC_CHECK(n == 3, "n = %d", n);
    for (int e = 0; rf && rc && e < 3; e++)
        TC_CHECK(memcmp(&rf[e], &f[e], sizeof(double)) == 0 && memcmp(&rc[e], &c[e], sizeof(double)) == 0,
                 "link %d: %.17g %.17g", e, rf[e], rc[e]);
    free(rf), free(rc);
    tc_end();

    tc_begin("csv_flows_exact_text");
    const char *text = slurp(tpath("a.csv"));
    const char *want = "init_node,term_node,flow,cost\n1,2,0.10000000000000001,0.33333333333333331\n";
    TC_CHECK(strncmp(text, want, strlen(want)) == 0, "file:\n%s", text);
    TC_CHECK(strstr(text, "\n3,1,") != NULL, "third row missing:\n%s", text);
    tc_end();

    tc_begin("csv_flows_read_without_net");
    int *ri = NULL, *rt = NULL;
    TC_CHECK(ds_flows_read_ex(tpath("a.csv"), NULL, &ri, &rt, &rf, NULL, &n, &err) == 0, "%s", err.msg);
    TC_CHECK(n == 3 && ri && rt && ri[2] == 3 && rt[2] == 1 && rf[0] == 0.1, "n %d", n);
    free(ri), free(rt), free(rf);
    tc_end();

    tc_begin("csv_flows_quoted_crlf_bom");
    put_file(tpath("q.csv"), "\xEF\xBB\xBF\"init_node\",\"term_node\",\"flow\",\"cost\"\r\n"
                             "1,2,\"1.5\",2\r\n\r\n2, 3 ,2.5,3\r\n3,1,3.5,4");
    TC_CHECK(ds_flows_read(tpath("q.csv"), &net, &rf, &rc, &n, &err) == 0, "%s:%ld: %s", err.file, err.line, err.msg);
    TC_CHECK(n == 3 && rf[0] == 1.5 && rf[2] == 3.5 && rc[2] == 4, "values");
    free(rf), free(rc);
    tc_end();

    /* each data row's line (the header is line 1; blank lines count; a row
     * without a final newline is its last line): what compare names */
    tc_begin("csv_flows_read_lines");
    long *rl = NULL;
    TC_CHECK(ds_flows_read_lines(tpath("q.csv"), NULL, NULL, NULL, NULL, NULL, &rl, &n, &err) == 0, "%s", err.msg);
    TC_CHECK(n == 3 && rl && rl[0] == 2 && rl[1] == 4 && rl[2] == 5, "n %d, lines %ld %ld %ld", n, rl ? rl[0] : -1,
             rl && n > 1 ? rl[1] : -1, rl && n > 2 ? rl[2] : -1);
    free(rl);
    tc_end();

    /* Each bad file: the error must name the file and the offending line. */
    struct {
        const char *name, *text, *needle;
        long line;
    } bad[] = {
        {"hdr.csv", "from,to,flow,cost\n1,2,1,1\n", "header", 1},
        {"pair.csv", "init_node,term_node,flow,cost\n1,2,1,1\n2,1,1,1\n3,1,1,1\n", "link 2", 3},
        {"few.csv", "init_node,term_node,flow,cost\n1,2,1,1\n2,3,1,1\n", "2 data rows", 3},
        {"many.csv", "init_node,term_node,flow,cost\n1,2,1,1\n2,3,1,1\n3,1,1,1\n1,3,1,1\n", "more", 5},
        {"num.csv", "init_node,term_node,flow,cost\n1,2,1,1\n2,3,abc,1\n3,1,1,1\n", "flow 'abc'", 3},
        {"nan.csv", "init_node,term_node,flow,cost\n1,2,1,1\n2,3,1,nan\n3,1,1,1\n", "cost 'nan'", 3},
        {"nf.csv", "init_node,term_node,flow,cost\n1,2,1,1\n2,3,1\n3,1,1,1\n", "found 3", 3},
        {"node.csv", "init_node,term_node,flow,cost\n1,2,1,1\n-2,3,1,1\n3,1,1,1\n", "init_node", 3},
        {"quote.csv", "init_node,term_node,flow,cost\n1,2,1,1\n2,3,\"1\"x,1\n3,1,1,1\n", "malformed", 3},
        /* a quote never closed: the line its row starts on, not the file's last */
        {"openquote.csv", "init_node,term_node,flow,cost\n1,2,1,1\n\n2,3,\"1,1\n3,1,1,1\n\n", "never closed", 4},
        {"empty.csv", "", "empty", 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "csv_flows_rejects_%s", bad[i].name);
        tc_begin(name);
        put_file(tpath(bad[i].name), bad[i].text);
        memset(&err, 0, sizeof err);
        rf = NULL;
        int rcode = ds_flows_read(tpath(bad[i].name), &net, &rf, NULL, &n, &err);
        TC_CHECK(rcode != 0 && rf == NULL, "accepted");
        TC_CHECK(strstr(err.file, bad[i].name) != NULL, "file '%s'", err.file);
        TC_CHECK(err.line == bad[i].line, "line %ld, want %ld (%s)", err.line, bad[i].line, err.msg);
        TC_CHECK(strstr(err.msg, bad[i].needle) != NULL, "message '%s' lacks '%s'", err.msg, bad[i].needle);
        tc_end();
    }

    tc_begin("csv_flows_missing_file");
    TC_CHECK(ds_flows_read(tpath("nope.csv"), &net, &rf, NULL, &n, &err) != 0 && strstr(err.file, "nope.csv") != NULL,
             "accepted");
    tc_end();

    tc_begin("csv_write_failure_leaves_old_file");
    char before[4096];
    snprintf(before, sizeof before, "%s", slurp(tpath("a.csv")));
    double fnan[3] = {1, NAN, 2};
    TC_CHECK(ds_flows_write(tpath("a.csv"), &net, fnan, c, &err) != 0, "NaN flows written");
    TC_CHECK(strstr(err.msg, "untouched") != NULL, "message '%s'", err.msg);
    TC_CHECK(strcmp(before, slurp(tpath("a.csv"))) == 0, "old file changed");
    TC_CHECK(ds_flows_write("/nonexistent-dir/x.csv", &net, f, c, &err) != 0, "wrote into nowhere");
    TC_CHECK(strstr(err.file, "/nonexistent-dir/x.csv") != NULL, "file '%s'", err.file);
    TC_CHECK(leftover_temps() == 0, "temporary files left behind");
    tc_end();

    tc_begin("csv_write_replaces_atomically");
    double f2[3] = {7, 8, 9};
    TC_CHECK(ds_flows_write(tpath("a.csv"), &net, f2, c, &err) == 0, "%s", err.msg);
    TC_CHECK(ds_flows_read(tpath("a.csv"), &net, &rf, NULL, &n, &err) == 0 && rf[1] == 8, "not replaced");
    free(rf);
    TC_CHECK(leftover_temps() == 0, "temporary files left behind");
    tc_end();

    tc_begin("csv_history_all_fields");
    ds_iter_record r[3];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 3; i++) {
        r[i].iter = i;
        r[i].gap_rel = 1.0 / (i + 3);
        r[i].kind = i == 0 ? DS_STEP_START : i == 1 ? DS_STEP_SRA : DS_STEP_NEWTON_OK;
        r[i].halvings = 2;
        r[i].gmres_iters = 17;
        r[i].mask_removed = 4;
        r[i].t_phase[DS_PHASE_DERIV] = 0.25;
        r[i].backend = DS_BACKEND_CPU;
        r[i].t_run = 1.5 * i;
        r[i].timestamp = 1700000000.1234 + i;
        r[i].lost_pct = 0.5 * i;
        r[i].imbalance = 1e-9;
        r[i].ptc_shift = 0.25 * i;
    }
    TC_CHECK(ds_history_write_final(tpath("h.csv"), r, 3, DS_STATUS_MAX_ITER, &err) == 0, "%s", err.msg);
    text = slurp(tpath("h.csv"));
    size_t hl = strlen(ds_history_header());
    TC_CHECK(strncmp(text, ds_history_header(), hl) == 0 && text[hl] == '\n', "header");
    struct grid g;
    grid_read(tpath("h.csv"), &g, 0, 0);
    TC_CHECK(g.rows == 4, "rows %d, want header + 3", g.rows);
    /* Every field of ds_iter_record has a column (t_phase counts DS_PHASE_N, the
     * timestamp two, the certificate two, LU counts three, the ptc shift one),
     * plus final_status. */
    int want_cols = 21 + DS_PHASE_N + 2 + 2 + 1 + 1 + 3 + 1 + 1;
    for (int i = 0; i < g.rows && i < 64; i++) TC_CHECK(g.cols[i] == want_cols, "row %d: %d columns", i, g.cols[i]);
    grid_read(tpath("h.csv"), &g, 2, 3);
    TC_CHECK(strcmp(g.cell, ds_step_name(DS_STEP_SRA)) == 0, "step kind '%s'", g.cell);
    grid_read(tpath("h.csv"), &g, 1, want_cols - 3);
    TC_CHECK(strcmp(g.cell, "2023-11-14T22:13:20.123Z") == 0, "timestamp '%s'", g.cell);
    grid_read(tpath("h.csv"), &g, 3, want_cols - 1);
    TC_CHECK(strcmp(g.cell, ds_status_name(DS_STATUS_MAX_ITER)) == 0, "final status '%s'", g.cell);
    grid_read(tpath("h.csv"), &g, 2, want_cols - 1);
    TC_CHECK(g.cell[0] == '\0', "final status on a middle row: '%s'", g.cell);
    grid_read(tpath("h.csv"), &g, 0, 21 + DS_PHASE_DERIV);
    TC_CHECK(strcmp(g.cell, "t_deriv_s") == 0, "phase column '%s'", g.cell);
    grid_read(tpath("h.csv"), &g, 1, 21 + DS_PHASE_DERIV);
    TC_CHECK(strcmp(g.cell, "0.25") == 0, "t_deriv_s '%s'", g.cell);
    grid_read(tpath("h.csv"), &g, 1, 1);
    TC_CHECK(strtod(g.cell, NULL) == 1.0 / 3, "gap_rel '%s' not exact", g.cell);
    grid_read(tpath("h.csv"), &g, 0, 21 + DS_PHASE_N);
    TC_CHECK(strcmp(g.cell, "lost_pct") == 0, "certificate column '%s'", g.cell);
    grid_read(tpath("h.csv"), &g, 3, 21 + DS_PHASE_N);
    TC_CHECK(strcmp(g.cell, "1") == 0, "lost_pct '%s'", g.cell);
    grid_read(tpath("h.csv"), &g, 0, 21 + DS_PHASE_N + 5);
    TC_CHECK(strcmp(g.cell, "ptc_shift") == 0, "ptc column '%s'", g.cell);
    grid_read(tpath("h.csv"), &g, 3, 21 + DS_PHASE_N + 5);
    TC_CHECK(strcmp(g.cell, "0.5") == 0, "ptc_shift '%s'", g.cell);
    TC_CHECK(ds_history_write(tpath("h2.csv"), r, 0, &err) == 0, "%s", err.msg);
    grid_read(tpath("h2.csv"), &g, 0, 0);
    TC_CHECK(g.rows == 1, "empty history: %d rows", g.rows);
    tc_end();

    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) printf("note: could not remove %s\n", dir);
    return tc_exit();
}
