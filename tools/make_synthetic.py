#!/usr/bin/env python3
"""make_synthetic.py - a random road network that no one has tuned for.

The shared TNTP networks are few and well known; a solver tuned on them can
still lose its way on a network it has never seen (issue 9). This writes
PREFIX_net.tntp and PREFIX_trips.tntp: N nodes scattered over a 30 x 30 km
square, each road node joined both ways to its 3 nearest road nodes (some 5 %
more joins at random; disconnected parts joined to the largest at their
closest pair), 15 % of the links fast roads (80 km/h, 3,000 veh/h) and the
rest streets (40 km/h, 1,200 veh/h), capacities +-30 %, BPR 0.15 / 4. The
first Z nodes are zones (FIRST THRU NODE Z + 1: routes never cut through
one), each joined to its 2 nearest road nodes; demand is a gravity model
SCALE x U(0.5, 1.5) x exp(-distance / 8 km), OD pairs below 0.5 dropped.
SCALE sets the congestion: `dillsue ue` on the result shows it (seed 1, N
3000, Z 300: SCALE 8 gives a UE with v/c median 0.04, 99th percentile 2.0;
SCALE 15 median 0.33, 99th percentile 3.9).

Deterministic: the same arguments give the same bytes.
Usage: python3 tools/make_synthetic.py N Z SEED SCALE PREFIX
"""
import math
import random
import sys
from collections import defaultdict

SIDE_KM = 30.0


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__.strip().splitlines()[-1])
    n, z, seed, scale, out = (int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]),
                              sys.argv[5])
    if not (0 < z < n):
        sys.exit("make_synthetic: need 0 < Z < N")
    random.seed(seed)
    pts = [(random.random() * SIDE_KM, random.random() * SIDE_KM) for _ in range(n)]
    cell = SIDE_KM / math.sqrt(n) * 1.5
    buckets = defaultdict(list)
    for i, (x, y) in enumerate(pts):
        buckets[(int(x / cell), int(y / cell))].append(i)

    # nearest road nodes (in the 3 x 3 buckets around): 3 for a road node, 2 for a zone
    links = set()
    for i, (x, y) in enumerate(pts):
        cx, cy = int(x / cell), int(y / cell)
        cand = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for j in buckets[(cx + dx, cy + dy)]:
                    if j != i and j >= z:
                        cand.append((math.hypot(pts[j][0] - x, pts[j][1] - y), j))
        cand.sort()
        for _, j in cand[:3 if i >= z else 2]:
            links.add((i, j))
            links.add((j, i))
    # some longer joins between neighbours in a sweep order
    order = sorted(range(n), key=lambda i: (int(pts[i][0] / cell), pts[i][1]))
    for a, b in zip(order, order[1:]):
        if a >= z and b >= z and random.random() < 0.05:
            links.add((a, b))
            links.add((b, a))

    # the road nodes must form one component without passing through a zone
    par = list(range(n))

    def find(a):
        while par[a] != a:
            par[a] = par[par[a]]
            a = par[a]
        return a

    for i, j in links:
        if i >= z and j >= z:
            par[find(i)] = find(j)
    while True:
        comps = {}
        for i in range(z, n):
            comps.setdefault(find(i), []).append(i)
        if len(comps) == 1:
            break
        big = max(comps.values(), key=len)
        for mem in comps.values():
            if mem is big:
                continue
            best = None
            for i in mem:
                for j in big:
                    d = (pts[i][0] - pts[j][0]) ** 2 + (pts[i][1] - pts[j][1]) ** 2
                    if best is None or d < best[0]:
                        best = (d, i, j)
            _, i, j = best
            links.add((i, j))
            links.add((j, i))
            par[find(i)] = find(j)
            break

    rows = []
    for i, j in sorted(links):
        length = math.hypot(pts[j][0] - pts[i][0], pts[j][1] - pts[i][1]) + 0.05
        fast = random.random() < 0.15
        speed = 80.0 if fast else 40.0
        cap = (3000.0 if fast else 1200.0) * random.uniform(0.7, 1.3)
        rows.append((i + 1, j + 1, cap, length, length / speed * 60.0))
    with open(out + "_net.tntp", "w") as f:
        f.write(f"<NUMBER OF ZONES> {z}\n<NUMBER OF NODES> {n}\n<FIRST THRU NODE> {z + 1}\n"
                f"<NUMBER OF LINKS> {len(rows)}\n<END OF METADATA>\n\n"
                "~ init term cap len fft b power speed toll type ;\n")
        for a, b, cap, length, fft in rows:
            f.write(f"\t{a}\t{b}\t{cap:.1f}\t{length:.3f}\t{fft:.4f}\t0.15\t4.0\t0\t0\t1\t;\n")

    total = 0
    demand = defaultdict(list)
    for o in range(z):
        for d in range(z):
            if o == d:
                continue
            dist = math.hypot(pts[o][0] - pts[d][0], pts[o][1] - pts[d][1])
            v = scale * random.uniform(0.5, 1.5) * math.exp(-dist / 8.0)
            if v > 0.5:
                v = round(v, 2)
                demand[o].append((d, v))
                total += v
    with open(out + "_trips.tntp", "w") as f:
        f.write(f"<NUMBER OF ZONES> {z}\n<TOTAL OD FLOW> {total:.2f}\n<END OF METADATA>\n\n")
        for o in range(z):
            f.write(f"Origin {o + 1}\n")
            for d, v in demand[o]:
                f.write(f"{d + 1} : {v:.2f}; ")
            f.write("\n\n")
    print(f"{out}: {n} nodes, {z} zones, {len(rows)} links, demand {total:.2f}")


if __name__ == "__main__":
    main()
