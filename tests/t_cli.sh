#!/bin/sh
# t_cli.sh - the dillsue command line end to end: help texts that are true,
# usage and input errors (exit 2), solve on Sioux Falls with flow and history
# CSV outputs, warm start, max-iterations (exit 1, results still written),
# cancel by signal (exit 4), info and compare.
. "$(dirname "$0")/lib.sh"
SF=$TNTP/SiouxFalls/SiouxFalls_net.tntp

if [ ! -x "$D" ]; then
    fail cli_binary "$D not built"
    exit 0
fi

# ------------------------------------------------------------ help and version
run "$D" --version
if [ $rc -eq 0 ] && grep -q '^dillsue [0-9]' "$tmp/out"; then pass cli_version
else fail cli_version "rc $rc: $(cat "$tmp/out" "$tmp/err")"; fi

run "$D" --help
ok=1
for c in tui solve ue info compare help --version; do grep -q -- "$c" "$tmp/out" || ok=0; done
if [ $rc -eq 0 ] && [ $ok -eq 1 ]; then pass cli_help_top; else fail cli_help_top "rc $rc or a command missing"; fi

# Every option of DESIGN.md 3 must be in the help; every option the help
# names must be accepted by the parser (a flag followed by a bogus option
# fails on the bogus one; an option with an argument, given none, says so).
opts_solve="--net --trips --tau --mu --filter --solver --tol --max-iter --threads --backend --cap
 --warm --toll-factor --distance-factor --inner-max --scenario --seed --out --history --quiet --help"
opts_info="--net --trips --cap --scenario --seed --help"
opts_compare="--net --flow-dependent-only --min-ref --help"
opts_ue="--net --gap --out --help"
opts_load="--net --trips --flows --tau --mu --filter --out --help"
opts_sweep="--net --trips --scenarios --seed --tau --mu --filter --solver --tol --max-iter --threads --out
 --flows --resume --shard --merge --ue --workers --help"
flags_solve="--quiet"
flags_compare="--flow-dependent-only"
flags_ue="--quiet"
flags_sweep="--quiet --flows --ue --resume --merge"
for cmd in solve info compare ue load sweep; do
    eval "want=\$opts_$cmd; flags=\${flags_$cmd:-}"
    run "$D" "$cmd" --help
    cp "$tmp/out" "$tmp/help"
    hrc=$rc
    missing=""
    # what issue 13 / DESIGN.md 3 name, and every option of the table for the command
    for o in $want $("$D" --list-options "$cmd"); do grep -q -- "$o\b" "$tmp/help" || missing="$missing $o"; done
    run "$D" help "$cmd"
    if [ $hrc -ne 0 ] || [ $rc -ne 0 ]; then fail "cli_help_$cmd" "exit $hrc / $rc"
    elif [ -n "$missing" ]; then fail "cli_help_$cmd" "help does not mention:$missing"
    elif ! cmp -s "$tmp/out" "$tmp/help"; then fail "cli_help_$cmd" "'help $cmd' differs from '$cmd --help'"
    else pass "cli_help_$cmd"; fi
    bad=""
    for o in $(grep -o -- '--[a-z][a-z-]*' "$tmp/help" | sort -u); do
        [ "$o" = --help ] && continue
        case " $flags " in
        *" $o "*)
            run "$D" "$cmd" "$o" --zz-bogus
            grep -q "'--zz-bogus'" "$tmp/err" || bad="$bad $o" ;;
        *)
            run "$D" "$cmd" "$o"
            { [ $rc -eq 2 ] && grep -q "needs an argument" "$tmp/err"; } || bad="$bad $o" ;;
        esac
    done
    if [ -n "$bad" ]; then fail "cli_help_true_$cmd" "named in help but not accepted:$bad"
    else pass "cli_help_true_$cmd"; fi
done

# ------------------------------------------------------------ usage errors
usage_case() { # name expected-rc command...
    name=$1; want=$2; shift 2
    run "$@"
    if [ $rc -ne "$want" ]; then fail "$name" "exit $rc, want $want ($(head -c 300 "$tmp/err"))"
    elif [ "$want" -eq 2 ] && ! [ -s "$tmp/err" ]; then fail "$name" "no message on stderr"
    else pass "$name"; fi
}
usage_case cli_bad_option 2 "$D" solve --bogus
grep -q -- "--help" "$tmp/err" || fail cli_bad_option_hint "no hint to --help: $(cat "$tmp/err")"
[ "$(grep -c . "$tmp/err")" -le 2 ] || fail cli_bad_option_short "more than message + hint"
usage_case cli_bad_command 2 "$D" frobnicate
usage_case cli_bad_number 2 "$D" solve --tau abc
usage_case cli_bad_filter 2 "$D" solve --filter nosuch
usage_case cli_tau_and_mu 2 "$D" solve --tau 1 --mu 1
usage_case cli_stray_arg 2 "$D" solve extra
usage_case cli_list_values_unknown 2 "$D" --list-values solve --bogus
grep -q "'dillsue solve' has no option --bogus" "$tmp/err" || fail cli_list_values_unknown_msg "$(cat "$tmp/err")"
usage_case cli_compare_one_file 2 "$D" compare only.csv
usage_case cli_compare_dep_needs_net 2 "$D" compare a.csv b.csv --flow-dependent-only
usage_case cli_missing_net 2 "$D" solve --net "$tmp/nonexistent_net.tntp"
grep -q "^dillsue: $tmp/nonexistent_net.tntp" "$tmp/err" || fail cli_missing_net_msg "$(cat "$tmp/err")"
usage_case cli_missing_warm 2 "$D" solve --warm "$tmp/nonexistent.csv"
grep -q "nonexistent.csv" "$tmp/err" || fail cli_missing_warm_msg "$(cat "$tmp/err")"
usage_case cli_unwritable_out 2 "$D" solve --out /nonexistent-dir/x.csv
# --trips without --net: the TUI refuses it as solve, load, info and sweep do
# (it opened the embedded network and dropped the trips file without a word);
# refused before any terminal is needed
usage_case cli_tui_trips_needs_net 2 "$D" tui --trips "$tmp/nonexistent_trips.tntp" --no-config --no-runlog
grep -q -- "--trips needs --net" "$tmp/err" || fail cli_tui_trips_needs_net_msg "$(cat "$tmp/err")"
usage_case cli_info_default 0 "$D" info
grep -q "^GPU: none" "$tmp/out" || fail cli_info_gpu "no GPU line: $(cat "$tmp/out")"

# ------------------------------------------------------------ Sioux Falls
if [ ! -r "$SF" ]; then
    skip cli_sioux_falls "$SF not found (set DILLSUE_TNTP_DIR)"
    exit 0
fi
nlinks=$(sed -n 's/.*<NUMBER OF LINKS>[[:space:]]*\([0-9]*\).*/\1/p' "$SF")
nnodes=$(sed -n 's/.*<NUMBER OF NODES>[[:space:]]*\([0-9]*\).*/\1/p' "$SF")
S="$D solve --net $SF --tau 10 --filter dsp --solver sra"

# An input error names file and line: "dillsue: FILE:LINE: msg", exit 2.
cp "$TNTP/SiouxFalls/SiouxFalls_trips.tntp" "$tmp/bad_trips.tntp"
awk 'NR == 20 { $3 = "abc" } { print }' "$SF" >"$tmp/bad_net.tntp"
run "$D" solve --net "$tmp/bad_net.tntp"
if [ $rc -eq 2 ] && grep -q "^dillsue: $tmp/bad_net.tntp:20: .*abc" "$tmp/err"; then pass cli_input_error_line
else fail cli_input_error_line "rc $rc: $(cat "$tmp/err")"; fi

