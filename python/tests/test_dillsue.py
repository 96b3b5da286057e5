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

# A Network copied is a clone of the C network (two objects shared one handle
# and freed it twice: a segfault), and refuses to be pickled.
import copy  # noqa: E402
import pickle  # noqa: E402
import signal  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

base = dillsue.default_network()
ref = dillsue.solve(base, tau=10, filter="dsp")
twin = copy.deepcopy(base)
del base
again = dillsue.solve(twin, tau=10, filter="dsp")
check("copy_is_a_clone", copy.copy(twin)._h != twin._h and np.array_equal(ref.flows, again.flows))
try:
    pickle.dumps(twin)
    check("pickle_refused", False, "pickled a C handle")
except TypeError as e:
    check("pickle_refused", "cannot be pickled" in str(e), str(e))

# warm starts (the C rule: finite and >= 0), the certificate, settings' types
warm = dillsue.solve(twin, tau=10, filter="dsp", warm=ref.flows)
check("warm_start", warm.status == "converged" and len(warm.history["iter"]) <= 2, repr(warm))
try:
    dillsue.solve(twin, tau=10, warm=-ref.flows - 1)
    check("warm_negative_refused", False, "accepted")
except dillsue.DillsueError as e:
    check("warm_negative_refused", "must be finite and >= 0" in str(e), str(e))
c = ref.certificate
check("certificate", abs(c["mean_links"] - ref.flows.sum() / c["demand_loaded"]) <= 1e-12 * c["mean_links"] and
      abs(c["lost_pct"]) < 1e-9 and c["mean_cost_cbar"] > 0, repr(c))
bad = [({"tau": 10, "mu": 1}, dillsue.DillsueError, "give tau or mu, not both"),
       ({"tau": None}, TypeError, "a number or a name"),
       ({"filter": "dsp\0x"}, ValueError, "embedded null byte"),
       ({"filter": "nosuch"}, dillsue.DillsueError, "(one of: full, dsp, bfs, edsp)")]
for i, (kw, exc, says) in enumerate(bad):
    try:
        dillsue.solve(twin, **kw)
        check("setting_refused_%d" % i, False, "%r accepted" % kw)
    except exc as e:
        check("setting_refused_%d" % i, says in str(e), "%r: %s" % (kw, e))
check("integral_float_setting", dillsue.solve(twin, tau=10.0, max_iter=50.0).status == "converged")
# numpy scalars are numbers (np.int64 from an array, np.float32): TypeError before
try:
    np_ok = np.array_equal(dillsue.solve(twin, tau=np.float64(10), max_iter=np.int64(50), threads=np.int32(1)).flows,
                           dillsue.solve(twin, tau=10, max_iter=50, threads=1).flows)
    check("numpy_scalar_settings", np_ok and dillsue.solve(twin, tau=np.float32(10)).status == "converged")
except TypeError as e:
    check("numpy_scalar_settings", False, str(e))
try:
    dillsue.solve(twin, max_iter=np.bool_(True))
    check("numpy_bool_refused", False, "accepted")
except TypeError as e:
    check("numpy_bool_refused", "a number or a name" in str(e), str(e))

# A run without an iterate has no flows (None, as `dillsue solve` writes none):
# links of cost 0 forming a cycle make the full graph ill-posed at any tau
# (it returned all-zero flows as if a result)
with tempfile.TemporaryDirectory() as d:
    with open(os.path.join(d, "zc_net.tntp"), "w") as fo:
        fo.write("<NUMBER OF ZONES> 2\n<NUMBER OF NODES> 4\n<FIRST THRU NODE> 3\n<NUMBER OF LINKS> 4\n"
                 "<END OF METADATA>\n~ init term cap length fftime b power speed toll type ;\n"
                 "1 3 1000 1 1 0.15 4 60 0 1 ;\n3 4 1000 1 0 0 4 60 0 1 ;\n4 3 1000 1 0 0 4 60 0 1 ;\n"
                 "3 2 1000 1 1 0.15 4 60 0 1 ;\n")
    with open(os.path.join(d, "zc_trips.tntp"), "w") as fo:
        fo.write("<NUMBER OF ZONES> 2\n<TOTAL OD FLOW> 100.0\n<END OF METADATA>\nOrigin 1\n 2 : 100.0;\n")
    ip = dillsue.solve(dillsue.load(os.path.join(d, "zc_net.tntp")), tau=10)
    check("ill_posed_no_flows", ip.status == "ill-posed" and ip.exit_code == 3 and ip.flows is None and
          ip.costs is None and len(ip.history["iter"]) == 0, "%s flows %r" % (ip.status, ip.flows))

