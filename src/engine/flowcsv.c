/* flowcsv.c - flow and history CSV files, read and written with libcsv.
 * Outputs go through a temporary file in the same directory that is fsynced
 * and renamed, so a crash or a full disk never leaves a half-written result
 * in place of a good one. */
#include "ds_csv.h"
#include "infile.h"
#include "c_locale.h"

#include <csv.h>
#include <dirent.h>
#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------ writing */

typedef ds_write_fn body_fn;

static void dir_of(const char *path, char *dir, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, n, ".");
    else if (slash == path)
        snprintf(dir, n, "/");
    else
        snprintf(dir, n, "%.*s", (int)(slash - path), path);
}

static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Temporary files are "<name>.dillsue-tmp-<pid>-XXXXXX" next to the target, so
 * that a later writer of the same file can tell its own stale ones (their
 * process is gone, e.g. killed between write and rename) from live ones. */
#define TMP_TAG ".dillsue-tmp-"

static const char *kind_of(mode_t m)
{
    if (S_ISDIR(m)) return "a directory";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

static size_t remove_stale(const char *path, char *note, size_t note_n)
{
    char dir[PATH_MAX], prefix[PATH_MAX], full[PATH_MAX * 2];
    size_t removed = 0, used = 0, plen;
    struct dirent *de;
    DIR *d;
    dir_of(path, dir, sizeof dir);
    if (snprintf(prefix, sizeof prefix, "%s" TMP_TAG, base_of(path)) >= (int)sizeof prefix) return 0;
    plen = strlen(prefix);
    if (!(d = opendir(dir))) return 0;
    while ((de = readdir(d))) {
        char *end;
        long pid;
        struct stat st;
        if (strncmp(de->d_name, prefix, plen)) continue;
        errno = 0;
        pid = strtol(de->d_name + plen, &end, 10);
        if (end == de->d_name + plen || *end != '-' || errno || pid <= 0) continue;
        if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue; /* alive */
        snprintf(full, sizeof full, "%s/%s", dir, de->d_name);
        if (lstat(full, &st) != 0 || !S_ISREG(st.st_mode) || unlink(full) != 0) continue;
        removed++;
        if (note && used < note_n)
            used += (size_t)snprintf(note + used, note_n - used, "%sremoved %s, a temporary file left by process %ld",
                                     used ? "; " : "", full, pid);
    }
    closedir(d);
    return removed;
}

int ds_output_check(const char *path, char *real, size_t real_n, char *note, size_t note_n, ds_error *err)
{
    struct stat st;
    char buf[PATH_MAX];
    if (note && note_n) note[0] = '\0';
    if (!path || !*path) return ds_error_set(err, "", 0, "no output file name given");
    if (real && real_n) snprintf(real, real_n, "%s", path);
    if (lstat(path, &st) == 0) {
        if (S_ISLNK(st.st_mode)) {
            /* Follow a symlink to the file it names, which stays a link. */
            if (!realpath(path, buf)) {
                if (errno == ENOENT)
                    return ds_error_set(err, path, 0,
                                        "is a symbolic link to a missing file; refusing to write "
                                        "through it (give the target's path)");
                return ds_error_set(err, path, 0, "cannot follow the symbolic link: %s", strerror(errno));
            }
            if (stat(buf, &st) != 0) return ds_error_set(err, path, 0, "cannot stat %s: %s", buf, strerror(errno));
            if (!S_ISREG(st.st_mode))
                return ds_error_set(err, path, 0, "is a symbolic link to %s, %s; only regular files are written", buf,
                                    kind_of(st.st_mode));
            if (real && real_n) snprintf(real, real_n, "%s", buf);
        } else if (!S_ISREG(st.st_mode)) {
            return ds_error_set(err, path, 0, "is %s; only regular files are written", kind_of(st.st_mode));
        }
    } else if (errno != ENOENT) {
        return ds_error_set(err, path, 0, "cannot stat: %s", strerror(errno));
    }
    remove_stale(real && real_n ? real : path, note, note_n);
    return 0;
}

/* New files get the mode open(2) would give them; a replaced file keeps its
 * own. The umask is read from /proc (changing it, even briefly, would race
 * with other threads of the caller); without /proc, 022. */
static mode_t target_mode(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) return st.st_mode & 07777;
    mode_t mask = 022;
    FILE *f = fopen("/proc/self/status", "r");
    if (f) {
        char line[256];
        unsigned m;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "Umask: %o", &m) == 1) {
                mask = (mode_t)m;
                break;
            }
        fclose(f);
    }
    return 0666 & ~mask;
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The one writer of output files (flows, history, the TUI's config): the
 * content is formatted in memory, written to a temporary file next to the
 * target with every error's errno kept, fsynced, renamed over the target,
 * and the directory fsynced so that the rename survives a crash. */
int ds_file_write_atomic(const char *path, ds_write_fn body, const void *ctx, ds_error *err)
{
    char real[PATH_MAX], tmp[PATH_MAX + 64], dir[PATH_MAX];
    char *mem = NULL;
    size_t mem_n = 0;
    ds_error berr = {0};
    int rc, e = 0, fd;
    FILE *fp;

    if (ds_output_check(path, real, sizeof real, NULL, 0, err)) return -1;
    path = real;
    if (!(fp = open_memstream(&mem, &mem_n))) return ds_error_set(err, path, 0, "out of memory; nothing written");
    /* numbers as "C" writes them, whatever the program's locale (c_locale.h) */
    locale_t c = ds_c_locale(), was = c ? uselocale(c) : (locale_t)0;
    rc = body(fp, ctx, &berr);
    if (c) uselocale(was);
    if (fclose(fp) != 0 && rc == 0) rc = -1;
    if (rc != 0) {
        free(mem);
        if (berr.msg[0])
            return ds_error_set(err, path, 0, "%s; nothing written, old file kept untouched (if any)", berr.msg);
        return ds_error_set(err, path, 0, "out of memory formatting the file; nothing written");
    }
    if (snprintf(tmp, sizeof tmp, "%s" TMP_TAG "%ld-XXXXXX", path, (long)getpid()) >= (int)sizeof tmp) {
        free(mem);
        return ds_error_set(err, path, 0, "file name too long");
    }
    fd = mkstemp(tmp);
    if (fd < 0) {
        e = errno;
        free(mem);
        return ds_error_set(err, path, 0, "cannot create a temporary file next to it: %s; nothing written",
                            strerror(e));
    }
    rc = 0;
    if (write_all(fd, mem, mem_n) != 0) rc = -1, e = errno;
    free(mem);
    if (rc == 0 && fchmod(fd, target_mode(path)) != 0) rc = -1, e = errno;
    if (rc == 0 && fsync(fd) != 0) rc = -1, e = errno;
    if (close(fd) != 0 && rc == 0) rc = -1, e = errno;
    if (rc == 0 && rename(tmp, path) != 0) rc = -1, e = errno;
    if (rc != 0) {
        unlink(tmp);
        return ds_error_set(err, path, 0, "write failed: %s; old file kept untouched (if any)", strerror(e ? e : EIO));
    }
    /* Make the rename itself durable; failure here loses nothing already written. */
    dir_of(path, dir, sizeof dir);
    fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    return 0;
}

static int atomic_write(const char *path, body_fn body, const void *ctx, ds_error *err)
{
    return ds_file_write_atomic(path, body, ctx, err);
}

/* Quote only fields that need it, so the header and numbers stay plain. */
static void put_field(FILE *fp, const char *s, int last)
{
    size_t len = strlen(s);
    if (strpbrk(s, ",\"\r\n") || (len && (s[0] == ' ' || s[0] == '\t' || s[len - 1] == ' ' || s[len - 1] == '\t')))
        csv_fwrite(fp, s, len);
    else
        fputs(s, fp);
    fputc(last ? '\n' : ',', fp);
}

/* A non-finite value is written as an empty field (undefined), never as
 * "inf" or "nan", which other tools read inconsistently. */
static void put_num(FILE *fp, const char *fmt, double v, int last)
{
    char buf[64] = "";
    if (isfinite(v)) snprintf(buf, sizeof buf, fmt, v);
    put_field(fp, buf, last);
}

static void put_int(FILE *fp, long v, int last)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%ld", v);
    put_field(fp, buf, last);
}

