#!/bin/sh
# t_tn2.sh - tools/tn2_to_tntp.py (networks published in the TransportationNetworks2
# format, docs/results.md "Networks outside ../shared"): a generated network
# written in that format (0-based nodes, its column order, the total as %g
# prints it) and converted back solves to the same flows, bit for bit, as the
# TNTP original; a damaged line is refused with its file and line. Skips
# without python3.
. "$(dirname "$0")/lib.sh"
if ! command -v python3 >/dev/null 2>&1; then
    skip tn2_roundtrip "python3 not installed (tools/setup.sh installs it)"
    exit 0
fi
python3 tools/make_synthetic.py 300 30 11 12 "$tmp/g" >/dev/null
# TNTP -> the TransportationNetworks2 format, as that fork's converter writes it
python3 - "$tmp/g" "$tmp/raw" <<'EOF'
import sys
src, dst = sys.argv[1], sys.argv[2]
meta, links = {}, []
for line in open(src + "_net.tntp"):
    s = line.strip()
    if s.startswith("<") and ">" in s:
        k, v = s[1:].split(">", 1)
        meta[k.strip()] = v.strip()
    elif s and s[0].isdigit():
        f = s.rstrip(";").split()
        a, b, cap, length, fft, bb, pw, speed, toll, typ = f[:10]
        links.append(f"{int(a) - 1} {int(b) - 1} {cap} {fft} {length} {speed} {toll} {bb} {pw} {typ}")
with open(dst + ".net.tntp", "w") as o:
    o.write(f"NODES:{meta['NUMBER OF NODES']}\nZONES:{meta['NUMBER OF ZONES']}\nEDGES:{len(links)}\nEND\n")
    o.write("\n".join(links) + "\n")
rows, origin, total = {}, None, 0.0
for line in open(src + "_trips.tntp"):
    s = line.strip()
    if s.startswith("Origin"):
        origin = int(s.split()[1]) - 1
        rows[origin] = []
    elif origin is not None and ":" in s:
        for p in s.split(";"):
            if p.strip():
                d, v = p.split(":")
                rows[origin].append(f"{int(d) - 1}:{v.strip()}")
                total += float(v)
zones = int(meta["NUMBER OF ZONES"])
with open(dst + ".odm.tntp", "w") as o:
    o.write(f"ZONES:{zones}\nFLOW:{total:g}\nEND\n")
    for i in range(zones):
        o.write(f"{i} " + " ".join(rows.get(i, [])) + "\n")
EOF
python3 tools/tn2_to_tntp.py "$tmp/raw" "$tmp/c" g >"$tmp/conv.out" 2>&1
S="--tau 10 --filter dsp --tol 1e-8 --threads 2 --quiet"
run "$D" solve --net "$tmp/g_net.tntp" $S --out "$tmp/a.csv"
rc_a=$rc
run "$D" solve --net "$tmp/c/g_net.tntp" $S --out "$tmp/b.csv"
if [ $rc_a -eq 0 ] && [ $rc -eq 0 ] && cmp -s "$tmp/a.csv" "$tmp/b.csv" && grep -q '^<FIRST THRU NODE> 31$' "$tmp/c/g_net.tntp"; then
    pass tn2_roundtrip_same_flows
else
    fail tn2_roundtrip_same_flows "rc $rc_a / $rc: $(cat "$tmp/conv.out") $(tail -c 300 "$tmp/err")"
fi
# a link line with a field missing: refused, with the file and line
sed '7s/ [^ ]*$//' "$tmp/raw.net.tntp" >"$tmp/bad.net.tntp"
cp "$tmp/raw.odm.tntp" "$tmp/bad.odm.tntp"
python3 tools/tn2_to_tntp.py "$tmp/bad" "$tmp/d" g >"$tmp/out" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "bad.net.tntp:7: expected 10 fields, found 9" "$tmp/out" && [ ! -e "$tmp/d/g_net.tntp" ]; then
    pass tn2_bad_line_named
else
    fail tn2_bad_line_named "rc $rc: $(head -c 300 "$tmp/out")"
fi
# the raw file given to dillsue itself: named as that format, before any trips
# sibling is looked for (it has none: X.net.tntp -> X.trips.tntp)
printf '\n' >"$tmp/blank.net.tntp"
cat "$tmp/raw.net.tntp" >>"$tmp/blank.net.tntp"
run "$D" info --net "$tmp/raw.net.tntp"
rc1=$rc
grep -q "raw.net.tntp:1: a TransportationNetworks2 file .*tools/tn2_to_tntp.py" "$tmp/err"
m1=$?
run "$D" solve --net "$tmp/blank.net.tntp" --trips "$tmp/raw.odm.tntp" --quiet
if [ $rc1 -eq 2 ] && [ $m1 -eq 0 ] && [ $rc -eq 2 ] && grep -q "blank.net.tntp:2: a TransportationNetworks2 file" "$tmp/err"; then
    pass tn2_raw_file_named
else
    fail tn2_raw_file_named "rc $rc1 / $rc: $(head -c 300 "$tmp/err")"
fi
