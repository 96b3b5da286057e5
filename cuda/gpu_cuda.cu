/* gpu_cuda.cu - the device side of the GPU loading map: __global__ launchers
 * around the shared kernel bodies of dsg_kernels.h, device memory, copies and
 * CUDA-event timers, behind the dsg_ops table that src/engine/gpu.c loads
 * with dlopen. Built into libdillsue_cuda.so only where nvcc exists.
 *
 * Every CUDA call is checked; the first failure's text (call, CUDA error
 * string, source line) is kept in the context and handed back through
 * error(), which the engine turns into its own error value.
 */
#include <stdio.h>
#include <string.h>

#include <new>

#include <cuda_runtime.h>

#include "dsg_ops.h"

typedef struct cuda_ctx {
    int device;
    cudaStream_t stream;
    cudaEvent_t ev[DSG_MARKS];
    int n_ev;
    cudaGraphExec_t seq[DSG_SEQS];
    char err[512];
} cuda_ctx;

static int fail(cuda_ctx *c, const char *what, cudaError_t rc, int line)
{
    if (c) snprintf(c->err, sizeof c->err, "%s: %s (%s, gpu_cuda.cu:%d)", what, cudaGetErrorString(rc),
                    cudaGetErrorName(rc), line);
    return -1;
}
#define CK(c, call)                                                                                                 \
    do {                                                                                                            \
        cudaError_t rc_ = (call);                                                                                   \
        if (rc_ != cudaSuccess) return fail((c), #call, rc_, __LINE__);                                             \
    } while (0)

static int cuda_probe(char *info, size_t n)
{
    int count = 0, drv = 0, rt = 0;
    cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc != cudaSuccess) {
        /* The runtime says "driver version is insufficient" also where there
         * is no driver at all (cudaDriverGetVersion then gives 0): say which. */
        if (rc == cudaErrorInsufficientDriver && cudaDriverGetVersion(&drv) == cudaSuccess &&
            cudaRuntimeGetVersion(&rt) == cudaSuccess) {
            if (drv == 0)
                snprintf(info, n, "GPU: none (no NVIDIA driver installed: no libcuda.so.1)");
            else
                snprintf(info, n, "GPU: none (the NVIDIA driver supports CUDA %d.%d, this build needs %d.%d)",
                         drv / 1000, drv % 1000 / 10, rt / 1000, rt % 1000 / 10);
        } else {
            snprintf(info, n, "GPU: none (%s)", cudaGetErrorString(rc));
        }
        return 0;
    }
    if (count == 0) {
        snprintf(info, n, "GPU: none (no CUDA device)");
        return 0;
    }
    cudaDeviceProp prop;
    rc = cudaGetDeviceProperties(&prop, 0);
    if (rc != cudaSuccess) {
        snprintf(info, n, "GPU: none (cudaGetDeviceProperties: %s)", cudaGetErrorString(rc));
        return 0;
    }
    if (prop.major < 8) {
        snprintf(info, n, "GPU: none (%s is sm_%d%d; this build needs sm_80 or newer)", prop.name, prop.major,
                 prop.minor);
        return 0;
    }
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    snprintf(info, n, "GPU: %s, %.1f GiB, sm_%d%d, driver %d.%d, runtime %d.%d", prop.name,
             (double)prop.totalGlobalMem / (1024.0 * 1024.0 * 1024.0), prop.major, prop.minor, drv / 1000,
             (drv % 1000) / 10, rt / 1000, (rt % 1000) / 10);
    return 1;
}

static void cuda_close(void *ctx)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    if (!c) return;
    for (int i = 0; i < DSG_SEQS; i++)
        if (c->seq[i]) cudaGraphExecDestroy(c->seq[i]);
    for (int i = 0; i < c->n_ev; i++) cudaEventDestroy(c->ev[i]);
    if (c->stream) cudaStreamDestroy(c->stream);
    delete c;
}

static int open_ctx(cuda_ctx *c)
{
    CK(c, cudaSetDevice(c->device));
    CK(c, cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking));
    for (c->n_ev = 0; c->n_ev < DSG_MARKS; c->n_ev++) CK(c, cudaEventCreate(&c->ev[c->n_ev]));
    return 0;
}

static void *cuda_open(char *err, size_t n)
{
    cuda_ctx *c = new (std::nothrow) cuda_ctx();
    char info[256];
    if (!c) {
        snprintf(err, n, "out of host memory");
        return NULL;
    }
    if (!cuda_probe(info, sizeof info)) {
        snprintf(err, n, "%s", info);
        delete c;
        return NULL;
    }
    c->device = 0;
    if (open_ctx(c) != 0) {
        snprintf(err, n, "%s", c->err);
        cuda_close(c);
        return NULL;
    }
    return c;
}

