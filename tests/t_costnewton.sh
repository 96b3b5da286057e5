#!/bin/sh
# t_costnewton.sh - bench/costnewton (Newton on the cost fixed point, the
# measurement of docs/results.md "Newton in cost variables") reproduces its
# Sioux Falls row: converged to the engine's gap_rel < 1e-8 in 10 iterations
# and 12 evaluations (exact counts); its Anaheim full-graph row from the
# engine's start (--start, the cost column of `solve --max-iter 0 --out`):
# 13 iterations, 17 evaluations; a bad argument exits 2.
. "$(dirname "$0")/lib.sh"
CN=$BUILD/bench/costnewton
SF=$TNTP/SiouxFalls/SiouxFalls_net.tntp
if [ ! -f "$SF" ]; then
    skip costnewton_siouxfalls "SiouxFalls not found in $TNTP (set DILLSUE_TNTP_DIR)"
    exit 0
fi
if [ ! -x "$CN" ]; then fail costnewton_siouxfalls "no $CN (make)"; exit 0; fi
run "$CN" "$SF" "$TNTP/SiouxFalls/SiouxFalls_trips.tntp" --tau 10
if [ $rc -eq 0 ] && grep -q ': converged | iterations 10 | evals 12 |' "$tmp/out"; then
    pass costnewton_siouxfalls
else
    fail costnewton_siouxfalls "rc $rc: $(cat "$tmp/out" "$tmp/err")"
fi
AN=$TNTP/Anaheim/Anaheim_net.tntp
if [ ! -f "$AN" ]; then
    skip costnewton_anaheim_full "Anaheim not found in $TNTP (set DILLSUE_TNTP_DIR)"
else
    run "$D" solve --net "$AN" --filter full --tau 10 --max-iter 0 --out "$tmp/x0.csv"
    run "$CN" "$AN" "$TNTP/Anaheim/Anaheim_trips.tntp" --tau 10 --filter full --start "$tmp/x0.csv"
    if [ $rc -eq 0 ] && grep -q 'full: converged | iterations 13 | evals 17 |' "$tmp/out"; then
        pass costnewton_anaheim_full
    else
        fail costnewton_anaheim_full "rc $rc: $(cat "$tmp/out" "$tmp/err")"
    fi
fi
run "$CN" "$SF" "$TNTP/SiouxFalls/SiouxFalls_trips.tntp" --tau 10 --bogus
if [ $rc -eq 2 ]; then pass costnewton_bad_argument_exit2; else fail costnewton_bad_argument_exit2 "rc $rc"; fi
exit 0