# csv_ok FILE: exact header, $nlinks data rows, 4 numeric fields each.
csv_ok() {
    [ "$(head -n 1 "$1")" = "init_node,term_node,flow,cost" ] || { echo "header: $(head -n 1 "$1")"; return 1; }
    awk -F, -v n="$nlinks" '
        NR > 1 { rows++
                 if (NF != 4) { print "line " NR ": " NF " fields"; bad = 1; exit }
                 for (i = 1; i <= 4; i++) if ($i !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) {
                     print "line " NR ": field " i " = " $i; bad = 1; exit } }
        END { if (bad) exit 1; if (rows != n) { print rows " data rows, want " n; exit 1 } }' "$1"
}
# hist_ok FILE STATUS: header + one row per iteration 0..N in order, the last
# row's final_status = STATUS. Prints N.
hist_ok() {
    awk -F, -v st="$2" '
        NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "iter") ci = i; if ($i == "final_status") cs = i }
                  if (!ci || !cs) { print "no iter/final_status column"; exit 1 } next }
        { if ($ci != NR - 2) { print "line " NR ": iter " $ci ", want " NR - 2; bad = 1; exit }
          last = $cs; n = $ci }
        END { if (bad) exit 1; if (last != st) { print "final_status \"" last "\", want " st; exit 1 }
              print n }' "$1"
}

run $S --out "$tmp/a.csv" --history "$tmp/h.csv"
if [ $rc -ne 0 ]; then fail cli_solve_sf "exit $rc: $(tail -n 3 "$tmp/err")"
elif ! msg=$(csv_ok "$tmp/a.csv"); then fail cli_solve_sf "flows CSV: $msg"
elif ! n=$(hist_ok "$tmp/h.csv" converged); then fail cli_solve_sf "history: $n"
else
    pass cli_solve_sf
    # One progress line per history row (iteration 0 included), and a summary on stdout.
    np=$(grep -c '^iter ' "$tmp/err")
    if [ "$np" -eq $((n + 1)) ]; then pass cli_progress_lines
    else fail cli_progress_lines "$np progress lines, history has $((n + 1)) rows"; fi
    if grep -q '^converged' "$tmp/out" && grep -q 'cbar' "$tmp/out"; then pass cli_summary
    else fail cli_summary "stdout: $(cat "$tmp/out")"; fi
    # set-up is reported step by step before iteration 0; the certificate follows the summary
    if grep -q '^setup .*start point' "$tmp/err" && [ "$(grep -n '^setup ' "$tmp/err" | tail -n 1 | cut -d: -f1)" -lt "$(grep -n '^iter ' "$tmp/err" | head -n 1 | cut -d: -f1)" ]; then pass cli_setup_progress
    else fail cli_setup_progress "stderr: $(head -n 8 "$tmp/err")"; fi
    if grep -q '^certificate | lost demand [0-9.e-]* of 360600 ([0-9.e-]* %) | demand assigned 360600 | max flow-conservation violation' "$tmp/out"; then pass cli_certificate
    else fail cli_certificate "stdout: $(cat "$tmp/out")"; fi
    # the mean trip, as a user computes it from the flows file: sum of flows / demand assigned
    want=$(awk -F, 'NR > 1 { s += $3 } END { printf "%.4g", s / 360600 }' "$tmp/a.csv")
    got=$(sed -n 's/^certificate .* | mean trip \([0-9.e+-]*\) links, [0-9.e+-]* x cbar$/\1/p' "$tmp/out")
    if [ -n "$got" ] && [ "$got" = "$want" ] && ! grep -q 'round cycles' "$tmp/err"; then pass cli_certificate_mean_trip
    else fail cli_certificate_mean_trip "mean trip '$got', from the flows '$want': $(grep -E '^certificate|cycles' "$tmp/out" "$tmp/err")"; fi
fi

run $S --quiet --out "$tmp/q.csv"
if [ $rc -eq 0 ] && ! grep -q '^iter ' "$tmp/err" && cmp -s "$tmp/a.csv" "$tmp/q.csv"; then pass cli_quiet
else fail cli_quiet "rc $rc, progress lines or different flows"; fi

run $S --quiet --warm "$tmp/a.csv" --out "$tmp/w.csv" --history "$tmp/hw.csv"
if [ $rc -ne 0 ]; then fail cli_warm_start "exit $rc: $(tail -n 3 "$tmp/err")"
elif ! n=$(hist_ok "$tmp/hw.csv" converged); then fail cli_warm_start "history: $n"
elif [ "$n" -gt 1 ]; then fail cli_warm_start "took $n iterations from a converged start, want at most 1"
else pass cli_warm_start; fi

run "$D" compare "$tmp/a.csv" "$tmp/a.csv"
if [ $rc -eq 0 ] && grep -q '^MAPE: *0 %' "$tmp/out" && grep -q '^R^2: *1$' "$tmp/out" &&
    grep -q '^max abs diff: *0$' "$tmp/out" && grep -q "^links: *$nlinks of $nlinks" "$tmp/out"; then
    pass cli_compare_self
else fail cli_compare_self "rc $rc: $(cat "$tmp/out" "$tmp/err")"; fi

run "$D" compare "$tmp/a.csv" "$tmp/w.csv" --net "$SF" --flow-dependent-only
ndep=$(awk '/^~/ { next } NF >= 6 && $1 ~ /^[0-9]+$/ && $6 + 0 > 0 && $7 + 0 > 0 { n++ } END { print n + 0 }' "$SF")
if [ $rc -eq 0 ] && grep -q "^links: *$ndep of $nlinks (flow-dependent only)" "$tmp/out"; then pass cli_compare_dep
else fail cli_compare_dep "rc $rc, want $ndep links: $(cat "$tmp/out" "$tmp/err")"; fi

# compare: R^2 of flows whose squares overflow is computed (scaled), not said
# to be "undefined (the reference flows do not vary)"; an R^2 or a MAPE that
# is itself past DBL_MAX is said so; no link compared is said so
h=init_node,term_node,flow,cost
printf '%s\n1,2,1e200,1\n2,3,1,1\n3,4,2,1\n' $h > "$tmp/ov_a.csv"
printf '%s\n1,2,2e200,1\n2,3,1,1\n3,4,2,1\n' $h > "$tmp/ov_b.csv"
printf '%s\n1,2,1e308,1\n2,3,1,1\n3,4,2,1\n' $h > "$tmp/ov_c.csv"
printf '%s\n1,2,1e-300,1\n2,3,1,1\n3,4,3,1\n' $h > "$tmp/ov_d.csv"
printf '%s\n' $h > "$tmp/ov_e.csv"
run "$D" compare "$tmp/ov_a.csv" "$tmp/ov_b.csv"
r1=$rc o1=$(grep '^R^2' "$tmp/out")
run "$D" compare "$tmp/ov_c.csv" "$tmp/ov_d.csv" --min-ref 0
r2=$rc o2=$(grep -E '^(R\^2|MAPE)' "$tmp/out" | tr '\n' ' ')
run "$D" compare "$tmp/ov_e.csv" "$tmp/ov_e.csv"
if [ $r1 -eq 0 ] && [ "$o1" = "R^2:           0.625" ] && [ $r2 -eq 0 ] &&
    echo "$o2" | grep -q 'MAPE: *undefined (the mean relative error overflows' &&
    echo "$o2" | grep -q 'R^2: *undefined (below -1.8e308' && grep -q '^R^2: *undefined (no links compared)' "$tmp/out"; then
    pass cli_compare_overflow
