/* test_newton_reset.c - Newton's reset (solver_newton.c nt_reset, called
 * when an eDSP mask refresh restarts the solver on a new mask) leaves the
 * state a fresh solver has: nothing of the last mask's steps carries over.
 * Until stop 40 it kept least_run (recoveries in a row that took SRA's
 * least-merit trial: a third would take the harmonic step instead), the
 * last step length and its forcing, and the boundary flag.
 *
 * The solver's state is private to solver_newton.c, which is compiled into
 * this test (its solver_newton_ops then stands in for the library's). */
#include "solver_newton.c"

#include "tcheck.h"

/* every field but the buffers, which a reset keeps */
static int same_scalars(const nt_state *a, const nt_state *b, char *why, size_t n)
{
#define FIELD(f)                                                                                                       \
    if (a->f != b->f) {                                                                                                \
        snprintf(why, n, #f " %g, fresh %g", (double)a->f, (double)b->f);                                              \
        return 0;                                                                                                      \
    }
    FIELD(warm_left)
    FIELD(eta)
    FIELD(prev_norm)
    FIELD(pred_norm)
    FIELD(recovered)
    FIELD(least_run)
    FIELD(last_step)
    FIELD(last_eta_l)
    FIELD(dtau)
    FIELD(hit_boundary)
#undef FIELD
    return 1;
}

int main(void)
{
    static const ds_globalise glob[3] = {DS_GLOBALISE_PTC, DS_GLOBALISE_LINESEARCH, DS_GLOBALISE_PAPER};
    tc_begin("newton_reset_is_a_fresh_start");
    for (int g = 0; g < 3; g++) {
        ds_run run;
        void *fresh = NULL, *used = NULL;
        char why[160];
        memset(&run, 0, sizeof run);
        ds_config_default(&run.cfg);
        run.cfg.globalise = glob[g];
        run.n = 4;
        if (nt_init(&run, &fresh) != 0 || nt_init(&run, &used) != 0) {
            TC_CHECK(0, "nt_init failed");
            break;
        }
        /* what steps on the last mask leave behind */
        nt_state *s = used;
        s->warm_left = 0;
        s->eta = 0.4;
        s->prev_norm = 3;
        s->pred_norm = 2;
        s->recovered = 1;
        s->least_run = 2;
        s->last_step = 0.3;
        s->last_eta_l = 0.7;
        s->dtau = 5;
        s->hit_boundary = 1;
        nt_reset(&run, used);
        TC_CHECK(same_scalars(used, fresh, why, sizeof why), "globalise %d: after the reset %s", (int)glob[g], why);
        nt_free(fresh);
        nt_free(used);
    }
    tc_end();
    return tc_failed_ ? 1 : 0;
}
