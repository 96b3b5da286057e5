/* tntp.c - reading TNTP networks (net, trips, node coordinates, reference flows).
 *
 * The reader is strict about what it uses and lenient about layout: the public
 * TNTP files mix tabs and spaces, end rows with or without ';', carry trailing
 * tabs and '~' comments and write numbers in exponent form. Every value is
 * parsed with strtol/strtod and checked to the end of its token, and anything
 * wrong is reported as "file:line: what", never guessed around.
 */
#include "dillsue.h"
#include "infile.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Far beyond any real road network; stops a corrupt header from asking for
 * gigabytes before the first row is read. */
#define MAX_NODES 100000000L
#define NET_COLUMNS 10
#define TOTAL_OD_RTOL 1e-6
#define TOTAL_OD_PRINTED 5e-6 /* half a unit in %g's sixth digit, relative */
/* Berlin-Center, the largest shared network, is 3.4 MB; this only stops
 * /dev/zero or a runaway pipe from eating all memory. */
#define MAX_FILE_BYTES DS_INFILE_MAX_BYTES

/* ------------------------------------------------------------ text lines */

typedef struct text {
    char *buf; /* private NUL-terminated copy; lines are cut in place */
    char *p, *end;
    const char *name; /* file name used in errors */
    long line;        /* number of the line last returned */
    long n_lines;
    char *comment; /* the '~' comment of the line last returned (NULL: none) */
} text;

static int is_ws(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

static char *trim(char *s)
{
    char *e;
    while (is_ws((unsigned char)*s)) s++;
    e = s + strlen(s);
    while (e > s && is_ws((unsigned char)e[-1])) *--e = '\0';
    return s;
}

/* Length of a valid UTF-8 sequence at s (s[0] >= 0x80), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t avail)
{
    size_t n, i;
    unsigned c = s[0];
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4;
    else
        return 0;
    if (n > avail) return 0;
    for (i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    if (c == 0xE0 && s[1] < 0xA0) return 0; /* overlong */
    if (c == 0xED && s[1] > 0x9F) return 0; /* surrogates */
    if (c == 0xF0 && s[1] < 0x90) return 0;
    if (c == 0xF4 && s[1] > 0x8F) return 0;
    return n;
}

/* Rejects what is not text (NUL, control bytes, invalid UTF-8) before any
 * parsing, so that a binary file gets one clear message instead of a confusing
 * complaint about its first "row". */
static int text_open(text *t, const char *data, size_t len, const char *name, ds_error *err)
{
    const unsigned char *s = (const unsigned char *)data;
    long line = 1;
    size_t i;
    int any = 0;

    memset(t, 0, sizeof *t);
    t->name = name;
    if (!data) return ds_error_set(err, name, 0, "no data");
    /* Editors on Windows start UTF-8 files with a byte order mark. */
    if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3)) {
        data += 3;
        len -= 3;
        s += 3;
    }
    /* A branch-free pass first (it vectorises): the newlines, whether any
     * byte is visible, whether any is a control byte or not ASCII. Only a
     * file with one of those (UTF-8 text, binary data) takes the byte-by-byte
     * pass below, which names the offending byte or checks the UTF-8; the
     * branchy pass alone was a fifth of the time to read Berlin-Center. */
    size_t nl = 0;
    unsigned odd = 0, vis = 0;
    i = 0;
#if defined(__SSE2__)
    {
        const __m128i newline = _mm_set1_epi8('\n'), space = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t' - 1),
                      cr = _mm_set1_epi8('\r' + 1);
        for (; i + 16 <= len; i += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(s + i));
            /* signed bytes: from 0x80 they are negative, so below ' ' too */
            __m128i ctl = _mm_cmplt_epi8(x, space);
            __m128i ws = _mm_and_si128(_mm_cmpgt_epi8(x, tab), _mm_cmplt_epi8(x, cr)); /* \t \n \v \f \r */
            nl += (size_t)__builtin_popcount((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, newline)));
            odd |= (unsigned)_mm_movemask_epi8(_mm_andnot_si128(ws, ctl));
            vis |= (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(x, space));
        }
    }
#endif
    for (; i < len; i++) {
        unsigned c = s[i];
        nl += c == '\n';
        odd |= (c >= 0x80) | ((c < 0x20) & (c != '\n') & (c != '\t') & (c != '\r') & (c != '\f') & (c != '\v'));
        vis |= (c > 0x20) & (c < 0x80);
    }
    if (!odd) {
        line += (long)nl;
        any = (int)vis;
        i = len;
    } else
        i = 0;
    /* Within a comment (from '~' to the line's end) a byte that is not UTF-8
     * is accepted: files written in Latin-1 or Windows-1252 carry accented
     * names there, and a comment is never read for a value. */
    int comment = 0;
    for (; i < len; i++) {
        unsigned c = s[i];
        if (c == '\n' || (c == '\r' && nl == 0)) { /* (CR alone: below) */
            line++;
            comment = 0;
        } else if (c == 0) {
            return ds_error_set(err, name, line, "binary data: NUL byte at offset %zu; not a TNTP text file", i);
        } else if (c < 0x20 && !is_ws((int)c)) {
            return ds_error_set(err, name, line, "binary data: control byte 0x%02x at offset %zu; not a TNTP text file",
                                c, i);
        } else if (c >= 0x80) {
            size_t n = utf8_len(s + i, len - i);
            if (!n && comment) n = 1;
            if (!n)
                return ds_error_set(err, name, line, "binary data: invalid byte 0x%02x at offset %zu (not UTF-8 text)",
                                    c, i);
            i += n - 1;
            any = 1;
        } else if (!is_ws((int)c)) {
            any = 1;
            comment |= c == '~';
        }
    }
    if (!any) return ds_error_set(err, name, 0, "file is empty");
    /* Lines that end in CR alone (classic Mac OS) read as one line whose
     * "value" held the whole file ("<NUMBER OF ZONES> must be a positive
     * integer, got '24\x0d<NUMBER OF NODES>..."): a file without any LF has
     * its CRs taken as line ends. (A CR within a file of LF lines stays
     * whitespace, as in CRLF.) */
    int cr_lines = nl == 0 && memchr(data, '\r', len) != NULL;
    t->buf = malloc(len + 1);
    if (!t->buf) return ds_error_set(err, name, 0, "out of memory reading %zu bytes", len);
    memcpy(t->buf, data, len);
    t->buf[len] = '\0';
    if (cr_lines) {
        line = 1;
        for (char *c = t->buf; (c = memchr(c, '\r', (size_t)(t->buf + len - c))); c++) *c = '\n', line++;
    }
    t->p = t->buf;
    t->end = t->buf + len;
    t->n_lines = line;
    return 0;
}

static void text_close(text *t)
{
    free(t->buf);
    t->buf = NULL;
}

/* Next line with its '~' comment removed, or NULL at the end of the text. */
static char *text_next(text *t)
{
    char *b, *nl, *c;
    if (t->p >= t->end) return NULL;
    b = t->p;
    nl = memchr(b, '\n', (size_t)(t->end - b));
    if (nl) {
        *nl = '\0';
        t->p = nl + 1;
    } else {
        t->p = t->end;
    }
    t->line++;
    c = strchr(b, '~');
    t->comment = c ? c + 1 : NULL;
    if (c) *c = '\0';
    return b;
}

/* Splits s in place at whitespace. Returns the number of tokens, storing at
 * most max of them. */
static int split_ws(char *s, char **tok, int max)
{
    int n = 0;
    for (;;) {
        while (is_ws((unsigned char)*s)) s++;
        if (!*s) return n;
        if (n < max) tok[n] = s;
        n++;
        while (*s && !is_ws((unsigned char)*s)) s++;
        if (*s) *s++ = '\0';
    }
}

/* s as it may appear inside a one-line message: whitespace runs (tabs!)
 * collapsed to one space, cut at about 40 characters. */
static const char *snippet(const char *s, char *buf, size_t n)
{
    size_t k = 0;
    int space = 0;
    for (; *s && k + 4 < n && k < 40; s++) {
        if (is_ws((unsigned char)*s)) {
            space = k > 0;
            continue;
        }
        if (space) buf[k++] = ' ';
        space = 0;
        buf[k++] = *s;
    }
    if (*s && k + 4 <= n) {
        memcpy(buf + k, "...", 3);
        k += 3;
    }
    buf[k] = '\0';
    return buf;
}

/* A row ends at ';'. Text after it would be silently lost, so it is an error. */
static int cut_semicolon(text *t, char *s, ds_error *err)
{
    char *semi = strchr(s, ';'), sn[64];
    if (!semi) return 0;
    *semi = '\0';
    if (*trim(semi + 1)) /* (tabs as spaces: snippet) */
        return ds_error_set(err, t->name, t->line, "unexpected text after ';': '%s'",
                            snippet(trim(semi + 1), sn, sizeof sn));
    return 0;
}

/* ------------------------------------------------------------ numbers */

/* The shared parsers (settings.c): decimal only, hexadecimal refused (no
 * TNTP file writes it and "0x" in a data file is more likely corruption). */
static int parse_long(const char *s, long *out) { return ds_parse_long(s, out) ? -1 : 0; }

/* 0 ok, -1 not a number, -2 not finite. */
static int parse_double(const char *s, double *out) { return ds_parse_double(s, out); }

/* A number field of a row, with the file/line/field named on failure. */
static int field_double(text *t, const char *what, const char *tok, double *out, ds_error *err)
{
    int rc = parse_double(tok, out);
    if (rc == -1) return ds_error_set(err, t->name, t->line, "%s: expected a number, got '%.40s'", what, tok);
    if (rc == -2) return ds_error_set(err, t->name, t->line, "%s must be finite, got '%.40s'", what, tok);
    return 0;
}

/* A node id as the file writes it: a positive integer. Which node it names is
 * decided once every row has been read (files may number nodes sparsely). */
