#!/bin/sh
# t_ue.sh - `dillsue ue` end to end: best-known flows reproduced on Sioux Falls
# (uncapped, as they were published), flows CSV written and parseable, exit
# codes 0 / 1 / 2, and `compare` of the UE flows against a tau-100 SUE.
. "$(dirname "$0")/lib.sh"
SF=$TNTP/SiouxFalls/SiouxFalls_net.tntp

run "$D" ue --net /nonexistent/X_net.tntp --quiet
if [ $rc -eq 2 ] && grep -q "X_net.tntp" "$tmp/err"; then pass ue_missing_file_exit2
else fail ue_missing_file_exit2 "rc $rc: $(cat "$tmp/err")"; fi

run "$D" ue --gap abc
if [ $rc -eq 2 ]; then pass ue_bad_option_exit2; else fail ue_bad_option_exit2 "rc $rc"; fi

# --out onto the reference (or node file) that ue reads beside the network: refused,
# the file kept; a node file's name is refused where none exists yet (the next ue would read it) (as root a read-only mode did not stop the write)
cp tests/bad_input/valid.net.tntp "$tmp/r.net.tntp"
cp tests/bad_input/valid.trips.tntp "$tmp/r.trips.tntp"
printf 'From To Volume Cost\n' >"$tmp/r.flow.tntp"
cp "$tmp/r.flow.tntp" "$tmp/r.flow.orig"
run "$D" ue --net "$tmp/r.net.tntp" --out "$tmp/r.flow.tntp" --quiet
rc1=$rc
grep -q "r.flow.tntp is the same file as the reference .*r.flow.tntp: refusing to overwrite an input" "$tmp/err"
seen=$?
run "$D" ue --net "$tmp/r.net.tntp" --out "$tmp/r.node.tntp" --quiet
if [ $rc1 -eq 2 ] && [ $seen -eq 0 ] && cmp -s "$tmp/r.flow.tntp" "$tmp/r.flow.orig" && [ $rc -eq 2 ] &&
    grep -q "is the same file as the node file" "$tmp/err" && [ ! -e "$tmp/r.node.tntp" ]; then
    pass ue_out_not_the_reference
else fail ue_out_not_the_reference "rc $rc1 (message seen: $seen), node-file name: rc $rc $(cat "$tmp/err")"; fi

# only intrazonal demand: nothing to assign, refused as solve refuses it (ue wrote
# all-zero flows and exit 0)
cp tests/bad_input/valid.net.tntp "$tmp/iz.net.tntp"
printf '<NUMBER OF ZONES> 3\n<END OF METADATA>\nOrigin 1\n  1 : 100.0;\n' >"$tmp/iz.trips.tntp"
run "$D" ue --net "$tmp/iz.net.tntp" --out "$tmp/iz.csv" --quiet
if [ $rc -eq 2 ] && [ ! -e "$tmp/iz.csv" ] && grep -q "iz.net.tntp: the network has no demand .*nothing to assign" "$tmp/err"; then
    pass ue_no_demand_refused
else fail ue_no_demand_refused "rc $rc: $(cat "$tmp/err")"; fi

# --out whose checkpoint (OUT.checkpoint) is an input: refused, the input kept
# (the trips file was overwritten by checkpoints, then removed at the end)
cp tests/bad_input/valid.net.tntp "$tmp/k.net.tntp"
cp tests/bad_input/valid.trips.tntp "$tmp/k.checkpoint"
run "$D" ue --net "$tmp/k.net.tntp" --trips "$tmp/k.checkpoint" --out "$tmp/k" --quiet
if [ $rc -eq 2 ] && cmp -s "$tmp/k.checkpoint" tests/bad_input/valid.trips.tntp && [ ! -e "$tmp/k" ] &&
    grep -q "checkpoint .*k.checkpoint is the same file as --trips" "$tmp/err"; then
    run "$D" ue --net "$tmp/k.net.tntp" --trips "$tmp/k.checkpoint" --out "$tmp/k" --checkpoint 0 --quiet
    if [ $rc -eq 0 ] && [ -s "$tmp/k" ]; then pass ue_checkpoint_not_an_input
    else fail ue_checkpoint_not_an_input "--checkpoint 0: rc $rc $(cat "$tmp/err")"; fi
