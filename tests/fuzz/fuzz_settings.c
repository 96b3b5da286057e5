/* fuzz_settings.c - libFuzzer harness of the shared number parsers and the
 * setting rules: a value either parses to a finite number inside the rule's
 * range or is refused with a message. */
#include "dillsue.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"tau", "tol", "max_iter", "threads", "cap", "toll_factor", "edsp_damping",
                                        "gap", "scenario"};
    char text[256], msg[200];
    double v, d;
    long l;
    if (size == 0 || size >= sizeof text) return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    const ds_setting_rule *r = ds_setting_find(names[data[0] % (sizeof names / sizeof *names)]);
    if (ds_setting_parse(r->name, text, &v, msg, sizeof msg) == 0) {
        if (!isfinite(v) || v < r->lo || v > r->hi) abort();
        if (r->integer && v != floor(v)) abort();
    } else if (!msg[0]) {
        abort();
    }
    if (ds_parse_double(text, &d) == 0 && !isfinite(d)) abort();
    (void)ds_parse_long(text, &l);
    return 0;
}
