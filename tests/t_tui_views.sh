#!/bin/sh
# t_tui_views.sh - the TUI's views and the keys the first script does not
# press, in a private tmux server: run details (reason, certificate, engine
# times), message log, settings view (every solve option, validated, saved),
# flow comparison against a reference file with the numbers `dillsue compare`
# prints, the queue, pause (the engine clock stops), abort, warm start from a
# chosen run, re-run and copy, filter/backend/tolerance/threads keys, glyphs,
# x axis, Tab, bell, mouse, the run log written on x and on quit, and the time
# on screen against the engine's with --delay 1000.
TESTNAME=tui_views
. "$(dirname "$0")/tui_lib.sh"

LOG="$TMP/runs.csv"
start main 120x40 --net "'$NET'" --solver sra --ascii --delay 1000 --runlog "'$LOG'"
check tui_views_start $? "the screen did not come up"

# --- time shown against the engine's, with --delay 1000 -----------------------
keys r
wait_for main '^#1 converged' 30
check tui_views_run1 $? "run #1 did not converge"
hdr=$(screen main | sed -n 's/^#1 converged.*| \([0-9.]* [mu]*s\)$/\1/p')
keys v
wait_for main 'run #1 details' 5
r1=$?
det=$(screen main | sed -n 's/.*time (engine clock, pauses excluded): \([0-9.]* [mu]*s\),.*/\1/p')
[ -n "$hdr" ] && [ "$hdr" = "$det" ]
check tui_views_time_header_is_engine $((r1 + $?)) "header time '$hdr' differs from the engine time in the details '$det'"
# the old screen clock added the refresh delay: a 100 ms run read 1.00 s
# (only where the engine itself took under a second: under ThreadSanitizer on a
# loaded machine run #1 takes 1.0-2.3 s of engine time)
case "$det" in
*" ms"|*" us")
    case "$hdr" in *" ms"|*" us") r1=0 ;; *) r1=1 ;; esac
    check tui_views_time_without_delay $r1 "header time '$hdr' is not below a second with --delay 1000 (screen clock?)" ;;
*) skip tui_views_time_without_delay "run #1 took $det on the engine clock (a slow build or machine)" ;;
esac

# --- details: reason, certificate, settings, start ----------------------------
s=$(screen main)
printf '%s\n' "$s" | grep -q 'reason: gap_rel .* < tol' && printf '%s\n' "$s" | grep -q 'certificate: lost demand 0 of' &&
    printf '%s\n' "$s" | grep -q 'settings: tau 10 | full | sra' && printf '%s\n' "$s" | grep -q 'start: auto'
check tui_views_details $? "details view lacks the reason, certificate, settings or start"
printf '%s\n' "$s" | grep -Eq 'mean trip: [0-9.e+]+ links, [0-9.e+]+ x cbar' && ! printf '%s\n' "$s" | grep -q 'routes with cycles'
check tui_views_details_mean_trip $? "details view lacks the mean trip (or says cycles): $(printf '%s\n' "$s" | grep 'mean trip')"
keys End
wait_for main 'messages of run #1' 3
r1=$?
wait_for main 'setting up: start point' 3
check tui_views_details_messages $((r1 + $?)) "details do not end with the run's messages (set-up steps)"
keys Escape

# --- message log with times ----------------------------------------------------
keys L
wait_for main 'message log' 3
r1=$?
screen main | grep -Eq '[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} #1 +run #1 converged after'
check tui_views_log $((r1 + $?)) "message log lacks a timestamped completion line"
keys PPage; keys NPage; keys Home
wait_for main '[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} +SiouxFalls loaded' 3
check tui_views_log_scroll $? "Home in the log does not show the first message"
keys Escape

# --- settings view: every solve option, validated, typed and cycled -------------
keys s
wait_for main 'settings of the next run' 3
r1=$?
n=0
for o in tau mu filter solver tol max_iter threads backend cap toll_factor distance_factor inner inner_max \
    edsp_refresh edsp_damping globalise start; do
    screen main | grep -Eq "^.{0,3}[ >] $o " || { n=$((n + 1)); echo "    missing setting $o"; }
