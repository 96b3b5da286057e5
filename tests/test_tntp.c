/* test_tntp.c - the TNTP reader: the bad-input corpus (file, line and message
 * of every error), a small network checked field by field, layout quirks of
 * the public files, every network in the shared TNTP folder against its own
 * metadata and trip table, parallel links, reference flows, node coordinates,
 * clone and the embedded default network. */
#include "dillsue.h"
#include "tcheck.h"

#include <ctype.h>
#include <stdlib.h>
#include <sys/stat.h>

#define CORPUS "tests/bad_input"

static const char *base(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *b;
    long n;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) {
        b[n] = '\0';
        if (len) *len = (size_t)n;
    }
    return b;
}

static int write_text(const char *path, const char *s)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    fputs(s, f);
    return fclose(f);
}

/* Structural invariants every loaded network must satisfy. Returns a
 * description of the first violation, or NULL. */
static const char *check_invariants(const ds_network *n)
{
    static char why[256];
    int u, e, k, prev;
    if (n->out_start[0] != 0 || n->out_start[n->n_nodes] != n->n_links) return "out_start ends";
    if (n->in_start[0] != 0 || n->in_start[n->n_nodes] != n->n_links) return "in_start ends";
    for (u = 0; u < n->n_nodes; u++) {
        prev = -1;
        for (k = n->out_start[u]; k < n->out_start[u + 1]; k++) {
            e = n->out_link[k];
            if (e <= prev || n->tail[e] != u) {
                snprintf(why, sizeof why, "out list of node %d not in link order or wrong tail", u + 1);
                return why;
            }
            prev = e;
        }
        prev = -1;
        for (k = n->in_start[u]; k < n->in_start[u + 1]; k++) {
            e = n->in_link[k];
            if (e <= prev || n->head[e] != u) {
                snprintf(why, sizeof why, "in list of node %d not in link order or wrong head", u + 1);
                return why;
            }
            prev = e;
        }
    }
    for (e = 0; e < n->n_links; e++)
        if (n->tail[e] < 0 || n->tail[e] >= n->n_nodes || n->head[e] < 0 || n->head[e] >= n->n_nodes ||
            !(n->capacity[e] > 0) || n->t0[e] < 0 || (e > 0 && n->src_line[e] <= n->src_line[e - 1]))
            return "bad link field";
    for (k = 0; k < n->n_od; k++) {
        if (!(n->od_demand[k] > 0)) return "OD with q <= 0";
        if (n->od_orig[k] == n->od_dest[k]) return "diagonal OD kept";
        if (n->od_orig[k] >= n->n_zones || n->od_dest[k] >= n->n_zones) return "OD outside zones";
        if (k > 0 && (n->od_dest[k] < n->od_dest[k - 1] ||
                      (n->od_dest[k] == n->od_dest[k - 1] && n->od_orig[k] <= n->od_orig[k - 1])))
            return "OD list not sorted by (dest, orig)";
    }
    if (n->n_od > 0 && (n->dest_od_start[0] != 0 || n->dest_od_start[n->n_dest] != n->n_od)) return "dest slices";
    for (k = 0; k < n->n_dest; k++) {
        int a;
        if (k > 0 && n->dest_node[k] <= n->dest_node[k - 1]) return "dest_node not ascending";
        if (n->dest_od_start[k + 1] <= n->dest_od_start[k]) return "empty destination slice";
        for (a = n->dest_od_start[k]; a < n->dest_od_start[k + 1]; a++)
            if (n->od_dest[a] != n->dest_node[k]) return "OD in the wrong destination slice";
    }
    return NULL;
}

/* ------------------------------------------------------------ corpus */

static void test_corpus(void)
{
    FILE *f = fopen(CORPUS "/EXPECTED", "r");
    char line[1024];
    int cases = 0;

    tc_begin("tntp corpus: EXPECTED readable");
    TC_CHECK(f != NULL, "cannot open %s/EXPECTED (run from the repository root)", CORPUS);
    tc_end();
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        char *name, *exp, *colon, *msg, path[512], tname[240], want_file[300], got[2048];
        long want_line = 0;
        ds_error e;
        ds_network *n;

        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0] || line[0] == '#') continue;
        name = line;
        exp = strchr(line, '\t');
        if (!exp) continue;
        *exp++ = '\0';
        cases++;
        snprintf(tname, sizeof tname, "tntp bad input %.200s", name);
        tc_begin(tname);
        /* expected "FILE:LINE: MSG" or "FILE: MSG" */
        colon = strchr(exp, ':');
        TC_CHECK(colon != NULL, "malformed EXPECTED entry '%s'", exp);
        if (!colon) {
            tc_end();
            continue;
        }
        snprintf(want_file, sizeof want_file, "%.*s", (int)(colon - exp) < 250 ? (int)(colon - exp) : 250, exp);
        msg = colon + 1;
        if (isdigit((unsigned char)*msg)) {
            want_line = strtol(msg, &msg, 10);
            if (*msg == ':') msg++;
        }
        while (*msg == ' ') msg++;

        snprintf(path, sizeof path, CORPUS "/%.300s.net.tntp", name);
        memset(&e, 0, sizeof e);
        n = ds_network_load(path, NULL, NULL, NULL, &e);
        TC_CHECK(n == NULL, "loaded although it is bad");
        ds_error_format(&e, got, sizeof got);
        TC_CHECK(!strcmp(base(e.file), want_file), "error file '%s', want '%s' (%s)", e.file, want_file, got);
        TC_CHECK(e.line == want_line, "error line %ld, want %ld (%s)", e.line, want_line, got);
        TC_CHECK(strstr(e.msg, msg) != NULL, "message '%s' lacks '%s'", e.msg, msg);
        TC_CHECK(strstr(got, exp) != NULL, "formatted '%s' lacks '%s'", got, exp);
        TC_CHECK(!strchr(e.msg, '\n') && !strchr(e.msg, '\t'), "message is not one clean line: '%s'", e.msg);
        /* the path as the caller gave it, not just a base name */
        TC_CHECK(!strncmp(e.file, CORPUS "/", strlen(CORPUS) + 1), "error file '%s' is not the caller's path", e.file);
        ds_network_free(n);
        tc_end();
    }
    fclose(f);
    tc_begin("tntp corpus: at least 30 cases");
    TC_CHECK(cases >= 30, "only %d cases", cases);
    tc_end();
}

/* ------------------------------------------------------------ small network */

