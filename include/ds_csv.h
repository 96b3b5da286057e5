/*
 * ds_csv.h - flow and history CSV files (DESIGN.md 3).
 *
 * Flow CSV: header `init_node,term_node,flow,cost`, one row per link in the
 * network's file order, TNTP node ids, doubles printed with %.17g so that a
 * file read back gives bitwise the values written (warm starts reproduce).
 *
 * Every writer writes to a temporary file in the target's directory, fsyncs
 * it and renames it into place: on failure the old file is untouched, the
 * temporary file is removed and the error says so.
 *
 * All functions return 0 on success and -1 on failure with err filled (file,
 * 1-based line where it applies, message).
 */
#ifndef DS_CSV_H
#define DS_CSV_H

#include "dillsue.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DS_FLOWS_HEADER "init_node,term_node,flow,cost"

/* Write flows and costs of every link of net (costs may not be NULL). Refuses
 * non-finite values rather than writing a file that cannot be read back. */
int ds_flows_write(const char *path, const ds_network *net, const double *flows,
                   const double *costs, ds_error *err);

/* Read a flow CSV. If net is not NULL, the row count must equal
 * net->n_links and row i must be link i's (init, term) pair. On success
 * *flows and *costs (either pointer may be NULL if not wanted) are malloc'd
 * arrays of *n values that the caller frees. */
int ds_flows_read(const char *path, const ds_network *net, double **flows, double **costs,
                  int *n, ds_error *err);

/* As ds_flows_read, also returning the TNTP node ids of each row in *init and
 * *term (malloc'd, may be NULL if not wanted). */
int ds_flows_read_ex(const char *path, const ds_network *net, int **init, int **term,
                     double **flows, double **costs, int *n, ds_error *err);

/* History CSV: one row per record with every field of ds_iter_record. The
 * last column, final_status, is empty on every row. */
int ds_history_write(const char *path, const ds_iter_record *recs, size_t n, ds_error *err);

/* As ds_history_write, but the last row's final_status column carries the
 * run's final status name (e.g. "max-iterations") so that a history of a run
 * that stopped early is marked as such. */
int ds_history_write_final(const char *path, const ds_iter_record *recs, size_t n,
                           ds_status final_status, ds_error *err);

/* The history header line (without newline), for tests and documentation. */
const char *ds_history_header(void);

#ifdef __cplusplus
}
#endif
#endif
