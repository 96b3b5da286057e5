# tui_lib.sh - sourced by the tmux tests of the TUI (tests/t_tui*.sh): the
# program, the Sioux Falls network, a private tmux server and temporary
# directory (both removed on exit), and helpers to read the screen, wait for
# text, send keys and print PASS/FAIL/SKIP lines that tests/run.sh counts.
# Every script that sources it gets its own tmux server (-L) and its own
# XDG_CONFIG_HOME / XDG_STATE_HOME, so the user's files are never touched.
# Sourced as `. "$(dirname "$0")/tui_lib.sh"`; the script then runs from the
# repository root wherever it is started (tests/lib.sh).
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
# numbers in the scripts' awk and printf with a "." whatever the locale (tests/lib.sh)
if [ -n "${LC_ALL:-}" ]; then LANG=$LC_ALL; export LANG; unset LC_ALL; fi
LC_NUMERIC=C
export LC_NUMERIC
DIR=${DILLSUE_TNTP_DIR:-../shared/data/tntp}
NET="$DIR/SiouxFalls/SiouxFalls_net.tntp"
PROG="$PWD/$BUILD/dillsue"
case "$BUILD" in /*) PROG="$BUILD/dillsue" ;; esac
TESTNAME=${TESTNAME:-tui_tmux}

if ! command -v tmux >/dev/null 2>&1; then echo "SKIP $TESTNAME: tmux not installed"; exit 0; fi
if [ ! -r "$NET" ]; then echo "SKIP $TESTNAME: $NET missing (set DILLSUE_TNTP_DIR)"; exit 0; fi
if [ ! -x "$PROG" ]; then echo "FAIL $TESTNAME: $PROG not built"; exit 0; fi
case "$NET" in /*) ;; *) NET="$PWD/$NET" ;; esac
FLOWREF="${NET%_net.tntp}_flow.tntp"

SOCK="dillsue-test-$$"
T="tmux -u -L $SOCK -f /dev/null"
$T kill-server 2>/dev/null # a live server of that name (an aborted run under a reused pid) would answer with its screens
TMP=$(mktemp -d)
. tests/tmux_end.sh # (the scripts run from the repository root)
cleanup() {
    tmux_end "$T"
    rm -rf "$TMP"
}
# also when killed, or when a reader of the output (| head) goes away
trap cleanup EXIT
trap 'cleanup; exit 1' INT TERM HUP PIPE
# never read or write the real ~/.config/dillsue/config or the run logs in
# ~/.local/state; the tmux server inherits these
XDG_CONFIG_HOME="$TMP/xdg-empty"
XDG_STATE_HOME="$TMP/state"
export XDG_CONFIG_HOME XDG_STATE_HOME

CUR=main # the session keys() and check() use
screen() { $T capture-pane -p -t "$1" 2>/dev/null; }
# wait_for TARGET REGEX SECONDS: poll the pane until the regex shows up.
wait_for() {
    i=0
    while [ "$i" -lt $(($3 * 10)) ]; do
        if screen "$1" | grep -Eq -- "$2"; then return 0; fi
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
check() { # check NAME CONDITION-EXIT-STATUS WHY
    if [ "$2" -eq 0 ]; then echo "PASS $1"; else echo "FAIL $1: $3"; screen "$CUR" | sed 's/^/    | /'; fi
}
keys() { $T send-keys -t "$CUR" "$@"; sleep 0.15; }
typed() { # typed KEY TEXT: open a dialog, clear it, type, Enter
    keys "$1"; keys C-u; $T send-keys -t "$CUR" -l -- "$2"; keys Enter
}
# start NAME WxH ARGS...: the TUI in a new tmux session (ASCII glyphs, 256 colours)
start() {
    n=$1; sz=$2; shift 2
    $T new-session -d -s "$n" -x "${sz%x*}" -y "${sz#*x}" -c "$PWD" \
        "TERM=xterm-256color '$PROG' tui $*; echo EXIT=\$?; sleep 60"
    CUR=$n
    wait_for "$n" 'runs \(0\)' 10
}
# help_last: open the help overlay and page to its last page (the key table
# pages when it does not fit); status 0 if the last page shows.
help_last() {
    keys '?'
    wait_for "$CUR" 'keys( 1/[0-9])? \(' 3 || return 1
    pages=$(screen "$CUR" | sed -n 's/.*keys 1\/\([0-9]\).*/\1/p' | head -1)
    p=1
    while [ "$p" -lt "${pages:-1}" ]; do keys '?'; p=$((p + 1)); done
    [ -z "$pages" ] || wait_for "$CUR" "keys $pages/$pages" 3
}
# wait_all TARGET SECONDS REGEX...: poll until every regex shows on one screen.
wait_all() {
    tgt=$1; secs=$2; shift 2
    i=0
    while [ "$i" -lt $((secs * 10)) ]; do
        scr=$(screen "$tgt")
        ok=0
        for re in "$@"; do printf '%s\n' "$scr" | grep -Eq -- "$re" || { ok=1; break; }; done
        [ $ok -eq 0 ] && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