else fail cli_compare_overflow "'$o1' / '$o2' / $(cat "$tmp/out")"; fi

# compare without --net: a u,u row (a self-loop the reader dropped, written
# with flow 0) is no link, as with --net: the same count and R^2 either way
LOOPN=tests/bad_input/self_loop.net.tntp
if [ -f "$LOOPN" ]; then
    run "$D" solve --net "$LOOPN" --tau 3 --filter dsp --quiet --out "$tmp/lp_a.csv"
    sed 's/^1,4,150,/1,4,100,/' "$tmp/lp_a.csv" > "$tmp/lp_b.csv"
    run "$D" compare "$tmp/lp_a.csv" "$tmp/lp_b.csv"
    cp "$tmp/out" "$tmp/lp_nonet"
    run "$D" compare "$tmp/lp_a.csv" "$tmp/lp_b.csv" --net "$LOOPN"
    if [ $rc -eq 0 ] && grep -q '^4,4,0,' "$tmp/lp_a.csv" && grep -q '^links: *8 of 8$' "$tmp/out" && cmp -s "$tmp/out" "$tmp/lp_nonet"; then
        pass cli_compare_self_loop_rows
    else fail cli_compare_self_loop_rows "with --net: $(cat "$tmp/out" "$tmp/err"); without: $(cat "$tmp/lp_nonet")"; fi
fi

# compare's own messages escape control bytes in file names, as every message
printf '%s\n1,2,1,1\n' $h > "$tmp/$(printf 'e\033x').csv"
run "$D" compare "$tmp/$(printf 'e\033x').csv" "$tmp/ov_a.csv"
if [ $rc -eq 2 ] && grep -q 'ov_a.csv:3: data row 2, link (2,3), is beyond the last data row of .*e\\x1bx.csv (row 1, line 2)' "$tmp/err" &&
    ! grep -q "$(printf '\033')" "$tmp/err"; then
    pass cli_compare_names_escaped
else fail cli_compare_names_escaped "rc $rc: $(od -c "$tmp/err" | head -3)"; fi

# compare's rows that do not match are named by file and line (line 1 the
# header, blank lines counted), as the reader names its errors: it named the
# data row (3), not the line (5), and a file with rows the other lacks only by
# its count of rows
printf '%s\n1,2,1,1\n\n2,3,1,1\n3,4,2,1\n' $h > "$tmp/rw_a.csv"
printf '%s\n1,2,1,1\n2,3,1,1\n3,5,2,1\n' $h > "$tmp/rw_b.csv"
printf '%s\n\n1,2,1,1\n2,3,1,1\n' $h > "$tmp/rw_c.csv"
run "$D" compare "$tmp/rw_a.csv" "$tmp/rw_b.csv"
r1=$rc e1=$(cat "$tmp/err")
run "$D" compare "$tmp/rw_c.csv" "$tmp/rw_a.csv"
r2=$rc e2=$(cat "$tmp/err")
run "$D" compare "$tmp/rw_a.csv" "$tmp/ov_e.csv"
if [ $r1 -eq 2 ] && echo "$e1" | grep -q 'rw_b.csv:4: data row 3 is link (3,5) but in .*rw_a.csv (line 5) it is (3,4)$' &&
    [ $r2 -eq 2 ] && echo "$e2" | grep -q 'rw_a.csv:5: data row 3, link (3,4), is beyond the last data row of .*rw_c.csv (row 2, line 4)$' &&
    [ $rc -eq 2 ] && grep -q 'rw_a.csv:2: data row 1, link (1,2), is beyond the last data row of .*ov_e.csv: it has none, only the header$' "$tmp/err"; then
    pass cli_compare_names_file_and_line
else fail cli_compare_names_file_and_line "rc $r1: $e1 / rc $r2: $e2 / rc $rc: $(cat "$tmp/err")"; fi

# mu from tau where cbar is 0 (Sioux Falls' lengths equal its free-flow times,
# so --distance-factor -1 makes every free-flow route cost 0): said as that,
# not as "no OD pair has a path", the same words from solve and load
run "$D" solve --net "$SF" --distance-factor -1 --quiet
r1=$rc
grep -q "cbar, the demand-weighted cheapest free-flow route cost, is 0" "$tmp/out" "$tmp/err"
r2=$?
run "$D" load --net "$SF" --distance-factor -1 --out "$tmp/l0.csv"
if [ $r1 -eq 2 ] && [ $r2 -eq 0 ] && [ $rc -eq 2 ] && grep -q "cbar, the demand-weighted cheapest" "$tmp/err"; then
    pass cli_cbar_zero_said
else fail cli_cbar_zero_said "solve rc $r1, load rc $rc: $(cat "$tmp/err")"; fi
# the run's error is said on stderr, where a script that keeps only stderr
# looks: it said "no flows written to c0.csv: the run ended error before its
# first iterate", the reason on stdout only
run "$D" solve --net "$SF" --distance-factor -1 --quiet --out "$tmp/c0.csv"
if [ $rc -eq 2 ] && [ ! -e "$tmp/c0.csv" ] &&
    grep -q "no flows written to .*c0.csv: the run ended with an error before its first iterate: cannot derive mu from tau 10: cbar, the demand-weighted cheapest free-flow route cost, is 0" "$tmp/err"; then
    pass cli_error_reason_on_stderr
else fail cli_error_reason_on_stderr "rc $rc: $(cat "$tmp/err")"; fi

# nothing to assign (no OD pair has a path: Braess without the links into node
# 2) is an error with --mu too, not "converged" with all the demand lost
BR=$TNTP/Braess-Example/Braess_net.tntp
if [ -f "$BR" ]; then
    awk '!/^[ \t]*3[ \t]+2[ \t]/ && !/^[ \t]*4[ \t]+2[ \t]/' "$BR" | sed 's/<NUMBER OF LINKS> 5/<NUMBER OF LINKS> 3/' > "$tmp/nopath_net.tntp"
    cp "${BR%_net.tntp}_trips.tntp" "$tmp/nopath_trips.tntp"
    run "$D" solve --net "$tmp/nopath_net.tntp" --mu 1 --quiet
    if [ $rc -eq 2 ] && grep -q "^error .*no OD pair has a path under the full filter: nothing to assign" "$tmp/out"; then
        pass cli_nothing_to_assign_is_error
    else fail cli_nothing_to_assign_is_error "rc $rc: $(cat "$tmp/out" "$tmp/err")"; fi
fi

# Barcelona gives every link capacity 1: most links sit at the default x/c cap
# of the cost, which is said (and not with --cap 0); the full graph's proof
# of no fixed point names the cap, and with --cap 0 says no cap (not x/c = 0)
BC=$TNTP/Barcelona/Barcelona_net.tntp
if [ -f "$BC" ]; then
    run "$D" solve --net "$BC" --filter dsp
    r1=$rc
    grep -q "note: [0-9]* of [0-9]* flow-dependent links are at the x/c cap of the cost (--cap 100)" "$tmp/err"
    r2=$?
    run "$D" solve --net "$BC" --filter dsp --cap 0
    ! grep -q "at the x/c cap" "$tmp/err"
    r3=$?
    run "$D" solve --net "$BC"
    grep -q "the proof holds for costs capped at x/c = 100 (--cap)" "$tmp/err"
    r4=$?
    WP=$TNTP/Winnipeg/Winnipeg_net.tntp
    r5=0
    if [ -f "$WP" ]; then
        run "$D" solve --net "$WP" --cap 0
        grep -q "^ill-posed .*even with the cost of every flow-dependent link unbounded (--cap 0: no cap)" "$tmp/out"
        r5=$?
    fi
    if [ $r1 -eq 0 ] && [ $((r2 + r3 + r4 + r5)) -eq 0 ]; then pass cli_cap_said
    else fail cli_cap_said "dsp rc $r1, note $r2, no note at --cap 0 $r3, advice $r4, --cap 0 proof $r5: $(head -c 300 "$tmp/out")"; fi