static void test_valid_small(void)
{
    ds_error e;
    ds_network *n = ds_network_load(CORPUS "/valid.net.tntp", NULL, NULL, NULL, &e);
    char buf[1024];
    static const int tail[8] = {1, 4, 2, 5, 3, 4, 4, 5}, head[8] = {4, 1, 5, 2, 4, 3, 5, 4};
    /* (dest, orig, q) sorted by destination then origin */
    static const int od_d[6] = {1, 1, 2, 2, 3, 3}, od_o[6] = {2, 3, 1, 3, 1, 2};
    static const double od_q[6] = {150, 80, 100, 120, 50, 100};
    int k;

    tc_begin("tntp valid corpus network loads field by field");
    ds_error_format(&e, buf, sizeof buf);
    TC_CHECK(n != NULL, "load failed: %s", buf);
    if (!n) {
        tc_end();
        return;
    }
    TC_CHECK(n->n_nodes == 5 && n->n_links == 8 && n->n_zones == 3 && n->first_thru == 4, "counts %d %d %d %d",
             n->n_nodes, n->n_links, n->n_zones, n->first_thru);
    TC_CHECK(!strcmp(n->name, "valid"), "name '%s'", n->name);
    TC_CHECK(!strcmp(n->net_path, CORPUS "/valid.net.tntp"), "net_path '%s'", n->net_path);
    for (k = 0; k < 8; k++) {
        TC_CHECK(n->tail[k] == tail[k] - 1 && n->head[k] == head[k] - 1, "link %d is %d->%d", k, n->tail[k] + 1,
                 n->head[k] + 1);
        TC_CHECK(n->src_line[k] == 8 + k, "link %d src_line %ld", k, n->src_line[k]);
        TC_CHECK(n->bpr_b[k] == 0.15 && n->bpr_power[k] == 4 && n->speed[k] == 60 && n->toll[k] == 0 &&
                     n->link_type[k] == 1,
                 "link %d BPR/speed/toll/type", k);
    }
    TC_CHECK(n->capacity[6] == 1200 && n->capacity[4] == 800 && n->t0[4] == 2.0 && n->length[6] == 1.5,
             "capacity/t0/length values");
    TC_CHECK(ds_node_is_centroid(n, 2) && !ds_node_is_centroid(n, 3), "centroid flags");
    /* node 4 (index 3): out-links 1 (4->1), 5 (4->3), 6 (4->5); in-links 0, 4, 7 */
    TC_CHECK(n->out_start[4] - n->out_start[3] == 3 && n->out_link[n->out_start[3]] == 1 &&
                 n->out_link[n->out_start[3] + 1] == 5 && n->out_link[n->out_start[3] + 2] == 6,
             "out-links of node 4");
    TC_CHECK(n->in_start[4] - n->in_start[3] == 3 && n->in_link[n->in_start[3]] == 0 &&
                 n->in_link[n->in_start[3] + 1] == 4 && n->in_link[n->in_start[3] + 2] == 7,
             "in-links of node 4");
    TC_CHECK(n->n_od == 6, "n_od %d", n->n_od);
    for (k = 0; k < 6 && k < n->n_od; k++)
        TC_CHECK(n->od_dest[k] == od_d[k] - 1 && n->od_orig[k] == od_o[k] - 1 && n->od_demand[k] == od_q[k],
                 "OD %d is %d->%d %g", k, n->od_orig[k] + 1, n->od_dest[k] + 1, n->od_demand[k]);
    TC_CHECK(n->n_dest == 3 && n->dest_node[0] == 0 && n->dest_node[2] == 2 && n->dest_od_start[1] == 2 &&
                 n->dest_od_start[3] == 6,
             "destination slices");
    TC_NEAR(n->total_demand, 600.0, 0);
    TC_CHECK(n->toll_factor == 0 && n->distance_factor == 0, "factors default to 0");
    TC_CHECK(n->node_x == NULL && n->ref_flow == NULL, "no sibling node/flow file, none loaded");
    TC_CHECK(check_invariants(n) == NULL, "%s", check_invariants(n));
    tc_end();
    ds_network_free(n);
}

/* Layout quirks of the real files, in memory: CRLF, tabs, missing ';',
 * exponents, lower-case and oddly spaced keys, comments, zero and diagonal
 * demand, toll/distance factors. */
static void test_quirks(void)
{
    static const char net[] = "~ header comment\r\n"
                              "<NUMBER OF ZONES>\t\t\t2\t\t\r\n"
                              "<number  of\tnodes>   4 ~ trailing comment\r\n"
                              "< FIRST THRU NODE >\t3\r\n"
                              "<NUMBER OF LINKS> 5\r\n"
                              "<TOLL FACTOR>\t0.5\r\n"
                              "<DISTANCE FACTOR> 2.5e-1\r\n"
                              "<SOME UNKNOWN KEY> whatever\r\n"
                              "<END OF METADATA>\t\t\r\n"
                              "\r\n"
                              "\t1\t3\t1.5E3\t1\t0\t0.15\t4\t0\t2.5\t1\t;\t\r\n"
                              "  3 1 1500 1 0 0.15 4 0 0 1\r\n"
                              "\t3\t4\t2e+03\t1\t1.0e0\t0\t0\t0\t0\t1;\r\n"
                              "4 2 2000 1 1 0.15 4 0 0 1 ; ~ comment after the row\r\n"
                              "\t4\t2\t2000\t1\t1\t0.15\t4\t0\t0\t1\t;\t\t\r\n";
    static const char trips[] =
        "<NUMBER OF ZONES>  2 \r\n"
        "<TOTAL OD FLOW>\t1.5e2\r\n"
        "<END OF METADATA>\r\n"
        "\r\n"
        "Origin \t1 \r\n"
        "1 : 7.0; 2:100.0\r\n" /* diagonal (dropped, but counted in TOTAL OD FLOW), last entry without ';' */
        "ORIGIN 2\r\n"
        "\t1\t:\t43.0;\t2 : 0;\t\r\n"
        "\r\n";
    ds_error e;
    char buf[1024];
    ds_network *n =
        ds_network_parse(net, sizeof net - 1, "quirks.net.tntp", trips, sizeof trips - 1, "quirks.trips.tntp", &e);
    tc_begin("tntp layout quirks (CRLF, tabs, exponents, odd keys, comments)");
    ds_error_format(&e, buf, sizeof buf);
    TC_CHECK(n != NULL, "parse failed: %s", buf);
    if (n) {
        TC_CHECK(n->n_nodes == 4 && n->n_links == 5 && n->n_zones == 2 && n->first_thru == 3, "counts");
        TC_CHECK(n->capacity[0] == 1500 && n->capacity[2] == 2000 && n->t0[0] == 0 && n->t0[2] == 1, "exponent values");
        TC_CHECK(n->toll[0] == 2.5 && n->toll_factor == 0.5 && n->distance_factor == 0.25, "toll and factors");
        TC_CHECK(n->tail[3] == 3 && n->head[3] == 1 && n->tail[4] == 3 && n->head[4] == 1,
                 "parallel links 4->2 kept separate");
        TC_CHECK(n->src_line[0] == 11 && n->src_line[4] == 15, "src_line %ld %ld", n->src_line[0], n->src_line[4]);
        TC_CHECK(n->n_od == 2 && n->od_orig[0] == 1 && n->od_dest[0] == 0 && n->od_demand[0] == 43 &&
                     n->od_orig[1] == 0 && n->od_dest[1] == 1 && n->od_demand[1] == 100,
                 "OD list (zero and diagonal dropped)");
        TC_NEAR(n->total_demand, 143.0, 0);
        TC_CHECK(check_invariants(n) == NULL, "%s", check_invariants(n));
    }
    tc_end();
    ds_network_free(n);

    {
        /* a Latin-1 byte (not UTF-8) in a comment is accepted; in a value it is not */
        static const char l1[] = "~ compiled by Jos\xe9 Garc\xed"
                                 "a\n<NUMBER OF ZONES> 2\n<NUMBER OF NODES> 2\n"
                                 "<NUMBER OF LINKS> 1\n<END OF METADATA>\n1 2 100 1 1 0.15 4 0 0 1 ; ~ \xe9\n";
        static const char l1_bad[] = "<NUMBER OF ZONES> 2\n<NUMBER OF NODES> 2\xe9\n<NUMBER OF LINKS> 1\n"
                                     "<END OF METADATA>\n1 2 100 1 1 0.15 4 0 0 1 ;\n";
        static const char net2[] = "<NUMBER OF ZONES> 2\n<NUMBER OF NODES> 2\n<NUMBER OF LINKS> 2\n<END OF METADATA>\n"
                                   "1 2 100 1 1 0.15 4 0 0 1 ;\n2 1 100 1 1 0.15 4 0 0 1 ;\n";
        static const char colon[] = "<NUMBER OF ZONES> 2\n<END OF METADATA>\nOrigin: 1\n 2 : 5;\norigin:2\n1 : 7;\n";
        tc_begin("tntp 'Origin: 1' reads as 'Origin 1'");
        n = ds_network_parse(net2, sizeof net2 - 1, "c.net.tntp", colon, sizeof colon - 1, "c.trips.tntp", &e);
        TC_CHECK(n && n->n_od == 2 && n->total_demand == 12, "Origin: k refused: %s", n ? "" : e.msg);
        ds_network_free(n);
        tc_end();
        tc_begin("tntp a byte that is not UTF-8 is accepted in a comment only");
        n = ds_network_parse(l1, sizeof l1 - 1, "l1.net.tntp", NULL, 0, NULL, &e);
        TC_CHECK(n && n->n_links == 1, "Latin-1 in comments refused: %s", n ? "" : e.msg);
        ds_network_free(n);
        n = ds_network_parse(l1_bad, sizeof l1_bad - 1, "l1.net.tntp", NULL, 0, NULL, &e);
        TC_CHECK(!n && e.line == 2 && strstr(e.msg, "invalid byte 0xe9"), "outside a comment: %ld %s", e.line, e.msg);
        ds_network_free(n);
        tc_end();
    }

    n = ds_network_parse(net, sizeof net - 1, "quirks.net.tntp", NULL, 0, NULL, &e);
    tc_begin("tntp parse without trips: no demand");
    TC_CHECK(n && n->n_od == 0 && n->n_dest == 0 && n->total_demand == 0, "expected an empty OD list");
    tc_end();
    ds_network_free(n);
}

