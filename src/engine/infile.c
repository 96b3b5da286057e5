/* infile.c - ds_infile_open (infile.h). */
#include "infile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *ds_infile_open(const char *path, const char *what, int *missing, ds_error *err)
{
    struct stat st;
    FILE *f;
    if (missing) *missing = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (missing && errno == ENOENT) *missing = 1;
        ds_error_set(err, path, 0, "cannot open %s: %s", what, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode))) {
        ds_error_set(err, path, 0, "cannot read %s: %s", what,
                     S_ISDIR(st.st_mode) ? "it is a directory" : "not a regular file");
        close(fd);
        return NULL;
    }
    if (S_ISFIFO(st.st_mode)) {
        /* a pipe with a writer is read to its end; one without reads as empty */
        int fl = fcntl(fd, F_GETFL);
        if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    }
    f = fdopen(fd, "rb");
    if (!f) {
        ds_error_set(err, path, 0, "cannot open %s: %s", what, strerror(errno));
        close(fd);
    }
    return f;
}
