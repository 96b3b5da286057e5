"""dillsue - link-based logit stochastic user equilibrium, from Python.

A thin ctypes layer over the installed C library (libdillsue.so.0); arrays in
and out are numpy arrays. The library is found through $DILLSUE_LIB (a path),
else the system's library path (`make install`), else a build tree next to
this package (../build).

    import dillsue
    net = dillsue.load("SiouxFalls_net.tntp")
    res = dillsue.solve(net, tau=10, filter="full", solver="newton")
    res.status, res.flows, res.history["gap_rel"]
"""
import ctypes
import ctypes.util
import glob
import numbers
import os
import threading

import numpy as np

__all__ = ["DillsueError", "Network", "Result", "load", "default_network", "solve", "library_path"]


class DillsueError(Exception):
    """An error from the library: file, line (0 if none) and message."""

    def __init__(self, file, line, msg):
        self.file, self.line, self.msg = file, line, msg
        where = "%s:%d: " % (file, line) if file and line else ("%s: " % file if file else "")
        super().__init__(where + msg)


class _Error(ctypes.Structure):
    _fields_ = [("file", ctypes.c_char * 512), ("line", ctypes.c_long), ("msg", ctypes.c_char * 512)]

    def raise_(self):
        # the file name as the OS spells it (os.fsdecode round-trips bytes that are not UTF-8)
        raise DillsueError(os.fsdecode(self.file), self.line, self.msg.decode(errors="replace"))


def _find_library():
    env = os.environ.get("DILLSUE_LIB")
    if env:
        return env
    found = ctypes.util.find_library("dillsue")
    if found:
        return found
    here = os.path.dirname(os.path.abspath(__file__))
    for cand in sorted(glob.glob(os.path.join(here, "..", "..", "build", "libdillsue.so.*"))):
        return cand
    raise OSError("libdillsue not found: run `make install` (or `make lib` in the source tree), or set DILLSUE_LIB "
                  "to the path of libdillsue.so")


library_path = _find_library()
try:
    _lib = ctypes.CDLL(library_path)
except OSError as e:
    raise OSError("cannot load libdillsue from %s%s: %s" % (
        library_path, " ($DILLSUE_LIB)" if os.environ.get("DILLSUE_LIB") else "", e)) from None
_vp, _cp, _ip, _dp = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_double)
_E = ctypes.POINTER(_Error)


def _sig(name, res, *args):
    f = getattr(_lib, name)
    f.restype, f.argtypes = res, list(args)
    return f


_sig("ds_network_load", _vp, _cp, _cp, _cp, _cp, _E)
_sig("ds_network_load_net_trips", _vp, _cp, _cp, _E)
_sig("ds_network_clone", _vp, _vp)
_sig("ds_config_set_warm", _ip, _vp, _dp)
_sig("ds_run_certificate_field", ctypes.c_double, _vp, _cp)
_sig("ds_certificate_field_name", _cp, _ip)
_sig("ds_network_load_default", _vp, _E)
_sig("ds_network_free", None, _vp)
_sig("ds_network_counts", None, _vp, ctypes.POINTER(_ip), ctypes.POINTER(_ip), ctypes.POINTER(_ip),
     ctypes.POINTER(_ip))
_sig("ds_network_link_ids", None, _vp, ctypes.POINTER(_ip), ctypes.POINTER(_ip))
_sig("ds_network_name", _cp, _vp)
_sig("ds_config_new", _vp)
_sig("ds_config_free", None, _vp)
_sig("ds_config_set", _ip, _vp, _cp, _cp, _E)
_sig("ds_run_create", _vp, _vp, _vp, _E)
_sig("ds_run_execute", _ip, _vp)
_sig("ds_run_cancel", None, _vp)
_sig("ds_run_free", None, _vp)
_sig("ds_run_flows", _dp, _vp)
_sig("ds_run_costs", _dp, _vp)
_sig("ds_run_mu", ctypes.c_double, _vp)
_sig("ds_run_cbar", ctypes.c_double, _vp)
_sig("ds_run_reason", None, _vp, _cp, ctypes.c_size_t)
_sig("ds_run_history_count", ctypes.c_size_t, _vp)
_sig("ds_run_history_column", ctypes.c_long, _vp, _cp, _dp, ctypes.c_size_t)
_sig("ds_history_column_name", _cp, _ip)
_sig("ds_status_name", _cp, _ip)
_sig("ds_status_exit_code", _ip, _ip)