else
    skip cli_cap_said "$BC missing"
fi

# load evaluates f of a scenario run as solve did: the same gap_rel, to the bit
"$D" solve --net "$SF" --scenario 2 --seed 7 --quiet --out "$tmp/sc.csv" > "$tmp/sc.out" 2>&1
run "$D" load --net "$SF" --scenario 2 --seed 7 --flows "$tmp/sc.csv" --out "$tmp/scf.csv"
g1=$(sed -n 's/.*| gap_rel \([^ ]*\) |.*/\1/p' "$tmp/sc.out" | head -n 1)
g2=$(awk '/^gap_rel / { printf "%.6e", $2 }' "$tmp/out")
if [ $rc -eq 0 ] && [ -n "$g1" ] && [ "$g1" = "$g2" ]; then pass cli_load_scenario
else fail cli_load_scenario "rc $rc: solve gap '$g1', load gap '$g2' $(cat "$tmp/err")"; fi

# inner passes that do not converge at x = 0 say so in the start's words, not
# "f(0) does not exist" beside a spectral radius below 1
run "$D" solve --net "$SF" --inner passes --inner-max 3 --quiet
if grep -q "the inner values did not converge within 3 passes at x = 0" "$tmp/out" && ! grep -q "f(0) does not exist" "$tmp/out"; then
    pass cli_start_inner_unconverged_said
else fail cli_start_inner_unconverged_said "rc $rc: $(cat "$tmp/out")"; fi

# A TNTP flow file (From To Volume Cost) as either side, matched to --net's
# links: the numbers of the same flows as a flow CSV; without --net refused.
FLOW=${SF%_net.tntp}_flow.tntp
if [ -f "$FLOW" ]; then
    awk 'NR == 1 { print "init_node,term_node,flow,cost"; next } NF >= 4 { printf "%s,%s,%s,%s\n", $1, $2, $3, $4 }' \
        "$FLOW" > "$tmp/ref.csv"
    "$D" compare "$tmp/a.csv" "$tmp/ref.csv" > "$tmp/want" 2>&1
    run "$D" compare "$tmp/a.csv" "$FLOW" --net "$SF"
    if [ $rc -eq 0 ] && cmp -s "$tmp/out" "$tmp/want" && grep -q '^MAPE: ' "$tmp/out"; then pass cli_compare_tntp_flow
    else fail cli_compare_tntp_flow "rc $rc: $(cat "$tmp/out" "$tmp/err") against $(cat "$tmp/want")"; fi
    run "$D" compare "$tmp/a.csv" "$FLOW"
    if [ $rc -eq 2 ] && grep -q "_flow.tntp: a TNTP flow file needs --net NET" "$tmp/err"; then pass cli_compare_tntp_needs_net
    else fail cli_compare_tntp_needs_net "rc $rc: $(cat "$tmp/err")"; fi
else
    skip cli_compare_tntp_flow "$FLOW missing"
fi

# A flow file of another network is refused with file and line.
awk -F, 'NR == 3 { $1 = $1 + 1 } { print }' OFS=, "$tmp/a.csv" >"$tmp/bad.csv"
run $S --quiet --warm "$tmp/bad.csv"
if [ $rc -eq 2 ] && grep -q "bad.csv:3:" "$tmp/err"; then pass cli_warm_mismatch
else fail cli_warm_mismatch "rc $rc: $(cat "$tmp/err")"; fi

run $S --quiet --max-iter 2 --out "$tmp/m.csv" --history "$tmp/mh.csv"
if [ $rc -ne 1 ]; then fail cli_max_iter "exit $rc, want 1: $(tail -n 3 "$tmp/err")"
elif ! msg=$(csv_ok "$tmp/m.csv"); then fail cli_max_iter "flows CSV: $msg"
elif ! n=$(hist_ok "$tmp/mh.csv" max-iterations); then fail cli_max_iter "history: $n"
elif ! grep -q "NOT CONVERGED" "$tmp/err"; then fail cli_max_iter "no warning on stderr"
else pass cli_max_iter; fi

run "$D" info --net "$SF"
if [ $rc -eq 0 ] && grep -q "^nodes: *$nnodes$" "$tmp/out" && grep -q "^links: *$nlinks$" "$tmp/out" &&
    grep -q '^cbar: *[0-9]' "$tmp/out" && grep -q '^GPU: none (' "$tmp/out"; then
    pass cli_info_sf
else fail cli_info_sf "rc $rc: $(cat "$tmp/out" "$tmp/err")"; fi
# With the CUDA module built and no NVIDIA driver installed, the GPU line says
# that (the runtime's own words, "driver version is insufficient", mislead)
LDC=$(command -v ldconfig || echo /sbin/ldconfig)
if [ ! -f "$BUILD/libdillsue_cuda.so" ]; then skip cli_info_no_driver "no CUDA module in $BUILD"
elif ! [ -x "$LDC" ] || "$LDC" -p | grep -q 'libcuda\.so\.1'; then skip cli_info_no_driver "an NVIDIA driver is installed (or no ldconfig)"
elif grep -q '^GPU: none (no NVIDIA driver installed: no libcuda.so.1)$' "$tmp/out"; then pass cli_info_no_driver
else fail cli_info_no_driver "$(grep '^GPU' "$tmp/out")"; fi

# Results must not depend on the thread count (DESIGN.md 2): bitwise-equal files.
run $S --quiet --threads 3 --out "$tmp/t3.csv"
if [ $rc -eq 0 ] && cmp -s "$tmp/a.csv" "$tmp/t3.csv"; then pass cli_threads_bitwise
else fail cli_threads_bitwise "rc $rc or flows differ from 1 thread"; fi

# A scenario is reproducible and differs from the base network.
run $S --quiet --scenario 3 --seed 7 --out "$tmp/s1.csv"
rc1=$rc
run $S --quiet --scenario 3 --seed 7 --out "$tmp/s2.csv"
if [ $rc1 -ne 0 ] || [ $rc -ne 0 ]; then fail cli_scenario "exit $rc1 / $rc: $(tail -n 2 "$tmp/err")"
elif ! cmp -s "$tmp/s1.csv" "$tmp/s2.csv"; then fail cli_scenario "same scenario, different flows"
elif cmp -s "$tmp/s1.csv" "$tmp/a.csv"; then fail cli_scenario "scenario 3 equals the base network"
else pass cli_scenario; fi
# The spread of free-flow times, or the one value of a network whose every
# link has the same (Hessen- and Terrassa-Asymmetric are published so).
run "$D" info --net "$SF"
if [ $rc -eq 0 ] && grep -q '^free-flow time: *min 2, median 4, max 10 (over the 76 positive)$' "$tmp/out"; then
    pass cli_info_free_flow_spread
