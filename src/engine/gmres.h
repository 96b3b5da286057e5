/* gmres.h - restarted GMRES for a matrix-free operator (engine-internal). */
#ifndef DS_GMRES_H
#define DS_GMRES_H

/* y = A v; returns 0 or nonzero to abort. */
typedef int (*gmres_op)(void *ctx, const double *v, double *y);

typedef struct gmres_result {
    int iters;        /* total inner iterations */
    double rel_resid; /* ||b - A x|| / ||b|| achieved (the Arnoldi residual at exit) */
    int status;       /* 0 reached tol, 1 hit max_iter, -1 operator failed */
} gmres_result;

/* Solve A x = b from x = 0 to ||b - A x|| <= tol ||b||, restarting every
 * `restart` iterations, at most max_iter in all. Modified Gram-Schmidt with
 * Givens rotations; vectors via OpenBLAS level-1 calls. */
int gmres_solve(int n, gmres_op op, void *ctx, const double *b, double *x, double tol, int restart, int max_iter,
                gmres_result *res);
#endif
