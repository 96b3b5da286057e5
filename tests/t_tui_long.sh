#!/bin/sh
# t_tui_long.sh - a long session and keys pressed while runs come and go, in a
# private tmux server (120x40), Sioux Falls, newton runs of a few ms:
# - a queued run that starts leaves alone a selection the user moved off the
#   latest run (each start took it: x, v, c, R, F then acted on the new run);
# - PgUp / PgDn / Home / End move the run list's selection (18 runs: a page,
#   the first, the latest);
# - a queue keeps the network it was made on when n opens another while it
#   runs (the rest of it ran on the new one);
# - x on a cancelled run says, in its message, that its flows are not
#   converged.
TESTNAME=tui_long
. "$(dirname "$0")/tui_lib.sh"
ANA="$DIR/Anaheim/Anaheim_net.tntp"
case "$ANA" in /*) ;; *) ANA="$PWD/$ANA" ;; esac

start main 120x40 --net "'$NET'" --solver newton --filter dsp --ascii --runlog "'$TMP/runs.csv'" --no-config
check tui_long_start $? "the screen did not come up"
keys r
wait_for main 'run #1 converged' 10
keys r
wait_for main 'run #2 converged' 10
keys Up
wait_for main '^.>  1  ' 3
check tui_long_select_first $? "Up did not select run #1"
# 16 queued runs; the selection stays on run #1
typed Q "tau 1,3,10,30 filters"
wait_for main 'runs \(18\) ' 60
wait_for main 'run #18 ' 10
check tui_long_queue_ran $? "the queue of 16 runs did not run"
wait_for main '^.>  1  ' 2
check tui_long_queue_keeps_selection $? "a queued run's start moved the selection off run #1"
# the run list pages
keys End
wait_for main '^.>  18 ' 2
check tui_long_end $? "End did not select the latest run"
keys Home
wait_for main '^.>  1  ' 2
check tui_long_home $? "Home did not select the first run"
keys NPage
wait_for main '^.>  8  ' 2 # (8 run rows at 120x40: a page is 7)
check tui_long_pgdn $? "PgDn did not move the selection a page down"
keys End
keys PPage
wait_for main '^.>  11 ' 2
check tui_long_pgup $? "PgUp did not move the selection a page up"
keys End

# a queue keeps its network: its first run (msa, 20000 iterations) is paused
# while n opens Anaheim; its second run is still on Sioux Falls
if [ -r "$ANA" ]; then
    typed i 20000
    typed Q "solver msa,newton"
    keys p
    wait_for main 'run #19 paused' 5
    check tui_long_queue_paused $? "the queue's first run did not pause"
    typed n "$ANA"
    wait_for main 'network Anaheim' 10
    keys p
    wait_for main 'runs \(20\) ' 60 && wait_for main 'run #20 (converged|max-iter)' 30
    check tui_long_queue_done $? "the queue's second run did not end"
    QNET=1 # (read off the run log after q)
else
    echo "SKIP tui_long_queue_keeps_network: $ANA missing"
fi

# x on a cancelled run
typed i 100000000
keys m # (newton -> msa)
keys r
wait_for main 'run #21 started' 5
sleep 0.5
keys a
wait_for main 'run #21 cancelled' 10
keys x
wait_for main 'export flows to' 3
keys C-u
$T send-keys -t main -l -- "$TMP/c-flows.csv"
keys Enter
wait_for main 'run #21: flows -> .*c-flows.csv \(cancelled: not converged\), history' 5
check tui_long_export_says_cancelled $? "the export of a cancelled run does not say its flows are not converged"
keys q
wait_for main 'EXIT=0' 10
check tui_long_quit $? "q did not exit with 0"
if [ -n "${QNET:-}" ]; then
    [ "$(awk -F, '$1 == 20 { print $2 "/" $4 }' "$TMP/runs.csv")" = '"SiouxFalls"/newton' ]
    check tui_long_queue_keeps_network $? "the run log's run 20 (the queue's second run) is not newton on SiouxFalls: $(awk -F, '$1 == 20' "$TMP/runs.csv" | cut -c1-60)"
fi
