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

/* Eisenstat-Walker forcing term, choice 2 (gamma 0.9, alpha 2), with its
 * safeguard: 0.9 ratio^2, ratio = ||F_k|| / ||F_k-1||, but not below
 * 0.9 eta_prev^2 where that exceeds 0.1. Caps and floors are the caller's. */
static inline double gmres_ew_choice2(double eta_prev, double ratio)
{
    double eta = 0.9 * ratio * ratio, sg = 0.9 * eta_prev * eta_prev;
    return sg > 0.1 && sg > eta ? sg : eta;
}
#endif
