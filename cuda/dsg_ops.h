/* dsg_ops.h - the narrow interface between the GPU loading map's host driver
 * (src/engine/gpu.c) and whatever runs the kernels: the CUDA device
 * (cuda/gpu_cuda.cu, in the shared object build/libdillsue_cuda.so, loaded with
 * dlopen) or the CPU emulation (cuda/emul.c, always linked).
 *
 * The driver's control flow (pass loops, convergence checks, level order) is
 * therefore the same code in both; only memory, launches and timers differ.
 * Plain C; the struct layout is the ABI between gcc and nvcc objects.
 */
#ifndef DS_DSG_OPS_H
#define DS_DSG_OPS_H

#include <stddef.h>

#include "dsg_kernels.h"

#define DSG_ABI 3
#define DSG_MARKS 16 /* timer marks per context */
#define DSG_SEQS 16  /* recorded launch sequences per context */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dsg_ops {
    int abi;          /* DSG_ABI of the object that filled the table */
    const char *name; /* "cuda" or "emulation" */
    /* 1 and "GPU: <name>, <mem>, driver x" if usable, else 0 and "GPU: none (<why>)". */
    int (*probe)(char *info, size_t n);
    /* A context (device selected, stream and timers created), or NULL with why. */
    void *(*open)(char *err, size_t n);
    void (*close)(void *ctx);
    /* Device memory; NULL on failure (the reason is in error()). */
    void *(*alloc)(void *ctx, size_t bytes);
    void (*release)(void *ctx, void *p);
    int (*put)(void *ctx, void *dev, const void *host, size_t bytes);
    int (*get)(void *ctx, void *host, const void *dev, size_t bytes);
    /* Run kernel kid on grid blocks of DSG_BLOCK threads. 0 or -1. */
    int (*launch)(void *ctx, int kid, int grid, const dsg_k *k);
    /* Timers: record mark slot (in stream order); elapsed seconds between two. */
    int (*mark)(void *ctx, int slot);
    int (*elapsed)(void *ctx, int from, int to, double *sec);
    /* What the last failing call said. */
    const char *(*error)(void *ctx);
    /* Recorded launch sequences (CUDA graphs on the device): after rec_begin,
     * launches are recorded and not run until rec_end(slot) keeps them in
     * slot 0 .. DSG_SEQS - 1 (slot < 0 discards them); replay(slot) runs a
     * kept sequence in stream order. One launch of a few hundred level
     * kernels instead of a few hundred launches. 0 or -1. */
    int (*rec_begin)(void *ctx);
    int (*rec_end)(void *ctx, int slot);
    int (*replay)(void *ctx, int slot);
} dsg_ops;

/* The CPU emulation (cuda/emul.c). */
const dsg_ops *dsg_emul_ops(void);
/* Visit blocks and threads in reverse order (tests: a kernel whose result
 * depends on the visiting order breaks the one-writer invariant). */
void dsg_emul_reverse(int on);
/* Exported by libdillsue_cuda.so; NULL if its ABI differs from abi. */
typedef const dsg_ops *(*dsg_cuda_ops_fn)(int abi);
#define DSG_CUDA_SYMBOL "dsg_cuda_ops"

#ifdef __cplusplus
}
#endif
#endif