else fail ue_checkpoint_not_an_input "rc $rc: $(cat "$tmp/err")"; fi
# a checkpoint an earlier, killed run left is removed once the flows are written
echo stale >"$tmp/k2.checkpoint"
run "$D" ue --net "$tmp/k.net.tntp" --trips tests/bad_input/valid.trips.tntp --out "$tmp/k2" --quiet
if [ $rc -eq 0 ] && [ -s "$tmp/k2" ] && [ ! -e "$tmp/k2.checkpoint" ] && grep -q "removed a checkpoint" "$tmp/err"; then
    pass ue_stale_checkpoint_removed
else fail ue_stale_checkpoint_removed "rc $rc: $(cat "$tmp/err")"; fi

# A damaged reference beside the network: `ue` (which reports against it)
# names its file and line; `solve` and `load`, which do not use it, do not read it.
cp tests/bad_input/valid.net.tntp "$tmp/m.net.tntp"
cp tests/bad_input/valid.trips.tntp "$tmp/m.trips.tntp"
printf 'From To Volume Cost\n1 4 -10 1.1\n' >"$tmp/m.flow.tntp"
run "$D" ue --net "$tmp/m.net.tntp" --quiet
rc_ue=$rc
grep -q "m.flow.tntp:2: .*volume must be non-negative" "$tmp/err"
seen=$?
run "$D" solve --net "$tmp/m.net.tntp" --quiet --max-iter 3
rc_solve=$rc
run "$D" load --net "$tmp/m.net.tntp" --out "$tmp/m.csv"
if [ $rc_ue -eq 2 ] && [ $seen -eq 0 ] && { [ $rc_solve -eq 0 ] || [ $rc_solve -eq 1 ]; } && [ $rc -eq 0 ]; then
    pass ue_reference_read_only_by_ue
else
    fail ue_reference_read_only_by_ue "ue rc $rc_ue (message seen: $seen), solve rc $rc_solve, load rc $rc: $(cat "$tmp/err")"
fi

# SIGTERM (a batch scheduler's stop, `timeout`) ends the run after its current
# iteration as Ctrl-C does: exit 4, status cancelled, the flows so far written.
# A generated network whose gap stalls above 0, so the run is still going.
python3 tools/make_synthetic.py 200 20 1 10 "$tmp/g" >/dev/null
run_then_signal TERM "$D" ue --net "$tmp/g_net.tntp" --trips "$tmp/g_trips.tntp" --gap 0 --max-iter 100000000 \
    --out "$tmp/gt.csv"
rows=$(wc -l <"$tmp/gt.csv" 2>/dev/null)
if [ $rc -ne 4 ]; then fail ue_sigterm_keeps_flows "exit $rc, want 4: $(tail -n 2 "$tmp/err")"
elif ! grep -q '^status cancelled' "$tmp/out" || ! grep -q '(terminated)$' "$tmp/err"; then
    fail ue_sigterm_keeps_flows "report: $(cat "$tmp/out") / $(tail -n 1 "$tmp/err")"
elif [ "$rows" != "$(($(awk '$1 ~ /^[0-9]+$/' "$tmp/g_net.tntp" | wc -l) + 1))" ]; then
    fail ue_sigterm_keeps_flows "flows CSV has ${rows:-no} lines"
else pass ue_sigterm_keeps_flows; fi
# A progress stream whose reader went away (`2>&1 | tee log`, tee gone with
# the SSH connection) does not kill the run when it is stopped: the flows so
# far are still written (SIGPIPE killed it with exit 141 and nothing written)
mkfifo "$tmp/pipe"
head -n 1 <"$tmp/pipe" >/dev/null &
"$D" ue --net "$tmp/g_net.tntp" --trips "$tmp/g_trips.tntp" --gap 0 --max-iter 100000000 --out "$tmp/gp.csv" \
    >"$tmp/out" 2>"$tmp/pipe" &