/* ------------------------------------------------------------ files around the net file */

static void test_siblings_and_flows(void)
{
    char dir[] = "/tmp/dillsue_tntp_XXXXXX", p[6][600], buf[1024];
    char *net_text = slurp(CORPUS "/valid.net.tntp", NULL), *trips_text = slurp(CORPUS "/valid.trips.tntp", NULL);
    ds_error e;
    ds_network *n;
    int ok = mkdtemp(dir) != NULL && net_text && trips_text;

    tc_begin("tntp sibling files: X_net.tntp -> X_trips/_node/_flow.tntp");
    TC_CHECK(ok, "cannot set up a temporary directory");
    if (!ok) {
        tc_end();
        free(net_text);
        free(trips_text);
        return;
    }
    snprintf(p[0], sizeof p[0], "%s/Mini_net.tntp", dir);
    snprintf(p[1], sizeof p[1], "%s/Mini_trips.tntp", dir);
    snprintf(p[2], sizeof p[2], "%s/Mini_node.tntp", dir);
    snprintf(p[3], sizeof p[3], "%s/Mini_flow.tntp", dir);
    write_text(p[0], net_text);
    write_text(p[1], trips_text);
    write_text(p[2], "Node\tX\tY\t;\n1\t0\t0\t;\n2\t10\t0\t;\n3\t0\t-5\t;\n4\t3\t1.5e0\t;\n5\t7\t1\t;\n");
    /* rows in another order than the net file; each matched by (tail, head) */
    write_text(p[3], "From\tTo\tVolume\tCost\n5 4 80 1.6\n1 4 10 1.1\n4 1 20 1.2\n2 5 30 1.3\n5 2 40 1.4\n"
                     "3 4 50 2.1\n4 3 60 2.2\n4 5 70 1.5\n");
    n = ds_network_load(p[0], NULL, NULL, NULL, &e);
    ds_error_format(&e, buf, sizeof buf);
    TC_CHECK(n != NULL, "load failed: %s", buf);
    if (n) {
        TC_CHECK(!strcmp(n->name, "Mini"), "name '%s'", n->name);
        TC_CHECK(n->node_x && n->node_y && n->node_x[1] == 10 && n->node_y[2] == -5 && n->node_y[3] == 1.5,
                 "node coordinates");
        TC_CHECK(n->ref_flow && n->ref_cost && n->ref_flow[0] == 10 && n->ref_flow[7] == 80 && n->ref_cost[5] == 2.2 &&
                     n->ref_flow[6] == 70,
                 "reference flows matched by (tail, head)");
    }
    tc_end();
    ds_network_free(n);

    tc_begin("tntp explicit trips path and missing explicit node/flow files");
    n = ds_network_load(p[0], p[1], NULL, NULL, &e);
    TC_CHECK(n != NULL, "explicit trips path");
    ds_network_free(n);
    snprintf(p[4], sizeof p[4], "%s/nonexistent_node.tntp", dir);
    n = ds_network_load(p[0], NULL, p[4], NULL, &e);
    TC_CHECK(n == NULL && !strcmp(e.file, p[4]) && strstr(e.msg, "cannot open node file"),
             "a named node file that is missing is an error (%s)", e.msg);
    ds_network_free(n);
    n = ds_network_load(p[0], NULL, NULL, p[4], &e);
    TC_CHECK(n == NULL && !strcmp(e.file, p[4]) && strstr(e.msg, "cannot open flow file"),
             "a named flow file that is missing is an error (%s)", e.msg);
    ds_network_free(n);
    tc_end();

    tc_begin("tntp a directory names its one net file (siblings from it), none or several is an error");
    n = ds_network_load(dir, NULL, NULL, NULL, &e);
    ds_error_format(&e, buf, sizeof buf);
    TC_CHECK(n != NULL, "load of the directory failed: %s", buf);
    if (n) {
        TC_CHECK(!strcmp(n->net_path, p[0]), "net_path '%s', want '%s'", n->net_path, p[0]);
        TC_CHECK(n->node_x && n->ref_flow && n->n_od == 6, "the siblings of the net file were read");
    }
    ds_network_free(n);
    {
        char sub[700], two[700], out[8];
        snprintf(sub, sizeof sub, "%s/empty", dir);
        snprintf(two, sizeof two, "%s/two.net.tntp", dir);
        TC_CHECK(mkdir(sub, 0700) == 0, "mkdir %s", sub);
        n = ds_network_load_net_trips(sub, NULL, &e);
        TC_CHECK(n == NULL && !strcmp(e.file, sub) && strstr(e.msg, "no network file"), "empty: %s", e.msg);
        ds_network_free(n);
        TC_CHECK(ds_tntp_net_in_dir(dir, out, sizeof out, &e) < 0 && strstr(e.msg, "too long"), "small out: %s", e.msg);
        TC_CHECK(ds_tntp_net_in_dir(p[0], out, sizeof out, &e) == 0, "a file is not a directory");
        write_text(two, net_text);
        n = ds_network_load_net_trips(dir, NULL, &e);
        TC_CHECK(n == NULL && strstr(e.msg, "2 network files (Mini_net.tntp, two.net.tntp)"), "two: %s", e.msg);
        ds_network_free(n);
        remove(two);
        remove(sub);
    }
    tc_end();

    tc_begin("tntp flow file errors and parallel links");
    snprintf(p[5], sizeof p[5], "%s/par.net.tntp", dir);
    write_text(p[5], "<NUMBER OF ZONES> 2\n<NUMBER OF NODES> 3\n<NUMBER OF LINKS> 4\n<END OF METADATA>\n"
                     "1 3 100 1 1 0.15 4 0 0 1 ;\n3 2 100 1 1 0.15 4 0 0 1 ;\n"
                     "1 3 200 1 2 0.15 4 0 0 1 ;\n3 2 300 1 3 0.15 4 0 0 1 ;\n");
    {
        char *pt = slurp(p[5], NULL);
        size_t len = pt ? strlen(pt) : 0;
        n = pt ? ds_network_parse(pt, len, p[5], NULL, 0, NULL, &e) : NULL;
        free(pt);
    }
    TC_CHECK(n != NULL, "parallel-link network");
    if (n) {
        /* the k-th row for a pair goes to the k-th link of that pair in file order */
        write_text(p[3], "From To Volume Cost\n3 2 11 1\n1 3 12 1\n1 3 13 2\n3 2 14 3\n");
        TC_CHECK(ds_network_load_flows(n, p[3], &e) == 0, "flows: %s", e.msg);
        TC_CHECK(n->ref_flow && n->ref_flow[0] == 12 && n->ref_flow[2] == 13 && n->ref_flow[1] == 11 &&
                     n->ref_flow[3] == 14,
                 "parallel rows in file order");
        write_text(p[3], "From To Volume Cost\n3 2 11 1\n1 3 12 1\n1 3 13 2\n1 3 15 2\n");
        TC_CHECK(ds_network_load_flows(n, p[3], &e) != 0 && e.line == 5 && strstr(e.msg, "more flow rows"),
                 "extra row for a parallel pair: %ld %s", e.line, e.msg);
        write_text(p[3], "From To Volume Cost\n3 2 11 1\n1 3 12 1\n2 1 13 2\n");
        TC_CHECK(ds_network_load_flows(n, p[3], &e) != 0 && e.line == 4 && strstr(e.msg, "no link 2 -> 1"),
                 "unknown link: %ld %s", e.line, e.msg);
        write_text(p[3], "From To Volume Cost\n3 2 11 1\n1 3 12 1\n1 3 13 2\n");
        TC_CHECK(ds_network_load_flows(n, p[3], &e) != 0 && strstr(e.msg, "no flow row for link 3 -> 2"),
                 "missing row: %s", e.msg);
        write_text(p[3], "From To Volume Cost\n3 2 11 1\n1 3 -12 1\n1 3 13 2\n3 2 1 1\n");
        TC_CHECK(ds_network_load_flows(n, p[3], &e) != 0 && e.line == 3 && strstr(e.msg, "volume must be non-negative"),
                 "negative volume: %s", e.msg);
        write_text(p[3], "From To Volume Cost\n3 2 11 1\n1 3 12 inf\n1 3 13 2\n3 2 1 1\n");
        TC_CHECK(ds_network_load_flows(n, p[3], &e) != 0 && e.line == 3 && strstr(e.msg, "cost must be finite"),
                 "infinite cost: %s", e.msg);
        /* a failed load leaves the earlier reference flows in place */
        TC_CHECK(n->ref_flow && n->ref_flow[0] == 12, "failed load changed the flows");
    }
    ds_network_free(n);
    tc_end();

    tc_begin("tntp node file errors");
    remove(p[3]); /* now holds the parallel-link flows */
    n = ds_network_load(p[0], NULL, NULL, NULL, &e);
    if (n) {
        ds_network_free(n);
        write_text(p[2], "Node X Y ;\n1 0 0 ;\n2 1 1 ;\n2 1 1 ;\n");
        n = ds_network_load(p[0], NULL, NULL, NULL, &e);
        TC_CHECK(n == NULL && !strcmp(e.file, p[2]) && e.line == 4 && strstr(e.msg, "duplicate node 2"),
                 "duplicate node: %s", e.msg);
        ds_network_free(n);
        write_text(p[2], "Node X Y ;\n1 0 0 ;\n2 1 1 ;\n");
        n = ds_network_load(p[0], NULL, NULL, NULL, &e);
        TC_CHECK(n == NULL && strstr(e.msg, "no coordinates for node 3"), "missing node: %s", e.msg);
        ds_network_free(n);
        write_text(p[2], "Node X Y ;\n1 0 0 ;\n2 1 nan ;\n");
        n = ds_network_load(p[0], NULL, NULL, NULL, &e);
        TC_CHECK(n == NULL && e.line == 3 && strstr(e.msg, "Y must be finite"), "NaN coordinate: %s", e.msg);
        ds_network_free(n);
        /* the net and trips alone: the damaged node file and a damaged flow
         * file beside them are not read (solve, load, sweeps use neither) */
        write_text(p[3], "From To Volume Cost\n1 4 -10 1.1\n");
        n = ds_network_load(p[0], NULL, NULL, NULL, &e);
        TC_CHECK(n == NULL, "the damaged siblings fail ds_network_load");
        ds_network_free(n);
        n = ds_network_load_net_trips(p[0], NULL, &e);
        TC_CHECK(n != NULL && n->node_x == NULL && n->ref_flow == NULL && n->n_links == 8,
                 "ds_network_load_net_trips reads neither sibling (%s)", n ? "" : e.msg);
        ds_network_free(n);
        remove(p[3]);
        n = NULL;
    } else {
        TC_CHECK(0, "reload failed: %s", e.msg);
    }
    tc_end();

    tc_begin("tntp trips name cannot be derived");
    snprintf(p[4], sizeof p[4], "%s/network.txt", dir);
    write_text(p[4], net_text);
    n = ds_network_load(p[4], NULL, NULL, NULL, &e);
    TC_CHECK(n == NULL && !strcmp(e.file, p[4]) && strstr(e.msg, "trips"), "%s", e.msg);
    ds_network_free(n);
    tc_end();

    for (int i = 0; i < 6; i++) remove(p[i]);
    remove(dir);
    free(net_text);
    free(trips_text);
}

