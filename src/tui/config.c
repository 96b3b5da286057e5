/* config.c - read and write the TUI's settings file (see config.h).
 *
 * Bindings are checked as a whole after the file is read, not line by line,
 * so swapping two keys (bind.start=q, bind.quit=r) works in either order;
 * a binding that would leave a key on two actions is dropped, latest line
 * first, until none does. */
#include "config.h"
#include "ds_csv.h"
#include "settings.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CONFIG_MAX_BYTES (1 << 20)

void config_init(tui_config *c)
{
    memset(c, 0, sizeof *c);
    c->filter = c->solver = c->backend = c->threads = c->max_iter = -1;
    c->glyphs = c->color = c->delay_ms = -1;
    c->xaxis = c->notify = c->mouse = -1;
    keys_default(&c->keys);
    ds_config_default(&c->opts);
}

/* Problems are kept sorted by line: binding conflicts are found after the
 * whole file is read but belong between the other lines' messages. */
static void config_problem(tui_config *c, int line, const char *fmt, ...)
{
    tui_config_problem p;
    va_list ap;
    int i, kept = c->n_problems < TUI_CONFIG_MAX_PROBLEMS ? c->n_problems : TUI_CONFIG_MAX_PROBLEMS;
    p.line = line;
    va_start(ap, fmt);
    vsnprintf(p.text, sizeof p.text, fmt, ap);
    va_end(ap);
    c->n_problems++;
    for (i = kept; i > 0 && c->problem[i - 1].line > line; i--)
        if (i < TUI_CONFIG_MAX_PROBLEMS) c->problem[i] = c->problem[i - 1];
    if (i < TUI_CONFIG_MAX_PROBLEMS) c->problem[i] = p;
}

/* The engine's number parser (src/engine/settings.c), shared by every reader. */
static int parse_int(const char *s, long lo, long hi, int *v)
{
    long l;
    if (ds_parse_long(s, &l) != 0 || l < lo || l > hi) return 0;
    *v = (int)l;
    return 1;
}

/* The engine's one rule for a numeric setting (the command line uses it too). */
static int setting(tui_config *c, int line, const char *k, const char *v, double *d)
{
    char msg[160];
    if (ds_setting_parse(k, v, d, msg, sizeof msg) == 0) return 1;
    config_problem(c, line, "%s %s", k, msg);
    return 0;
}

/* "full|dsp|bfs|edsp" from a name function, for messages. */
static const char *choices(const char *(*name)(int), int n, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "|" : "", name(i));
    return buf;
}
static const char *filter_name(int i) { return ds_filter_name((ds_filter)i); }
static const char *solver_name(int i) { return ds_solver_name((ds_solver_kind)i); }
static const char *backend_name(int i) { return ds_backend_name((ds_backend)i); }
static const char *glyphs_name(int i) { return plot_glyphset_name((plot_glyphset)i); }

static const char *const xaxis_names[XAXIS_N] = {"iter", "logiter", "evals", "time"};
static const char *xaxis_name(int i) { return xaxis_names[i]; }

static int on_off(const char *v) { return !strcmp(v, "on") ? 1 : !strcmp(v, "off") ? 0 : -1; }

static int glyphs_parse(const char *s)
{
    for (int i = 0; i < PLOT_GLYPHSET_N; i++)
        if (!strcmp(s, plot_glyphset_name((plot_glyphset)i))) return i;
    return -1;
}

typedef struct config_bind {
    int keys[TUI_KEYS_PER_ACT];
    int line; /* 0 = no bind line for this action */
} config_bind;