_pid=$!
sleep 1
kill -TERM $_pid 2>/dev/null
wait $_pid
rc=$?
if [ $rc -eq 4 ] && [ -s "$tmp/gp.csv" ] && grep -q '^status cancelled' "$tmp/out"; then pass ue_closed_stderr_keeps_flows
else fail ue_closed_stderr_keeps_flows "exit $rc (want 4), flows $([ -s "$tmp/gp.csv" ] && echo written || echo missing)"; fi
# --checkpoint: killed outright, the run leaves the flows of its last
# checkpoint beside --out (not at it); one that ends removes them
run_signal_on KILL '^checkpoint  iteration' "$D" ue --net "$tmp/g_net.tntp" --trips "$tmp/g_trips.tntp" --gap 0 --max-iter 100000000 \
    --out "$tmp/gk.csv" --checkpoint 0.2
ck="$tmp/gk.csv.checkpoint"
rows=$(wc -l <"$ck" 2>/dev/null)
if [ $rc -ne 137 ]; then fail ue_checkpoint "exit $rc, want 137 (killed)"
elif ! grep -q "^checkpoint  iteration [0-9]*: $ck" "$tmp/err"; then
    fail ue_checkpoint "no checkpoint line: $(tail -n 2 "$tmp/err")"
elif [ -e "$tmp/gk.csv" ]; then fail ue_checkpoint "a killed run left a file at --out"
elif [ "$rows" != "$(wc -l <"$tmp/gt.csv")" ] || [ "$(head -n 1 "$ck")" != "init_node,term_node,flow,cost" ]; then
    fail ue_checkpoint "flows CSV: ${rows:-no} lines, header $(head -n 1 "$ck")"
else
    run "$D" ue --net "$tmp/g_net.tntp" --trips "$tmp/g_trips.tntp" --gap 0 --max-iter 3000 --out "$tmp/gk.csv" \
        --checkpoint 0.05
    if [ $rc -eq 1 ] && [ -s "$tmp/gk.csv" ] && [ ! -e "$ck" ] && grep -q "^checkpoint" "$tmp/err"; then pass ue_checkpoint
    else fail ue_checkpoint "after a run that ended: rc $rc, checkpoint $([ -e "$ck" ] && echo left || echo gone)"; fi
fi

# A gap Frank-Wolfe cannot reach at its rate is said once, on stderr only (the
# solve is unchanged; --quiet says nothing): here the gap stays where it is
run "$D" ue --net "$tmp/g_net.tntp" --trips "$tmp/g_trips.tntp" --gap 0 --max-iter 5000
said=$(grep -c "^ue: at the rate of iterations 2048 to 4096 (smallest gap .*), --gap 0 is not reached at this rate" "$tmp/err")
run "$D" ue --net "$tmp/g_net.tntp" --trips "$tmp/g_trips.tntp" --gap 0 --max-iter 5000 --quiet
if [ $rc -eq 1 ] && [ "$said" = 1 ] && ! grep -q "at the rate" "$tmp/err"; then pass ue_rate_note
else fail ue_rate_note "rc $rc, said $said times; quiet: $(cat "$tmp/err")"; fi

if [ ! -f "$SF" ]; then
    skip ue_siouxfalls_best_known "SiouxFalls not found in $TNTP (set DILLSUE_TNTP_DIR)"
    exit 0
fi

run "$D" ue --net "$SF" --cap 0 --gap 1e-6 --out "$tmp/ue.csv" --quiet
mape=$(awk '/^mape_all/ { sub("%", "", $2); print $2 }' "$tmp/out")
if [ $rc -eq 0 ] && grep -q '^status converged' "$tmp/out" &&
    awk -v m="$mape" 'BEGIN { exit !(m != "" && m + 0 < 0.5) }'; then
    pass ue_siouxfalls_best_known
else
    fail ue_siouxfalls_best_known "rc $rc, MAPE '$mape': $(cat "$tmp/out" "$tmp/err")"
fi

rows=$(tail -n +2 "$tmp/ue.csv" | wc -l)
if [ "$(head -1 "$tmp/ue.csv")" = "init_node,term_node,flow,cost" ] && [ "$rows" -eq 76 ]; then
    pass ue_flows_csv
else
    fail ue_flows_csv "header '$(head -1 "$tmp/ue.csv")', $rows rows"
fi

