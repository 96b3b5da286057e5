/* run_int.h - the run object, as the outer solvers see it (engine-internal). */
#ifndef DS_RUN_INT_H
#define DS_RUN_INT_H
#include <pthread.h>
#include <stdatomic.h>

#include "dillsue.h"

#define RUN_MAX_MONITORS 8
#define TL_CHUNK 4096
#define TL_MAX_CHUNKS 4096

/* Result of one loading-map evaluation inside a run. */
enum { EV_OK = 0, EV_UNDEFINED = 1, EV_CANCELLED = 2, EV_ERROR = -1 };

struct ds_run {
    const ds_network *net;
    ds_config cfg;
    double *warm;
    double mu, cbar;
    ds_loader *ld;
    struct ds_gpu_loader *gpu; /* backend cuda: mirrors ld on the device */
    int n;                     /* links */
    /* the iterate */
    double *x, *fx, *r; /* x_l, f(x_l), f(x_l) - x_l */
    double merit, gap;
    int iter;        /* l */
    double *xt, *ft; /* trial point and its image (line searches) */
    double *tcost;   /* scratch costs */
    /* the point the loader's inner state (for J v) belongs to: the last
     * successful evaluation (state_ok 0: none, or a setting changed since) */
    double *x_state, *f_state;
    int state_ok;
    /* per-iteration accounting, filled by run_eval and the solvers */
    ds_iter_record cur;
    int evals, jvs;
    int jv_fail_said;     /* a failed J v has been said (once a run) */
    int last_unconverged; /* why the last EV_UNDEFINED happened */
    int last_overflow;    /* 1 + the link whose cost overflowed there, or 0 */
    double last_contraction;
    /* control */
    atomic_int status, cancel, paused;
    pthread_mutex_t pause_mu;
    pthread_cond_t pause_cv;
    char reason[1024];
    /* telemetry: chunks never move once allocated; count is published last */
    ds_iter_record *chunks[TL_MAX_CHUNKS];
    atomic_size_t count;
    /* snapshot for the front end */
    pthread_mutex_t snap_mu;
    double *snap_x, *snap_fx, *snap_cost;
    int snap_iter;
    /* monitors */
    ds_monitor_fn mon[RUN_MAX_MONITORS];
    void *mon_ctx[RUN_MAX_MONITORS];
    int n_mon;
    double t_start, t_iter0;
    double t_progress; /* the last loader progress line (set-up) */
    /* the engine's clock (see ds_run_times): guarded by pause_mu */
    double t_setup_end, t_end, t_paused, t_pause_began, t_tol;
    atomic_int phase;    /* 0 not started, 1 setting up, 2 iterating, 3 done */
    atomic_int executed; /* ds_run_execute was called (a run executes once) */
    /* the iteration in progress (ds_run_phase, DS_EVENT_PROGRESS): its number
     * and its evaluations and J v so far; reset by each published iteration */
    atomic_int it_next, it_evals, it_jvs;
    double progress_first, progress_every; /* ds_run_set_progress */
    double t_last_event, t_next_progress;  /* engine thread: the last event, the next PROGRESS due */
    double setup_progress;                 /* guarded by snap_mu, with setup_label */
    char setup_label[128];
    /* certificate: demand of the last accepted evaluation */
    double ev_loaded, ev_arrived, acc_loaded, acc_arrived;
    int have_acc;
    double *node_bal;     /* [n_nodes] scratch for the imbalance */
    char start_desc[512]; /* which start point was used and why */
    int start_sub_iters;
    _Atomic(ds_run *) child; /* a sub-run (the DSP start), cancelled with this run */
    /* ds_run_execute in progress (guarded by pause_mu, signalled on done_cv
     * when it returns): ds_run_free waits for it, and one called from a
     * monitor on the engine thread is carried out when execute returns */
    int in_execute, free_pending;
    pthread_t engine;
    pthread_cond_t done_cv;
    /* results */
    double *res_flows, *res_costs;
};

/* Evaluate f at x into fx and its merit ||fx - x||^2; accumulates phase times
 * and the eval count into run->cur. */
int run_eval(ds_run *run, const double *x, double *fx, double *merit);
/* Accept (xt, ft, merit) as the new iterate. */
void run_accept(ds_run *run, const double *xt, const double *ft, double merit);
void run_message(ds_run *run, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
int run_cancelled(const ds_run *run);
/* J v at the current iterate on the run's backend; accumulates the time. */
int run_jv(ds_run *run, const double *v, double *out);
double run_now(void);
/* Seconds since execute began, pauses excluded. */
double run_elapsed(ds_run *run);
/* A set-up step begins: published for ds_run_phase and as DS_EVENT_SETUP. */
void run_setup_step(ds_run *run, double progress, const char *label);

/* Outer solvers: step advances x_l to x_{l+1} (run->x/fx/merit updated) and
 * fills the record's kind/step/halvings/solver fields. Returns an EV_ code. */
typedef struct solver_ops {
    const char *name;
    int (*init)(ds_run *run, void **state);
    int (*step)(ds_run *run, void *state, ds_iter_record *rec);
    void (*reset)(ds_run *run, void *state); /* forget history (eDSP mask change) */
    void (*free)(void *state);
} solver_ops;

extern const solver_ops solver_msa_ops, solver_sra_ops, solver_anderson_ops, solver_newton_ops;

/* The safeguarded SRA step, shared by SRA, Anderson's fallback and Newton's
 * warm start. */
int solver_sra_step(ds_run *run, ds_iter_record *rec);
/* A trial point x + a r already evaluated and rejected (rc EV_UNDEFINED, or
 * EV_OK with W >= W(x)): the search takes its answer instead of evaluating
 * it again (Anderson's candidate x + beta r with an empty history). */
typedef struct sra_known {
    double a, W;
    int rc;
} sra_known;
int solver_sra_step_known(ds_run *run, ds_iter_record *rec, const sra_known *known);
/* The same search, where no halving lowers W taking the trial of least W
 * instead of the harmonic step (*took_least = 1): Newton's recovery. */
int solver_sra_least_step(ds_run *run, ds_iter_record *rec, int *took_least);
/* The harmonic (MSA) step 1/(l+1), halved only where f does not exist. */
int solver_msa_step(ds_run *run, ds_iter_record *rec);
#endif
