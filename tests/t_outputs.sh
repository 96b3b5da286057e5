#!/bin/sh
# t_outputs.sh - outputs and messages (issue 12): only regular files are
# written, an output is never an input or another output, no inf/nan reaches
# a file or the screen, errno survives a full disk, stale temporary files are
# found and removed, escape bytes are printed escaped, an overflowing cost is
# named, and every command validates an option the same way.
. "$(dirname "$0")/lib.sh"
C=tests/bad_input
NET=$C/valid.net.tntp
S="$D solve --net $NET --quiet"

# expect NAME RC PATTERN: the last run exited RC and stderr matches PATTERN (grep -E)
expect() {
    if [ $rc -ne "$2" ]; then fail "$1" "exit $rc, want $2: $(head -c 300 "$tmp/err")"
    elif [ -n "$3" ] && ! grep -qE -- "$3" "$tmp/err"; then fail "$1" "stderr lacks /$3/: $(head -c 300 "$tmp/err")"
    else pass "$1"; fi
}

# ------------------------------------------------------------ regular files only
run $S --out /dev/null
expect out_device_refused 2 "character device"
[ -c /dev/null ] && pass out_device_untouched || fail out_device_untouched "/dev/null is no longer a device"
mkfifo "$tmp/fifo"
run $S --out "$tmp/fifo"
expect out_fifo_refused 2 "FIFO"
mkdir "$tmp/dir.csv"
run $S --history "$tmp/dir.csv"
expect out_directory_refused 2 "directory"
echo old >"$tmp/target.csv"
ln -s target.csv "$tmp/link.csv"
run $S --out "$tmp/link.csv"
if [ $rc -eq 0 ] && [ -L "$tmp/link.csv" ] && head -1 "$tmp/target.csv" | grep -q init_node; then
    pass out_symlink_followed
else fail out_symlink_followed "rc $rc, link kept: $([ -L "$tmp/link.csv" ] && echo yes || echo no)"; fi
ln -s missing.csv "$tmp/dangling.csv"
run $S --out "$tmp/dangling.csv"
expect out_dangling_symlink_refused 2 "symbolic link to a missing file"

# ------------------------------------------------------------ output is not an input
cp $C/valid.net.tntp "$tmp/a.net.tntp"
cp $C/valid.trips.tntp "$tmp/a.trips.tntp"
cp "$tmp/a.net.tntp" "$tmp/a.net.orig"
run "$D" solve --net "$tmp/a.net.tntp" --out "$tmp/a.net.tntp" --quiet
expect out_is_input_refused 2 "same file as --net"
cmp -s "$tmp/a.net.tntp" "$tmp/a.net.orig" && pass out_is_input_untouched || fail out_is_input_untouched "network replaced"
run "$D" solve --net "$tmp/a.net.tntp" --out "$tmp/a.trips.tntp" --quiet
expect out_is_sibling_trips_refused 2 "same file as --trips"
run $S --out "$tmp/x.csv" --history "$tmp/x.csv"
expect out_is_other_output_refused 2 "same file as --history"
run $S --out "$tmp/w.csv"
run $S --warm "$tmp/w.csv" --out "$tmp/./w.csv"
expect out_is_warm_refused 2 "same file as --warm"

# ------------------------------------------------------------ no inf/nan in files or on the screen
run $S --out "$tmp/f.csv" --history "$tmp/h.csv"
if [ $rc -eq 0 ] && ! grep -qiE '(^|,)-?(inf|nan)' "$tmp/h.csv" "$tmp/f.csv"; then pass history_no_inf_nan
else fail history_no_inf_nan "rc $rc: $(grep -iE 'inf|nan' "$tmp/h.csv" | head -2)"; fi
awk -F, 'NR == 2 && $2 == "" { ok = 1 } END { exit !ok }' "$tmp/h.csv" && pass history_row0_gap_empty \
    || fail history_row0_gap_empty "row 0: $(sed -n 2p "$tmp/h.csv" | cut -c1-80)"
