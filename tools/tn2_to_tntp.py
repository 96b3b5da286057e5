#!/usr/bin/env python3
"""tn2_to_tntp.py - a TransportationNetworks2 network in the TNTP format dillsue reads.

Some public networks circulate in the format of the TransportationNetworks2
fork (github.com/black0ut1/TransportationNetworks2): NAME.net.tntp with a
`NODES:`/`ZONES:`/`EDGES:`/`END` header and one line per link
`from to capacity free_flow_time length speed toll b power type`, nodes
numbered from 0; NAME.odm.tntp with `ZONES:`/`FLOW:`/`END` and one line per
origin `i j:flow j:flow ...`. docs/results.md ("Networks outside
../shared") solves networks taken from there; this writes them as
OUTDIR/NAME_net.tntp and OUTDIR/NAME_trips.tntp, numbered from 1, the
numbers copied as text (no rounding).

That format drops TNTP's FIRST THRU NODE. The default writes ZONES + 1 (routes
never pass through a zone), the convention of the networks whose zones are
joined to the roads by connectors; `--thru-zones` writes 1 (zones are road
nodes too). A trailing ';' on the type field (Terrassa) is dropped.

Errors name the file and line. Deterministic: the same input gives the same
bytes.
Usage: python3 tools/tn2_to_tntp.py [--thru-zones] RAW_PREFIX OUTDIR NAME
  (reads RAW_PREFIX.net.tntp and RAW_PREFIX.odm.tntp)
"""
import os
import sys


def fail(path, line, msg):
    sys.exit(f"tn2_to_tntp: {path}:{line}: {msg}")


def read_header(path, lines, keys):
    hdr = {}
    for i, raw in enumerate(lines, 1):
        s = raw.strip()
        if not s:
            continue
        if s == "END":
            missing = [k for k in keys if k not in hdr]
            if missing:
                fail(path, i, f"header lacks {', '.join(missing)}")
            return hdr, i
        key, sep, val = s.partition(":")
        if not sep or key not in keys:
            fail(path, i, f"expected one of {', '.join(k + ':' for k in keys)} or END, found {s[:40]!r}")
        hdr[key] = val.strip()
    fail(path, len(lines), "no END line")


def convert_net(path):
    lines = open(path).read().split("\n")
    hdr, start = read_header(path, lines, ("NODES", "ZONES", "EDGES"))
    try:
        nodes, zones, edges = int(hdr["NODES"]), int(hdr["ZONES"]), int(hdr["EDGES"])
    except ValueError:
        fail(path, start, "NODES, ZONES and EDGES must be integers")
    links = []
    for i in range(start, len(lines)):
        s = lines[i].strip()
        if not s:
            continue
        f = s.split()
        if len(f) != 10:
            fail(path, i + 1, f"expected 10 fields, found {len(f)}")
        try:
            a, b = int(f[0]), int(f[1])
            for v in f[2:9]:
                float(v)
        except ValueError:
            fail(path, i + 1, "a node or a number does not parse")
        if not (0 <= a < nodes and 0 <= b < nodes):
            fail(path, i + 1, f"node outside 0..{nodes - 1}")
        cap, fft, length, speed, toll, bpr_b, power, typ = f[2:]
        links.append((a + 1, b + 1, cap, length, fft, bpr_b, power, speed, toll, typ.rstrip(";")))
    if len(links) != edges:
        fail(path, len(lines), f"EDGES says {edges}, found {len(links)} links")
    return nodes, zones, links


def convert_odm(path, zones):
    lines = open(path).read().split("\n")
    hdr, start = read_header(path, lines, ("ZONES", "FLOW"))
    if int(hdr["ZONES"]) != zones:
        fail(path, start, f"ZONES {hdr['ZONES']} differs from the network's {zones}")
    rows = {}
    for i in range(start, len(lines)):
        s = lines[i].strip()
        if not s:
            continue
        f = s.split()
        try:
            o = int(f[0])
            pairs = []
            for p in f[1:]:
                d, v = p.split(":")
                pairs.append((int(d), v))
                float(v)
        except ValueError:
            fail(path, i + 1, "expected `i j:flow j:flow ...`")
        if not 0 <= o < zones or any(not 0 <= d < zones for d, _ in pairs):
            fail(path, i + 1, f"zone outside 0..{zones - 1}")
        if o in rows:
            fail(path, i + 1, f"origin {o} appears twice")
        rows[o] = pairs
    return hdr["FLOW"], rows


def main():
    args = sys.argv[1:]
    thru = "--thru-zones" in args
    args = [a for a in args if a != "--thru-zones"]
    if len(args) != 3:
        sys.exit(__doc__.strip().split("\n")[-2] + "\n" + __doc__.strip().split("\n")[-1])
    raw, outdir, name = args
    nodes, zones, links = convert_net(raw + ".net.tntp")
    total, rows = convert_odm(raw + ".odm.tntp", zones)
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, name + "_net.tntp"), "w") as o:
        o.write(f"<NUMBER OF ZONES> {zones}\n<NUMBER OF NODES> {nodes}\n")
        o.write(f"<FIRST THRU NODE> {1 if thru else zones + 1}\n<NUMBER OF LINKS> {len(links)}\n")
        o.write("<END OF METADATA>\n\n")
        o.write("~\tinit_node\tterm_node\tcapacity\tlength\tfree_flow_time\tb\tpower\tspeed\ttoll\tlink_type\t;\n")
        for l in links:
            o.write("\t" + "\t".join(str(v) for v in l) + "\t;\n")
    with open(os.path.join(outdir, name + "_trips.tntp"), "w") as o:
        o.write(f"<NUMBER OF ZONES> {zones}\n<TOTAL OD FLOW> {total}\n<END OF METADATA>\n")
        for i in range(zones):
            o.write(f"\nOrigin\t{i + 1}\n")
            r = rows.get(i, [])
            for k in range(0, len(r), 5):
                o.write("".join(f"{d + 1:6d} : {v};" for d, v in r[k:k + 5]) + "\n")
    print(f"{name}: {nodes} nodes, {zones} zones, {len(links)} links -> {outdir}")


if __name__ == "__main__":
    main()