else fail cli_info_free_flow_spread "rc $rc: $(grep free-flow "$tmp/out") $(cat "$tmp/err")"; fi
{
    printf '<NUMBER OF ZONES> 2\n<NUMBER OF NODES> 4\n<FIRST THRU NODE> 3\n<NUMBER OF LINKS> 6\n<END OF METADATA>\n'
    for l in "1 3" "3 1" "2 4" "4 2" "3 4" "4 3"; do printf '\t%s\t900\t1\t0.75\t0.15\t4\t50\t0\t1\t;\n' "$l"; done
} >"$tmp/u_net.tntp"
printf '<NUMBER OF ZONES> 2\n<TOTAL OD FLOW> 300\n<END OF METADATA>\nOrigin 1\n 2 : 100;\nOrigin 2\n 1 : 200;\n' >"$tmp/u_trips.tntp"
run "$D" info --net "$tmp/u_net.tntp"
if [ $rc -eq 0 ] && grep -q '^free-flow time: *0.75 on every link (free-flow shortest paths are the fewest links' "$tmp/out"; then
    pass cli_info_free_flow_uniform
else fail cli_info_free_flow_uniform "rc $rc: $(grep free-flow "$tmp/out") $(cat "$tmp/err")"; fi
# nodes that no link touches (declared by <NUMBER OF NODES>) are counted
{
    printf '<NUMBER OF ZONES> 2\n<NUMBER OF NODES> 6\n<FIRST THRU NODE> 3\n<NUMBER OF LINKS> 6\n<END OF METADATA>\n'
    for l in "1 3" "3 1" "2 4" "4 2" "3 4" "4 3"; do printf '\t%s\t900\t1\t1\t0.15\t4\t50\t0\t1\t;\n' "$l"; done
} >"$tmp/lone_net.tntp"
run "$D" info --net "$tmp/lone_net.tntp" --trips "$tmp/u_trips.tntp"
if [ $rc -eq 0 ] && grep -q '^nodes: *6 (2 of them touch no link: no route starts, ends or passes there)$' "$tmp/out"; then
    pass cli_info_nodes_without_links
else fail cli_info_nodes_without_links "rc $rc: $(grep '^nodes' "$tmp/out") $(cat "$tmp/err")"; fi
# a network's directory (the TransportationNetworks layout) names its one net
# file, for the reader and for the command line's own uses of the path (the
# trips sibling, solve's clash checks); none or several is an error naming it
mkdir -p "$tmp/rcdir/Ring" "$tmp/rcdir/none" "$tmp/rcdir/two"
cp data/ringcity.net.tntp data/ringcity.trips.tntp "$tmp/rcdir/Ring/"
cp data/ringcity.net.tntp "$tmp/rcdir/two/a_net.tntp"
cp data/ringcity.net.tntp "$tmp/rcdir/two/b.net.tntp"
run "$D" solve --net "$tmp/rcdir/Ring/ringcity.net.tntp" --quiet --out "$tmp/rc_file.csv"
run "$D" solve --net "$tmp/rcdir/Ring" --quiet --out "$tmp/rc_dir.csv"
rc_dir=$rc
run "$D" info --net "$tmp/rcdir/Ring/"
if [ $rc_dir -eq 0 ] && cmp -s "$tmp/rc_file.csv" "$tmp/rc_dir.csv" && [ $rc -eq 0 ] &&
    grep -q "^network: *ringcity ($tmp/rcdir/Ring/ringcity.net.tntp)" "$tmp/out"; then
    pass cli_net_directory
else fail cli_net_directory "solve rc $rc_dir, info rc $rc: $(head -1 "$tmp/out") $(cat "$tmp/err")"; fi
run "$D" solve --net "$tmp/rcdir/Ring" --quiet --out "$tmp/rcdir/Ring/ringcity.trips.tntp"
st_clash=$rc
run "$D" info --net "$tmp/rcdir/none"
st_none=$rc
grep -q "rcdir/none: a directory with no network file in it" "$tmp/err" && msg_none=1 || msg_none=0
run "$D" solve --net "$tmp/rcdir/two" --max-iter 1
if [ $st_clash -eq 2 ] && cmp -s data/ringcity.trips.tntp "$tmp/rcdir/Ring/ringcity.trips.tntp" && [ $st_none -eq 2 ] &&
    [ $msg_none -eq 1 ] && [ $rc -eq 2 ] && grep -q "rcdir/two: a directory with 2 network files (a_net.tntp, b.net.tntp)" "$tmp/err"; then
    pass cli_net_directory_refused
else fail cli_net_directory_refused "clash rc $st_clash, none rc $st_none ($msg_none), two rc $rc: $(cat "$tmp/err")"; fi
run "$D" info --net "$SF" --scenario 3 --seed 7
if [ $rc -eq 0 ] && grep -q '^scenario: *3 seed 7' "$tmp/out"; then pass cli_info_scenario
else fail cli_info_scenario "rc $rc: $(cat "$tmp/out" "$tmp/err")"; fi
# info takes solve's and load's generalized-cost weights, so that its cbar is
# theirs (it refused --toll-factor and --distance-factor: no way to see the
# cbar, and so the mu, of `solve --distance-factor 1`)
run "$D" load --net "$SF" --distance-factor 1 --out "$tmp/df.csv"
c_load=$(awk '/^cbar/ { printf "%.9e", $2 }' "$tmp/out")
run "$D" info --net "$SF" --distance-factor 1 --toll-factor 0
c_info=$(awk '/^cbar:/ { printf "%.9e", $2 }' "$tmp/out")
if [ $rc -eq 0 ] && [ -n "$c_load" ] && [ "$c_info" = "$c_load" ] && grep -q "distance factor 1)" "$tmp/out"; then
    pass cli_info_cost_factors
else fail cli_info_cost_factors "rc $rc: info cbar '$c_info', load cbar '$c_load': $(cat "$tmp/err")"; fi
# the progress line of the start x = 0 says n/a, as the summary does (it said gap_rel inf)
run "$D" solve --net "$SF" --max-iter 1
if grep -q "^iter      0  gap_rel n/a" "$tmp/err" && ! grep -qi "gap_rel inf\|gap_rel nan" "$tmp/err"; then pass cli_progress_gap_undefined
else fail cli_progress_gap_undefined "$(grep '^iter' "$tmp/err")"; fi

# An ill-posed model (DESIGN.md 1: Barcelona full graph at tau 1 has no fixed
# point under the cap) exits 3 with the evidence, and writes no flows.
BCN=$TNTP/Barcelona/Barcelona_net.tntp
if [ -r "$BCN" ]; then
    run "$D" solve --net "$BCN" --tau 1 --filter full --quiet --out "$tmp/ip.csv" --history "$tmp/iph.csv"
    if [ $rc -ne 3 ]; then fail cli_ill_posed "exit $rc, want 3: $(cat "$tmp/out")"
    elif [ -e "$tmp/ip.csv" ]; then fail cli_ill_posed "flows written for an ill-posed model"
    elif ! grep -q '^ill-posed .*spectral radius' "$tmp/out"; then fail cli_ill_posed "summary: $(cat "$tmp/out")"
    elif ! grep -q "no flows written" "$tmp/err"; then fail cli_ill_posed "no note on stderr"
    elif ! grep -q "the acyclic filters (--filter dsp, bfs or edsp) always have a fixed point" "$tmp/err"; then
        fail cli_ill_posed "no hint on stderr: $(cat "$tmp/err")"
    else pass cli_ill_posed; fi
    # the hint is true there: dsp at the same tau, and the full graph at tau 100, converge
    run "$D" solve --net "$BCN" --tau 1 --filter dsp --quiet
    rc1=$rc
    run "$D" solve --net "$BCN" --tau 100 --filter full --quiet
    if [ $rc1 -eq 0 ] && [ $rc -eq 0 ]; then pass cli_ill_posed_hint_true
    else fail cli_ill_posed_hint_true "dsp tau 1: exit $rc1, full tau 100: exit $rc"; fi
