#!/bin/sh
# t_sweep_tui.sh - `dillsue tui --sweep DIR` in a private tmux server while a
# sweep fills DIR: progress reaches the total, the state says finished, each
# solver's line and the count of cells that did not converge match cells.csv,
# Enter on a failure shows its reason and the solve command that reproduces it,
# h solves it again in the viewer (history plot, busiest links, flows bitwise
# equal to the sweep's flow file), a lists every cell, q quits with status 0 and SIGTERM with 143;
# r on a failed cell opens the main TUI with the cell as run #1 (its scenario
# network, its iterations; F offers the sweep's flow file: bitwise equal).
# A directory without a sweep is refused (status 2).
. "$(dirname "$0")/lib.sh"
SF=$TNTP/SiouxFalls/SiouxFalls_net.tntp
PROG="$PWD/$D"
case "$D" in /*) PROG="$D" ;; esac

run "$D" tui --sweep "$tmp/nothing"
if [ $rc -eq 2 ] && grep -q "no sweep here" "$tmp/err"; then pass sweep_tui_no_sweep_exit2; else fail sweep_tui_no_sweep_exit2 "rc $rc"; fi
# --sweep is read by the one option table: --sweep=DIR works, a run option is refused
run "$D" tui --sweep="$tmp/nothing"
if [ $rc -eq 2 ] && grep -q "nothing: no sweep here" "$tmp/err"; then pass sweep_tui_equals_form; else fail sweep_tui_equals_form "rc $rc: $(cat "$tmp/err")"; fi
run "$D" tui --sweep "$tmp/nothing" --tau 3
if [ $rc -eq 2 ] && grep -q -- "--tau has no meaning with --sweep" "$tmp/err"; then pass sweep_tui_run_option_refused; else fail sweep_tui_run_option_refused "rc $rc: $(cat "$tmp/err")"; fi
run "$D" tui --sweep "$tmp/nothing" --delay 0
if [ $rc -eq 2 ] && grep -q -- "--delay" "$tmp/err"; then pass sweep_tui_delay_checked; else fail sweep_tui_delay_checked "rc $rc: $(cat "$tmp/err")"; fi

if ! command -v tmux > /dev/null 2>&1; then skip sweep_tui "tmux not installed"; exit 0; fi
if [ ! -f "$SF" ]; then skip sweep_tui "SiouxFalls not found in $TNTP"; exit 0; fi
case "$SF" in /*) ;; *) SF="$PWD/$SF" ;; esac

T="tmux -u -L dillsue-sweep-$$ -f /dev/null"
$T kill-server 2> /dev/null # a live server of that name (an aborted run under a reused pid) would answer with its screens
trap 'tmux_end "$T"; rm -rf "$tmp"' EXIT
PANE=main
screen() { $T capture-pane -p -t $PANE 2>/dev/null; }
wait_for() { # wait_for REGEX SECONDS
    i=0
    while [ "$i" -lt $(($2 * 10)) ]; do
        if screen | grep -Eq -- "$1"; then return 0; fi
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
check() { if [ "$2" -eq 0 ]; then pass "$1"; else fail "$1" "$3"; screen | sed 's/^/    | /'; fi; }
# viewer SESSION COLSxROWS DIR [OPTION...]: `tui --sweep DIR` in a new tmux
# session, which becomes the one screen and wait_for read; EXIT=status at the end
viewer() {
    vs=$1 vsize=$2 vdir=$3
    shift 3
    $T new-session -d -s "$vs" -x "${vsize%x*}" -y "${vsize#*x}" \
        "LANG=C.UTF-8 TERM=xterm-256color '$PROG' tui --sweep '$vdir' $*; echo EXIT=\$?; sleep 60"
    PANE=$vs
}

# a sweep with failures (msa cannot reach 1e-7 in 300 iterations), one worker
"$D" sweep --net "$SF" --scenarios 3 --seed 7 --tau 3,10 --filter full,dsp --solver newton,anderson,msa \
    --max-iter 300 --workers 1 --flows --out "$tmp/sw" --quiet > /dev/null 2>&1 &
spid=$!
i=0
while [ ! -f "$tmp/sw/sweep.conf" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
viewer main 120x40 "$tmp/sw"
wait_for 'dillsue sweep' 10
check sweep_tui_opens $? "the viewer did not come up"
wait_for '36/36 .*100.0%' 60 && wait_for '^finished' 10
check sweep_tui_progress_to_total $? "progress did not reach 36/36 and finished"
wait $spid
# without a terminal the viewer says so and stops (it drew escape codes into the file and never ended)
run timeout 10 "$D" tui --sweep "$tmp/sw" < /dev/null
if [ $rc -eq 2 ] && grep -q "needs a terminal" "$tmp/err" && [ ! -s "$tmp/out" ]; then pass sweep_tui_needs_terminal
else fail sweep_tui_needs_terminal "rc $rc: $(head -c 200 "$tmp/err")"; fi
nfail=$(grep -vc ',converged,' "$tmp/sw/cells.csv")
nfail=$((nfail - 1)) # header
sleep 1.2
screen | grep -q "^not converged or ill-posed: $nfail "
check sweep_tui_failure_count $? "cells.csv has $nfail cells not converged"
ok=0
for s in newton anderson msa; do
    conv=$(awk -F, -v s=$s '$7 == s && $8 == "converged"' "$tmp/sw/cells.csv" | wc -l)
    screen | grep -Eq "^$s +conv $conv " || ok=1
done
screen | grep -q "iterations |" || ok=1
check sweep_tui_per_solver $ok "per-solver lines do not match cells.csv"
# a solver none of whose cells converged (msa here) has no percentiles: n/a, never nan
if [ "$(awk -F, '$7 == "msa" && $8 == "converged"' "$tmp/sw/cells.csv" | wc -l)" -eq 0 ]; then
    screen | grep -q 'p10/med/p90 n/a (no cell converged)' && ! screen | grep -q 'nan'
    check sweep_tui_no_nan $? "a solver without converged cells shows nan or no n/a"
fi
$T send-keys -t main Enter
wait_for 'reproduce: +dillsue solve --net' 3
check sweep_tui_detail $? "Enter did not open the cell's details"
# the command shown reproduces the cell: run as shown (continuation lines joined), it
# stops where the cell stopped, after as many iterations
cmd=$(screen | sed -n '/reproduce:/,$p' | sed 's/^.*reproduce: *//; s/^ *//' |
    awk '{ if (sub(/ \\$/, "")) { printf "%s ", $0 } else { print; exit } }')
