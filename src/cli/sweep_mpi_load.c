/* sweep_mpi_load.c - finding the MPI module (libdillsue_mpi.so, built from
 * src/mpi/sweep_mpi.c where mpicc exists) when mpirun started the sweep.
 *
 * Linking Open MPI put libmpi and its dependencies (open-rte, open-pal, hwloc,
 * libevent, udev) into every process: 1.7 ms of each start, and a program that
 * would not run where Open MPI is not installed. Only a sweep under mpirun
 * needs it, so only that opens the module. RTLD_GLOBAL: Open MPI's own
 * components, which it opens in MPI_Init, resolve libmpi's symbols. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "module.h"
#include "sweep.h"

int sweep_mpi_launched(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

static const sweep_calls calls = {.take = sweep_take,
                                  .record = sweep_record,
                                  .release = sweep_release,
                                  .request_stop = sweep_request_stop,
                                  .base = sweep_base,
                                  .wants_flows = sweep_wants_flows,
                                  .set_alive = sweep_set_alive,
                                  .work = sweep_work,
                                  .compute = sweep_compute,
                                  .block_signals = sweep_block_signals,
                                  .tick = sweep_tick,
                                  .network_free = ds_network_free};

static int accept_mpi(void *h, const char *path, void *ctx, char *why, size_t n)
{
    sweep_mpi_entry fn;
    *(void **)(&fn) = dlsym(h, SWEEP_MPI_SYMBOL);
    *(const sweep_mpi_ops **)ctx = fn ? fn(SWEEP_MPI_ABI, &calls) : NULL;
    if (*(const sweep_mpi_ops **)ctx) return 0;
    snprintf(why, n, "%s is from another build (no matching %s)", path, SWEEP_MPI_SYMBOL);
    return -1;
}

const sweep_mpi_ops *sweep_mpi_load(char *why, size_t n)
{
    const sweep_mpi_ops *ops = NULL;
    ds_module_open(SWEEP_MPI_LIB, "DILLSUE_MPI_LIB", RTLD_NOW | RTLD_GLOBAL, accept_mpi, &ops, "built without mpicc",
                   why, n);
    return ops;
}