# the CUDA module beside the library is found from Python too (it looked only
# next to the executable, python, and said "built without nvcc")
cuda_so = os.path.join(os.path.dirname(dillsue.library_path), "libdillsue_cuda.so")
if not os.path.exists(cuda_so):
    print("SKIP python_cuda_module_found: no %s (built without nvcc)" % cuda_so)
else:
    try:
        r = dillsue.solve(twin, backend="cuda")
        check("cuda_module_found", r.status in ("converged", "max-iterations"), repr(r))  # a GPU is here
    except dillsue.DillsueError as e:
        check("cuda_module_found", "not found next to the program" not in str(e), str(e))

# load() reads the net and trips files only: a damaged sibling flow file does not stop it
with tempfile.TemporaryDirectory() as d:
    for k in ("net", "trips"):
        with open("tests/bad_input/valid.%s.tntp" % k, "rb") as fi, open(os.path.join(d, "v_%s.tntp" % k), "wb") as fo:
            fo.write(fi.read())
    with open(os.path.join(d, "v_flow.tntp"), "w") as fo:
        fo.write("From To Volume Cost\n1 2\n")
    try:
        check("load_ignores_siblings", dillsue.load(os.path.join(d, "v_net.tntp")).n_links == 8)
    except dillsue.DillsueError as e:
        check("load_ignores_siblings", False, str(e))

# Ctrl-C during a solve cancels it: KeyboardInterrupt soon, the process goes on
# (the run was freed under a thread still solving: a segfault)
au = os.path.join(TNTP, "Austin-SDB", "AustinSDB_net.tntp")
big = dillsue.load(au) if os.path.exists(au) else None
if big is None:
    print("SKIP python_ctrl_c_cancels: no Austin-SDB in " + TNTP)
else:
    t0 = time.time()
    signal.signal(signal.SIGINT, signal.default_int_handler)  # also when started with SIGINT ignored (a background job)
    threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    try:
        dillsue.solve(big, tau=10, filter="dsp")
        check("ctrl_c_cancels", False, "the solve ran to its end")
    except KeyboardInterrupt:
        alive = [t.name for t in threading.enumerate() if t.name == "dillsue-solve"]
        check("ctrl_c_cancels", time.time() - t0 < 10 and not alive, "%.1f s, threads %r" % (time.time() - t0, alive))
    # a timeout whose handler raises again while the cancelled run stops (an
    # interval timer): the run was freed under the engine (a segfault)
    # It raises only while solve() is on the stack: one that came after solve()
    # had returned raised inside the test's own except block (a stray traceback).
    def on_alarm(sig, frame):
        f = frame
        while f is not None:
            if f.f_code.co_filename == dillsue.__file__:
                raise TimeoutError("solve took too long")
            f = f.f_back

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, 0.3, 0.001)
    try:
        dillsue.solve(big, tau=10, filter="full")
        signal.setitimer(signal.ITIMER_REAL, 0)
        check("timeout_raised_twice", False, "the solve ran to its end")
    except TimeoutError:
        signal.setitimer(signal.ITIMER_REAL, 0)
        alive = [t.name for t in threading.enumerate() if t.name == "dillsue-solve"]
        check("timeout_raised_twice", not alive, "the exception left solve() while the engine ran")
    signal.signal(signal.SIGALRM, old)
    del big
    check("after_ctrl_c", dillsue.solve(twin, tau=10, filter="dsp").status == "converged")
sys.exit(0)