# huge flows: ||x||^2 overflows, the gap does not (it is computed scaled; it
# was refused with exit 2 after f.csv had been written)
awk -F, 'NR == 1 { print; next } { print $1 "," $2 ",1e300," $4 }' "$tmp/f.csv" >"$tmp/huge.csv"
run "$D" load --net $NET --flows "$tmp/huge.csv" --out "$tmp/l.csv"
if [ $rc -eq 0 ] && grep -q '^gap_rel [0-9.e+-]*$' "$tmp/out" && ! grep -qiE 'nan|inf' "$tmp/out"; then pass load_huge_flows_gap
else fail load_huge_flows_gap "rc $rc: $(cat "$tmp/out")"; fi
# compare with a reference whose flows do not vary: R^2 undefined, said so
awk -F, 'NR == 1 { print; next } { print $1 "," $2 ",5," $4 }' "$tmp/f.csv" >"$tmp/flat.csv"
run "$D" compare "$tmp/f.csv" "$tmp/flat.csv"
if [ $rc -eq 0 ] && grep -q 'R^2: *undefined' "$tmp/out" && ! grep -qiE 'nan|inf' "$tmp/out"; then pass compare_r2_undefined
else fail compare_r2_undefined "rc $rc: $(cat "$tmp/out")"; fi
# demand that sums to infinity
sed 's/100.0;/1e308;/g; s/<TOTAL OD FLOW> 600.0//' $C/valid.trips.tntp >"$tmp/big.trips.tntp"
run "$D" info --net $NET --trips "$tmp/big.trips.tntp"
expect info_demand_overflow 2 "demand entries sum past"

# ------------------------------------------------------------ cost overflow named
sed 's/^\t1\t4\t1000\t1.0\t1.0\t/\t1\t4\t1000\t1.0\t1e308\t/; s/^\t4\t1\t1000\t1.0\t1.0\t/\t4\t1\t1000\t1.0\t1e308\t/' \
    $NET >"$tmp/ov.net.tntp"
cp $C/valid.trips.tntp "$tmp/ov.trips.tntp"
run "$D" solve --net "$tmp/ov.net.tntp" --quiet
expect solve_cost_overflow_named 2 "ov.net.tntp:[0-9]+: path costs can overflow"
run "$D" ue --net "$tmp/ov.net.tntp" --quiet
expect ue_cost_overflow_named 2 "overflow"
sed 's/\t0.15\t4\t60\t/\t1e308\t1000\t60\t/' $NET >"$tmp/bp.net.tntp"
cp $C/valid.trips.tntp "$tmp/bp.trips.tntp"
run "$D" ue --net "$tmp/bp.net.tntp" --quiet
if [ $rc -eq 2 ] && grep -q "overflowed" "$tmp/err" && ! grep -qiE 'nan' "$tmp/out"; then pass ue_bpr_overflow_named
else fail ue_bpr_overflow_named "rc $rc: $(head -c 300 "$tmp/err") $(cat "$tmp/out")"; fi

# ------------------------------------------------------------ full disk, errno kept
( trap '' XFSZ; ulimit -f 1; exec $S --out "$tmp/big.csv" --history "$tmp/bigh.csv" ) >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "File too large" "$tmp/err" && ! grep -q "Success" "$tmp/err"; then pass out_full_disk_errno
else fail out_full_disk_errno "rc $rc: $(head -c 300 "$tmp/err")"; fi
ls "$tmp" | grep -q 'dillsue-tmp' && fail out_full_disk_no_temp "temporary file left: $(ls "$tmp")" || pass out_full_disk_no_temp
if [ -w /dev/full ]; then
    "$D" info --net $NET >/dev/full 2>"$tmp/err"
    rc=$?
    expect stdout_full_disk 2 "No space left"
else skip stdout_full_disk "no /dev/full"; fi

# ------------------------------------------------------------ stale temporary files
sh -c 'exit 0' &
dead=$!
wait $dead
echo partial >"$tmp/s.csv.dillsue-tmp-$dead-AbCdEf"
run $S --out "$tmp/s.csv"
if [ $rc -eq 0 ] && [ ! -e "$tmp/s.csv.dillsue-tmp-$dead-AbCdEf" ] && grep -q "removed .*left by process $dead" "$tmp/err"; then
    pass out_stale_temp_removed
else fail out_stale_temp_removed "rc $rc: $(head -c 300 "$tmp/err")"; fi

