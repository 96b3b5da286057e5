#!/usr/bin/env python3
"""sweep_tables.py [--complete] DIR [[LABEL=]DIR2 ...] - the paper's tables from sweep directories.

Reads DIR/sweep.conf and DIR/cells.csv (run `dillsue sweep --merge --out DIR`
first if the sweep was stopped) and prints Markdown:
  1. the solver ladder: median iterations (p10-p90) per tau x filter x solver
     over converged cells, with converged / not converged counts; on Sioux Falls
     beside the paper's medians (SRA 438 / 2,011, Anderson 918 / 908, Newton
     115 / 205 at tau 3 / 10; DESIGN.md 5);
  2. the SUE->UE bridge: median MAPE against each scenario's UE (sweeps run with
     --ue), over converged cells of the fastest solver present, with the base
     network (scenario 0) apart; on Sioux Falls beside the paper's table S6;
     then the relative gap the UE references reached (DIR/ue/kNNNN.txt);
  3. for grids swept with --filter bfs,dsp: BFS against DSP per tau (lost OD pairs and
     demand, iterations, MAPE vs UE): the paper's table S3.
Further directories add their cells to the same tables (same network, seed,
tolerance, iteration limit and cap): DIR2's solvers appear under their own
names, except one that an earlier directory already has, which appears as
"solver (DIR2's folder name)"; LABEL=DIR2 shows every solver of DIR2 as
"solver (LABEL)", e.g. `old=DIR2` puts "newton (old)" beside DIR's newton.
The tables use the scenarios all directories have.
--complete keeps only scenarios whose cells are all done (a stopped sweep).
Medians and percentiles interpolate linearly, as `dillsue sweep` does.
"""
import csv
import glob
import os
import sys

PAPER_LADDER = {("sra", 3): 438, ("sra", 10): 2011, ("anderson", 3): 918, ("anderson", 10): 908,
                ("newton", 3): 115, ("newton", 10): 205}
PAPER_S6 = {"full": {1: 26.9, 3: 6.0, 10: 1.0, 30: 0.36, 100: 0.12},
            "dsp": {1: 24.5, 3: 24.1, 10: 23.9, 30: 23.9, 100: 23.8}}
SOLVER_ORDER = ("newton", "anderson", "sra", "msa")


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


def read_conf(d):
    path = os.path.join(d, "sweep.conf")
    try:
        with open(path) as fh:
            return dict(l.strip().split("=", 1) for l in fh if "=" in l and not l.startswith("#"))
    except OSError as e:
        sys.exit(f"sweep_tables.py: {path}: {e.strerror}")


def read_sweep(d, complete):
    """(conf, rows, scenarios kept) of one sweep directory."""
    conf = read_conf(d)
    disp_key = "mu" if "mu" in conf else "tau"
    per_scen = len(conf[disp_key].split(",")) * len(conf["filter"].split(",")) * len(conf["solver"].split(","))
    path = os.path.join(d, "cells.csv")
    try:
        with open(path, newline="") as fh:
            rows = list(csv.DictReader(fh))
    except OSError as e:
        sys.exit(f"sweep_tables.py: {path}: {e.strerror} (run `dillsue sweep --merge --out {d}` first)")
    count = {}
    for r in rows:
        count[int(r["scenario"])] = count.get(int(r["scenario"]), 0) + 1
    keep = {k for k, n in count.items() if n == per_scen} if complete else set(count)
    return conf, rows, keep


def ue_gaps(d, scenarios):
    """Relative gaps the UE references of these scenarios reached, and how many reached the target."""
    gaps = []
    for f in sorted(glob.glob(os.path.join(d, "ue", "k*.txt"))):
        with open(f) as fh:
            kv = dict(l.rstrip("\n").split("=", 1) for l in fh if "=" in l)
        if int(kv["scenario"]) in scenarios:
            gaps.append((float(kv["rel_gap"]), kv["status"], int(kv["iterations"]), float(kv["seconds"])))
    return gaps


