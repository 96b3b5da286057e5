/* lapack.c - LAPACK's dposv from OpenBLAS, loaded when first needed.
 *
 * Anderson's k x k normal equations (k <= 50) are the only thing dillsue asks
 * of LAPACK. Linking OpenBLAS put its constructor (CPU detection, buffers, a
 * server thread per core) into the start of every process, 2.4 to 3.7 ms of a
 * `dillsue --version` of 9 ms on this machine, whichever solver ran; now the
 * library is opened by the first Anderson run (RTLD_LOCAL: it interposes
 * nothing) and never by the others. The same dposv_, so the same bits; called
 * directly, not through LAPACKE, which brought liblapacke, liblapack, libtmglib
 * and libblas into every process (2.5 ms more).
 *
 * Which library: $DILLSUE_OPENBLAS if set (a path or a soname), else the
 * soname of the OpenBLAS the build found (DS_OPENBLAS_SONAME, from the
 * Makefile), else libopenblas.so.0. A host program that already loaded it
 * gets its copy back from dlopen. */
#include "lapack.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef DS_OPENBLAS_SONAME
#define DS_OPENBLAS_SONAME "libopenblas.so.0"
#endif

/* the trailing argument is the length of the Fortran string uplo (gfortran's convention) */
typedef void (*dposv_fn)(const char *uplo, const int *n, const int *nrhs, double *a, const int *lda, double *b,
                         const int *ldb, int *info, size_t uplo_len);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static dposv_fn dposv;
static char load_why[512];

static void load(void)
{
    const char *env = getenv("DILLSUE_OPENBLAS");
    const char *lib = env && *env ? env : DS_OPENBLAS_SONAME;
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(load_why, sizeof load_why, "cannot load OpenBLAS (%s%s): %s", lib,
                 env && *env ? ", from DILLSUE_OPENBLAS" : "", e ? e : "unknown error");
        return;
    }
    *(void **)(&dposv) = dlsym(h, "dposv_");
    if (!dposv) {
        snprintf(load_why, sizeof load_why, "%s has no LAPACK dposv_ (an OpenBLAS built without LAPACK?)", lib);
        dlclose(h);
    }
}

int ds_lapack_load(char *why, size_t n)
{
    pthread_once(&once, load);
    if (dposv) return 0;
    if (why && n) snprintf(why, n, "%s", load_why);
    return -1;
}

int ds_lapack_dposv(int k, double *A, double *b)
{
    int nrhs = 1, info = 0;
    if (ds_lapack_load(NULL, 0) != 0) return -1;
    dposv("U", &k, &nrhs, A, &k, b, &k, &info, (size_t)1);
    return info;
}
