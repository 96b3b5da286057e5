#!/bin/sh
# t_walltime.sh - bench/walltime, the timer of bench/planning.sh: it writes
# "SECONDS,MAXRSS_KB" for the command it runs (a 0.3 s sleep reads 0.3 to
# 1.5 s, to the microsecond), passes the command's exit status through (1;
# 127 where it cannot be started), leaves the command's output alone, and a
# call without -o FILE exits 2.
. "$(dirname "$0")/lib.sh"
WT=$BUILD/bench/walltime
if [ ! -x "$WT" ]; then fail walltime_measures "no $WT (make tests)"; exit 0; fi
run "$WT" -o "$tmp/t" sh -c 'sleep 0.3; echo out; echo err >&2'
if [ $rc -eq 0 ] && grep -Eq '^[0-9]+\.[0-9]{6},[0-9]+$' "$tmp/t" &&
    awk -F, '{ exit !($1 >= 0.3 && $1 < 1.5 && $2 > 0) }' "$tmp/t" && [ "$(cat "$tmp/out")" = out ] &&
    [ "$(cat "$tmp/err")" = err ]; then
    pass walltime_measures
else fail walltime_measures "rc $rc: $(cat "$tmp/t" "$tmp/out" "$tmp/err")"; fi
run "$WT" -o "$tmp/t" false
rc1=$rc
run "$WT" -o "$tmp/t" "$tmp/no-such-program"
rc2=$rc
run "$WT" false
if [ $rc1 -eq 1 ] && [ $rc2 -eq 127 ] && [ $rc -eq 2 ] && grep -q "usage: walltime -o FILE" "$tmp/err"; then
    pass walltime_status
else fail walltime_status "false: $rc1, missing: $rc2, no -o: $rc"; fi
exit 0
