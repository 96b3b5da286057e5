# tmux_end.sh - sourced by the tmux tests (tests/tui_lib.sh, t_sweep_tui.sh):
# tmux_end "TMUX COMMAND" kills the test's private tmux server and then any
# program of its panes that outlives it by 10 s. A hung-up TUI exits on its
# own (t_tui_hangup.sh checks that); what did not was an AddressSanitizer
# build's leak check at exit, whose stop of the process was undone by the
# SIGCONT tmux sends with SIGHUP: after `make check` it spun for hours on a
# core (found by a `make bench` whose 2 threads ran no faster than 1).
tmux_end() {
    _kids=
    for _p in $($1 list-panes -a -F '#{pane_pid}' 2>/dev/null); do
        # the pane's shell runs the program: its children (procfs, else pgrep)
        if [ -r "/proc/$_p/task/$_p/children" ]; then
            _kids="$_kids $(cat "/proc/$_p/task/$_p/children")"
        elif command -v pgrep >/dev/null 2>&1; then
            _kids="$_kids $(pgrep -P "$_p")"
        fi
    done
    $1 kill-server 2>/dev/null
    for _k in $_kids; do
        _i=0
        while kill -0 "$_k" 2>/dev/null && [ $_i -lt 100 ]; do
            sleep 0.1
            _i=$((_i + 1))
        done
        # (only a dillsue: the pid may have been reused)
        if kill -0 "$_k" 2>/dev/null && tr '\0' ' ' <"/proc/$_k/cmdline" 2>/dev/null | grep -q 'dillsue'; then
            echo "# pid $_k outlived its tmux pane by 10 s and was killed: $(tr '\0' ' ' <"/proc/$_k/cmdline" | cut -c1-120)"
            kill -9 "$_k" 2>/dev/null
        fi
    done
}
