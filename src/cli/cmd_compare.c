/* cmd_compare.c - `dillsue compare A.csv B.csv`: how close flows A are to
 * the reference flows B (MAPE, R^2, max abs diff). */
#include "cli.h"
#include "ds_csv.h"
#include "ds_metrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMD "compare"

static const cli_help_section help_sections[] = {
    {"", {OPT_NET, OPT_FLOW_DEP, OPT_MIN_REF, OPT_HELP, -1}},
    {NULL, {-1}},
};

static const char *help_note(int id, char *buf, size_t n)
{
    (void)buf, (void)n;
    switch (id) {
    case OPT_NET: return "to check both files against";
    case OPT_FLOW_DEP: return "(free-flow time, b and power > 0): flows on the others are not unique; needs --net";
    case OPT_MIN_REF: return "(default 1)";
    default: return NULL;
    }
}

/* Returns 0, or 2 when the table and the sections above disagree. */
static int print_help(void)
{
    printf("Usage: dillsue compare A.csv B.csv [OPTIONS]\n"
           "Compare flows A against the reference flows B (both flow CSV files:\n"
           "%s, the same links in the same order). Either file may\n"
           "instead be a TNTP flow file (a name ending in .tntp, rows From To Volume\n"
           "Cost, as X_flow.tntp beside a network), matched to the links of --net NET.\n"
           "Prints MAPE in %% over links whose reference flow is >= --min-ref and above\n"
           "0, R^2 over all links, the max abs difference, and the number of links\n"
           "compared.\n"
           "\n",
           DS_FLOWS_HEADER);
    return cli_help_options(CMD, help_sections, help_note, stdout) ? 2 : 0;
}

/* One side: a flow CSV, or a TNTP flow file matched to net's links by the
 * reader of `solve`'s X_flow.tntp (the TUI's F reads both the same way);
 * then *init and *term are NULL: the rows are net's links, in its order. */
static int is_tntp(const char *path)
{
    size_t l = strlen(path);
    return l >= 5 && strcmp(path + l - 5, ".tntp") == 0;
}

static int read_side(const char *path, ds_network *net, int **init, int **term, double **flows, long **lines, int *n,
                     ds_error *err)
{
    if (!is_tntp(path)) return ds_flows_read_lines(path, net, init, term, flows, NULL, lines, n, err);
    if (!net)
        return ds_error_set(err, path, 0,
                            "a TNTP flow file needs --net NET: its rows are matched to the network's links");
    free(net->ref_flow);
    net->ref_flow = NULL;
    if (ds_network_load_flows(net, path, err) != 0) return -1;
    if (!net->ref_flow) return ds_error_set(err, path, 0, "no flows read");
    *flows = net->ref_flow;
    net->ref_flow = NULL;
    *n = net->n_links;
    *init = *term = NULL;
    *lines = NULL;
    return 0;
}

/* "dillsue: FILE:LINE: " with the file name's control bytes escaped */
static void at_line(const char *path, long line)
{
    fputs("dillsue: ", stderr);
    cli_fputs_escaped(path, stderr);
    fprintf(stderr, ":%ld: ", line);
}

/* Rows of two flow CSVs (without --net) side by side: the first row that is
 * not the same link, or the first row one file has beyond the other's last,
 * named by its file and line (line 1 the header), as the reader names its
 * errors. Returns 0 if they match, else 2 after the message. */
static int match_rows(const char *pa, const int *ia, const int *ta, const long *la, int na, const char *pb,
                      const int *ib, const int *tb, const long *lb, int nb)
{
    int n = na < nb ? na : nb;
    for (int e = 0; e < n; e++)
        if (ia[e] != ib[e] || ta[e] != tb[e]) {
            at_line(pb, lb[e]);
            fprintf(stderr, "data row %d is link (%d,%d) but in ", e + 1, ib[e], tb[e]);
            cli_fputs_escaped(pa, stderr);
            fprintf(stderr, " (line %ld) it is (%d,%d)\n", la[e], ia[e], ta[e]);
            return 2;
        }
    if (na == nb) return 0;
    const char *pl = na > nb ? pa : pb, *ps = na > nb ? pb : pa;
    const int *il = na > nb ? ia : ib, *tl = na > nb ? ta : tb;
    const long *ll = na > nb ? la : lb, *ls = na > nb ? lb : la;
    at_line(pl, ll[n]);
    fprintf(stderr, "data row %d, link (%d,%d), is beyond the last data row of ", n + 1, il[n], tl[n]);
    cli_fputs_escaped(ps, stderr);
    if (n)
        fprintf(stderr, " (row %d, line %ld)\n", n, ls[n - 1]);
    else
        fprintf(stderr, ": it has none, only the header\n");
    return 2;
}