def main():
    complete = "--complete" in sys.argv
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not args or "=" in args[0]:
        sys.exit(__doc__)
    sweeps = []  # (label, dir, conf, rows, keep)
    for i, a in enumerate(args):
        if i > 0 and "=" in a:
            label, d = a.split("=", 1)
            always = True
        else:
            label, d, always = os.path.basename(a.rstrip("/")), a, False
        sweeps.append((label, always, d) + read_sweep(d, complete))
    conf = sweeps[0][3]
    disp_key = "mu" if "mu" in conf else "tau"
    for label, _, d, c, _, _ in sweeps[1:]:
        for k in ("net", "seed", "tol", "max_iter", "cap"):
            same = (os.path.basename(c.get(k, "")) == os.path.basename(conf.get(k, "")) if k == "net"
                    else c.get(k) == conf.get(k))
            if not same:
                sys.exit(f"sweep_tables.py: {d}: {k}={c.get(k)} but {sweeps[0][2]} has {k}={conf.get(k)}")
        if disp_key not in c:
            sys.exit(f"sweep_tables.py: {d}: no {disp_key} list, as {sweeps[0][2]} has")
    keep = set.intersection(*(s[5] for s in sweeps))
    taus, filters, solvers = [], [], []
    rows = []
    for label, always, d, c, rs, _ in sweeps:
        own = c["solver"].split(",")
        rename = {s: (f"{s} ({label})" if always or s in solvers else s) for s in own}
        for t in (float(x) for x in c[disp_key].split(",")):
            if t not in taus:
                taus.append(t)
        for f in c["filter"].split(","):
            if f not in filters:
                filters.append(f)
        for s in own:
            solvers.append(rename[s])
        for r in rs:
            if int(r["scenario"]) in keep:
                r = dict(r)
                r["solver"] = rename[r["solver"]]
                rows.append(r)
    taus.sort()
    nscen = len(keep)
    siouxfalls = "SiouxFalls" in os.path.basename(conf["net"])
    net = os.path.basename(conf["net"]).replace("_net.tntp", "")
    print(f"{net}: {nscen} scenarios ({'complete ones only' if complete else 'every cell done'}), "
          f"{len(rows)} cells, {disp_key} {','.join(f'{t:g}' for t in taus)}, "
          f"tol {float(conf['tol']):g}, max {conf['max_iter']} iterations"
          + (f"; from {', '.join(s[2] for s in sweeps)}" if len(sweeps) > 1 else ""))
    print()

    def cells(t, f, s, scen=None):
        return [r for r in rows if float(r[disp_key]) == t and r["filter"] == f and r["solver"] == s
                and (scen is None or int(r["scenario"]) == scen)]

    def base_solver(s):
        return s.split(" (")[0]

    # 1. ladder
    paper_col = siouxfalls and disp_key == "tau"
    print("| " + disp_key + " | filter | solver | converged | not conv. | ill-posed | median iterations (p10-p90) | "
          + ("paper median | " if paper_col else "") + "median s |")
    print("|---:|---|---|---:|---:|---:|---:|" + ("---:|" if paper_col else "") + "---:|")
    for t in taus:
        for f in filters:
            for s in solvers:
                c = cells(t, f, s)
                if not c:
                    continue
                conv = [r for r in c if r["status"] == "converged"]
                ill = sum(r["status"] == "ill-posed" for r in c)
                it = [float(r["iterations"]) for r in conv]
                tm = [float(r["wall_s"]) for r in conv]
                paper = PAPER_LADDER.get((base_solver(s), int(t))) if paper_col and t == int(t) else None
                print(f"| {t:g} | {f} | {s} | {len(conv)} | {len(c) - len(conv) - ill} | {ill} | "
                      f"{fmt(pct(it, 50))} ({fmt(pct(it, 10))}-{fmt(pct(it, 90))}) | "
                      + (f"{fmt(paper) if paper else ''} | " if paper_col else "") + f"{pct(tm, 50):.3g} |")
    print()

    # 2. bridge
    if conf.get("ue") == "1":
        s = [x for x in SOLVER_ORDER if x in solvers][0]
        print(f"MAPE (%) of the SUE ({s}, converged cells) against each scenario's Wardrop UE:")
        print()
        print("| filter | " + " | ".join(f"{disp_key} {t:g}" for t in taus) + " |")
        print("|---|" + "---:|" * len(taus))
        for f in filters:
            if not any(cells(t, f, s) for t in taus):
                continue
            med, base, paper = [], [], []
            for t in taus:
                c = [float(r["mape_ue"]) for r in cells(t, f, s) if r["status"] == "converged" and r["mape_ue"]]
                c0 = [float(r["mape_ue"]) for r in cells(t, f, s, 0) if r["mape_ue"]]
                med.append(fmt(pct(c, 50), 2) + (f" ({len(c)})" if len(c) != nscen else ""))
                base.append(fmt(c0[0], 2) if c0 else "-")
                paper.append(fmt(PAPER_S6.get(f, {}).get(int(t), float("nan")), 2))
            print(f"| {f}, median of {nscen} scenarios | " + " | ".join(med) + " |")
            if 0 in keep:
                print(f"| {f}, base network (scenario 0) | " + " | ".join(base) + " |")
            if siouxfalls and disp_key == "tau" and f in PAPER_S6:
                print(f"| {f}, paper S6 | " + " | ".join(paper) + " |")
        print()
        print("(a number in parentheses: the converged cells behind that median, where fewer than the scenarios)")
        print()
        g = ue_gaps(sweeps[0][2], keep)
        if g:
            gaps = [x[0] for x in g]
            reached = sum(x[0] <= float(conf["ue_gap"]) for x in g)
            print(f"UE references ({sweeps[0][2]}/ue): {len(g)} scenarios, target relative gap "
                  f"{float(conf['ue_gap']):g} within {conf['ue_max_iter']} Frank-Wolfe iterations; "
                  f"{reached} reached it; gap reached: median {pct(gaps, 50):.2g}, worst {max(gaps):.2g}; "
                  f"iterations median {pct([x[2] for x in g], 50):,.0f}; "
                  f"{sum(x[3] for x in g):,.0f} s in all.")
            print()

    # 3. bfs against dsp
    if "bfs" in filters and "dsp" in filters:
        s = [x for x in SOLVER_ORDER if x in solvers][0]
        print(f"BFS against DSP ({s}; medians over scenarios; lost = OD pairs without a path under the filter):")
        print()
        print("| " + disp_key + " | filter | scenarios losing OD pairs | median lost OD pairs | median lost demand | median iterations | median MAPE vs UE (%) |")
        print("|---:|---|---:|---:|---:|---:|---:|")
        for t in taus:
            for f in ("dsp", "bfs"):
                c = cells(t, f, s)
                if not c:
                    continue
                lost = [float(r["lost_od"]) for r in c]
                tot = [float(r["lost_demand"]) for r in c]
                it = [float(r["iterations"]) for r in c if r["status"] == "converged"]
                mp = [float(r["mape_ue"]) for r in c if r["status"] == "converged" and r["mape_ue"]]
                print(f"| {t:g} | {f} | {sum(x > 0 for x in lost)} of {len(c)} | {fmt(pct(lost, 50))} | "
                      f"{fmt(pct(tot, 50), 1)} | {fmt(pct(it, 50))} | {fmt(pct(mp, 50), 2)} |")
        print()


if __name__ == "__main__":
    main()
