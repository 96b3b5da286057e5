#!/bin/sh
# t_tui_progress.sh - in a private tmux server: while a full-graph iteration
# on Austin-SDB runs for seconds (1 thread), the header says how far it has
# got ("iteration K in progress: evaluations E, J v J", ds_run_phase's label,
# shown once an iteration has run 2 s), and the line goes when the run ends
# (a: abort).
TESTNAME=tui_progress
. "$(dirname "$0")/tui_lib.sh"
AUS="$DIR/Austin-SDB/AustinSDB_net.tntp"
if [ ! -r "$AUS" ]; then echo "SKIP tui_progress_header: $AUS missing (set DILLSUE_TNTP_DIR)"; exit 0; fi
case "$AUS" in /*) ;; *) AUS="$PWD/$AUS" ;; esac

start main 160x40 --net "'$AUS'" --filter full --tau 10 --threads 1 --ascii --no-runlog
check tui_progress_start $? "the screen did not come up"
keys r
# the start point takes a few seconds, each iteration a few more
wait_for main '^#1 running .*\| iteration [0-9]+ in progress: evaluations [0-9]+, J v [0-9]+$' 240
check tui_progress_header $? "no 'iteration K in progress' in the header while an iteration ran"
keys a
wait_for main '^#1 cancelled' 30
r=$?
screen main | grep -q 'in progress: evaluations' && r=1
check tui_progress_gone_when_done $r "the run did not end on a, or the progress label stayed"
