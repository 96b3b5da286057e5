/* emul.c - runs the CUDA kernel bodies on the CPU: every launch visits the
 * same (block, thread) grid the device would and calls the same body. Memory
 * is host memory, copies are memcpy, timers are the wall clock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dsg_ops.h"

typedef struct emul_rec {
    int kid, grid;
    dsg_k k;
} emul_rec;

typedef struct emul_seq {
    emul_rec *r;
    int n, cap;
} emul_seq;

typedef struct emul_ctx {
    double marks[DSG_MARKS];
    int recording;
    emul_seq rec, seq[DSG_SEQS]; /* the one being recorded, the kept ones */
    char err[256];
} emul_ctx;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int emul_probe(char *info, size_t n)
{
    if (n) snprintf(info, n, "GPU: emulation on the CPU");
    return 1;
}

static void *emul_open(char *err, size_t n)
{
    emul_ctx *c = calloc(1, sizeof *c);
    if (!c && n) snprintf(err, n, "out of memory");
    return c;
}

static void emul_close(void *ctx)
{
    emul_ctx *c = ctx;
    if (!c) return;
    free(c->rec.r);
    for (int i = 0; i < DSG_SEQS; i++) free(c->seq[i].r);
    free(c);
}

static void *emul_alloc(void *ctx, size_t bytes)
{
    emul_ctx *c = ctx;
    void *p = malloc(bytes ? bytes : 1);
    if (!p) snprintf(c->err, sizeof c->err, "out of memory allocating %zu bytes", bytes);
    return p;
}

static void emul_release(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

static int emul_copy(void *ctx, void *dst, const void *src, size_t bytes)
{
    (void)ctx;
    if (bytes) memcpy(dst, src, bytes);
    return 0;
}

static int reverse_order;

void dsg_emul_reverse(int on) { reverse_order = on; }

/* One grid loop per kernel, so the dispatch is outside the hot loop. */
#define EMUL_CASE(name)                                                                                                \
    case DSG_KID_##name:                                                                                               \
        if (reverse_order) {                                                                                           \
            for (int b = grid - 1; b >= 0; b--)                                                                        \
                for (int t = DSG_BLOCK - 1; t >= 0; t--) dsg_k_##name(k, b, t);                                        \
        } else {                                                                                                       \
            for (int b = 0; b < grid; b++)                                                                             \
                for (int t = 0; t < DSG_BLOCK; t++) dsg_k_##name(k, b, t);                                             \
        }                                                                                                              \
        return 0;

static int emul_run(emul_ctx *c, int kid, int grid, const dsg_k *k)
{
    switch (kid) {
        DSG_KERNELS(EMUL_CASE)
    default: break;
    }
    snprintf(c->err, sizeof c->err, "unknown kernel id %d", kid);
    return -1;
}

/* While recording, a launch is kept with a copy of its parameters (as a CUDA
 * graph keeps a kernel node's arguments) and runs only at replay. */
static int emul_launch(void *ctx, int kid, int grid, const dsg_k *k)
{
    emul_ctx *c = ctx;
    emul_seq *q = &c->rec;
    if (!c->recording) return emul_run(c, kid, grid, k);
    if (q->n == q->cap) {
        int cap = q->cap ? 2 * q->cap : 64;
        emul_rec *r = realloc(q->r, sizeof *r * (size_t)cap);
        if (!r) {
            snprintf(c->err, sizeof c->err, "out of memory recording a launch");
            return -1;
        }
        q->r = r, q->cap = cap;
    }
    q->r[q->n++] = (emul_rec){kid, grid, *k};
    return 0;
}

static int emul_rec_begin(void *ctx)
{
    emul_ctx *c = ctx;
    if (c->recording) {
        snprintf(c->err, sizeof c->err, "already recording");
        return -1;
    }
    c->recording = 1;
    c->rec.n = 0;
    return 0;
}

static int emul_rec_end(void *ctx, int slot)
{
    emul_ctx *c = ctx;
    emul_seq t;
    if (!c->recording || slot >= DSG_SEQS) {
        snprintf(c->err, sizeof c->err, "no recording to keep in slot %d", slot);
        return -1;
    }
    c->recording = 0;
    if (slot < 0) return 0;
    t = c->seq[slot], c->seq[slot] = c->rec, c->rec = t;
    c->rec.n = 0;
    return 0;
}

static int emul_replay(void *ctx, int slot)
{
    emul_ctx *c = ctx;
    if (c->recording || slot < 0 || slot >= DSG_SEQS) {
        snprintf(c->err, sizeof c->err, "cannot replay slot %d", slot);
        return -1;
    }
    for (int i = 0; i < c->seq[slot].n; i++) {
        const emul_rec *r = &c->seq[slot].r[i];
        if (emul_run(c, r->kid, r->grid, &r->k) != 0) return -1;
    }
    return 0;
}

static int emul_mark(void *ctx, int slot)
{
    emul_ctx *c = ctx;
    if (slot < 0 || slot >= DSG_MARKS) return -1;
    c->marks[slot] = now_s();
    return 0;
}

static int emul_elapsed(void *ctx, int from, int to, double *sec)
{
    emul_ctx *c = ctx;
    if (from < 0 || from >= DSG_MARKS || to < 0 || to >= DSG_MARKS) return -1;
    *sec = c->marks[to] - c->marks[from];
    return 0;
}

static const char *emul_error(void *ctx) { return ctx ? ((emul_ctx *)ctx)->err : "no context"; }

static const dsg_ops emul_ops = {
    DSG_ABI,   "emulation", emul_probe, emul_open,    emul_close, emul_alloc,     emul_release, emul_copy,
    emul_copy, emul_launch, emul_mark,  emul_elapsed, emul_error, emul_rec_begin, emul_rec_end, emul_replay,
};

const dsg_ops *dsg_emul_ops(void) { return &emul_ops; }
