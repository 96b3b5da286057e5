#!/bin/sh
# t_tui_numbers.sh - numbers the TUI shows against what `dillsue solve`
# prints for the same run (from a review of "every number on screen can be
# reproduced from the command line"), in a private tmux server:
# - Eastern Massachusetts: the arrivals sum to 1.2e-10 above the demand; the
#   details' certificate read "lost demand -1.16e-10 of 65576.4" where solve
#   prints "lost demand 0 of 65576.4";
TESTNAME=tui_numbers
. tests/tui_lib.sh

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
