/* test_tui_session.c - the TUI's engine threads and telemetry copies, without
 * a terminal: records seen while a run executes are whole and in order, the
 * final copy matches the engine's, cancel joins, warm start is used, and a
 * missing network changes nothing. */
#include <math.h>
#include <time.h>

#include "session.h"
#include "tcheck.h"

static void nap(void)
{
    struct timespec ts = {0, 200000};
    nanosleep(&ts, NULL);
}

/* Whole-record plausibility: a torn copy would mix fields of two iterations. */
static int record_ok(const ds_iter_record *r, size_t idx, const ds_iter_record *prev)
{
    if (r->iter != (int)idx) return 0;
    if (r->kind < 0 || r->kind >= DS_STEP_N) return 0;
    if (r->iter > 0 && !(isfinite(r->gap_rel) && r->gap_rel >= 0)) return 0;
    if (!(r->t_run >= 0) || r->timestamp < 1e9) return 0;
    for (int p = 0; p < DS_PHASE_N; p++)
        if (!(r->t_phase[p] >= 0)) return 0;
    if (prev && (r->t_run < prev->t_run || r->evals < prev->evals || r->timestamp < prev->timestamp)) return 0;
    return 1;
}

int main(void)
{
    tui_session s;
    ds_error err = {0};
    tui_run *r;

    tc_begin("tui_session_open_default");
    TC_CHECK(session_init(&s, &err) == 0, "init: %s", err.msg);
    TC_CHECK(session_open(&s, NULL, NULL, &err) == 0 && s.net, "default network: %s", err.msg);
    tc_end();
    if (!s.net) return tc_exit();

    tc_begin("tui_session_missing_network_changes_nothing");
    {
        ds_network *before = s.net;
        TC_CHECK(session_open(&s, "/nonexistent/dir/x_net.tntp", NULL, &err) != 0, "missing file accepted");
        TC_CHECK(s.net == before && s.n_nets == 1, "current network changed");
        TC_CHECK(err.msg[0] != 0, "no error message");
    }
    tc_end();

    tc_begin("tui_session_records_whole_while_running");
    s.next.solver = DS_SOLVER_SRA;
    s.next.tau = 10;
    r = session_start(&s, &err);
    TC_CHECK(r != NULL, "start: %s", err.msg);
    if (r) {
        size_t checked = 0;
        int polls = 0, bad = 0;
        TC_CHECK(session_start(&s, &err) == NULL, "a second concurrent run was allowed");
        while (session_active(&s)) {
            session_poll(&s);
            polls++;
            for (; checked < r->n; checked++)
                if (!record_ok(&r->rec[checked], checked, checked ? &r->rec[checked - 1] : NULL)) bad++;
            nap();
        }
        for (; checked < r->n; checked++)
            if (!record_ok(&r->rec[checked], checked, checked ? &r->rec[checked - 1] : NULL)) bad++;
        TC_CHECK(bad == 0, "%d of %zu records inconsistent", bad, r->n);
        TC_CHECK(r->joined && r->status == DS_STATUS_CONVERGED, "status %s", ds_status_name(r->status));
        TC_CHECK(r->n == ds_run_history_count(r->run), "copied %zu, engine has %zu", r->n,
                 ds_run_history_count(r->run));
        TC_CHECK(r->n > 1 && r->gap[r->n - 1] < s.next.tol && r->it[r->n - 1] == r->rec[r->n - 1].iter,
                 "plot arrays disagree with the records");
        TC_CHECK(polls > 0, "never polled");
    }
    tc_end();

    tc_begin("tui_session_warm_start");
    s.warm_next = 1;
    r = session_start(&s, &err);
    TC_CHECK(r != NULL, "warm start: %s", err.msg);
    if (r) {
        while (session_active(&s)) { session_poll(&s); nap(); }
        TC_CHECK(r->warm && r->warm_from == 1, "not marked warm from run 1");
        TC_CHECK(r->status == DS_STATUS_CONVERGED, "status %s", ds_status_name(r->status));
        TC_CHECK(r->n < s.runs[0]->n, "warm run took %zu records, cold %zu", r->n, s.runs[0]->n);
    }
    s.warm_next = 0;
    tc_end();

    tc_begin("tui_session_stop_cancels_and_joins");
    s.next.solver = DS_SOLVER_MSA;
    s.next.max_iter = 100000000;
    s.next.tol = 1e-300;
    r = session_start(&s, &err);
    TC_CHECK(r != NULL, "start: %s", err.msg);
    if (r) {
        while (r->n < 3 && !atomic_load(&r->done)) { session_poll(&s); nap(); }
        session_stop(&s);
        TC_CHECK(r->joined && !session_active(&s), "not joined");
        TC_CHECK(r->status == DS_STATUS_CANCELLED, "status %s", ds_status_name(r->status));
        TC_CHECK(s.n_runs == 3, "%d runs kept", s.n_runs);
    }
    tc_end();
    session_free(&s);
    return tc_exit();
}
