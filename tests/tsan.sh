#!/bin/sh
# `make tsan`: the whole suite on the ThreadSanitizer build (build-tsan), where
# the engine's worker pool, the TUI's engine thread, the sweep's workers and
# their front ends meet. Reports go to files (the TUI's terminal would swallow
# them) and any report fails the run, whatever the tests said.
BUILD=${BUILD:-build-tsan}
export BUILD
logs=$(mktemp -d)
TSAN_OPTIONS="log_path=$logs/report suppressions=$(pwd)/tests/tsan.supp halt_on_error=0 second_deadlock_stack=1"
export TSAN_OPTIONS
sh tests/run.sh
rc=$?
n=$(cat "$logs"/report.* 2>/dev/null | grep -c '^WARNING: ThreadSanitizer')
if [ "$n" -gt 0 ]; then
    cat "$logs"/report.*
    echo "tsan: $n ThreadSanitizer report(s) above (from $(ls "$logs" | wc -l) process(es))"
    rc=1
else
    echo "tsan: no ThreadSanitizer report"
fi
rm -rf "$logs"
exit $rc