/* bind.<action>=<key> [<key> ...]: the keys replace the action's keys. */
static void parse_bind(tui_config *c, config_bind *binds, int line, const char *action, char *value)
{
    tui_action act = keys_action_parse(action);
    int keys[TUI_KEYS_PER_ACT] = {0}, n = 0;
    if (act == ACT_NONE) {
        config_problem(c, line, "unknown action '%.40s' in bind.%.40s (S writes every action name into the file)",
                       action, action);
        return;
    }
    for (char *tok = strtok(value, " \t"); tok; tok = strtok(NULL, " \t")) {
        int key, rc = keys_parse(tok, &key);
        if (rc == -2) {
            config_problem(c, line, "bind.%s: %.20s belongs to the terminal (signals, flow control); line ignored",
                           action, tok);
            return;
        }
        if (rc != 0) {
            config_problem(c, line,
                           "bind.%s: unknown key '%.20s' (x, X, C-l, F5, Enter, Space, Tab, Esc, Up, PgDn, ...)",
                           action, tok);
            return;
        }
        for (int j = 0; j < n; j++)
            if (keys[j] == key) {
                config_problem(c, line, "bind.%s: key '%.20s' listed twice; line ignored", action, tok);
                return;
            }
        if (n == TUI_KEYS_PER_ACT) {
            config_problem(c, line, "bind.%s: at most %d keys per action; line ignored", action, TUI_KEYS_PER_ACT);
            return;
        }
        keys[n++] = key;
    }
    if (!n) {
        config_problem(c, line, "bind.%s: no key given", action);
        return;
    }
    memcpy(binds[act].keys, keys, sizeof keys);
    binds[act].line = line; /* a later line for the same action wins */
}

/* First pair of actions sharing a key, or 0. */
static int find_clash(const tui_keymap *km, tui_action *a, tui_action *b, int *key)
{
    for (int x = 1; x < ACT_N; x++)
        for (int i = 0; i < TUI_KEYS_PER_ACT && km->keys[x][i]; i++)
            for (int y = x + 1; y < ACT_N; y++)
                for (int j = 0; j < TUI_KEYS_PER_ACT && km->keys[y][j]; j++)
                    if (km->keys[x][i] == km->keys[y][j]) {
                        *a = (tui_action)x, *b = (tui_action)y, *key = km->keys[x][i];
                        return 1;
                    }
    return 0;
}

static void apply_binds(tui_config *c, config_bind *binds)
{
    tui_action a, b;
    int key;
    for (;;) {
        keys_default(&c->keys);
        for (int x = 1; x < ACT_N; x++)
            if (binds[x].line) memcpy(c->keys.keys[x], binds[x].keys, sizeof binds[x].keys);
        if (!find_clash(&c->keys, &a, &b, &key)) return;
        /* drop the later of the two lines (a default counts as line 0) */
        tui_action drop = binds[a].line > binds[b].line ? a : b, other = drop == a ? b : a;
        char kn[16];
        keys_name(key, kn, sizeof kn);
        if (binds[other].line)
            config_problem(c, binds[drop].line, "key '%s' is already bound to %s (line %d); bind.%s ignored", kn,
                           keys_row(other)->name, binds[other].line, keys_row(drop)->name);
        else
            config_problem(c, binds[drop].line, "key '%s' is already bound to %s; bind.%s ignored (rebind %s too)", kn,
                           keys_row(other)->name, keys_row(drop)->name, keys_row(other)->name);
        binds[drop].line = 0;
    }
}

static char *trim(char *s)
{
    char *e;
    while (*s == ' ' || *s == '\t') s++;
    e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) *--e = 0;
    return s;
}

/* next-run settings with their own fields and lines above; the others of
 * the settings table are read and written generically */
static int config_core_setting(const char *k)
{
    static const char *const core[] = {"tau", "tol", "threads", "max_iter", "filter", "solver", "backend"};
    for (size_t i = 0; i < sizeof core / sizeof core[0]; i++)
        if (!strcmp(k, core[i])) return 1;
    return 0;
}

