/* error.c - errors as values: a file, a line and one sentence. */
#include "dillsue.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int ds_error_set(ds_error *err, const char *file, long line, const char *fmt, ...)
{
    va_list ap;
    size_t n;

    if (!err) return -1;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line > 0 ? line : 0;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    /* Messages are single sentences that front ends print on one line. */
    n = strlen(err->msg);
    while (n > 0 && (err->msg[n - 1] == '\n' || err->msg[n - 1] == '\r')) err->msg[--n] = '\0';
    return -1;
}

void ds_error_format(const ds_error *err, char *buf, size_t n)
{
    if (!buf || n == 0) return;
    if (!err) {
        buf[0] = '\0';
        return;
    }
    if (err->file[0] && err->line > 0)
        snprintf(buf, n, "%s:%ld: %s", err->file, err->line, err->msg);
    else if (err->file[0])
        snprintf(buf, n, "%s: %s", err->file, err->msg);
    else
        snprintf(buf, n, "%s", err->msg);
}
