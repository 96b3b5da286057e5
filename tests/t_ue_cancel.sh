#!/bin/sh
# t_ue_cancel.sh - Ctrl-C reaches `dillsue ue` inside an iteration: on a
# network where one iteration (a shortest-path tree per origin) takes seconds,
# SIGINT once the run iterates ends it within a bound, exit 4, status
# cancelled, the flows of the last finished iteration written in full. (The
# stop was looked at only between iterations: 4.6 s from the signal to the
# exit on this network on a loaded 2-core machine, against 0.24 s now; 13-16 s
# on 40,000 nodes.) About 15 s of CPU: the network, then two loadings.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
    skip ue_sigint_within_iteration "python3 not found (tools/make_synthetic.py makes the network)"
    exit 0
fi
# 16,000 nodes, 1,000 zones: about 4 s an iteration with one thread
python3 tools/make_synthetic.py 16000 1000 1 10 "$tmp/big" >/dev/null
now() { date +%s.%N; }
# a background job of a script starts with SIGINT ignored, and the program
# keeps an ignored signal ignored: env resets it as a terminal's Ctrl-C finds it
sig=INT
if env --default-signal=INT true 2>/dev/null; then dflt="env --default-signal=INT"
else dflt="" sig=TERM; echo "# env --default-signal not supported: SIGTERM instead (stops ue the same way)"; fi
: >"$tmp/err"
$dflt "$D" ue --net "$tmp/big_net.tntp" --trips "$tmp/big_trips.tntp" --gap 0 --max-iter 1000000 --threads 1 \
    --out "$tmp/big.csv" --checkpoint 0 >"$tmp/out" 2>"$tmp/err" &
pid=$!
i=0
while [ $i -lt 2400 ] && ! grep -q '^ue iter  *0 ' "$tmp/err" && kill -0 $pid 2>/dev/null; do
    sleep 0.05
    i=$((i + 1))
done
# iteration 1's loading is under way now. The bound: a quarter of the time
# to iteration 0 (two loadings, so half an iteration), at least 1 s (the exit
# itself writes 60,000 flows), at most 3 s: the old stop took a whole loading
t0=$(now)
bound=$(awk '/^ue iter  *0 / { b = $6 / 4; print (b < 1 ? 1 : b > 3 ? 3 : b); exit }' "$tmp/err")
kill -$sig $pid 2>/dev/null
wait $pid
rc=$?
t1=$(now)
took=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
links=$(awk '$1 ~ /^[0-9]+$/' "$tmp/big_net.tntp" | wc -l)
rows=$(wc -l <"$tmp/big.csv" 2>/dev/null)
if [ $rc -ne 4 ]; then fail ue_sigint_within_iteration "exit $rc, want 4: $(tail -n 2 "$tmp/err")"
elif awk -v t="$took" -v b="${bound:-0}" 'BEGIN { exit !(t > b) }'; then
    fail ue_sigint_within_iteration "exit ${took} s after SIG$sig, want <= ${bound:-?} s (half an iteration)"
elif ! grep -q '^status cancelled' "$tmp/out" || ! grep -q '^iterations 0$' "$tmp/out" ||
    ! grep -Eq '\((interrupted|terminated)\)$' "$tmp/err"; then
    fail ue_sigint_within_iteration "report: $(cat "$tmp/out") / $(tail -n 1 "$tmp/err")"
elif [ "$rows" != "$((links + 1))" ]; then
    fail ue_sigint_within_iteration "flows CSV has ${rows:-no} lines, want $((links + 1))"
else pass ue_sigint_within_iteration; echo "# exit ${took} s after SIG$sig (bound ${bound} s)"; fi
