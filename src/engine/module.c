/* module.c - the program's optional parts, opened at run time: the CUDA
 * backend (libdillsue_cuda.so, gpu.c) and the MPI sweep (libdillsue_mpi.so,
 * src/cli/sweep_mpi_load.c). Each is built only where its toolkit exists and
 * brings its own libraries (libcudart, libmpi), which a process that does not
 * use it neither needs installed nor pays to load. */
#include "module.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The installed modules' folder relative to the program's (the Makefile
 * passes it: LIBDIR/dillsue seen from BINDIR). */
#ifndef DS_MODULE_DIR
#define DS_MODULE_DIR "../lib/dillsue"
#endif

static void *try_open(const char *path, int mode, ds_module_accept accept, void *ctx, int *found_one, char *why,
                      size_t n)
{
    char msg[512];
    if (strchr(path, '/') && access(path, F_OK) != 0) return NULL;
    void *h = dlopen(path, mode);
    if (!h) {
        /* keep the first real failure (e.g. a missing libcudart), not "not found" */
        if (!*found_one && strchr(path, '/')) {
            const char *e = dlerror();
            snprintf(why, n, "cannot load %s: %s", path, e ? e : "unknown error");
            *found_one = 1;
        }
        return NULL;
    }
    msg[0] = 0;
    if (accept(h, path, ctx, msg, sizeof msg) != 0) {
        if (!*found_one) snprintf(why, n, "%s", msg);
        *found_one = 1;
        dlclose(h);
        return NULL;
    }
    return h;
}

void *ds_module_open(const char *name, const char *env, int mode, ds_module_accept accept, void *ctx,
                     const char *missing, char *why, size_t n)
{
    const char *set = getenv(env);
    char exe[1024], path[1200];
    int found = 0;
    void *h;
    ssize_t len;
    if (set && *set) {
        h = try_open(set, mode, accept, ctx, &found, why, n);
        if (!h && !found) snprintf(why, n, "%s=%s does not exist", env, set);
        return h;
    }
    len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        char *slash;
        exe[len] = 0;
        slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            snprintf(path, sizeof path, "%s/%s", exe, name);
            if ((h = try_open(path, mode, accept, ctx, &found, why, n))) return h;
            snprintf(path, sizeof path, "%s/../%s", exe, name);
            if ((h = try_open(path, mode, accept, ctx, &found, why, n))) return h;
            /* where `make install` puts it, spelled out: the program's RUNPATH
             * says the same, but a sanitizer's dlopen interceptor calls the real
             * dlopen from its own library, whose RUNPATH is not ours */
            snprintf(path, sizeof path, "%s/%s/%s", exe, DS_MODULE_DIR, name);
            if ((h = try_open(path, mode, accept, ctx, &found, why, n))) return h;
        }
    }
    {
        /* next to the library this code is in, and in its dillsue/ folder:
         * libdillsue.so in a build tree (a Python program's executable is
         * python) or installed in LIBDIR; for a static link, the program again */
        Dl_info di;
        const char *slash;
        if (dladdr((void *)ds_module_open, &di) && di.dli_fname && (slash = strrchr(di.dli_fname, '/'))) {
            int dl = (int)(slash - di.dli_fname);
            snprintf(path, sizeof path, "%.*s/%s", dl, di.dli_fname, name);
            if ((h = try_open(path, mode, accept, ctx, &found, why, n))) return h;
            snprintf(path, sizeof path, "%.*s/dillsue/%s", dl, di.dli_fname, name);
            if ((h = try_open(path, mode, accept, ctx, &found, why, n))) return h;
        }
    }
#ifdef DS_MODULE_ABSDIR
    snprintf(path, sizeof path, "%s/%s", DS_MODULE_ABSDIR, name);
    if ((h = try_open(path, mode, accept, ctx, &found, why, n))) return h;
#endif
    if ((h = try_open(name, mode, accept, ctx, &found, why, n))) return h;
    if (!found) snprintf(why, n, "%s not found next to the program: %s", name, missing);
    return NULL;
}
