#!/bin/sh
# t_tui_numbers.sh - numbers the TUI shows against what `dillsue solve`
# prints for the same run (from a review of "every number on screen can be
# reproduced from the command line"), in a private tmux server:
# - Eastern Massachusetts: the arrivals sum to 1.2e-10 above the demand; the
#   details' certificate read "lost demand -1.16e-10 of 65576.4" where solve
#   prints "lost demand 0 of 65576.4";
# - a run that ends in error after iterations (inner passes that run out):
#   solve writes no flows for it, and `x` exported them;
# - MSA from 4 x capacity on Sioux Falls at tau 0.3 converges with gap_rel
#   9.999685e-08 at tol 1e-07: the screen read "gap 1.00e-07", the reason
#   "gap_rel 1e-07 < tol 1e-07" and solve's last iteration "gap_rel
#   1.000e-07";
# - the run list's tol column (%.1e) showed tol 1.25e-07 as 1.3e-07;
# - the links panel said "no stall (2x better in 50 it)" for a converged run
#   of 10 iterations, which never had the 50-iteration test;
# - at 80x24 a run's time of 8 characters ("858.5 ms") stood out of its
#   column, and a network name cut to the column had no '>'; the timings
#   panel's rows were all cut at 80x24.
TESTNAME=tui_numbers
. "$(dirname "$0")/tui_lib.sh"

# --- the stall line of a short converged run ----------------------------------
start conv 200x60 --net "'$NET'" --ascii --no-runlog --no-config
keys r
wait_for conv 'run #1 converged' 20
check tui_numbers_conv_run $? "run #1 (newton full tau 10) did not converge"
wait_for conv 'links \|x-f\(x\)\| #1' 3
! screen conv | grep -q 'no stall (2x better in 50 it)'
check tui_numbers_no_stall_claim $? "a converged run of 10 iterations claims a 50-iteration stall test"
keys q
wait_for conv 'EXIT=0' 5

# --- the run list's tolerance as typed (it printed tol 1.25e-07 as 1.3e-07) ----
start tol 120x40 --net "'$NET'" --solver msa --ascii --no-runlog --no-config
typed e 1.25e-7
typed i 3
keys r
wait_for tol 'run #1 max-iterations' 10
check tui_numbers_tol_run $? "run #1 (msa, 3 iterations) did not end at max-iter"
screen tol | grep -Eq '^.>  1  SiouxFalls msa +full +10 cpu +1\.25e-07 +3 '
check tui_numbers_tol_column $? "the run list does not show tol 1.25e-07 as typed"
keys q
wait_for tol 'EXIT=0' 5

# --- the run list at 80x24: the time column under its header, a cut name says so --
# (a time of 8 characters, "858.5 ms", stood one column right of the others
# and of "time"; a network name was cut to 13 characters with nothing to say
# so: "SiouxFalls~k2" for the scenario ~k2/1)
LONG="$TMP/SiouxFallsDowntownAndSuburbs"
cp "$NET" "${LONG}_net.tntp" && cp "${NET%_net.tntp}_trips.tntp" "${LONG}_trips.tntp" && cp "$FLOWREF" "${LONG}_flow.tntp"
start cols 80x24 --net "'${LONG}_net.tntp'" --solver msa --ascii --no-runlog --no-config
typed i 3000
keys r
wait_for cols 'run #1 max-iterations' 20
check tui_numbers_cols_run $? "run #1 (msa, 3000 iterations) did not end at max-iter"
hdr=$(screen cols | grep -m1 '   # network ')
row=$(screen cols | grep -m1 '^.>  1 ')
he=$(printf '%s\n' "$hdr" | awk '{ print index($0, "time") + 3 }')
re=$(printf '%s\n' "$row" | awk '{ if (match($0, /[0-9] (us|ms|min|s)/)) print RSTART + RLENGTH - 1 }')
[ -n "$re" ] && [ "$he" = "$re" ]
check tui_numbers_cols_time_aligned $? "the time ends at column $re, its header at $he"
printf '%s\n' "$row" | grep -Eq '^.>  1 SiouxFallsDo> msa '
check tui_numbers_cols_name_cut $? "the cut network name does not end in '>'"
# the safeguards panel's last step at 80x24: wrapped, its evaluations shown
# (it was cut: "last: msa a=0.000333 inner 1/>")
wait_for cols 'last: msa a=[0-9.e-]+ inner 1/1' 3 && wait_for cols '(│|x)evals 3001 ' 1
check tui_numbers_cols_last_step $? "the safeguards panel's last step is cut at 80x24"
# the timings panel at 80x24 (30 columns): every row whole, with its share
# (each was cut: "bellman 355.0 ms   2.1 ms >", the % column gone)
keys Tab
wait_for cols 'timings #1' 3 && wait_for cols 'bellman +[0-9.]+ [mu]?s +[0-9.]+ [mu]?s +[0-9]+%' 3 &&
    wait_for cols 'phases +[0-9.]+ [mu]?s, run [0-9.]+ [mu]?s' 1 && ! screen cols | grep -q 'last it *>'