static void *cuda_alloc(void *ctx, size_t bytes)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    void *p = NULL;
    cudaError_t rc = cudaMalloc(&p, bytes ? bytes : 1);
    if (rc != cudaSuccess) {
        char what[96];
        snprintf(what, sizeof what, "cudaMalloc(%zu bytes)", bytes);
        fail(c, what, rc, __LINE__);
        return NULL;
    }
    return p;
}

static void cuda_release(void *ctx, void *p)
{
    (void)ctx;
    if (p) cudaFree(p);
}

static int cuda_put(void *ctx, void *dev, const void *host, size_t bytes)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    if (!bytes) return 0;
    CK(c, cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, c->stream));
    /* the host buffer may be reused as soon as put returns */
    CK(c, cudaStreamSynchronize(c->stream));
    return 0;
}

static int cuda_get(void *ctx, void *host, const void *dev, size_t bytes)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    if (!bytes) return 0;
    CK(c, cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, c->stream));
    CK(c, cudaStreamSynchronize(c->stream));
    return 0;
}

#define CUDA_GLOBAL(name)                                                                                           \
    __global__ void dsg_g_##name(const __grid_constant__ dsg_k k)                                                   \
    {                                                                                                               \
        dsg_k_##name(&k, (int)blockIdx.x, (int)threadIdx.x);                                                        \
    }
DSG_KERNELS(CUDA_GLOBAL)

#define CUDA_CASE(name)                                                                                             \
    case DSG_KID_##name:                                                                                            \
        dsg_g_##name<<<grid, DSG_BLOCK, 0, c->stream>>>(*k);                                                        \
        break;

static int cuda_launch(void *ctx, int kid, int grid, const dsg_k *k)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    if (grid <= 0) return 0;
    switch (kid) {
        DSG_KERNELS(CUDA_CASE)
    default:
        snprintf(c->err, sizeof c->err, "unknown kernel id %d", kid);
        return -1;
    }
    /* launch-configuration errors surface here; execution errors at the next sync */
    CK(c, cudaGetLastError());
    return 0;
}

static int cuda_mark(void *ctx, int slot)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    if (slot < 0 || slot >= c->n_ev) return -1;
    CK(c, cudaEventRecord(c->ev[slot], c->stream));
    return 0;
}

static int cuda_elapsed(void *ctx, int from, int to, double *sec)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    float ms = 0;
    if (from < 0 || from >= c->n_ev || to < 0 || to >= c->n_ev) return -1;
    CK(c, cudaEventSynchronize(c->ev[to]));
    CK(c, cudaEventElapsedTime(&ms, c->ev[from], c->ev[to]));
    *sec = 1e-3 * (double)ms;
    return 0;
}

/* Stream capture into a CUDA graph: the kernels launched meanwhile are
 * recorded with their arguments; a replay is one cudaGraphLaunch. */
static int cuda_rec_begin(void *ctx)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    CK(c, cudaStreamBeginCapture(c->stream, cudaStreamCaptureModeThreadLocal));
    return 0;
}

static int cuda_rec_end(void *ctx, int slot)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    cudaGraph_t gr = NULL;
    cudaError_t rc;
    CK(c, cudaStreamEndCapture(c->stream, &gr));
    if (slot < 0 || slot >= DSG_SEQS) {
        if (gr) cudaGraphDestroy(gr);
        if (slot < 0) return 0;
        snprintf(c->err, sizeof c->err, "no sequence slot %d", slot);
        return -1;
    }
    if (c->seq[slot]) cudaGraphExecDestroy(c->seq[slot]);
    c->seq[slot] = NULL;
    rc = cudaGraphInstantiate(&c->seq[slot], gr, 0);
    cudaGraphDestroy(gr);
    if (rc != cudaSuccess) {
        c->seq[slot] = NULL;
        return fail(c, "cudaGraphInstantiate", rc, __LINE__);
    }
    return 0;
}

static int cuda_replay(void *ctx, int slot)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    if (slot < 0 || slot >= DSG_SEQS || !c->seq[slot]) {
        snprintf(c->err, sizeof c->err, "no recorded sequence in slot %d", slot);
        return -1;
    }
    CK(c, cudaGraphLaunch(c->seq[slot], c->stream));
    return 0;
}

static const char *cuda_error(void *ctx) { return ctx ? ((cuda_ctx *)ctx)->err : "no CUDA context"; }

static const dsg_ops cuda_ops = {
    DSG_ABI,  "cuda",   cuda_probe, cuda_open, cuda_close,   cuda_alloc, cuda_release,
    cuda_put, cuda_get, cuda_launch, cuda_mark, cuda_elapsed, cuda_error, cuda_rec_begin, cuda_rec_end,
    cuda_replay,
};

extern "C" __attribute__((visibility("default"))) const dsg_ops *dsg_cuda_ops(int abi)
{
    return abi == DSG_ABI ? &cuda_ops : NULL;
}
