#!/bin/sh
# planning.sh - issue 9's targets: whole `dillsue solve` runs (tau 10, gap_rel
# < 1e-8, Newton) on the planning-scale cases, as separate processes so that
# each run's peak resident memory is its own. Prints a Markdown table:
# iterations, loading evaluations and J v (exact), the median wall time over
# BENCH_REPS runs (default 3) at 2 threads, the 1 -> 2 thread speed-up where
# the issue asks for one, and the peak RSS.
#   BENCH_QUICK=1   small cases only        BENCH_REPS=N   runs per median
#   BENCH_SPEEDUP_REPS=N  alternating 1- and 2-thread runs of each case whose
#                   speed-up is wanted (default 9, at least BENCH_REPS)
#   BENCH_FULL_LIMIT=S  limit for Austin-SDB full (default 300 s; SIGINT, then
#                   the run reports where it stopped)
#   BENCH_RELAX_LIMIT=S limit for Austin-SDB full with --start relax (default
#                   600 s; 0 skips that row)
BUILD=${BUILD:-build}
: "${DILLSUE_TNTP_DIR:=../shared/data/tntp}"
D="$BUILD/dillsue"
T="$DILLSUE_TNTP_DIR"
reps=${BENCH_REPS:-3}
flimit=${BENCH_FULL_LIMIT:-300}
rlimit=${BENCH_RELAX_LIMIT:-600}
LIMIT=
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TIME=
# wall and peak memory of the solve's own process (bench/walltime.c: fork to
# wait4, microseconds); the shell's clock around GNU time added about 5 ms a run
[ -x "$BUILD/bench/walltime" ] && TIME="$BUILD/bench/walltime -o $tmp/time"

# one run: prints "status iters evals jv wall rss_mb"
one() {
    threads=$1
    shift
    if [ -n "$TIME" ]; then
        $TIME $LIMIT "$D" solve --tau 10 --tol 1e-8 --threads "$threads" "$@" >"$tmp/out" 2>"$tmp/err"
        wall=$(cut -d, -f1 "$tmp/time" | awk '{ printf "%.4f", $1 }')
        rss=$(cut -d, -f2 "$tmp/time" | tail -n 1)
        rss=$((rss / 1024))
    else
        s=$(date +%s.%N)
        $LIMIT "$D" solve --tau 10 --tol 1e-8 --threads "$threads" "$@" >"$tmp/out" 2>"$tmp/err"
        wall=$(echo "$(date +%s.%N) - $s" | bc)
        rss=-
    fi
    st=$(head -n 1 "$tmp/out" | cut -d' ' -f1)
    it=$(head -n 1 "$tmp/out" | sed -n 's/.*| iterations \([0-9]*\) |.*/\1/p')
    ev=$(grep 'steps:' "$tmp/err" | sed -n 's/.*| evals \([0-9]*\) |.*/\1/p')
    jv=$(grep 'steps:' "$tmp/err" | sed -n 's/.*| J\*v \([0-9]*\) |.*/\1/p')
    echo "${st:-?} ${it:--} ${ev:--} ${jv:--} $wall $rss"
}

median() { sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)]; else print "-" }'; }

# case label, target, speed-up wanted (1/0), then solve arguments. Where a
# speed-up is wanted, 1- and 2-thread runs alternate, at least SPEEDUP_REPS
# of each: this machine's cores change speed in spells of seconds and a
# 2-thread run sometimes gets one core (docs/bench.md "Stop 23"), so runs in
# two blocks compared two spells. The ratio of the fastest runs is printed
# beside the ratio of the medians.
SPEEDUP_REPS=${BENCH_SPEEDUP_REPS:-9}
minimum() { sort -n | head -n 1; }
row() {
    label=$1 target=$2 speedup=$3
    shift 3
    n=$reps
    [ "$speedup" = 1 ] && [ "$n" -lt "$SPEEDUP_REPS" ] && n=$SPEEDUP_REPS
    : >"$tmp/w2"
    : >"$tmp/w1"
    for r in $(seq "$n"); do
        res=$(one 2 "$@")
        echo "$res" | cut -d' ' -f5 >>"$tmp/w2"
        last=$res
        [ "$speedup" = 1 ] && one 1 "$@" | cut -d' ' -f5 >>"$tmp/w1"
    done
    st=$(echo "$last" | cut -d' ' -f1) it=$(echo "$last" | cut -d' ' -f2) ev=$(echo "$last" | cut -d' ' -f3)
    jv=$(echo "$last" | cut -d' ' -f4) rss=$(echo "$last" | cut -d' ' -f6)
    w2=$(median <"$tmp/w2")
    sp=-
    if [ "$speedup" = 1 ]; then
        w1=$(median <"$tmp/w1")
        m1=$(minimum <"$tmp/w1") m2=$(minimum <"$tmp/w2")
        sp=$(awk -v a="$w1" -v b="$w2" -v c="$m1" -v d="$m2" -v n="$n" 'BEGIN { if (b > 0 && d > 0)
            printf "%.2fx (%.4f s / %.4f s); fastest of %d: %.2fx", a / b, a, b, n, c / d; else print "-" }')
    fi
    echo "| $label | $st | $it | $ev | $jv | $w2 | $sp | $rss | $target |"
}