/* ------------------------------------------------------------ the shared TNTP networks */

/* An independent, deliberately simple reading of a trips file: every
 * "d : q" after an "Origin o", summed over all entries and over the positive
 * off-diagonal ones that the OD list must hold. */
static int scan_trips(const char *path, long *n_pos, double *sum_pos, double *sum_all, double *meta_total)
{
    size_t len;
    char *s = slurp(path, &len), *p;
    long o = 0;
    if (!s) return -1;
    *n_pos = 0;
    *sum_pos = *sum_all = 0;
    *meta_total = -1;
    p = strstr(s, "<TOTAL OD FLOW>");
    if (p) *meta_total = strtod(p + strlen("<TOTAL OD FLOW>"), NULL);
    p = strstr(s, "<END OF METADATA>");
    p = p ? p + strlen("<END OF METADATA>") : s;
    while (*p) {
        if (!strncmp(p, "Origin", 6)) {
            o = strtol(p + 6, &p, 10);
        } else if (isdigit((unsigned char)*p)) {
            char *q;
            long d = strtol(p, &q, 10);
            while (*q == ' ' || *q == '\t') q++;
            if (*q == ':') {
                double v = strtod(q + 1, &p);
                *sum_all += v;
                if (v > 0 && d != o) {
                    (*n_pos)++;
                    *sum_pos += v;
                }
            } else {
                p = q;
            }
        } else {
            p++;
        }
    }
    free(s);
    return 0;
}