static int field_node_id(text *t, const char *what, const char *tok, long n_nodes, int *out, ds_error *err)
{
    long v;
    if (parse_long(tok, &v))
        return ds_error_set(err, t->name, t->line, "%s: expected a node number, got '%.40s'", what, tok);
    if (v < 1)
        return ds_error_set(err, t->name, t->line, "%s %ld out of range 1..%ld (<NUMBER OF NODES>)", what, v, n_nodes);
    if (v > INT_MAX) return ds_error_set(err, t->name, t->line, "%s %ld is too large (ids up to %d)", what, v, INT_MAX);
    *out = (int)v;
    return 0;
}

/* A node named by its id in a file read after the network (nodes, flows). */
static int field_node(text *t, const char *what, const char *tok, const ds_network *net, int *out, ds_error *err)
{
    long v;
    int i;
    if (parse_long(tok, &v))
        return ds_error_set(err, t->name, t->line, "%s: expected a node number, got '%.40s'", what, tok);
    i = ds_node_index(net, v);
    if (i < 0) {
        if (net->ids_mapped) return ds_error_set(err, t->name, t->line, "%s %ld is not a node of the network", what, v);
        return ds_error_set(err, t->name, t->line, "%s %ld out of range 1..%d (<NUMBER OF NODES>)", what, v,
                            net->n_nodes);
    }
    *out = i;
    return 0;
}

int ds_node_id(const ds_network *net, int node)
{
    if (!net || node < 0 || node >= net->n_nodes) return 0;
    return net->node_id ? net->node_id[node] : node + 1;
}

int ds_node_index(const ds_network *net, long id)
{
    int lo = 0, hi;
    if (!net) return -1;
    if (!net->node_id || !net->node_by_id) return (id >= 1 && id <= net->n_nodes) ? (int)(id - 1) : -1;
    hi = net->n_nodes;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (net->node_id[net->node_by_id[mid]] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (lo < net->n_nodes && net->node_id[net->node_by_id[lo]] == id) ? net->node_by_id[lo] : -1;
}

/* ------------------------------------------------------------ metadata */

enum { MK_ZONES, MK_NODES, MK_FIRST_THRU, MK_LINKS, MK_TOTAL_OD, MK_TOLL, MK_DIST, MK_N };
static const char *const meta_key_name[MK_N] = {
    "NUMBER OF ZONES", "NUMBER OF NODES", "FIRST THRU NODE", "NUMBER OF LINKS",
    "TOTAL OD FLOW",   "TOLL FACTOR",     "DISTANCE FACTOR",
};

typedef struct meta {
    long line[MK_N]; /* 0 = absent */
    long ival[MK_N];
    double dval[MK_N];
    double half_unit[MK_N]; /* half a unit in the value's last printed digit */
    long end_line;
} meta;

/* Half a unit in the last digit a decimal literal prints: "2.52257e+007" 50,
 * "360600.0" 0.05, "11205" 0.5. A header total written with %g (six
 * significant digits: Terrassa-Asymmetric's 2.52257e+007 for a table summing to
 * 25,225,746.76) is as exact as it claims to be when the sum rounds to it.
 * %g drops trailing zeros ("1e+05" is 100000 to six digits), so the caller
 * never allows more than half a unit in the sixth significant digit. */
static double printed_half_unit(const char *val)
{
    const char *p = val;
    int frac = 0, in_frac = 0;
    long ex = 0;
    if (*p == '+' || *p == '-') p++;
    for (; *p; p++) {
        if (*p == '.')
            in_frac = 1;
        else if (*p >= '0' && *p <= '9')
            frac += in_frac;
        else
            break;
    }
    if (*p == 'e' || *p == 'E') ex = strtol(p + 1, NULL, 10);
    if (ex > 300 || ex < -300) return 0;
    return 0.5 * pow(10.0, (double)(ex - frac));
}

/* Reads "<KEY> value" lines up to <END OF METADATA>. Keys are compared with
 * case and runs of whitespace normalised; unknown keys are ignored. */
static int read_metadata(text *t, meta *m, ds_error *err)
{
    char *s;
    memset(m, 0, sizeof *m);
    while ((s = text_next(t))) {
        char key[128], *close, *val, *k;
        size_t kn = 0;
        int i, space = 0;

        s = trim(s);
        if (!*s) continue;
        if (*s != '<') {
            char sn[64];
            return ds_error_set(err, t->name, t->line,
                                "expected '<KEY> value' or <END OF METADATA> in the header, got '%s'",
                                snippet(s, sn, sizeof sn));
        }
        close = strchr(s, '>');
        if (!close) return ds_error_set(err, t->name, t->line, "metadata key without '>': '%.40s'", s);
        *close = '\0';
        val = trim(close + 1);
        for (k = s + 1; *k && kn + 1 < sizeof key; k++) {
            if (is_ws((unsigned char)*k)) {
                space = kn > 0;
                continue;
            }
            if (space) key[kn++] = ' ';
            space = 0;
            if (kn + 1 < sizeof key) key[kn++] = (char)((*k >= 'a' && *k <= 'z') ? *k - 32 : *k);
        }
        key[kn] = '\0';
        if (!strcmp(key, "END OF METADATA")) {
            m->end_line = t->line;
            return 0;
        }
        for (i = 0; i < MK_N; i++)
            if (!strcmp(key, meta_key_name[i])) break;
        if (i == MK_N) continue;
        if (m->line[i])
            return ds_error_set(err, t->name, t->line, "duplicate <%s> (first at line %ld)", key, m->line[i]);
        if (!*val) return ds_error_set(err, t->name, t->line, "<%s> has no value", key);
        if (i <= MK_LINKS) {
            long v;
            if (parse_long(val, &v) || v < 1)
                return ds_error_set(err, t->name, t->line, "<%s> must be a positive integer, got '%.40s'", key, val);
            if (v > MAX_NODES)
                return ds_error_set(err, t->name, t->line, "<%s> is %.40s: more than this program reads (%ld)", key,
                                    val, MAX_NODES);
            m->ival[i] = v;
        } else {
            double v;
            int rc = parse_double(val, &v);
            if (rc == -1) return ds_error_set(err, t->name, t->line, "<%s>: expected a number, got '%.40s'", key, val);
            if (rc == -2) return ds_error_set(err, t->name, t->line, "<%s> must be finite, got '%.40s'", key, val);
            if (i == MK_TOTAL_OD && v < 0)
                return ds_error_set(err, t->name, t->line, "<%s> must be non-negative, got '%.40s'", key, val);
            m->dval[i] = v;
            m->half_unit[i] = printed_half_unit(val);
        }
        m->line[i] = t->line;
    }
    return ds_error_set(err, t->name, t->line, "file ends before <END OF METADATA> (truncated header?)");
}

static int meta_require(text *t, const meta *m, int k, ds_error *err)
{
    if (m->line[k]) return 0;
    return ds_error_set(err, t->name, m->end_line, "missing <%s> in the header", meta_key_name[k]);
}

/* ------------------------------------------------------------ network memory */

static void *xcalloc(size_t n, size_t sz) { return calloc(n ? n : 1, sz); }

static void *dup_array(const void *src, size_t n, size_t sz)
{
    void *p;
    if (!src) return NULL;
    p = malloc(n ? n * sz : 1);
    if (p && n) memcpy(p, src, n * sz);
    return p;
}

void ds_network_free(ds_network *net)
{
    if (!net) return;
    free(net->tail);
    free(net->head);
    free(net->capacity);
    free(net->length);
    free(net->t0);
    free(net->bpr_b);
    free(net->bpr_power);
    free(net->speed);
    free(net->toll);
    free(net->link_type);
    free(net->src_line);
    free(net->out_start);
    free(net->out_link);
    free(net->in_start);
    free(net->in_link);
    free(net->od_orig);
    free(net->od_dest);
    free(net->od_demand);
    free(net->dest_node);
    free(net->dest_od_start);
    free(net->node_x);
    free(net->node_y);
    free(net->ref_flow);
    free(net->ref_cost);
    free(net->node_id);
    free(net->node_by_id);
    free(net->loops);
    free(net);
}

ds_network *ds_network_clone(const ds_network *src)
{
    ds_network *n;
    size_t L, N, D, Q;
    int ok;
    if (!src) return NULL;
    n = malloc(sizeof *n);
    if (!n) return NULL;
    *n = *src;
    L = (size_t)src->n_links;
    N = (size_t)src->n_nodes;
    D = (size_t)src->n_dest;
    Q = (size_t)src->n_od;
    n->tail = dup_array(src->tail, L, sizeof(int));
    n->head = dup_array(src->head, L, sizeof(int));
    n->capacity = dup_array(src->capacity, L, sizeof(double));
    n->length = dup_array(src->length, L, sizeof(double));
    n->t0 = dup_array(src->t0, L, sizeof(double));
    n->bpr_b = dup_array(src->bpr_b, L, sizeof(double));
    n->bpr_power = dup_array(src->bpr_power, L, sizeof(double));
    n->speed = dup_array(src->speed, L, sizeof(double));
    n->toll = dup_array(src->toll, L, sizeof(double));
    n->link_type = dup_array(src->link_type, L, sizeof(int));
    n->src_line = dup_array(src->src_line, L, sizeof(long));
    n->out_start = dup_array(src->out_start, N + 1, sizeof(int));
    n->out_link = dup_array(src->out_link, L, sizeof(int));
    n->in_start = dup_array(src->in_start, N + 1, sizeof(int));
    n->in_link = dup_array(src->in_link, L, sizeof(int));
    n->od_orig = dup_array(src->od_orig, Q, sizeof(int));
    n->od_dest = dup_array(src->od_dest, Q, sizeof(int));
    n->od_demand = dup_array(src->od_demand, Q, sizeof(double));
    n->dest_node = dup_array(src->dest_node, D, sizeof(int));
    n->dest_od_start = dup_array(src->dest_od_start, D + 1, sizeof(int));
    n->node_x = dup_array(src->node_x, N, sizeof(double));
    n->node_y = dup_array(src->node_y, N, sizeof(double));
    n->ref_flow = dup_array(src->ref_flow, L, sizeof(double));
    n->ref_cost = dup_array(src->ref_cost, L, sizeof(double));
    n->node_id = dup_array(src->node_id, N, sizeof(int));
    n->node_by_id = dup_array(src->node_by_id, N, sizeof(int));
    n->loops = dup_array(src->loops, (size_t)src->n_loops, sizeof(ds_dropped_loop));
    ok = (!src->node_id || n->node_id) && (!src->node_by_id || n->node_by_id) && (!src->loops || n->loops) &&
         (!src->tail || n->tail) && (!src->head || n->head) && (!src->capacity || n->capacity) &&
         (!src->length || n->length) && (!src->t0 || n->t0) && (!src->bpr_b || n->bpr_b) &&
         (!src->bpr_power || n->bpr_power) && (!src->speed || n->speed) && (!src->toll || n->toll) &&
         (!src->link_type || n->link_type) && (!src->src_line || n->src_line) && (!src->out_start || n->out_start) &&
         (!src->out_link || n->out_link) && (!src->in_start || n->in_start) && (!src->in_link || n->in_link) &&
         (!src->od_orig || n->od_orig) && (!src->od_dest || n->od_dest) && (!src->od_demand || n->od_demand) &&
         (!src->dest_node || n->dest_node) && (!src->dest_od_start || n->dest_od_start) &&
         (!src->node_x || n->node_x) && (!src->node_y || n->node_y) && (!src->ref_flow || n->ref_flow) &&
         (!src->ref_cost || n->ref_cost);
    if (!ok) {
        ds_network_free(n);
        return NULL;
    }
    return n;
}

/* "dir/SiouxFalls_net.tntp" -> "SiouxFalls". */
static void base_name(const char *path, char *out, size_t n)
{
    static const char *const suffix[] = {"_net.tntp", ".net.tntp", ".tntp"};
    const char *b = strrchr(path, '/');
    size_t len, i;
    b = b ? b + 1 : path;
    len = strlen(b);
    for (i = 0; i < sizeof suffix / sizeof *suffix; i++) {
        size_t sl = strlen(suffix[i]);
        if (len > sl && !strcmp(b + len - sl, suffix[i])) {
            len -= sl;
            break;
        }
    }
    if (len >= n) len = n - 1;
    memcpy(out, b, len);
    out[len] = '\0';
}

/* Out- and in-link lists in link order: a stable counting sort by node. */
static int build_csr(ds_network *net)
{
    int N = net->n_nodes, L = net->n_links, e, u;
    int *pos;
    net->out_start = xcalloc((size_t)N + 1, sizeof(int));
    net->in_start = xcalloc((size_t)N + 1, sizeof(int));
    net->out_link = xcalloc((size_t)L, sizeof(int));
    net->in_link = xcalloc((size_t)L, sizeof(int));
    pos = xcalloc((size_t)N + 1, sizeof(int));
    if (!net->out_start || !net->in_start || !net->out_link || !net->in_link || !pos) {
        free(pos);
        return -1;
    }
    for (e = 0; e < L; e++) {
        net->out_start[net->tail[e] + 1]++;
        net->in_start[net->head[e] + 1]++;
    }
    for (u = 0; u < N; u++) {
        net->out_start[u + 1] += net->out_start[u];
        net->in_start[u + 1] += net->in_start[u];
    }
    memcpy(pos, net->out_start, (size_t)N * sizeof(int));
    for (e = 0; e < L; e++) net->out_link[pos[net->tail[e]]++] = e;
    memcpy(pos, net->in_start, (size_t)N * sizeof(int));
    for (e = 0; e < L; e++) net->in_link[pos[net->head[e]]++] = e;
    free(pos);
    return 0;
}

/* ------------------------------------------------------------ net file */

static int add_loop(ds_network *net, int id, long line, int before, double t0)
{
    ds_dropped_loop *p;
    if ((net->n_loops & (net->n_loops - 1)) == 0) { /* grow at powers of two */
        p = realloc(net->loops, (size_t)(net->n_loops ? 2 * net->n_loops : 1) * sizeof *p);
        if (!p) return -1;
        net->loops = p;
    }
    net->loops[net->n_loops].node_id = id;
    net->loops[net->n_loops].line = line;
    net->loops[net->n_loops].before = before;
    net->loops[net->n_loops].t0 = t0;
    net->n_loops++;
    return 0;
}

/* The rules on a link's values, one definition for the reader and for
 * ds_network_check (a network edited in place, as ds_scenario_apply does, with
 * a capacity of 0, -5 or NaN "converged"): the index of the first value that
 * breaks one (0 capacity, 1 length, 2 free-flow time, 3 b, 4 power; the net
 * file's columns 3 to 7) and *rule, or -1. Zero free-flow times are legal
 * (Chicago-Sketch, Berlin-Center connectors). */
static double link_value(const ds_network *net, int e, int k)
{
    const double *col[5] = {net->capacity, net->length, net->t0, net->bpr_b, net->bpr_power};
    return col[k][e];
}

static int link_rule(const ds_network *net, int e, const char **rule)
{
    static const char *const finite[5] = {"capacity must be finite", "length must be finite",
                                          "free-flow time must be finite", "b must be finite", "power must be finite"};
    static const char *const sign[5] = {"capacity must be positive", "length must be non-negative",
                                        "free-flow time must be non-negative", "b must be non-negative",
                                        "power must be non-negative"};
    for (int k = 0; k < 5; k++) {
        double v = link_value(net, e, k);
        if (!isfinite(v) || (k == 0 ? !(v > 0) : !(v >= 0))) {
            *rule = isfinite(v) ? sign[k] : finite[k];
            return k;
        }
    }
    return -1;
}

/* One link row into slot L (node ids as written; mapped later). Returns 1 for
 * a self-loop (recorded in net->loops, slot not used), 0 for a link, -1 on error. */
static int net_row(text *t, ds_network *net, char **tok, long n_nodes, long L, ds_error *err)
{
    long type;
    if (field_node_id(t, "init node", tok[0], n_nodes, &net->tail[L], err) ||
        field_node_id(t, "term node", tok[1], n_nodes, &net->head[L], err) ||
        field_double(t, "capacity", tok[2], &net->capacity[L], err) ||
        field_double(t, "length", tok[3], &net->length[L], err) ||
        field_double(t, "free-flow time", tok[4], &net->t0[L], err) ||
        field_double(t, "b", tok[5], &net->bpr_b[L], err) ||
        field_double(t, "power", tok[6], &net->bpr_power[L], err) ||
        field_double(t, "speed", tok[7], &net->speed[L], err) || field_double(t, "toll", tok[8], &net->toll[L], err))
        return -1;
    if (parse_long(tok[9], &type) || type < INT_MIN || type > INT_MAX)
        return ds_error_set(err, t->name, t->line, "link type: expected an integer, got '%.40s'", tok[9]);
    net->link_type[L] = (int)type;
    const char *rule;
    int bad = link_rule(net, (int)L, &rule);
    if (bad >= 0) return ds_error_set(err, t->name, t->line, "%s, got %s", rule, tok[2 + bad]);
    net->src_line[L] = t->line;
    /* No route uses a link from a node to itself; real files carry a few. */
    if (net->tail[L] == net->head[L]) {
        if (add_loop(net, net->tail[L], t->line, (int)L, net->t0[L]))
            return ds_error_set(err, t->name, t->line, "out of memory");
        return 1;
    }
    return 0;
}

/* Columns after the tenth. Some published files carry more (one public
 * Nguyen-Dupuis file adds saturation_flow), and the rows alone cannot say
 * whether such a file only appends columns or orders them differently. So
 * they are read past only where the column-name line, the last '~' comment
 * before the first row, names the ten standard columns first (each by one of
 * the names files use for it, compared in lower case without punctuation or
 * a parenthesised unit) and the extra ones after them; a row may then have up
 * to as many columns as it names. Names are split at tabs where the line has
 * any (names with spaces: "Free Flow Time"), else at spaces. */
#define NET_MAX_COLUMNS 32
static const char *const net_column_names[NET_COLUMNS] = {
    "initnode init from fromnode anode inode tail startnode",
    "termnode term to tonode bnode jnode head endnode",
    "capacity cap",
    "length len distance dist",
    "freeflowtime fftime fftt fft ftime freeflowtraveltime traveltime time t0",
    "b alpha bprb bpralpha",
    "power beta bprpower bprbeta",
    "speed speedlimit ffspeed freeflowspeed",
    "toll",
    "linktype type"};

static void column_key(const char *name, char *key, size_t size)
{
    size_t k = 0;
    for (const char *c = name; *c && *c != '(' && k + 1 < size; c++)
        if (isalnum((unsigned char)*c)) key[k++] = (char)tolower((unsigned char)*c);
    key[k] = '\0';
}

static int column_is(const char *key, const char *names)
{
    size_t n = strlen(key);
    for (const char *p = names; *p;) {
        const char *e = strchr(p, ' ');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && !strncmp(p, key, n)) return 1;
        p += len + (e != NULL);
    }
    return 0;
}