if [ ! -d "$T" ]; then
    echo "planning: TNTP data not found in $T: nothing to benchmark"
    exit 0
fi
echo "## Planning-scale targets (issue 9): tau 10, gap_rel < 1e-8, Newton, 2 threads"
echo
echo "Median wall time of $reps runs (whole process: reading, set-up, solve, output); iterations,"
echo "evaluations and J v are exact. Speed-up = median at 1 thread / median at 2 threads over at least"
echo "$SPEEDUP_REPS alternating runs of each, and the same for the fastest run of each."
echo
echo "| case | status | outer it | evals | J v | wall s (median) | 1 -> 2 threads | peak RSS MB | target |"
echo "|---|---|---:|---:|---:|---:|---|---:|---|"
row "Anaheim full" "<= 12 it, <= 0.1 s, >= 1.7x" 1 --net "$T/Anaheim/Anaheim_net.tntp" --filter full
row "Sioux Falls full" "<= 25 it" 0 --net "$T/SiouxFalls/SiouxFalls_net.tntp" --filter full
row "Sioux Falls dsp" "<= 15 it" 0 --net "$T/SiouxFalls/SiouxFalls_net.tntp" --filter dsp
row "EMA full" "<= 25 it" 0 --net "$T/Eastern-Massachusetts/EMA_net.tntp" --filter full
row "EMA dsp" "<= 15 it" 0 --net "$T/Eastern-Massachusetts/EMA_net.tntp" --filter dsp
row "Anaheim dsp" "<= 15 it" 0 --net "$T/Anaheim/Anaheim_net.tntp" --filter dsp
row "Barcelona dsp" "<= 15 it" 0 --net "$T/Barcelona/Barcelona_net.tntp" --filter dsp
row "Winnipeg dsp" "<= 15 it" 0 --net "$T/Winnipeg/Winnipeg_net.tntp" --filter dsp
row "Chicago-Sketch dsp" "<= 15 it" 0 --net "$T/Chicago-Sketch/ChicagoSketch_net.tntp" --filter dsp
[ "${BENCH_QUICK:-0}" = 1 ] && exit 0
row "Chicago-Sketch edsp" "<= 5 s" 0 --net "$T/Chicago-Sketch/ChicagoSketch_net.tntp" --filter edsp
row "Berlin-Center dsp" "<= 2.5 s, <= 300 MB, >= 1.7x" 1 --net "$T/Berlin-Center/berlin-center_net.tntp" --filter dsp
row "Austin-SDB dsp" "<= 15 it, <= 5 s, >= 1.7x" 1 --net "$T/Austin-SDB/AustinSDB_net.tntp" --filter dsp
# Austin-SDB full: once, under a time limit (SIGINT: the run stops and reports)
reps=1
if command -v timeout >/dev/null 2>&1; then
    LIMIT="timeout -s INT $flimit"
    row "Austin-SDB full (limit ${flimit} s)" "converged or ill-posed proved, <= 120 s, <= 1.5 GB" 0 \
        --net "$T/Austin-SDB/AustinSDB_net.tntp" --filter full
    LIMIT=
    grep -E '^(converged|cancelled|ill-posed|max-iter|error)' "$tmp/out" | cut -c1-400 | sed 's/^/    /'
    # the continuation from the DSP solution (docs/model.md "Start point")
    if [ "$rlimit" != 0 ]; then
        LIMIT="timeout -s INT $rlimit"
        row "Austin-SDB full, --start relax (limit ${rlimit} s)" "converged, <= 120 s, <= 1.5 GB" 0 \
            --net "$T/Austin-SDB/AustinSDB_net.tntp" --filter full --start relax
        LIMIT=
        grep -E '^(converged|cancelled|ill-posed|max-iter|error)' "$tmp/out" | cut -c1-600 | sed 's/^/    /'
    fi
fi