else
    skip cli_ill_posed "$BCN not found"
fi
# Links of free-flow time 0 both ways (Chicago-Sketch's connectors) cost 0 at every
# flow: a cycle of weight 1 whatever mu. Proved at any dispersion and cap, with no hint
# of a larger tau or --cap 0 (under --cap 0 Chicago-Sketch searched 34 s for a start
# and ended "error": those links counted as flow-dependent, of unbounded cost)
sed -e 's/^\t4\t5\t1.2e3\t1.5\t1.5/\t4\t5\t1.2e3\t1.5\t0/' -e 's/^\t5\t4\t1200\t1.5\t1.5/\t5\t4\t1200\t1.5\t0/' \
    tests/bad_input/valid.net.tntp >"$tmp/zc.net.tntp"
cp tests/bad_input/valid.trips.tntp "$tmp/zc.trips.tntp"
ok=1
for c in 100 0; do
    run "$D" solve --net "$tmp/zc.net.tntp" --tau 100 --cap $c --quiet
    if [ $rc -ne 3 ] || ! grep -q "no fixed point exists at any dispersion and any cap" "$tmp/out" ||
        grep -q "larger --tau\|without the cap" "$tmp/err" || ! grep -q "no tau, mu or --cap gives" "$tmp/err"; then
        ok=0
        fail cli_ill_posed_zero_cost_cycle "--cap $c: rc $rc: $(cat "$tmp/out" "$tmp/err")"
    fi
done
run "$D" info --net "$tmp/zc.net.tntp"
grep -q "^flow-independent: *2 links" "$tmp/out" || { ok=0; fail cli_ill_posed_zero_cost_cycle "info: $(grep flow-indep "$tmp/out")"; }
[ $ok = 1 ] && pass cli_ill_posed_zero_cost_cycle
# such a cycle that cannot reach the destination proves nothing (its values stay
# 0; the sparse LU never sees it): the bound counts only nodes that reach d
printf '<NUMBER OF ZONES> 2\n<NUMBER OF NODES> 4\n<FIRST THRU NODE> 3\n<NUMBER OF LINKS> 5\n<END OF METADATA>\n1 2 100 1 1 0.15 4 0 0 1 ;\n2 1 100 1 1 0.15 4 0 0 1 ;\n1 3 100 1 1 0.15 4 0 0 1 ;\n3 4 100 1 0 0.15 4 0 0 1 ;\n4 3 100 1 0 0.15 4 0 0 1 ;\n' >"$tmp/dz.net.tntp"
printf '<NUMBER OF ZONES> 2\n<END OF METADATA>\nOrigin 1\n 2 : 10 ;\n' >"$tmp/dz.trips.tntp"
run "$D" solve --net "$tmp/dz.net.tntp" --tau 10 --quiet
if [ $rc -eq 0 ] && grep -q "^converged" "$tmp/out"; then pass cli_dead_end_zero_cycle_not_ill_posed
else fail cli_dead_end_zero_cycle_not_ill_posed "rc $rc: $(head -c 300 "$tmp/out")"; fi

# OpenBLAS is opened by the first Anderson run only (src/engine/lapack.c): the
# program does not link it, a Newton run never loads it, an Anderson run does,
# and one that cannot exits 2 naming the library it tried.
if readelf -d "$D" 2>/dev/null | grep NEEDED | grep -q openblas; then
    fail cli_openblas_lazy "$D links OpenBLAS: $(readelf -d "$D" | grep openblas)"
else
    LD_DEBUG=files "$D" solve --solver newton --quiet >"$tmp/out" 2>"$tmp/err"; rc1=$?
    LD_DEBUG=files "$D" solve --solver anderson --quiet >"$tmp/out2" 2>"$tmp/err2"; rc2=$?
    if [ $rc1 -ne 0 ] || [ $rc2 -ne 0 ]; then fail cli_openblas_lazy "rc $rc1 / $rc2: $(cat "$tmp/out" "$tmp/out2")"
    elif grep -q 'file=libopenblas' "$tmp/err"; then fail cli_openblas_lazy "a Newton run loaded OpenBLAS"
    elif ! grep -q 'file=libopenblas.*dynamically loaded' "$tmp/err2"; then
        fail cli_openblas_lazy "an Anderson run did not load OpenBLAS: $(grep -c file= "$tmp/err2") files"
    else pass cli_openblas_lazy; fi
fi
DILLSUE_OPENBLAS=/nonexistent/libopenblas.so.0 "$D" solve --solver anderson --quiet >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc -ne 2 ]; then fail cli_openblas_missing "exit $rc, want 2: $(cat "$tmp/out" "$tmp/err")"
elif ! grep -q "^error .*Anderson solver needs LAPACK's dposv from OpenBLAS: cannot load OpenBLAS (/nonexistent/libopenblas.so.0, from DILLSUE_OPENBLAS)" "$tmp/out"; then
    fail cli_openblas_missing "summary: $(cat "$tmp/out")"
else
    DILLSUE_OPENBLAS=/nonexistent/libopenblas.so.0 "$D" solve --solver newton --quiet >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ $rc -eq 0 ]; then pass cli_openblas_missing; else fail cli_openblas_missing "newton without OpenBLAS: rc $rc"; fi
fi

# SIGTERM stops the run after the current iteration; outputs written, exit 4.
run_then_signal TERM $S --quiet --solver msa --tol 1e-300 --max-iter 100000000 --out "$tmp/c.csv" \
    --history "$tmp/ch.csv"
if [ $rc -ne 4 ]; then fail cli_cancel "exit $rc, want 4: $(tail -n 3 "$tmp/err")"
elif ! msg=$(csv_ok "$tmp/c.csv"); then fail cli_cancel "flows CSV: $msg"
elif ! n=$(hist_ok "$tmp/ch.csv" cancelled); then fail cli_cancel "history: $n"
else pass cli_cancel; fi

# --checkpoint: a run killed outright (kill -9, the OOM killer) leaves its
# outputs as of the last checkpoint beside the outputs' paths (never at them:
# a file there is a finished run's), the history marked running, and --warm
# goes on from the flows.
run_signal_on KILL '^checkpoint  iteration' $S --solver msa --tol 1e-300 --max-iter 100000000 --out "$tmp/k.csv" --history "$tmp/kh.csv" \
    --checkpoint 0.2
if [ $rc -ne 137 ]; then fail cli_checkpoint "exit $rc, want 137 (killed)"
elif ! grep -q "^checkpoint  iteration [0-9]*: $tmp/k.csv.checkpoint, $tmp/kh.csv.checkpoint" "$tmp/err"; then
    fail cli_checkpoint "no checkpoint line: $(tail -n 2 "$tmp/err")"
elif [ -e "$tmp/k.csv" ] || [ -e "$tmp/kh.csv" ]; then fail cli_checkpoint "a killed run left files at the outputs' paths"
elif ! msg=$(csv_ok "$tmp/k.csv.checkpoint"); then fail cli_checkpoint "flows CSV: $msg"
elif ! n=$(hist_ok "$tmp/kh.csv.checkpoint" running); then fail cli_checkpoint "history: $n"
else
    run $S --warm "$tmp/k.csv.checkpoint" --max-iter 1 --quiet
    if [ $rc -eq 0 ] || [ $rc -eq 1 ]; then pass cli_checkpoint; else fail cli_checkpoint "--warm from it: rc $rc"; fi