cell=$(screen | sed -n 's/^cell \([0-9]*\): .*/\1/p' | head -n 1)
it=$(awk -F, -v c="$cell" '$1 == c {print $(NF-12)}' "$tmp/sw/cells.csv")
case "$cmd" in "dillsue solve "*) ;; *) cmd="not shown" ;; esac
(cd "$tmp" && PATH="$(dirname "$PROG"):$PATH" sh -c "$cmd" > "$tmp/repro.out" 2> /dev/null)
grep -q "| iterations $it |" "$tmp/repro.out" && [ -f "$tmp/H.csv" ]
check sweep_tui_detail_command_reproduces $? "cell $cell ($it iterations): '$cmd' gave $(head -c 300 "$tmp/repro.out")"
$T send-keys -t main h
wait_for 'flows: bitwise equal to the sweep.s flow file' 20
check sweep_tui_replay_bitwise $? "h did not solve the cell again to the sweep's flows"
screen | grep -q '^ *[0-9]*->[0-9]* ' && screen | grep -q 'iteration 0 \.\. 300'
check sweep_tui_replay_history_links $? "no history plot or busiest links"
$T send-keys -t main Escape
wait_for 'reproduce:' 3
$T send-keys -t main Escape
wait_for '^not converged' 3
check sweep_tui_back $? "Escape did not go back"
$T send-keys -t main a
wait_for '^all cells: 36 ' 3
check sweep_tui_all_cells $? "a did not list all 36 cells"
$T send-keys -t main q
wait_for 'EXIT=0' 5
check sweep_tui_quit $? "q did not quit with status 0"

# a cell's details stay on that cell while newer failures come in (the list is
# newest first: they used to show whatever cell took its row at the next refresh)
mkdir "$tmp/swlive"
cp "$tmp/sw/sweep.conf" "$tmp/swlive/"
n1=$(grep -vn ',converged,' "$tmp/sw/journal.csv" | sed -n '2s/:.*//p') # the first failure's line
head -n "$n1" "$tmp/sw/journal.csv" > "$tmp/swlive/journal.csv"
viewer live 120x40 "$tmp/swlive"
wait_for '^not converged or ill-posed: 1 ' 10
$T send-keys -t live Enter
wait_for 'reproduce:' 3
first=$(screen | grep -m1 '^cell [0-9]*: ')
tail -n +"$((n1 + 1))" "$tmp/sw/journal.csv" >> "$tmp/swlive/journal.csv"
wait_for '36/36 ' 5
sleep 1.2
[ -n "$first" ] && [ "$(screen | grep -m1 '^cell [0-9]*: ')" = "$first" ]
check sweep_tui_detail_keeps_cell $? "the details of '$first' moved to another cell when the journal grew"
$T send-keys -t live Escape
wait_for '^not converged or ill-posed: ' 3
$T send-keys -t live q
wait_for 'EXIT=0' 5

