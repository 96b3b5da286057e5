#!/bin/sh
# t_tui_hangup.sh - a TUI whose terminal goes away without a SIGHUP reaching it
# (the pane's process, a wrapper between the SSH session and the TUI, catches
# or ignores the hang-up the kernel sends the session leader only) quits as
# on SIGHUP: status 129 and the run log written. Before, every read failed at
# once and the frame loop, and the sweep viewer's, spun at 100% of a core for
# ever, the run log never written.
TESTNAME=tui_hangup
. "$(dirname "$0")/tui_lib.sh"

# wrapper RC PIDFILE ARGS...: the TUI under a shell that ignores SIGHUP
cat >"$TMP/wrap.sh" <<'W'
trap '' HUP
rc=$1 pidf=$2
shift 2
sh -c 'echo $$ >"$0"; exec "$@"' "$pidf" "$@"
echo $? >"$rc"
W
hangup() { # hangup NAME ARGS...: start the TUI, r, close the terminal
    n=$1; shift
    $T new-session -d -s "$n" -x 120 -y 40 -c "$PWD" \
        "TERM=xterm-256color sh '$TMP/wrap.sh' '$TMP/$n.rc' '$TMP/$n.pid' '$PROG' tui $*"
    CUR=$n
    wait_for "$n" "${WAITRE:-runs \(0\)}" 10
    keys r
    wait_for "$n" '^#1 (converged|max-iter)' 30
    $T kill-session -t "$n" # the pty closes; SIGHUP goes to the wrapper only
    i=0
    while [ $i -lt 100 ] && [ ! -s "$TMP/$n.rc" ]; do sleep 0.1; i=$((i + 1)); done
    pid=$(cat "$TMP/$n.pid" 2>/dev/null)
    if [ ! -s "$TMP/$n.rc" ] && [ -n "$pid" ]; then
        cpu=$(ps -o pcpu= -p "$pid" 2>/dev/null)
        kill "$pid" 2>/dev/null
        sleep 0.5
        kill -9 "$pid" 2>/dev/null
        echo "FAIL tui_hangup_${n}_exits: still running 10 s after its terminal closed (${cpu}% CPU)"
        return 1
    fi
    [ "$(cat "$TMP/$n.rc")" = 129 ]
    check "tui_hangup_${n}_exits" $? "exit status $(cat "$TMP/$n.rc"), not 129"
}
hangup main --net "'$NET'" --solver msa --no-config --runlog "'$TMP/main.csv'" &&
    { [ "$(wc -l <"$TMP/main.csv")" -eq 2 ]; check tui_hangup_main_runlog $? "the run log does not hold the run"; }

"$PROG" sweep --net "$NET" --scenarios 2 --seed 1 --tau 10 --filter dsp --solver newton --out "$TMP/sw" \
    --quiet >/dev/null 2>&1
$T new-session -d -s viewer -x 120 -y 40 -c "$PWD" \
    "TERM=xterm-256color sh '$TMP/wrap.sh' '$TMP/viewer.rc' '$TMP/viewer.pid' '$PROG' tui --sweep '$TMP/sw'"
CUR=viewer
wait_for viewer '2/2 ' 10
$T kill-session -t viewer
i=0
while [ $i -lt 100 ] && [ ! -s "$TMP/viewer.rc" ]; do sleep 0.1; i=$((i + 1)); done
if [ -s "$TMP/viewer.rc" ]; then
    [ "$(cat "$TMP/viewer.rc")" = 129 ]
    check tui_hangup_viewer_exits $? "exit status $(cat "$TMP/viewer.rc"), not 129"
else
    pid=$(cat "$TMP/viewer.pid" 2>/dev/null)
    echo "FAIL tui_hangup_viewer_exits: still running 10 s after its terminal closed ($(ps -o pcpu= -p "$pid")% CPU)"
    kill -9 "$pid" 2>/dev/null
fi