# the reference flows belong to the net's own demand: another --trips is said
awk '/^ *[0-9]/ { gsub(/: */, ": "); } { print }' "$TNTP/SiouxFalls/SiouxFalls_trips.tntp" >"$tmp/sf_same_trips.tntp"
run "$D" ue --net "$SF" --trips "$tmp/sf_same_trips.tntp" --max-iter 2 --quiet
said=$(grep -c "^note: the reference flows were computed for .*SiouxFalls_net.tntp's own trips file" "$tmp/err")
run "$D" ue --net "$SF" --trips "$TNTP/SiouxFalls/SiouxFalls_trips.tntp" --max-iter 2 --quiet
if [ "$said" = 1 ] && grep -q '^mape_all' "$tmp/out" && ! grep -q "own trips file" "$tmp/err"; then
    pass ue_reference_other_trips_said
else fail ue_reference_other_trips_said "said $said; own trips: $(cat "$tmp/err")"; fi

run "$D" ue --net "$SF" --max-iter 2 --out "$tmp/ue2.csv" --quiet
if [ $rc -eq 1 ] && grep -q '^status max-iterations' "$tmp/out" && [ -s "$tmp/ue2.csv" ]; then
    pass ue_max_iter_exit1_still_written
else
    fail ue_max_iter_exit1_still_written "rc $rc: $(cat "$tmp/out")"
fi

# The SUE approaches the UE as tau grows: compare the same capped model at tau 100.
run "$D" ue --net "$SF" --gap 1e-7 --out "$tmp/uec.csv" --quiet
run "$D" solve --net "$SF" --tau 100 --out "$tmp/sue.csv" --quiet
run "$D" compare "$tmp/sue.csv" "$tmp/uec.csv" # the UE is the reference
m=$(awk '/^MAPE:/ { print $2 }' "$tmp/out")
if [ $rc -eq 0 ] && awk -v m="$m" 'BEGIN { exit !(m != "" && m + 0 < 1.0) }'; then
    pass ue_vs_sue_tau100_within_1pct
else
    fail ue_vs_sue_tau100_within_1pct "rc $rc, MAPE '$m': $(cat "$tmp/out" "$tmp/err")"
fi

# The same note with its projection, where the gap falls but too slowly
run "$D" ue --net "$SF" --gap 1e-9 --max-iter 5000
want="^ue: at the rate of iterations 2048 to 4096 (smallest gap .*), --gap 1e-09 needs about [0-9.e+]* iterations"
if [ $rc -eq 1 ] && grep -q "$want, past --max-iter 5000" "$tmp/err"; then
    pass ue_rate_note_projection
else fail ue_rate_note_projection "rc $rc: $(grep '^ue:' "$tmp/err")"; fi
# a stopped UE's flow file is said to hold the last iterate, as solve says it
run "$D" ue --net "$SF" --max-iter 5 --quiet --out "$tmp/ue5.csv"
if [ $rc -eq 1 ] && [ -s "$tmp/ue5.csv" ] &&
    grep -q "^dillsue: NOT CONVERGED (max-iterations, rel_gap [0-9.e+-]*, --gap 1e-06): .*ue5.csv holds the last iterate" "$tmp/err"; then
    pass ue_not_converged_said
else fail ue_not_converged_said "rc $rc: $(head -c 300 "$tmp/err")"; fi

# An OD pair without a path: ue assigns the others and says how much demand
# is lost, as solve does (it refused the network, where solve assigned the
# rest); zone 2 is cut off, 1 -> 2 (100) is lost, 1 -> 3 and 3 -> 1 assigned.
printf '<NUMBER OF ZONES> 3\n<NUMBER OF NODES> 5\n<FIRST THRU NODE> 4\n<NUMBER OF LINKS> 6\n<END OF METADATA>\n\n' >"$tmp/cut.net.tntp"
printf '%s\n' '~ init term cap length fft b power speed toll type ;' '1 4 1000 1 1 0.15 4 60 0 1 ;' '4 1 1000 1 1 0.15 4 60 0 1 ;' \
    '2 5 1000 1 1 0.15 4 60 0 1 ;' '5 2 1000 1 1 0.15 4 60 0 1 ;' '3 4 800 2 2 0.15 4 60 0 1 ;' '4 3 800 2 2 0.15 4 60 0 1 ;' >>"$tmp/cut.net.tntp"
