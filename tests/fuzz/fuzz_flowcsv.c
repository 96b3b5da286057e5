/* fuzz_flowcsv.c - libFuzzer harness of the flow CSV reader, with and
 * without a network to check rows against (the embedded one). */
#include "ds_csv.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static ds_network *net;
    ds_error err;
    char path[64];
    double *f = NULL, *c = NULL;
    int n = 0, fd;
    if (!net) net = ds_network_load_default(&err);
    fd = memfd_create("fuzz.csv", 0);
    if (fd < 0) return 0;
    if (size && write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return 0;
    }
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    for (int with_net = 0; with_net < 2; with_net++) {
        memset(&err, 0, sizeof err);
        if (ds_flows_read(path, with_net ? net : NULL, &f, &c, &n, &err) == 0) {
            if (with_net && n != net->n_links) abort();
            free(f), free(c);
            f = c = NULL;
        } else if (!err.msg[0]) {
            abort();
        }
    }
    close(fd);
    return 0;
}