typedef struct shared_net {
    const char *net, *trips;
    int nodes, links, zones, first_thru;
} shared_net;

static const shared_net SHARED[] = {
    {"Braess-Example/Braess_net.tntp", "Braess-Example/Braess_trips.tntp", 4, 5, 2, 1},
    {"SiouxFalls/SiouxFalls_net.tntp", "SiouxFalls/SiouxFalls_trips.tntp", 24, 76, 24, 1},
    {"Eastern-Massachusetts/EMA_net.tntp", "Eastern-Massachusetts/EMA_trips.tntp", 74, 258, 74, 1},
    {"Anaheim/Anaheim_net.tntp", "Anaheim/Anaheim_trips.tntp", 416, 914, 38, 39},
    {"Barcelona/Barcelona_net.tntp", "Barcelona/Barcelona_trips.tntp", 1020, 2522, 110, 111},
    {"Winnipeg/Winnipeg_net.tntp", "Winnipeg/Winnipeg_trips.tntp", 1052, 2836, 147, 148},
    {"Chicago-Sketch/ChicagoSketch_net.tntp", "Chicago-Sketch/ChicagoSketch_trips.tntp", 933, 2950, 387, 1},
    {"Berlin-Center/berlin-center_net.tntp", "Berlin-Center/berlin-center_trips.tntp", 12981, 28376, 865, 866},
};

static int count_zero_t0(const ds_network *n)
{
    int e, z = 0;
    for (e = 0; e < n->n_links; e++) z += n->t0[e] == 0;
    return z;
}

/* Pairs (tail, head) carried by more than one link. */
static int count_parallel_pairs(const ds_network *n)
{
    int u, a, b, pairs = 0;
    for (u = 0; u < n->n_nodes; u++)
        for (a = n->out_start[u]; a < n->out_start[u + 1]; a++) {
            int first = 1, dup = 0;
            for (b = n->out_start[u]; b < n->out_start[u + 1]; b++) {
                if (b == a || n->head[n->out_link[b]] != n->head[n->out_link[a]]) continue;
                if (b < a) first = 0;
                dup = 1;
            }
            pairs += first && dup;
        }
    return pairs;
}

static void test_shared(void)
{
    size_t i;
    for (i = 0; i < sizeof SHARED / sizeof *SHARED; i++) {
        const shared_net *s = &SHARED[i];
        const char *np = tc_tntp(s->net), *tp = tc_tntp(s->trips);
        char tname[256], buf[1100];
        ds_error e;
        ds_network *n;
        long n_pos = -1;
        double sum_pos = 0, sum_all = 0, meta_total = 0;

        snprintf(tname, sizeof tname, "tntp loads %s", s->net);
        if (!np || !tp) {
            tc_skip(tname, "TNTP data not found (set DILLSUE_TNTP_DIR)");
            continue;
        }
        tc_begin(tname);
        n = ds_network_load(np, NULL, NULL, NULL, &e);
        ds_error_format(&e, buf, sizeof buf);
        TC_CHECK(n != NULL, "load failed: %s", buf);
        if (!n) {
            tc_end();
            continue;
        }
        TC_CHECK(n->n_nodes == s->nodes && n->n_links == s->links && n->n_zones == s->zones &&
                     n->first_thru == s->first_thru,
                 "nodes/links/zones/first thru %d/%d/%d/%d, want %d/%d/%d/%d", n->n_nodes, n->n_links, n->n_zones,
                 n->first_thru, s->nodes, s->links, s->zones, s->first_thru);
        TC_CHECK(check_invariants(n) == NULL, "%s", check_invariants(n));
        TC_CHECK(scan_trips(tp, &n_pos, &sum_pos, &sum_all, &meta_total) == 0, "cannot scan %s", tp);
        TC_CHECK(n->n_od == n_pos, "n_od %d, the trips file has %ld positive off-diagonal entries", n->n_od, n_pos);
        TC_NEAR(n->total_demand, sum_pos, 1e-9 * sum_pos);
        TC_NEAR(sum_all, meta_total, 1e-6 * meta_total);
        if (strstr(s->net, "Berlin")) {
            TC_CHECK(count_parallel_pairs(n) == 6, "parallel pairs %d, want 6", count_parallel_pairs(n));
            TC_CHECK(count_zero_t0(n) == 8806, "zero free-flow times %d", count_zero_t0(n));
            TC_CHECK(n->node_x != NULL, "sibling node file not loaded");
        }
        if (strstr(s->net, "Chicago")) {
            TC_CHECK(count_zero_t0(n) == 774, "zero free-flow times %d", count_zero_t0(n));
            TC_CHECK(n->node_x != NULL && n->ref_flow != NULL, "sibling node/flow files not loaded");
        }
        if (strstr(s->net, "Anaheim"))
            TC_CHECK(ds_node_is_centroid(n, 37) && !ds_node_is_centroid(n, 38), "Anaheim centroids are nodes 1..38");
        tc_end();
        ds_network_free(n);
    }
}

/* SiouxFalls reference flows and coordinates against the files read here
 * with plain stdio. */
