"""Tests of the Python module (run by tests/t_python.sh, which prints the
PASS/FAIL lines tests/run.sh counts). argv: the TNTP folder."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import numpy as np  # noqa: E402

import dillsue  # noqa: E402

TNTP = sys.argv[1] if len(sys.argv) > 1 else "../shared/data/tntp"
PROG = os.environ.get("DILLSUE_PROG", "build/dillsue")
failed = 0


def check(name, cond, why=""):
    global failed
    if cond:
        print("PASS python_" + name)
    else:
        failed += 1
        print("FAIL python_%s: %s" % (name, why))


net = dillsue.default_network()
check("default_network", net.n_links == 144 and net.n_zones == 12, repr(net))
res = dillsue.solve(net, tau=10, filter="dsp", solver="newton", tol=1e-9)
check("solve_default", res.status == "converged" and res.exit_code == 0, repr(res))
check("flows_numpy", isinstance(res.flows, np.ndarray) and res.flows.shape == (144,) and np.all(res.flows >= 0))
g = res.history.get("gap_rel")
check("history_columns", g is not None and len(g) == len(res.history["iter"]) and g[-1] < 1e-9,
      "gap column %r" % (g,))
check("history_kinds", set(res.history["kind"].astype(int)) <= set(range(20)))

try:
    dillsue.solve(net, tol=2)
    check("setting_rule", False, "tol 2 accepted")
except dillsue.DillsueError as e:
    check("setting_rule", "tol must be in (0, 1)" in str(e), str(e))
try:
    dillsue.solve(net, solver="nosuch")
    check("setting_choice", False, "accepted")
except dillsue.DillsueError as e:
    check("setting_choice", "unknown solver" in str(e), str(e))
try:
    dillsue.load("tests/bad_input/capacity_zero.net.tntp")
    check("load_error_file_line", False, "loaded")
except dillsue.DillsueError as e:
    check("load_error_file_line", e.line == 13 and e.file.endswith("capacity_zero.net.tntp"), str(e))

sparse = dillsue.load("tests/bad_input/sparse_ids.net.tntp")
check("sparse_ids_kept", int(sparse.links[0][2]) == 1002 and int(sparse.links[1][2]) == 2146237932,
      repr(sparse.links))

sf = os.path.join(TNTP, "SiouxFalls", "SiouxFalls_net.tntp")
if not os.path.exists(sf):
    print("SKIP python_siouxfalls_matches_cli: no TNTP data in " + TNTP)
else:
    net = dillsue.load(sf)
    r = dillsue.solve(net, tau=10)
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "sf.csv")
        subprocess.run([PROG, "solve", "--net", sf, "--tau", "10", "--quiet", "--out", out], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cli = np.genfromtxt(out, delimiter=",", skip_header=1)
    check("siouxfalls_matches_cli", r.status == "converged" and cli.shape == (76, 4) and
          np.array_equal(cli[:, 2], r.flows) and np.array_equal(cli[:, 0], net.links[0]),
          "status %s, max diff %s" % (r.status, np.max(np.abs(cli[:, 2] - r.flows)) if cli.ndim == 2 else "-"))
sys.exit(0)
