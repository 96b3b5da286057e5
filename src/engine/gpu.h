/* gpu.h - the CUDA backend of the loading map and of J v (engine-internal).
 *
 * A ds_gpu_loader mirrors a CPU ds_loader (same network, cost parameters,
 * variant, mu, inner_max, inner_tol, DAGs and reachable OD pairs) and computes
 * the same f(x) and J v with the kernels of cuda/. With emulate = 1 the kernel
 * bodies run on the CPU (always available; used by the tests); with
 * emulate = 0 they run on the device through build/libdillsue_cuda.so, loaded
 * at run time, so the program builds and runs without CUDA.
 */
#ifndef DS_GPU_H
#define DS_GPU_H

#include <stddef.h>

#include "dillsue.h"

typedef struct ds_gpu_loader ds_gpu_loader;

/* BiCGSTAB iterations per exact inner solve at most (full graph, --inner
 * direct): a solve that has not reached its tolerance by then is reported
 * as unconverged, and the run's messages name this number. */
#define DS_GPU_KRYLOV_MAX 2000

/* 1 and "GPU: <name>, <mem>, driver x" if a usable device is there, else 0
 * and "GPU: none (<why>)". Cheap after the first call's dlopen. */
int ds_gpu_probe(char *info, size_t n);

/* Mirror cpu on the device (or in emulation). cpu must outlive the result;
 * device memory is allocated here, once. NULL with err filled on failure
 * (for emulate = 0 without a device: the "GPU: none (...)" text). */
ds_gpu_loader *ds_gpu_loader_create(ds_loader *cpu, int emulate, ds_error *err);

/* f = f(x) with x, f of n_links. 0 ok; 1 f(x) is not returned: either the
 * inner solve did not converge (st->unconverged = 1, with its residual and
 * pass or iteration count in bellman_* / absorb_*, diverged_dest the worst
 * destination: no verdict) or, with the exact solver, the solved system has
 * no positive solution (unconverged = 0, diverged_dest set: spectral radius
 * >= 1 at these costs, the exact existence test of loader_direct.c); -1
 * error (ds_gpu_last_error says why). st (may be NULL) also receives t_phase
 * (CUDA events on the device, wall clock in emulation). */
int ds_gpu_loader_eval(ds_gpu_loader *g, const double *x, double *f, ds_load_stats *st);

/* out = J v at the x of the last successful eval (no keep switch needed: the
 * converged state stays on the device). 0 or -1. t_phase[DS_PHASE_DERIV] in st. */
int ds_gpu_loader_jv(ds_gpu_loader *g, const double *x, const double *v, double *out, ds_load_stats *st);

/* After a successful ds_gpu_loader_eval: the demand that has a path and the
 * demand that reached its destination (the certificate's lost demand is the
 * network's total less the latter), as ds_loader_arrivals gives on the CPU. */
void ds_gpu_loader_arrivals(const ds_gpu_loader *g, double *loaded, double *arrived);

/* Full graph: the inner solver. DS_INNER_DIRECT (the default of a new
 * loader, as of ds_config): exact solves of the exponentiated linear systems
 * by batched BiCGSTAB; DS_INNER_PASSES: up to inner_max Jacobi Bellman passes
 * (the paper's L_val). Filtered variants are exact either way. Returns 0. */
int ds_gpu_loader_set_inner(ds_gpu_loader *g, ds_inner mode);
/* The Jacobi pass caps (copied from the CPU loader at creation, each then
 * raised by the trees' depth, ds_gpu_loader_pass_limit): Bellman passes per
 * evaluation (J v takes 4 x as many) and absorption passes, set here exactly
 * (no depth added); for tests that need passes to run out. */
void ds_gpu_loader_set_passes(ds_gpu_loader *g, int inner_max, int absorb_max);
/* The Bellman passes an evaluation may take with --inner passes: inner_max
 * plus the free-flow trees' depth in links (Jacobi carries a change one link
 * a pass); the reasons that name the limit say this number. */
int ds_gpu_loader_pass_limit(const ds_gpu_loader *g);
/* The inner solver in words, for messages. */
const char *ds_gpu_loader_inner(const ds_gpu_loader *g);

/* Full graph, --start relax: the penalty of the CPU loader's current lambda
 * (call ds_loader_set_relax(cpu, lambda) first, then this with the same
 * lambda; 1 removes it). 0 or -1 (ds_gpu_last_error says why). */
int ds_gpu_loader_set_relax(ds_gpu_loader *g, double lambda);

/* Re-read the CPU loader's DAGs after ds_loader_refresh_mask (edsp). 0 or -1. */
int ds_gpu_loader_sync_dags(ds_gpu_loader *g);

/* "cuda" or "emulation". */
const char *ds_gpu_loader_kind(const ds_gpu_loader *g);
/* Level sweeps recorded so far (each is then replayed as one CUDA graph
 * launch while its parameters stay the same; tests and diagnostics). */
int ds_gpu_loader_recorded(const ds_gpu_loader *g);

void ds_gpu_loader_free(ds_gpu_loader *g);

/* Text of the last failure of a ds_gpu_* call on this thread. */
const char *ds_gpu_last_error(void);
#endif
