#!/bin/sh
# t_badinput.sh - every case of the bad-input corpus through the real command
# line: `dillsue solve --net CASE --quiet` must exit 2 (input error) and say on
# stderr "file:line: what was wrong" as listed in tests/bad_input/EXPECTED.
# A crash, a hang, a different exit status or a vaguer message fails.
# from the repository root wherever it is started (as tests/lib.sh)
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
D=$BUILD/dillsue
DIR=tests/bad_input
tmp=$(mktemp -d /tmp/t_badinput.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$D" ]; then
    echo "FAIL badinput_binary: $D not built"
    exit 0
fi
if [ ! -f "$DIR/EXPECTED" ]; then
    echo "FAIL badinput_corpus: $DIR/EXPECTED missing"
    exit 0
fi

# Guard against a parser that loops forever on some input.
if command -v timeout >/dev/null 2>&1; then TO="timeout 60"; else TO=""; fi

n=0
tab=$(printf '\t')
while IFS="$tab" read -r name expected; do
    case "$name" in ''|'#'*) continue ;; esac
    n=$((n + 1))
    $TO "$D" solve --net "$DIR/$name.net.tntp" --quiet >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 2 ]; then
        echo "FAIL badinput_$name: exit status $rc, want 2; stderr: $(head -c 300 "$tmp/err")"
    elif ! grep -qF -- "$expected" "$tmp/err"; then
        echo "FAIL badinput_$name: stderr lacks '$expected': $(head -c 300 "$tmp/err")"
    elif ! grep -qF -- "$DIR/$name." "$tmp/err"; then
        echo "FAIL badinput_$name: stderr does not name the file as given: $(head -c 300 "$tmp/err")"
    else
        echo "PASS badinput_$name"
    fi
done <"$DIR/EXPECTED"

# The unmodified base of the corpus is accepted (so the failures above are
# caused by the one defect in each case, not by the base).
$TO "$D" solve --net "$DIR/valid.net.tntp" --quiet --max-iter 5 --out "$tmp/flows.csv" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] || [ $rc -eq 1 ]; then echo "PASS badinput_valid_base_loads"
else echo "FAIL badinput_valid_base_loads: exit status $rc: $(head -c 300 "$tmp/err")"; fi

# Real-file quirks (tests/bad_input/ACCEPTED): each loads, solves, says on
# stderr what it dropped, and writes flows that name nodes by the file's ids.
while IFS="$tab" read -r name expected; do
    case "$name" in ''|'#'*) continue ;; esac
    $TO "$D" solve --net "$DIR/$name.net.tntp" --quiet --out "$tmp/$name.csv" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL realfile_$name: exit status $rc, want 0: $(head -c 300 "$tmp/err")"
    elif [ -n "$expected" ] && ! grep -qF -- "$expected" "$tmp/err"; then
        echo "FAIL realfile_$name: stderr lacks '$expected': $(head -c 300 "$tmp/err")"
    elif ! "$D" solve --net "$DIR/$name.net.tntp" --quiet --warm "$tmp/$name.csv" --max-iter 2 >/dev/null 2>"$tmp/err2"; then
        echo "FAIL realfile_$name: its own flow CSV is refused as a warm start: $(head -c 300 "$tmp/err2")"
    else
        echo "PASS realfile_$name"
    fi
done <"$DIR/ACCEPTED"

# Columns read past or named otherwise, and other line ends, change nothing: the same flows, bit for bit, as the base file.
"$D" solve --net "$DIR/valid.net.tntp" --quiet --out "$tmp/valid.csv" >/dev/null 2>&1
for name in extra_named_column extra_named_columns_spaces columns_named_otherwise crlf_line_ends cr_line_ends; do
    if [ -s "$tmp/valid.csv" ] && cmp -s "$tmp/valid.csv" "$tmp/$name.csv"; then echo "PASS realfile_${name}_same_flows"
    else echo "FAIL realfile_${name}_same_flows: $(cmp "$tmp/valid.csv" "$tmp/$name.csv" 2>&1 | head -c 300)"; fi
