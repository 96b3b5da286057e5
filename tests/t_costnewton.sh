#!/bin/sh
# t_costnewton.sh - bench/costnewton (Newton on the cost fixed point, the
# measurement of docs/results.md "Newton in cost variables") reproduces its
# Sioux Falls row: converged to the engine's gap_rel < 1e-8 in 10 iterations
# and 12 evaluations (exact counts); a bad argument exits 2.
. tests/lib.sh
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
run "$CN" "$SF" "$TNTP/SiouxFalls/SiouxFalls_trips.tntp" --tau 10 --bogus
if [ $rc -eq 2 ]; then pass costnewton_bad_argument_exit2; else fail costnewton_bad_argument_exit2 "rc $rc"; fi
exit 0