struct flows_ctx {
    const ds_network *net;
    const double *flows, *costs;
};

static int flows_body(FILE *fp, const void *vctx, ds_error *err)
{
    const struct flows_ctx *c = vctx;
    (void)err;
    put_field(fp, "init_node", 0);
    put_field(fp, "term_node", 0);
    put_field(fp, "flow", 0);
    put_field(fp, "cost", 1);
    const ds_network *net = c->net;
    int k = 0; /* next dropped self-loop: listed in its file position with flow 0 */
    for (int e = 0; e <= net->n_links; e++) {
        for (; k < net->n_loops && net->loops[k].before == e; k++) {
            put_int(fp, net->loops[k].node_id, 0);
            put_int(fp, net->loops[k].node_id, 0);
            put_num(fp, "%.17g", 0.0, 0);
            put_num(fp, "%.17g", net->loops[k].t0, 1);
        }
        if (e == net->n_links) break;
        put_int(fp, ds_node_id(net, net->tail[e]), 0);
        put_int(fp, ds_node_id(net, net->head[e]), 0);
        put_num(fp, "%.17g", c->flows[e], 0);
        put_num(fp, "%.17g", c->costs[e], 1);
    }
    return ferror(fp) ? -1 : 0;
}

int ds_flows_write(const char *path, const ds_network *net, const double *flows, const double *costs, ds_error *err)
{
    if (!net || !flows || !costs)
        return ds_error_set(err, path ? path : "", 0, "no flows or costs to write; nothing written");
    for (int e = 0; e < net->n_links; e++)
        if (!isfinite(flows[e]) || !isfinite(costs[e]))
            return ds_error_set(err, path, 0,
                                "link %d (%d,%d) has a non-finite %s (%g); nothing written, old file "
                                "(if any) untouched",
                                e + 1, ds_node_id(net, net->tail[e]), ds_node_id(net, net->head[e]),
                                isfinite(flows[e]) ? "cost" : "flow", isfinite(flows[e]) ? costs[e] : flows[e]);
    struct flows_ctx c = {net, flows, costs};
    return atomic_write(path, flows_body, &c, err);
}