done
if grep -q '^2146237932,1002,' "$tmp/sparse_ids.csv" 2>/dev/null && grep -q '^1001,75674,' "$tmp/sparse_ids.csv"; then
    echo "PASS realfile_sparse_ids_kept_in_flows"
else echo "FAIL realfile_sparse_ids_kept_in_flows: $(head -c 300 "$tmp/sparse_ids.csv" 2>&1)"; fi
if [ "$(sed -n 8p "$tmp/self_loop.csv" 2>/dev/null | cut -d, -f1-3)" = "4,4,0" ] && [ "$(wc -l <"$tmp/self_loop.csv")" -eq 10 ]; then
    echo "PASS realfile_self_loop_written_with_flow_0"
else echo "FAIL realfile_self_loop_written_with_flow_0: $(cat "$tmp/self_loop.csv" 2>&1 | head -c 400)"; fi
"$D" info --net "$DIR/sparse_ids.net.tntp" >"$tmp/out" 2>&1
if grep -q 'ids 1001..2146237932 mapped' "$tmp/out" && grep -q 'zones: *3 (taken from the trips file' "$tmp/out"; then
    echo "PASS realfile_info_says_what_was_inferred"
else echo "FAIL realfile_info_says_what_was_inferred: $(head -c 400 "$tmp/out")"; fi
# sparse ids: the zones come from the trips file's rows; a count its header
# declares otherwise is said beside them, not dropped silently
cp "$DIR/sparse_ids.net.tntp" "$tmp/sz_net.tntp"
sed 's/^<NUMBER OF ZONES> 3$/<NUMBER OF ZONES> 5/' "$DIR/sparse_ids.trips.tntp" >"$tmp/sz_trips.tntp"
"$D" info --net "$tmp/sz_net.tntp" --trips "$tmp/sz_trips.tntp" >"$tmp/out" 2>&1
"$D" info --net "$DIR/sparse_ids.net.tntp" >"$tmp/out2" 2>&1
if grep -q "zones: *3 (taken from.*(the trips file's <NUMBER OF ZONES> says 5)" "$tmp/out" && ! grep -q "trips file's <NUMBER" "$tmp/out2"; then
    echo "PASS realfile_info_trips_zone_count_disagrees"
else echo "FAIL realfile_info_trips_zone_count_disagrees: $(grep zones "$tmp/out" | head -c 400)"; fi
"$D" info --net "$DIR/meta_missing_zones.net.tntp" >"$tmp/out" 2>&1
if grep -q 'no <NUMBER OF ZONES>' "$tmp/out"; then echo "PASS realfile_info_zones_from_trips"
else echo "FAIL realfile_info_zones_from_trips: $(head -c 400 "$tmp/out")"; fi
# An absurd declaration is refused from what the file holds, not after sizing by it.
start=$(date +%s)
"$D" info --net "$DIR/meta_nodes_absurd.net.tntp" >/dev/null 2>&1
"$D" solve --net "$DIR/meta_nodes_zones_absurd.net.tntp" --filter full --quiet >/dev/null 2>&1
el=$(( $(date +%s) - start ))
if [ $el -le 20 ]; then echo "PASS badinput_absurd_declaration_refused_quickly"
else echo "FAIL badinput_absurd_declaration_refused_quickly: took ${el}s"; fi

if [ $n -ge 30 ]; then echo "PASS badinput_corpus_size"; else echo "FAIL badinput_corpus_size: only $n cases"; fi

# A directory given as the network names its one net file (t_cli.sh
# cli_net_directory); one without any is said so (not that its name gives no
# trips file).
mkdir -p "$tmp/a_dir"
"$D" info --net "$tmp/a_dir" >"$tmp/out" 2>&1
if grep -q 'a_dir: a directory with no network file in it' "$tmp/out" && ! grep -q 'trips file' "$tmp/out"; then
    echo "PASS badinput_directory_as_network"