# at 80 columns the grid line names the network's file (its path does not fit) and
# the progress line takes its short form: both whole, not cut at the edge
viewer narrow 80x24 "$tmp/sw" --ascii
wait_for '^SiouxFalls_net.tntp  3 scenarios x 2 tau x 2 filters x 3 solvers = 36 cells$' 5
r1=$?
wait_for '^finished \| .* session \| ETA \? \| [0-9]+/1 workers$' 5
check sweep_tui_80_columns $((r1 + $?)) "the grid or progress line is cut at 80 columns"
# the solvers' percentile lines are whole at 80 columns (the time line ran past the
# edge, its p90 "0.0498 s" cut to "0"), and a failure's reason cut at the edge ends
# in '>' (it ended mid-word, read as the whole reason); the list's title keeps
# its keys whole (it lost "a: all")
r1=0
screen | grep '^  time ' | grep -Eqv ' s$|no cell converged\)$' && r1=1
screen | awk '/^cell [0-9]+: / && length($0) >= 80 && substr($0, 80, 1) != ">" { bad = 1 } END { exit bad }'
r2=$?
screen | grep -Eq '^not converged or ill-posed: [0-9]+ \(.*a: all\)$'
check sweep_tui_80_columns_whole $((r1 + r2 + $?)) "a percentile line, a failure's reason or the list's keys are cut at 80 columns"
# a signal quits with 128 + its number, as the main TUI (the viewer said 0)
pp=$($T display-message -p -t narrow '#{pane_pid}')
pkill -TERM -P "$pp" dillsue
wait_for 'EXIT=143' 5
check sweep_tui_signal_status $? "SIGTERM did not quit the viewer with status 143"

