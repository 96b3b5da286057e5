#!/bin/sh
# `make bench`: runs the benchmark programs that make built in $BUILD/bench and
# prints Markdown (also saved to $BUILD/bench/results.md). Builds nothing.
#   BENCH_QUICK=1     a fast subset (small networks, short timing budgets)
#   BENCH_LIMIT=S     wall-time limit per solver run in seconds (default 60; 10 when quick)
#   BENCH_THREADS=N   threads for the whole solves (default 2)
#   DILLSUE_TNTP_DIR  the TNTP networks (default ../shared/data/tntp)
# Without the TNTP data it says so and exits 0.
BUILD=${BUILD:-build}
: "${DILLSUE_TNTP_DIR:=../shared/data/tntp}"
export DILLSUE_TNTP_DIR

if [ ! -d "$DILLSUE_TNTP_DIR" ]; then
    echo "bench: TNTP data not found in $DILLSUE_TNTP_DIR (set DILLSUE_TNTP_DIR): nothing to benchmark"
    exit 0
fi
for b in loadmap solvers; do
    if [ ! -x "$BUILD/bench/$b" ]; then
        echo "bench: $BUILD/bench/$b is missing: run 'make bench' (it builds the programs first)" >&2
        exit 1
    fi
done

quick=
[ "${BENCH_QUICK:-0}" = 1 ] && quick=--quick
limit=${BENCH_LIMIT:-60}
[ -n "$quick" ] && [ -z "$BENCH_LIMIT" ] && limit=10
threads=${BENCH_THREADS:-2}
out="$BUILD/bench/results.md"

run() {
    echo "# dillsue benchmarks"
    echo
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD -- src include 2>/dev/null || echo ' (engine modified)')"
    echo "- machine: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(getconf _NPROCESSORS_ONLN) cores, load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "- mode: ${quick:-full}, solver limit ${limit} s, ${threads} threads for solves"
    echo
    "$BUILD/bench/loadmap" $quick || echo "bench: loadmap exited with status $?"
    "$BUILD/bench/solvers" $quick --limit "$limit" --threads "$threads" || echo "bench: solvers exited with status $?"
    echo
    BUILD="$BUILD" sh bench/planning.sh || echo "bench: planning.sh exited with status $?"
    echo "- load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
}

start=$(date +%s)
run | tee "$out"
echo
echo "(bench took $(( $(date +%s) - start )) s; saved to $out)"