int cmd_compare(int argc, char **argv)
{
    cli_values v;
    int first = 0;
    int rc = cli_parse(CMD, argc, argv, &v, &first);
    if (rc == 1) return print_help();
    if (rc) return rc;
    const char *net_path = v.str[OPT_NET];
    int dep_only = v.have[OPT_FLOW_DEP];
    double min_ref = v.have[OPT_MIN_REF] ? v.num[OPT_MIN_REF] : 1.0;
    if (argc - first != 2) return cli_usage(CMD, "needs two flow files A.csv B.csv, got %d", argc - first);
    if (dep_only && !net_path) return cli_usage(CMD, "--flow-dependent-only needs --net");
    const char *pa = argv[first], *pb = argv[first + 1];

    ds_error err = {0};
    ds_network *net = NULL;
    if (net_path && !(net = ds_network_load_net_trips(net_path, NULL, &err))) return cli_input_error(&err);

    int *ia = NULL, *ta = NULL, *ib = NULL, *tb = NULL, na = 0, nb = 0;
    long *la = NULL, *lb = NULL;
    double *fa = NULL, *fb = NULL;
    int code = 0;
    if (read_side(pa, net, &ia, &ta, &fa, &la, &na, &err) != 0 ||
        read_side(pb, net, &ib, &tb, &fb, &lb, &nb, &err) != 0) {
        code = cli_input_error(&err);
        goto done;
    }
    /* (with --net each side was matched to its links; a TNTP side has no rows of its own) */
    if (!is_tntp(pa) && !is_tntp(pb) && (code = match_rows(pa, ia, ta, la, na, pb, ib, tb, lb, nb))) goto done;
    if (na != nb) { /* (not reached: --net gave both its link count) */
        fprintf(stderr, "dillsue: %d flows against %d\n", na, nb);
        code = 2;
        goto done;
    }
    int n_loops = 0;
    for (int e = 0; ia && ib && e < na; e++) n_loops += ia[e] == ta[e];

    unsigned char *mask = NULL;
    if (dep_only || n_loops) {
        mask = malloc(na ? na : 1);
        if (!mask) {
            fprintf(stderr, "dillsue: out of memory\n");
            code = 2;
            goto done;
        }
        if (dep_only)
            ds_metrics_flow_dependent_mask(net, mask);
        else /* without --net: a u,u row is a self-loop the reader dropped (no link), as with --net */
            for (int e = 0; e < na; e++) mask[e] = ia[e] != ta[e];
    }
    ds_metrics m;
    if (ds_metrics_compare(fa, fb, na, mask, min_ref, &m) != 0)
        fprintf(stderr, "dillsue: warning: non-finite values in the input\n");
    free(mask);

    printf("links:         %d of %d%s\n", m.n_used, na - n_loops, dep_only ? " (flow-dependent only)" : "");
    char over[48]; /* the links MAPE is over: reference flow >= min_ref, and above 0 (ds_metrics_compare) */
    if (min_ref > 0)
        snprintf(over, sizeof over, "reference flow >= %g", min_ref);
    else
        snprintf(over, sizeof over, "reference flow above 0");
    if (isnan(m.mape))
        printf("MAPE:          n/a (no link with %s)\n", over);
    else if (isinf(m.mape))
        printf("MAPE:          undefined (the mean relative error overflows; %d links with %s)\n", m.n_mape, over);
    else
        printf("MAPE:          %.6g %% (%d links with %s)\n", m.mape, m.n_mape, over);
    char num[64];
    printf("R^2:           %s\n", cli_num(m.r2, "%.10g",
                                          m.n_used == 0 ? "undefined (no links compared)"
                                          : isinf(m.r2) ? "undefined (below -1.8e308: SS_res / SS_tot overflows)"
                                                        : "undefined (the reference flows do not vary)",
                                          num, sizeof num));
    printf("max abs diff:  %s\n", cli_num(m.max_abs, "%.10g", "undefined (the difference overflows)", num, sizeof num));

done:
    free(ia), free(ta), free(ib), free(tb), free(fa), free(fb), free(la), free(lb);
    if (net) ds_network_free(net);
    return code;
}
