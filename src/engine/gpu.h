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

/* 1 and "GPU: <name>, <mem>, driver x" if a usable device is there, else 0
 * and "GPU: none (<why>)". Cheap after the first call's dlopen. */
int ds_gpu_probe(char *info, size_t n);

/* Mirror cpu on the device (or in emulation). cpu must outlive the result;
 * device memory is allocated here, once. NULL with err filled on failure
 * (for emulate = 0 without a device: the "GPU: none (...)" text). */
ds_gpu_loader *ds_gpu_loader_create(ds_loader *cpu, int emulate, ds_error *err);

/* f = f(x) with x, f of n_links. 0 ok, 1 f(x) does not exist (the Bellman
 * values diverge), -1 error (ds_gpu_last_error says why). st (may be NULL)
 * receives passes, residuals, diverged_dest and t_phase (CUDA events on the
 * device, wall clock in emulation). */
int ds_gpu_loader_eval(ds_gpu_loader *g, const double *x, double *f, ds_load_stats *st);

/* out = J v at the x of the last successful eval (no keep switch needed: the
 * converged state stays on the device). 0 or -1. t_phase[DS_PHASE_DERIV] in st. */
int ds_gpu_loader_jv(ds_gpu_loader *g, const double *x, const double *v, double *out, ds_load_stats *st);

/* Re-read the CPU loader's DAGs after ds_loader_refresh_mask (edsp). 0 or -1. */
int ds_gpu_loader_sync_dags(ds_gpu_loader *g);

/* "cuda" or "emulation". */
const char *ds_gpu_loader_kind(const ds_gpu_loader *g);

void ds_gpu_loader_free(ds_gpu_loader *g);

/* Text of the last failure of a ds_gpu_* call on this thread. */
const char *ds_gpu_last_error(void);
#endif