/* ------------------------------------------------------------ history */

static const char HISTORY_HEADER[] =
    "iter,gap_rel,merit,step_kind,step,halvings,aa_used,aa_restart,aa_reg,gmres_iters,"
    "gmres_resid,forcing,inner_passes,inner_resid,absorb_passes,evals,jv,mask_refresh,"
    "mask_added,mask_removed,mask_oscillation,t_costs_s,t_bellman_s,t_absorb_s,t_deriv_s,"
    "t_other_s,lost_pct,max_imbalance,lu_fresh,lu_reused,lu_shared,ptc_shift,backend,t_run_s,timestamp_utc,timestamp_"
    "epoch_s,"
    "final_status";

const char *ds_history_header(void) { return HISTORY_HEADER; }

static void iso8601_ms(double ts, char *buf, size_t n)
{
    if (!isfinite(ts) || ts < 0) {
        buf[0] = '\0';
        return;
    }
    double whole = floor(ts);
    long ms = lround((ts - whole) * 1000.0);
    time_t t = (time_t)whole;
    if (ms >= 1000) t += 1, ms -= 1000;
    struct tm tm;
    gmtime_r(&t, &tm);
    snprintf(buf, n, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
             tm.tm_min, tm.tm_sec, ms);
}

struct hist_ctx {
    const ds_iter_record *recs;
    size_t n;
    int final_set;
    ds_status final_status;
};

