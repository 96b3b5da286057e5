#!/usr/bin/env python3
"""sweep_tables.py DIR [--complete] - the paper's tables from a sweep directory.

Reads DIR/sweep.conf and DIR/cells.csv (run `dillsue sweep --merge --out DIR`
first if the sweep was stopped) and prints Markdown:
  1. the solver ladder: median iterations (p10-p90) per tau x filter x solver
     over converged cells, with converged / not converged counts, beside the
     paper's medians (SRA 438 / 2,011, Anderson 918 / 908, Newton 115 / 205 at
     tau 3 / 10; DESIGN.md 5);
  2. the SUE->UE bridge: median MAPE against each scenario's UE (sweeps run with
     --ue), over converged cells of the fastest solver present, beside the
     paper's table S6 (Sioux Falls), with the base network (scenario 0) apart;
  3. with --filters bfs,dsp grids: BFS against DSP per tau (lost OD pairs and
     demand, iterations, MAPE vs UE): the paper's table S3.
--complete keeps only scenarios whose cells are all done (a stopped sweep).
Medians and percentiles interpolate linearly, as `dillsue sweep` does.
"""
import csv
import os
import sys

PAPER_LADDER = {("sra", 3): 438, ("sra", 10): 2011, ("anderson", 3): 918, ("anderson", 10): 908,
                ("newton", 3): 115, ("newton", 10): 205}
PAPER_S6 = {"full": {1: 26.9, 3: 6.0, 10: 1.0, 30: 0.36, 100: 0.12},
            "dsp": {1: 24.5, 3: 24.1, 10: 23.9, 30: 23.9, 100: 23.8}}


def pct(v, p):
    v = sorted(v)
    if not v:
        return float("nan")
    pos = p / 100.0 * (len(v) - 1)
    lo = int(pos)
    if lo >= len(v) - 1:
        return v[-1]
    return v[lo] + (pos - lo) * (v[lo + 1] - v[lo])


def fmt(x, nd=0):
    if x != x:
        return "-"
    return f"{x:,.{nd}f}"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    complete = "--complete" in sys.argv
    if len(args) != 1:
        sys.exit(__doc__)
    d = args[0]
    conf = dict(l.strip().split("=", 1) for l in open(os.path.join(d, "sweep.conf")) if "=" in l and not l.startswith("#"))
    disp_key = "mu" if "mu" in conf else "tau"
    taus = [float(x) for x in conf[disp_key].split(",")]
    filters = conf["filter"].split(",")
    solvers = conf["solver"].split(",")
    per_scen = len(taus) * len(filters) * len(solvers)
    rows = list(csv.DictReader(open(os.path.join(d, "cells.csv"))))
    count = {}
    for r in rows:
        count[int(r["scenario"])] = count.get(int(r["scenario"]), 0) + 1
    keep = {k for k, n in count.items() if n == per_scen} if complete else set(count)
    rows = [r for r in rows if int(r["scenario"]) in keep]
    nscen = len(keep)
    print(f"{nscen} scenarios ({'complete ones only' if complete else 'all cells done'}), "
          f"{len(rows)} cells, {disp_key} {conf[disp_key]}, tol {float(conf['tol']):g}, max {conf['max_iter']} iterations")
    print()

    def cells(t, f, s, scen=None):
        return [r for r in rows if float(r[disp_key]) == t and r["filter"] == f and r["solver"] == s
                and (scen is None or int(r["scenario"]) == scen)]

    # 1. ladder
    print("| " + disp_key + " | filter | solver | converged | not conv. | ill-posed | median iterations (p10-p90) | paper median | median s |")
    print("|---:|---|---|---:|---:|---:|---:|---:|---:|")
    for t in taus:
        for f in filters:
            for s in solvers:
                c = cells(t, f, s)
                conv = [r for r in c if r["status"] == "converged"]
                ill = sum(r["status"] == "ill-posed" for r in c)
                it = [float(r["iterations"]) for r in conv]
                tm = [float(r["wall_s"]) for r in conv]
                paper = PAPER_LADDER.get((s, int(t))) if disp_key == "tau" and t == int(t) else None
                print(f"| {t:g} | {f} | {s} | {len(conv)} | {len(c) - len(conv) - ill} | {ill} | "
                      f"{fmt(pct(it, 50))} ({fmt(pct(it, 10))}-{fmt(pct(it, 90))}) | "
                      f"{fmt(paper) if paper else ''} | {pct(tm, 50):.3g} |")
    print()

    # 2. bridge
    if conf.get("ue") == "1":
        order = [s for s in ("newton", "anderson", "sra", "msa") if s in solvers]
        s = order[0]
        print(f"MAPE (%) of the SUE ({s}, converged cells) against each scenario's Wardrop UE:")
        print()
        print("| filter | " + " | ".join(f"{disp_key} {t:g}" for t in taus) + " |")
        print("|---|" + "---:|" * len(taus))
        for f in filters:
            med, base, paper = [], [], []
            for t in taus:
                c = [float(r["mape_ue"]) for r in cells(t, f, s) if r["status"] == "converged" and r["mape_ue"]]
                c0 = [float(r["mape_ue"]) for r in cells(t, f, s, 0) if r["mape_ue"]]
                med.append(fmt(pct(c, 50), 2) + (f" ({len(c)})" if len(c) != nscen else ""))
                base.append(fmt(c0[0], 2) if c0 else "-")
                paper.append(fmt(PAPER_S6.get(f, {}).get(int(t), float("nan")), 2))
            print(f"| {f}, median of {nscen} scenarios | " + " | ".join(med) + " |")
            print(f"| {f}, base network (scenario 0) | " + " | ".join(base) + " |")
            if f in PAPER_S6:
                print(f"| {f}, paper S6 | " + " | ".join(paper) + " |")
        print()

    # 3. bfs against dsp
    if "bfs" in filters and "dsp" in filters:
        s = [x for x in ("newton", "anderson", "sra", "msa") if x in solvers][0]
        print(f"BFS against DSP ({s}; medians over scenarios; lost = OD pairs without a path under the filter):")
        print()
        print("| " + disp_key + " | filter | scenarios losing OD pairs | median lost OD pairs | median lost demand | median iterations | median MAPE vs UE (%) |")
        print("|---:|---|---:|---:|---:|---:|---:|")
        for t in taus:
            for f in ("dsp", "bfs"):
                c = cells(t, f, s)
                lost = [float(r["lost_od"]) for r in c]
                tot = [float(r["lost_demand"]) for r in c]
                it = [float(r["iterations"]) for r in c if r["status"] == "converged"]
                mp = [float(r["mape_ue"]) for r in c if r["status"] == "converged" and r["mape_ue"]]
                print(f"| {t:g} | {f} | {sum(x > 0 for x in lost)} of {len(c)} | {fmt(pct(lost, 50))} | "
                      f"{fmt(pct(tot, 50), 1)} | {fmt(pct(it, 50))} | {fmt(pct(mp, 50), 2)} |")
        print()


if __name__ == "__main__":
    main()
