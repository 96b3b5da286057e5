/* env.c - what the program (never the engine) takes from the environment. */
#include <stdlib.h>

#include "cli.h"

/* DILLSUE_CUDA_EMULATE=1: the cuda backend runs its kernels on the CPU (tests,
 * machines without a GPU); the engine takes it as ds_config.cuda_emulate. */
int cli_cuda_emulate(void)
{
    const char *e = getenv("DILLSUE_CUDA_EMULATE");
    return e && e[0] == '1' && e[1] == 0;
}