/* Splits the column-name comment (a copy) into names; returns how many (at
 * most NET_MAX_COLUMNS are stored, more are counted). */
static int column_names(char *line, char **name)
{
    const char *sep = strchr(line, '\t') ? "\t" : " \t";
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(line, sep, &save); tok; tok = strtok_r(NULL, sep, &save)) {
        tok = trim(tok);
        size_t len = strlen(tok);
        while (len && tok[len - 1] == ';') tok[--len] = '\0'; /* "link_type;" or a lone ";" */
        tok = trim(tok);
        if (!*tok) continue;
        if (n < NET_MAX_COLUMNS) name[n] = tok;
        n++;
    }
    return n;
}

/* The TNTP link columns, as messages name them. */
#define NET_COLUMN_LIST "init_node term_node capacity length free_flow_time b power speed toll link_type"
static const char *const net_std_name[NET_COLUMNS] = {"init_node", "term_node", "capacity", "length", "free_flow_time",
                                                      "b",         "power",     "speed",    "toll",   "link_type"};

/* The column-name line cols split into name[] (in buf; the count returned),
 * and the first ten names that do not name their TNTP column into bad[]
 * (*nbad of them). A unit in parentheses changes no meaning; with `lanes` a
 * count of lanes does ("capacity (per lane)": the link's capacity is that
 * times lanes). */
