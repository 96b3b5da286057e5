#!/usr/bin/env python3
"""Independent reference implementation of dillsue's loading map f(x).

Written from the model text (../shared/DESIGN.md section 1 and docs/model.md),
not from src/engine, so that tests/t_reference.sh can check the C program's
f(x) to round-off against code that shares none of its arithmetic: its own
TNTP reader, its own shortest paths (heap Dijkstra, BFS), and for the full
graph a dense direct solve per destination instead of sparse LU or passes.
Python 3 + numpy only (Debian python3-numpy; no scipy).

  ref_loading.py --net NET [--trips TRIPS] [--flows X.csv] (--tau T | --mu M)
                 --filter full|dsp|bfs [--cap C] [--toll-factor F]
                 [--distance-factor F] --out F.csv
  ref_loading.py --compare A.csv R.csv     # per-link max |a - r| of flow, cost

--dsp-tie-tol R (default 0: the documented rule, exact double comparisons)
treats free-flow distances within R relative of each other as equal in the DSP
mask, so that the mask no longer depends on the order in which path costs were
summed (Anaheim destination 35: nodes 375 and 390 are equidistant in decimal
arithmetic, 1 ulp apart in doubles).

Prints cbar, mu, (gap_rel with --flows) and unassigned OD demand on stdout.
Exit 0; 2 on usage or input errors; 3 if f(x) does not exist at x.
"""
import heapq
import math
import re
import sys

import numpy as np

EXIT_USAGE, EXIT_NO_F = 2, 3


class InputError(Exception):
    pass


# ----------------------------------------------------------------------------
# TNTP reading

_META = re.compile(r"^\s*<([^>]*)>\s*(.*)$")


def _read_tntp(path):
    """Return (metadata dict, list of (line number, data text)) of a TNTP file.
    Metadata lines are '<KEY> value' up to <END OF METADATA>; in the body '~'
    starts a comment."""
    meta, body, in_meta = {}, [], True
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}")
    for no, line in enumerate(lines, 1):
        if in_meta:
            m = _META.match(line)
            if m:
                key = m.group(1).strip().upper()
                if key == "END OF METADATA":
                    in_meta = False
                else:
                    meta[key] = m.group(2).split("~")[0].strip()
                continue
            if not line.strip():
                continue
            in_meta = False  # a file without <END OF METADATA>
        text = line.split("~", 1)[0]
        if text.strip():
            body.append((no, text))
    return meta, body


def _meta_num(meta, key, path, default=None):
    if key not in meta or not meta[key].split():
        if default is None:
            raise InputError(f"{path}: metadata <{key}> missing")
        return default
    try:
        return float(meta[key].split()[0])
    except ValueError:
        raise InputError(f"{path}: metadata <{key}> is not a number: {meta[key]!r}")


def read_net(path):
    meta, body = _read_tntp(path)
    first_thru = int(_meta_num(meta, "FIRST THRU NODE", path, 1))
    toll_f = _meta_num(meta, "TOLL FACTOR", path, 0.0)
    dist_f = _meta_num(meta, "DISTANCE FACTOR", path, 0.0)
    links = []
    for no, text in body:
        fields = text.split(";", 1)[0].split()
        if not fields:
            continue
        if len(fields) < 7:
            raise InputError(f"{path}:{no}: a link needs at least 7 fields, got {len(fields)}")
        try:
            u, v = int(fields[0]), int(fields[1])
            cap, length, t0, b, p = (float(s) for s in fields[2:7])
            toll = float(fields[8]) if len(fields) > 8 else 0.0
        except ValueError:
            raise InputError(f"{path}:{no}: not a number in {text.strip()!r}")
        links.append((u, v, cap, length, t0, b, p, toll))
    if not links:
        raise InputError(f"{path}: no links")
    return {"first_thru": first_thru, "toll_factor": toll_f, "distance_factor": dist_f,
            "links": links}


