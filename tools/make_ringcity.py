#!/usr/bin/env python3
"""make_ringcity.py - generate data/ringcity.{net,trips,node}.tntp.

Ringcity is the small network dillsue ships and embeds: a ring-radial city of
25 road nodes (a centre, three rings of eight) with 12 zones that are
centroids (FIRST THRU NODE 13), so routes may start and end at a zone but
never cut through one. Demand comes from a gravity model whose overall scale
is calibrated here, with a small Frank-Wolfe user equilibrium that honours the
centroids, so that the inner ring runs at v/c close to 1 at UE: congested
enough that the dispersion and the solver matter.

Everything is deterministic: running the script again gives the same bytes.
Usage: python3 tools/make_ringcity.py [OUTDIR]   (default: data)
"""
import heapq
import math
import os
import sys

N_SPOKES = 8
RING_RADIUS_KM = [2.0, 4.0, 6.5]  # inner, middle, outer (motorway) ring
TARGET_INNER_VC = 1.0             # mean UE v/c on the inner ring
BPR_B, BPR_POWER = 0.15, 4.0
FW_ITERS = 400

# link classes: (capacity veh/h, speed km/h, link_type)
CLS = {
    "inner_ring":  (1500.0, 40.0, 2),
    "middle_ring": (2200.0, 60.0, 2),
    "outer_ring":  (4200.0, 90.0, 1),
    "radial_in":   (1400.0, 40.0, 3),   # centre - inner ring
    "radial_mid":  (3400.0, 50.0, 3),   # inner - middle ring
    "radial_out":  (3600.0, 60.0, 3),   # middle - outer ring
    "connector":   (9000.0, 30.0, 9),
}


def build():
    """Nodes (1-based id -> (x, y, label)) and directed links."""
    nodes = {}
    # zones first: TNTP numbers centroids below FIRST THRU NODE.
    for z, k in ((1, 1), (2, 5)):  # two CBD zones just inside the inner ring
        a = (k + 0.5) * 2 * math.pi / N_SPOKES
        nodes[z] = (1.5 * math.cos(a), 1.5 * math.sin(a), "CBD %d" % z)
    for k in range(N_SPOKES):  # suburbs beyond the outer ring, between spokes
        a = (k + 0.5) * 2 * math.pi / N_SPOKES
        nodes[3 + k] = (8.0 * math.cos(a), 8.0 * math.sin(a), "suburb %d" % (k + 1))
    for z, k in ((11, 2), (12, 6)):  # two district centres near the middle ring
        a = (k + 0.35) * 2 * math.pi / N_SPOKES
        nodes[z] = (5.2 * math.cos(a), 5.2 * math.sin(a), "district %d" % (z - 10))
    n_zones = 12
    centre = 13
    nodes[centre] = (0.0, 0.0, "centre")

    def ring_node(r, k):
        return 14 + r * N_SPOKES + (k % N_SPOKES)

    for r, rad in enumerate(RING_RADIUS_KM):
        for k in range(N_SPOKES):
            a = k * 2 * math.pi / N_SPOKES
            nodes[ring_node(r, k)] = (rad * math.cos(a), rad * math.sin(a), "ring %d spoke %d" % (r + 1, k))

    links = []

    def both(u, v, cls):
        links.append((u, v, cls))
        links.append((v, u, cls))

    for k in range(N_SPOKES):
        both(centre, ring_node(0, k), "radial_in")
        both(ring_node(0, k), ring_node(1, k), "radial_mid")
        both(ring_node(1, k), ring_node(2, k), "radial_out")
    for r, cls in enumerate(("inner_ring", "middle_ring", "outer_ring")):
        for k in range(N_SPOKES):
            both(ring_node(r, k), ring_node(r, k + 1), cls)
    # Each CBD zone touches the two inner-ring nodes beside it, so traffic
    # from other sectors reaches it along the inner ring (or across the centre).
    for z, k in ((1, 1), (2, 5)):
        both(z, ring_node(0, k), "connector")
        both(z, ring_node(0, k + 1), "connector")
    for k in range(N_SPOKES):  # each suburb touches the two outer-ring nodes beside it
        both(3 + k, ring_node(2, k), "connector")
        both(3 + k, ring_node(2, k + 1), "connector")
    for z, k in ((11, 2), (12, 6)):
        both(z, ring_node(1, k), "connector")
        both(z, ring_node(2, k), "connector")
    # file order: by tail, then head (as TNTP files usually are)
    links.sort(key=lambda l: (l[0], l[1]))
    out = []
    for u, v, cls in links:
        cap, speed, ltype = CLS[cls]
        (x1, y1, _), (x2, y2, _) = nodes[u], nodes[v]
        length = round(math.hypot(x2 - x1, y2 - y1), 3)
        t0 = round(length / speed * 60.0, 4)  # minutes
        out.append(dict(u=u, v=v, cls=cls, cap=cap, length=length, t0=t0, speed=speed, type=ltype))
    return nodes, n_zones, centre, out