static int column_line(const char *cols, int lanes, char *buf, size_t size, char **name, int *bad, int *nbad)
{
    char key[64], q[64];
    snprintf(buf, size, "%s", cols);
    int n = column_names(buf, name);
    *nbad = 0;
    for (int k = 0; k < NET_COLUMNS && n >= NET_COLUMNS && n <= NET_MAX_COLUMNS; k++) {
        const char *paren = strchr(name[k], '(');
        column_key(name[k], key, sizeof key);
        column_key(paren ? paren + 1 : "", q, sizeof q);
        if (!column_is(key, net_column_names[k]) || (lanes && strstr(q, "lane"))) bad[(*nbad)++] = k;
    }
    return n;
}

/* A 10-column file read by position whose column-name line says otherwise
 * (one public file has "critical speed (km/h)" and "lanes" where TNTP has toll
 * and link_type): said in net->column_note, not refused, since only the
 * position counts. A comment that matches fewer than half the names is not a
 * column line (prose), and says nothing. */
static void column_note(ds_network *net, const char *cols, long cline)
{
    char buf[1024], *name[NET_MAX_COLUMNS];
    int bad[NET_COLUMNS], nbad, n = column_line(cols, 1, buf, sizeof buf, name, bad, &nbad);
    if (n < NET_COLUMNS || n > NET_MAX_COLUMNS || nbad == 0 || 2 * nbad > NET_COLUMNS) return;
    size_t len = 0, cap = sizeof net->column_note;
    for (int i = 0; i < nbad; i++) {
        int k = bad[i], w = snprintf(net->column_note + len, cap - len, "%scolumn %d '%.40s' where TNTP has %s",
                                     i ? ", " : "", k + 1, name[k], net_std_name[k]);
        if (w < 0 || (size_t)w >= cap - len) {
            snprintf(net->column_note + cap - 4, 4, "...");
            break;
        }
        len += (size_t)w;
    }
    net->columns_line = cline;
}

/* A row of nt > NET_COLUMNS columns: how many columns rows may have, from the
 * column-name line `cols` (at line cline; NULL if none), or -1 with err set.
 * The names of the extra columns go to net. */
static int allowed_columns(text *t, ds_network *net, const char *cols, long cline, int nt, ds_error *err)
{
    char buf[1024], *name[NET_MAX_COLUMNS];
    int n = 0, bad[NET_COLUMNS], nbad = 0;
    if (cols) n = column_line(cols, 0, buf, sizeof buf, name, bad, &nbad);
    if (n <= NET_COLUMNS || n > NET_MAX_COLUMNS || nt > n)
        return ds_error_set(err, t->name, t->line,
                            "too many columns: %d, expected %d (" NET_COLUMN_LIST
                            "); extra columns are read past only where a '~' column-name line before the first row "
                            "names them after these ten%s",
                            nt, n > NET_COLUMNS && n <= NET_MAX_COLUMNS ? n : NET_COLUMNS,
                            !cols             ? ""
                            : n > NET_COLUMNS ? " (the line names fewer)"
                                              : " (the line names ten or fewer)");
    if (nbad)
        return ds_error_set(err, t->name, t->line,
                            "too many columns: %d, expected %d (" NET_COLUMN_LIST
                            "); the column line (line %ld) names column %d '%.40s', not %s, so the extra columns "
                            "cannot be told apart",
                            nt, NET_COLUMNS, cline, bad[0] + 1, name[bad[0]], net_std_name[bad[0]]);
    net->n_skipped_columns = n - NET_COLUMNS;
    net->columns_line = cline;
    size_t len = 0, cap = sizeof net->skipped_columns;
    net->skipped_columns[0] = '\0';
    for (int k = NET_COLUMNS; k < n; k++) {
        int w = snprintf(net->skipped_columns + len, cap - len, "%s%s", k > NET_COLUMNS ? ", " : "", name[k]);
        if (w < 0 || (size_t)w >= cap - len) {
            snprintf(net->skipped_columns + cap - 4, 4, "...");
            break;
        }
        len += (size_t)w;
    }
    return n;
}

int ds_network_column_note(const ds_network *net, int i, char *buf, size_t size)
{
    int skipped = net->n_skipped_columns > 0, renamed = net->column_note[0] != '\0';
    if (i == 0 && skipped)
        snprintf(buf, size,
                 "%s:%ld: the column line names %d column%s after the ten of the link format (%s): not used, "
                 "read past",
                 net->net_path, net->columns_line, net->n_skipped_columns, net->n_skipped_columns > 1 ? "s" : "",
                 net->skipped_columns);
    else if (i == skipped && renamed)
        snprintf(buf, size, "%s:%ld: the column line names %s: read by position as the TNTP columns", net->net_path,
                 net->columns_line, net->column_note);
    else
        return 0;
    return 1;
}

/* The header and the link rows; node ids stay as the file writes them until
 * map_nodes has seen every row and the trips file's zones. */
