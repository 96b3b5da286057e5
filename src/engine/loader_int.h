/* loader_int.h - internals of the CPU loading map shared by loader*.c. */
#ifndef DS_LOADER_INT_H
#define DS_LOADER_INT_H
#include <stdatomic.h>
#include "dillsue.h"
#include "pool.h"
#include "sp.h"

/* At most this many destination blocks: the block size depends on the network
 * only, so the summation order (and hence the flows) is thread-count free. A
 * block holds at least JV_GROUP destinations (below), so that the shared-LU
 * J v solves that many right-hand sides at once: Anaheim full (38
 * destinations, one a block before) 1.4x faster a J v. */
#define LD_MAX_BLOCKS 64
#define LD_REDUCE_CHUNK 1024
/* Full-graph values not converged to this max |dV| within inner_max passes
 * make f(x) untrustworthy: the eval reports it instead of returning it. */
#define LD_TRUST_TOL 1e-10
/* Full graph, direct: the link probabilities that the destinations served by
 * the shared LU keep for J v, at most this many bytes (the rest recompute
 * theirs, loader_direct.c). Recomputing made J v 16 % slower where half the
 * destinations of a 13,000-node network did (budget 256 MiB against its 511
 * MB), so only the far larger ones do: Austin-SDB's are 167 MB, a 33,000-node
 * network's 3.3 GB. */
#define LD_PROB_BUDGET (1024.0 * 1024 * 1024)
/* DSP: free-flow distances within this relative tolerance are a tie. */
#define LD_TIE_REL 1e-12

typedef struct ld_dag {
    int n;       /* nodes on routes from the origins, topological (increasing key), dest first */
    int *node;   /* [n] */
    int *lstart; /* [n+1] links of node[i] are link[lstart[i] .. lstart[i+1]) */
    int *link;   /* link ids */
    int *hpos;   /* [n_links] position in node[] of link[k]'s head (< the tail's) */
    int *opos;   /* [this destination's OD pairs] position of the origin, -1 if not in the DAG */
    int n_links;
    int n_multi; /* links of nodes with more than one link (the P that Newton keeps) */
} ld_dag;

typedef struct ld_scratch {
    sp_work sp;
    double *dist, *z, *r, *phi; /* [n] */
    int *hops, *order, *rank;   /* [n] */
    unsigned char *stop;        /* [n] the DAG build's origins (0 between builds) */
    int *ls;                    /* [n+1] */
    double *w, *a;              /* [m] */
    int *vi, *lk, *link_tmp;    /* [m] */
    double t_bellman, t_absorb, t_deriv;
    /* derivative passes */
    double *dv, *dr, *dphi; /* [n] */
    double *dp;             /* [m] */
    double *trelax;         /* [m] costs of one destination under the relax penalty */
} ld_scratch;

/* Converged inner state of one destination, kept for J*v (Newton). On a DAG
 * with `multi` set, P holds only the links of nodes with more than one DAG
 * link, in node order (cnt of them): a node's only link has P = 1 exactly
 * (a one-term log-sum-exp), and most DAG nodes have one (Berlin-Center dsp:
 * 89 % of the links, Austin-SDB 62 %). */
typedef struct ld_keep {
    int R, cnt, cap_R, cap_cnt, multi;
    int *order, *ls, *lk, *vi;
    double *P, *phi;
} ld_keep;

struct ds_loader {
    const ds_network *net;
    ds_loader_progress_fn progress; /* during ds_loader_create_watched only */
    void *progress_ctx;
    int stopped; /* the progress function asked to stop */
    /* a run's cancel flag (ld_create_cancellable; NULL: none), read once a
     * destination by the long loops (set-up searches, evaluations, J v), which
     * then skip the destinations left and report LD_CANCELLED */
    const atomic_int *cancel;
    ds_cost_params cp;
    ds_filter filter;
    double mu;
    int inner_max, absorb_max;
    double inner_tol;
    int n_dest, blk, n_blocks;
    ds_pool *pool;
    ld_scratch *scr;
    double *partial; /* [n_blocks * m] */
    /* DAG filters: the links each block's DAGs hold (blk_link[blk_start[b] ..
     * blk_start[b+1]), ascending) and, per link, the blocks holding it
     * (lnk_blk[lnk_start[e] .. lnk_start[e+1]), ascending): a block clears
     * and the reduction reads only those (ld_touch_index). NULL: every link. */
    int *blk_start, *blk_link, *lnk_start, *lnk_blk;
    double *tbuf, *tff;      /* current and free-flow costs */
    const double *t;         /* costs of the eval in progress */
    double *V;               /* full: warm-start values [n_dest * n] (--inner passes only) */
    unsigned char *v_valid;  /* [n_dest] 1 where V holds the last converged values; else V is read as -inf
                              * (so V's pages are touched only by the passes that use them: the
                              * direct inner solver never does, and a reset is n_dest bytes) */
    ld_dag *dag;             /* filtered variants: per destination */
    unsigned char *reach_ok; /* per OD pair: has a path */
    /* full graph: a bit per (destination, node), 1 = the node reaches the
     * destination (finite distance in the set-up's trees) */
    unsigned char *reach_node;
    size_t reach_stride;
    int lost_od;
    double lost_demand;
    double *od_ffcost; /* per OD pair: free-flow shortest-path cost (+inf: no path), for cbar */
    int have_ffcost;
    double *st_arrived, *st_loaded; /* per destination: demand absorbed at d / injected, last eval */
    int *st_bpass, *st_apass, *st_diverged;
    int *st_lu; /* direct: 0 no LU, 1 fresh pivoted LU, 2 refactored, 3 refactored + refined */
    double *st_bres, *st_ares, *st_ratio;
    ds_load_stats stats;
    int keep, keep_failed, kept_valid; /* store inner state for J*v */
    int quick_reject;                  /* direct: trust a refactored solve's failed existence test */
    double factor_budget;              /* direct: bytes of LU factors kept between evaluations */
    atomic_int jv_failed;              /* set by a worker whose J v part could not be formed (by several at once) */
    ld_keep *kept;                     /* [n_dest] */
    double *dtv;                       /* dt * v for J*v [m] */
    struct ld_direct_all *direct;      /* full graph, exact sparse LU inner solves (loader_direct.c) */
    /* full graph, --start relax: links outside destination d's DSP DAG weigh
     * relax_lambda exp(-mu t) (1: no penalty, the full graph); relax_dag has
     * one bit per (destination, link), 1 = in the DAG */
    double relax_lambda;
    unsigned char *relax_dag; /* [n_dest * relax_stride] */
    int dag_ff;               /* the DAGs are the ones built at creation from tff (no refresh since) */
    int dag_whole;            /* DAGs over every node the search reaches (the relax mask), not pruned */
    size_t relax_stride;
    /* the power iteration of the last spectral-radius estimate's centroid
     * destination (loader_jv.c), which ds_loader_rho_support resumes at the
     * same costs instead of repeating it */
    struct ld_power_cache {
        int valid, di, it, dead;
        int hits; /* supports that resumed it (tests) */
        double mu, lam, prev;
        double *t, *y; /* [m], [n] */
    } pw;
    int shared_lu_off;  /* ds_loader_set_shared_lu(ld, 0) */
    int jv_group_off;   /* tests: J v of shared destinations one by one */
    int keep_all_p;     /* tests: a DAG's kept P of every link (ld_keep's fallback) */
    double prob_budget; /* direct: bytes of the shared destinations' kept P (LD_PROB_BUDGET; tests change it) */
};