def read_trips(path):
    meta, body = _read_tntp(path)
    demand, origin = {}, None
    for no, text in body:
        s = text.strip()
        if s.lower().startswith("origin"):
            try:
                origin = int(s.split()[1])
            except (IndexError, ValueError):
                raise InputError(f"{path}:{no}: bad Origin line")
            continue
        for piece in s.split(";"):
            if not piece.strip():
                continue
            if ":" not in piece or origin is None:
                raise InputError(f"{path}:{no}: expected 'dest : demand', got {piece.strip()!r}")
            a, q = piece.split(":", 1)
            try:
                dest, q = int(a), float(q)
            except ValueError:
                raise InputError(f"{path}:{no}: not a number in {piece.strip()!r}")
            demand[(origin, dest)] = demand.get((origin, dest), 0.0) + q
    return demand


def read_flows(path, net):
    """A flow CSV: header init_node,term_node,flow,cost, one row per link in
    file order; returns the flow column."""
    try:
        with open(path) as fh:
            rows = [r.strip() for r in fh if r.strip()]
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}")
    if not rows or not rows[0].startswith("init_node,term_node,flow"):
        raise InputError(f"{path}:1: header init_node,term_node,flow,cost expected")
    rows = rows[1:]
    if len(rows) != len(net["links"]):
        raise InputError(f"{path}: {len(rows)} rows, the network has {len(net['links'])} links")
    x = np.empty(len(rows))
    for i, (r, lk) in enumerate(zip(rows, net["links"])):
        f = r.split(",")
        try:
            if (int(f[0]), int(f[1])) != (lk[0], lk[1]):
                raise InputError(f"{path}:{i + 2}: link {f[0]}->{f[1]}, expected {lk[0]}->{lk[1]}")
            x[i] = float(f[2])
        except (IndexError, ValueError):
            raise InputError(f"{path}:{i + 2}: bad row {r!r}")
    return x


# ----------------------------------------------------------------------------
# The model

def solve_refined(A, b):
    """Dense LU solve plus iterative refinement with residuals in long double.
    The full-graph systems get ill-conditioned as the spectral radius nears 1
    (Anaheim, tau 10, at equilibrium: cond ~3e6); a plain solve then leaves
    ~1e-12 relative error in f, which the refinement removes, so that what is
    left of a disagreement with the program is the program's."""
    x = np.linalg.solve(A, b)
    AL, bL = A.astype(np.longdouble), b.astype(np.longdouble)
    prev = math.inf
    for _ in range(4):
        r = (bL - AL @ x.astype(np.longdouble)).astype(np.float64)
        dx = np.linalg.solve(A, r)
        x = x + dx
        size = float(np.max(np.abs(dx))) if dx.size else 0.0
        if size <= 1e-17 * float(np.max(np.abs(x))) or size >= 0.5 * prev:
            break
        prev = size
    return x