class Network:
    """A loaded network. `links` is (init_id, term_id) as the files number nodes."""

    def __init__(self, handle):
        self._h = handle
        n = [ctypes.c_int() for _ in range(4)]
        _lib.ds_network_counts(handle, *[ctypes.byref(x) for x in n])
        self.n_nodes, self.n_links, self.n_zones, self.n_od = (x.value for x in n)
        self.name = _lib.ds_network_name(handle).decode(errors="replace")
        a = np.zeros(self.n_links, dtype=np.intc)
        b = np.zeros(self.n_links, dtype=np.intc)
        _lib.ds_network_link_ids(handle, a.ctypes.data_as(ctypes.POINTER(_ip)), b.ctypes.data_as(ctypes.POINTER(_ip)))
        self.links = (a, b)

    def __del__(self):
        if getattr(self, "_h", None):
            _lib.ds_network_free(self._h)
            self._h = None

    # A copy is a copy of the C network (two objects must never share one
    # handle: each frees it); a pickle cannot carry it to another process.
    def __copy__(self):
        h = _lib.ds_network_clone(self._h)
        if not h:
            raise MemoryError("ds_network_clone")
        return Network(h)

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __reduce__(self):
        raise TypeError("a dillsue.Network holds a C network and cannot be pickled: pass the file paths to the other "
                        "process and load() them there")

    def __repr__(self):
        return "<dillsue.Network %s: %d nodes, %d links, %d zones>" % (self.name, self.n_nodes, self.n_links,
                                                                    self.n_zones)


def _enc(s):
    if s is None:
        return None
    b = os.fsencode(s)
    if b"\0" in b:
        raise ValueError("embedded null byte")
    return b


def load(net_path, trips_path=None):
    """Load a TNTP network (trips default to the sibling _trips.tntp). Only the
    network and trips files are read, as `dillsue solve` reads them: a damaged
    _node.tntp or _flow.tntp beside them does not matter. A self-loop row of the
    net file is dropped (no route uses it), so links and flows have one value
    per link of the file but its self-loops."""
    err = _Error()
    h = _lib.ds_network_load_net_trips(_enc(net_path), _enc(trips_path), ctypes.byref(err))
    if not h:
        err.raise_()
    return Network(h)


def default_network():
    """The small network compiled into the library (ringcity)."""
    err = _Error()
    h = _lib.ds_network_load_default(ctypes.byref(err))
    if not h:
        err.raise_()
    return Network(h)


class Result:
    """What a solve gave: status ("converged", "max-iterations", ...), exit_code
    (as `dillsue solve` would exit), reason, mu, cbar, flows and costs (numpy
    arrays in link order, None if the run produced none), history (a dict of
    numpy arrays, one per telemetry field, one value per outer iteration) and
    certificate (a dict: demand_total, demand_loaded, demand_arrived, lost_pct,
    max_imbalance, imbalance_node, mean_links, mean_cost_cbar)."""

    def __repr__(self):
        n = len(self.history.get("iter", ()))
        return "<dillsue.Result %s after %d records, mu %.6g>" % (self.status, n, self.mu)


def _by_name(names, value):
    """{name: value(name)} over the names the library lists (names(0), names(1), ... until NULL)."""
    out, i = {}, 0
    while True:
        name = names(i)
        if not name:
            return out
        out[name.decode()] = value(name)
        i += 1


