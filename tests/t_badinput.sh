#!/bin/sh
# t_badinput.sh - every case of the bad-input corpus through the real command
# line: `dillsue solve --net CASE --quiet` must exit 2 (input error) and say on
# stderr "file:line: what was wrong" as listed in tests/bad_input/EXPECTED.
# A crash, a hang, a different exit status or a vaguer message fails.
BUILD=${BUILD:-build}
D=$BUILD/dillsue
DIR=tests/bad_input
tmp=$(mktemp -d /tmp/t_badinput.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$D" ]; then
    echo "FAIL badinput_binary: $D not built"
    exit 0
fi
if [ ! -f "$DIR/EXPECTED" ]; then
    echo "FAIL badinput_corpus: $DIR/EXPECTED missing (run from the repository root)"
    exit 0
fi

# Guard against a parser that loops forever on some input.
if command -v timeout >/dev/null 2>&1; then TO="timeout 60"; else TO=""; fi

n=0
tab=$(printf '\t')
while IFS="$tab" read -r name expected; do
    case "$name" in ''|'#'*) continue ;; esac
    n=$((n + 1))
    $TO "$D" solve --net "$DIR/$name.net.tntp" --quiet >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 2 ]; then
        echo "FAIL badinput_$name: exit status $rc, want 2; stderr: $(head -c 300 "$tmp/err")"
    elif ! grep -qF -- "$expected" "$tmp/err"; then
        echo "FAIL badinput_$name: stderr lacks '$expected': $(head -c 300 "$tmp/err")"
    elif ! grep -qF -- "$DIR/$name." "$tmp/err"; then
        echo "FAIL badinput_$name: stderr does not name the file as given: $(head -c 300 "$tmp/err")"
    else
        echo "PASS badinput_$name"
    fi
done <"$DIR/EXPECTED"

# The unmodified base of the corpus is accepted (so the failures above are
# caused by the one defect in each case, not by the base).
$TO "$D" solve --net "$DIR/valid.net.tntp" --quiet --max-iter 5 --out "$tmp/flows.csv" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] || [ $rc -eq 1 ]; then echo "PASS badinput_valid_base_loads"
else echo "FAIL badinput_valid_base_loads: exit status $rc: $(head -c 300 "$tmp/err")"; fi

if [ $n -ge 30 ]; then echo "PASS badinput_corpus_size"; else echo "FAIL badinput_corpus_size: only $n cases"; fi
