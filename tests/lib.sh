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
# As run, in the background; after 1 s signal SIG ($1) is sent and the
# command waited for: a stop as a user or a scheduler makes it.
run_then_signal() {
    _sig=$1
    shift
    "$@" >"$tmp/out" 2>"$tmp/err" &
    _pid=$!
    sleep 1
    kill -"$_sig" $_pid 2>/dev/null
    wait $_pid
    rc=$?
}