class Model:
    def __init__(self, net, demand, cap, toll_factor, distance_factor):
        lk = net["links"]
        ids = sorted({l[0] for l in lk} | {l[1] for l in lk}
                     | {o for o, _ in demand} | {d for _, d in demand})
        self.ids = ids
        ix = {n: i for i, n in enumerate(ids)}
        self.n = len(ids)
        self.m = len(lk)
        self.tail = np.array([ix[l[0]] for l in lk])
        self.head = np.array([ix[l[1]] for l in lk])
        self.capacity = np.array([l[2] for l in lk])
        self.length = np.array([l[3] for l in lk])
        self.t0 = np.array([l[4] for l in lk])
        self.b = np.array([l[5] for l in lk])
        self.power = np.array([l[6] for l in lk])
        self.toll = np.array([l[7] for l in lk])
        self.cap = cap
        self.tie_tol = 0.0
        self.toll_factor = toll_factor
        self.distance_factor = distance_factor
        self.centroid = np.array([nid < net["first_thru"] for nid in ids])
        # Demand by destination, o != d only: a trip inside one zone never uses a link.
        self.q = {}
        for (o, d), val in sorted(demand.items()):
            if o != d and val != 0.0:
                self.q.setdefault(ix[d], np.zeros(self.n))[ix[o]] += val
        self.dests = sorted(self.q)
        self.out_links = [[] for _ in range(self.n)]
        self.in_links = [[] for _ in range(self.n)]
        for e in range(self.m):
            self.out_links[self.tail[e]].append(e)
            self.in_links[self.head[e]].append(e)

    def costs(self, x):
        """t = t0 (1 + b min(max(x,0)/c, CAP)^p) + toll factor * toll + distance factor * length."""
        out = np.empty(self.m)
        for e in range(self.m):  # scalar math.pow, as a C program would do it
            r = max(float(x[e]), 0.0) / self.capacity[e]
            if self.cap > 0:
                r = min(r, self.cap)
            out[e] = (self.t0[e] * (1.0 + self.b[e] * math.pow(r, self.power[e]))
                      + self.toll_factor * self.toll[e] + self.distance_factor * self.length[e])
        return out

    def usable(self, e, d):
        """Zones: a route may start or end at a centroid, never pass through one;
        the destination absorbs."""
        return self.tail[e] != d and (self.head[e] == d or not self.centroid[self.head[e]])

    def dijkstra(self, d, t):
        """Shortest distance to d over usable links, and the fewest hops among the
        shortest paths (lexicographic (distance, hops) labels)."""
        dist = [math.inf] * self.n
        hops = [math.inf] * self.n
        done = [False] * self.n
        dist[d], hops[d] = 0.0, 0
        heap = [(0.0, 0, d)]
        while heap:
            dv, hv, v = heapq.heappop(heap)
            if done[v]:
                continue
            done[v] = True
            for e in self.in_links[v]:
                if not self.usable(e, d):
                    continue
                u = self.tail[e]
                if t[e] < 0:
                    raise InputError(f"negative cost on link {self.ids[u]}->{self.ids[v]}")
                key = (dv + t[e], hv + 1)
                if key < (dist[u], hops[u]):
                    dist[u], hops[u] = key
                    heapq.heappush(heap, (key[0], key[1], u))
        return dist, hops

    def bfs_hops(self, d):
        h = [math.inf] * self.n
        h[d] = 0
        frontier = [d]
        while frontier:
            nxt = []
            for v in frontier:
                for e in self.in_links[v]:
                    u = self.tail[e]
                    if self.usable(e, d) and h[u] == math.inf:
                        h[u] = h[v] + 1
                        nxt.append(u)
            frontier = nxt
        return h

    def cbar(self):
        t = self.costs(np.zeros(self.m))
        num = den = 0.0
        for d in self.dests:
            dist, _ = self.dijkstra(d, t)
            for o in np.nonzero(self.q[d])[0]:
                if dist[o] < math.inf:
                    num += self.q[d][o] * dist[o]
                    den += self.q[d][o]
        return num / den

    # -- filtered variants: one pass on a DAG -----------------------------------
    def dag(self, d, variant, t_ff):
        """Per-destination link mask and a topological node order (towards d first)."""
        if variant == "bfs":
            h = self.bfs_hops(d)
            keep = [e for e in range(self.m) if self.usable(e, d)
                    and h[self.head[e]] < h[self.tail[e]]]
            order = sorted((n for n in range(self.n) if h[n] < math.inf), key=lambda n: h[n])
            return keep, order
        dist, hops = self.dijkstra(d, t_ff)
        tol = self.tie_tol
        keep = []
        for e in range(self.m):
            if not self.usable(e, d):
                continue
            u, v = self.tail[e], self.head[e]
            if dist[u] == math.inf or dist[v] == math.inf:
                continue
            if tol == 0:
                down = dist[v] < dist[u]
                tie = dist[v] == dist[u] and dist[v] + t_ff[e] == dist[u]
            else:  # distances within tol (relative) of each other are equal
                slack = tol * max(1.0, dist[u])  # docs/model.md: relative, floored at 1
                down = dist[u] - dist[v] > slack
                tie = abs(dist[u] - dist[v]) <= slack and t_ff[e] <= slack
            if down or (tie and hops[v] < hops[u]):
                # docs/model.md: a zero-cost (or rounding-away) shortest-path link
                # is kept when it goes down in hop count
                keep.append(e)
        return keep, self.topo_order(d, keep, dist, hops)

    def topo_order(self, d, keep, dist, hops):
        """Kahn's sort of the kept links towards d (heads before tails), ties
        taken in (dist, hops) order; checks that the mask is acyclic."""
        into = [[] for _ in range(self.n)]
        for e in keep:
            into[self.head[e]].append(self.tail[e])
        nodes = [n for n in range(self.n) if dist[n] < math.inf]
        # process a node once every link out of it (towards d) is done
        outdeg = [0] * self.n
        for e in keep:
            outdeg[self.tail[e]] += 1
        heap = [(dist[n], hops[n], n) for n in nodes if outdeg[n] == 0]
        heapq.heapify(heap)
        order = []
        while heap:
            _, _, v = heapq.heappop(heap)
            order.append(v)
            for u in into[v]:
                outdeg[u] -= 1
                if outdeg[u] == 0:
                    heapq.heappush(heap, (dist[u], hops[u], u))
        if len(order) != len(nodes):
            raise InputError(f"the DSP mask of destination {self.ids[d]} has a cycle")
        return order

    def load_dag(self, d, keep, order, t, mu, f, lost):
        out = [[] for _ in range(self.n)]
        for e in keep:
            out[self.tail[e]].append(e)
        V = [-math.inf] * self.n
        V[d] = 0.0
        for u in order:
            if u == d or not out[u]:
                continue
            terms = [-mu * t[e] + V[self.head[e]] for e in out[u]]
            mx = max(terms)
            if mx == -math.inf:
                continue
            V[u] = mx + math.log(sum(math.exp(s - mx) for s in terms))
        phi = self.q[d].copy()
        for u in reversed(order):
            if u == d or V[u] == -math.inf or phi[u] == 0.0:
                continue
            for e in out[u]:
                v = self.head[e]
                fe = math.exp(-mu * t[e] + V[v] - V[u]) * phi[u]
                f[e] += fe
                phi[v] += fe
        for o in np.nonzero(self.q[d])[0]:
            if V[o] == -math.inf:
                lost.append((o, d, self.q[d][o]))

    # -- full graph: the Bellman fixed point by a dense direct solve ------------
    def load_full(self, d, t, mu, f, lost):
        dist, _ = self.dijkstra(d, t)
        for o in np.nonzero(self.q[d])[0]:
            if dist[o] == math.inf:
                lost.append((o, d, self.q[d][o]))
        nodes = [n for n in range(self.n) if n != d and dist[n] < math.inf]
        row = {n: i for i, n in enumerate(nodes)}
        k = len(nodes)
        E = [e for e in range(self.m) if self.usable(e, d)
             and dist[self.tail[e]] < math.inf and dist[self.head[e]] < math.inf]
        if not nodes or not E:
            return True
        E = np.array(E, dtype=int)
        u, v = self.tail[E], self.head[E]
        D = np.array(dist)
        # reduced weights exp(-mu (t + D(v) - D(u))) in (0,1]; z~ = exp(V + mu D) >= 1
        w = np.exp(-mu * (t[E] + D[v] - D[u]))
        to_d = v == d
        iu = np.array([row[a] for a in u])
        W = np.zeros((k, k))
        bvec = np.zeros(k)
        np.add.at(bvec, iu[to_d], w[to_d])
        iv_nd = np.array([row[a] for a in v[~to_d]], dtype=int)
        np.add.at(W, (iu[~to_d], iv_nd), w[~to_d])
        I = np.eye(k)
        try:
            z = solve_refined(I - W, bvec)
        except np.linalg.LinAlgError:  # exactly singular: spectral radius 1
            return False
        # z > 0 iff the spectral radius of W is below 1 (every node here reaches d)
        if not np.all(np.isfinite(z)) or np.any(z <= 0):
            return False
        zv = np.where(to_d, 1.0, 0.0)
        zv[~to_d] = z[iv_nd]
        P = w * zv / z[iu]
        Pm = np.zeros((k, k))
        np.add.at(Pm, (iu[~to_d], iv_nd), P[~to_d])
        qd = np.array([self.q[d][n] for n in nodes])
        phi = solve_refined(I - Pm.T, qd)
        np.add.at(f, E, P * phi[iu])
        return True

    def load(self, x, mu, variant):
        """f(x), or None if the full graph's Bellman values diverge at x."""
        t = self.costs(x)
        f = np.zeros(self.m)
        lost = []
        t_ff = self.costs(np.zeros(self.m)) if variant == "dsp" else None
        for d in self.dests:
            if variant == "full":
                if not self.load_full(d, t, mu, f, lost):
                    return None, t, lost, self.ids[d]
            else:
                keep, order = self.dag(d, variant, t_ff)
                self.load_dag(d, keep, order, t, mu, f, lost)
        return f, t, lost, None