done
check tui_views_settings_all $((r1 + n)) "$n solve options missing from the settings view"
# down to inner (row 12), cycle it to passes, then edsp_damping: 2 is refused, 0.5 taken
i=0; while [ $i -lt 11 ]; do keys Down; i=$((i + 1)); done
keys Right
wait_for main 'inner = passes' 3
check tui_views_settings_cycle $? "Right on inner did not cycle to passes"
keys Down; keys Enter; keys C-u; $T send-keys -t main -l -- "7"; keys Enter
wait_for main 'inner_max = 7' 3
check tui_views_settings_type $? "typed inner_max 7 not taken"
keys Down; keys Down; keys Enter; keys C-u; $T send-keys -t main -l -- "2"; keys Enter
wait_for main 'edsp_damping must be in \(0, 1\], got "2"; unchanged' 3
check tui_views_settings_validated $? "edsp_damping 2 was not refused with solve's rule"
keys S
wait_for main 'settings saved to' 3
r1=$?
# (edsp_damping stayed at its default: written as a commented line, so that the
# file does not pin today's default)
grep -qx 'inner=passes' "$XDG_CONFIG_HOME/dillsue/config" && grep -qx 'inner_max=7' "$XDG_CONFIG_HOME/dillsue/config" &&
    grep -qx '#edsp_damping=1' "$XDG_CONFIG_HOME/dillsue/config"
check tui_views_settings_saved $((r1 + $?)) "S in the settings view did not save inner=passes, inner_max=7, #edsp_damping=1"
rm -f "$XDG_CONFIG_HOME/dillsue/config" # the later sessions start from the defaults
keys Escape

# --- re-run with inner passes 7: the run's settings show them --------------------
keys r
wait_for main '^#2 (converged|max-iter|ill-posed)' 30
keys v
wait_for main 'run #2 details' 3
r1=$?
wait_for main 'inner passes 7' 3
check tui_views_settings_used $((r1 + $?)) "run #2 did not run with inner passes 7"
keys Escape

# --- copy run 1's settings back (C), re-run run 1 (R) ----------------------------
keys k; keys C
wait_for main 'next run: the settings of run #1' 3
r1=$?
keys s
wait_for main '^.{0,3}  inner +direct' 3
r2=$?
keys Escape
check tui_views_copy $((r1 + r2)) "C did not copy run #1's settings (inner direct) into the next run"
keys R
wait_for main '^#3 converged' 30
check tui_views_rerun $? "R did not re-run run #1's settings as run #3"

# --- flows against a reference file: the numbers of dillsue compare ------------
keys x; keys C-u; $T send-keys -t main -l -- "$TMP/r3-flows.csv"; keys Enter
wait_for main 'run #3: flows ->' 5
r1=$?
[ -s "$LOG" ] && grep -q '^3,"SiouxFalls"' "$LOG"
check tui_views_runlog_on_export $((r1 + $?)) "x did not write the run log with run 3"
keys k
keys x; keys C-u; $T send-keys -t main -l -- "$TMP/r2-flows.csv"; keys Enter
wait_for main 'run #2: flows ->' 5
keys j
keys F; keys C-u; $T send-keys -t main -l -- "$TMP/r2-flows.csv"; keys Enter
wait_for main 'flows against a reference' 5
r1=$?
s=$(screen main)
"$PROG" compare "$TMP/r3-flows.csv" "$TMP/r2-flows.csv" > "$TMP/cmp.txt"
want_mape=$(sed -n 's/^MAPE: *\([^ ]*\) %.*/\1/p' "$TMP/cmp.txt")
want_r2=$(sed -n 's/^R^2: *//p' "$TMP/cmp.txt")
want_max=$(sed -n 's/^max abs diff: *//p' "$TMP/cmp.txt")
printf '%s\n' "$s" | grep -q "MAPE: *$want_mape %" && printf '%s\n' "$s" | grep -q "R^2: *$want_r2" &&
    printf '%s\n' "$s" | grep -q "max abs diff: *$want_max"
check tui_views_ref_equals_compare $((r1 + $?)) "screen numbers differ from dillsue compare (MAPE $want_mape R^2 $want_r2 max $want_max)"
keys Escape
keys F; keys C-u; $T send-keys -t main -l -- "$FLOWREF"; keys Enter
wait_for main 'MAPE: +[0-9.]+ % \(76 links' 5
r1=$?
screen main | grep -q 'links that differ most'
check tui_views_ref_tntp $((r1 + $?)) "no comparison against the TNTP _flow.tntp reference"
keys Escape
keys F; keys C-u; $T send-keys -t main -l -- "$TMP/none.csv"; keys Enter
wait_for main 'cannot read the reference: .*none.csv' 3
check tui_views_ref_missing $? "a missing reference file was not reported with its name"