fi
# a run that ends writes its outputs and removes its checkpoints
run $S --solver msa --tol 1e-300 --max-iter 20000 --out "$tmp/k2.csv" --history "$tmp/kh2.csv" --checkpoint 0.1
if [ $rc -ne 1 ] || ! grep -q "^checkpoint  iteration" "$tmp/err"; then
    fail cli_checkpoint_removed "rc $rc, checkpoints said: $(grep -c '^checkpoint' "$tmp/err")"
elif [ -e "$tmp/k2.csv.checkpoint" ] || [ -e "$tmp/kh2.csv.checkpoint" ]; then
    fail cli_checkpoint_removed "checkpoint files left: $(ls "$tmp" | grep checkpoint)"
elif ! msg=$(csv_ok "$tmp/k2.csv"); then fail cli_checkpoint_removed "flows CSV: $msg"
else pass cli_checkpoint_removed; fi
# a run that ends without flows to write (here an error: the inner passes do
# not converge) keeps the flows' last checkpoint, the only iterate it leaves
# (it was removed with the run's end, though no flow file replaced it)
run "$D" solve --net "$SF" --tau 10 --solver msa --inner passes --inner-max 2 --tol 1e-12 --checkpoint 0.0001 \
    --out "$tmp/k3.csv" --quiet
if [ $rc -ne 2 ] || [ -e "$tmp/k3.csv" ]; then fail cli_checkpoint_kept_on_error "rc $rc, want 2 and no flow file"
elif ! msg=$(csv_ok "$tmp/k3.csv.checkpoint"); then fail cli_checkpoint_kept_on_error "checkpoint: $msg"
elif ! grep -q "checkpoint of the flows is kept: $tmp/k3.csv.checkpoint" "$tmp/err"; then
    fail cli_checkpoint_kept_on_error "not said: $(cat "$tmp/err")"
else
    run "$D" solve --net "$SF" --tau 10 --warm "$tmp/k3.csv.checkpoint" --quiet
    if [ $rc -eq 0 ]; then pass cli_checkpoint_kept_on_error; else fail cli_checkpoint_kept_on_error "--warm from it: rc $rc"; fi
fi
# --history at --out's checkpoint path: flows were written over it during the
# run and it was removed at the end as the checkpoint; refused before the run
run $S --quiet --out "$tmp/k4.csv" --history "$tmp/k4.csv.checkpoint"
if [ $rc -eq 2 ] && grep -q "history .*k4.csv.checkpoint is the same file as --out's checkpoint" "$tmp/err"; then
    run $S --quiet --out "$tmp/k4.csv" --history "$tmp/k4.csv.checkpoint" --checkpoint 0
    if [ $rc -eq 0 ] && [ -s "$tmp/k4.csv.checkpoint" ]; then pass cli_checkpoint_path_collision
    else fail cli_checkpoint_path_collision "with --checkpoint 0: rc $rc"; fi
else fail cli_checkpoint_path_collision "rc $rc: $(cat "$tmp/err")"; fi

# SIGHUP (an SSH connection that drops) stops the same way, outputs written;
# under nohup the hang-up is ignored and the run goes on until SIGTERM.
if sig_ignored 1; then skip cli_hangup "SIGHUP is ignored here (nohup): the run would never stop"
else
run_then_signal HUP $S --quiet --solver msa --tol 1e-300 --max-iter 100000000 --out "$tmp/h.csv"
if [ $rc -ne 4 ]; then fail cli_hangup "exit $rc, want 4: $(tail -n 3 "$tmp/err")"
elif ! grep -q "hung up: stopping" "$tmp/err"; then fail cli_hangup "message: $(tail -n 3 "$tmp/err")"
elif ! msg=$(csv_ok "$tmp/h.csv"); then fail cli_hangup "flows CSV: $msg"
else pass cli_hangup; fi
fi
nohup $S --quiet --solver msa --tol 1e-300 --max-iter 100000000 --out "$tmp/n.csv" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 1
kill -HUP $pid 2>/dev/null
sleep 0.5
alive=0
kill -0 $pid 2>/dev/null && alive=1
kill -TERM $pid 2>/dev/null
wait $pid
rc=$?
if [ $alive -ne 1 ]; then fail cli_nohup_keeps_running "the run ended on SIGHUP under nohup (exit $rc)"
elif [ $rc -ne 4 ] || ! msg=$(csv_ok "$tmp/n.csv"); then fail cli_nohup_keeps_running "exit $rc after SIGTERM"
else pass cli_nohup_keeps_running; fi
# A stop signal that comes after the run has ended, while its outputs are
# written, must not kill the process between them (it did: the handlers were
# restored before the writes, so SIGTERM then left no --out, no --history and
# a temporary file, exit 143). strace holds each fsync 1.5 s to hit that window.
if command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null; then
    # (LeakSanitizer cannot run under ptrace: off for this one run of an ASan build)
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -f -o /dev/null -e trace=fsync -e inject=fsync:delay_enter=1500000 $S --quiet --out "$tmp/w.csv" \
        --history "$tmp/wh.csv" >"$tmp/out" 2>"$tmp/err" &
    sp=$!
    child=
    i=0
    while [ $i -lt 100 ] && [ -z "$child" ]; do sleep 0.05; child=$(pgrep -P $sp); i=$((i + 1)); done
    sleep 0.7
    [ -n "$child" ] && kill -TERM $child 2>/dev/null
    wait $sp
    rc=$?
    if [ -z "$child" ]; then skip cli_signal_while_writing "no traced child found"
    elif [ $rc -ne 0 ]; then fail cli_signal_while_writing "exit $rc, want 0 (converged): $(ls "$tmp" | grep '^w') $(tail -n 2 "$tmp/err")"
    elif ! msg=$(csv_ok "$tmp/w.csv"); then fail cli_signal_while_writing "flows CSV: $msg"
    elif ! n=$(hist_ok "$tmp/wh.csv" converged); then fail cli_signal_while_writing "history: $n"
    elif ls "$tmp" | grep -q 'dillsue-tmp'; then fail cli_signal_while_writing "temporary file left: $(ls "$tmp")"
    else pass cli_signal_while_writing; fi
else skip cli_signal_while_writing "no working strace"; fi

# A stop signal while solve, ue, load or sweep still reads the network (a
# FIFO whose writer has sent part of Sioux Falls' net file and waits) ends it
# at once with exit 4 and one line naming what it was reading, nothing written
# (it ended with 143, 129 or 130 and no word). SIGINT needs env
# --default-signal: a script's background job starts with it ignored.
# ThreadSanitizer runs a signal's handler at its own next interception point,
# after the blocked read has returned, so there the reader reports the cut file
# (rc 2) before the handler runs: not this program's behaviour, skipped there.
if nm "$D" 2>/dev/null | grep -q __tsan_; then
    skip cli_signal_while_reading "ThreadSanitizer build: signal handlers are deferred past a blocked read"
    skip cli_signal_while_reading_sweep_resumable "ThreadSanitizer build"
