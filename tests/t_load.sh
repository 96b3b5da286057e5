#!/bin/sh
# t_load.sh - `dillsue load`: one f(x), reproducing the gap `solve` reports
# from its own output flows, with both inner solvers; exit 3 where f does not
# exist; usage errors.
. tests/lib.sh
SF=$TNTP/SiouxFalls/SiouxFalls_net.tntp
AN=$TNTP/Anaheim/Anaheim_net.tntp

run "$D" load --tau 10
if [ $rc -eq 2 ] && grep -q -- "--out" "$tmp/err"; then pass load_needs_out; else fail load_needs_out "rc $rc"; fi

run "$D" load --out "$tmp/f.csv"
if [ $rc -eq 0 ] && [ "$(head -1 "$tmp/f.csv")" = "init_node,term_node,flow,cost" ]; then pass load_default_network
else fail load_default_network "rc $rc: $(cat "$tmp/err")"; fi

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

if [ -f "$AN" ]; then
    run "$D" load --net "$AN" --tau 10 --out "$tmp/f.csv"
    if [ $rc -eq 3 ] && grep -q "does not exist" "$tmp/err"; then pass load_anaheim_free_flow_no_f_exit3
    else fail load_anaheim_free_flow_no_f_exit3 "rc $rc: $(cat "$tmp/err")"; fi
else
    skip load_anaheim_free_flow_no_f_exit3 "Anaheim not found"
fi