def _setting_text(k, v):
    """A setting's value as the command line would take it: numbers and names only."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (numbers.Real, str)):
        raise TypeError("%s: a number or a name, got %s" % (k, type(v).__name__))
    if not isinstance(v, str):  # numpy scalars (np.int64(50), np.float32(10)) as Python numbers
        v = int(v) if isinstance(v, numbers.Integral) else float(v)
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        v = int(v)  # max_iter=100.0 as 100
    t = v if isinstance(v, str) else repr(v)
    if "\0" in t:
        raise ValueError("%s: embedded null byte" % k)
    return t.encode()


def _execute(run):
    """ds_run_execute on a thread of its own (ctypes releases the GIL), so that
    Ctrl-C (KeyboardInterrupt) reaches Python during a long solve: it cancels
    the run, waits for it to stop, and is raised again."""
    out, done = [], threading.Event()

    def body():
        try:
            out.append(_lib.ds_run_execute(run))
        finally:
            done.set()

    t = threading.Thread(target=body, name="dillsue-solve", daemon=True)
    t.start()
    # waited on through an Event, not Thread.join: an interrupt inside join()
    # can leave the thread marked as stopped while it runs (CPython
    # bpo-45274), and the run would be freed under it
    try:
        while not done.wait(0.1):
            pass
    except BaseException:
        _lib.ds_run_cancel(run)
        while True:
            try:
                while not done.wait(0.1):
                    pass
                break
            except BaseException:
                # already cancelling: wait for the run to stop, whatever else
                # arrives meanwhile (a second Ctrl-C, or a timer's handler
                # that raises again: it escaped and the run was freed under
                # the engine, a segfault); the first exception is raised
                continue
        raise
    return out[0]


def solve(net, warm=None, **settings):
    """Solve the SUE on net. settings: tau or mu (not both), filter, solver,
    tol, max_iter, threads, backend, cap, toll_factor, distance_factor, inner,
    inner_max, edsp_refresh, edsp_damping, globalise, start, newton_warm,
    factor_mb, cuda_emulate (checked by the same rules as the command line).
    warm: start flows, one per link (finite, >= 0), as `solve --warm`.

    The solve runs with the GIL released: other Python threads go on, and
    solves in several threads are independent (bitwise the flows each gives
    alone). Ctrl-C cancels it (KeyboardInterrupt is raised once it stopped)."""
    if "tau" in settings and "mu" in settings:
        raise DillsueError("", 0, "give tau or mu, not both")
    err = _Error()
    cfg = _lib.ds_config_new()
    if not cfg:
        raise MemoryError("ds_config_new")
    w = None
    try:
        for k, v in settings.items():
            if _lib.ds_config_set(cfg, k.encode(), _setting_text(k, v), ctypes.byref(err)) != 0:
                err.raise_()
        if warm is not None:
            w = np.ascontiguousarray(warm, dtype=np.float64)
            if w.shape != (net.n_links,):
                raise ValueError("warm: %d flows, one per link (%d)" % (w.size, net.n_links))
            _lib.ds_config_set_warm(cfg, w.ctypes.data_as(_dp))  # copied by ds_run_create
        run = _lib.ds_run_create(net._h, cfg, ctypes.byref(err))
        if not run:
            err.raise_()
    finally:
        _lib.ds_config_free(cfg)
    try:
        st = _execute(run)
        r = Result()
        r.status = _lib.ds_status_name(st).decode()
        r.exit_code = _lib.ds_status_exit_code(st)
        buf = ctypes.create_string_buffer(1024)
        _lib.ds_run_reason(run, buf, len(buf))
        r.reason = buf.value.decode(errors="replace")
        r.mu, r.cbar = _lib.ds_run_mu(run), _lib.ds_run_cbar(run)
        fp, cp = _lib.ds_run_flows(run), _lib.ds_run_costs(run)
        n = net.n_links
        count = _lib.ds_run_history_count(run)
        # flows as `dillsue solve` writes them: none from a run without an
        # iterate (ill-posed, cancelled in set-up) or one that failed (its x is
        # no result); the library hands back x = 0 or the failed iterate
        usable = count > 0 and r.status in ("converged", "max-iterations", "cancelled")
        r.flows = np.ctypeslib.as_array(fp, shape=(n,)).copy() if fp and usable else None
        r.costs = np.ctypeslib.as_array(cp, shape=(n,)).copy() if cp and usable else None

        def column(name):
            col = np.zeros(count, dtype=np.float64)
            got = _lib.ds_run_history_column(run, name, col.ctypes.data_as(_dp), count)
            return col[:max(got, 0)]

        r.history = _by_name(_lib.ds_history_column_name, column)
        # the end-of-run certificate (solve's certificate line): lost demand,
        # flow conservation, the mean trip; NaN where the run has none
        r.certificate = _by_name(_lib.ds_certificate_field_name, lambda name: _lib.ds_run_certificate_field(run, name))
        r.certificate["imbalance_node"] = _lib.ds_run_certificate_field(run, b"imbalance_node")
        return r
    finally:
        _lib.ds_run_free(run)
