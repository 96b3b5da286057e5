/*
 * ds_csv.h - flow and history CSV files (DESIGN.md 3).
 *
 * Flow CSV: header `init_node,term_node,flow,cost`, one row per link in the
 * network's file order, TNTP node ids, doubles printed with %.17g so that a
 * file read back gives bitwise the values written (warm starts reproduce).
 *
 * Every writer goes through ds_file_write_atomic: regular files only, a
 * temporary file in the target's directory, fsynced and renamed into place:
 * on failure the old file is untouched, the temporary file is removed and the
 * error says so. Non-finite numbers never reach a file: flows refuse them,
 * history leaves such a field empty (meaning: undefined at that iteration).
 *
 * All functions return 0 on success and -1 on failure with err filled (file,
 * 1-based line where it applies, message).
 */
#ifndef DS_CSV_H
#define DS_CSV_H

#include "dillsue.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DS_FLOWS_HEADER "init_node,term_node,flow,cost"

/* Writes the content to fp (a memory buffer); returns 0, or -1 with err filled
 * (then nothing is written). */
typedef int (*ds_write_fn)(FILE *fp, const void *ctx, ds_error *err);

/* The one writer of output files: path must be a regular file or absent (a
 * symbolic link is followed to the regular file it names; a dangling link, a
 * device, a FIFO or a directory is refused). The content goes to a temporary
 * file "<path>.dillsue-tmp-<pid>-XXXXXX" beside it, is fsynced and renamed
 * over path, and the directory is fsynced. On failure the old file is kept
 * and err says why (with errno's text). */
int ds_file_write_atomic(const char *path, ds_write_fn body, const void *ctx, ds_error *err);

/* What ds_file_write_atomic checks, for a front end to call before a long run:
 * 0 if path can be written. real (may be NULL) receives the path that will be
 * written (a symbolic link's target). Temporary files beside it left by a
 * writer that was killed (its process is gone) are removed and named in note
 * (may be NULL; empty if none). */
int ds_output_check(const char *path, char *real, size_t real_n, char *note, size_t note_n, ds_error *err);

/* Write flows and costs of every link of net (costs may not be NULL). Refuses
 * non-finite values rather than writing a file that cannot be read back. */
int ds_flows_write(const char *path, const ds_network *net, const double *flows, const double *costs, ds_error *err);

/* Read a flow CSV. If net is not NULL, the row count must equal
 * net->n_links and row i must be link i's (init, term) pair. On success
 * *flows and *costs (either pointer may be NULL if not wanted) are malloc'd
 * arrays of *n values that the caller frees. */
int ds_flows_read(const char *path, const ds_network *net, double **flows, double **costs, int *n, ds_error *err);

/* Flows to start from (solve's --warm, load's --flows, the TUI's warm start
 * from a file): a flow CSV of net (ds_flows_read) whose every flow is >= 0,
 * the one rule wherever such flows are read. 0, or -1 with err set. */
int ds_flows_read_start(const char *path, const ds_network *net, double **flows, ds_error *err);

/* As ds_flows_read, also returning the TNTP node ids of each row in *init and
 * *term (malloc'd, may be NULL if not wanted). */
int ds_flows_read_ex(const char *path, const ds_network *net, int **init, int **term, double **flows, double **costs,
                     int *n, ds_error *err);
/* As ds_flows_read_ex, also returning in *lines (malloc'd, may be NULL if not
 * wanted) the file's line of each data row: line 1 is the header, blank lines
 * count. For messages about a row found wrong after the reading (`dillsue
 * compare`: rows of two files that do not match), which name its line as the
 * reader's own do. */
int ds_flows_read_lines(const char *path, const ds_network *net, int **init, int **term, double **flows, double **costs,
                        long **lines, int *n, ds_error *err);

/* History CSV: one row per record with every field of ds_iter_record. The
 * last column, final_status, is empty on every row. */
int ds_history_write(const char *path, const ds_iter_record *recs, size_t n, ds_error *err);

/* As ds_history_write, but the last row's final_status column carries the
 * run's final status name (e.g. "max-iterations") so that a history of a run
 * that stopped early is marked as such. */
int ds_history_write_final(const char *path, const ds_iter_record *recs, size_t n, ds_status final_status,
                           ds_error *err);

/* The history header line (without newline), for tests and documentation. */
const char *ds_history_header(void);

#ifdef __cplusplus
}
#endif
#endif