# ------------------------------------------------------------ escape bytes escaped
printf 'init_node,term_node,flow,cost\n1,4,\0331;31mred,1\n' >"$tmp/esc.csv"
run $S --warm "$tmp/esc.csv"
if [ $rc -eq 2 ] && grep -q 'x1b' "$tmp/err" && ! grep -q "$(printf '\033')" "$tmp/err"; then pass message_escape_bytes_escaped
else fail message_escape_bytes_escaped "rc $rc: $(od -c "$tmp/err" | head -3)"; fi

# ------------------------------------------------------------ one rule per setting, one parser
run $S --tol 2
expect option_tol_rule 2 "--tol must be in \(0, 1\)"
run $S --max-iter 99999999999
expect option_max_iter_range 2 "--max-iter must be in \[0, 100000000\]"
run $S --tau 0x10
expect option_hex_refused 2 "--tau needs a decimal number"
run "$D" ue --bogus
expect option_ue_unknown 2 "unknown option '--bogus'"
run "$D" ue --net $NET --threads -5
expect option_ue_threads_rule 2 "--threads must be in \[0, 4096\]"
run $S --tau=3 --max-iter=500
expect option_equals_form 0 ""
run "$D" ue --net $NET --quiet=1
expect option_flag_takes_no_value 2 "takes no value"
run "$D" --list-options ue
if [ $rc -eq 0 ] && grep -qx -- --gap "$tmp/out" && grep -qx -- --net "$tmp/out" && ! grep -qx -- --tau "$tmp/out"; then
    pass option_table_listed
else fail option_table_listed "rc $rc: $(tr '\n' ' ' <"$tmp/out")"; fi

# ------------------------------------------------------------ a FIFO as input never blocks
mkfifo "$tmp/p.net.tntp"
cp $C/valid.trips.tntp "$tmp/p.trips.tntp"
if command -v timeout >/dev/null 2>&1; then
    run timeout 20 "$D" info --net "$tmp/p.net.tntp"
    expect input_fifo_no_writer_does_not_block 2 "file is empty"
else skip input_fifo_no_writer_does_not_block "no timeout(1)"; fi
# flow files by the same rule (solve --warm, load --flows, compare): a FIFO
# without writer reads as empty, a device is refused (it read /dev/zero until
# memory ran out), a NUL byte inside a field is refused on its line
mkfifo "$tmp/pf.csv"
if command -v timeout >/dev/null 2>&1; then
    run timeout 20 $S --warm "$tmp/pf.csv"
    expect warm_fifo_no_writer_does_not_block 2 "pf.csv: empty file"
    run timeout 20 "$D" compare "$tmp/pf.csv" "$tmp/pf.csv"
    expect compare_fifo_no_writer_does_not_block 2 "pf.csv: empty file"
else skip warm_fifo_no_writer_does_not_block "no timeout(1)"; fi
run timeout 20 $S --warm /dev/zero
expect warm_device_refused 2 "/dev/zero: cannot read flow file: not a regular file"
{ sed -n 1,2p "$tmp/f.csv"; l3=$(sed -n 3p "$tmp/f.csv")
  printf '%s,%s,1.8\000junk,%s\n' "$(echo "$l3" | cut -d, -f1)" "$(echo "$l3" | cut -d, -f2)" "$(echo "$l3" | cut -d, -f4)"
  sed -n '4,$p' "$tmp/f.csv"; } >"$tmp/nul.csv"
run $S --warm "$tmp/nul.csv"
expect warm_nul_byte_refused 2 "nul.csv:3: binary data: NUL byte in field 3"

# ------------------------------------------------------------ warm starts and partial outputs
awk -F, 'NR == 1 { print; next } NR == 2 { print $1 "," $2 ",-5," $4; next } { print }' "$tmp/f.csv" >"$tmp/neg.csv"
run $S --warm "$tmp/neg.csv"
expect warm_negative_flow_refused 2 "neg.csv:2: link 1 (.*) has flow -5: flows to start from must be >= 0"
# load's x is read by the same rule (it printed a gap at negative flows)
run "$D" load --net "$NET" --flows "$tmp/neg.csv" --out "$tmp/lneg.csv"
expect load_negative_flow_refused 2 "neg.csv:2: link 1 (.*) has flow -5: flows to start from must be >= 0"
( trap "" XFSZ; ulimit -f 1; exec "$D" solve --quiet --max-iter 3 --out "$tmp/big2.csv" --history "$tmp/h2.csv" ) >"$tmp/out" 2>"$tmp/err"
[ ! -e "$tmp/h2.csv" ] && grep -q "not written either" "$tmp/err" && pass history_not_written_without_flows \
    || fail history_not_written_without_flows "$(head -c 300 "$tmp/err")"