# --- warm start from a chosen run (W), shown in the run list ---------------------
typed W 9
wait_for main 'warm start: a run number 1..3' 3
check tui_views_warm_from_bad $? "W 9 was not refused"
typed W "$TMP/none.csv"
wait_for main 'warm start unchanged: .*none.csv' 3
check tui_views_warm_file_missing $? "a missing warm-start file was not reported with its name"
typed W "$TMP/r3-flows.csv"
wait_for main 'next: .*warm file r3-flows.csv' 3
check tui_views_warm_file $? "a flow CSV as the warm start (solve --warm) was not taken"
typed W 1
wait_for main 'warm start on: the next run starts from the flows of run #1' 3
r1=$?
wait_for main 'next: .*warm #1' 3
check tui_views_warm_from $((r1 + $?)) "W 1 not taken or the next: line does not name run #1"
keys r
wait_for main '^#4 converged' 30
r1=$?
wait_for main '^.> ?w ?4 .*warm #1' 3
check tui_views_warm_shown $((r1 + $?)) "run #4 is not shown as warm from #1"
keys w
wait_for main 'warm start off' 3
check tui_views_warm_toggle $? "w did not turn warm start off"

# --- pause: the engine clock stops; abort keeps the run as cancelled ------------
typed i 100000000
typed e 1e-300
keys m; keys m; keys m # sra -> anderson -> newton -> msa
keys r
wait_for main '^#5 running' 20
r1=$?
keys p
wait_for main '^#5 paused' 5
r2=$?
sleep 1.2
t1=$(screen main | sed -n 's/^#5 paused.*| \([0-9.]* [mu]*s\)$/\1/p')
sleep 2.5
t2=$(screen main | sed -n 's/^#5 paused.*| \([0-9.]* [mu]*s\)$/\1/p')
[ -n "$t1" ] && [ "$t1" = "$t2" ]
check tui_views_pause_stops_clock $((r1 + r2 + $?)) "paused run's time moved: '$t1' -> '$t2'"
keys p
wait_for main '^#5 running' 5
r1=$?
keys a
wait_for main '^#5 cancelled' 10
check tui_views_pause_abort $((r1 + $?)) "resume or abort did not work"

# --- queue: a tau ladder runs one after another ----------------------------------
typed i 300
typed e 1e-4
typed Q "tau 1,3,bad"
wait_for main 'queue: tau needs a decimal number, got "bad"' 3
check tui_views_queue_bad $? "a bad tau in the queue was not refused"
typed Q "tau 1,3,10"
wait_for main 'runs \(8\)' 60
r1=$?
wait_for main '^#8 (converged|max-iter)' 60
r2=$?
# (the selected row starts with >)
wait_all main 5 '^.[^0-9]{3}6 +SiouxFalls +msa +full +1 cpu' '^.[^0-9]{3}7 +SiouxFalls +msa +full +3 cpu' \
    '^.[^0-9]{3}8 +SiouxFalls +msa +full +10 cpu'
check tui_views_queue $((r1 + r2 + $?)) "the queue tau 1,3,10 did not become runs 6, 7, 8"

