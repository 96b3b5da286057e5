/* gmres.h - restarted GMRES for a matrix-free operator (engine-internal). */
#ifndef DS_GMRES_H
#define DS_GMRES_H

/* y = A v; returns 0 or nonzero to abort. */
typedef int (*gmres_op)(void *ctx, const double *v, double *y);

typedef struct gmres_result {
    int iters;        /* total inner iterations */
    double rel_resid; /* ||b - A x|| / ||b|| achieved (the Arnoldi residual at exit) */
    int status;       /* 0 reached tol, 1 hit max_iter or A singular on the basis, -1 operator failed */
} gmres_result;

/* The Krylov basis kept before a restart when the caller gives restart <= 0:
 * every vector up to max_iter while the basis (n + 1 doubles a vector) fits
 * GMRES_BASIS_BYTES, else as many as fit, never fewer than GMRES_RESTART_MIN.
 * A restart throws the basis away: on a 13,000-node network GMRES(30)
 * stagnated at 200 products where the whole basis reached the forcing term
 * in 102 (docs/bench.md, stop 22). Up to the restart length both are the
 * same arithmetic, the same bits. */
#define GMRES_BASIS_BYTES (256.0 * 1024 * 1024)
#define GMRES_RESTART_MIN 30
int gmres_basis_len(int n, int restart, int max_iter);

/* Work arrays a caller may keep between solves of the same size (zeroed
 * struct to start, gmres_work_free at the end). */
typedef struct gmres_work {
    int n, m;
    int want; /* the basis asked for when m is GMRES_RESTART_MIN because that one could not be had */
    double *V, *H, *cs, *sn, *g, *yv, *w;
} gmres_work;
void gmres_work_free(gmres_work *ws);

/* Solve A x = b from x = 0 to ||b - A x|| <= tol ||b||, restarting every
 * gmres_basis_len(n, restart, max_iter) iterations, at most max_iter in all.
 * Modified Gram-Schmidt with Givens rotations; vectors via vec.h. `work`
 * (NULL: allocated and freed here) is reused where it fits. */
int gmres_solve(int n, gmres_op op, void *ctx, const double *b, double *x, double tol, int restart, int max_iter,
                gmres_work *work, gmres_result *res);

/* Eisenstat-Walker forcing term, choice 2 (gamma 0.9, alpha 2), with its
 * safeguard: 0.9 ratio^2, ratio = ||F_k|| / ||F_k-1||, but not below
 * 0.9 eta_prev^2 where that exceeds 0.1. Caps and floors are the caller's. */
static inline double gmres_ew_choice2(double eta_prev, double ratio)
{
    double eta = 0.9 * ratio * ratio, sg = 0.9 * eta_prev * eta_prev;
    return sg > 0.1 && sg > eta ? sg : eta;
}
#endif
