/* lapack.h - LAPACK's dposv from OpenBLAS, loaded when first needed. */
#ifndef DS_LAPACK_H
#define DS_LAPACK_H

#include <stddef.h>

/* Load OpenBLAS (once per process) and find dposv_. Returns 0, or -1 with why
 * (a sentence naming the library tried) in why[0..n). Thread-safe. */
int ds_lapack_load(char *why, size_t n);

/* LAPACK dposv: solve A x = b for the k x k symmetric positive definite A
 * (column-major, upper triangle read, overwritten by its Cholesky factor), one
 * right-hand side b overwritten by x. Returns LAPACK's info (0: solved, > 0:
 * not positive definite), or -1 where OpenBLAS could not be loaded. */
int ds_lapack_dposv(int k, double *A, double *b);

#endif