# at 80 columns a cell's command is whole and reproduces it, also with a network
# path longer than a continuation line (it was cut: "SiouxFalls_net.tn>")
# (a path of 72 characters: longer than the 62 of a continuation line, shorter than the screen)
n=$((72 - ${#tmp} - 1 - 12))
[ $n -lt 1 ] && n=1
LP="$tmp/$(printf '%*s' $n '' | tr ' ' d)"
mkdir -p "$LP" && cp "$SF" "$LP/SF_net.tntp" && cp "${SF%_net.tntp}_trips.tntp" "$LP/SF_trips.tntp"
"$D" sweep --net "$LP/SF_net.tntp" --scenarios 1 --seed 3 --tau 10 --filter dsp --solver newton --out "$tmp/swlong" --quiet > /dev/null 2>&1
viewer long 80x24 "$tmp/swlong" --ascii
wait_for '^not converged or ill-posed: ' 10
$T send-keys -t long a Enter
wait_for 'reproduce:' 3
cmd=$(screen | sed -n '/reproduce:/,$p' | sed 's/^.*reproduce: *//; s/^ *//' |
    awk '{ if (sub(/ \\$/, "")) { printf "%s ", $0 } else { print; exit } }')
it=$(awk -F, '$1 == 0 {print $(NF-12)}' "$tmp/swlong/cells.csv")
case "$cmd" in "dillsue solve "*) ;; *) cmd="not shown" ;; esac
rm -f "$tmp/H.csv"
(cd "$tmp" && PATH="$(dirname "$PROG"):$PATH" sh -c "$cmd" > "$tmp/repro-long.out" 2> /dev/null)
grep -q "| iterations $it |" "$tmp/repro-long.out" && [ -f "$tmp/H.csv" ]
check sweep_tui_80_columns_command $? "at 80 columns the command '$cmd' did not reproduce the cell ($it iterations)"
$T send-keys -t long q
wait_for 'EXIT=0' 5

# r on a cell: the main TUI takes over with that cell as run #1, on its
# scenario's network, with the sweep's iterations and its flows bit for bit
viewer cell 140x45 "$tmp/sw" --no-runlog --no-config --ascii
wait_for '^not converged or ill-posed: ' 10
$T send-keys -t cell Down Enter
wait_for 'reproduce:' 3
cell=$(screen | sed -n 's/^cell \([0-9]*\): k \([0-9]*\) tau \([0-9.]*\) \([a-z]*\) \([a-z]*\)$/\1 \2 \3 \4 \5/p' | head -n 1)
set -- $cell
$T send-keys -t cell r
row=$(awk -F, -v c="$1" '$1 == c' "$tmp/sw/cells.csv")
it=$(echo "$row" | awk -F, '{print $(NF-12)}')
wait_for "^.> +1 +SiouxFalls~k$2/7 +$5 +$4 +$3 .* $it +[0-9.e+-]+ +max-iter " 30
check sweep_tui_r_opens_cell $? "r did not start cell $1 ($cell) as run #1 with its $it iterations"
$T send-keys -t cell F
wait_for "reference flows .*: $tmp/sw/flows/k000$2_tau$3_$4_$5.csv" 3
r1=$?
$T send-keys -t cell Enter
wait_for 'max abs diff: +0( |$)' 5
r2=$?
screen | grep -Eq 'MAPE: +0 %'
check sweep_tui_r_flows_bitwise $((r1 + r2 + $?)) "F did not offer the sweep's flow file, or the flows differ"
$T send-keys -t cell Escape v
wait_for "cell $1: k $2 tau $3 $4 $5 of sweep $tmp/sw \\(its flows: " 3
check sweep_tui_r_details $? "the run's details do not name the sweep cell"
$T send-keys -t cell Escape q
wait_for 'EXIT=0' 5
check sweep_tui_r_quit $? "q in the TUI opened from the viewer did not quit with status 0"

# a cell of a --mu sweep: the run shows the mu it was given (never the unused default tau);
# --threads and --runlog given with --sweep are the opened TUI's: the run log has the run
"$D" sweep --net "$SF" --scenarios 1 --seed 2 --mu 0.5 --filter dsp --solver newton --out "$tmp/swmu" --quiet > /dev/null 2>&1
viewer mu 140x45 "$tmp/swmu" --threads 2 --runlog "'$tmp/mu-runs.csv'" --no-config
wait_for '^all cells|^not converged' 10
$T send-keys -t mu a r
wait_for '^.> +1 +SiouxFalls~k0/2 +newton +dsp +mu0.5 +cpu .* converged ' 20
r1=$?
screen | sed -n 2p | grep -Eq '^#1 converged \| mu 0\.5 \| dsp \| newton \|'
r2=$?
screen | grep -q 'newton/dsp m0.5'
check sweep_tui_r_mu_shown $((r1 + r2 + $?)) "a run given mu 0.5 does not show mu 0.5 in its row, the header and the legend"
$T send-keys -t mu q
wait_for 'EXIT=0' 5
it=$(awk -F, '$1 == 0 {print $(NF-12)}' "$tmp/swmu/cells.csv")
# run,network,net_path,solver,filter,tau,mu,tol,max_iter,threads,...,status,iterations (fields 20, 21)
awk -F, -v it="$it" 'NR == 2 && $1 == 1 && $4 == "newton" && $5 == "dsp" && $6 == "" && $7 == 0.5 && $10 == 2 &&
    $20 == "converged" && $21 == it { ok = 1 } END { exit !ok }' "$tmp/mu-runs.csv" 2> /dev/null
check sweep_tui_r_runlog $? "the run log of the TUI opened by r lacks the cell's run (threads 2, mu 0.5, tau empty, $it iterations): $(cat "$tmp/mu-runs.csv" 2> /dev/null)"

# r where the sweep's network is gone: said on the viewer's bottom line, the viewer kept
mkdir "$tmp/gone"
cp "$SF" "$tmp/gone/g_net.tntp"
cp "${SF%_net.tntp}_trips.tntp" "$tmp/gone/g_trips.tntp"
"$D" sweep --net "$tmp/gone/g_net.tntp" --scenarios 1 --seed 2 --tau 10 --filter dsp --solver newton --out "$tmp/swg" --quiet > /dev/null 2>&1
rm "$tmp/gone/g_net.tntp"
viewer gone 140x45 "$tmp/swg" --no-runlog --no-config
wait_for '^all cells|^not converged' 10
$T send-keys -t gone a r
wait_for "^r: cannot open the cell as a run: $tmp/gone/g_net.tntp: No such file or directory" 5
r1=$?
$T send-keys -t gone q
wait_for 'EXIT=0' 5
check sweep_tui_r_network_gone $((r1 + $?)) "r with the network gone did not say so and keep the viewer"
exit 0