static int history_body(FILE *fp, const void *vctx, ds_error *err)
{
    const struct hist_ctx *c = vctx;
    (void)err;
    fputs(HISTORY_HEADER, fp);
    fputc('\n', fp);
    for (size_t i = 0; i < c->n; i++) {
        const ds_iter_record *r = &c->recs[i];
        char ts[64];
        const char *kind = (unsigned)r->kind < DS_STEP_N ? ds_step_name(r->kind) : "?";
        const char *be = (unsigned)r->backend < DS_BACKEND_N ? ds_backend_name(r->backend) : "?";
        put_int(fp, r->iter, 0);
        put_num(fp, "%.17g", r->gap_rel, 0);
        put_num(fp, "%.17g", r->merit, 0);
        put_field(fp, kind ? kind : "?", 0);
        put_num(fp, "%.17g", r->step, 0);
        put_int(fp, r->halvings, 0);
        put_int(fp, r->aa_used, 0);
        put_int(fp, r->aa_restart, 0);
        put_num(fp, "%.17g", r->aa_reg, 0);
        put_int(fp, r->gmres_iters, 0);
        put_num(fp, "%.17g", r->gmres_resid, 0);
        put_num(fp, "%.17g", r->forcing, 0);
        put_int(fp, r->inner_passes, 0);
        put_num(fp, "%.17g", r->inner_resid, 0);
        put_int(fp, r->absorb_passes, 0);
        put_int(fp, r->evals, 0);
        put_int(fp, r->jv, 0);
        put_int(fp, r->mask_refresh, 0);
        put_int(fp, r->mask_added, 0);
        put_int(fp, r->mask_removed, 0);
        put_int(fp, r->mask_oscillation, 0);
        for (int p = 0; p < DS_PHASE_N; p++) put_num(fp, "%.9g", r->t_phase[p], 0);
        put_num(fp, "%.9g", r->lost_pct >= 0 ? r->lost_pct : NAN, 0); /* empty: not measured (GPU) */
        put_num(fp, "%.9g", r->imbalance >= 0 ? r->imbalance : NAN, 0);
        put_int(fp, r->lu_fresh, 0);
        put_int(fp, r->lu_reused, 0);
        put_int(fp, r->lu_shared, 0);
        put_num(fp, "%.17g", r->ptc_shift, 0);
        put_field(fp, be ? be : "?", 0);
        put_num(fp, "%.9g", r->t_run, 0);
        iso8601_ms(r->timestamp, ts, sizeof ts);
        put_field(fp, ts, 0);
        put_num(fp, "%.6f", r->timestamp, 0);
        put_field(fp, c->final_set && i + 1 == c->n ? ds_status_name(c->final_status) : "", 1);
    }
    return ferror(fp) ? -1 : 0;
}

int ds_history_write(const char *path, const ds_iter_record *recs, size_t n, ds_error *err)
{
    struct hist_ctx c = {recs, n, 0, DS_STATUS_PENDING};
    return atomic_write(path, history_body, &c, err);
}

int ds_history_write_final(const char *path, const ds_iter_record *recs, size_t n, ds_status final_status,
                           ds_error *err)
{
    struct hist_ctx c = {recs, n, 1, final_status};
    return atomic_write(path, history_body, &c, err);
}

/* ------------------------------------------------------------ reading */

#define NFIELD 4

struct reader {
    const char *path;
    const ds_network *net;
    ds_error *err;
    int failed;
    long line;     /* physical line being fed to the parser */
    long row_from; /* the line the row being parsed starts on (0: between rows) */
    int nf;        /* fields seen in the current row */
    int nonempty;  /* the current row has a non-blank field */
    char field[NFIELD][128];
    int header_done;
    int loop;   /* dropped self-loops of net passed so far */
    int nonneg; /* flows to start from (ds_flows_read_start): a negative one is refused on its line */
    int n, cap;
    int *init, *term;
    double *flow, *cost;
    long *lines; /* the file's line of each data row (the header is line 1) */
};