# ... and the NOT CONVERGED line does not name them as holding the last iterate
if grep -q "NOT CONVERGED" "$tmp/err" && ! grep -q "holds* the last iterate" "$tmp/err" &&
    grep -q "the last iterate was not written" "$tmp/err"; then pass not_converged_names_only_written
else fail not_converged_names_only_written "$(grep "NOT CONVERGED" "$tmp/err")"; fi

# ------------------------------------------------------------ an OD pair without a path is named
head -5 $C/valid.net.tntp | sed 's/<NUMBER OF LINKS> 8/<NUMBER OF LINKS> 4/' >"$tmp/np.net.tntp"
sed -n '8,11p' $C/valid.net.tntp >>"$tmp/np.net.tntp"
printf '<NUMBER OF ZONES> 3\n<END OF METADATA>\nOrigin 1\n  2 : 100.0;\n' >"$tmp/np.trips.tntp"
run "$D" solve --net "$tmp/np.net.tntp" --quiet
expect solve_names_od_without_path 2 "no path from zone 1 to zone 2 \(demand 100\)"
# where FIRST THRU NODE makes no centroids, neither solve nor ue blames one
grep -q "without passing through a centroid" "$tmp/err"
cen=$?
sed 's/<FIRST THRU NODE> 4/<FIRST THRU NODE> 1/' "$tmp/np.net.tntp" >"$tmp/np1.net.tntp"
cp "$tmp/np.trips.tntp" "$tmp/np1.trips.tntp"
run "$D" solve --net "$tmp/np1.net.tntp" --quiet
rc1=$rc
grep -q "no path from zone 1 to zone 2 (demand 100);" "$tmp/err" && ! grep -q centroid "$tmp/err"
said1=$?
run "$D" ue --net "$tmp/np1.net.tntp" --quiet
if [ $cen -eq 0 ] && [ $rc1 -eq 2 ] && [ $said1 -eq 0 ] && [ $rc -eq 2 ] && grep -q "no path from zone 1 to zone 2 (demand 100)" "$tmp/err" &&
    ! grep -q centroid "$tmp/err"; then pass od_without_path_no_centroid_named
else fail od_without_path_no_centroid_named "centroid said at FTN 4: $cen; solve rc $rc1 ($said1), ue rc $rc: $(cat "$tmp/err")"; fi

# a zone that no link leaves is named as the cause, not the centroid rule
# (the network has centroids: FIRST THRU NODE 4, zone 3 touches no link)
printf '<NUMBER OF ZONES> 3\n<NUMBER OF NODES> 5\n<FIRST THRU NODE> 4\n<NUMBER OF LINKS> 4\n<END OF METADATA>\n1 4 1000 1 1 0.15 4 0 0 1 ;\n4 1 1000 1 1 0.15 4 0 0 1 ;\n2 4 1000 1 1 0.15 4 0 0 1 ;\n4 2 1000 1 1 0.15 4 0 0 1 ;\n' >"$tmp/iso.net.tntp"
printf '<NUMBER OF ZONES> 3\n<END OF METADATA>\nOrigin 1\n  2 : 100.0;\nOrigin 3\n  1 : 20.0;\n' >"$tmp/iso.trips.tntp"
run "$D" solve --net "$tmp/iso.net.tntp" --max-iter 1
grep -q "^lost demand\|lost demand 20 of 120" "$tmp/out"
lost=$?
run "$D" ue --net "$tmp/iso.net.tntp" --max-iter 1
if [ $lost -eq 0 ] && grep -q "have no path and are not assigned; the first: zone 3 to zone 1 (demand 20; no link leaves zone 3)$" "$tmp/err" &&
    ! grep -q centroid "$tmp/err"; then pass od_without_path_isolated_zone_named
