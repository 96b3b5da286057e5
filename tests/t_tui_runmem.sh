#!/bin/sh
# t_tui_runmem.sh - what a run costs the TUI's memory once it has ended
# (docs/tui.md "Memory"): 16 short runs on Austin-SDB (18,710 links; dsp, msa,
# 3 iterations, one thread, about 1.5 s each) in one session, the resident
# set read after each. What a run may keep: its flows (8 bytes a link, 150 kB
# here), its record (under 5 kB) and history (4 records); the 8 latest also
# the last iterate's image f(x) (150 kB more, dropped at retirement).
# - runs 2 to 8: at most 400 kB a run (each kept its engine run, 52 MB,
#   until it was retired);
# - runs 9 to 16, each retiring one: at most 200 kB a run (it was 420 kB:
#   the costs, 150 kB, and 64 kB of unused history slots were kept too);
#   the margin of 45 kB over 155 kB is about 10 log messages and malloc's
#   pages (measured: 152-158 kB a run).
TESTNAME=tui_runmem
. "$(dirname "$0")/tui_lib.sh"
AUSTIN="$DIR/Austin-SDB/AustinSDB_net.tntp"
if [ ! -r "$AUSTIN" ]; then echo "SKIP $TESTNAME: $AUSTIN missing"; exit 0; fi
case "$AUSTIN" in /*) ;; *) AUSTIN="$PWD/$AUSTIN" ;; esac

start main 120x40 --net "'$AUSTIN'" --filter dsp --solver msa --threads 1 --no-runlog --no-config --ascii
check tui_runmem_start $? "the screen did not come up"
shpid=$($T list-panes -t main -F '#{pane_pid}')
pid=$(pgrep -P "$shpid" dillsue | head -1)
if [ -z "$pid" ] || [ ! -r "/proc/$pid/status" ]; then echo "SKIP $TESTNAME: no /proc/PID/status"; exit 0; fi
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status"; }
typed i 3
ok=0
k=1
while [ $k -le 16 ]; do
    keys r
    wait_for main "run #$k max-iter" 60 || { ok=1; break; }
    sleep 0.2
    eval "r$k=\$(rss)"
    k=$((k + 1))
done
check tui_runmem_runs $ok "run #$k did not end at max-iter"
[ $ok -eq 0 ] || exit 0
echo "    RSS after run 2: $r2 kB, 8: $r8 kB, 16: $r16 kB"
if grep -q -e __asan_init -e __tsan_init "$PROG"; then # the sanitizers keep freed memory (quarantine) and shadow it: RSS says nothing
    echo "SKIP tui_runmem_rss: a sanitizer build"
else
    [ $((r8 - r2)) -le $((6 * 400)) ]
    check tui_runmem_latest $? "RSS grew $(((r8 - r2) / 6)) kB a run over runs 3-8 (bound 400 kB: is the engine run kept?)"
    [ $((r16 - r8)) -le $((8 * 200)) ]
    check tui_runmem_retired $? "RSS grew $(((r16 - r8) / 8)) kB a run over runs 9-16 (bound 200 kB: flows 150 kB)"
fi
# every run's flows are still there: run #1 (retired) exports
keys Home
wait_for main '^.>  1  ' 3
typed x "$TMP/one-flows.csv"
wait_for main "run #1: flows -> .*one-flows.csv" 5
check tui_runmem_export_retired $? "run #1 (retired) did not export its flows"
[ "$(wc -l < "$TMP/one-flows.csv")" -gt 18710 ]
check tui_runmem_export_rows $? "run #1's export has $(wc -l < "$TMP/one-flows.csv") lines"
keys q
wait_for main 'EXIT=0' 10
check tui_runmem_quit $? "q did not exit with 0"
