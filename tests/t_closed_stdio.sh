#!/bin/sh
# t_closed_stdio.sh - a standard stream closed by the caller (`>&-`, `2>&-`: a
# cron job, a daemon) no longer hands its descriptor to the next file opened.
# A sweep's journal took fd 1 or 2, and the table or the progress lines were
# appended to it (--resume then skipped them as rows "cut short by a kill");
# stdout closed still fails the command with status 2, as for solve.
. "$(dirname "$0")/lib.sh"
SF=$TNTP/SiouxFalls/SiouxFalls_net.tntp
if [ ! -r "$SF" ]; then skip closed_stdio "$SF missing"; exit 0; fi

# journal_clean DIR: the header and one row per cell, each row starting with its cell number
journal_clean() { awk -F, 'NR == 1 { ok = $1 == "cell"; next } $1 !~ /^[0-9]+$/ { ok = 0 } END { exit !(ok && NR == 3) }' "$1/journal.csv"; }

"$D" sweep --net "$SF" --scenarios 2 --seed 1 --tau 10 --filter dsp --solver newton --workers 1 --out "$tmp/o" \
    >&- 2>"$tmp/err"
rc=$?
if journal_clean "$tmp/o"; then pass closed_stdout_journal; else fail closed_stdout_journal "$(sed 1d "$tmp/o/journal.csv" | grep -v '^[0-9]' | head -1)"; fi
if [ $rc -eq 2 ] && grep -q 'cannot write standard output' "$tmp/err"; then pass closed_stdout_status; else
    fail closed_stdout_status "status $rc: $(tail -1 "$tmp/err")"; fi

"$D" sweep --net "$SF" --scenarios 2 --seed 1 --tau 10 --filter dsp --solver newton --workers 1 --out "$tmp/e" \
    >"$tmp/out" 2>&-
rc=$?
if journal_clean "$tmp/e"; then pass closed_stderr_journal; else fail closed_stderr_journal "$(sed 1d "$tmp/e/journal.csv" | grep -v '^[0-9]' | head -1)"; fi
if [ $rc -eq 0 ] && grep -q 'of 2 cells done' "$tmp/out"; then pass closed_stderr_status; else fail closed_stderr_status "status $rc"; fi