else fail od_without_path_isolated_zone_named "lost $lost: $(cat "$tmp/err")"; fi

# ------------------------------------------------------------ runs without an iterate write nothing
# An ill-posed run: neither flows nor a history (it wrote a history of a header
# only, with no row to carry final_status).
CH=$TNTP/Chicago-Sketch/ChicagoSketch_net.tntp
if [ -r "$CH" ]; then
    run "$D" solve --net "$CH" --tau 10 --out "$tmp/ip.csv" --history "$tmp/iph.csv"
    if [ $rc -eq 3 ] && [ ! -e "$tmp/ip.csv" ] && [ ! -e "$tmp/iph.csv" ] &&
        grep -q "no history written to .*iph.csv: the run ended ill-posed before its first iterate" "$tmp/err"; then
        pass ill_posed_writes_no_history
    else fail ill_posed_writes_no_history "rc $rc: $(ls "$tmp"/ip*.csv 2>&1) $(head -c 300 "$tmp/err")"; fi
else skip ill_posed_writes_no_history "$CH not found (set DILLSUE_TNTP_DIR)"; fi
# A stop during set-up (Austin-SDB's full graph sets up for seconds): no
# all-zero flow file called "the last iterate", no "gap_rel nan"
AU=$TNTP/Austin-SDB/AustinSDB_net.tntp
if [ -r "$AU" ] && command -v timeout >/dev/null 2>&1; then
    # the signal once set-up says it has begun the ill-posedness bound (seconds before iteration 0);
    # its own stderr file, made empty before the start: the shared $tmp/err still held the
    # Chicago-Sketch run's set-up lines until the child truncated it, and a grep that came first
    # sent the signal before the program had its handler (rc 143 in CI)
    : >"$tmp/cs_err"
    "$D" solve --net "$AU" --tau 10 --threads 2 --out "$tmp/cs.csv" --history "$tmp/csh.csv" >"$tmp/out" 2>"$tmp/cs_err" &
    pid=$!
    i=0
    while [ $i -lt 600 ] && ! grep -q '^setup .*ill-posedness bound' "$tmp/cs_err" 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
    kill -TERM $pid 2>/dev/null # (a background job ignores SIGINT; SIGTERM stops a run the same way)
    wait $pid; rc=$?
    if [ $rc -eq 4 ] && [ ! -e "$tmp/cs.csv" ] && [ ! -e "$tmp/csh.csv" ] &&
        grep -q "no flows written to .*cs.csv: the run ended cancelled before its first iterate" "$tmp/cs_err" &&
        ! grep -qi "nan" "$tmp/cs_err" "$tmp/out"; then
        pass cancel_in_setup_writes_nothing
    else fail cancel_in_setup_writes_nothing "rc $rc: $(ls "$tmp"/cs*.csv 2>&1) $(grep -v '^setup' "$tmp/cs_err" | head -c 400)"; fi
else skip cancel_in_setup_writes_nothing "$AU not found or no timeout(1)"; fi

# compare --min-ref 0: MAPE over links with a reference flow above 0 (a link
# with reference 0 made it inf, or "n/a: no link with reference flow >= 0")
run "$D" solve --quiet --tau 3 --out "$tmp/m1.csv"
awk -F, 'NR == 2 { print $1 "," $2 ",0," $4; next } { print }' "$tmp/m1.csv" >"$tmp/m0.csv"
run "$D" compare "$tmp/m1.csv" "$tmp/m0.csv" --min-ref 0
if [ $rc -eq 0 ] && grep -q '^MAPE: *[0-9.e+-]* % ([0-9]* links with reference flow above 0)' "$tmp/out" && ! grep -qi 'inf\|n/a' "$tmp/out"; then
    pass compare_min_ref_zero
else fail compare_min_ref_zero "rc $rc: $(grep MAPE "$tmp/out")"; fi