static void parse_setting(tui_config *c, config_bind *binds, int line, const char *k, char *v)
{
    char list[96];
    int i;
    double d;
    if (!strncmp(k, "bind.", 5)) {
        parse_bind(c, binds, line, k + 5, v);
        return;
    }
    if (!*v) {
        config_problem(c, line, "%.40s has no value", k);
        return;
    }
    if (!strcmp(k, "version")) {
        if (!parse_int(v, 1, INT_MAX, &i))
            config_problem(c, line, "version must be a whole number >= 1, got '%.40s'", v);
        else if (i > TUI_CONFIG_VERSION)
            config_problem(c, line, "version %d is newer than this program reads (%d); settings it knows still apply",
                           i, TUI_CONFIG_VERSION);
        else
            c->version = i;
    } else if (!strcmp(k, "tau")) {
        if (setting(c, line, k, v, &d)) c->tau = d;
    } else if (!strcmp(k, "tol")) {
        if (setting(c, line, k, v, &d)) c->tol = d;
    } else if (!strcmp(k, "threads")) {
        if (setting(c, line, k, v, &d)) c->threads = (int)d;
    } else if (!strcmp(k, "max_iter")) {
        if (setting(c, line, k, v, &d)) c->max_iter = (int)d;
    } else if (!strcmp(k, "delay_ms")) {
        if (setting(c, line, k, v, &d)) c->delay_ms = (int)d;
    } else if (!strcmp(k, "filter")) {
        if ((i = ds_filter_parse(v)) < 0)
            config_problem(c, line, "unknown filter '%.40s' (%s)", v,
                           choices(filter_name, DS_FILTER_N, list, sizeof list));
        else
            c->filter = i;
    } else if (!strcmp(k, "solver")) {
        if ((i = ds_solver_parse(v)) < 0)
            config_problem(c, line, "unknown solver '%.40s' (%s)", v,
                           choices(solver_name, DS_SOLVER_N, list, sizeof list));
        else
            c->solver = i;
    } else if (!strcmp(k, "backend")) {
        if ((i = ds_backend_parse(v)) < 0)
            config_problem(c, line, "unknown backend '%.40s' (%s)", v,
                           choices(backend_name, DS_BACKEND_N, list, sizeof list));
        else
            c->backend = i;
    } else if (!strcmp(k, "glyphs")) {
        if ((i = glyphs_parse(v)) < 0)
            config_problem(c, line, "unknown glyphs '%.40s' (%s)", v,
                           choices(glyphs_name, PLOT_GLYPHSET_N, list, sizeof list));
        else
            c->glyphs = i;
    } else if (!strcmp(k, "xaxis")) {
        for (i = 0; i < XAXIS_N && strcmp(v, xaxis_names[i]); i++) {}
        if (i == XAXIS_N)
            config_problem(c, line, "unknown xaxis '%.40s' (%s)", v, choices(xaxis_name, XAXIS_N, list, sizeof list));
        else
            c->xaxis = i;
    } else if (!strcmp(k, "notify") || !strcmp(k, "mouse")) {
        if ((i = on_off(v)) < 0)
            config_problem(c, line, "%s must be on or off, got '%.40s'", k, v);
        else if (k[0] == 'n')
            c->notify = i;
        else
            c->mouse = i;
    } else if (!strcmp(k, "color") || !strcmp(k, "colour")) {
        if (!strcmp(v, "on"))
            c->color = 1;
        else if (!strcmp(v, "off"))
            c->color = 0;
        else
            config_problem(c, line, "color must be on or off, got '%.40s'", v);
    } else if ((i = settings_find(k)) >= 0 && !config_core_setting(k)) {
        char why[200];
        ds_config t = c->opts;
        /* the row's rule says "cap needs a decimal number"; quoted as the
         * other lines and `solve` quote a value (settings_set's "; unchanged"
         * is the settings view's word) */
        if (tui_settings[i].set(&t, v, why, sizeof why) != 0)
            config_problem(c, line, "%s, got '%.40s'", why, v);
        else {
            c->opts = t;
            c->opts_set |= 1ul << i;
        }
    } else {
        config_problem(c, line, "unknown key '%.40s'", k);
    }
}