static void test_siouxfalls_flows(void)
{
    const char *np = tc_tntp("SiouxFalls/SiouxFalls_net.tntp");
    const char *fp = tc_tntp("SiouxFalls/SiouxFalls_flow.tntp");
    const char *xp = tc_tntp("SiouxFalls/SiouxFalls_node.tntp");
    ds_error e;
    ds_network *n;
    FILE *f;
    char hdr[256];
    int u, v, rows = 0, bad = 0;
    double vol, cost, x, y;

    if (!np || !fp || !xp) {
        tc_skip("tntp SiouxFalls reference flows", "TNTP data not found");
        return;
    }
    tc_begin("tntp SiouxFalls reference flows and coordinates");
    n = ds_network_load(np, NULL, NULL, NULL, &e);
    TC_CHECK(n && n->ref_flow && n->ref_cost && n->node_x, "load: %s", n ? "no flows/coords" : e.msg);
    if (n && n->ref_flow && n->node_x) {
        f = fopen(fp, "r");
        if (f && fgets(hdr, sizeof hdr, f)) {
            while (fscanf(f, "%d %d %lf %lf", &u, &v, &vol, &cost) == 4) {
                int k, found = 0;
                for (k = n->out_start[u - 1]; k < n->out_start[u]; k++) {
                    int l = n->out_link[k];
                    if (n->head[l] == v - 1) {
                        found = 1;
                        if (n->ref_flow[l] != vol || n->ref_cost[l] != cost) bad++;
                    }
                }
                bad += !found;
                rows++;
            }
        }
        if (f) fclose(f);
        TC_CHECK(rows == 76 && bad == 0, "%d rows, %d mismatches", rows, bad);
        rows = bad = 0;
        f = fopen(xp, "r");
        if (f && fgets(hdr, sizeof hdr, f)) {
            while (fscanf(f, "%d %lf %lf ;", &u, &x, &y) == 3) {
                bad += n->node_x[u - 1] != x || n->node_y[u - 1] != y;
                rows++;
            }
        }
        if (f) fclose(f);
        TC_CHECK(rows == 24 && bad == 0, "coordinates: %d rows, %d mismatches", rows, bad);
    }
    ds_network_free(n);
    tc_end();
}

/* ------------------------------------------------------------ clone, default, errors */

static int same_network(const ds_network *a, const ds_network *b)
{
    size_t L = (size_t)a->n_links, N = (size_t)a->n_nodes, Q = (size_t)a->n_od;
    if (a->n_nodes != b->n_nodes || a->n_links != b->n_links || a->n_zones != b->n_zones ||
        a->first_thru != b->first_thru || a->n_od != b->n_od || a->n_dest != b->n_dest ||
        a->total_demand != b->total_demand)
        return 0;
    return !memcmp(a->tail, b->tail, L * sizeof(int)) && !memcmp(a->head, b->head, L * sizeof(int)) &&
           !memcmp(a->capacity, b->capacity, L * sizeof(double)) && !memcmp(a->t0, b->t0, L * sizeof(double)) &&
           !memcmp(a->bpr_b, b->bpr_b, L * sizeof(double)) && !memcmp(a->length, b->length, L * sizeof(double)) &&
           !memcmp(a->out_link, b->out_link, L * sizeof(int)) &&
           !memcmp(a->in_start, b->in_start, (N + 1) * sizeof(int)) &&
           !memcmp(a->od_orig, b->od_orig, Q * sizeof(int)) &&
           !memcmp(a->od_demand, b->od_demand, Q * sizeof(double)) &&
           !memcmp(a->dest_od_start, b->dest_od_start, ((size_t)a->n_dest + 1) * sizeof(int));
}

static void test_clone_and_default(void)
{
    ds_error e;
    ds_network *d = ds_network_load_default(&e), *f, *c;

    tc_begin("tntp embedded default network is ringcity");
    TC_CHECK(d != NULL, "default failed: %s", e.msg);
    if (d) {
        TC_CHECK(!strcmp(d->name, "ringcity") && !strcmp(d->net_path, "<embedded>"), "name '%s' path '%s'", d->name,
                 d->net_path);
        TC_CHECK(d->n_nodes == 37 && d->n_links == 144 && d->n_zones == 12 && d->first_thru == 13, "counts %d/%d/%d/%d",
                 d->n_nodes, d->n_links, d->n_zones, d->first_thru);
        TC_CHECK(d->n_od == 132 && d->n_dest == 12, "every zone pair has demand: n_od %d", d->n_od);
        TC_CHECK(check_invariants(d) == NULL, "%s", check_invariants(d));
        f = ds_network_load("data/ringcity.net.tntp", NULL, NULL, NULL, &e);
        TC_CHECK(f && same_network(d, f), "embedded copy differs from data/ringcity.net.tntp");
        TC_CHECK(f && f->node_x != NULL, "data/ringcity.node.tntp not loaded as a sibling");
        ds_network_free(f);
    }
    tc_end();

    tc_begin("tntp clone is deep and equal");
    c = d ? ds_network_clone(d) : NULL;
    TC_CHECK(c && same_network(c, d), "clone differs");
    if (c) {
        TC_CHECK(c->tail != d->tail && c->od_demand != d->od_demand && c->out_start != d->out_start,
                 "clone shares arrays");
        c->capacity[0] *= 2;
        c->od_demand[0] *= 3;
        TC_CHECK(d->capacity[0] * 2 == c->capacity[0] && d->od_demand[0] * 3 == c->od_demand[0],
                 "changing the clone changed the original");
        TC_CHECK(!strcmp(c->name, d->name) && c->node_x == NULL && c->ref_flow == NULL, "optional arrays");
    }
    ds_network_free(c);
    ds_network_free(d);
    ds_network_free(NULL);
    TC_CHECK(ds_network_clone(NULL) == NULL, "clone(NULL)");
    tc_end();

    tc_begin("tntp ds_error_set / ds_error_format");
    {
        char buf[64];
        TC_CHECK(ds_error_set(&e, "a.tntp", 14, "capacity must be positive, got %d", -5) == -1, "returns -1");
        ds_error_format(&e, buf, sizeof buf);
        TC_CHECK(!strcmp(buf, "a.tntp:14: capacity must be positive, got -5"), "'%s'", buf);
        ds_error_set(&e, "a.tntp", 0, "file is empty\n");
        ds_error_format(&e, buf, sizeof buf);
        TC_CHECK(!strcmp(buf, "a.tntp: file is empty"), "'%s'", buf);
        ds_error_set(&e, NULL, 3, "plain");
        ds_error_format(&e, buf, sizeof buf);
        TC_CHECK(!strcmp(buf, "plain"), "'%s'", buf);
        TC_CHECK(ds_error_set(NULL, "x", 1, "ignored") == -1, "NULL err");
        ds_error_format(&e, buf, 4);
        TC_CHECK(strlen(buf) == 3, "truncation");
    }
    tc_end();
}

/* Real files: sparse ids mapped (zones first, from the trips file), self-loops
 * dropped and remembered, a byte order mark skipped; the clone keeps all of it. */