elif [ -r "$SF" ] && mkfifo "$tmp/slow_net.tntp" 2>/dev/null; then
    sigs="TERM HUP INT"
    sig_ignored 1 && sigs="TERM INT"
    env --default-signal=INT true 2>/dev/null || sigs=$(echo $sigs | sed 's/ INT//')
    bad=
    for c in solve ue load sweep; do
        for sig in $sigs; do
            case $sig in TERM) word=terminated ;; HUP) word="hung up" ;; INT) word=interrupted ;; esac
            case $c in
            sweep) out=$tmp/rs_$sig after="no cell was run: dillsue sweep --resume --out .*rs_$sig runs them"
                set -- --scenarios 1 --seed 1 --tau 10 --filter dsp --solver msa --out "$out" ;;
            *) out=$tmp/rs_$c.csv after="nothing written"
                set -- --out "$out" ;;
            esac
            (head -c 3000 "$SF"; exec sleep 10) >"$tmp/slow_net.tntp" &
            wpid=$!
            sleep 0.2
            if [ $sig = INT ]; then
                env --default-signal=INT "$D" $c --net "$tmp/slow_net.tntp" --trips "$TNTP/SiouxFalls/SiouxFalls_trips.tntp" "$@" >"$tmp/out" 2>"$tmp/err" &
            else
                "$D" $c --net "$tmp/slow_net.tntp" --trips "$TNTP/SiouxFalls/SiouxFalls_trips.tntp" "$@" >"$tmp/out" 2>"$tmp/err" &
            fi
            pid=$!
            sleep 0.5
            kill -$sig $pid 2>/dev/null
            wait $pid
            rc=$?
            kill $wpid 2>/dev/null
            wait $wpid 2>/dev/null
            if [ $rc -ne 4 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
                ! grep -q "^dillsue $c: $word while reading .*slow_net.tntp; $after\$" "$tmp/err" ||
                { [ $c != sweep ] && [ -e "$out" ]; } || { [ $c = sweep ] && [ -e "$out/journal.csv" ]; }; then
                bad="$bad $c/$sig: rc $rc, $(head -c 200 "$tmp/err");"
            fi
        done
    done
    if [ -z "$bad" ]; then pass cli_signal_while_reading; else fail cli_signal_while_reading "$bad"; fi
    # the sweep stopped so is resumed from its sweep.conf, as the line says
    rm -f "$tmp/slow_net.tntp"
    cp "$SF" "$tmp/slow_net.tntp"
    run "$D" sweep --resume --out "$tmp/rs_TERM" --quiet
    if [ $rc -eq 0 ] && [ "$(wc -l <"$tmp/rs_TERM/cells.csv")" -eq 2 ]; then pass cli_signal_while_reading_sweep_resumable
    else fail cli_signal_while_reading_sweep_resumable "rc $rc: $(cat "$tmp/err")"; fi
else skip cli_signal_while_reading "no Sioux Falls or no mkfifo"; fi

# `dillsue tui` reads its options through the one option table: --opt=value
# works, and a bad value is refused by the same rule as solve's
"$D" tui --tau=3 --threads=2 --delay=50 </dev/null >"$tmp/out" 2>"$tmp/err"
if grep -q "needs a terminal" "$tmp/err" && ! grep -q "unknown\|needs a value" "$tmp/err"; then pass cli_tui_equals_form
else fail cli_tui_equals_form "$(cat "$tmp/err")"; fi
"$D" tui --tau=-1 </dev/null >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "^dillsue tui: --tau must be a number > 0, got '-1'" "$tmp/err"; then pass cli_tui_bad_value
else fail cli_tui_bad_value "rc $rc: $(cat "$tmp/err")"; fi
# A negative toll factor (the file's own, or --toll-factor) that makes a
# link's cost negative: every command refuses it, naming the link's line
sed -e 's/^<END OF METADATA>/<TOLL FACTOR> -2\n<END OF METADATA>/' -e '9s/\t0\t1\t;$/\t1\t1\t;/' \
    tests/bad_input/valid.net.tntp >"$tmp/neg.net.tntp"
cp tests/bad_input/valid.trips.tntp "$tmp/neg.trips.tntp"
ok=1
for c in solve info ue load sweep; do
    case $c in
    load) extra="--out $tmp/neg.csv" ;;
    sweep) extra="--scenarios 1 --seed 1 --out $tmp/negsw" ;;
    *) extra= ;;
    esac
    run "$D" $c --net "$tmp/neg.net.tntp" $extra
    [ $rc -eq 2 ] && grep -q "neg.net.tntp:10: link 4 -> 1: its cost at zero flow is -1 < 0" "$tmp/err" || {
        ok=0
        echo "# $c: rc $rc: $(head -c 300 "$tmp/err")"
    }
done
run "$D" solve --net "$tmp/neg.net.tntp" --toll-factor 0 --quiet
if [ $ok -eq 1 ] && [ $rc -eq 0 ]; then pass cli_negative_cost_refused
else fail cli_negative_cost_refused "see above; with --toll-factor 0: rc $rc"; fi
# an unknown choice names the choices (from the same table the parser reads)
run "$D" solve --filter foo
rc1=$rc
grep -q "^dillsue solve: unknown --filter 'foo' (one of: full, dsp, bfs, edsp)" "$tmp/err"
seen1=$?
run "$D" sweep --solver newton,foo
if [ $rc1 -eq 2 ] && [ $seen1 -eq 0 ] && [ $rc -eq 2 ] &&
    grep -q "unknown --solver 'foo' (one of: msa, sra, anderson, newton) (item 2 of the list)" "$tmp/err"; then
    pass cli_unknown_choice_names_choices
else fail cli_unknown_choice_names_choices "rc $rc1 / $rc: $(cat "$tmp/err")"; fi
# --progress-every 0: a "busy" line after every evaluation and J v of an
# iteration (the built-in network, full graph: Newton's J v), none with --quiet
# or by default on a run of milliseconds; a negative interval is refused
run "$D" solve --filter full --progress-every 0
n0=$(grep -c '^busy  *iteration [0-9]* in progress: evaluations [0-9]*, J v [0-9]*, [0-9.]* s in it' "$tmp/err")
rc0=$rc
run "$D" solve --filter full --progress-every 0 --quiet
nq=$(grep -c '^busy' "$tmp/err")
run "$D" solve --filter full
nd=$(grep -c '^busy' "$tmp/err")
run "$D" solve --progress-every -1
if [ $rc0 -eq 0 ] && [ "$n0" -gt 0 ] && [ "$nq" -eq 0 ] && [ "$nd" -eq 0 ] && [ $rc -eq 2 ] &&
    grep -q -- "--progress-every" "$tmp/err"; then
    pass cli_progress_every
else fail cli_progress_every "rc $rc0, $n0 busy lines, $nq with --quiet, $nd by default; -1: rc $rc $(cat "$tmp/err")"; fi

# eDSP: a mask its own costs would change is said beside "converged" (the
# fixed point of that mask); the refresh limit counts the refreshes solved,
# the rebuild past it is a look-ahead
SFN=$TNTP/SiouxFalls/SiouxFalls_net.tntp
run "$D" solve --net "$SFN" --filter edsp --tau 10 --edsp-refresh 0
r0=$rc
cp "$tmp/out" "$tmp/out0"
cp "$tmp/err" "$tmp/err0"
run "$D" solve --net "$SFN" --filter edsp --tau 10
if [ $r0 -eq 0 ] && grep -q "still changing at the refresh limit (no repeat seen) after 0 refreshes and a look-ahead rebuild" "$tmp/out0" &&
    grep -q "the eDSP mask did not settle (still changing at the refresh limit)" "$tmp/err0" &&
    grep -q "mask rebuilt 1 time (" "$tmp/err0" && [ $rc -eq 0 ] && grep -q "eDSP mask unchanged after" "$tmp/out" &&
    ! grep -q "did not settle" "$tmp/err"; then
    pass cli_edsp_unsettled_mask_said
else fail cli_edsp_unsettled_mask_said "rc $r0/$rc: $(head -c 300 "$tmp/out0") / $(grep -E 'settle|rebuilt' "$tmp/err0" | head -c 300)"; fi
exit 0
