#!/bin/sh
# t_tui_locale.sh - the TUI takes the user's locale for its character set only:
# under a locale with a decimal comma (de_DE) its export, run log and sweep
# viewer use the numbers of every other file, and it reads them. Before, the
# export held "4869,0810305823907" (refused by compare and --warm), the run
# log had its numbers split over columns, solve's 17-digit flows and
# Winnipeg's net file were "not a number", and the viewer counted 0 cells of a
# finished sweep. The locale is built with localedef when none is installed.
TESTNAME=tui_locale
. "$(dirname "$0")/tui_lib.sh"

LOC=
for l in de_DE.UTF-8 de_DE.utf8 fr_FR.UTF-8 fr_FR.utf8; do
    if locale -a 2>/dev/null | grep -qix "$(echo $l | sed 's/UTF-8/utf8/')"; then LOC=$l; break; fi
done
if [ -z "$LOC" ] && command -v localedef >/dev/null 2>&1 &&
    mkdir -p "$TMP/loc" && localedef -i de_DE -f UTF-8 "$TMP/loc/de_DE.UTF-8" >/dev/null 2>&1; then
    LOC=de_DE.UTF-8
    LOCPATH="$TMP/loc"
    export LOCPATH
fi
if [ -z "$LOC" ] || [ "$(env LC_ALL=$LOC printf '%.1f' 1.5 2>/dev/null)" != "1,5" ]; then
    echo "SKIP $TESTNAME: no locale with a decimal comma (de_DE) and none can be built"
    exit 0
fi
WIN="$DIR/Winnipeg/Winnipeg_net.tntp"
case "$WIN" in /*) ;; *) WIN="$PWD/$WIN" ;; esac

# solve's flows for the same run (17 significant digits: strtod's path)
"$PROG" solve --net "$NET" --solver msa --max-iter 20 --quiet --out "$TMP/solve.csv" >/dev/null 2>&1
mkdir "$TMP/x"
$T new-session -d -s loc -x 160 -y 45 -c "$TMP/x" \
    "LC_ALL=$LOC TERM=xterm-256color '$PROG' tui --net '$NET' --solver msa --no-config --runlog '$TMP/runlog.csv'; echo EXIT=\$?; sleep 60"
CUR=loc
wait_for loc 'runs \(0\)' 10
typed i 20
keys r
wait_for loc '^#1 (converged|max-iter)' 30
typed x "$TMP/x/tui.csv"
wait_for loc 'run #1: flows ->' 10
cmp -s "$TMP/x/tui.csv" "$TMP/solve.csv"
check tui_locale_export_is_solves $? "the export under $LOC differs from solve's: $(sed -n 2p "$TMP/x/tui.csv")"
"$PROG" compare "$TMP/solve.csv" "$TMP/x/tui.csv" >/dev/null 2>&1
check tui_locale_export_read_back $? "compare refused the export"
typed W "$TMP/solve.csv"
sleep 0.5
! screen loc | grep -q 'not a finite number'
check tui_locale_reads_solve_flows $? "W refused solve's flows"
typed n "$WIN"
wait_for loc '^dillsue Winnipeg:|next runs: Winnipeg' 10
check tui_locale_reads_winnipeg $? "n could not open Winnipeg"
keys q
wait_for loc '^EXIT=0' 10
hdr=$(head -1 "$TMP/runlog.csv" | tr ',' '\n' | wc -l)
row=$(sed -n 2p "$TMP/runlog.csv" | sed 's/"[^"]*"//g' | tr ',' '\n' | wc -l)
[ "$hdr" -eq "$row" ] && ! grep -q '1,135' "$TMP/runlog.csv"
check tui_locale_runlog_columns $? "run log: $hdr columns named, $row in the row"

"$PROG" sweep --net "$NET" --scenarios 2 --seed 1 --tau 10 --filter dsp --solver newton --out "$TMP/sw" \
    --quiet >/dev/null 2>&1
$T new-session -d -s locsw -x 160 -y 45 "LC_ALL=$LOC TERM=xterm-256color '$PROG' tui --sweep '$TMP/sw'; sleep 60"
CUR=locsw
wait_for locsw '2/2 ' 10
check tui_locale_sweep_viewer_counts $? "the viewer did not count the sweep's 2 cells"
