#!/bin/sh
# t_tui.sh - drive the real TUI in a private tmux server: open Sioux Falls,
# run, read the result off the screen, steer (bad and good input), run again,
# compare, export, resize, help, quit and Ctrl-C. Prints PASS/FAIL/SKIP lines.
. "$(dirname "$0")/tui_lib.sh"

# a terminal that cannot position the cursor is refused before curses starts
# (TERM=dumb drew only the bottom line, the rest blank), the main TUI's and the
# sweep viewer's alike
"$PROG" sweep --net "$NET" --scenarios 1 --seed 1 --tau 10 --filter dsp --solver newton --out "$TMP/sw1" --quiet >/dev/null 2>&1
$T new-session -d -s dumb -x 150 -y 10 -c "$PWD" \
    "TERM=dumb '$PROG' tui --net '$NET' --no-runlog; echo EXIT=\$?; TERM=dumb '$PROG' tui --sweep '$TMP/sw1'; echo EXIT=\$?; sleep 60"
i=0; while [ $i -lt 100 ] && [ "$(screen dumb | grep -c '^EXIT=2$')" -lt 2 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(screen dumb | grep -c '^EXIT=2$')" -eq 2 ] &&
    [ "$(screen dumb | grep -c '^dillsue tui: the terminal (TERM=dumb) cannot position the cursor')" -eq 2 ]
check tui_dumb_terminal_refused $? "TERM=dumb was not refused with status 2 by the TUI and the sweep viewer"

$T new-session -d -s main -x 120 -y 40 -c "$PWD" \
    "TERM=xterm-256color '$PROG' tui --net '$NET' --solver sra --ascii; echo EXIT=\$?; sleep 60"
wait_for main 'runs \(0\)' 10
check tui_start $? "the screen did not come up"

# first run: sra at the default tau, to convergence
keys r
wait_for main '^#1 converged' 20
check tui_run_converges $? "run #1 did not converge within 20 s"
gap=$(screen main | sed -n 's/^#1 converged.* gap \([^ ]*\) .*/\1/p')
awk -v g="$gap" 'BEGIN { exit !(g != "" && g + 0 > 0 && g + 0 < 1e-7) }'
check tui_gap_on_screen $? "gap read off the header is '$gap', want 0 < gap < 1e-7"

# bad input changes nothing and says why
typed t "-1"
wait_for main 'tau must be a number > 0' 3
r1=$?
screen main | grep -q 'next: tau 10 '
check tui_bad_tau_rejected $((r1 + $?)) "tau = -1 was not refused with a message"
typed t "abc"
wait_for main 'got "abc"; unchanged' 3
r1=$?
screen main | grep -q 'next: tau 10 '
check tui_bad_tau_text_rejected $((r1 + $?)) "tau = abc was not refused"
typed n "$TMP/no_such_net.tntp"
wait_for main 'cannot open network \(unchanged\)' 5
r1=$?
screen main | grep -q '^dillsue SiouxFalls'
check tui_missing_network $((r1 + $?)) "a missing network file was not reported or changed the network"
# its directory names the same file: the copy loaded is kept (the key is the file's)
typed n "$(dirname "$NET")"
wait_for main 'network SiouxFalls: 24 nodes.*\(the copy already loaded' 5
check tui_network_directory $? "n with the network's directory did not reopen the loaded copy: $(screen main | tail -n 2)"

# steer: tau 3 typed, solver sra -> anderson -> newton -> msa, 2000 iterations at most
typed t "3"
keys m; keys m; keys m
typed i 2000
wait_for main 'next: tau 3 \| full \| msa \| tol 1e-07 \| max 2000' 3
check tui_steering $? "the next-run line does not show tau 3, msa, max 2000"
keys r
wait_for main '^#2 (converged|max-iter|ill-posed)' 30
check tui_second_run $? "run #2 did not finish"
s=$(screen main)
rows=$(printf '%s\n' "$s" | grep -cE '[> C-]{3}[12]  +SiouxFalls +(sra|msa) ')
[ "$rows" -eq 2 ]
check tui_two_rows $? "run list shows $rows rows, want 2"
printf '%s\n' "$s" | grep -q '\*#2 msa/full t3' && printf '%s\n' "$s" | grep -q 'o#1 sra/full t10'
check tui_two_curves_legend $? "legend does not list both runs"
# both curves on the plot: the latest run's mark * and run 1's mark o inside the plot area
plot=$(printf '%s\n' "$s" | sed -n '4,30p' | cut -c8-80)
printf '%s\n' "$plot" | grep -q '\*' && printf '%s\n' "$plot" | grep -q 'o'
check tui_two_curves_plot $? "plot area lacks one of the curve marks"

# compare the two runs
keys c; keys k; keys c
wait_for main 'compare \(Esc closes\)' 3
r1=$?
screen main | grep -Eq 'solver/filt +msa / full / cpu +sra / full / cpu|solver/filt +sra / full / cpu +msa / full / cpu'
check tui_compare $((r1 + $?)) "comparison overlay missing or wrong"
keys Escape

# export run 1 (selected) and check the CSV; then a failing export
keys x
wait_for main 'export flows to: SiouxFalls-run1-sra-full-tau10-flows.csv' 3
check tui_export_default_name $? "no default export name"
keys C-u; $T send-keys -t main -l -- "$TMP/sf-flows.csv"; keys Enter
wait_for main 'flows ->' 5
f="$TMP/sf-flows.csv"
[ -f "$f" ] && [ "$(head -1 "$f")" = "init_node,term_node,flow,cost" ] && [ "$(wc -l < "$f")" -eq 77 ] &&
    awk -F, 'NR > 1 && ($3 + 0 < 0 || NF != 4) { bad = 1 } END { exit bad }' "$f" && [ -s "$TMP/sf-history.csv" ]
check tui_export_csv $? "flows CSV missing or malformed (or no history file)"
typed x "$TMP/no/such/dir/f.csv"
wait_for main 'export failed: .*no/such/dir/f.csv: cannot create' 3
check tui_export_failure_reported $? "a failing export was not reported"
# an existing file is replaced only when y confirms it (n leaves it as it was)
# export_over ANSWER SAYS: x to the existing sf-flows.csv, the question, ANSWER,
# then the status line SAYS; status 0 if all showed
export_over() {
    typed x "$TMP/sf-flows.csv"
    wait_for main 'exists: overwrite it and its history\? y/n' 3 || return 1
    keys "$1"; keys Enter
    wait_for main "$2" 5
}
printf 'keep\n' > "$TMP/sf-flows.csv"
export_over n 'export cancelled: .*sf-flows.csv left as it was'
r1=$?
[ "$(cat "$TMP/sf-flows.csv")" = keep ]
check tui_export_asks_before_overwrite $((r1 + $?)) "x replaced an existing file without asking, or n did not keep it"
export_over y 'run #1: flows -> .*sf-flows.csv'
r1=$?
[ "$(wc -l < "$TMP/sf-flows.csv")" -eq 77 ]
check tui_export_overwrite_confirmed $((r1 + $?)) "y did not replace the file"

# resize: minimum, large, too small, back
$T resize-window -t main -x 80 -y 24
wait_all main 5 'runs \(2\)' 'gap_rel' '\*#2 msa/f(ull)? t3 ' 'o#1 sra/f(ull)? t10'
s=$(screen main)
printf '%s\n' "$s" | grep -q 'runs (2)' && printf '%s\n' "$s" | grep -q 'gap_rel' && [ "$(printf '%s\n' "$s" | wc -l)" -le 24 ]
check tui_resize_80x24 $? "80x24 screen incomplete"
# at 80 columns the legend still tells the runs apart (number, solver, filter,
# tau) and, once the message has gone, the status bar ends with help and quit
printf '%s\n' "$s" | grep -Eq '\*#2 msa/f(ull)? t3 ' && printf '%s\n' "$s" | grep -Eq 'o#1 sra/f(ull)? t10'
check tui_legend_80x24 $? "the legend at 80x24 does not name both runs with solver, filter and tau"
wait_for main '\? help  q quit$' 12
check tui_status_bar_80x24 $? "the status bar at 80x24 does not end with '? help  q quit'"
# at 80x24 the key table does not fit: help pages, every key reachable
help_last
r1=$?
screen main | grep -q 'keys 1/' || screen main | grep -Eq 'keys [2-9]/[2-9]'
r2=$?
screen main | grep -q 'quit (cancels a running run first)'
check tui_help_pages_80x24 $((r1 + r2 + $?)) "help at 80x24 does not page to the last key"
keys Escape
$T resize-window -t main -x 200 -y 60
wait_all main 5 'safeguards' 'timings' 'eDSP mask' 'links'
s=$(screen main)
printf '%s\n' "$s" | grep -q 'safeguards' && printf '%s\n' "$s" | grep -q 'timings' &&
    printf '%s\n' "$s" | grep -q 'eDSP mask' && printf '%s\n' "$s" | grep -q 'links'
check tui_resize_200x60 $? "200x60 does not show all side panels"
$T resize-window -t main -x 60 -y 20
wait_for main 'terminal too small: need 80x24, have 60x20' 3
check tui_too_small $? "no too-small message at 60x20"
$T resize-window -t main -x 40 -y 12
wait_for main 'too small: 40x12, need 80x24' 3
check tui_too_small_narrow $? "the too-small message at 40x12 is not whole"
$T resize-window -t main -x 120 -y 40
wait_for main 'runs \(2\)' 3
check tui_resize_back $? "screen did not come back at 120x40"

# help lists the keys from the key table
help_last
r1=$?
screen main | grep -q 'quit (cancels a running run first)'
check tui_help $((r1 + $?)) "help overlay missing"
keys Escape

# quit restores the terminal: the shell line is back, the TUI is gone
keys q
wait_for main '^EXIT=0' 10
r1=$?
screen main | grep -q 'runs (2)'
r2=$?
[ $r1 -eq 0 ] && [ $r2 -ne 0 ]
check tui_quit_restores_terminal $? "no clean exit (EXIT=0) or the TUI is still on screen"

# Ctrl-C during a long run on vt100 (no colour) cancels, joins and exits 130
# (the pane's shell gets the SIGINT too: `trap :` keeps it alive to echo the
# status where it is dash, the login shell useradd gives, and the program
# still takes SIGINT as a user's Ctrl-C; without it the pane, and the tmux
# server, went away before EXIT=130 could show)
$T new-session -d -s cc -x 80 -y 24 -c "$PWD" \
    "trap : INT; TERM=vt100 '$PROG' tui --net '$NET' --solver msa --tau 3; echo EXIT=\$?; sleep 60"
wait_for cc 'runs \(0\)' 10
$T send-keys -t cc i C-u 100000000 Enter r
wait_for cc '^#1 running' 10
r1=$?
# the UI thread (tid = pid) must stay under 5% of a core while the engine works
shpid=$($T list-panes -t cc -F '#{pane_pid}')
pid=$(pgrep -P "$shpid" dillsue | head -1)
if [ -n "$pid" ] && [ -r "/proc/$pid/task/$pid/stat" ]; then
    ticks() { sed 's/.*) //' "/proc/$pid/task/$pid/stat" | awk '{ print $12 + $13 }'; }
    all() { sed 's/.*) //' "/proc/$pid/stat" | awk '{ print $12 + $13 }'; }
    a=$(ticks); b=$(all); sleep 3; a2=$(ticks); b2=$(all)
    hz=$(getconf CLK_TCK)
    ui=$(awk -v d=$((a2 - a)) -v hz="$hz" 'BEGIN { printf "%.1f", 100 * d / hz / 3 }')
    eng=$(awk -v d=$((b2 - b - a2 + a)) -v hz="$hz" 'BEGIN { printf "%.1f", 100 * d / hz / 3 }')
    awk -v u="$ui" -v e="$eng" 'BEGIN { exit !(u < 5 && e > 20) }'
    echo "note: UI thread $ui% of a core, engine $eng%"
    check tui_ui_thread_cpu $? "UI thread used $ui% of a core (engine $eng%), want < 5% while the engine works"
else
    echo "SKIP tui_ui_thread_cpu: no /proc task stats for the program"
fi
$T send-keys -t cc C-c
wait_for cc '^EXIT=130' 10
check tui_ctrl_c_during_run $((r1 + $?)) "Ctrl-C during a run did not exit cleanly"

# NO_COLOR and screen: starts, draws, quits
$T new-session -d -s nc -x 100 -y 30 -c "$PWD" "NO_COLOR=1 TERM=screen '$PROG'; echo EXIT=\$?; sleep 60"
wait_for nc 'runs \(0\)' 10
r1=$?
$T send-keys -t nc q
wait_for nc '^EXIT=0' 10
check tui_default_network_no_color $((r1 + $?)) "dillsue with no arguments (NO_COLOR, TERM=screen) did not start and quit"
# config file: tau 30, the solver key moved to o, one bad line; S saves;
# the command line overrides the file; a failing save is reported
mkdir -p "$TMP/xdg/dillsue"
CFG="$TMP/xdg/dillsue/config"
printf '# written by t_tui.sh\nversion=1\ntau=30\nfilter=dps\nbind.solver=o\n' > "$CFG"
$T new-session -d -s cf -x 120 -y 40 -c "$PWD" \
    "XDG_CONFIG_HOME='$TMP/xdg' TERM=xterm-256color '$PROG' tui --net '$NET' --solver sra --ascii; echo EXIT=\$?; sleep 60"
wait_for cf 'runs \(0\)' 10
wait_for cf "dillsue/config:4: unknown filter 'dps'" 3
check tui_config_problem_line $? "the bad filter line was not reported as config:4"
screen cf | grep -q '^no run yet | next: tau 30 | full | sra | press r to start'
check tui_config_tau_in_header $? "header does not show tau 30 from the config file (and full, sra)"
$T send-keys -t cf m; sleep 0.3
screen cf | grep -q 'next: tau 30 | full | sra |'
r1=$?
$T send-keys -t cf o
wait_for cf 'next: tau 30 \| full \| anderson \|' 3
check tui_config_rebound_key $((r1 + $?)) "o did not cycle the solver, or m still did"
$T send-keys -t cf '?'
wait_for cf 'keys( 1/[0-9])? \(' 3
r1=$?
screen cf | grep -Eq ' o +cycle solver: msa' && screen cf | grep -Eq 'keys and defaults: .*dillsue/config \(S saves\)'
check tui_config_help_shows_bound_key $((r1 + $?)) "help does not list o for the solver or the config file"
$T send-keys -t cf Escape S
wait_for cf 'settings saved to .*dillsue/config' 3
r1=$?
grep -qx 'tau=30' "$CFG" && grep -qx 'solver=anderson' "$CFG" && grep -qx 'filter=full' "$CFG" &&
    grep -qx 'bind.solver=o' "$CFG" && grep -qx 'version=1' "$CFG" && ! ls "$TMP/xdg/dillsue" | grep -q tmp
check tui_config_save $((r1 + $?)) "S did not write tau 30, anderson, the binding (or left a temporary file)"
# the status bar names the bound key once the message has gone
wait_for cf ' o solver ' 8
check tui_config_status_bar $? "the status bar does not show o for the solver"
$T send-keys -t cf q
wait_for cf '^EXIT=0' 10
r1=$?
screen cf | grep -q "^dillsue tui: config: .*config:4: unknown filter 'dps'"
check tui_config_problem_on_exit $((r1 + $?)) "no clean exit, or the config problem not repeated on stderr"

$T new-session -d -s cf2 -x 120 -y 40 -c "$PWD" \
    "TERM=xterm-256color '$PROG' tui --net '$NET' --config '$CFG' --tau 3; echo EXIT=\$?; sleep 60"
wait_for cf2 'runs \(0\)' 10
screen cf2 | grep -q '^no run yet | next: tau 3 | full | anderson |'
check tui_config_command_line_wins $? "--tau 3 did not override the file's tau 30 (or the saved solver was lost)"
$T send-keys -t cf2 q

printf 'x' > "$TMP/afile"
$T new-session -d -s cf3 -x 120 -y 40 -c "$PWD" \
    "TERM=xterm-256color '$PROG' tui --net '$NET' --config '$TMP/afile/config'; echo EXIT=\$?; sleep 60"
wait_for cf3 'runs \(0\)' 10
screen cf3 | grep -q 'next: tau 10 '
r1=$?
$T send-keys -t cf3 S
wait_for cf3 'settings not saved: .*afile' 3
r2=$?
[ "$(cat "$TMP/afile")" = x ]
check tui_config_save_failure $((r1 + r2 + $?)) "a save below a regular file was not refused with a message"
$T send-keys -t cf3 q

$T new-session -d -s cf4 -x 120 -y 40 -c "$PWD" \
    "XDG_CONFIG_HOME='$TMP/xdg' TERM=xterm-256color '$PROG' tui --net '$NET' --no-config; echo EXIT=\$?; sleep 60"
wait_for cf4 'runs \(0\)' 10
screen cf4 | grep -q 'next: tau 10 '
r1=$?
$T send-keys -t cf4 S
wait_for cf4 'not saved: started with --no-config' 3
check tui_no_config $((r1 + $?)) "--no-config read the file or S wrote it"
$T send-keys -t cf4 q

# A scenario network's run, at 80x24, from a settings file that changes the
# cost (distance_factor) and allows no iteration (max_iter=0, as solve's
# --max-iter 0): the details name every setting, the default export name is
# one file here, ~/ is the home directory, run 10 and on keep a space before
# the network, an empty list item is refused.
mkdir -p "$TMP/home"
printf 'distance_factor=1\nmax_iter=0\n' > "$TMP/sc.cfg"
$T new-session -d -s sc -x 80 -y 24 -c "$PWD" \
    "HOME='$TMP/home' TERM=xterm-256color '$PROG' tui --net '$NET' --config '$TMP/sc.cfg' --ascii; echo EXIT=\$?; sleep 60"
CUR=sc
wait_for sc 'runs \(0\)' 10
screen sc | grep -q 'max 0 '
check tui_config_max_iter_zero $? "max_iter=0 in the settings file was not applied"
screen sc | grep -Eq 'next: .*(cold|warm[^|]*) \+1 '
check tui_next_counts_other_settings $? "the next-run line does not count distance_factor among the settings it does not show"
typed N "2 7"
keys r
wait_for sc '^#1 ' 20
keys v
wait_for sc 'distance_factor 1' 3
check tui_details_name_every_setting $? "the details view does not name distance_factor 1"
keys Escape
keys x
wait_for sc 'export flows to: SiouxFalls~k2-7-run1-' 3
check tui_export_default_name_one_file $? "the default export name of a scenario run is not one file here"
keys C-u; $T send-keys -t sc -l -- "~/sc-flows.csv"; keys Enter
wait_for sc 'flows -> .*home/sc-flows.csv' 5
r1=$?
[ "$(wc -l < "$TMP/home/sc-flows.csv" 2> /dev/null)" = 77 ]
check tui_export_home $((r1 + $?)) "~/sc-flows.csv was not written to the home directory"
typed Q "tau 3,,10"
wait_for sc 'queue: an empty item in a list' 3
check tui_queue_empty_item $? "the queue took tau 3,,10"
typed Q "tau 1,2,3,4,5,6,7,8,9"
wait_for sc '^#10 ' 30
r1=$?
screen sc | grep -Eq '^.{4}10 SiouxFalls'
check tui_runs_number_column $((r1 + $?)) "run 10 runs into the network name in the run list"
keys q
wait_for sc 'EXIT=0' 10
# the run log names the settings the details do (distance_factor 1 here, the file's toll factor)
log=$(ls -t "$XDG_STATE_HOME"/dillsue/runs-*.csv 2> /dev/null | head -n 1)
python3 - "$log" << 'EOS'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ok = len(rows) == 10 and all(r["distance_factor"] == "1" and r["toll_factor"] == "net" and r["newton_warm"] == "-1"
                            and r["max_iter"] == "0" for r in rows)
sys.exit(0 if ok else 1)
EOS
check tui_runlog_names_every_setting $? "the run log ($log) lacks distance_factor 1 / toll_factor net / newton_warm -1"
# N takes every scenario number solve --scenario takes (up to INT_MAX), and
# makes the network solve makes: the same demand total as info reports
start sk 160x30 --net "'$NET'" --no-config --no-runlog --ascii
typed N "2147483647 42"
want=$("$PROG" info --net "$NET" --scenario 2147483647 --seed 42 --threads 1 | sed -n 's/^scenario: .*demand \([^ ]*\) -> \([^,]*\),.*/\1 -> \2/p')
wait_for sk "scenario 2147483647 seed 42 of SiouxFalls, demand $want" 5
check tui_scenario_k_as_solve $? "N 2147483647 42 refused or not info's demand ($want)"
keys q
exit 0