void config_parse(tui_config *c, const char *text)
{
    config_bind binds[ACT_N];
    const char *p = text;
    int line = 0;
    memset(binds, 0, sizeof binds);
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char buf[1024], *s, *eq;
        line++;
        if (len >= sizeof buf) {
            config_problem(c, line, "line longer than %d characters; ignored", (int)sizeof buf - 1);
        } else {
            memcpy(buf, p, len);
            buf[len] = 0;
            /* a BOM, as the TNTP and CSV readers skip it (an editor's UTF-8) */
            s = trim(line == 1 && !memcmp(buf, "\xEF\xBB\xBF", 3) ? buf + 3 : buf);
            if (*s && *s != '#') {
                if (!(eq = strchr(s, '=')))
                    config_problem(c, line, "expected key=value, got '%.40s'", s);
                else {
                    *eq = 0;
                    parse_setting(c, binds, line, trim(s), trim(eq + 1));
                }
            }
        }
        p += len + (nl != NULL);
    }
    apply_binds(c, binds);
}

int config_load(tui_config *c, const char *path)
{
    /* O_NONBLOCK: a FIFO given as --config hung the start-up on a blank
     * screen until something wrote to it; only regular files are read */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st = {0};
    FILE *f;
    char *text;
    size_t n;
    if (fd < 0) {
        if (errno == ENOENT) return 1;
        config_problem(c, 0, "cannot read: %s", strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const char *why = S_ISDIR(st.st_mode) ? strerror(EISDIR) : "not a regular file (a FIFO, a device, ...)";
        config_problem(c, 0, "cannot read: %s", why);
        close(fd);
        return -1;
    }
    if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 || !(f = fdopen(fd, "rb"))) {
        config_problem(c, 0, "cannot read: %s", strerror(errno));
        close(fd);
        return -1;
    }
    text = malloc(CONFIG_MAX_BYTES + 1);
    if (!text) {
        fclose(f);
        config_problem(c, 0, "out of memory");
        return -1;
    }
    errno = 0;
    n = fread(text, 1, CONFIG_MAX_BYTES + 1, f);
    if (ferror(f) || n > CONFIG_MAX_BYTES) {
        if (ferror(f))
            config_problem(c, 0, "cannot read: %s", strerror(errno ? errno : EIO));
        else
            config_problem(c, 0, "larger than 1 MiB; not read");
        fclose(f);
        free(text);
        return -1;
    }
    fclose(f);
    text[n] = 0;
    if (memchr(text, 0, n)) config_problem(c, 0, "contains a NUL byte; read up to it");
    config_parse(c, text);
    free(text);
    return 0;
}

/* Shortest %g that reads back as the same double. */
static const char *fmt_num(double v, char *buf, size_t n)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    return buf;
}