static int rd_fail(struct reader *r, long line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int rd_fail(struct reader *r, long line, const char *fmt, ...)
{
    if (r->failed++) return -1;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ds_error_set(r->err, r->path, line, "%s", msg);
}

static void on_field(void *s, size_t len, void *data)
{
    struct reader *r = data;
    if (r->failed) return;
    if (len) r->nonempty = 1;
    if (r->nf < NFIELD) {
        if (len >= sizeof r->field[0]) {
            rd_fail(r, r->line, "field %d is too long (%zu bytes)", r->nf + 1, len);
            return;
        }
        if (memchr(s, '\0', len)) {
            /* a C string would end there and the rest of the field be lost unseen */
            rd_fail(r, r->line, "binary data: NUL byte in field %d", r->nf + 1);
            return;
        }
        memcpy(r->field[r->nf], s, len);
        r->field[r->nf][len] = '\0';
    }
    r->nf++;
}

static int parse_long(const char *s, long *v) { return ds_parse_long(s, v) == 0; }

static int parse_double(const char *s, double *v) { return ds_parse_double(s, v) == 0; }

static void on_row(int c, void *data)
{
    struct reader *r = data;
    (void)c;
    int nf = r->nf, nonempty = r->nonempty;
    r->nf = 0;
    r->nonempty = 0;
    r->row_from = 0;
    if (r->failed || !nonempty) return; /* blank lines are allowed */
    if (!r->header_done) {
        static const char *want[NFIELD] = {"init_node", "term_node", "flow", "cost"};
        int ok = nf == NFIELD;
        for (int i = 0; ok && i < NFIELD; i++) ok = strcmp(r->field[i], want[i]) == 0;
        if (!ok) {
            rd_fail(r, r->line, "header must be '%s'", DS_FLOWS_HEADER);
            return;
        }
        r->header_done = 1;
        return;
    }
    if (nf != NFIELD) {
        rd_fail(r, r->line, "expected 4 fields (init_node,term_node,flow,cost), found %d", nf);
        return;
    }
    long a, b;
    double f, t;
    if (!parse_long(r->field[0], &a) || a < 1 || a > INT_MAX) {
        rd_fail(r, r->line, "init_node '%s' is not a positive integer", r->field[0]);
        return;
    }
    if (!parse_long(r->field[1], &b) || b < 1 || b > INT_MAX) {
        rd_fail(r, r->line, "term_node '%s' is not a positive integer", r->field[1]);
        return;
    }
    if (!parse_double(r->field[2], &f)) {
        rd_fail(r, r->line, "flow '%s' is not a finite number", r->field[2]);
        return;
    }
    if (!parse_double(r->field[3], &t)) {
        rd_fail(r, r->line, "cost '%s' is not a finite number", r->field[3]);
        return;
    }
    if (r->net) {
        const ds_network *net = r->net;
        int e = r->n;
        /* A dropped self-loop's row (written with flow 0) belongs to no link. */
        if (r->loop < net->n_loops && net->loops[r->loop].before == e && a == b && a == net->loops[r->loop].node_id) {
            r->loop++;
            return;
        }
        if (e >= net->n_links) {
            rd_fail(r, r->line, "more data rows than the network's %d links (%s)", net->n_links, net->net_path);
            return;
        }
        if (a != ds_node_id(net, net->tail[e]) || b != ds_node_id(net, net->head[e])) {
            rd_fail(r, r->line, "row is link (%ld,%ld) but link %d of the network is (%d,%d)", a, b, e + 1,
                    ds_node_id(net, net->tail[e]), ds_node_id(net, net->head[e]));
            return;
        }
    }
    if (r->nonneg && f < 0) {
        rd_fail(r, r->line, "link %d (%ld,%ld) has flow %g: flows to start from must be >= 0", r->n + 1, a, b, f);
        return;
    }
    if (r->n == r->cap) {
        int nc = r->cap ? 2 * r->cap : 1024;
        int *ni = realloc(r->init, nc * sizeof *ni);
        if (ni) r->init = ni;
        int *nt = realloc(r->term, nc * sizeof *nt);
        if (nt) r->term = nt;
        double *nfl = realloc(r->flow, nc * sizeof *nfl);
        if (nfl) r->flow = nfl;
        double *nco = realloc(r->cost, nc * sizeof *nco);
        if (nco) r->cost = nco;
        long *nli = realloc(r->lines, nc * sizeof *nli);
        if (nli) r->lines = nli;
        if (!ni || !nt || !nfl || !nco || !nli) {
            rd_fail(r, r->line, "out of memory");
            return;
        }
        r->cap = nc;
    }
    r->init[r->n] = (int)a;
    r->term[r->n] = (int)b;
    r->flow[r->n] = f;
    r->cost[r->n] = t;
    r->lines[r->n] = r->line;
    r->n++;
}

static int flows_read(const char *path, const ds_network *net, int nonneg, int **init, int **term, double **flows,
                      double **costs, long **lines, int *n, ds_error *err)
{
    struct reader r = {0};
    r.nonneg = nonneg;
    r.path = path;
    r.net = net;
    r.err = err;
    FILE *fp = ds_infile_open(path, "flow file", NULL, err); /* a FIFO without writer, a device: infile.h */
    if (!fp) return -1;

    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) != 0) {
        fclose(fp);
        return ds_error_set(err, path, 0, "cannot initialise the CSV parser");
    }
    /* Fed one physical line at a time so that errors can name the line. */
    char *buf = NULL;
    size_t bcap = 0;
    ssize_t len;
    size_t total = 0;
    while (!r.failed && (len = getline(&buf, &bcap, fp)) != -1) {
        r.line++;
        if ((total += (size_t)len) > DS_INFILE_MAX_BYTES) {
            rd_fail(&r, r.line, "larger than %zu MiB; not a flow file?", DS_INFILE_MAX_BYTES >> 20);
            break;
        }
        const char *s = buf;
        if (r.line == 1 && len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) s += 3, len -= 3;
        if (!r.row_from && strspn(s, " \t\r\n") < (size_t)len) r.row_from = r.line;
        if (csv_parse(&p, s, (size_t)len, on_field, on_row, &r) != (size_t)len && !r.failed) {
            rd_fail(&r, r.line, "malformed CSV (%s)", csv_strerror(csv_error(&p)));
        }
    }
    int read_err = ferror(fp);
    free(buf);
    fclose(fp);
    if (!r.failed && read_err) rd_fail(&r, r.line, "read error: %s", strerror(errno));
    /* a quote never closed swallows the rest of the file: name the line its
     * row starts on (the last line named no culprit) */
    if (!r.failed && csv_fini(&p, on_field, on_row, &r) != 0) {
        if (r.row_from)
            rd_fail(&r, r.row_from, "malformed CSV: a quoted field in the row that starts here is never closed");
        else
            rd_fail(&r, r.line, "malformed CSV");
    }
    if (!r.failed && csv_error(&p) != CSV_SUCCESS)
        rd_fail(&r, r.line, "malformed CSV (%s)", csv_strerror(csv_error(&p)));
    csv_free(&p);
    if (!r.failed && !r.header_done) rd_fail(&r, 0, "empty file: no '%s' header", DS_FLOWS_HEADER);
    if (!r.failed && net && r.n != net->n_links) {
        rd_fail(&r, r.line, "has %d data rows, the network has %d links", r.n, net->n_links);
    }
    if (r.failed) {
        free(r.init), free(r.term), free(r.flow), free(r.cost), free(r.lines);
        return -1;
    }
    if (lines)
        *lines = r.lines;
    else
        free(r.lines);
    if (init)
        *init = r.init;
    else
        free(r.init);
    if (term)
        *term = r.term;
    else
        free(r.term);
    if (flows)
        *flows = r.flow;
    else
        free(r.flow);
    if (costs)
        *costs = r.cost;
    else
        free(r.cost);
    if (n) *n = r.n;
    return 0;
}

int ds_flows_read_ex(const char *path, const ds_network *net, int **init, int **term, double **flows, double **costs,
                     int *n, ds_error *err)
{
    return flows_read(path, net, 0, init, term, flows, costs, NULL, n, err);
}

int ds_flows_read_lines(const char *path, const ds_network *net, int **init, int **term, double **flows, double **costs,
                        long **lines, int *n, ds_error *err)
{
    return flows_read(path, net, 0, init, term, flows, costs, lines, n, err);
}

int ds_flows_read(const char *path, const ds_network *net, double **flows, double **costs, int *n, ds_error *err)
{
    return ds_flows_read_ex(path, net, NULL, NULL, flows, costs, n, err);
}

int ds_flows_read_start(const char *path, const ds_network *net, double **flows, ds_error *err)
{
    int n = 0;
    *flows = NULL;
    return flows_read(path, net, 1, NULL, NULL, flows, NULL, NULL, &n, err); /* a negative flow refused on its line */
}
