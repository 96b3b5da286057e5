#!/bin/sh
# Runs every test binary and test script; ends with "N passed, N failed[, N skipped]".
# Exit status 0 only if nothing failed. Runs from the repository root wherever
# it is started (from elsewhere it found nothing and said "0 passed, 0 failed");
# BUILD and DILLSUE_TNTP_DIR, where relative, are relative to that root.
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
# Numbers in the scripts (awk, printf) are read and written with a "."
# whatever the user's locale: under LANG=de_DE.UTF-8 mawk read the program's
# "3.17e-08" as 3, and t_cli and t_load failed 7 checks the program passed.
# (LC_ALL would override LC_NUMERIC: its value becomes LANG's.)
if [ -n "${LC_ALL:-}" ]; then LANG=$LC_ALL; export LANG; unset LC_ALL; fi
LC_NUMERIC=C
export LC_NUMERIC
export BUILD
if [ ! -x "$BUILD/dillsue" ]; then
    # (without a build, every test of the program failed until t_install's
    # `make install` built it half-way through the suite)
    echo "tests/run.sh: $BUILD/dillsue is not built: \`make test\` builds and runs the suite" >&2
    exit 2
fi
: "${DILLSUE_TNTP_DIR:=../shared/data/tntp}"
export DILLSUE_TNTP_DIR
if [ ! -d "$DILLSUE_TNTP_DIR" ]; then
    echo "note: TNTP data not found in $DILLSUE_TNTP_DIR (set DILLSUE_TNTP_DIR); tests that need it will skip"
fi
log=$(mktemp)
status=0
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    echo "== $t"
    "$t" > "$log.out" 2>&1
    rc=$?
    cat "$log.out"
    cat "$log.out" >> "$log"
    if [ $rc -ne 0 ]; then echo "FAIL $(basename "$t"): exited with status $rc" | tee -a "$log"; fi
done
for t in tests/t_*.sh; do
    [ -f "$t" ] || continue
    echo "== $t"
    sh "$t" > "$log.out" 2>&1
    rc=$?
    cat "$log.out"
    cat "$log.out" >> "$log"
    if [ $rc -ne 0 ]; then echo "FAIL $(basename "$t"): exited with status $rc" | tee -a "$log"; fi
done
p=$(grep -c '^PASS ' "$log")
f=$(grep -c '^FAIL ' "$log")
s=$(grep -c '^SKIP ' "$log")
rm -f "$log" "$log.out"
echo
if [ "$s" -gt 0 ]; then echo "$p passed, $f failed, $s skipped"; else echo "$p passed, $f failed"; fi
[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