static void config_write(FILE *f, const tui_config *c)
{
    char num[40], keys[80], list[96];
    fprintf(f,
            "# dillsue tui settings (written by the TUI's save key; dillsue %s).\n"
            "# One key=value per line; a line whose first character is # is a comment.\n"
            "# Unknown keys and bad values are reported on the status line at start-up\n"
            "# and skipped; the rest still applies. Command-line options override this\n"
            "# file. Saving rewrites the whole file: comments you add are not kept.\n"
            "# docs/tui.md describes every setting.\n"
            "version=%d\n\n",
            DS_VERSION, TUI_CONFIG_VERSION);
    fprintf(f, "# --- the next run (the runs panel's next: line) ---\n");
    fprintf(f, "# tau: dispersion, a number > 0 (mu = tau / cbar, the mean free-flow cost of a trip)\ntau=%s\n",
            fmt_num(c->tau, num, sizeof num));
    fprintf(f, "# filter: %s\nfilter=%s\n", choices(filter_name, DS_FILTER_N, list, sizeof list),
            ds_filter_name((ds_filter)c->filter));
    fprintf(f, "# solver: %s\nsolver=%s\n", choices(solver_name, DS_SOLVER_N, list, sizeof list),
            ds_solver_name((ds_solver_kind)c->solver));
    fprintf(f, "# threads: CPU threads, 0..4096 (0 = all cores)\nthreads=%d\n", c->threads);
    fprintf(f, "# tol: stop when gap_rel < tol, 0 < tol < 1\ntol=%s\n", fmt_num(c->tol, num, sizeof num));
    fprintf(f, "# max_iter: outer iterations at most, 0..100000000 (0: the start point only)\nmax_iter=%d\n",
            c->max_iter);
    fprintf(f, "# backend: %s (cuda needs a build with CUDA and a GPU)\nbackend=%s\n\n",
            choices(backend_name, DS_BACKEND_N, list, sizeof list), ds_backend_name((ds_backend)c->backend));
    for (int i = 0; i < tui_n_settings; i++) {
        char v[64];
        if (config_core_setting(tui_settings[i].name)) continue;
        tui_settings[i].get(&c->opts, v, sizeof v);
        fprintf(f, "# %s: %s (solve %s)\n%s%s=%s\n", tui_settings[i].name, tui_settings[i].help, tui_settings[i].option,
                c->opts_set >> i & 1 ? "" : "#", tui_settings[i].name, v);
    }
    fprintf(f, "\n");
    fprintf(f, "# --- display ---\n");
    fprintf(f, "# glyphs: plot characters, %s\nglyphs=%s\n", choices(glyphs_name, PLOT_GLYPHSET_N, list, sizeof list),
            plot_glyphset_name((plot_glyphset)c->glyphs));
    fprintf(f, "# color: on | off (NO_COLOR in the environment turns it off regardless)\ncolor=%s\n",
            c->color ? "on" : "off");
    fprintf(f, "# delay_ms: minimum time between screen updates, 10..60000 (raise on slow links)\ndelay_ms=%d\n",
            c->delay_ms);
    fprintf(f, "# xaxis: plot x axis, %s\nxaxis=%s\n", choices(xaxis_name, XAXIS_N, list, sizeof list),
            xaxis_names[c->xaxis >= 0 && c->xaxis < XAXIS_N ? c->xaxis : 0]);
    fprintf(f, "# notify: bell and terminal title when a run ends, on | off\nnotify=%s\n",
            c->notify > 0 ? "on" : "off");
    fprintf(
        f, "# mouse: click to select a run / hide a curve, on | off (off keeps the terminal's selection)\nmouse=%s\n\n",
        c->mouse > 0 ? "on" : "off");
    fprintf(f, "# --- keys ---\n"
               "# bind.<action>=<key> [<key> ...] replaces the keys of an action. A key is a\n"
               "# single character (x, X, ?), C-a..C-z, F1..F12, Enter, Space, Tab, Esc,\n"
               "# Backspace, Up, Down, Left, Right, Home, End, PgUp, PgDn, Ins or Del.\n"
               "# C-c, C-z, C-s, C-q and C-\\ belong to the terminal. A key can belong to one\n"
               "# action only. Lines starting with #bind. show a default left as it is.\n");
    tui_keymap def;
    keys_default(&def);
    for (int i = 0; i < tui_n_keys; i++) {
        tui_action a = tui_keys[i].act;
        int same = !memcmp(def.keys[a], c->keys.keys[a], sizeof def.keys[a]);
        keys_label(&c->keys, a, 1, " ", keys, sizeof keys);
        fprintf(f, "# %s\n%sbind.%s=%s\n", tui_keys[i].help, same ? "#" : "", tui_keys[i].name, keys);
    }
}

/* mkdir -p for the directory part of path (new directories 0700, as XDG asks). */
static int make_parent_dirs(const char *path, ds_error *err)
{
    char dir[PATH_MAX];
    char *slash;
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir) return ds_error_set(err, path, 0, "path too long");
    if (!(slash = strrchr(dir, '/')) || slash == dir) return 0;
    *slash = 0;
    for (char *p = dir + 1;; p++) {
        if (*p == '/' || !*p) {
            char saved = *p;
            *p = 0;
            if (mkdir(dir, 0700) != 0 && errno != EEXIST)
                return ds_error_set(err, path, 0, "cannot create directory %s: %s", dir, strerror(errno));
            *p = saved;
            if (!saved) break;
        }
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) return ds_error_set(err, path, 0, "%s is not a directory", dir);
    return 0;
}