def gravity(nodes, n_zones, links, centre):
    """Unscaled singly-constrained gravity table on free-flow zone-to-zone times."""
    prod = {1: 900, 2: 900, 11: 1100, 12: 1100}
    attr = {1: 3200, 2: 3000, 11: 1500, 12: 1400}
    for z in range(3, 11):
        prod[z] = 1500 + 100 * ((z * 37) % 5)   # mild, fixed asymmetry
        attr[z] = 500 + 60 * ((z * 11) % 4)
    t0 = [l["t0"] for l in links]
    od = {}
    for o in range(1, n_zones + 1):
        dist = dijkstra(nodes, n_zones, links, t0, o)
        w = {d: attr[d] * math.exp(-0.08 * dist[d]) for d in range(1, n_zones + 1) if d != o}
        s = sum(w.values())
        for d, wd in w.items():
            od[(o, d)] = prod[o] * wd / s
    return od


def adjacency(links):
    adj = {}
    for i, l in enumerate(links):
        adj.setdefault(l["u"], []).append(i)
    return adj


_ADJ = {}


def dijkstra(nodes, n_zones, links, cost, origin, want_pred=False):
    """Shortest times from origin; zones other than the origin are never left."""
    key = id(links)
    if key not in _ADJ:
        _ADJ[key] = adjacency(links)
    adj = _ADJ[key]
    dist = {n: math.inf for n in nodes}
    pred = {}
    dist[origin] = 0.0
    heap = [(0.0, origin)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        if u != origin and u <= n_zones:
            continue  # centroid: may end here, not pass through
        for i in adj.get(u, []):
            v = links[i]["v"]
            nd = d + cost[i]
            if nd < dist[v]:
                dist[v] = nd
                pred[v] = i
                heapq.heappush(heap, (nd, v))
    return (dist, pred) if want_pred else dist


def bpr(l, x):
    return l["t0"] * (1 + BPR_B * (x / l["cap"]) ** BPR_POWER)


def all_or_nothing(nodes, n_zones, links, od, cost):
    y = [0.0] * len(links)
    origins = sorted({o for o, _ in od})
    for o in origins:
        _, pred = dijkstra(nodes, n_zones, links, cost, o, want_pred=True)
        for (oo, d), q in od.items():
            if oo != o or q <= 0:
                continue
            n = d
            while n != o:
                i = pred[n]
                y[i] += q
                n = links[i]["u"]
    return y


def frank_wolfe(nodes, n_zones, links, od, iters=FW_ITERS):
    cost = [l["t0"] for l in links]
    x = all_or_nothing(nodes, n_zones, links, od, cost)
    for it in range(iters):
        cost = [bpr(l, xi) for l, xi in zip(links, x)]
        y = all_or_nothing(nodes, n_zones, links, od, cost)
        d = [yi - xi for yi, xi in zip(y, x)]
        lo, hi = 0.0, 1.0  # exact line search on the Beckmann objective (bisection)
        for _ in range(40):
            a = 0.5 * (lo + hi)
            g = sum(di * bpr(l, xi + a * di) for l, xi, di in zip(links, x, d))
            if g > 0:
                hi = a
            else:
                lo = a
        a = 0.5 * (lo + hi)
        x = [xi + a * di for xi, di in zip(x, d)]
    return x


def inner_vc(links, x):
    r = [xi / l["cap"] for l, xi in zip(links, x) if l["cls"] == "inner_ring"]
    return sum(r) / len(r)


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else "data"
    nodes, n_zones, centre, links = build()
    base = gravity(nodes, n_zones, links, centre)

    # Calibrate the demand scale: inner-ring v/c rises monotonically with it.
    lo, hi = 0.2, 20.0
    for _ in range(18):
        s = math.sqrt(lo * hi)
        od = {k: q * s for k, q in base.items()}
        vc = inner_vc(links, frank_wolfe(nodes, n_zones, links, od, iters=60))
        if vc > TARGET_INNER_VC:
            hi = s
        else:
            lo = s
    scale = round(math.sqrt(lo * hi), 2)
    od = {k: round(q * scale, 1) for k, q in base.items()}
    x = frank_wolfe(nodes, n_zones, links, od)
    total = sum(od.values())

    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "ringcity.net.tntp"), "w") as f:
        f.write("<NUMBER OF ZONES> %d\n" % n_zones)
        f.write("<NUMBER OF NODES> %d\n" % len(nodes))
        f.write("<FIRST THRU NODE> %d\n" % (n_zones + 1))
        f.write("<NUMBER OF LINKS> %d\n" % len(links))
        f.write("<ORIGINAL HEADER>~ generated by tools/make_ringcity.py; length km, time min, speed km/h\n")
        f.write("<END OF METADATA>\n\n\n")
        f.write("~\tinit_node\tterm_node\tcapacity\tlength\tfree_flow_time\tb\tpower\tspeed\ttoll\tlink_type\t;\n")
        for l in links:
            f.write("\t%d\t%d\t%.1f\t%.3f\t%.4f\t%.2f\t%g\t%.1f\t0\t%d\t;\n"
                    % (l["u"], l["v"], l["cap"], l["length"], l["t0"], BPR_B, BPR_POWER, l["speed"], l["type"]))
    with open(os.path.join(outdir, "ringcity.trips.tntp"), "w") as f:
        f.write("<NUMBER OF ZONES> %d\n" % n_zones)
        f.write("<TOTAL OD FLOW> %.1f\n" % total)
        f.write("<END OF METADATA>\n\n\n")
        for o in range(1, n_zones + 1):
            f.write("Origin \t%d \n" % o)
            row = []
            for d in range(1, n_zones + 1):
                row.append("%5d : %9.1f;" % (d, 0.0 if d == o else od[(o, d)]))
            for i in range(0, len(row), 5):
                f.write(" ".join(row[i:i + 5]) + "\n")
            f.write("\n")
    with open(os.path.join(outdir, "ringcity.node.tntp"), "w") as f:
        f.write("Node\tX\tY\t;\n")
        for n in sorted(nodes):
            f.write("%d\t%.3f\t%.3f\t;\n" % (n, nodes[n][0], nodes[n][1]))

    vc = [xi / l["cap"] for l, xi in zip(links, x)]
    print("ringcity: %d nodes, %d links, %d zones, total demand %.1f (scale %.2f)"
          % (len(nodes), len(links), n_zones, total, scale))
    print("UE (Frank-Wolfe, %d iterations): inner-ring mean v/c %.3f, max v/c %.3f over all links"
          % (FW_ITERS, inner_vc(links, x), max(vc)))
    for cls in CLS:
        r = [v for v, l in zip(vc, links) if l["cls"] == cls]
        print("  %-12s %3d links  v/c mean %.2f max %.2f" % (cls, len(r), sum(r) / len(r), max(r)))


if __name__ == "__main__":
    main()