# --- the other keys: filter, backend, threads, tolerance, glyphs, x axis, Tab ----
keys f
wait_for main 'filter = dsp' 3
r1=$?
keys f; keys f; keys f
wait_for main 'next: tau 10 \| full \|' 3
check tui_views_filter_key $((r1 + $?)) "f does not cycle full -> dsp -> ... -> full"
keys b
wait_for main 'backend = cuda' 3
r1=$?
keys b
check tui_views_backend_key $r1 "b does not cycle the backend"
typed T 0
wait_for main 'threads = 0 \(all cores\)' 3
r1=$?
wait_for main 'thr all [0-9]' 3
check tui_views_threads_all $((r1 + $?)) "T 0 is not shown as all cores"
keys +
wait_for main 'threads = 1' 3
r1=$?
keys -
wait_for main 'threads = 0 \(all cores\)' 3
check tui_views_threads_keys $((r1 + $?)) "+ / - do not change the threads"
typed e -1
wait_for main 'tol must be in \(0, 1\), got "-1"; unchanged' 3
r1=$?
typed e 1e-6
wait_for main 'tol = 1e-06' 3
check tui_views_tol_key $((r1 + $?)) "e did not refuse -1 or take 1e-6"
keys g
wait_for main 'plot glyphs: braille' 3
r1=$?
keys g; keys g
wait_for main 'plot glyphs: ascii' 3
check tui_views_glyphs_key $((r1 + $?)) "g does not cycle braille, block, ascii"
keys X
wait_for main 'vs outer iteration \(log\)' 3
r1=$?
wait_for main 'logit ?.?0' 3
r2=$?
keys X
wait_for main 'vs loading-map evaluations' 3
r3=$?
keys X
wait_for main 'vs wall time \(engine\)' 3
r4=$?
keys X
wait_for main 'vs outer iteration qq|vs outer iteration -|vs outer iteration ' 3
check tui_views_xaxis $((r1 + r2 + r3 + r4 + $?)) "X does not cycle log iterations, evaluations, time"
s1=$(screen main | grep -c 'safeguards')
keys Tab
wait_for main 'timings #' 3
check tui_views_tab $? "Tab does not bring the next side panel"
keys B
wait_for main 'bell and terminal title when a run ends: on' 3
r1=$?
keys B
check tui_views_bell_toggle $r1 "B does not switch the bell"
keys M
wait_for main 'mouse on: click a run' 3
r1=$?
# a click on run #6's row selects it (tmux sends the click as a mouse event)
keys M
wait_for main 'mouse off' 3
check tui_views_mouse_toggle $((r1 + $?)) "M does not switch the mouse"
keys Space
wait_for main '^x>.-' 3
r1=$?
keys Space
keys C-l
check tui_views_show_key $r1 "Space did not hide the selected run"
keys 1; wait_for main 'tau = 1 for the next run' 3; r1=$?
keys 3; wait_for main 'tau = 10 for the next run' 3; r2=$?
keys 4; wait_for main 'tau = 30 for the next run' 3; r3=$?
keys 5; wait_for main 'tau = 100 for the next run' 3
check tui_views_tau_presets $((r1 + r2 + r3 + $?)) "1 / 3 / 4 / 5 did not set tau 1 / 10 / 30 / 100"
keys h; wait_for main 'keys( 1/[0-9])? \(' 3; r1=$?
keys Escape
keys F1; wait_for main 'keys( 1/[0-9])? \(' 3; r2=$?
keys Escape
wait_for main 'runs \(8\)' 3
check tui_views_help_keys $((r1 + r2 + $?)) "h or F1 did not open the help, or Esc did not close it"

# --- scenario K SEED (solve --scenario --seed): a perturbed copy becomes current
typed N "two 7"
wait_for main 'scenario: say K SEED .*got "two 7"; unchanged' 3
r1=$?
typed N "2 7"
wait_for main 'network SiouxFalls~k2/7: scenario 2 seed 7 of SiouxFalls, demand 360600 -> [0-9]' 3
r2=$?
wait_for main '^dillsue SiouxFalls: 24 nodes 76 links.*next runs: SiouxFalls~k2/7' 3
check tui_views_scenario $((r1 + r2 + $?)) "N did not refuse 'two 7' or make scenario 2 seed 7 current"

# --- quit writes the run log of all runs ------------------------------------------
keys q
wait_for main '^EXIT=0' 10
r1=$?
rows=$(($(wc -l < "$LOG") - 1))
head -1 "$LOG" | grep -q '^run,network,net_path,solver,filter,tau,mu,tol' && [ "$rows" -eq 8 ] &&
    grep -q '^5,.*,cancelled,' "$LOG" && ! ls "$TMP" | grep -q 'runs.csv.tmp'
check tui_views_runlog_on_quit $((r1 + $?)) "run log after quit: $rows rows (want 8, run 5 cancelled) or a temporary file left"
w1=$(awk -F, 'NR == 2 { print $23 }' "$LOG")
awk -v w="$w1" -v h="$hdr" 'BEGIN { split(h, a, " "); v = a[1] / (a[2] == "ms" ? 1e3 : a[2] == "us" ? 1e6 : 1);
    exit !(w > 0 && (v - w) < 0.051 * w + 1e-6 && (w - v) < 0.051 * w + 1e-6) }'
check tui_views_runlog_time $? "run log wall time $w1 s disagrees with the screen's '$hdr'"