else echo "FAIL badinput_directory_as_network: $(head -c 300 "$tmp/out")"; fi

# A TNTP flow file of a network with a dropped self-loop: the loop's row is
# read past (one per loop, at its node), any other u -> u row is no link.
"$D" solve --net "$DIR/self_loop.net.tntp" --quiet --out "$tmp/sl.csv" >/dev/null 2>&1
awk -F, 'NR == 1 { print "From\tTo\tVolume\tCost"; next } { print $1 "\t" $2 "\t" $3 "\t" $4 }' "$tmp/sl.csv" >"$tmp/sl_flow.tntp"
{ cat "$tmp/sl_flow.tntp"; printf '1\t1\t999\t9\n'; } >"$tmp/sl_bad_flow.tntp"
"$D" compare --net "$DIR/self_loop.net.tntp" "$tmp/sl_flow.tntp" "$tmp/sl.csv" >"$tmp/out" 2>&1; rc1=$?
"$D" compare --net "$DIR/self_loop.net.tntp" "$tmp/sl_bad_flow.tntp" "$tmp/sl.csv" >"$tmp/out2" 2>&1; rc2=$?
if [ $rc1 -eq 0 ] && [ $rc2 -eq 2 ] && grep -q 'sl_bad_flow.tntp:[0-9]*: no link 1 -> 1 in the network' "$tmp/out2"; then
    echo "PASS realfile_self_loop_flow_rows"
else echo "FAIL realfile_self_loop_flow_rows: rc $rc1 / $rc2: $(head -c 300 "$tmp/out") $(head -c 300 "$tmp/out2")"; fi

# Every OD pair with demand without a path: info says cbar and mu are
# undefined (it printed cbar nan and mu 0), as solve refuses the network.
printf '<NUMBER OF ZONES> 2\n<NUMBER OF NODES> 4\n<FIRST THRU NODE> 1\n<NUMBER OF LINKS> 3\n<END OF METADATA>\n\n~ init term cap length fft b power speed toll type ;\n1 3 1 100 1 1 1 0 0 1 ;\n1 4 1 100 50 0.02 1 0 0 1 ;\n3 4 1 100 10 0.1 1 0 0 1 ;\n' >"$tmp/unreach_net.tntp"
printf '<NUMBER OF ZONES> 2\n<TOTAL OD FLOW> 6.0\n<END OF METADATA>\n\nOrigin 1\n    1 : 0.0;  2 : 6.0;\n' >"$tmp/unreach_trips.tntp"
"$D" info --net "$tmp/unreach_net.tntp" >"$tmp/out" 2>&1
if grep -q '^cbar: *undefined (no OD pair with demand has a path' "$tmp/out" && grep -q '^mu at tau = 1: *undefined' "$tmp/out" &&
    ! grep -qiE 'nan|inf' "$tmp/out"; then
    echo "PASS info_cbar_undefined_said"
else echo "FAIL info_cbar_undefined_said: $(grep -E 'cbar|mu at' "$tmp/out" | head -c 300)"; fi

