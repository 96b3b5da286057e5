/* solve_sf.c - a program built only from an installed dillsue (pkg-config
 * --cflags --libs dillsue): loads Sioux Falls (argv[1], or the embedded
 * network without an argument), solves the SUE at tau 10 and prints the
 * status, the iteration count and the total flow. Exit 0 if it converged. */
#include <dillsue.h>
#include <ds_csv.h>

#include <stdio.h>

int main(int argc, char **argv)
{
    ds_error err = {0};
    ds_network *net = argc > 1 ? ds_network_load(argv[1], NULL, NULL, NULL, &err) : ds_network_load_default(&err);
    if (!net) {
        char buf[1200];
        ds_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "load: %s\n", buf);
        return 2;
    }
    ds_config cfg;
    ds_config_default(&cfg);
    cfg.tau = 10;
    ds_run *run = ds_run_create(net, &cfg, &err);
    if (!run) {
        fprintf(stderr, "run: %s\n", err.msg);
        ds_network_free(net);
        return 2;
    }
    ds_status st = ds_run_execute(run);
    const double *x = ds_run_flows(run);
    double total = 0;
    for (int e = 0; x && e < net->n_links; e++) total += x[e];
    printf("%s %s iterations %zu total_flow %.6f links %d\n", net->name, ds_status_name(st),
           ds_run_history_count(run), total, net->n_links);
    if (argc > 2 && ds_flows_write(argv[2], net, ds_run_flows(run), ds_run_costs(run), &err) != 0)
        fprintf(stderr, "write: %s\n", err.msg);
    ds_run_free(run);
    ds_network_free(net);
    return st == DS_STATUS_CONVERGED ? 0 : 1;
}
