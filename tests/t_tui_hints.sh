#!/bin/sh
# t_tui_hints.sh - what the review of the TUI found, in a private tmux server:
# hints on screen name the keys in force (bind.details, bind.compare,
# bind.warm_from, bind.filter); the legend keeps "+N more" beside
# "(thinned)"; a retired (thinned) run's safeguards "last20" column is still
# over its last 20 records; an ill-posed full-graph run's details say what to
# do (the acyclic filters), as `dillsue solve` does, and its side panels say
# it ended before its first iterate (not "no step yet").
TESTNAME=tui_hints
. "$(dirname "$0")/tui_lib.sh"

# --- hints name the bound keys ----------------------------------------------
CFG="$TMP/hints.conf"
printf 'bind.details=V\nbind.compare=K\nbind.warm_from=Y\nbind.filter=y\n' >"$CFG"
start main 120x40 --net "'$NET'" --solver msa --ascii --no-runlog --config "'$CFG'"
check tui_hints_start $? "the screen did not come up"
typed i 5
keys r
wait_for main 'run #1 max-iter.*\(V: why\)' 10
check tui_hints_why_key $? "the end of a run that did not converge does not name bind.details (V)"
keys K
wait_for main 'mark one more with K to compare' 3
check tui_hints_compare_key $? "the first compare mark does not name bind.compare (K)"
keys w
wait_for main 'warm start on: from the flows of run #1 \(Y chooses another\)' 3
check tui_hints_warm_key $? "warm start on does not name bind.warm_from (Y)"
keys Tab; keys Tab
wait_for main '\(y cycles the filter\)' 3
check tui_hints_filter_key $? "the mask panel does not name bind.filter (y)"
keys q
wait_for main 'EXIT=0' 5

# --- legend: "+N more" and "(thinned)" side by side ---------------------------
# 21 runs (the first, sra/edsp at tau 30, has 1222 records: retired, thinned)
start leg 80x24 --net "'$NET'" --solver sra --ascii --no-runlog --no-config
keys f; keys f; keys f; keys 4
keys r
wait_for leg '^#1 converged' 30
check tui_hints_run1 $? "run #1 (sra/edsp tau 30) did not converge"
wait_for leg 'safeguards #1' 3 # the side panel at 80x24
before=$(screen leg | sed -n 's/.*halvings (all) *[0-9]* *\([0-9]*\).*/\1/p' | head -1)
typed i 20
typed Q 'tau 1,3 solvers'
wait_for leg 'queue 8/8' 30
keys r # the tenth run: run #1 is retired (the 8 latest keep their history)
wait_for leg 'run #10 ' 10
sleep 1
i=0; while [ $i -lt 10 ]; do keys Up; i=$((i + 1)); done
wait_for leg 'safeguards #1' 3
after=$(screen leg | sed -n 's/.*halvings (all) *[0-9]* *\([0-9]*\).*/\1/p' | head -1)
[ -n "$before" ] && [ "$before" = "$after" ]
check tui_hints_last20_retired $? "last20 halvings of run #1 changed when it was retired: '$before' -> '$after'"
# ("(thinned)" was written over "+N more" where both fit after the last entry)
screen leg | grep -Eq -- '-? tol .*\+[0-9]+ more'
check tui_hints_legend_more $? "the legend lost '+N more' (under '(thinned)')"
keys q
wait_for leg 'EXIT=0' 5

# --- the header names the focused run's network, and the next runs' where
# `n` opened another (line 1 named the new network over line 2's old run)
BRN="$DIR/Braess-Example/Braess_net.tntp"
case "$BRN" in /*) ;; *) BRN="$PWD/$BRN" ;; esac
if [ -r "$BRN" ]; then
    start hdr 160x40 --net "'$NET'" --no-runlog --no-config
    keys r
    wait_for hdr '^#1 converged' 30
    r1=$?
    typed n "$BRN"
    wait_for hdr 'next runs: Braess' 5
    r2=$?
    screen hdr | head -n 1 | grep -q '^dillsue SiouxFalls: 24 nodes.*next runs: Braess'
    check tui_hints_header_run_network $((r1 + r2 + $?)) "after n, line 1 does not name run #1's network and the next runs': $(screen hdr | head -n 2)"
    # at 80 columns too (the end of the line, where it was, is cut off there)
    $T resize-window -t hdr -x 80 -y 24
    wait_for hdr '^dillsue SiouxFalls: 24 nodes.*next runs: Braess' 3
    check tui_hints_header_next_80 $? "at 80x24 line 1 does not name the next runs' network: $(screen hdr | head -n 1)"
    keys q
    wait_for hdr 'EXIT=0' 5
else
    skip tui_hints_header_run_network "$BRN missing"
fi

# --- ill-posed: what to do -----------------------------------------------------
CHI="$DIR/Chicago-Sketch/ChicagoSketch_net.tntp"
case "$CHI" in /*) ;; *) CHI="$PWD/$CHI" ;; esac
if [ -r "$CHI" ]; then
    start chi 80x24 --net "'$CHI'" --no-runlog --no-config
    keys r
    wait_for chi '^#1 ill-posed' 60
    r1=$?
    # the side panels of a run that ended before its first iterate say so (they
    # read "no step yet", "stall test after 50 it", "no iterate published yet"),
    # and the mask panel's text is wrapped, not cut ("the mask is fixe>")
    wait_for chi 'ended ill-posed before its' 3 && ! screen chi | grep -q 'no step yet'
    r2=$?
    keys Tab Tab
    wait_for chi 'filter full: the mask is +(│|x)$' 3 && wait_for chi 'fixed\. +(│|x)$' 1
    r3=$?
    keys Tab
    wait_for chi 'links .*#1' 3 && wait_for chi 'ended ill-posed before its' 3 &&
        ! screen chi | grep -Eq 'no iterate published yet|stall test after'
    check tui_hints_illposed_panels $((r1 + r2 + r3 + $?)) "the side panels of an ill-posed run without an iterate do not say it ended"
    keys v
    wait_for chi 'what to do: the acyclic filters \(dsp, bfs, edsp: f\)' 5
    r2=$?
    # no steps line made of separators ("steps: | halvings 0 | evals 0 ..."; solve prints none)
    wait_for chi 'steps: none \(the run ended before its first iterate\)' 3 && ! screen chi | grep -q 'steps: |'
    check tui_hints_illposed_remedy $((r1 + r2 + $?)) "an ill-posed full-graph run's details do not say what to do, or list empty steps"
    keys q
else
    skip tui_hints_illposed_remedy "$CHI missing"
fi
