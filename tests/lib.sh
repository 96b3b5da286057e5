# lib.sh - sourced by the shell tests (run from the repository root):
# the program, the TNTP folder, a private temporary directory removed on exit,
# and the PASS/FAIL/SKIP line printers that tests/run.sh counts.
BUILD=${BUILD:-build}
D=$BUILD/dillsue
TNTP=${DILLSUE_TNTP_DIR:-../shared/data/tntp}
tmp=$(mktemp -d "/tmp/$(basename "$0" .sh).XXXXXX")
trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }
skip() { echo "SKIP $1: $2"; }
# run CMD...: runs it, leaving the exit status in $rc and the output in $tmp/out, $tmp/err
run() { "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
