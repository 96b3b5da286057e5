/* infile.h - opening a file the user named for reading, the one way every
 * reader does it (TNTP files, flow CSVs): without blocking, so that a FIFO
 * with no writer cannot hang the caller (a UI thread among them), and only
 * regular files and pipes (a directory or a device such as /dev/zero is
 * refused with its reason). */
#ifndef DS_INFILE_H
#define DS_INFILE_H

#include <stdio.h>

#include "dillsue.h"

/* The most any reader takes from one file: past it the file is refused. */
#define DS_INFILE_MAX_BYTES ((size_t)1 << 30)

/* Opens path ("rb"); what names it in messages ("network file"). NULL with
 * err filled (file, no line); *missing (may be NULL) set where it does not
 * exist, so that optional sibling files can be skipped. */
FILE *ds_infile_open(const char *path, const char *what, int *missing, ds_error *err);

#endif
