/* fuzz_tntp.c - libFuzzer harness of the TNTP reader: the input is a net
 * file, optionally followed by a 0xFF byte (never part of UTF-8 text) and a
 * trips file. Whatever the bytes, ds_network_parse returns a network or an
 * error with a one-line message, and never crashes, leaks or reads out of
 * bounds (built with ASan + UBSan by `make fuzz`). */
#include "dillsue.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *sep = memchr(data, 0xFF, size);
    size_t net_len = sep ? (size_t)(sep - data) : size;
    ds_error err;
    memset(&err, 0, sizeof err);
    ds_network *net = ds_network_parse((const char *)data, net_len, "fuzz.net.tntp", sep ? (const char *)sep + 1 : NULL,
                                       sep ? size - net_len - 1 : 0, "fuzz.trips.tntp", &err);
    if (net) {
        /* what outputs would name: every node has an id that maps back */
        for (int i = 0; i < net->n_nodes; i++)
            if (ds_node_index(net, ds_node_id(net, i)) != i) abort();
        ds_network *c = ds_network_clone(net);
        ds_network_free(c);
        ds_network_free(net);
    } else if (!err.msg[0] || strchr(err.msg, '\n')) {
        abort(); /* an error must say something, on one line */
    }
    return 0;
}
