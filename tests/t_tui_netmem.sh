#!/bin/sh
# t_tui_netmem.sh - opening networks again and again (n) keeps the TUI's
# memory bounded: a network that no run, queue or view uses any more is
# freed, and re-opening an unchanged file reuses the loaded copy. Austin
# (about 5 MB of network) is opened 7 times between Sioux Falls, then once
# more, unchanged: the resident set may grow by less than 3 MB over the
# first open (each load kept a copy: +5.4 MB a load). Then a run on Sioux
# Falls keeps its network across reloads: R re-runs it on the same network.
TESTNAME=tui_netmem
. "$(dirname "$0")/tui_lib.sh"
AUSTIN="$DIR/Austin-SDB/AustinSDB_net.tntp"
if [ ! -r "$AUSTIN" ]; then echo "SKIP $TESTNAME: $AUSTIN missing"; exit 0; fi
case "$AUSTIN" in /*) ;; *) AUSTIN="$PWD/$AUSTIN" ;; esac

start main 120x40 --net "'$NET'" --runlog "'$TMP/runs.csv'" --delay 50
shpid=$($T list-panes -t main -F '#{pane_pid}')
pid=$(pgrep -P "$shpid" dillsue | head -1)
if [ -z "$pid" ] || [ ! -r "/proc/$pid/status" ]; then echo "SKIP $TESTNAME: no /proc/PID/status"; exit 0; fi
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status"; }
# open FILE NAME [REGEX]: n FILE, wait for its message (with REGEX after it)
open() {
    typed n "$1"
    wait_for main "network $2[^ ]*: [0-9]+ nodes.*$3" 60
}

open "$AUSTIN" 'Austin'
check tui_netmem_open $? "Austin not opened"
sleep 0.5
r0=$(rss)
ok=0
for i in 1 2 3 4 5 6; do
    open "$NET" 'SiouxFalls' || ok=1
    open "$AUSTIN" 'Austin' || ok=1
done
check tui_netmem_reloads $ok "a reload failed"
open "$AUSTIN" 'Austin' 'already loaded'
check tui_netmem_reuse $? "an unchanged file was not reused"
sleep 0.5
r1=$(rss)
echo "    RSS with Austin open: $r0 kB after the first open, $r1 kB after 7 more"
if grep -q -e __asan_init -e __tsan_init "$PROG"; then # the sanitizers keep freed memory (quarantine) and shadow it: RSS says nothing
    echo "SKIP tui_netmem_rss: a sanitizer build"
else
    [ $((r1 - r0)) -lt 3000 ]
    check tui_netmem_rss $? "RSS grew by $((r1 - r0)) kB over 7 more opens of Austin (from $r0 kB)"
fi

# a run on Sioux Falls, then Austin and Sioux Falls again: the run keeps its
# network, and the reopened (unchanged) Sioux Falls is the run's own
open "$NET" 'SiouxFalls'
keys r
wait_for main 'run #1 converged' 60
check tui_netmem_run $? "run #1 did not converge"
open "$AUSTIN" 'Austin'
open "$NET" 'SiouxFalls'
keys R
wait_for main 'run #2 converged' 60
check tui_netmem_rerun $? "R after reopening the run's network refused"

# runs on a network that is no longer current, and a file changed under a
# loaded network: a queue keeps its network while n reloads the changed file;
# the old runs are still listed, compared, exported, re-run (refused: another
# network), detailed and compared with a reference; a scenario made again is
# the copy made before; the run log names every run's network at the end
# (run under AddressSanitizer: no use after free)
mkdir -p "$TMP/copy"
COPY="$TMP/copy/SFcopy_net.tntp"
cp "$NET" "$COPY" && cp "${NET%_net.tntp}_trips.tntp" "$TMP/copy/SFcopy_trips.tntp"
open "$COPY" 'SFcopy'
keys r
wait_for main 'run #3 converged' 60
keys m; typed i 20000; typed e 1e-300 # MSA, 20000 iterations: the queue still runs at the reload
typed Q 'tau 3,10'
wait_for main 'queue 1/2' 10
echo >>"$COPY" # changed: n reads it again, the queue stays on the copy it was made on
open "$COPY" 'SFcopy'
scr=$(screen main)
printf '%s\n' "$scr" | grep -q 'already loaded'
check tui_netmem_changed_reloaded $((!$?)) "a changed file was taken as unchanged"
printf '%s\n' "$scr" | grep -q 'queue 1/2'
check tui_netmem_queue_running $? "the queue had ended before the reload"
wait_for main ' 5 +SFcopy +msa .* max-iter' 90
check tui_netmem_queue $? "the queue did not finish on its network"
keys m; keys m; keys m; typed i 10000; typed e 1e-7 # Newton again
open "$NET" 'SiouxFalls'
keys End; keys k; keys k # run #3, on the first copy
keys c; keys k; keys c   # compared with run #2 (Sioux Falls)
wait_for main 'different networks' 5
check tui_netmem_compare $? "runs #3 and #2 not compared"
keys Escape; keys j      # run #3
typed x "$TMP/run3.csv"
wait_for main "run #3: flows -> $TMP/run3.csv" 10 && [ -s "$TMP/run3.csv" ]
check tui_netmem_export $? "run #3 not exported"
keys R
wait_for main 'run #3 is on another network \(SFcopy\)' 5
check tui_netmem_rerun_other $? "R of a run on an older network"
keys v
wait_for main 'run #3 on SFcopy' 5
check tui_netmem_details $? "details of run #3"
keys Escape
typed F "$FLOWREF"
wait_for main 'max abs' 10
check tui_netmem_reference $? "run #3 not compared with $FLOWREF"
keys Escape
typed N '2 7'
wait_for main 'network SiouxFalls~k2/7' 10
keys r
wait_for main 'run #6 converged' 60
open "$COPY" 'SFcopy'
open "$NET" 'SiouxFalls' 'already loaded'
typed N '2 7'
wait_for main 'network SiouxFalls~k2/7' 10
keys R
wait_for main 'run #7 converged' 60
check tui_netmem_scenario_rerun $? "R on the scenario made again"
keys q
wait_for main 'EXIT=0' 20
check tui_netmem_quit $? "did not exit 0"
[ "$(grep -c ',"SFcopy",' "$TMP/runs.csv")" = 3 ] && [ "$(grep -c ',"SiouxFalls~k2/7",' "$TMP/runs.csv")" = 2 ]
check tui_netmem_runlog $? "the run log does not name the runs' networks: $(cut -d, -f1-3 "$TMP/runs.csv" | tr '\n' ' ')"
