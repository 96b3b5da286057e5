#!/bin/sh
# t_tui_ladder.sh - in a private tmux server: the solver ladder (l) after a
# queue of tau x solver, its table and grids, one cell against `dillsue
# solve` for the same settings, sideways scrolling at 80x24 and Tab (every
# run); opening a sweep directory from the main screen (O): a missing path,
# a plain file and a FIFO only give a message (the screen keeps answering),
# a real sweep shows in the viewer and Escape comes back to the runs, r on
# a cell starts it as a run with the sweep's flows, bit for bit; the
# mouse (M on): a click on a run row selects it, a click on a legend entry
# hides that run's curve (tmux passes SGR mouse sequences through); a
# during a run's set-up (Berlin-Center) cancels it.
TESTNAME=tui_ladder
. "$(dirname "$0")/tui_lib.sh"

# --- the ladder: queue tau 3,10 x every solver at 160x48 ---------------------
start main 160x48 --net "'$NET'" --ascii --runlog "'$TMP/runs.csv'" --threads 1
check tui_ladder_start $? "the screen did not come up"
typed i 300
typed e 1e-4
typed Q "tau 3,10 solver bad"
wait_for main 'queue: unknown solver .*got "bad"; unchanged' 3
check tui_ladder_queue_bad_solver $? "a bad solver name in the queue was not refused"
typed Q "tau 3,10 solvers"
wait_for main '^#8 (converged|max-iter)' 90
r1=$?
keys l
wait_for main 'runs of queue 1 \(8\)' 3
check tui_ladder_queue_product $((r1 + $?)) "tau 3,10 solvers did not queue and run 8 runs"
wait_for main 'solver ladder' 3
r1=$?
# the three grids side by side at 160 columns: rows tau 3 and 10, columns msa sra anderson newton
wait_all main 3 'outer iterations +evaluations +time to tol' 'tau +msa +sra +anderson +newton +tau +msa' \
    '^x.3 +\(300\) +[0-9]+ +[0-9]+ +[0-9]+ +3 ' '^x.10 +\(300\) +[0-9]+ +[0-9]+ +[0-9]+ +10 '
check tui_ladder_grid $((r1 + $?)) "no tau x solver grids side by side (msa in parentheses: not converged)"
# one cell against dillsue solve with the same settings: newton at tau 10
"$PROG" solve --net "$NET" --tau 10 --solver newton --tol 1e-4 --max-iter 300 --threads 1 > "$TMP/solve.txt" 2> "$TMP/solve.err"
it=$(sed -n 's/^converged | iterations \([0-9]*\) | gap_rel \([^ ]*\) .*/\1/p' "$TMP/solve.txt")
gap=$(sed -n 's/^converged | iterations \([0-9]*\) | gap_rel \([^ ]*\) .*/\2/p' "$TMP/solve.txt")
ev=$(sed -n 's/.*| evals \([0-9]*\) | J\*v \([0-9]*\) |.*/\1/p' "$TMP/solve.err")
jv=$(sed -n 's/.*| evals \([0-9]*\) | J\*v \([0-9]*\) |.*/\2/p' "$TMP/solve.err")
[ -n "$it" ] && [ -n "$ev" ] && screen main | grep -Eq "#8 +newton +full +10 +converged +$it +$ev +$jv +[0-9.]+ [mu]?s +[0-9.]+ [mu]?s +$gap "
check tui_ladder_cell_equals_solve $? "row #8 differs from dillsue solve (iterations $it evals $ev J*v $jv gap_rel $gap)"
screen main | grep -Eq "^x.10 +\([0-9]+\) +[0-9]+ +[0-9]+ +$it +10 +\([0-9]+\) +[0-9]+ +[0-9]+ +$ev "
check tui_ladder_grid_equals_solve $? "the grid's newton/tau 10 cells are not $it iterations and $ev evaluations"
keys Tab
wait_for main 'every run of the session \(8\)' 3
r1=$?
keys Tab
wait_for main 'runs of queue 1 \(8\)' 3
check tui_ladder_tab $((r1 + $?)) "Tab does not switch between the queue and every run"
keys Escape
# a run by hand is not in the queue's ladder, but in every run's
keys r
wait_for main '^#9 (converged|max-iter)' 30
keys l
wait_for main 'runs of queue 1 \(8\)' 3
r1=$?
keys Tab
wait_for main '#9 +newton' 3
check tui_ladder_hand_run $((r1 + $?)) "the ladder lists a hand-started run under the queue, or not under every run"
keys Escape
keys q
wait_for main '^EXIT=0' 10
# the run log: queue 1 for runs 1-8, 0 for run 9; run 8's evals and J*v as solve printed them
awk -F, 'NR > 1 { print $1, $(NF - 6), $(NF - 5), $(NF - 4) }' "$TMP/runs.csv" > "$TMP/q.txt"
[ "$(awk '$4 == 1' "$TMP/q.txt" | wc -l)" -eq 8 ] && grep -qx '9 [0-9]* [0-9]* 0' "$TMP/q.txt" &&
    grep -qx "8 $ev $jv 1" "$TMP/q.txt"
