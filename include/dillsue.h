/*
 * dillsue.h - public API of the dillsue engine (link-based logit SUE).
 *
 * The engine never touches a terminal: everything a front end needs is a call
 * here, and everything the engine has to say goes through a caller-supplied
 * monitor callback or the telemetry log of a run.
 *
 * Conventions: functions that can fail return 0 on success and a nonzero
 * ds_status-like code on failure, filling a ds_error with file, line and
 * message. Arrays are flat double* with explicit sizes. Node ids inside the
 * engine are 0-based; the TNTP id of node i is ds_node_id(net, i) (i + 1 for a
 * file that numbers its nodes 1..n).
 */
#ifndef DILLSUE_H
#define DILLSUE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DS_VERSION "0.1.0"

/* ---------------------------------------------------------------- errors */

typedef struct ds_error {
    char file[512]; /* file the problem is in ("" if none) */
    long line;      /* 1-based line in that file, 0 if not applicable */
    char msg[512];  /* what was wrong, one sentence, no trailing newline */
} ds_error;

/* Fill err (may be NULL) with printf-style text. Returns -1 for convenience. */
int ds_error_set(ds_error *err, const char *file, long line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* "file:line: msg" (or "file: msg" / "msg") into buf. */
void ds_error_format(const ds_error *err, char *buf, size_t n);

/* --------------------------------------------------------------- network */

typedef struct ds_network {
    char name[128];     /* short name, e.g. "SiouxFalls" */
    char net_path[512]; /* where it came from ("<embedded>" for the default) */
    int n_nodes;
    int n_links;
    int n_zones;    /* nodes 0..n_zones-1 are zones */
    int first_thru; /* 1-based FIRST THRU NODE as in the file */
    /* Node i (0-based) is a centroid (may not be passed through) iff
     * i < first_thru - 1. first_thru == 1 means no centroid restriction. */

    /* links, in file order */
    int *tail, *head;               /* 0-based node ids */
    double *capacity, *length, *t0; /* t0 = free-flow time */
    double *bpr_b, *bpr_power, *speed, *toll;
    int *link_type;
    long *src_line; /* line of each link in the net file */

    /* CSR adjacency: out-links of node u are out_link[out_start[u] .. out_start[u+1]-1],
     * in-links of node v are in_link[in_start[v] .. in_start[v+1]-1]. Link ids. */
    int *out_start, *out_link;
    int *in_start, *in_link;

    /* metadata factors (0 if absent) */
    double toll_factor, distance_factor;

    /* demand: OD pairs with q > 0, sorted by (dest, orig) */
    int n_od;
    int *od_orig, *od_dest; /* 0-based node ids */
    double *od_demand;
    double total_demand;

    /* destinations with demand, ascending, and per-destination slices of the OD list */
    int n_dest;
    int *dest_node;     /* [n_dest] */
    int *dest_od_start; /* [n_dest+1] into od_* arrays */

    /* optional node coordinates (NULL if none) */
    double *node_x, *node_y;
    /* optional reference flows (NULL if none), per link */
    double *ref_flow, *ref_cost;

    /* What the files said and what the reader made of it (real files number
     * nodes sparsely, define zones only in the trips file, carry self-loops). */
    int *node_id;                  /* [n_nodes] the files' id of node i: i + 1 unless ids_mapped */
    int *node_by_id;               /* [n_nodes] node indices in ascending id order (for lookups) */
    int ids_mapped;                /* 1 if the file's ids were sparse and mapped to 0..n_nodes-1 */
    int zones_inferred;            /* 1 if the zones were taken from the trips file */
    long declared_nodes;           /* <NUMBER OF NODES> of the net file (0 if absent) */
    long declared_zones;           /* <NUMBER OF ZONES> of the net file (0 if absent) */
    int n_loops;                   /* self-loop rows dropped: they carry flow 0 */
    struct ds_dropped_loop *loops; /* [n_loops], in file order */
    /* Columns after the tenth that the net file's column-name line ('~'
     * comment before the first row) names after the ten standard ones: read
     * past, not used (0 if none). */
    int n_skipped_columns;
    long columns_line;         /* line of that column-name comment */
    char skipped_columns[128]; /* their names, ", "-separated (cut short with "...") */
    /* Columns of a ten-column file whose name on the column-name line is not
     * the TNTP column's: "column 9 'lanes' where TNTP has toll, ..." ("" if
     * none; read by position all the same) */
    char column_note[256];
    /* Demand from a zone to itself in the trips file: counted by <TOTAL OD
     * FLOW>, never assigned (such a trip uses no link), so not in
     * total_demand. Its sum and number of entries. */
    double intrazonal_demand;
    int n_intrazonal;
    /* <NUMBER OF ZONES> of the trips file (0 if absent or no trips file read);
     * where the zones are taken from the trips file, it need not match them */
    long trips_declared_zones;
} ds_network;

/* A link from a node to itself: no route uses it, so the reader drops it; flow
 * CSVs still list it in its file position, with flow 0 and its free-flow time. */
typedef struct ds_dropped_loop {
    int node_id; /* the file's id of the node */
    long line;   /* line in the net file */
    int before;  /* number of kept links that precede it in file order */
    double t0;   /* free-flow time from the file */
} ds_dropped_loop;

/* Note i (from 0) on what the reader did with the net file's columns (extra
 * ones read past, columns named otherwise), one sentence with file and line,
 * unescaped, as every front end says it; returns 0 once there is none left. */
int ds_network_column_note(const ds_network *net, int i, char *buf, size_t size);
/* The files' id of node i (0-based), as every output names it. */
int ds_node_id(const ds_network *net, int node);
/* The node whose files' id is id, or -1 if the network has none. */
int ds_node_index(const ds_network *net, long id);

/* Load a TNTP network. trips_path may be NULL: then the sibling trips file is
 * used (X_net.tntp -> X_trips.tntp, X.net.tntp -> X.trips.tntp). node_path and
 * flow_path may be NULL (siblings are loaded if present, silently skipped if not).
 * On failure returns NULL and fills err with file, line and reason. */
ds_network *ds_network_load(const char *net_path, const char *trips_path, const char *node_path, const char *flow_path,
                            ds_error *err);
/* The network and trips files only, as ds_network_load reads them; no node or
 * flow file is looked for. What uses neither coordinates nor reference flows
 * (solving, loading, sweeps) reads this: it does not pay for files it would
 * not use, and a damaged sibling it would not use does not stop it. */
ds_network *ds_network_load_net_trips(const char *net_path, const char *trips_path, ds_error *err);
/* The sibling file of a net file: X_net.tntp -> X_<kind>.tntp, X.net.tntp ->
 * X.<kind>.tntp (kind "trips", "node", "flow"). 0 if the name follows neither
 * convention (or out is too small), 1 with out filled otherwise. */
int ds_tntp_sibling(const char *net_path, const char *kind, char *out, size_t n);
/* Where path names a directory (the TransportationNetworks layout, X/X_net.tntp):
 * its one net file (a name ending in _net.tntp or .net.tntp) as path/NAME in out,
 * returns 1. 0 where path is not a directory (out untouched); -1 with err where
 * the directory holds no net file or several (it names them), or out is too
 * small. ds_network_load and ds_network_load_net_trips read a directory so. */
int ds_tntp_net_in_dir(const char *path, char *out, size_t n, ds_error *err);
/* The small network compiled into the binary (data/ringcity). */
ds_network *ds_network_load_default(ds_error *err);
/* Parse from memory (used by the embedded default and by tests). name_* are
 * the names used in error messages. trips_text may be NULL (no demand). */
ds_network *ds_network_parse(const char *net_text, size_t net_len, const char *net_name, const char *trips_text,
                             size_t trips_len, const char *trips_name, ds_error *err);
/* Reference flows ("From To Volume Cost") matched to links by (tail, head). */
int ds_network_load_flows(ds_network *net, const char *flow_path, ds_error *err);
void ds_network_free(ds_network *net);
/* Deep copy (scenarios perturb a copy). */
ds_network *ds_network_clone(const ds_network *net);
/* 0 where the network has demand to assign; else -1 with err saying there is
 * none. Runs (ds_run_create) and the UE (ds_ue_solve) refuse such a network by
 * this one rule (ue wrote all-zero flows with exit 0 where solve refused). */
int ds_network_check_demand(const ds_network *net, ds_error *err);
/* 0 where every link's values keep the reader's rules (capacity finite and
 * positive; length, free-flow time, b and power finite and non-negative) and
 * every demand is finite and non-negative, and there is demand to assign;
 * else -1 with err naming the first that does not. A network is public and
 * may be edited in place: ds_run_create, ds_loader_create and ds_ue_solve
 * check it so (a capacity of 0 or NaN set after reading "converged"). Other
 * fields are not checked: the node ids, structure and indexes (dest_node,
 * dest_od_start, od_*) must stay as the reader or ds_scenario_apply left them. */
int ds_network_check(const ds_network *net, ds_error *err);

/* Node (0-based) is a centroid: a route may start or end there, never pass
 * through (the rule itself is dsk_is_centroid in src/engine/kernels.h). */
int ds_node_is_centroid(const ds_network *net, int node);

/* -------------------------------------------------------------- settings */

/* The number parsers every reader uses (TNTP, CSV, command line, config):
 * the whole string must be a decimal number (hexadecimal, inf and nan are
 * refused). Return 0, -1 if not such a number, -2 if out of range (not finite,
 * or beyond a long). */
int ds_parse_double(const char *s, double *out);
int ds_parse_long(const char *s, long *out);

/* One rule per numeric setting, wherever it is read (command line, TUI config). */
typedef struct ds_setting_rule {
    const char *name;     /* "tau", "tol", "max_iter", "threads", ... */
    int integer;          /* 1: an integer */
    double lo, hi;        /* allowed range */
    int lo_open, hi_open; /* 1: the bound itself is excluded */
    const char *meaning;
} ds_setting_rule;
const ds_setting_rule *ds_setting_find(const char *name);
/* Parses text for setting name by its rule. 0, or -1 with msg (one phrase,
 * e.g. "must be in (0, 1), got '2'") filled. */
int ds_setting_parse(const char *name, const char *text, double *out, char *msg, size_t n);
/* Checks a value already in a number against setting name's rule (what
 * ds_run_create applies to a ds_config filled in code). 0, or -1 with msg. */
int ds_setting_check(const char *name, double v, char *msg, size_t n);

/* ----------------------------------------------------------------- costs */

typedef struct ds_cost_params {
    double cap;         /* x/c is capped at this before the power; 0 = no cap */
    double toll_factor; /* generalized cost weights */
    double distance_factor;
} ds_cost_params;

/* t_e(x) for every link (BPR with cap + toll/distance terms). */
void ds_costs_eval(const ds_network *net, const ds_cost_params *cp, const double *x, double *t);
/* dt_e/dx_e for every link (zero where the cap is active). */
void ds_costs_deriv(const ds_network *net, const ds_cost_params *cp, const double *x, double *dt);
/* The first link whose cost at x is not finite (uncapped BPR costs, --cap 0,
 * overflow past x/c ~ 1e77 with power 4), or -1 if every cost is finite. */
int ds_costs_first_nonfinite(const ds_network *net, const ds_cost_params *cp, const double *x);
/* Cost bound at the cap (+inf if the cap is 0 and the link is flow-dependent). */
void ds_costs_max(const ds_network *net, const ds_cost_params *cp, double *tmax);
/* Every link's cost at zero flow, its least (b, power >= 0), must not be
 * below 0: the filters, cbar and the UE search shortest paths. 0, or -1 with
 * err naming the net file's line of the first link below 0 and its terms (a
 * negative toll factor, or a negative toll, can make one). A cost that is not
 * finite passes here (the callers' finiteness checks name it). */
int ds_costs_check(const ds_network *net, const ds_cost_params *cp, ds_error *err);

/* ---------------------------------------------------------- shortest paths */

/* Shortest distance from every node to dest over links cost t, never passing
 * through a centroid other than dest (origins may be centroids). dist = +INF
 * where dest is unreachable (everywhere, hops -1, for a dest that is not
 * a node). hops (may be NULL) = fewest links among shortest
 * paths. order (may be NULL) = nodes in the order settled (reachable first). */
void ds_sp_to_dest(const ds_network *net, const double *t, int dest, double *dist, int *hops, int *order);

/* The OD pairs with no path at all under the same centroid rule: no_path[k]
 * (n_od, in the od_* order) = 1 where origin k cannot reach its destination,
 * else 0. Which pairs have a path does not depend on the costs: no shortest
 * paths, but the strongly connected components of the nodes a route may pass
 * through, once, then a pass over them per 64 destinations, over threads
 * (<= 0: all cores); the flags are the same for any thread count. cancel
 * (may be NULL) is polled before every 64 destinations. Returns 0; 1 when
 * cancel stopped it (no_path then incomplete); -1 out of memory or a NULL
 * argument. Memory: about 16 threads + 32 bytes a node. */
int ds_od_no_path(const ds_network *net, int threads, volatile int *cancel, unsigned char *no_path);

/* ----------------------------------------------------------------- config */

typedef enum { DS_FILTER_FULL = 0, DS_FILTER_DSP, DS_FILTER_BFS, DS_FILTER_EDSP, DS_FILTER_N } ds_filter;
typedef enum { DS_SOLVER_MSA = 0, DS_SOLVER_SRA, DS_SOLVER_ANDERSON, DS_SOLVER_NEWTON, DS_SOLVER_N } ds_solver_kind;
typedef enum { DS_BACKEND_CPU = 0, DS_BACKEND_CUDA, DS_BACKEND_N } ds_backend;
/* How the full graph's inner problems are solved: exactly by sparse LU per
 * destination (direct, default), or by up to inner_max warm-started passes
 * (the paper's L_val). Filtered variants are exact in one pass either way. */
typedef enum { DS_INNER_DIRECT = 0, DS_INNER_PASSES, DS_INNER_N } ds_inner;
/* Newton's globalisation: a backtracking line search on the Newton direction
 * with a sufficient-decrease test on the merit; the paper's rule (the full or
 * half step if the merit decreases, else an MSA step); or the line search with
 * pseudo-transient regularisation once a trial leaves the domain of f (ptc,
 * the default: ds_config_default; docs/model.md "Outer solvers"). */
typedef enum { DS_GLOBALISE_LINESEARCH = 0, DS_GLOBALISE_PAPER, DS_GLOBALISE_PTC, DS_GLOBALISE_N } ds_globalise;
/* Start point: auto (x = 0; where f(0) does not exist, s x capacity on the
 * links of the diverging cycles only, else on every link), zero (x = 0, else
 * s x capacity on every link), capacity (that search even where f(0) exists),
 * dsp (the solution of the DSP variant at the same mu, plus s x capacity if f
 * does not exist there), relax (from the DSP solution, a continuation that
 * lowers a penalty on the links outside the DSP DAGs to 0, full graph).
 * docs/model.md "Start point". */
typedef enum { DS_START_AUTO = 0, DS_START_ZERO, DS_START_CAPACITY, DS_START_DSP, DS_START_RELAX, DS_START_N } ds_start;

/* 1 and "GPU: <name>, ..." if the CUDA backend can run on a device here, else
 * 0 and "GPU: none (<why>)". (ds_config.cuda_emulate runs the backend's
 * kernels on the CPU without a device.) */
int ds_gpu_info(char *buf, size_t n);

const char *ds_filter_name(ds_filter f);
const char *ds_solver_name(ds_solver_kind s);
const char *ds_backend_name(ds_backend b);
const char *ds_inner_name(ds_inner i);
int ds_inner_parse(const char *s);
/* Parse names; return -1 if unknown. */
int ds_filter_parse(const char *s);
int ds_solver_parse(const char *s);
int ds_backend_parse(const char *s);
const char *ds_globalise_name(ds_globalise g);
int ds_globalise_parse(const char *s);
const char *ds_start_name(ds_start s);
int ds_start_parse(const char *s);

typedef struct ds_config {
    double tau; /* dimensionless dispersion; used when mu <= 0 */
    double mu;  /* if > 0, used directly */
    ds_filter filter;
    ds_solver_kind solver;
    double tol;   /* gap_rel tolerance, default 1e-7 */
    int max_iter; /* outer iterations, default 10000 */
    int threads;  /* worker threads, default 1; <= 0 means all cores */
    ds_backend backend;
    ds_cost_params cost;
    ds_inner inner;     /* full graph inner solver, default direct */
    int inner_max;      /* L_val: max Bellman passes (full, inner = passes), default 50 */
    double inner_tol;   /* inner stop: max |dV|, default 1e-13 */
    const double *warm; /* optional warm-start flows [n_links] (copied at create) */
    /* anderson */
    int aa_window; /* default 5, at most 50 */
    double aa_reg; /* Tikhonov regularisation (relative), default 1e-10 */
    /* newton */
    int newton_warm;        /* SRA warm-start iterations; default -1: 5 with the paper's rule, 0 with the line search */
    int gmres_restart;      /* GMRES(m) restart; default 0: up to gmres_max, within 256 MiB of basis */
    int gmres_max;          /* max GMRES iterations per step, default 200 */
    ds_globalise globalise; /* default ptc (the line search, regularised at the existence boundary) */
    double factor_mb;       /* full graph, direct: MiB of LU factors kept between evaluations, default 768 */
    ds_start start;         /* start point when no warm start is given, default auto */
    /* edsp */
    int edsp_max_refresh; /* default 8 */
    double edsp_damping;  /* mask costs = (1-d) previous mask costs + d current; 1 = plain rebuild */
    /* cuda backend: 1 runs its kernels in CPU emulation (tests, machines
     * without a GPU), default 0. The engine does not read
     * DILLSUE_CUDA_EMULATE; the program sets this from it. */
    int cuda_emulate;
    /* anderson: the mixing beta of the candidate x + beta r - (dX + beta dR)
     * gamma. 0 (default): adaptive, the step the safeguard's SRA search last
     * accepted, doubled after each accepted Anderson step, at most 1; a value
     * in (0, 1] is used fixed (1: the undamped candidate, the only rule
     * until the adaptive one); anything else counts as 0. */
    double aa_mixing;
} ds_config;

void ds_config_default(ds_config *cfg);

/* ------------------------------------------------------------- telemetry */

typedef enum {
    DS_STEP_START = 0,      /* the start point (iteration 0) */
    DS_STEP_MSA,            /* harmonic step */
    DS_STEP_SRA,            /* SRA accepted after `halvings` halvings */
    DS_STEP_SRA_HARMONIC,   /* SRA fell back to the harmonic step */
    DS_STEP_ANDERSON_OK,    /* Anderson candidate accepted */
    DS_STEP_ANDERSON_REJ,   /* Anderson candidate rejected, SRA step taken */
    DS_STEP_NEWTON_OK,      /* Newton step accepted */
    DS_STEP_NEWTON_REJ,     /* Newton step rejected, MSA fallback */
    DS_STEP_NEWTON_WARM,    /* SRA warm-start step of Newton */
    DS_STEP_MASK_REFRESH,   /* eDSP mask rebuilt before this iteration */
    DS_STEP_NEWTON_RECOVER, /* line search on the Newton direction failed: safeguarded SRA step */
    DS_STEP_N
} ds_step_kind;
const char *ds_step_name(ds_step_kind k);

typedef enum {
    DS_PHASE_COSTS = 0,
    DS_PHASE_BELLMAN,
    DS_PHASE_ABSORB,
    DS_PHASE_DERIV,
    DS_PHASE_OTHER,
    DS_PHASE_N
} ds_phase;
const char *ds_phase_name(ds_phase p);

/* One outer iteration. Immutable once published. */
typedef struct ds_iter_record {
    int iter;       /* 0 = start point */
    double gap_rel; /* ||f(x)-x|| / ||x|| at the iterate after this step */
    double merit;   /* ||f(x)-x||^2 */
    ds_step_kind kind;
    double step;                  /* step length taken (alpha) */
    int halvings;                 /* SRA halvings tried (sra-harmonic: 8 + the harmonic step's; docs/files.md) */
    int aa_used;                  /* Anderson window used this step */
    int aa_restart;               /* 1 if the history was reset */
    double aa_reg;                /* regularisation actually used */
    int gmres_iters;              /* GMRES iterations of this Newton step */
    double gmres_resid;           /* achieved relative GMRES residual */
    double forcing;               /* inexact-Newton forcing term */
    int inner_passes;             /* max Bellman passes over destinations (last eval) */
    double inner_resid;           /* max |dV| at the end of the Bellman passes */
    int absorb_passes;            /* max absorption passes */
    int evals;                    /* loading-map evaluations so far in this run */
    int jv;                       /* J*v products so far */
    int mask_refresh;             /* eDSP refresh this iteration belongs to (0 = first mask) */
    int mask_added, mask_removed; /* links changed at the refresh preceding this iter */
    int mask_oscillation;         /* 1 if the mask equals an earlier one */
    double t_phase[DS_PHASE_N];   /* seconds spent per phase in this iteration */
    /* certificate of the iterate: per cent of the demand that did not reach its
     * destination in the evaluation at this iterate (-1: not measured, GPU),
     * and the largest node imbalance of x (flow conservation, vehicles) */
    double lost_pct, imbalance;
    /* direct inner solver, this iteration's evaluations: destinations factorised
     * afresh (pivoted LU) and refactored with their kept pivot order */
    int lu_fresh, lu_reused;
    int backend;      /* ds_backend that did the work */
    double t_run;     /* seconds since the run started, pauses excluded */
    double timestamp; /* wall clock, seconds since the epoch */
    /* direct inner solver: destinations solved with the evaluations' shared LU
     * (at the end: the fields above keep their offsets) */
    int lu_shared;
    /* --globalise ptc: 1/dtau of this step's direction ((1 + 1/dtau) I - J) d
     * = F; 0 for a plain Newton direction */
    double ptc_shift;
} ds_iter_record;

typedef enum {
    DS_STATUS_PENDING = 0,
    DS_STATUS_RUNNING,
    DS_STATUS_CONVERGED,
    DS_STATUS_MAX_ITER,
    DS_STATUS_ILL_POSED,
    DS_STATUS_CANCELLED,
    DS_STATUS_ERROR
} ds_status;
const char *ds_status_name(ds_status s);
/* Words in an ill-posed run's reason (ds_run_reason) where the proof holds for
 * every tau, mu and --cap (cycles of links that cost 0 at every flow), so that
 * a front end does not suggest a larger tau or a run without the cap. */
#define DS_REASON_ANY_DISPERSION "at any dispersion and any cap"
/* Process exit code of DESIGN.md 3 for a final status. */
int ds_status_exit_code(ds_status s);

/* ------------------------------------------------------------------- runs */

typedef struct ds_run ds_run;

/* Events delivered to monitors, on the engine's thread. Keep them cheap. */
/* DS_EVENT_SETUP: a set-up step begins (message = what, e.g. "sparse LU
 * analysis"; progress = fraction of the set-up done, 0..1). Set-up (cbar, the
 * filters, the ill-posedness bound, the inner solver, the start point) runs in
 * ds_run_execute, on the engine's thread; ds_run_create is cheap. */
/* DS_EVENT_PROGRESS: an iteration is taking long (message = "iteration K in
 * progress: evaluations E, J v J, S s in it"): sent from within an iteration
 * when no event came for the run's progress interval (ds_run_set_progress),
 * so that a front end can show that a planning-scale iteration of minutes is
 * working. Timing-dependent: never part of a result. */
typedef enum { DS_EVENT_ITER = 0, DS_EVENT_MESSAGE, DS_EVENT_DONE, DS_EVENT_SETUP, DS_EVENT_PROGRESS } ds_event_kind;
typedef struct ds_event {
    ds_event_kind kind;
    const ds_iter_record *rec; /* DS_EVENT_ITER */
    const char *message;       /* DS_EVENT_MESSAGE / SETUP / PROGRESS: one line, no newline */
    ds_status status;          /* DS_EVENT_DONE */
    double progress;           /* DS_EVENT_SETUP */
} ds_event;
typedef void (*ds_monitor_fn)(ds_run *run, const ds_event *ev, void *ctx);

/* Create a run (copies cfg and warm flows; keeps a pointer to net, which must
 * outlive the run). Returns NULL on a bad configuration, with err filled:
 * every numeric field by the rule of its setting (ds_setting_check: the
 * rules of the command line), enums within range, warm flows finite and >= 0. */
ds_run *ds_run_create(const ds_network *net, const ds_config *cfg, ds_error *err);
/* Monitors are called in the order added, at most 8. Add before
 * ds_run_execute: 0, or -1 (nothing added) once execute has begun, for the
 * ninth, or for a NULL run or fn. */
int ds_run_add_monitor(ds_run *run, ds_monitor_fn fn, void *ctx);
/* DS_EVENT_PROGRESS: the first after first_s seconds of an iteration without
 * any event, then every every_s seconds (defaults 10 and 30; first_s < 0:
 * never). Call before ds_run_execute: 0, or -1 (unchanged) once execute has
 * begun, for a NaN or for a NULL run. */
int ds_run_set_progress(ds_run *run, double first_s, double every_s);
/* Solve. Blocks until done; call on any thread. Returns the final status.
 * A run executes once: a second call returns DS_STATUS_ERROR and changes
 * nothing (the first call's results stay); create another run to solve again.
 * A NULL run: DS_STATUS_ERROR. */
ds_status ds_run_execute(ds_run *run);
/* Thread-safe, from any thread, at any time. A NULL run: cancel and pause do
 * nothing, is_paused is 0, status DS_STATUS_ERROR. */
void ds_run_cancel(ds_run *run);
void ds_run_pause(ds_run *run, int paused);
int ds_run_is_paused(const ds_run *run);
ds_status ds_run_status(const ds_run *run);
/* Reason of the final status (e.g. the ill-posedness evidence); "" until the
 * run is done (the engine writes it while it runs), and for a NULL run. */
void ds_run_reason(const ds_run *run, char *buf, size_t n);
/* NULL for a NULL run. */
const ds_config *ds_run_config(const ds_run *run);
const ds_network *ds_run_network(const ds_run *run);
/* mu and cbar are known once set-up has derived them (before: mu 0, cbar
 * NAN; cbar stays NAN when mu was given and cbar was therefore not
 * computed); thread-safe, like
 * ds_run_times_get, so a front end may poll them while the run sets up.
 * NAN for a NULL run. */
double ds_run_mu(const ds_run *run);
double ds_run_cbar(const ds_run *run);

/* The engine's clock for a run, thread-safe at any time. */
typedef struct ds_run_times {
    double wall;   /* seconds since execute began, pauses excluded (to the end once done) */
    double setup;  /* seconds of set-up before iteration 0 (so far, while setting up) */
    double paused; /* seconds spent paused */
    double t_tol;  /* wall (pauses excluded) when gap_rel first fell below tol; -1 if never */
} ds_run_times;
/* A NULL run: every time 0, t_tol -1. */
void ds_run_times_get(const ds_run *run, ds_run_times *t);
/* Where a run is: 0 not started, 1 setting up, 2 iterating, 3 done. While
 * setting up, *progress (0..1) and label (what it is doing) are filled; while
 * iterating, label says the work of the iteration in progress ("iteration
 * K in progress: evaluations E, J v J") and *progress is 1. A NULL run: -1,
 * *progress 0, label "". */
int ds_run_phase(const ds_run *run, double *progress, char *label, size_t n);

/* End-of-run certificate beside the residual: demand that reached its
 * destination in the last evaluation at the final iterate against the demand
 * of the network (the difference is lost: no path, or in transit when an
 * inner solve was truncated), and the largest violation of flow conservation
 * by the result flows, max over nodes of |inflow - outflow - (arrivals -
 * departures)| with arrivals/departures the assigned demand. */
typedef struct ds_certificate {
    int valid;             /* 0 until the run has an iterate */
    double demand_total;   /* all OD demand */
    double demand_loaded;  /* demand of OD pairs with a path (assigned) */
    double demand_arrived; /* demand absorbed at its destination, last evaluation */
    double lost_pct;       /* 100 (total - arrived) / total */
    double max_imbalance;  /* vehicles (flow units) */
    int imbalance_node;    /* 0-based node attaining it, -1 if none */
    /* The mean trip at the result: links per trip, sum of link flows over the
     * demand assigned (above n_nodes - 1 some vehicles repeat a node: routes
     * with cycles), and its cost against cbar, sum x c(x) over the demand
     * assigned times cbar (NAN where cbar is not known: mu given). Both NAN
     * without assigned demand. */
    double mean_links;
    double mean_cost_cbar;
} ds_certificate;
/* Filled once execute has returned with an iterate; returns 0, or -1 (c->valid = 0;
 * also for a NULL run). */
int ds_run_certificate(const ds_run *run, ds_certificate *c);
/* OD pairs that the run's filter leaves without a path, and their demand (not
 * assigned; the same for every filter: a DAG keeps every node with a path).
 * Read once ds_run_execute has returned (set-up builds the loading map on the
 * engine's thread): returns 0, or -1 before that, where set-up failed first or
 * for a NULL run.
 * During the run, the DS_EVENT_MESSAGE after set-up names them. */
int ds_run_lost_demand(const ds_run *run, int *n_od, double *demand);

/* Telemetry: lock-free, never blocks the engine. count = records published
 * (0 for a NULL run, whose copy copies nothing). */
size_t ds_run_history_count(const ds_run *run);
/* Copies records [from, from+max) that are published; returns how many. */
size_t ds_run_history_copy(const ds_run *run, size_t from, ds_iter_record *out, size_t max);

/* Totals over a run's records: what the safeguards did, summed. */
typedef struct ds_totals {
    int iters;
    int steps[DS_STEP_N]; /* count per step kind */
    long halvings;        /* SRA/MSA/Newton step halvings */
    long gmres_iters;
    int aa_restarts;
    long lu_fresh, lu_reused; /* direct inner solver: per-destination factorisations */
    int mask_refreshes, mask_oscillations;
    long mask_added, mask_removed;
    int evals, jv; /* of the last record */
    double t_phase[DS_PHASE_N];
    long lu_shared; /* direct inner solver: destinations solved with the shared LU */
    int ptc_steps;  /* Newton steps on a regularised direction (--globalise ptc) */
} ds_totals;
void ds_totals_compute(const ds_iter_record *recs, size_t n, ds_totals *t);
/* One line for people: "steps: newton 6 ok / 0 rejected, ... | evals 21 | J*v 45". */
void ds_totals_format(const ds_totals *t, char *buf, size_t n);

/* Latest published iterate and its image, for stall diagnosis (copies n_links
 * values into each non-NULL buffer). Returns the iteration number or -1 if none.
 * While the run goes, an iteration published while another thread was in this
 * call may be skipped (the engine never waits for it); once execute has
 * returned it is the last published iterate. -1 for a NULL run. */
int ds_run_snapshot(const ds_run *run, double *x, double *fx, double *cost);

/* Results, valid once execute returned (NULL before, also while another
 * thread is in execute; a run that ended without an iterate, see
 * ds_run_history_count, or with an error hands back x = 0 or its last
 * iterate: no result). Owned by the run. NULL for a NULL run. */
const double *ds_run_flows(const ds_run *run);
const double *ds_run_costs(const ds_run *run);
/* Frees the run. While ds_run_execute is still in progress on another thread
 * (a final ds_run_status comes before the monitors have had DS_EVENT_DONE and
 * execute has returned), it cancels the run and waits until execute has
 * returned; called from a monitor, it cancels the run and the run is freed as
 * ds_run_execute returns (whose caller must not touch it then). No other call
 * on the run may be in progress on another thread, or follow. NULL: nothing. */
void ds_run_free(ds_run *run);

/* -------------------------------------------------------------- bindings */
/* For other languages (python/dillsue uses them through ctypes): no struct
 * layout needed but ds_error's. */

/* A configuration with the defaults (free with ds_config_free). */
ds_config *ds_config_new(void);
void ds_config_free(ds_config *cfg);
/* Sets one setting by name, checked by the same rule as the command line:
 * tau, mu, tol, max_iter, threads, cap, toll_factor, distance_factor,
 * inner_max, edsp_refresh, edsp_damping, newton_warm, factor_mb, cuda_emulate
 * (numbers) or filter, solver, backend, inner, globalise, start (names; an
 * unknown one is refused with the names it takes). Of tau and mu the last set
 * counts. Returns 0 or -1 with err filled. */
int ds_config_set(ds_config *cfg, const char *key, const char *value, ds_error *err);
/* Warm-start flows (n_links values, kept by pointer until ds_run_create copies
 * them; NULL: none). ds_run_create checks them (finite, >= 0). 0, or -1. */
int ds_config_set_warm(ds_config *cfg, const double *flows);
/* The end-of-run certificate by field name (ds_certificate: demand_total,
 * demand_loaded, demand_arrived, lost_pct, max_imbalance, mean_links,
 * mean_cost_cbar, and imbalance_node as the file's node id): NAN where the
 * run has none yet, the name is unknown or run is NULL. Names: i = 0, 1, ... (NULL past the
 * end; imbalance_node is not listed). */
double ds_run_certificate_field(const ds_run *run, const char *name);
const char *ds_certificate_field_name(int i);
void ds_network_counts(const ds_network *net, int *n_nodes, int *n_links, int *n_zones, int *n_od);
/* The files' ids of each link's nodes, in link order (arrays of n_links). */
void ds_network_link_ids(const ds_network *net, int *init_id, int *term_id);
const char *ds_network_name(const ds_network *net);
/* Names of the scalar numeric fields of ds_iter_record, i = 0, 1, ... (NULL
 * past the end): every field but the array t_phase (its phases are the
 * history CSV's t_*_s columns, ds_run_history_copy has them). */
const char *ds_history_column_name(int i);
/* Field `name` of the published records [0, max) as doubles; returns how many,
 * or -1 if the name is unknown, or run or name is NULL (or out, with max > 0). */
long ds_run_history_column(const ds_run *run, const char *name, double *out, size_t max);

/* ------------------------------------------------------ loading map (low level) */

/* cbar: demand-weighted mean over OD pairs of the free-flow shortest-path cost
 * (centroids honoured). */
double ds_network_cbar(const ds_network *net, const ds_cost_params *cp);
/* The same with `threads` workers (0 = all cores): the same value, bit for bit. */
double ds_network_cbar_threads(const ds_network *net, const ds_cost_params *cp, int threads);
/* mu = tau / cbar, the one rule of `solve`, `load`, `sweep` and the TUI: 0,
 * or -1 with why (what is wrong with cbar, in words, one phrase) where that
 * is not a positive finite number. filter: the filter's name, for the words. */
int ds_mu_from_tau(double tau, double cbar, const char *filter, double *mu, char *why, size_t n);
/* Hop diameter: max over reachable (node, dest) pairs of the fewest-link count. */
int ds_network_hop_diameter(const ds_network *net);
int ds_network_hop_diameter_threads(const ds_network *net, int threads);

typedef struct ds_loader ds_loader;
/* A loading map for a network, variant and mu, with its worker pool. */
ds_loader *ds_loader_create(const ds_network *net, const ds_cost_params *cp, ds_filter filter, double mu, int threads,
                            int inner_max, double inner_tol, ds_error *err);
/* Progress of the per-destination part of a loader's set-up (`what` is
 * "filter DAGs" or "reachability": a shortest-path search a destination),
 * called on the creating thread between groups of destinations with `done`
 * of `total` finished. A nonzero return stops the set-up: the creation then
 * fails and err says "cancelled". */
typedef int (*ds_loader_progress_fn)(void *ctx, const char *what, int done, int total);
/* ds_loader_create with progress (and a way to stop) on large networks; the
 * loader is the same, bit for bit. */
ds_loader *ds_loader_create_watched(const ds_network *net, const ds_cost_params *cp, ds_filter filter, double mu,
                                    int threads, int inner_max, double inner_tol, ds_loader_progress_fn progress,
                                    void *progress_ctx, ds_error *err);
void ds_loader_free(ds_loader *ld);
/* f = f(x). Returns 0, or 1 if f(x) does not exist (Bellman diverges: the
 * weight matrix at these costs has spectral radius >= 1) or cannot be trusted
 * (the full-graph values did not reach max |dV| <= 1e-10 within inner_max
 * passes; stats tell which), or -1 on error. */
int ds_loader_eval(ds_loader *ld, const double *x, double *f);
/* Statistics of the last eval. */
typedef struct ds_load_stats {
    int bellman_passes, absorb_passes;  /* max over destinations */
    double bellman_resid, absorb_resid; /* max over destinations */
    double t_phase[DS_PHASE_N];         /* seconds in the last eval */
    int diverged_dest;                  /* first destination that diverged, or -1 */
    int unconverged;                    /* 1 if that destination's values were merely not converged
                          within inner_max passes (still contracting), 0 if they diverge */
    double contraction;                 /* last per-pass contraction ratio of that destination */
    /* direct inner solver: destinations factorised afresh (pivoted LU), with
     * the kept pivot order (refactor), and of those refined iteratively */
    int lu_fresh, lu_reused, lu_refined;
    int lu_shared; /* solved with the evaluation's one shared LU (ds_loader_set_shared_lu) */
} ds_load_stats;
void ds_loader_stats(const ds_loader *ld, ds_load_stats *st);
/* f at given link costs t (instead of flows); same return values. */
int ds_loader_eval_costs(ds_loader *ld, const double *t, double *f);
/* OD pairs without any path in the variant's link set, and their demand. Such
 * demand cannot be assigned; front ends must say so. */
void ds_loader_lost_demand(const ds_loader *ld, int *n_od, double *demand);
/* Full graph: switch between the exact sparse-LU inner solve and passes. A
 * new loader uses passes. Returns 0, or -1 if out of memory. */
int ds_loader_set_inner(ds_loader *ld, ds_inner mode);
/* Keep the converged inner state of each eval so that ds_loader_jv can
 * differentiate at that point (costs memory ~ links x destinations). */
int ds_loader_set_keep(ds_loader *ld, int keep);
/* out = J v, J = df/dx at the x of the last successful ds_loader_eval (which
 * must have run with keep on): forward derivative through the converged Bellman
 * values and the absorption (implicit function theorem). Returns 0 or -1. */
int ds_loader_jv(ds_loader *ld, const double *x, const double *v, double *out);
/* out = (df/dt) w: the same derivative along a change w of the link costs
 * (ds_loader_jv is this with w = t'(x) v). For a solver in cost variables
 * (bench/costnewton.c). Returns 0 or -1. */
int ds_loader_jv_costs(ds_loader *ld, const double *w, double *out);
/* eDSP: rebuild the per-destination DAGs by the DSP rule at costs t (the
 * caller passes damped costs for a damped update). Reports links added and
 * removed summed over destinations and a signature of the new mask (equal
 * signatures = equal masks, for oscillation detection). Returns 0 or -1. */
int ds_loader_refresh_mask(ds_loader *ld, const double *t, long *added, long *removed, uint64_t *signature);
/* Spectral radius of the exponentiated weight matrix W(t) (w_e = exp(-mu t_e),
 * usable links, destination rows removed), maximised over destinations.
 * *lower is a rigorous Collatz-Wielandt lower bound, *estimate the power-
 * iteration estimate, *dest the destination attaining them. */
void ds_loader_rho(ds_loader *ld, const double *t, double *lower, double *estimate, int *dest);
/* The links of destination di's Perron support at costs t (the cycles that
 * make the spectral radius large): sets mark[e] = 1 for them, returns how many
 * were newly marked. */
/* The power-iteration estimate alone (no Collatz-Wielandt bound, so no
 * verdict can rest on it), all destinations; the worst in *dest. */
void ds_loader_rho_estimate(ds_loader *ld, const double *t, double *estimate, int *dest);
int ds_loader_rho_support(ds_loader *ld, const double *t, int di, unsigned char *mark);
/* cbar from the loader's free-flow trees (the DSP build's, or the full graph's
 * reachability search), destinations in parallel; equal to ds_network_cbar. */
double ds_loader_cbar(ds_loader *ld);
/* Change mu (forgets warm starts and kept state). Returns 0, or -1 if mu <= 0. */
int ds_loader_set_mu(ds_loader *ld, double mu);
/* Direct inner solver: when a solve with the kept pivot order says f does not
 * exist, believe it instead of deciding afresh with a pivoted LU (for trial
 * points, whose only consequence is a shorter step; never for verdicts).
 * Off by default. */
void ds_loader_set_quick_reject(ds_loader *ld, int on);
/* Full graph only: links outside destination d's DSP DAG (free-flow costs)
 * weigh lambda exp(-mu t) in d's problem, i.e. cost t - log(lambda)/mu;
 * 0 < lambda <= 1, 1 (the default) is the full graph, lambda -> 0 the DSP
 * variant (--start relax continues from one to the other). Returns -1 for
 * another filter, a lambda outside (0, 1] or out of memory. */
int ds_loader_set_relax(ds_loader *ld, double lambda);
/* Full graph, direct inner solver: unreduced solves (on, the default): the
 * destinations that are centroids with one LU of I - W per evaluation, shared
 * by all of them, the others with their own unreduced matrix; off: every
 * destination by its own reduced LU (the reference the tests compare with).
 * Flows agree to round-off; docs/model.md "Shared factors". */
void ds_loader_set_shared_lu(ds_loader *ld, int on);
/* Direct inner solver: memory for LU factors kept between evaluations (and
 * for J v), in bytes; call before ds_loader_set_inner. Destinations beyond it
 * factorise afresh each time. Default 768 MiB. */
void ds_loader_set_factor_budget(ds_loader *ld, double bytes);
/* Direct inner solver: destinations whose factors are kept, of all, and the
 * estimated MiB of the kept factors and of all of them (0s without it). */
void ds_loader_factor_plan(const ds_loader *ld, int *kept, int *total, double *kept_mib, double *all_mib);
/* Full graph: bytes of per-destination state the loader keeps besides the
 * factors (warm-start values; with keep, Newton's J v state: values,
 * absorption and link probabilities), at least (every destination served by
 * the shared LU, whose probabilities are kept up to a budget and recomputed
 * beyond it) and at most (every destination by its own LU). */
void ds_loader_state_plan(const ds_loader *ld, int keep, double *least, double *most);
/* Demand injected and demand absorbed at the destinations in the last eval. */
void ds_loader_arrivals(const ds_loader *ld, double *loaded, double *arrived);
/* bal[dest] += sign q, bal[orig] -= sign q for every OD pair with a path. */
void ds_loader_node_demand(const ds_loader *ld, double *bal, double sign);

#ifdef __cplusplus
}
#endif
#endif