static void test_real_files(void)
{
    static const char net[] = "\xEF\xBB\xBF<NUMBER OF NODES> 4\n<NUMBER OF LINKS> 6\n<FIRST THRU NODE> 600\n"
                              "<END OF METADATA>\n"
                              "900 500 10 1 1 0.15 4 1 0 1;\n500 900 10 1 1 0.15 4 1 0 1;\n"
                              "500 500 10 1 7 0.15 4 1 0 1;\n"
                              "900 2000000000 10 1 1 0.15 4 1 0 1;\n2000000000 700 10 1 1 0.15 4 1 0 1;\n"
                              "700 2000000000 10 1 1 0.15 4 1 0 1;\n";
    static const char trips[] = "<NUMBER OF ZONES> 2\n<END OF METADATA>\nOrigin 500\n 700 : 10;\n"
                                "Origin 700\n 500 : 5;\n";
    ds_error e = {0};
    ds_network *n = ds_network_parse(net, sizeof net - 1, "sparse.net.tntp", trips, sizeof trips - 1,
                                     "sparse.trips.tntp", &e),
               *c;
    tc_begin("tntp real file: sparse ids, self-loop, BOM");
    TC_CHECK(n != NULL, "refused: %s:%ld: %s", e.file, e.line, e.msg);
    if (!n) {
        tc_end();
        return;
    }
    TC_CHECK(n->ids_mapped && n->zones_inferred, "mapped %d inferred %d", n->ids_mapped, n->zones_inferred);
    TC_CHECK(n->n_nodes == 4 && n->n_links == 5 && n->n_zones == 2, "nodes %d links %d zones %d", n->n_nodes,
             n->n_links, n->n_zones);
    TC_CHECK(ds_node_id(n, 0) == 500 && ds_node_id(n, 1) == 700, "zones first: %d %d", ds_node_id(n, 0),
             ds_node_id(n, 1));
    TC_CHECK(ds_node_id(n, 2) == 900 && ds_node_id(n, 3) == 2000000000, "then the rest: %d %d", ds_node_id(n, 2),
             ds_node_id(n, 3));
    TC_CHECK(ds_node_index(n, 2000000000) == 3 && ds_node_index(n, 1) == -1, "lookup");
    TC_CHECK(n->first_thru == 2, "zone 500 < FIRST THRU NODE 600 is a centroid, 700 is not: first_thru %d",
             n->first_thru);
    TC_CHECK(n->n_loops == 1 && n->loops[0].node_id == 500 && n->loops[0].line == 7 && n->loops[0].before == 2 &&
                 n->loops[0].t0 == 7,
             "loop %d", n->n_loops);
    TC_CHECK(ds_node_id(n, n->tail[2]) == 900 && ds_node_id(n, n->head[2]) == 2000000000, "link 3 mapped");
    TC_CHECK(n->n_od == 2 && n->od_orig[0] == 1 && n->od_dest[0] == 0, "OD mapped");
    c = ds_network_clone(n);
    TC_CHECK(c && c->node_id != n->node_id && ds_node_index(c, 900) == 2 && c->n_loops == 1 && c->loops[0].line == 7,
             "clone");
    ds_network_free(c);
    ds_network_free(n);
    tc_end();
}

/* A node below FIRST THRU NODE that the trips file does not name is still a
 * centroid (as in a dense file): sparse ids made it a through node, and routes
 * passed through it. Without <NUMBER OF ZONES>, a dense file's zones reach
 * FIRST THRU NODE - 1 (it was refused as out of range of the trips' zones). */
static void test_centroid_without_demand(void)
{
    static const char net[] = "<NUMBER OF NODES> 4\n<NUMBER OF LINKS> 4\n<FIRST THRU NODE> 600\n<END OF METADATA>\n"
                              "500 550 10 1 1 0.15 4 1 0 1;\n550 700 10 1 1 0.15 4 1 0 1;\n"
                              "500 40000 10 1 1 0.15 4 1 0 1;\n40000 700 10 1 1 0.15 4 1 0 1;\n";
    static const char trips[] = "<END OF METADATA>\nOrigin 500\n 700 : 10;\n";
    ds_error e = {0};
    ds_network *n = ds_network_parse(net, sizeof net - 1, "c.net.tntp", trips, sizeof trips - 1, "c.trips.tntp", &e);
    tc_begin("tntp sparse ids: every node below FIRST THRU NODE a centroid");
    TC_CHECK(n != NULL, "refused: %s:%ld: %s", e.file, e.line, e.msg);
    if (n) {
        TC_CHECK(n->n_zones == 3 && ds_node_id(n, 0) == 500 && ds_node_id(n, 1) == 550 && ds_node_id(n, 2) == 700,
                 "zones %d: %d %d %d", n->n_zones, ds_node_id(n, 0), ds_node_id(n, 1), ds_node_id(n, 2));
        TC_CHECK(n->first_thru == 3, "500 and 550 are centroids: first_thru %d", n->first_thru);
        TC_CHECK(n->n_od == 1 && ds_node_id(n, n->od_orig[0]) == 500 && ds_node_id(n, n->od_dest[0]) == 700, "OD");
        ds_network_free(n);
    }
    /* more nodes below FIRST THRU NODE than <NUMBER OF ZONES> declares: refused
     * on its line, as a dense file's (they were passed through) */
    static const char znet[] = "<NUMBER OF ZONES> 1\n<NUMBER OF NODES> 4\n<NUMBER OF LINKS> 4\n<FIRST THRU NODE> 600\n"
                               "<END OF METADATA>\n500 550 10 1 1 0.15 4 1 0 1;\n550 700 10 1 1 0.15 4 1 0 1;\n"
                               "500 40000 10 1 1 0.15 4 1 0 1;\n40000 700 10 1 1 0.15 4 1 0 1;\n";
    n = ds_network_parse(znet, sizeof znet - 1, "z.net.tntp", trips, sizeof trips - 1, "z.trips.tntp", &e);
    TC_CHECK(n == NULL && e.line == 4 &&
                 strstr(e.msg, "2 nodes have lower ids (centroids), more than <NUMBER OF ZONES> 1"),
             "not refused: line %ld: %s", e.line, e.msg);
    ds_network_free(n);
    static const char dnet[] = "<NUMBER OF NODES> 4\n<NUMBER OF LINKS> 2\n<FIRST THRU NODE> 4\n<END OF METADATA>\n"
                               "1 4 10 1 1 0.15 4 1 0 1;\n4 2 10 1 1 0.15 4 1 0 1;\n";
    static const char dtrips[] = "<END OF METADATA>\nOrigin 1\n 2 : 10;\n";
    n = ds_network_parse(dnet, sizeof dnet - 1, "d.net.tntp", dtrips, sizeof dtrips - 1, "d.trips.tntp", &e);
    TC_CHECK(n != NULL, "dense without <NUMBER OF ZONES> refused: %s:%ld: %s", e.file, e.line, e.msg);
    if (n) {
        TC_CHECK(n->n_zones == 3 && n->first_thru == 4 && n->zones_inferred, "zones %d first_thru %d", n->n_zones,
                 n->first_thru);
        ds_network_free(n);
    }
    tc_end();
}

/* Columns after the tenth, named by the column-name line: read past, said in
 * the network, the same links as without them; the clone keeps the names. */