check tui_ladder_runlog $? "run log lacks queue 1 on runs 1-8, 0 on run 9, or run 8's evals $ev J*v $jv"

# --- 80x24: the table scrolls sideways and down ------------------------------
start small 80x24 --net "'$NET'" --ascii --no-runlog --threads 1
typed i 300
typed e 1e-4
typed Q "tau 1,3,10,30,100 solvers"
wait_for small '^#20 (converged|max-iter)' 90
keys l
wait_for small 'solver ladder .*Left/Right: columns 1-76 of' 3
r1=$?
keys Right
wait_for small 'Left/Right: columns 9-84 of' 3
r2=$?
keys Left
wait_for small 'Left/Right: columns 1-76 of' 3
check tui_ladder_80x24_sideways $((r1 + r2 + $?)) "at 80x24 the ladder does not scroll sideways"
wait_for small '^x.tau +msa +sra +anderson +newton' 3
r1=$?
keys End
wait_for small '#20 +newton +full +100 ' 3
check tui_ladder_80x24 $((r1 + $?)) "at 80x24 the ladder lacks its grid or its last row"
# scrolled to the end, the table's header stays above its rows
screen small | sed -n 3p | grep -Eq 'run +solver +filter +tau +status +outer +evals +J\*v'
check tui_ladder_80x24_header_pinned $? "the table header is not pinned once the table scrolls"
keys Escape
keys q

# --- O: a sweep directory from the main screen --------------------------------
start sw 120x40 --net "'$NET'" --ascii --no-runlog
typed O "$TMP/none"
wait_for sw "cannot open the sweep: .*none: no sweep here \\(No such file or directory\\)" 3
check tui_ladder_sweep_missing $? "a missing directory was not reported"
: > "$TMP/plain"
typed O "$TMP/plain"
wait_for sw "cannot open the sweep: .*plain: no sweep here \\(not a directory\\)" 3
check tui_ladder_sweep_file $? "a plain file was not refused as not a directory"
mkdir "$TMP/fifo"
mkfifo "$TMP/fifo/sweep.conf"
typed O "$TMP/fifo"
wait_for sw "cannot open the sweep: .*sweep.conf: not a regular file" 3
r1=$?
keys 3
wait_for sw 'tau = 10 for the next run' 3
check tui_ladder_sweep_fifo $((r1 + $?)) "a FIFO as sweep.conf blocked the screen or was not refused"
"$PROG" sweep --net "$NET" --scenarios 2 --seed 3 --tau 3 --filter full --solver newton --out "$TMP/sweep" \
    --flows --quiet > /dev/null 2>&1
