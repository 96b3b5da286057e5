# lib.sh - sourced by the shell tests (`. "$(dirname "$0")/lib.sh"`): the
# repository root as the working directory, the program, the TNTP folder, a
# private temporary directory removed on exit, and the PASS/FAIL/SKIP line
# printers that tests/run.sh counts.
# A test script runs from the repository root wherever it is started (`cd /tmp
# && sh ~/dillsue/tests/t_cli.sh` could not find this file), as tests/run.sh
# does; BUILD and DILLSUE_TNTP_DIR, where relative, are relative to that root.
cd "$(dirname "$0")/.." || exit 2
. tests/tmux_end.sh # (tmux_end, for the scripts that drive a tmux server)
BUILD=${BUILD:-build}
# Numbers in the scripts (awk, printf) are read and written with a "."
# whatever the user's locale: under LANG=de_DE.UTF-8 mawk read the program's
# "3.17e-08" as 3, and t_cli and t_load failed 7 checks the program passed.
# (LC_ALL would override LC_NUMERIC: its value becomes LANG's.)
if [ -n "${LC_ALL:-}" ]; then LANG=$LC_ALL; export LANG; unset LC_ALL; fi
LC_NUMERIC=C
export LC_NUMERIC
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
# As run_then_signal, but the signal goes once stderr matches REGEX (at most
# 60 s): run_signal_on SIG REGEX CMD... (stderr made empty before the start, so
# an earlier test's line cannot satisfy the wait)
run_signal_on() {
    _sig=$1 _re=$2
    shift 2
    : >"$tmp/err"
    "$@" >"$tmp/out" 2>"$tmp/err" &
    _pid=$!
    _i=0
    while [ $_i -lt 1200 ] && ! grep -q -- "$_re" "$tmp/err"; do sleep 0.05; _i=$((_i + 1)); done
    kill -"$_sig" $_pid 2>/dev/null
    wait $_pid
    rc=$?
}
# sig_ignored NUM: status 0 if this script started with signal NUM ignored
# (nohup: 1, HUP); the program keeps it ignored, so a test that stops it with
# that signal would wait for ever
sig_ignored() {
    _m=$(awk '/^SigIgn:/ { print $2 }' /proc/$$/status 2>/dev/null)
    [ -n "$_m" ] && [ $(((0x$_m >> ($1 - 1)) & 1)) -eq 1 ]
}