# ------------------------------------------------ checkpoints and closed pipes
# OUT.checkpoint and HIST.checkpoint are written, then removed: an input of
# that name is refused as --out itself is (the trips file was overwritten by
# checkpoints, then deleted)
cp "$C/valid.trips.tntp" "$tmp/t.checkpoint"
run "$D" solve --net "$NET" --trips "$tmp/t.checkpoint" --out "$tmp/t" --quiet
r1=$rc
run "$D" solve --net "$NET" --trips "$tmp/t.checkpoint" --history "$tmp/t" --quiet
if [ $r1 -eq 2 ] && [ $rc -eq 2 ] && grep -q "history's checkpoint .*t.checkpoint is the same file as --trips" "$tmp/err" &&
    cmp -s "$tmp/t.checkpoint" "$C/valid.trips.tntp" && [ ! -e "$tmp/t" ]; then
    pass out_checkpoint_not_an_input
else fail out_checkpoint_not_an_input "rc $r1/$rc: $(head -c 300 "$tmp/err")"; fi
run "$D" solve --net "$NET" --trips "$tmp/t.checkpoint" --out "$tmp/t" --checkpoint 0 --quiet
expect out_checkpoint_off_allows_name 0 ""
# ... but --warm OUT.checkpoint, the documented way on after a kill, is read before any write
cp "$tmp/t" "$tmp/w.checkpoint"
run "$D" solve --net "$NET" --warm "$tmp/w.checkpoint" --out "$tmp/w" --quiet
expect out_warm_from_own_checkpoint 0 ""
# MSA's step schedule starts again from warm flows: said (a resumed MSA run
# lost its averaging without a word); not said for the other solvers
run "$D" solve --net "$NET" --warm "$tmp/w" --solver msa --max-iter 2
r1=$rc
grep -q "note: MSA's steps 1/(l+1) start again" "$tmp/err" && n1=1 || n1=0
run "$D" solve --net "$NET" --warm "$tmp/w" --solver sra --max-iter 2
if [ $n1 = 1 ] && ! grep -q "note: MSA" "$tmp/err"; then pass out_warm_msa_said
else fail out_warm_msa_said "rc $r1/$rc, msa note $n1: $(head -c 300 "$tmp/err")"; fi
# a checkpoint an earlier, killed run left beside the outputs is removed once
# this run's are written (it stayed, and read as this run's); with
# --checkpoint 0 nothing is touched (such a name may be an input then)
echo stale >"$tmp/s.csv.checkpoint"
echo stale >"$tmp/s.hist.checkpoint"
run "$D" solve --net "$NET" --out "$tmp/s.csv" --history "$tmp/s.hist" --quiet
if [ $rc -eq 0 ] && [ -s "$tmp/s.csv" ] && [ ! -e "$tmp/s.csv.checkpoint" ] && [ ! -e "$tmp/s.hist.checkpoint" ] &&
    grep -q "removed a checkpoint an earlier run left: .*s.csv.checkpoint" "$tmp/err"; then
    echo stale >"$tmp/s.csv.checkpoint"
    run "$D" solve --net "$NET" --out "$tmp/s.csv" --checkpoint 0 --quiet
    if [ $rc -eq 0 ] && [ -e "$tmp/s.csv.checkpoint" ]; then pass out_stale_checkpoint_removed
    else fail out_stale_checkpoint_removed "--checkpoint 0 removed it (rc $rc)"; fi
else fail out_stale_checkpoint_removed "rc $rc: $(ls "$tmp"/s.* | tr '\n' ' ') $(head -c 300 "$tmp/err")"; fi
# a reader of stdout/stderr that went away (`2>&1 | head`, a tee gone with an
# SSH connection) fails the writes, not the run: the flows are written and the
# failed stdout ends in exit 2 (SIGPIPE killed it with 141 and nothing written).
# The pipe's read end is closed before the start, so every write fails.
rm -f "$tmp/pipe.csv"
rc=$(python3 -c 'import os, subprocess, sys
r, w = os.pipe(); os.close(r)
print(subprocess.call(sys.argv[1:], stdout=w, stderr=w))' "$D" solve --net "$NET" --out "$tmp/pipe.csv")
if [ "$rc" = 2 ] && [ -s "$tmp/pipe.csv" ] && cmp -s "$tmp/pipe.csv" "$tmp/t"; then pass out_closed_pipe_keeps_flows
else fail out_closed_pipe_keeps_flows "exit ${rc:-?} (want 2), flows: $(wc -l <"$tmp/pipe.csv" 2>&1)"; fi