# ----------------------------------------------------------------------------
# Command line

def _read_csv(path):
    with open(path) as fh:
        rows = [r.strip().split(",") for r in fh if r.strip()][1:]
    return ([(r[0], r[1]) for r in rows], np.array([float(r[2]) for r in rows]),
            np.array([float(r[3]) for r in rows]))


def compare(a_path, r_path):
    la, fa, ca = _read_csv(a_path)
    lr, fr, cr = _read_csv(r_path)
    if la != lr:
        print(f"compare: the two files list different links ({len(la)} vs {len(lr)} rows)")
        return 1
    for name, a, r in (("flow", fa, fr), ("cost", ca, cr)):
        dmax = float(np.max(np.abs(a - r)))
        scale = max(1.0, float(np.max(np.abs(r))))
        print(f"{name}_maxabs {dmax:.3e} rel {dmax / scale:.3e} scale {scale:.6g}")
    return 0


USAGE = "\n\n".join(__doc__.split("\n\n")[2:5])


def main(argv):
    if len(argv) == 3 and argv[0] == "--compare":
        return compare(argv[1], argv[2])
    opts = {"--cap": "100", "--filter": "full"}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            print(USAGE)
            return 0
        if a not in ("--net", "--trips", "--flows", "--tau", "--mu", "--filter", "--cap",
                     "--toll-factor", "--distance-factor", "--out", "--dsp-tie-tol") or i + 1 >= len(argv):
            print(f"ref_loading: bad argument {a!r}\n{USAGE}", file=sys.stderr)
            return EXIT_USAGE
        opts[a] = argv[i + 1]
        i += 2
    if "--net" not in opts or "--out" not in opts or ("--tau" in opts) == ("--mu" in opts) \
            or opts["--filter"] not in ("full", "dsp", "bfs"):
        print(USAGE, file=sys.stderr)
        return EXIT_USAGE
    net_path = opts["--net"]
    trips_path = opts.get("--trips")
    if trips_path is None:
        for a, b in (("_net.tntp", "_trips.tntp"), (".net.tntp", ".trips.tntp")):
            if net_path.endswith(a):
                trips_path = net_path[: -len(a)] + b
                break
        else:
            print(f"ref_loading: cannot guess the trips file of {net_path}; give --trips", file=sys.stderr)
            return EXIT_USAGE
    try:
        net = read_net(net_path)
        demand = read_trips(trips_path)
        tf = float(opts.get("--toll-factor", net["toll_factor"]))
        df = float(opts.get("--distance-factor", net["distance_factor"]))
        model = Model(net, demand, float(opts["--cap"]), tf, df)
        model.tie_tol = float(opts.get("--dsp-tie-tol", 0.0))
        x = read_flows(opts["--flows"], net) if "--flows" in opts else np.zeros(model.m)
        cbar = model.cbar()
        mu = float(opts["--mu"]) if "--mu" in opts else float(opts["--tau"]) / cbar
        # float(): under numpy >= 2 the repr of a numpy scalar is np.float64(...)
        print(f"cbar {float(cbar)!r}")
        print(f"mu {float(mu)!r}")
        f, t, lost, bad = model.load(x, mu, opts["--filter"])
    except InputError as e:
        print(f"ref_loading: {e}", file=sys.stderr)
        return EXIT_USAGE
    if f is None:
        print(f"ref_loading: f(x) does not exist at x (destination {bad}: the Bellman "
              f"system has no positive solution, spectral radius >= 1)", file=sys.stderr)
        return EXIT_NO_F
    if lost:
        print(f"unassigned {len(lost)} OD pairs, demand {float(sum(q for _, _, q in lost))!r}")
    nx = float(np.linalg.norm(x))
    gap = float(np.linalg.norm(f - x)) / nx if nx > 0 else math.inf
    print(f"gap_rel {gap!r}")
    with open(opts["--out"], "w") as fh:
        fh.write("init_node,term_node,flow,cost\n")
        for e, lk in enumerate(net["links"]):
            fh.write(f"{lk[0]},{lk[1]},{float(f[e])!r},{float(t[e])!r}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