# Some OD pairs without a path (a zone that no link touches: a node renumbered
# in the links but not in the trips file): info says how many and the first,
# as solve, load and ue do; it said nothing
printf '<NUMBER OF ZONES> 3\n<NUMBER OF NODES> 4\n<FIRST THRU NODE> 1\n<NUMBER OF LINKS> 4\n<END OF METADATA>\n\n1 2 1 100 1 0.15 4 0 0 1 ;\n2 1 1 100 1 0.15 4 0 0 1 ;\n1 4 1 100 1 0.15 4 0 0 1 ;\n4 2 1 100 1 0.15 4 0 0 1 ;\n' >"$tmp/lone_net.tntp"
printf '<NUMBER OF ZONES> 3\n<TOTAL OD FLOW> 7.0\n<END OF METADATA>\n\nOrigin 1\n    2 : 5.0;\nOrigin 3\n    1 : 2.0;\n' >"$tmp/lone_trips.tntp"
"$D" info --net "$tmp/lone_net.tntp" >"$tmp/out" 2>&1; rc=$?
cp "$tmp/unreach_net.tntp" "$tmp/unr_net.tntp"
cp "$tmp/unreach_trips.tntp" "$tmp/unr_trips.tntp"
"$D" info --net "$DIR/valid.net.tntp" >"$tmp/out2" 2>&1
"$D" info --net "$tmp/unr_net.tntp" >"$tmp/out3" 2>&1
if [ $rc -eq 0 ] && grep -q '^no path: *1 OD pairs, demand 2 of 7 (the first: zone 3 to zone 1, demand 2; no link leaves zone 3): not assigned' "$tmp/out" &&
    ! grep -q '^no path' "$tmp/out2" && grep -q '^no path: *1 OD pairs, demand 6 of 6 ' "$tmp/out3"; then
    echo "PASS info_od_pairs_without_path_said"
else echo "FAIL info_od_pairs_without_path_said: rc $rc: $(grep -E '^(no path|OD)' "$tmp/out" "$tmp/out2" "$tmp/out3" | head -c 400)"; fi

# A demand whose squares leave the doubles is refused as such; it "proved" the
# model ill-posed (exit 3, "no positive solution ... spectral radius 0").
cp "$tmp/unreach_net.tntp" "$tmp/huge_net.tntp"
sed -i 's/^1 4 1 100 50/1 2 1 100 50/' "$tmp/huge_net.tntp"
printf '<NUMBER OF ZONES> 2\n<TOTAL OD FLOW> 1e300\n<END OF METADATA>\n\nOrigin 1\n    1 : 0.0;  2 : 1e300;\n' >"$tmp/huge_trips.tntp"
"$D" solve --net "$tmp/huge_net.tntp" --max-iter 3 --out "$tmp/huge.csv" >"$tmp/out" 2>&1; rc=$?
if [ $rc -eq 2 ] && grep -q "total demand 1e+300 is beyond what the residual's squares hold" "$tmp/out" && ! grep -q 'ill-posed' "$tmp/out"; then
    echo "PASS badinput_demand_beyond_doubles"
else echo "FAIL badinput_demand_beyond_doubles: rc $rc: $(head -c 300 "$tmp/out")"; fi

# Demand from a zone to itself (Austin-SDB: 19,873 of 695,013): counted by
# <TOTAL OD FLOW>, never assigned; info and solve say so (it vanished silently)
cp "$DIR/valid.net.tntp" "$tmp/iz.net.tntp"
sed -e 's/<TOTAL OD FLOW> 600.0/<TOTAL OD FLOW> 605.0/' -e '/^Origin 1/{n;s/1 :      0.0;/1 :      5.0;/}' \
    "$DIR/valid.trips.tntp" >"$tmp/iz.trips.tntp"
"$D" info --net "$tmp/iz.net.tntp" >"$tmp/out" 2>&1; rc1=$?
"$D" solve --net "$tmp/iz.net.tntp" --out "$tmp/iz.csv" >"$tmp/out2" 2>&1; rc2=$?
if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && grep -q '^total demand: *600$' "$tmp/out" &&
    grep -q '^intrazonal demand: *5 in 1 entries from a zone to itself' "$tmp/out" &&
    grep -q '5 of the trips file.s demand (1 entries from a zone to itself) is intrazonal: not assigned' "$tmp/out2" &&
    grep -q 'demand assigned 600 ' "$tmp/out2"; then
    echo "PASS realfile_intrazonal_demand_said"
else echo "FAIL realfile_intrazonal_demand_said: rc $rc1/$rc2: $(grep -i 'demand' "$tmp/out" "$tmp/out2" | head -c 400)"; fi