static void test_extra_columns(void)
{
    static const char net[] = "<NUMBER OF NODES> 3\n<NUMBER OF LINKS> 2\n<NUMBER OF ZONES> 2\n<END OF METADATA>\n"
                              "~ first comment\n~\tinit_node\tterm_node\tcapacity\tlength\tfree_flow_time\tb\tpower"
                              "\tspeed\ttoll\tlink_type\tsaturation_flow\tlanes;\n"
                              "1 3 10 1 2 0.15 4 1 0 1 6 2;\n3 2 20 1 3 0.15 4 1 0 1;\n";
    static const char trips[] = "<NUMBER OF ZONES> 2\n<END OF METADATA>\nOrigin 1\n 2 : 10;\n";
    ds_error e = {0};
    ds_network *n = ds_network_parse(net, sizeof net - 1, "x.net.tntp", trips, sizeof trips - 1, "x.trips.tntp", &e),
               *c;
    tc_begin("tntp extra columns named by the column line");
    TC_CHECK(n != NULL, "refused: %s:%ld: %s", e.file, e.line, e.msg);
    if (n) {
        TC_CHECK(n->n_skipped_columns == 2 && n->columns_line == 6 &&
                     !strcmp(n->skipped_columns, "saturation_flow, lanes"),
                 "skipped %d at %ld: '%s'", n->n_skipped_columns, n->columns_line, n->skipped_columns);
        TC_CHECK(n->n_links == 2 && n->capacity[0] == 10 && n->t0[0] == 2 && n->link_type[0] == 1 &&
                     n->capacity[1] == 20 && n->t0[1] == 3,
                 "links read as the ten columns say");
        char note[600];
        TC_CHECK(ds_network_column_note(n, 0, note, sizeof note) &&
                     !strcmp(note, "x.net.tntp:6: the column line names 2 columns after the ten of the link format "
                                   "(saturation_flow, lanes): not used, read past"),
                 "note 0: '%s'", note);
        TC_CHECK(!ds_network_column_note(n, 1, note, sizeof note), "a second note");
        c = ds_network_clone(n);
        TC_CHECK(c && c->n_skipped_columns == 2 && !strcmp(c->skipped_columns, n->skipped_columns), "clone");
        ds_network_free(c);
        ds_network_free(n);
    }
    /* column lines that public writers print name the TNTP columns: no note */
    static const char *const heads[] = {
        "~\tTail\tHead\tCapacity (veh/h)\tLength (ft)\tFree Flow Time (min)\tB\tPower\tSpeed (ft/min)\tToll\tType\t;",
        "~from  to  capacity  length  ftime(min)  B  power  speed(mpm)  toll  type",
        "~ \tInit node \tTerm node \tCapacity \tLength \tFree Flow Time \tB\tPower\tSpeed limit \tToll \tType\t;"};
    for (int h = 0; h < 3; h++) {
        char text[512];
        snprintf(text, sizeof text,
                 "<NUMBER OF NODES> 3\n<NUMBER OF LINKS> 2\n<NUMBER OF ZONES> 2\n<END OF METADATA>\n%s\n"
                 "1 3 10 1 2 0.15 4 1 0 1;\n3 2 20 1 3 0.15 4 1 0 1;\n",
                 heads[h]);
        n = ds_network_parse(text, strlen(text), "h.net.tntp", trips, sizeof trips - 1, "h.trips.tntp", &e);
        TC_CHECK(n && !n->column_note[0], "header %d: note '%s'", h, n ? n->column_note : e.msg);
        ds_network_free(n);
    }
    /* a prose comment before the rows is no column line: no note */
    static const char prose[] = "<NUMBER OF NODES> 3\n<NUMBER OF LINKS> 2\n<NUMBER OF ZONES> 2\n<END OF METADATA>\n"
                                "~ converted from the original files by hand in 2016; the capacities are per hour\n"
                                "1 3 10 1 2 0.15 4 1 0 1;\n3 2 20 1 3 0.15 4 1 0 1;\n";
    n = ds_network_parse(prose, sizeof prose - 1, "p.net.tntp", trips, sizeof trips - 1, "p.trips.tntp", &e);
    TC_CHECK(n && !n->column_note[0] && !n->n_skipped_columns, "prose read as a column line: '%s'",
             n ? n->column_note : e.msg);
    ds_network_free(n);
    tc_end();
}

/* ds_parse_double gives strtod's bits on every decimal it accepts (its fast
 * path is Clinger's; the rest goes to strtod) and refuses what is not a whole
 * decimal. Random strings of the shapes data files write, and the edges of
 * the fast path (2^53, 10^22, -0, no digits). */
static void test_parse_double(void)
{
    char buf[64];
    long differ = 0, n = 0;
    unsigned long long r = 88172645463325252ULL;
    tc_begin("tntp numbers: ds_parse_double equals strtod bit for bit");
    for (long i = 0; i < 400000; i++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17; /* xorshift64 */
        double u = (double)(r >> 11) / 9007199254740992.0;
        int a = (int)(r % 1000), b = (int)((r >> 20) % 100000), k = (int)((r >> 40) % 40);
        switch (i % 6) {
        case 0: snprintf(buf, sizeof buf, "%.*f", k % 12, u * pow(10, k % 12)); break;
        case 1: snprintf(buf, sizeof buf, "%.*e", k % 17, (u - 0.5) * pow(10, k - 20)); break;
        case 2: snprintf(buf, sizeof buf, "%.17g", u * pow(10, k - 15)); break;
        case 3: snprintf(buf, sizeof buf, "%d.%0*d", b, k % 9 + 1, a); break;
        case 4: snprintf(buf, sizeof buf, "-%d.%dE%+d", a, b, k - 20); break;
        default: snprintf(buf, sizeof buf, "%llu", r >> (k % 40)); break;
        }
        double got = 12345, want = strtod(buf, NULL);
        n++;
        if (ds_parse_double(buf, &got) != 0 || memcmp(&got, &want, sizeof got) != 0) {
            if (!differ++) TC_CHECK(0, "'%s': %.17g, strtod %.17g", buf, got, want);
        }
    }
    const char *ok[] = {"0",
                        "-0",
                        "+0",
                        ".5",
                        "5.",
                        "1e22",
                        "1e23",
                        "1e-22",
                        "9007199254740992",
                        "9007199254740993",
                        "123456789012345678",
                        "-.0e5",
                        "00012.500",
                        "4.9e-324",
                        "2.2250738585072011e-308",
                        "1E+2"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        double got = 12345, want = strtod(ok[i], NULL);
        TC_CHECK(ds_parse_double(ok[i], &got) == 0 && memcmp(&got, &want, sizeof got) == 0, "'%s': %.17g, strtod %.17g",
                 ok[i], got, want);
    }
    const char *bad[] = {"", "1e", "e5", ".", "-", "1.2.3", "1e+", "0x10", "1,5", "1 ", "12a"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        double got = 0;
        TC_CHECK(ds_parse_double(bad[i], &got) == -1, "'%s' accepted", bad[i]);
    }
    printf("# %ld random decimals, %ld differ from strtod\n", n, differ);
    tc_end();
}

int main(void)
{
    test_parse_double();
    test_corpus();
    test_valid_small();
    test_quirks();
    test_siblings_and_flows();
    test_shared();
    test_siouxfalls_flows();
    test_clone_and_default();
    test_real_files();
    test_centroid_without_demand();
    test_extra_columns();
    return tc_exit();
}