static int config_body(FILE *f, const void *c, ds_error *err)
{
    (void)err;
    config_write(f, c);
    return ferror(f) ? -1 : 0;
}

/* Through the one output writer (src/engine/flowcsv.c): regular files only, a
 * symlinked config (dotfile repositories) written where it points. */
int config_save(const char *path, const tui_config *c, ds_error *err)
{
    if (make_parent_dirs(path, err) != 0) return -1;
    return ds_file_write_atomic(path, config_body, c, err);
}

int config_default_path(char *buf, size_t n)
{
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    int len;
    /* XDG: a relative XDG_CONFIG_HOME is invalid and must be ignored. */
    if (xdg && xdg[0] == '/')
        len = snprintf(buf, n, "%s/dillsue/config", xdg);
    else if (home && home[0] == '/')
        len = snprintf(buf, n, "%s/.config/dillsue/config", home);
    else
        return -1;
    return len < 0 || (size_t)len >= n ? -1 : 0;
}

const char *config_display_path(const char *path, char *buf, size_t n)
{
    const char *home = getenv("HOME");
    size_t hl = home ? strlen(home) : 0;
    if (hl > 1 && !strncmp(path, home, hl) && path[hl] == '/')
        snprintf(buf, n, "~%s", path + hl);
    else
        snprintf(buf, n, "%s", path);
    return buf;
}

void config_problems_format(const tui_config *c, const char *path, char *buf, size_t n)
{
    char shown[600];
    size_t used = 0;
    int kept = c->n_problems < TUI_CONFIG_MAX_PROBLEMS ? c->n_problems : TUI_CONFIG_MAX_PROBLEMS;
    config_display_path(path, shown, sizeof shown);
    buf[0] = 0;
    for (int i = 0; i < kept && used < n; i++) {
        const tui_config_problem *p = &c->problem[i];
        if (i == 0 && p->line)
            used += (size_t)snprintf(buf + used, n - used, "%s:%d: %s", shown, p->line, p->text);
        else if (i == 0)
            used += (size_t)snprintf(buf + used, n - used, "%s: %s", shown, p->text);
        else if (p->line)
            used += (size_t)snprintf(buf + used, n - used, "; line %d: %s", p->line, p->text);
        else
            used += (size_t)snprintf(buf + used, n - used, "; %s", p->text);
    }
    if (c->n_problems > kept && used < n) snprintf(buf + used, n - used, "; and %d more", c->n_problems - kept);
}

void config_capture(const tui_app *app, tui_config *c)
{
    const ds_config *n = &app->s.next;
    config_init(c);
    c->version = TUI_CONFIG_VERSION;
    c->tau = n->tau;
    c->tol = n->tol;
    c->filter = (int)n->filter;
    c->solver = (int)n->solver;
    c->backend = (int)n->backend;
    c->threads = n->threads;
    c->max_iter = n->max_iter;
    c->opts = *n;
    /* a setting at the engine's default is saved as a commented line (as
     * bindings are), so that a saved file does not pin today's defaults */
    ds_config def;
    ds_config_default(&def);
    c->opts_set = 0;
    for (int i = 0; i < tui_n_settings; i++) {
        char now[64], was[64];
        tui_settings[i].get(n, now, sizeof now);
        tui_settings[i].get(&def, was, sizeof was);
        if (strcmp(now, was)) c->opts_set |= 1ul << i;
    }
    c->glyphs = (int)app->gs;
    c->color = app->want_color;
    c->delay_ms = app->delay_ms;
    c->xaxis = (int)app->xaxis;
    c->notify = app->notify;
    c->mouse = app->mouse;
    c->keys = app->keys;
}
