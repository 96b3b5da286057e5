#!/bin/sh
# t_load.sh - `dillsue load`: one f(x), reproducing the gap `solve` reports
# from its own output flows, with both inner solvers; exit 3 where f does not
# exist; usage errors.
. "$(dirname "$0")/lib.sh"
SF=$TNTP/SiouxFalls/SiouxFalls_net.tntp
AN=$TNTP/Anaheim/Anaheim_net.tntp

run "$D" load --tau 10
if [ $rc -eq 2 ] && grep -q -- "--out" "$tmp/err"; then pass load_needs_out; else fail load_needs_out "rc $rc"; fi

run "$D" load --out "$tmp/f.csv"
if [ $rc -eq 0 ] && [ "$(head -1 "$tmp/f.csv")" = "init_node,term_node,flow,cost" ]; then pass load_default_network
else fail load_default_network "rc $rc: $(cat "$tmp/err")"; fi

# --trips without --net is refused as solve and info refuse it (load took the
# embedded network and dropped the trips file without a word)
run "$D" load --trips "$tmp/nonexistent_trips.tntp" --out "$tmp/f.csv"
if [ $rc -eq 2 ] && grep -q -- "--trips needs --net" "$tmp/err"; then pass load_trips_needs_net
else fail load_trips_needs_net "rc $rc: $(cat "$tmp/err")"; fi

if [ ! -f "$SF" ]; then
    skip load_reproduces_solve_gap "SiouxFalls not found in $TNTP (set DILLSUE_TNTP_DIR)"
    exit 0
fi
for filter in full dsp; do
    run "$D" solve --net "$SF" --tau 10 --filter $filter --out "$tmp/x.csv" --quiet
    g_solve=$(sed -n 's/.*| gap_rel \([^ ]*\) |.*/\1/p' "$tmp/out")
    for inner in direct passes; do
        run "$D" load --net "$SF" --tau 10 --filter $filter --inner $inner --inner-max 1000 --flows "$tmp/x.csv" --out "$tmp/f.csv"
        # the same solver reproduces all 7 digits; the other one agrees to round-off
        # in f (about 1e-14 of the flows), which moves the gap's 7th digit
        if [ $inner = direct ]; then fmt=%.6e; else fmt=%.3e; fi
        g_load=$(awk -v f=$fmt '/^gap_rel/ { printf f, $2 }' "$tmp/out")
        g_ref=$(awk -v f=$fmt -v g="$g_solve" 'BEGIN { printf f, g }')
        if [ $rc -eq 0 ] && [ -n "$g_solve" ] && [ "$g_load" = "$g_ref" ]; then pass "load_reproduces_solve_gap_${filter}_$inner"
        else fail "load_reproduces_solve_gap_${filter}_$inner" "solve says '$g_solve', load says '$g_load' (rc $rc)"; fi
    done
done

# inner passes stopped by --inner-max say nothing about whether f exists:
# exit 2 (solve's status error), not 3 with "f(x) does not exist"
run "$D" load --net "$SF" --tau 10 --inner passes --inner-max 1 --out "$tmp/f.csv"
if [ $rc -eq 2 ] && grep -q "did not converge within --inner-max 1 passes" "$tmp/err" && ! grep -q "does not exist here" "$tmp/err"
then pass load_inner_max_unconverged_exit2
else fail load_inner_max_unconverged_exit2 "rc $rc: $(cat "$tmp/err")"; fi

# flows whose squares overflow (one link at 1e300): the gap is still defined
# (here 1) and printed, exit 0 (it wrote f.csv and then exited 2)
run "$D" solve --net "$SF" --tau 10 --filter dsp --out "$tmp/x.csv" --quiet
awk -F, 'NR == 2 { print $1 "," $2 ",1e300," $4; next } { print }' "$tmp/x.csv" >"$tmp/big.csv"
run "$D" load --net "$SF" --tau 10 --filter dsp --flows "$tmp/big.csv" --out "$tmp/f.csv"
if [ $rc -eq 0 ] && grep -q "^gap_rel 1$" "$tmp/out"; then pass load_gap_huge_flows
else fail load_gap_huge_flows "rc $rc: $(cat "$tmp/out" "$tmp/err")"; fi

if [ -f "$AN" ]; then
    run "$D" load --net "$AN" --tau 10 --out "$tmp/f.csv"
    if [ $rc -eq 3 ] && grep -q "does not exist" "$tmp/err"; then pass load_anaheim_free_flow_no_f_exit3
    else fail load_anaheim_free_flow_no_f_exit3 "rc $rc: $(cat "$tmp/err")"; fi
else
    skip load_anaheim_free_flow_no_f_exit3 "Anaheim not found"
fi
