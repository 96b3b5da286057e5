/* module.h - the program's optional parts, opened at run time (the CUDA
 * backend, the MPI sweep). */
#ifndef DS_MODULE_H
#define DS_MODULE_H

#include <stddef.h>

/* Checks an opened module: finds its entry symbol and asks it for its table.
 * Returns 0 to keep it; otherwise writes why (the module is closed). */
typedef int (*ds_module_accept)(void *handle, const char *path, void *ctx, char *why, size_t n);

/* Open the shared object `name` (dlopen mode `mode`): the path in $env if
 * that is set; else next to the executable, one directory up (tests live in
 * build/tests), the installed folder (LIBDIR/dillsue, relative to the
 * program), then the dynamic loader's path (the program's RUNPATH, or the
 * library's where libdillsue.so is the caller). Returns the handle, or NULL with why: the first real
 * failure (a library it needs is missing, another build), else "NAME not
 * found next to the program: MISSING". The handle stays open for the life
 * of the process. */
void *ds_module_open(const char *name, const char *env, int mode, ds_module_accept accept, void *ctx,
                     const char *missing, char *why, size_t n);

#endif
