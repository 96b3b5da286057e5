/* bindings.c - calls for other languages (Python's ctypes, any FFI): they
 * need no struct layout but ds_error's, so that fields added to ds_config,
 * ds_network or ds_iter_record never break a binding silently. Settings are
 * set by name through the same rules as the command line (settings.c). */
#include "dillsue.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ds_config *ds_config_new(void)
{
    ds_config *c = malloc(sizeof *c);
    if (c) ds_config_default(c);
    return c;
}

void ds_config_free(ds_config *cfg) { free(cfg); }

/* The i-th name of a choice setting (NULL past the last) */
static const char *choice_name(const char *key, int i)
{
    if (!strcmp(key, "filter")) return i < DS_FILTER_N ? ds_filter_name((ds_filter)i) : NULL;
    if (!strcmp(key, "solver")) return i < DS_SOLVER_N ? ds_solver_name((ds_solver_kind)i) : NULL;
    if (!strcmp(key, "backend")) return i < DS_BACKEND_N ? ds_backend_name((ds_backend)i) : NULL;
    if (!strcmp(key, "inner")) return i < DS_INNER_N ? ds_inner_name((ds_inner)i) : NULL;
    if (!strcmp(key, "globalise")) return i < DS_GLOBALISE_N ? ds_globalise_name((ds_globalise)i) : NULL;
    if (!strcmp(key, "start")) return i < DS_START_N ? ds_start_name((ds_start)i) : NULL;
    return NULL;
}

/* "full, dsp, bfs, edsp": the names a choice setting takes, as the command line lists them */
static const char *choices(const char *key, char *buf, size_t n)
{
    const char *nm;
    buf[0] = '\0';
    for (int i = 0; (nm = choice_name(key, i)); i++) {
        size_t l = strlen(buf);
        snprintf(buf + l, n - l, "%s%s", i ? ", " : "", nm);
    }
    return buf;
}

int ds_config_set(ds_config *cfg, const char *key, const char *value, ds_error *err)
{
    static const struct {
        const char *key; /* also the rule's name in settings.c */
        size_t off;
        int integer;
    } num[] = {
        {"tau", offsetof(ds_config, tau), 0},
        {"mu", offsetof(ds_config, mu), 0},
        {"tol", offsetof(ds_config, tol), 0},
        {"max_iter", offsetof(ds_config, max_iter), 1},
        {"threads", offsetof(ds_config, threads), 1},
        {"cap", offsetof(ds_config, cost.cap), 0},
        {"toll_factor", offsetof(ds_config, cost.toll_factor), 0},
        {"distance_factor", offsetof(ds_config, cost.distance_factor), 0},
        {"inner_max", offsetof(ds_config, inner_max), 1},
        {"edsp_refresh", offsetof(ds_config, edsp_max_refresh), 1},
        {"edsp_damping", offsetof(ds_config, edsp_damping), 0},
        {"newton_warm", offsetof(ds_config, newton_warm), 1},
        {"factor_mb", offsetof(ds_config, factor_mb), 0},
        {"cuda_emulate", offsetof(ds_config, cuda_emulate), 1},
    };
    char msg[200], names[160];
    double v;
    int c;
    if (!cfg || !key || !value) return ds_error_set(err, "", 0, "ds_config_set: missing argument");
    for (size_t i = 0; i < sizeof num / sizeof *num; i++) {
        if (strcmp(num[i].key, key)) continue;
        if (ds_setting_parse(key, value, &v, msg, sizeof msg)) return ds_error_set(err, "", 0, "%s %s", key, msg);
        if (num[i].integer)
            *(int *)((char *)cfg + num[i].off) = (int)v;
        else
            *(double *)((char *)cfg + num[i].off) = v;
        if (!strcmp(key, "tau")) cfg->mu = 0; /* the last of tau and mu given wins */
        return 0;
    }
    if (!strcmp(key, "filter") && (c = ds_filter_parse(value)) >= 0)
        cfg->filter = (ds_filter)c;
    else if (!strcmp(key, "solver") && (c = ds_solver_parse(value)) >= 0)
        cfg->solver = (ds_solver_kind)c;
    else if (!strcmp(key, "backend") && (c = ds_backend_parse(value)) >= 0)
        cfg->backend = (ds_backend)c;
    else if (!strcmp(key, "inner") && (c = ds_inner_parse(value)) >= 0)
        cfg->inner = (ds_inner)c;
    else if (!strcmp(key, "globalise") && (c = ds_globalise_parse(value)) >= 0)
        cfg->globalise = (ds_globalise)c;
    else if (!strcmp(key, "start") && (c = ds_start_parse(value)) >= 0)
        cfg->start = (ds_start)c;
    else if (!strcmp(key, "filter") || !strcmp(key, "solver") || !strcmp(key, "backend") || !strcmp(key, "inner") ||
             !strcmp(key, "globalise") || !strcmp(key, "start"))
        return ds_error_set(err, "", 0, "unknown %s '%.40s' (one of: %s)", key, value,
                            choices(key, names, sizeof names));
    else
        return ds_error_set(err, "", 0, "unknown setting '%.40s'", key);
    return 0;
}

