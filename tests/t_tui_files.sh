#!/bin/sh
# t_tui_files.sh - the TUI's files that are not regular: a FIFO as --config is
# reported at start-up instead of hanging on a blank screen, a FIFO or a
# directory as --runlog is refused before the session (the runs were lost at
# quit; a FIFO was replaced by a regular file), a symlinked run log stays a
# link and an existing run log keeps its permissions; t and e open with the
# exact tau and tol (Enter on the unchanged prompt rounded them to 6 digits).
TESTNAME=tui_files
. "$(dirname "$0")/tui_lib.sh"

mkfifo "$TMP/fifo"
start cfgfifo 120x30 --net "'$NET'" --no-runlog --config "'$TMP/fifo'"
wait_for cfgfifo 'fifo: cannot read: not a regular file' 5
check tui_config_fifo_reported $? "a FIFO as --config was not reported at start-up"
keys q

mkdir "$TMP/rldir"
for f in fifo rldir; do
    $T new-session -d -s "rl$f" -x 120 -y 10 -c "$PWD" \
        "TERM=xterm-256color '$PROG' tui --net '$NET' --runlog '$TMP/$f'; echo EXIT=\$?; sleep 60"
    CUR="rl$f"
    wait_for "rl$f" '^EXIT=2' 10 && screen "rl$f" | grep -q -- "--runlog $TMP/$f: is a"
    check "tui_runlog_${f}_refused" $? "--runlog $f was not refused at start"
done
[ -p "$TMP/fifo" ]
check tui_runlog_fifo_kept $? "the FIFO given as --runlog is no longer a FIFO"

echo old >"$TMP/target"
ln -s target "$TMP/link"
echo old >"$TMP/perm"
chmod 640 "$TMP/perm"
printf 'tau=0.1234567890123\ntol=1.23456789e-7\n' >"$TMP/exact.cfg"
start links 120x40 --net "'$NET'" --solver msa --runlog "'$TMP/link'" --config "'$TMP/exact.cfg'"
keys t; keys Enter; keys e; keys Enter; keys S
wait_for links 'settings saved' 5
grep -q '^tau=0.1234567890123$' "$TMP/exact.cfg" && grep -q '^tol=1.23456789e-07$' "$TMP/exact.cfg"
check tui_prompt_keeps_exact_value $? "t/e Enter changed tau or tol: $(grep -E '^(tau|tol)=' "$TMP/exact.cfg" | tr '\n' ' ')"
keys 1; keys r
wait_for links '^#1 (converged|max-iter)' 30
keys q
wait_for links '^EXIT=0' 10
[ -L "$TMP/link" ] && grep -q '^run,network' "$TMP/target"
check tui_runlog_symlink_kept $? "the run log symlink was replaced or its target not written"
start perm 120x40 --net "'$NET'" --solver msa --runlog "'$TMP/perm'" --no-config
keys r
wait_for perm '^#1 (converged|max-iter)' 30
keys q
wait_for perm '^EXIT=0' 10
[ "$(stat -c %a "$TMP/perm")" = 640 ] && grep -q '^run,network' "$TMP/perm"
check tui_runlog_mode_kept $? "run log mode $(stat -c %a "$TMP/perm"), want 640"

# a file name with non-ASCII characters typed into a dialog (a checkout under
# /home/jürgen): getch gives UTF-8 byte by byte and the prompt dropped every
# byte >= 128; Backspace takes a whole character
start utf8 120x40 --net "'$NET'" --solver msa --no-runlog --no-config
keys r
wait_for utf8 '^#1 (converged|max-iter)' 30
keys x; keys C-u; $T send-keys -t utf8 -l -- "$TMP/flöws ü"; keys BSpace; keys BSpace
$T send-keys -t utf8 -l -- ".csv"; keys Enter
wait_for utf8 'run #1: flows ->' 5
[ -s "$TMP/flöws.csv" ]
check tui_prompt_utf8_path $? "x with a non-ASCII file name wrote: $(ls "$TMP" | tr '\n' ' ')"
keys q
wait_for utf8 '^EXIT=0' 10
