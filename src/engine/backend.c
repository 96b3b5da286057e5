/* backend.c - which backends can run here, as the front ends report it. */
#include <stdio.h>
#include <stdlib.h>

#include "dillsue.h"
#include "gpu.h"

int ds_gpu_info(char *buf, size_t n)
{
    const char *emu = getenv("DILLSUE_CUDA_EMULATE");
    if (emu && emu[0] == '1') {
        snprintf(buf, n, "GPU: emulated on the CPU (DILLSUE_CUDA_EMULATE=1)");
        return 1;
    }
    return ds_gpu_probe(buf, n);
}