void ds_network_counts(const ds_network *net, int *n_nodes, int *n_links, int *n_zones, int *n_od)
{
    if (n_nodes) *n_nodes = net ? net->n_nodes : 0;
    if (n_links) *n_links = net ? net->n_links : 0;
    if (n_zones) *n_zones = net ? net->n_zones : 0;
    if (n_od) *n_od = net ? net->n_od : 0;
}

void ds_network_link_ids(const ds_network *net, int *init_id, int *term_id)
{
    for (int e = 0; net && e < net->n_links; e++) {
        if (init_id) init_id[e] = ds_node_id(net, net->tail[e]);
        if (term_id) term_id[e] = ds_node_id(net, net->head[e]);
    }
}

const char *ds_network_name(const ds_network *net) { return net ? net->name : ""; }

#define F(name, type)                                                                                                  \
    {                                                                                                                  \
#name, offsetof(ds_iter_record, name), type                                                                    \
    }
static const struct {
    const char *name;
    size_t off;
    char type; /* 'd' double, 'i' int */
} columns[] = {
    F(iter, 'i'),         F(gap_rel, 'd'),      F(merit, 'd'),
    F(kind, 'i'),         F(step, 'd'),         F(halvings, 'i'),
    F(aa_used, 'i'),      F(aa_restart, 'i'),   F(aa_reg, 'd'),
    F(gmres_iters, 'i'),  F(gmres_resid, 'd'),  F(forcing, 'd'),
    F(inner_passes, 'i'), F(inner_resid, 'd'),  F(absorb_passes, 'i'),
    F(evals, 'i'),        F(jv, 'i'),           F(mask_refresh, 'i'),
    F(mask_added, 'i'),   F(mask_removed, 'i'), F(mask_oscillation, 'i'),
    F(backend, 'i'),      F(t_run, 'd'),        F(timestamp, 'd'),
    F(lost_pct, 'd'),     F(imbalance, 'd'),    F(lu_fresh, 'i'),
    F(lu_reused, 'i'),    F(lu_shared, 'i'),    F(ptc_shift, 'd'),
};
#undef F

const char *ds_history_column_name(int i)
{
    return i >= 0 && (size_t)i < sizeof columns / sizeof *columns ? columns[i].name : NULL;
}

long ds_run_history_column(const ds_run *run, const char *name, double *out, size_t max)
{
    size_t i, n, k;
    ds_iter_record *recs;
    if (!name || (!out && max)) return -1;
    for (i = 0; i < sizeof columns / sizeof *columns; i++)
        if (!strcmp(columns[i].name, name)) break;
    if (i == sizeof columns / sizeof *columns || !run) return -1;
    n = ds_run_history_count(run);
    if (n > max) n = max;
    recs = malloc((n ? n : 1) * sizeof *recs);
    if (!recs) return -1;
    n = ds_run_history_copy(run, 0, recs, n);
    for (k = 0; k < n; k++) {
        const char *p = (const char *)&recs[k] + columns[i].off;
        out[k] = columns[i].type == 'd' ? *(const double *)p : (double)*(const int *)p;
    }
    free(recs);
    return (long)n;
}

int ds_config_set_warm(ds_config *cfg, const double *flows)
{
    if (!cfg) return -1;
    cfg->warm = flows;
    return 0;
}

/* ds_certificate by field name, as the history by column name (no layout) */
#define CF(name)                                                                                                       \
    {                                                                                                                  \
#name, offsetof(ds_certificate, name)                                                                          \
    }
static const struct {
    const char *name;
    size_t off;
} cert_fields[] = {CF(demand_total),  CF(demand_loaded), CF(demand_arrived), CF(lost_pct),
                   CF(max_imbalance), CF(mean_links),    CF(mean_cost_cbar)};
#undef CF

const char *ds_certificate_field_name(int i)
{
    return i >= 0 && (size_t)i < sizeof cert_fields / sizeof *cert_fields ? cert_fields[i].name : NULL;
}

double ds_run_certificate_field(const ds_run *run, const char *name)
{
    ds_certificate c;
    if (!run || !name || ds_run_certificate(run, &c) != 0 || !c.valid) return NAN;
    for (size_t i = 0; i < sizeof cert_fields / sizeof *cert_fields; i++)
        if (!strcmp(cert_fields[i].name, name)) return *(const double *)((const char *)&c + cert_fields[i].off);
    if (!strcmp(name, "imbalance_node"))
        return c.imbalance_node >= 0 ? ds_node_id(ds_run_network(run), c.imbalance_node) : NAN;
    return NAN;
}