# --- Chicago-Sketch at tau 10 is ill-posed: the reason in full, no nan ------------
CHI="$DIR/Chicago-Sketch/ChicagoSketch_net.tntp"
case "$CHI" in /*) ;; *) CHI="$PWD/$CHI" ;; esac
if [ -r "$CHI" ]; then
    start chi 80x24 --net "'$CHI'" --no-runlog
    keys r
    wait_for chi '^#1 ill-posed' 30
    r1=$?
    s=$(screen chi)
    printf '%s\n' "$s" | grep -q 'nan'
    r2=$((1 - $?))
    keys v
    wait_for chi 'reason: no fixed point exists' 5
    r3=$?
    screen chi | grep -q 'spectral radius'
    check tui_views_ill_posed_reason $((r1 + r2 + r3 + $?)) "no ill-posed reason in the details (or nan on screen)"
    keys q
else
    echo "SKIP tui_views_ill_posed_reason: $CHI missing"
fi
# --- markers: the eDSP mask refreshes of an sra/edsp run on the plot's top row --
start mk 120x40 --net "'$NET'" --solver sra --filter edsp --ascii --no-runlog
keys r
wait_for mk '^#1 converged' 30
r1=$?
wait_for mk 'vs outer iteration \| #1: R refresh N Newton rej\. A restart' 3
r2=$?
n=$(screen mk | sed -n 4p | cut -c8-88 | grep -o R | wc -l)
[ "$n" -ge 2 ]
check tui_views_markers $((r1 + r2 + $?)) "no eDSP refresh markers (R) on the plot's top row (found $n)"
keys q

# --- NO_COLOR with braille: an earlier run's curve carries its mark ------------
$T new-session -d -s nc -x 100 -y 30 -c "$PWD" \
    "LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_COLOR=1 TERM=xterm-256color '$PROG' tui --net '$NET' --solver msa --no-runlog; echo EXIT=\$?; sleep 60"
CUR=nc
wait_for nc 'runs \(0\)' 10
typed i 400
keys r
wait_for nc '^#1 max-iter' 30
keys 2
keys Enter # Enter starts a run too
wait_for nc '^#2 max-iter' 30
r1=$?
# braille is there, and run 1's mark o shows inside the plot area (rows 3-20, right of the axis)
plot=$(screen nc | sed -n '3,20p' | cut -c8-60)
# (braille is U+2800..U+28FF: bytes E2 A0..A3 xx, matched bytewise)
br="$(printf '\342')[$(printf '\240\241\242\243')]"
printf '%s\n' "$plot" | LC_ALL=C grep -q "$br" && [ "$(printf '%s\n' "$plot" | grep -o 'o' | wc -l)" -ge 3 ]
check tui_views_no_color_braille_marks $((r1 + $?)) "under NO_COLOR the earlier braille curve has no mark"
keys q

# --- Berlin-Center: set-up (about 2 s) runs on the engine thread, shown with
# its step and progress while the keys keep working ----------------------------
BER="$DIR/Berlin-Center/berlin-center_net.tntp"
case "$BER" in /*) ;; *) BER="$PWD/$BER" ;; esac
# --- node ids as the file numbers them: a network with sparse ids (1001,
# 75674, 2146237932) shows its links by those ids, not by index + 1 ----------
start sp 120x40 --net "'$PWD/tests/bad_input/sparse_ids.net.tntp'" --no-runlog --ascii
keys r
wait_for sp '^#1 converged' 20
r1=$?
keys v
wait_for sp 'run #1 details' 5
r2=$?
ids='(1001|1002|1003|75674|2146237932)'
screen sp | grep -Eq "v/c max [0-9.]+ on link $ids-$ids,"
check tui_views_sparse_node_ids $((r1 + r2 + $?)) "the details name a link by index, not by its ids: $(screen sp | grep 'v/c max')"
keys q
if [ -r "$BER" ]; then
    start ber 80x24 --net "'$BER'" --no-runlog --delay 50
    keys r
    wait_for ber '^#1 setting up: [a-zA-Z].* [0-9]+% \| [0-9.]+ [mu]?s \| tau 10 mu n/a \(setting up\)' 10
    r1=$?
    keys L
    wait_for ber 'message log' 3
    r2=$?
    wait_for ber '#1 +setting up: ' 3
    check tui_views_setup_phase $((r1 + r2 + $?)) "no 'setting up' phase on screen, or keys ignored during set-up"
    keys Escape
    wait_for ber '^#1 (ill-posed|converged|max-iter|cancelled)' 240
    r1=$?
    screen ber | grep -q nan
    check tui_views_setup_done_no_nan $((r1 + 1 - $?)) "the Berlin-Center run did not end, or nan on screen"
    keys q
else
    echo "SKIP tui_views_setup_phase: $BER missing"
fi
# A long set-up step keeps its per cent and time on 80 columns (Austin-SDB's
# full graph: "start point: 12991 cycle links at cost + 1/mu, spectral radius
# ~ 2.6" pushed them off the line)
AU="$DIR/Austin-SDB/AustinSDB_net.tntp"
case "$AU" in /*) ;; *) AU="$PWD/$AU" ;; esac
if [ -r "$AU" ]; then
    start au 80x24 --net "'$AU'" --no-runlog --delay 50 --threads 2
    keys r
    wait_for au '^#1 setting up: start point: .* [0-9]+% \| [0-9.]+ [mu]?s' 240
    check tui_views_setup_long_step_fits $? "the per cent and time of a long set-up step are off the line: $(screen au | sed -n 2p)"
    keys q
else
    echo "SKIP tui_views_setup_long_step_fits: $AU missing"
fi
# R repeats the selected run with its own start: a run warm from #1 re-run with
# warm start off is warm from #1 again (the next: line's setting was taken)
start rw 120x40 --net "'$NET'" --ascii --no-runlog
keys r
wait_for rw '^#1 converged' 20
typed W 1
keys r
wait_for rw '^#2 converged' 20
keys w
wait_for rw 'warm start off' 3
keys R
wait_for rw '^#3 converged' 20
r1=$?
wait_for rw '^.> ?w ?3 .*warm #1' 3
check tui_views_rerun_own_start $((r1 + $?)) "R of a run warm from #1 did not start warm from #1"
keys q

# --delay spaces the data's frames, not a key's: at --delay 5000 the tau prompt
# shows at once (it came 4-5 s after its key)
start dl 80x24 --net "'$NET'" --ascii --no-runlog --delay 5000
sleep 0.3
keys t
wait_for dl 'tau \(> 0\)' 2
check tui_views_key_frame_at_once $? "the prompt of t did not show within 2 s at --delay 5000"
keys Escape
keys q

# a prompt longer than the line scrolls: the end of what is typed, the cursor
# and the hint stay in sight (a long path ran off the edge, unseen)
start lp 80x24 --net "'$NET'" --ascii --no-runlog
keys x; keys C-u
$T send-keys -t lp -l -- "/tmp/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaZZEND"
wait_for lp '^<a+ZZEND_ +Enter ok  Esc cancel' 3
check tui_views_long_prompt_scrolls $? "the end of a 110-character export path is not in sight: $(screen lp | tail -n 1)"
keys Escape
keys q

# text cut at a panel's edge ends in '>' (a range cut to "0..10000" read as the
# whole, "GPU: none" as "GPU: no")
start cut 80x24 --net "'$NET'" --ascii --no-runlog
keys s
wait_for cut 'max_iter +[0-9]+ +at most this many outer iterations, 0\.\.[0-9]*>' 3
check tui_views_cut_marked $? "the cut settings row of max_iter does not end in '>': $(screen cut | grep max_iter)"
keys Escape
keys q

# two sessions started together keep a run log each: the default name has the
# process id (runs-DATE-TIME.csv alone: sessions of the same second overwrote
# each other's)
before=$(ls "$XDG_STATE_HOME"/dillsue/runs-*.csv 2>/dev/null | wc -l)
start rl1 200x24 --net "'$NET'" --ascii
start rl2 200x24 --net "'$NET'" --ascii
for sn in rl1 rl2; do CUR=$sn; keys r; done
for sn in rl1 rl2; do wait_for $sn '^#1 converged' 20; done
for sn in rl1 rl2; do CUR=$sn; keys q; done
wait_for rl1 'EXIT=0' 10 && wait_for rl2 'EXIT=0' 10
r1=$?
after=$(ls "$XDG_STATE_HOME"/dillsue/runs-*.csv 2>/dev/null | wc -l)
screen rl1 | grep -Eq 'run log: .*/runs-[0-9]{8}-[0-9]{6}-[0-9]+\.csv' && [ $((after - before)) -eq 2 ]
check tui_views_runlog_per_session $((r1 + $?)) "$((after - before)) new run logs for two sessions: $(ls "$XDG_STATE_HOME"/dillsue/)"
exit 0