static int parse_net(text *t, ds_network *net, meta *m, ds_error *err)
{
    long n_nodes, n_links, cap, rows = 0, L = 0;
    char *s;

    if (read_metadata(t, m, err)) return -1;
    if (meta_require(t, m, MK_NODES, err) || meta_require(t, m, MK_LINKS, err)) return -1;
    n_nodes = m->ival[MK_NODES];
    n_links = m->ival[MK_LINKS];
    if (n_links > INT_MAX / 2)
        return ds_error_set(err, t->name, m->line[MK_LINKS], "<NUMBER OF LINKS> %ld is too large", n_links);
    if (m->line[MK_ZONES] && m->ival[MK_ZONES] > n_nodes)
        return ds_error_set(err, t->name, m->line[MK_ZONES], "<NUMBER OF ZONES> %ld exceeds <NUMBER OF NODES> %ld",
                            m->ival[MK_ZONES], n_nodes);
    net->declared_nodes = n_nodes;
    net->declared_zones = m->line[MK_ZONES] ? m->ival[MK_ZONES] : 0;
    net->toll_factor = m->line[MK_TOLL] ? m->dval[MK_TOLL] : 0.0;
    net->distance_factor = m->line[MK_DIST] ? m->dval[MK_DIST] : 0.0;

    /* Every row takes a line, so the line count bounds the allocation even
     * when the header claims more links than the file holds. */
    cap = n_links < t->n_lines ? n_links : t->n_lines;
    net->tail = xcalloc((size_t)cap, sizeof(int));
    net->head = xcalloc((size_t)cap, sizeof(int));
    net->capacity = xcalloc((size_t)cap, sizeof(double));
    net->length = xcalloc((size_t)cap, sizeof(double));
    net->t0 = xcalloc((size_t)cap, sizeof(double));
    net->bpr_b = xcalloc((size_t)cap, sizeof(double));
    net->bpr_power = xcalloc((size_t)cap, sizeof(double));
    net->speed = xcalloc((size_t)cap, sizeof(double));
    net->toll = xcalloc((size_t)cap, sizeof(double));
    net->link_type = xcalloc((size_t)cap, sizeof(int));
    net->src_line = xcalloc((size_t)cap, sizeof(long));
    if (!net->tail || !net->head || !net->capacity || !net->length || !net->t0 || !net->bpr_b || !net->bpr_power ||
        !net->speed || !net->toll || !net->link_type || !net->src_line)
        return ds_error_set(err, t->name, 0, "out of memory for %ld links", n_links);

    char *cols = NULL; /* the column-name line: the last comment before the first row */
    long cline = 0;
    int max_cols = NET_COLUMNS;
    while ((s = text_next(t))) {
        char *tok[NET_COLUMNS + 1];
        int nt, rc;
        char *comment = t->comment;
        if (cut_semicolon(t, s, err)) return -1;
        nt = split_ws(s, tok, NET_COLUMNS + 1);
        if (nt == 0) {
            if (comment && rows == 0 && *trim(comment)) cols = comment, cline = t->line;
            continue;
        }
        if (rows == n_links)
            return ds_error_set(err, t->name, t->line, "more link rows than <NUMBER OF LINKS> %ld", n_links);
        if (nt < NET_COLUMNS)
            return ds_error_set(err, t->name, t->line, "too few columns: %d, expected %d (" NET_COLUMN_LIST ")", nt,
                                NET_COLUMNS);
        if (nt > max_cols && max_cols > NET_COLUMNS)
            return ds_error_set(err, t->name, t->line,
                                "too many columns: %d, expected at most %d (line %ld names them)", nt, max_cols, cline);
        if (nt > max_cols && (max_cols = allowed_columns(t, net, cols, cline, nt, err)) < 0) return -1;
        if (rows == 0 && cols && max_cols == NET_COLUMNS) column_note(net, cols, cline);
        rc = net_row(t, net, tok, n_nodes, L, err);
        if (rc < 0) return -1;
        rows++;
        if (rc == 0) L++;
    }
    if (rows < n_links)
        return ds_error_set(err, t->name, t->line, "found %ld link rows, <NUMBER OF LINKS> says %ld (truncated file?)",
                            rows, n_links);
    net->n_links = (int)L;
    return 0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Sorts v[0..n) and drops repeats; returns the new count. Ids of real files
 * span little more than their count (a trips file names each zone once per
 * origin block: Berlin-Center 0.74 million ids of 862 zones), so a bitmap
 * over min..max does it in one pass where it is at most n bytes; qsort's
 * comparisons were a tenth of the time to read Berlin-Center. */
static size_t sort_unique(int *v, size_t n)
{
    size_t i, k = 0;
    if (n > 1) {
        int lo = v[0], hi = v[0];
        for (i = 1; i < n; i++) lo = v[i] < lo ? v[i] : lo, hi = v[i] > hi ? v[i] : hi;
        size_t span = (size_t)((long long)hi - lo) + 1;
        unsigned char *bit = span / 8 <= n ? calloc(span / 8 + 1, 1) : NULL;
        if (bit) {
            for (i = 0; i < n; i++) {
                size_t o = (size_t)((long long)v[i] - lo);
                bit[o >> 3] |= (unsigned char)(1u << (o & 7));
            }
            for (size_t o = 0; o < span; o++)
                if (bit[o >> 3] >> (o & 7) & 1) v[k++] = (int)((long long)lo + (long long)o);
            free(bit);
            return k;
        }
        qsort(v, n, sizeof *v, cmp_int);
    }
    for (i = 0; i < n; i++)
        if (k == 0 || v[i] != v[k - 1]) v[k++] = v[i];
    return k;
}

static int find_sorted(const int *v, size_t n, int x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (lo < n && v[lo] == x) ? (int)lo : -1;
}

/* Zone ids a trips file names (as origins or destinations), sorted, distinct,
 * with its <NUMBER OF ZONES> (0 if absent). Malformed lines are skipped here:
 * the full parse reports them with their line. */
typedef struct zone_scan {
    int *id;
    size_t n, cap;
    long declared, max;
} zone_scan;

static int zone_scan_add(zone_scan *z, const char *tok)
{
    long v;
    if (parse_long(tok, &v) || v < 1 || v > INT_MAX) return 0;
    if (z->n == z->cap) {
        size_t nc = z->cap ? 2 * z->cap : 256;
        int *p = realloc(z->id, nc * sizeof *p);
        if (!p) return -1;
        z->id = p;
        z->cap = nc;
    }
    z->id[z->n++] = (int)v;
    if (v > z->max) z->max = v;
    return 0;
}

static int is_origin_word(const char *s);

static int scan_zones(const char *data, size_t len, const char *name, zone_scan *z, ds_error *err)
{
    text t;
    meta m;
    char *s;
    memset(z, 0, sizeof *z);
    if (text_open(&t, data, len, name, err)) return -1;
    if (read_metadata(&t, &m, err)) {
        text_close(&t);
        return -1;
    }
    z->declared = m.line[MK_ZONES] ? m.ival[MK_ZONES] : 0;
    while ((s = text_next(&t))) {
        char *seg, *next;
        s = trim(s);
        if (is_origin_word(s)) {
            char *num = s + 6, *rest;
            while (is_ws((unsigned char)*num)) num++;
            if (*num == ':') /* (is_origin_word) */
                for (num++; is_ws((unsigned char)*num);) num++;
            for (rest = num; *rest && !is_ws((unsigned char)*rest); rest++) {}
            if (*rest) *rest++ = '\0';
            if (zone_scan_add(z, num)) goto oom;
            s = rest;
        }
        for (seg = s; seg; seg = next) {
            char *colon;
            next = strchr(seg, ';');
            if (next) *next++ = '\0';
            colon = strchr(seg, ':');
            if (!colon) continue;
            *colon = '\0';
            if (zone_scan_add(z, trim(seg))) goto oom;
        }
    }
    text_close(&t);
    z->n = sort_unique(z->id, z->n);
    return 0;
oom:
    text_close(&t);
    return ds_error_set(err, name, 0, "out of memory");
}

/* Declared sizes are believed only when the rows bear them out. */
static int check_declared_nodes(text *t, const meta *m, size_t n_ids, int max_id, ds_error *err)
{
    long n = m->ival[MK_NODES];
    if ((size_t)n > 2 * n_ids + 1000)
        return ds_error_set(err, t->name, m->line[MK_NODES],
                            "<NUMBER OF NODES> %ld, but the link rows use only %zu distinct node ids (largest %d): "
                            "refusing to size the network by the header",
                            n, n_ids, max_id);
    return 0;
}

/* Dense files (ids within 1..<NUMBER OF NODES>) keep node i = id i + 1 and
 * the header's zones. A file whose ids run past <NUMBER OF NODES> numbers its
 * nodes sparsely: the ids in the rows become nodes 0..n-1, the zones (the
 * trips file's origins and destinations) first, in ascending id order. */
static int map_nodes(text *t, ds_network *net, const meta *m, const zone_scan *z, ds_error *err)
{
    size_t L = (size_t)net->n_links, n_ids, i, k;
    int *ids = xcalloc(2 * L + (size_t)net->n_loops, sizeof(int)), *slot = NULL, max_id;
    long n_decl = m->ival[MK_NODES], first_thru;
    int rc = -1;

    if (!ids) return ds_error_set(err, t->name, 0, "out of memory");
    memcpy(ids, net->tail, L * sizeof(int));
    memcpy(ids + L, net->head, L * sizeof(int));
    for (i = 0; i < (size_t)net->n_loops; i++) ids[2 * L + i] = net->loops[i].node_id;
    n_ids = sort_unique(ids, 2 * L + (size_t)net->n_loops);
    max_id = n_ids ? ids[n_ids - 1] : 0;

    if (max_id <= n_decl) {
        long n_zones;
        if (check_declared_nodes(t, m, n_ids, max_id, err)) goto out;
        net->node_id = xcalloc((size_t)n_decl, sizeof(int));
        net->node_by_id = xcalloc((size_t)n_decl, sizeof(int));
        if (!net->node_id || !net->node_by_id) goto oom;
        net->n_nodes = (int)n_decl;
        /* Nodes below FIRST THRU NODE are centroids, so it can lie at most one
         * past the last zone; absent means every node may be passed through. */
        first_thru = m->line[MK_FIRST_THRU] ? m->ival[MK_FIRST_THRU] : 1;
        if (m->line[MK_ZONES]) {
            n_zones = m->ival[MK_ZONES];
        } else {
            /* No <NUMBER OF ZONES> in the net file: the trips file's zones, and
             * at least the nodes below FIRST THRU NODE (centroids are zones) */
            n_zones = z->declared ? z->declared : z->max;
            if (first_thru - 1 > n_zones && first_thru - 1 <= n_decl) n_zones = first_thru - 1;
            net->zones_inferred = 1;
            if (n_zones > n_decl) {
                ds_error_set(
                    err, t->name, m->end_line,
                    "no <NUMBER OF ZONES> here, and the trips file's zones (1..%ld) exceed <NUMBER OF NODES> %ld",
                    n_zones, n_decl);
                goto out;
            }
        }
        if (first_thru > n_zones + 1) {
            ds_error_set(err, t->name, m->line[MK_FIRST_THRU],
                         "<FIRST THRU NODE> %ld out of range 1..%ld (<NUMBER OF ZONES> + 1)", first_thru, n_zones + 1);
            goto out;
        }
        net->n_zones = (int)n_zones;
        net->first_thru = (int)first_thru;
        for (i = 0; i < (size_t)n_decl; i++) net->node_id[i] = (int)i + 1, net->node_by_id[i] = (int)i;
        for (i = 0; i < L; i++) net->tail[i]--, net->head[i]--;
        rc = 0;
        goto out;
    }
    if (n_ids > (size_t)n_decl) {
        /* More distinct ids than declared nodes: name the first row past the range. */
        for (i = 0; i < L && net->tail[i] <= n_decl && net->head[i] <= n_decl; i++) {}
        if (i < L)
            ds_error_set(err, t->name, net->src_line[i],
                         "%s node %d out of range 1..%ld (<NUMBER OF NODES>); the links use %zu distinct node ids, "
                         "more than declared, so they cannot be mapped",
                         net->tail[i] > n_decl ? "init" : "term", net->tail[i] > n_decl ? net->tail[i] : net->head[i],
                         n_decl, n_ids);
        else
            ds_error_set(err, t->name, m->line[MK_NODES],
                         "the links use %zu distinct node ids, <NUMBER OF NODES> says %ld", n_ids, n_decl);
        goto out;
    }
    /* Sparse ids: zones first. slot[k] = node index of ids[k]. */
    net->ids_mapped = 1;
    net->zones_inferred = 1;
    net->n_nodes = (int)n_ids;
    slot = xcalloc(n_ids, sizeof(int));
    net->node_id = xcalloc(n_ids, sizeof(int));
    net->node_by_id = xcalloc(n_ids, sizeof(int));
    if (!slot || !net->node_id || !net->node_by_id) goto oom;
    for (k = 0; k < n_ids; k++) slot[k] = -1;
    net->n_zones = 0;
    first_thru = 1;
    /* The zones: the trips file's zones that are nodes (one that is not, the
     * trips parse names with its line) and every node below FIRST THRU NODE,
     * named by the trips file or not, as a dense file makes every id below it
     * a centroid (only the trips file's were: a node below it without demand
     * was passed through). Both lists ascend, so the centroids come first. */
    long ftn = m->line[MK_FIRST_THRU] ? m->ival[MK_FIRST_THRU] : 1;
    for (k = 0, i = 0; k < n_ids; k++) {
        while (i < z->n && z->id[i] < ids[k]) i++;
        if (!(ids[k] < ftn || (i < z->n && z->id[i] == ids[k]))) continue;
        slot[k] = net->n_zones;
        net->node_id[net->n_zones++] = ids[k];
        if (ids[k] < ftn) first_thru = net->n_zones + 1;
    }
    /* as a dense file's FIRST THRU NODE past <NUMBER OF ZONES> + 1 is refused:
     * more nodes below it than the zones declared (they used to be passed through) */
    if (m->line[MK_ZONES] && first_thru - 1 > m->ival[MK_ZONES]) {
        ds_error_set(err, t->name, m->line[MK_FIRST_THRU],
                     "<FIRST THRU NODE> %ld: %ld nodes have lower ids (centroids), more than <NUMBER OF ZONES> %ld",
                     ftn, first_thru - 1, m->ival[MK_ZONES]);
        goto out;
    }
    net->first_thru = (int)first_thru;
    for (k = 0, i = (size_t)net->n_zones; k < n_ids; k++)
        if (slot[k] < 0) {
            slot[k] = (int)i;
            net->node_id[i++] = ids[k];
        }
    for (k = 0; k < n_ids; k++) net->node_by_id[k] = slot[k];
    for (i = 0; i < L; i++) {
        net->tail[i] = slot[find_sorted(ids, n_ids, net->tail[i])];
        net->head[i] = slot[find_sorted(ids, n_ids, net->head[i])];
    }
    rc = 0;
    goto out;
oom:
    ds_error_set(err, t->name, 0, "out of memory");
out:
    free(ids);
    free(slot);
    return rc;
}

/* ------------------------------------------------------------ trips file */

typedef struct od_entry {
    int orig, dest;
    double q;
} od_entry;

/* od[0..n) by (dest, orig), both zone indices below nz: a stable counting
 * sort by orig, then by dest. The pairs are unique (a repeated destination
 * or origin block is an error), so this is the one sorted order, as qsort
 * gave it, in linear time (Austin-SDB: 1.2 million pairs, a fifth of the
 * time to read its files went to qsort). Returns 0, or -1 out of memory. */
static int od_sort(od_entry *od, size_t n, size_t nz)
{
    od_entry *tmp = malloc(sizeof *tmp * (n > 0 ? n : 1));
    size_t *at = malloc(sizeof *at * (nz + 1));
    if (!tmp || !at) {
        free(tmp), free(at);
        return -1;
    }
    for (int pass = 0; pass < 2; pass++) {
        od_entry *src = pass ? tmp : od, *dst = pass ? od : tmp;
        memset(at, 0, sizeof *at * (nz + 1));
        for (size_t i = 0; i < n; i++) at[(size_t)(pass ? src[i].dest : src[i].orig) + 1]++;
        for (size_t k = 1; k <= nz; k++) at[k] += at[k - 1];
        for (size_t i = 0; i < n; i++) dst[at[pass ? src[i].dest : src[i].orig]++] = src[i];
    }
    free(tmp), free(at);
    return 0;
}

typedef struct trips_state {
    long *origin_line; /* [n_zones]: line of the "Origin k" block, 0 if none yet */
    long *dest_line;   /* [n_zones]: line of destination d in the current block */
    int *dest_block;   /* [n_zones]: block that dest_line belongs to */
    int block, origin; /* origin: its zone index, -1 before the first block */
    long origin_id;    /* the origin's id as the file writes it */
    od_entry *od;
    size_t n_od, cap_od;
    double sum_all; /* every entry, diagonal included: what TOTAL OD FLOW counts */
    double intra;   /* the diagonal's positive entries, and how many */
    long n_intra;
} trips_state;

/* Zone index of the id a trips file writes, or -1 with err filled. */
static int zone_of(text *t, const ds_network *net, const char *what, long id, ds_error *err)
{
    int i = ds_node_index(net, id);
    if (i >= 0 && i < net->n_zones) return i;
    if (net->ids_mapped)
        ds_error_set(err, t->name, t->line, "%s %ld is not a node of the network", what, id);
    else
        ds_error_set(err, t->name, t->line, "%s %ld is not a zone (zones are 1..%d)", what, id, net->n_zones);
    return -1;
}

static int trips_entry(text *t, const ds_network *net, trips_state *st, char *seg, ds_error *err)
{
    char *colon, *ds, *qs;
    long d;
    int di;
    double q;
    int rc;

    seg = trim(seg);
    if (!*seg) return 0;
    colon = strchr(seg, ':');
    if (!colon) {
        char sn[64];
        return ds_error_set(err, t->name, t->line, "expected 'destination : demand', got '%s'",
                            snippet(seg, sn, sizeof sn));
    }
    *colon = '\0';
    ds = trim(seg);
    qs = trim(colon + 1);
    if (parse_long(ds, &d))
        return ds_error_set(err, t->name, t->line, "destination: expected a zone number, got '%.40s'", ds);
    if (!*qs) return ds_error_set(err, t->name, t->line, "missing demand after '%ld :'", d);
    if (st->origin < 0) return ds_error_set(err, t->name, t->line, "demand entry before the first 'Origin' line");
    if ((di = zone_of(t, net, "destination", d, err)) < 0) return -1;
    rc = parse_double(qs, &q);
    if (rc == -1)
        return ds_error_set(err, t->name, t->line, "demand from %ld to %ld: expected a number, got '%.40s'",
                            st->origin_id, d, qs);
    if (rc == -2)
        return ds_error_set(err, t->name, t->line, "demand from %ld to %ld must be finite, got '%.40s'", st->origin_id,
                            d, qs);
    if (q < 0)
        return ds_error_set(err, t->name, t->line, "demand from %ld to %ld must be non-negative, got %s", st->origin_id,
                            d, qs);
    if (st->dest_block[di] == st->block)
        return ds_error_set(err, t->name, t->line, "duplicate destination %ld for origin %ld (first at line %ld)", d,
                            st->origin_id, st->dest_line[di]);
    st->dest_block[di] = st->block;
    st->dest_line[di] = t->line;
    st->sum_all += q;
    if (!isfinite(st->sum_all))
        return ds_error_set(err, t->name, t->line,
                            "the demand entries sum past the largest double here (demand from %ld to %ld, %s): demand "
                            "too large",
                            st->origin_id, d, qs);
    /* Zero entries carry nothing, and demand from a zone to itself never
     * enters the network. */
    if (q > 0 && di == st->origin) st->intra += q, st->n_intra++;
    if (q <= 0 || di == st->origin) return 0;
    if (st->n_od == st->cap_od) {
        size_t nc = st->cap_od ? 2 * st->cap_od : 1024;
        od_entry *p = realloc(st->od, nc * sizeof *p);
        if (!p) return ds_error_set(err, t->name, t->line, "out of memory for the OD list");
        st->od = p;
        st->cap_od = nc;
    }
    st->od[st->n_od].orig = st->origin;
    st->od[st->n_od].dest = di;
    st->od[st->n_od].q = q;
    st->n_od++;
    return 0;
}

static int is_origin_word(const char *s)
{
    static const char w[] = "origin";
    int i;
    for (i = 0; w[i]; i++)
        if ((s[i] | 0x20) != w[i]) return 0;
    /* "Origin: 1" as some exports write it (it read as a demand entry whose
     * destination was 'Origin') */
    return s[i] == '\0' || s[i] == ':' || is_ws((unsigned char)s[i]);
}

static int trips_lines(text *t, const ds_network *net, trips_state *st, ds_error *err)
{
    char *s;
    while ((s = text_next(t))) {
        s = trim(s);
        if (!*s) continue;
        if (is_origin_word(s)) {
            char *num = s + 6, *rest;
            long o;
            int oi;
            while (is_ws((unsigned char)*num)) num++;
            if (*num == ':') /* (is_origin_word) */
                for (num++; is_ws((unsigned char)*num);) num++;
            rest = num;
            while (*rest && !is_ws((unsigned char)*rest)) rest++;
            if (*rest) *rest++ = '\0';
            if (!*num) return ds_error_set(err, t->name, t->line, "'Origin' without a zone number");
            if (parse_long(num, &o))
                return ds_error_set(err, t->name, t->line, "'Origin': expected a zone number, got '%.40s'", num);
            if ((oi = zone_of(t, net, "origin", o, err)) < 0) return -1;
            /* A second block for the same origin is refused rather than summed:
             * it almost always means two trip tables were concatenated, and
             * adding them would silently double that origin's demand. */
            if (st->origin_line[oi])
                return ds_error_set(err, t->name, t->line, "duplicate 'Origin %ld' block (first at line %ld)", o,
                                    st->origin_line[oi]);
            st->origin_line[oi] = t->line;
            st->origin = oi;
            st->origin_id = o;
            st->block++;
            s = rest;
        }
        for (;;) {
            char *semi = strchr(s, ';');
            if (semi) *semi = '\0';
            if (trips_entry(t, net, st, s, err)) return -1;
            if (!semi) break;
            s = semi + 1;
        }
    }
    return 0;
}

static int parse_trips(text *t, ds_network *net, const char *net_name, ds_error *err)
{
    meta m;
    trips_state st;
    int rc = -1;
    size_t i, nz;

    if (read_metadata(t, &m, err)) return -1;
    /* Zones taken from this file need no count to match; declared ones do. */
    if (!net->zones_inferred) {
        if (meta_require(t, &m, MK_ZONES, err)) return -1;
        if (m.ival[MK_ZONES] != net->n_zones)
            return ds_error_set(err, t->name, m.line[MK_ZONES], "<NUMBER OF ZONES> %ld does not match %d in %s",
                                m.ival[MK_ZONES], net->n_zones, net_name);
    }
    memset(&st, 0, sizeof st);
    st.origin = -1;
    nz = (size_t)net->n_zones + 1;
    st.origin_line = xcalloc(nz, sizeof(long));
    st.dest_line = xcalloc(nz, sizeof(long));
    st.dest_block = xcalloc(nz, sizeof(int));
    if (!st.origin_line || !st.dest_line || !st.dest_block) {
        ds_error_set(err, t->name, 0, "out of memory");
        goto out;
    }
    if (trips_lines(t, net, &st, err)) goto out;
    if (!isfinite(st.sum_all)) {
        ds_error_set(err, t->name, 0, "the demand entries sum past the largest double (%g): demand too large",
                     st.sum_all);
        goto out;
    }
    if (m.line[MK_TOTAL_OD]) {
        double tot = m.dval[MK_TOTAL_OD];
        /* Every shared TNTP file matches its total to 1e-14, so a larger gap
         * means a lost or damaged part of the table, unless the total is
         * printed with fewer digits than that (printed_half_unit, at most
         * half a unit in the sixth significant digit). */
        double big = fmax(fabs(tot), fabs(st.sum_all)), slack = TOTAL_OD_RTOL * big;
        double printed = fmin(m.half_unit[MK_TOTAL_OD], TOTAL_OD_PRINTED * big) * (1 + 1e-12);
        if (slack < printed) slack = printed;
        if (fabs(st.sum_all - tot) > slack) {
            ds_error_set(err, t->name, m.line[MK_TOTAL_OD],
                         "<TOTAL OD FLOW> %.10g does not match the sum of the entries, %.10g (truncated file?)", tot,
                         st.sum_all);
            goto out;
        }
    }
    if (st.n_od > (size_t)INT_MAX) {
        ds_error_set(err, t->name, 0, "too many OD pairs");
        goto out;
    }
    if (st.n_od > 1 && od_sort(st.od, st.n_od, nz) != 0) {
        ds_error_set(err, t->name, 0, "out of memory sorting the OD pairs");
        goto out;
    }
    net->n_od = (int)st.n_od;
    net->intrazonal_demand = st.intra;
    net->n_intrazonal = st.n_intra > INT_MAX ? INT_MAX : (int)st.n_intra;
    net->od_orig = xcalloc(st.n_od, sizeof(int));
    net->od_dest = xcalloc(st.n_od, sizeof(int));
    net->od_demand = xcalloc(st.n_od, sizeof(double));
    net->dest_node = xcalloc(st.n_od, sizeof(int));
    net->dest_od_start = xcalloc(st.n_od + 1, sizeof(int));
    if (!net->od_orig || !net->od_dest || !net->od_demand || !net->dest_node || !net->dest_od_start) {
        ds_error_set(err, t->name, 0, "out of memory");
        goto out;
    }
    net->total_demand = 0;
    net->n_dest = 0;
    for (i = 0; i < st.n_od; i++) {
        net->od_orig[i] = st.od[i].orig;
        net->od_dest[i] = st.od[i].dest;
        net->od_demand[i] = st.od[i].q;
        net->total_demand += st.od[i].q;
        if (i == 0 || st.od[i].dest != st.od[i - 1].dest) {
            net->dest_node[net->n_dest] = st.od[i].dest;
            net->dest_od_start[net->n_dest] = (int)i;
            net->n_dest++;
        }
    }
    net->dest_od_start[net->n_dest] = (int)st.n_od;
    rc = 0;
out:
    free(st.origin_line);
    free(st.dest_line);
    free(st.dest_block);
    free(st.od);
    return rc;
}

/* ------------------------------------------------------------ public parse */

static ds_network *network_new(void) { return calloc(1, sizeof(ds_network)); }

ds_network *ds_network_parse(const char *net_text, size_t net_len, const char *net_name, const char *trips_text,
                             size_t trips_len, const char *trips_name, ds_error *err)
{
    ds_network *net = network_new();
    text t;
    meta m;
    zone_scan z;
    int rc;

    if (!net_name) net_name = "<net>";
    if (!trips_name) trips_name = "<trips>";
    if (!net) {
        ds_error_set(err, net_name, 0, "out of memory");
        return NULL;
    }
    base_name(net_name, net->name, sizeof net->name);
    snprintf(net->net_path, sizeof net->net_path, "%s", net_name);
    if (text_open(&t, net_text, net_len, net_name, err)) goto fail;
    if (parse_net(&t, net, &m, err)) {
        text_close(&t);
        goto fail;
    }
    /* The trips file's zones are needed to number the nodes of a file with
     * sparse ids or without <NUMBER OF ZONES>. */
    memset(&z, 0, sizeof z);
    if (trips_text && scan_zones(trips_text, trips_len, trips_name, &z, err)) {
        text_close(&t);
        goto fail;
    }
    net->trips_declared_zones = z.declared;
    rc = map_nodes(&t, net, &m, &z, err);
    free(z.id);
    if (rc == 0 && build_csr(net)) rc = ds_error_set(err, net_name, 0, "out of memory building adjacency");
    text_close(&t);
    if (rc) goto fail;
    if (trips_text) {
        if (text_open(&t, trips_text, trips_len, trips_name, err)) goto fail;
        if (parse_trips(&t, net, net_name, err)) {
            text_close(&t);
            goto fail;
        }
        text_close(&t);
    }
    return net;
fail:
    ds_network_free(net);
    return NULL;
}

/* ------------------------------------------------------------ files */

/* Reads a whole file. *missing (may be NULL) is set when it does not exist, so
 * that optional sibling files can be skipped without hiding other errors. */
static char *read_file(const char *path, const char *what, size_t *len, int *missing, ds_error *err)
{
    char *buf = NULL;
    size_t cap = 0, n = 0;
    FILE *f = ds_infile_open(path, what, missing, err);
    if (!f) return NULL;
    for (;;) {
        size_t got;
        if (n == cap) {
            size_t nc = cap ? 2 * cap : 65536;
            if (cap >= MAX_FILE_BYTES) {
                ds_error_set(err, path, 0, "%s is larger than %zu MiB; not a TNTP file?", what, MAX_FILE_BYTES >> 20);
                goto fail;
            }
            char *p = realloc(buf, nc + 1);
            if (!p) {
                ds_error_set(err, path, 0, "out of memory reading %s", what);
                goto fail;
            }
            buf = p;
            cap = nc;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        ds_error_set(err, path, 0, "cannot read %s: %s", what, strerror(errno));
        goto fail;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
fail:
    free(buf);
    fclose(f);
    return NULL;
}

/* X_net.tntp -> X_<kind>.tntp, X.net.tntp -> X.<kind>.tntp; 0 if the name
 * follows neither convention. */
int ds_tntp_sibling(const char *net_path, const char *kind, char *out, size_t n)
{
    size_t len = strlen(net_path);
    const size_t sl = strlen("_net.tntp");
    if (len < sl) return 0;
    if (strcmp(net_path + len - sl, "_net.tntp") && strcmp(net_path + len - sl, ".net.tntp")) return 0;
    if ((size_t)snprintf(out, n, "%.*s%c%s.tntp", (int)(len - sl), net_path, net_path[len - sl], kind) >= n) return 0;
    return 1;
}

static int parse_nodes(text *t, ds_network *net, ds_error *err)
{
    long *seen = xcalloc((size_t)net->n_nodes, sizeof(long));
    double *x = xcalloc((size_t)net->n_nodes, sizeof(double));
    double *y = xcalloc((size_t)net->n_nodes, sizeof(double));
    int i, header_done = 0;
    char *s;

    if (!seen || !x || !y) {
        ds_error_set(err, t->name, 0, "out of memory");
        goto fail;
    }
    while ((s = text_next(t))) {
        char *tok[4];
        int nt, id;
        long dummy;
        if (cut_semicolon(t, s, err)) goto fail;
        nt = split_ws(s, tok, 4);
        if (nt == 0) continue;
        /* The one header line ("Node X Y") is the only row allowed to start
         * with something other than a number. */
        if (!header_done && parse_long(tok[0], &dummy)) {
            header_done = 1;
            continue;
        }
        header_done = 1;
        if (nt < 3) {
            ds_error_set(err, t->name, t->line, "too few columns: %d, expected 3 (node X Y)", nt);
            goto fail;
        }
        /* A file with sparse ids may list nodes that no link uses: not nodes here. */
        if (net->ids_mapped && !parse_long(tok[0], &dummy) && ds_node_index(net, dummy) < 0) continue;
        if (field_node(t, "node", tok[0], net, &id, err)) goto fail;
        if (seen[id]) {
            ds_error_set(err, t->name, t->line, "duplicate node %d (first at line %ld)", ds_node_id(net, id), seen[id]);
            goto fail;
        }
        if (field_double(t, "X", tok[1], &x[id], err) || field_double(t, "Y", tok[2], &y[id], err)) goto fail;
        seen[id] = t->line;
    }
    for (i = 0; i < net->n_nodes; i++)
        if (!seen[i]) {
            ds_error_set(err, t->name, t->line, "no coordinates for node %d (the file ends here)", ds_node_id(net, i));
            goto fail;
        }
    free(seen);
    free(net->node_x);
    free(net->node_y);
    net->node_x = x;
    net->node_y = y;
    return 0;
fail:
    free(seen);
    free(x);
    free(y);
    return -1;
}

/* Links ordered by (tail, head, id): flow rows find their link by binary
 * search, and parallel links take the rows for their pair in file order. */
typedef struct link_key {
    int tail, head, id;
} link_key;

static int link_key_cmp(const void *a, const void *b)
{
    const link_key *x = a, *y = b;
    if (x->tail != y->tail) return x->tail < y->tail ? -1 : 1;
    if (x->head != y->head) return x->head < y->head ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

static int parse_flows(text *t, ds_network *net, ds_error *err)
{
    int L = net->n_links, e;
    link_key *order = xcalloc((size_t)L, sizeof(link_key));
    long *used = xcalloc((size_t)L, sizeof(long));
    double *flow = xcalloc((size_t)L, sizeof(double));
    double *cost = xcalloc((size_t)L, sizeof(double));
    unsigned char *loop_seen = xcalloc((size_t)net->n_loops / 8 + 1, 1); /* bit q: loop q's row was read */
    int header_done = 0;
    char *s;

    if (!order || !used || !flow || !cost || !loop_seen) {
        ds_error_set(err, t->name, 0, "out of memory");
        goto fail;
    }
    for (e = 0; e < L; e++) {
        order[e].tail = net->tail[e];
        order[e].head = net->head[e];
        order[e].id = e;
    }
    qsort(order, (size_t)L, sizeof *order, link_key_cmp);
    while ((s = text_next(t))) {
        char *tok[5];
        int nt, u, v, lo, hi, k;
        long dummy;
        double vol, c;
        if (cut_semicolon(t, s, err)) goto fail;
        nt = split_ws(s, tok, 5);
        if (nt == 0) continue;
        if (!header_done && parse_long(tok[0], &dummy)) {
            header_done = 1; /* "From To Volume Cost" */
            continue;
        }
        header_done = 1;
        if (nt < 4) {
            ds_error_set(err, t->name, t->line, "too few columns: %d, expected 4 (From To Volume Cost)", nt);
            goto fail;
        }
        if (nt > 4) {
            ds_error_set(err, t->name, t->line, "too many columns: %d, expected 4 (From To Volume Cost)", nt);
            goto fail;
        }
        if (net->n_loops && !strcmp(tok[0], tok[1])) {
            /* a dropped self-loop's row, one per loop and at its node (the
             * CSV reader's rule); any other u -> u row is no link */
            long id;
            int k2 = -1;
            if (parse_long(tok[0], &id) == 0)
                for (int q = 0; q < net->n_loops && k2 < 0; q++)
                    if (net->loops[q].node_id == id && !(loop_seen[q / 8] & (1u << (q % 8)))) k2 = q;
            if (k2 >= 0) {
                loop_seen[k2 / 8] |= (unsigned char)(1u << (k2 % 8));
                continue;
            }
        }
        if (field_node(t, "From node", tok[0], net, &u, err) || field_node(t, "To node", tok[1], net, &v, err) ||
            field_double(t, "volume", tok[2], &vol, err) || field_double(t, "cost", tok[3], &c, err))
            goto fail;
        if (vol < 0) {
            ds_error_set(err, t->name, t->line, "volume must be non-negative, got %s", tok[2]);
            goto fail;
        }
        lo = 0;
        hi = L;
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            if (order[mid].tail < u || (order[mid].tail == u && order[mid].head < v))
                lo = mid + 1;
            else
                hi = mid;
        }
        for (k = lo; k < L && order[k].tail == u && order[k].head == v && used[order[k].id]; k++) {}
        if (k >= L || order[k].tail != u || order[k].head != v) {
            if (k > lo)
                ds_error_set(err, t->name, t->line, "more flow rows for link %d -> %d than the network has links",
                             ds_node_id(net, u), ds_node_id(net, v));
            else
                ds_error_set(err, t->name, t->line, "no link %d -> %d in the network", ds_node_id(net, u),
                             ds_node_id(net, v));
            goto fail;
        }
        used[order[k].id] = t->line;
        flow[order[k].id] = vol;
        cost[order[k].id] = c;
    }
    for (e = 0; e < L; e++)
        if (!used[e]) {
            ds_error_set(err, t->name, t->line, "no flow row for link %d -> %d (network line %ld)",
                         ds_node_id(net, net->tail[e]), ds_node_id(net, net->head[e]),
                         net->src_line ? net->src_line[e] : 0L);
            goto fail;
        }
    free(order);
    free(used);
    free(loop_seen);
    free(net->ref_flow);
    free(net->ref_cost);
    net->ref_flow = flow;
    net->ref_cost = cost;
    return 0;
fail:
    free(order);
    free(used);
    free(loop_seen);
    free(flow);
    free(cost);
    return -1;
}

/* Loads an optional file through parse_fn. A sibling that does not exist is
 * skipped (returns 0); any other failure is an error. */
static int load_optional(ds_network *net, const char *path, const char *what, int explicit_path,
                         int (*parse_fn)(text *, ds_network *, ds_error *), ds_error *err)
{
    size_t len;
    int missing, rc;
    text t;
    char *data = read_file(path, what, &len, &missing, err);
    if (!data) return (missing && !explicit_path) ? 0 : -1;
    rc = text_open(&t, data, len, path, err);
    free(data);
    if (rc) return -1;
    rc = parse_fn(&t, net, err);
    text_close(&t);
    return rc;
}

int ds_network_load_flows(ds_network *net, const char *flow_path, ds_error *err)
{
    if (!net || !flow_path) return ds_error_set(err, flow_path, 0, "no network or flow file given");
    return load_optional(net, flow_path, "flow file", 1, parse_flows, err);
}

/* A file in the TransportationNetworks2 format opens with "NODES:" (after an
 * optional BOM and blank lines), which no TNTP header does: the line of it, or
 * 0. */
static long looks_tn2(const char *s, size_t n)
{
    size_t i = 0;
    long line = 1;
    if (n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3)) i = 3;
    for (; i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'); i++) line += s[i] == '\n';
    return n - i >= 6 && !memcmp(s + i, "NODES:", 6) ? line : 0;
}

static int net_file_name(const char *name)
{
    size_t len = strlen(name), sl = strlen("_net.tntp");
    return len > sl && (!strcmp(name + len - sl, "_net.tntp") || !strcmp(name + len - sl, ".net.tntp"));
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The TransportationNetworks collection keeps a network in a directory of its
 * own (X/X_net.tntp, X/X_trips.tntp, ...), and a directory is what a user
 * names first. Its one net file is read; where there are several, which one
 * is meant is not guessed. */
int ds_tntp_net_in_dir(const char *path, char *out, size_t n, ds_error *err)
{
    struct stat st;
    if (!path || stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) return 0;
    DIR *dp = opendir(path);
    if (!dp) return ds_error_set(err, path, 0, "cannot read the directory: %s", strerror(errno));
    char **names = NULL;
    int cnt = 0, cap = 0, rc = -1;
    struct dirent *de;
    while ((de = readdir(dp))) {
        if (!net_file_name(de->d_name)) continue;
        char **g = cnt < cap ? names : realloc(names, sizeof(char *) * (size_t)(cap = cap ? 2 * cap : 8));
        if (!g || !(g[cnt] = strdup(de->d_name))) {
            names = g ? g : names;
            ds_error_set(err, path, 0, "out of memory");
            goto done;
        }
        names = g;
        cnt++;
    }
    if (cnt > 1) qsort(names, (size_t)cnt, sizeof(char *), cmp_str);
    size_t len = strlen(path);
    const char *sep = len > 0 && path[len - 1] == '/' ? "" : "/";
    if (cnt == 0)
        ds_error_set(err, path, 0, "a directory with no network file in it (a name ending in _net.tntp or .net.tntp)");
    else if (cnt > 1)
        ds_error_set(err, path, 0, "a directory with %d network files (%s, %s%s): name the one to read", cnt, names[0],
                     names[1], cnt > 2 ? ", ..." : "");
    else if ((size_t)snprintf(out, n, "%s%s%s", path, sep, names[0]) >= n)
        ds_error_set(err, path, 0, "the path of its network file %s is too long", names[0]);
    else
        rc = 1;
done:
    for (int i = 0; i < cnt; i++) free(names[i]);
    free(names);
    closedir(dp);
    return rc;
}

ds_network *ds_network_load_net_trips(const char *net_path, const char *trips_path, ds_error *err)
{
    char sib[1024], in_dir[4096];
    char *net_text = NULL, *trips_text = NULL;
    size_t net_len = 0, trips_len = 0;
    ds_network *net = NULL;

    if (!net_path || !*net_path) {
        ds_error_set(err, "", 0, "no network file given");
        return NULL;
    }
    int dir = ds_tntp_net_in_dir(net_path, in_dir, sizeof in_dir, err);
    if (dir < 0) return NULL;
    if (dir) net_path = in_dir;
    /* the network file first: a directory or an unreadable file is what to
     * say, not that its name gives no trips file */
    net_text = read_file(net_path, "network file", &net_len, NULL, err);
    if (!net_text) return NULL;
    /* before the trips sibling (X.net.tntp -> X.trips.tntp, which that format
     * does not have): say what the file is, not that a trips file is missing */
    long tn2_line = looks_tn2(net_text, net_len);
    if (tn2_line) {
        ds_error_set(err, net_path, tn2_line,
                     "a TransportationNetworks2 file (NODES:/ZONES:/EDGES: header), not TNTP: convert it with "
                     "tools/tn2_to_tntp.py of dillsue's source tree");
        free(net_text);
        return NULL;
    }
    if (!trips_path) {
        if (!ds_tntp_sibling(net_path, "trips", sib, sizeof sib)) {
            ds_error_set(err, net_path, 0,
                         "cannot find the trips file: the name does not end in _net.tntp or .net.tntp; "
                         "name the trips file explicitly");
            free(net_text);
            return NULL;
        }
        trips_path = sib;
    }
    if (net_text) trips_text = read_file(trips_path, "trips file", &trips_len, NULL, err);
    if (trips_text) net = ds_network_parse(net_text, net_len, net_path, trips_text, trips_len, trips_path, err);
    free(net_text);
    free(trips_text);
    return net;
}

ds_network *ds_network_load(const char *net_path, const char *trips_path, const char *node_path, const char *flow_path,
                            ds_error *err)
{
    char sib[1024], in_dir[4096];
    /* a directory's net file, once, for the reader and for its siblings */
    int dir = net_path ? ds_tntp_net_in_dir(net_path, in_dir, sizeof in_dir, err) : 0;
    if (dir < 0) return NULL;
    if (dir) net_path = in_dir;
    ds_network *net = ds_network_load_net_trips(net_path, trips_path, err);
    if (!net) return NULL;
    if (node_path) {
        if (load_optional(net, node_path, "node file", 1, parse_nodes, err)) goto fail;
    } else if (ds_tntp_sibling(net_path, "node", sib, sizeof sib)) {
        if (load_optional(net, sib, "node file", 0, parse_nodes, err)) goto fail;
    }
    if (flow_path) {
        if (load_optional(net, flow_path, "flow file", 1, parse_flows, err)) goto fail;
    } else if (ds_tntp_sibling(net_path, "flow", sib, sizeof sib)) {
        if (load_optional(net, sib, "flow file", 0, parse_flows, err)) goto fail;
    }
    return net;
fail:
    ds_network_free(net);
    return NULL;
}

extern const char ds_default_net[];
extern const size_t ds_default_net_len;
extern const char ds_default_trips[];
extern const size_t ds_default_trips_len;

int ds_network_check(const ds_network *net, ds_error *err)
{
    if (!net) return ds_error_set(err, NULL, 0, "no network (NULL)");
    for (int e = 0; e < net->n_links; e++) {
        const char *rule;
        int bad = link_rule(net, e, &rule);
        if (bad >= 0)
            return ds_error_set(err, net->net_path, net->src_line ? net->src_line[e] : 0,
                                "link %d (%d -> %d): %s, got %.17g (the network was changed after it was read: it is "
                                "checked by the reader's rules)",
                                e + 1, ds_node_id(net, net->tail[e]), ds_node_id(net, net->head[e]), rule,
                                link_value(net, e, bad));
    }
    for (int c = 0; c < net->n_od; c++)
        if (!(net->od_demand[c] >= 0) || !isfinite(net->od_demand[c]))
            return ds_error_set(err, net->net_path, 0,
                                "demand from %d to %d must be finite and non-negative, got %.17g (the network was "
                                "changed after it was read)",
                                ds_node_id(net, net->od_orig[c]), ds_node_id(net, net->od_dest[c]), net->od_demand[c]);
    return ds_network_check_demand(net, err);
}

int ds_network_check_demand(const ds_network *net, ds_error *err)
{
    if (net->n_dest > 0) return 0;
    return ds_error_set(err, net->net_path, 0,
                        "the network has no demand (no positive entry between two zones in its trips file): "
                        "nothing to assign");
}

ds_network *ds_network_load_default(ds_error *err)
{
    ds_network *net = ds_network_parse(ds_default_net, ds_default_net_len, "ringcity.net.tntp", ds_default_trips,
                                       ds_default_trips_len, "ringcity.trips.tntp", err);
    if (!net) return NULL;
    snprintf(net->name, sizeof net->name, "ringcity");
    snprintf(net->net_path, sizeof net->net_path, "<embedded>");
    return net;
}