int ld_eval_costs(ds_loader *ld, const double *t, double *f);
/* What an evaluation or J v returns when the cancel flag stopped it (its
 * output untouched, the kept inner state no longer valid). */
#define LD_CANCELLED (-2)
static inline int ld_cancelled(const ds_loader *ld)
{
    return ld->cancel && atomic_load_explicit(ld->cancel, memory_order_relaxed) != 0;
}
/* ds_loader_create_watched that also looks at *cancel (may be NULL) per
 * destination, during the set-up and for the loader's life. */
ds_loader *ld_create_cancellable(const ds_network *net, const ds_cost_params *cp, ds_filter filter, double mu,
                                 int threads, int inner_max, double inner_tol, ds_loader_progress_fn progress,
                                 void *progress_ctx, const atomic_int *cancel, ds_error *err);
/* The costs destination di sees: t, or under the relax penalty t plus
 * -log(relax_lambda)/mu on the links outside its DSP DAG (in s->trelax). */
const double *ld_dest_costs(ds_loader *ld, int di, ld_scratch *s, const double *t);
void ld_reduce(ds_loader *ld, double *f);
/* The block buffer b cleared for a pass: the block's links, or all. */
void ld_block_clear(ds_loader *ld, int b, double *buf);
/* (Re)builds the touch index from ld->dag and clears every block buffer;
 * 0, or -1 out of memory (the index is then dropped: every link). */
int ld_touch_index(ds_loader *ld);
int ld_dag_rebuild(ds_loader *ld, const double *t, ld_dag *out);
void ld_dags_free(ds_loader *ld, ld_dag *dags);
/* Copy one destination's converged state: processing order, link ranges,
 * link ids, head nodes, choice probabilities and node demand phi (by node). */
int ld_keep_store(ds_loader *ld, int di, int R, const int *order, const int *ls, const int *lk, const int *vi,
                  const double *P, const double *phi_by_node);
void ld_keep_free(ds_loader *ld);
/* A DAG's compact kept P (see ld_keep), written by the evaluation as it goes:
 * a buffer for n_multi values (NULL: out of memory), then the count written. */
double *ld_keep_dag_buffer(ds_loader *ld, int di, int n_multi);
void ld_keep_dag_done(ds_loader *ld, int di, int R, int cnt);
int ld_direct_init(ds_loader *ld);
void ld_direct_free(ds_loader *ld);
/* Before each evaluation (ld->t set): the shared factors' matrix. */
void ld_direct_prepare(ds_loader *ld);
void ld_direct_eval(ds_loader *ld, int di, int worker, double *flow);
void ld_direct_jv(ds_loader *ld, int di, int worker, double *out);
/* J v of destinations served by the evaluation's shared factors, up to
 * JV_GROUP at once (the same bits as ld_direct_jv one by one); whether di is
 * one. jv_group_off (tests) turns the grouping off. */
#define JV_GROUP 4
int ld_direct_jv_shared(const ds_loader *ld, int di);
void ld_direct_jv_group(ds_loader *ld, const int *dis, int k, int worker, double *out);
/* Since the loader was made: unreduced attempts, those whose values were out
 * of range, and attempts skipped after such a failure (UR_SKIP_MAX). */
void ld_direct_ur_counts(const ds_loader *ld, long *tries, long *ranged, long *skips);
/* Bytes of the kept per-destination state (values, absorption, P) now. */
double ld_direct_state_bytes(const ds_loader *ld);
#endif