printf '<NUMBER OF ZONES> 3\n<END OF METADATA>\nOrigin 1\n  2 : 100.0; 3 : 50.0;\nOrigin 3\n 1 : 80.0;\n' >"$tmp/cut.trips.tntp"
run "$D" solve --net "$tmp/cut.net.tntp" --tau 100 --out "$tmp/cut_sue.csv"
r1=$rc
grep -q "^certificate | lost demand 100 of 230 " "$tmp/out"
s1=$?
run "$D" ue --net "$tmp/cut.net.tntp" --out "$tmp/cut_ue.csv"
r2=$rc
cp "$tmp/out" "$tmp/cut_ue.out"
cp "$tmp/err" "$tmp/cut_ue.err"
run "$D" compare "$tmp/cut_ue.csv" "$tmp/cut_sue.csv"
if [ $r1 -eq 0 ] && [ $s1 -eq 0 ] && [ $r2 -eq 0 ] && grep -q '^status converged$' "$tmp/cut_ue.out" &&
    grep -q '^lost_od 1$' "$tmp/cut_ue.out" && grep -q '^lost_demand 100$' "$tmp/cut_ue.out" &&
    grep -q '^dillsue: 1 OD pairs (demand 100 of 230) have no path without passing through a centroid and are not assigned; the first: zone 1 to zone 2 (demand 100)$' "$tmp/cut_ue.err" &&
    grep -q '^1,4,50,' "$tmp/cut_ue.csv" && grep -q '^2,5,0,' "$tmp/cut_ue.csv" && grep -q '^MAPE: *0 %' "$tmp/out"; then
    pass ue_unreachable_pairs_as_solve
else fail ue_unreachable_pairs_as_solve "solve rc $r1 ($s1), ue rc $r2: $(cat "$tmp/cut_ue.out" "$tmp/cut_ue.err") / $(cat "$tmp/out")"; fi
# ... and every pair reachable: lost_od 0 (the line is always there)
run "$D" ue --net "$SF" --max-iter 1 --quiet
if [ $rc -eq 1 ] && grep -q '^lost_od 0$' "$tmp/out" && grep -q '^lost_demand 0$' "$tmp/out"; then
    pass ue_lost_demand_zero_said
else fail ue_lost_demand_zero_said "$(cat "$tmp/out")"; fi
# Many OD pairs without a path, over many destinations: Chicago-Sketch with
# the links out of nodes 3, 500 and 700 and into 9 and 800 cut. The report's
# numbers, digit for digit (the demand is summed in the trips' order: 0.83
# short of 30534.83), for 1 and 3 threads: it came from a Dijkstra per
# destination, now from ds_od_no_path's components (docs/ue.md).
CH=$TNTP/Chicago-Sketch/ChicagoSketch_net.tntp
if [ -f "$CH" ]; then
    awk 'BEGIN { cut["3"] = cut["500"] = cut["700"] = 1; into["9"] = into["800"] = 1 }
         /<END OF METADATA>/ { body = 1 }
         body && $1 ~ /^[0-9]+$/ && ($1 in cut || $2 in into) { next }
         { print }' "$CH" >"$tmp/chcut.tntp"
    links=$(awk '/<END OF METADATA>/ { b = 1 } b && $1 ~ /^[0-9]+$/ { n++ } END { print n }' "$tmp/chcut.tntp")
    sed -i "s/<NUMBER OF LINKS>.*/<NUMBER OF LINKS> $links/" "$tmp/chcut.tntp"
    said='^dillsue: 1643 OD pairs (demand 30534.8 of 1.13749e+06) have no path and are not assigned; the first: zone 3 to zone 1 (demand 344.35; no link leaves zone 3)$'
    ok=1
    for th in 1 3; do
        run "$D" ue --net "$tmp/chcut.tntp" --trips "${CH%_net.tntp}_trips.tntp" --max-iter 0 --threads $th
        if [ $rc -ne 1 ] || ! grep -q '^lost_od 1643$' "$tmp/out" || ! grep -q '^lost_demand 30534.8299999999$' "$tmp/out" ||
            ! grep -q "$said" "$tmp/err"; then
            ok=0
            why="$th threads, rc $rc: $(grep '^lost' "$tmp/out") / $(grep 'no path' "$tmp/err")"
        fi
    done
    if [ $ok -eq 1 ]; then pass ue_unreachable_report_many_pairs; else fail ue_unreachable_report_many_pairs "$why"; fi
else skip ue_unreachable_report_many_pairs "Chicago-Sketch not found in $TNTP"; fi