check tui_numbers_cols_timings $? "the timings panel's rows are cut at 80x24"
# F's view at 80 columns: the reference's path whole on a line (the view's text
# was wrapped at half a line, splitting the path: ".../SiouxFallsDownt" / "ownAndSuburbs_flow.tntp")
if [ ${#LONG} -lt 60 ]; then
    keys F
    wait_for cols 'reference flows' 3
    keys Enter
    wait_for cols 'flows against a reference' 5 && screen cols | grep -qF "${LONG}_flow.tntp"
    check tui_numbers_cols_reference_path $? "the F view splits the path ${LONG}_flow.tntp"
    keys Escape
fi
keys q
wait_for cols 'EXIT=0' 5

# --- gap_rel on the right side of the tolerance ---------------------------------
CFG="$TMP/msa.conf"
printf 'start=capacity\n' >"$CFG"
"$PROG" solve --net "$NET" --tau 0.3 --solver msa --start capacity >"$TMP/msa.out" 2>"$TMP/msa.err"
rc=$?
gap=$(sed -n 's/^converged | iterations 7328 | gap_rel \([^ ]*\) .*/\1/p' "$TMP/msa.out")
if [ $rc -ne 0 ] || [ "$gap" != "9.999685e-08" ]; then
    echo "SKIP tui_numbers_tol_side: the run no longer ends at 9.999685e-08 (rc $rc, gap '$gap')"
else
    ! grep -q 'gap_rel 1e-07 < tol' "$TMP/msa.out"
    check tui_numbers_solve_reason $? "solve's reason reads 'gap_rel 1e-07 < tol 1e-07': $(cat "$TMP/msa.out")"
    tail_it=$(grep '^iter  *7328 ' "$TMP/msa.err")
    printf '%s\n' "$tail_it" | grep -q 'gap_rel 9\.9997e-08'
    check tui_numbers_solve_iter_line $? "solve's last iteration line is '$tail_it'"
    start msa 120x40 --net "'$NET'" --tau 0.3 --solver msa --ascii --no-runlog --config "'$CFG'"
    keys r
    wait_for msa 'run #1 converged' 30
    check tui_numbers_msa_run $? "run #1 (msa from capacity) did not converge"
    ! screen msa | grep -q 'gap 1\.00e-07' && screen msa | grep -q 'run #1 converged: 7328 iterations, gap 9\.9997e-08'
    check tui_numbers_tui_gap $? "the end of a run with gap_rel 9.999685e-08 < tol 1e-07 reads as gap 1.00e-07"
    keys v
    wait_for msa 'reason: gap_rel 9\.9997e-08 < tol 1e-07 after 7328' 3
    check tui_numbers_tui_reason $? "the details' reason does not say gap_rel 9.9997e-08 < tol 1e-07"
    keys Escape
    keys q
    wait_for msa 'EXIT=0' 5
fi

# --- an error after iterations has no flows, as in solve ------------------------
CFG="$TMP/passes.conf"
printf 'inner=passes\ninner_max=2\n' >"$CFG"
"$PROG" solve --net "$NET" --tau 0.3 --inner passes --inner-max 2 --out "$TMP/solve-err.csv" >"$TMP/err.out" 2>"$TMP/err.err"
rc=$?
if [ $rc -ne 2 ] || ! grep -q '^error | iterations [1-9]' "$TMP/err.out"; then
    echo "SKIP tui_numbers_error_flows: the run no longer ends in error after iterations (rc $rc)"
else
    [ ! -e "$TMP/solve-err.csv" ] && grep -q 'no flows written' "$TMP/err.err"
    check tui_numbers_solve_error_noflows $? "solve wrote flows for a run that ended in error"
    start err 120x40 --net "'$NET'" --tau 0.3 --ascii --no-runlog --config "'$CFG'"
    keys r
    wait_for err 'run #1 error' 20
    check tui_numbers_error_run $? "run #1 (inner passes 2) did not end in error"
    keys x
    wait_for err 'run #1 has no flows \(error\)' 3
    check tui_numbers_error_noexport $? "x offered to export the flows of a run that ended in error"
    keys Escape
    keys q
    wait_for err 'EXIT=0' 5
fi

# --- lost demand as solve prints it (never negative) --------------------------
EMA="$DIR/Eastern-Massachusetts/EMA_net.tntp"
if [ ! -r "$EMA" ]; then
    echo "SKIP tui_numbers_ema_lost: $EMA missing"
else
    "$PROG" solve --net "$EMA" --quiet >"$TMP/ema.out" 2>&1
    want=$(sed -n 's/^certificate | \(lost demand [^|]*\) |.*/\1/p' "$TMP/ema.out")
    case "$EMA" in /*) ;; *) EMA="$PWD/$EMA" ;; esac
    start ema 200x60 --net "'$EMA'" --ascii --no-runlog --no-config
    keys r
    wait_for ema 'run #1 converged' 30
    check tui_numbers_ema_run $? "run #1 on EMA did not converge"
    keys v
    wait_for ema 'certificate: lost demand' 3
    got=$(screen ema | sed -n 's/.*certificate: \(lost demand [^|]*\) |.*/\1/p' | head -1)
    [ -n "$want" ] && [ "$got" = "$want" ]
    check tui_numbers_ema_lost $? "details '$got', solve '$want'"
    keys Escape
    keys q
    wait_for ema 'EXIT=0' 5
fi
exit 0