typed O "$TMP/sweep"
wait_for sw "dillsue sweep +$TMP/sweep" 5
r1=$?
wait_for sw '2/2 .*100.0%' 5
r2=$?
wait_for sw 'q or Escape: back to the runs' 3
check tui_ladder_sweep_opens $((r1 + r2 + $?)) "the sweep viewer did not show the sweep (2 of 2 cells)"
keys Escape
wait_for sw "back from the sweep in $TMP/sweep" 3
r1=$?
wait_for sw 'runs \(0\)' 3
check tui_ladder_sweep_back $((r1 + $?)) "Escape did not come back to the runs screen"
keys O
wait_for sw "sweep directory .*: $TMP/sweep" 3
check tui_ladder_sweep_remembers $? "O does not offer the last sweep directory"
# r on a cell: back on the runs screen with the cell as run #1 (its scenario's
# network, the sweep's iterations), F offering the sweep's flows: equal
keys Enter
wait_for sw '^not converged: 0' 5
keys a Enter
wait_for sw 'reproduce:' 3
cell=$(screen sw | sed -n 's/^cell \([0-9]*\): k \([0-9]*\) tau 3 full newton$/\1 \2/p' | head -n 1)
set -- $cell
it=$(awk -F, -v c="$1" '$1 == c {print $(NF-12)}' "$TMP/sweep/cells.csv")
keys r
wait_for sw "^.> +1 +SiouxFalls~k$2/3 +newton +full +3 .* $it +[0-9.e+-]+ +converged " 20
check tui_ladder_sweep_cell_run $? "r on cell $1 (scenario $2) did not start it as run #1 with its $it iterations"
keys F
wait_for sw "reference flows .*: $TMP/sweep/flows/k000$2_tau3_full_newton.csv" 3
r1=$?
keys Enter
wait_for sw 'max abs diff: +0( |$)' 5
check tui_ladder_sweep_cell_flows $((r1 + $?)) "F did not offer the cell's flow file, or the flows differ"
keys Escape
keys q
wait_for sw '^EXIT=0' 5
check tui_ladder_sweep_quit $? "q after the sweep viewer did not quit with status 0"

# --- mouse: click a run row, click a legend entry ----------------------------
start mo 120x40 --net "'$NET'" --ascii --no-runlog --threads 1
keys r
wait_for mo '^#1 converged' 30
keys 2
keys r
wait_for mo '^#2 converged' 30
keys M
wait_for mo 'mouse on' 3
y=$(screen mo | grep -nE '^x.{1,4}1 +SiouxFalls' | cut -d: -f1)
# SGR mouse (1006): ESC [ < button ; column ; row M (press) / m (release), 1-based
[ -n "$y" ] && $T send-keys -t mo -l "$(printf '\033[<0;10;%sM\033[<0;10;%sm' "$y" "$y")"
wait_for mo '^x>  1 +SiouxFalls' 3
check tui_ladder_mouse_select $? "a click on run #1's row (line $y) did not select it"
ly=$(screen mo | grep -n ' tol .*#1 ' | cut -d: -f1)
lx=$(screen mo | sed -n "${ly:-1}p" | awk '{ print index($0, "#1 ") }')
[ -n "$ly" ] && $T send-keys -t mo -l "$(printf '\033[<0;%s;%sM\033[<0;%s;%sm' "$lx" "$ly" "$lx" "$ly")"
wait_for mo '^x> -1 +SiouxFalls' 3
check tui_ladder_mouse_legend $? "a click on the legend entry #1 (at $lx,$ly) did not hide run #1's curve"
keys M
wait_for mo 'mouse off' 3
keys q

# --- a during set-up (Berlin-Center, dsp: about 2 s of set-up, then well posed):
# the cancel is sent while setting up and the run ends cancelled ---------------
BER="$DIR/Berlin-Center/berlin-center_net.tntp"
case "$BER" in /*) ;; *) BER="$PWD/$BER" ;; esac
if [ -r "$BER" ]; then
    start ber 80x24 --net "'$BER'" --no-runlog --delay 50 --filter dsp
    keys r
    wait_for ber '^#1 setting up' 10
    r1=$?
    keys a
    # the request's message, or already the end: the DAGs stop at the next destination
    wait_for ber 'run #1: cancel requested \(set-up stops at its next destination\)|run #1 cancelled: 0 iterations' 3
    r2=$?
    wait_for ber '^#1 cancelled' 60
    check tui_ladder_abort_in_setup $((r1 + r2 + $?)) "a during set-up was not sent, or the run did not end cancelled"
    keys q
else
    echo "SKIP tui_ladder_abort_in_setup: $BER missing"
fi
exit 0
