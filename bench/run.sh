#!/bin/sh
# `make bench`: runs the benchmark programs that make built in $BUILD/bench and
# prints Markdown (also saved to $BUILD/bench/results.md). Builds nothing.
#   BENCH_QUICK=1     a fast subset (small networks, short timing budgets)
#   BENCH_LIMIT=S     wall-time limit per solver run in seconds (default 60; 10 when quick)
#   BENCH_THREADS=N   threads for the whole solves (default 2)
#   DILLSUE_TNTP_DIR  the TNTP networks (default ../shared/data/tntp)
#   BENCH_GPU=0       skip the GPU block; BENCH_GPU_ONLY=1 runs only it (on a GPU machine)
#   BENCH_GPU_NETS    networks of the GPU block (default "Berlin-Center Austin-SDB")
# Without the TNTP data it says so and exits 0.
BUILD=${BUILD:-build}
: "${DILLSUE_TNTP_DIR:=../shared/data/tntp}"
export DILLSUE_TNTP_DIR

if [ ! -d "$DILLSUE_TNTP_DIR" ]; then
    echo "bench: TNTP data not found in $DILLSUE_TNTP_DIR (set DILLSUE_TNTP_DIR): nothing to benchmark"
    exit 0
fi
for b in loadmap solvers; do
    if [ "${BENCH_GPU_ONLY:-0}" != 1 ] && [ ! -x "$BUILD/bench/$b" ]; then
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

# --- sweep (issue 13): cells per second of the paper's Sioux Falls grid ---
# Newton cells of 200 scenarios x tau {1,3,10,30,100} x {full,dsp} (2,000 cells;
# 20 scenarios with BENCH_QUICK=1) with 1 and 2 local workers and, where the
# program was built with MPI, 1 and 2 ranks. Overhead per cell = (span x
# workers - sum of the cells' own wall time) / cells, the span running from the
# first cell's start to the last cell's end: what dealing, recording and the
# journal cost (program and mpirun start-up are in "elapsed" only).
# BENCH_SWEEP_FULL=1 adds the whole grid with anderson and sra (6,000 cells;
# an hour of CPU). BENCH_SWEEP=0 skips this block. The 1 -> 2 rank speed-up is
# the median over BENCH_SWEEP_PAIRS (default 3) alternating -np 1 / -np 2 runs
# of the ratio of their spans: this machine's cores change speed in spells of
# seconds, and one run of each compared two spells (stop 25: 1.77x in one
# pass, 1.89x-1.93x in pairs right after).
sweep_spans=
sweep_one() { # sweep_one LABEL WORKERS SOLVERS LAUNCHER...
    label=$1 workers=$2 solvers=$3
    shift 3
    dir=$(mktemp -d /tmp/dillsue-bench-sweep.XXXXXX)
    # local workers, or ranks: under mpirun --workers is refused (since
    # f47b1d8; the mpirun rows then read "exit 2" with no cells)
    wopt="--workers $workers"
    [ "$1" = mpirun ] && wopt=
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$@" "$BUILD/dillsue" sweep --net "$sf" --scenarios "$scen" --seed 1 --tau 1,3,10,30,100 --filter full,dsp \
        --solver "$solvers" $wopt --out "$dir/s" --quiet > /dev/null 2>&1
    src=$?
    t1=$(date +%s.%N)
    # span: from the first cell's start to the last cell's end (start-up of the
    # program and of mpirun excluded); overhead = (span x workers - sum of cell times) / cells
    # cells.csv is read as CSV (a reason may hold commas), then split on tabs
    python3 -c 'import csv, sys
for r in csv.reader(open(sys.argv[1])): print("\t".join(r))' "$dir/s/cells.csv" |
    awk -F'\t' -v t0="$t0" -v t1="$t1" -v w="$workers" -v l="$label" -v rc=$src 'NR > 1 { n++; s += $19
            b = $20 - $19; if (n == 1 || b < first) first = b; if ($20 > last) last = $20 }
        END { el = t1 - t0; span = last - first
              printf "| %s | %d | %.1f | %.1f | %.1f | %.2f |%s\n", l, n, el, span, n / span, 1000 * (span * w - s) / n,
              rc ? " exit " rc : ""
              printf "%.6f\n", span > sp }' sp="$dir/span"
    sweep_spans="$sweep_spans $(cat "$dir/span" 2>/dev/null || echo 0)"
    rm -rf "$dir"
}
sweep_bench() {
    [ "${BENCH_SWEEP:-1}" = 0 ] && return
    sf="$DILLSUE_TNTP_DIR/SiouxFalls/SiouxFalls_net.tntp"
    [ -f "$sf" ] || { echo "sweep: $sf missing: skipped"; return; }
    scen=200
    [ -n "$quick" ] && scen=20
    echo
    echo "## Sweep: Sioux Falls, $scen scenarios x tau {1,3,10,30,100} x {full,dsp}"
    echo
    echo "| run | cells | elapsed s | first cell to last s | cells/s | overhead ms/cell |"
    echo "|---|---:|---:|---:|---:|---:|"
    sweep_one "newton, 1 worker" 1 newton env
    sweep_one "newton, 2 workers" 2 newton env
    mpi=
    "$BUILD/dillsue" sweep --help | grep -q "This build: with MPI" && command -v mpirun > /dev/null && mpi=1
    ratios=
    if [ -n "$mpi" ]; then
        for pair in $(seq "${BENCH_SWEEP_PAIRS:-3}"); do
            sweep_spans=
            sweep_one "newton, mpirun -np 1 (pair $pair)" 1 newton mpirun --oversubscribe --allow-run-as-root -np 1
            sweep_one "newton, mpirun -np 2 (pair $pair)" 2 newton mpirun --oversubscribe --allow-run-as-root -np 2
            ratios="$ratios $(echo "$sweep_spans" | awk '{ if ($2 > 0) printf "%.3f", $1 / $2; else print "-" }')"
        done
    else
        echo "| (no MPI build: mpirun rows skipped) | | | | | |"
    fi
    if [ "${BENCH_SWEEP_FULL:-0}" = 1 ]; then
        sweep_one "newton,anderson,sra, 2 workers" 2 newton,anderson,sra env
        [ -n "$mpi" ] && sweep_one "newton,anderson,sra, mpirun -np 2" 2 newton,anderson,sra mpirun --oversubscribe --allow-run-as-root -np 2
    fi
    if [ -n "$ratios" ]; then
        echo
        echo "1 -> 2 ranks (span at -np 1 / span at -np 2, alternating pairs):$(echo "$ratios" | sed 's/ \([0-9.-]*\)/ \1x/g');" \
            "median $(echo "$ratios" | tr ' ' '\n' | grep -v '^$' | sort -n | awk '{ a[NR] = $1 } END { printf "%.2fx", a[int((NR + 1) / 2)] }')" \
            "(target >= 1.8x)"
    fi
}
# --- end sweep ---

# --- GPU (issue 11): one evaluation and a whole Newton solve, GPU against the
# CPU at the same thread count, by tools/gpu_check (flows compared too; its
# table is explained in docs/gpu.md). Says so and skips without a device. ---
gpu_bench() {
    [ "${BENCH_GPU:-1}" = 0 ] && return
    gc="$BUILD/tools/gpu_check"
    echo
    echo "## GPU against $threads CPU threads (tools/gpu_check, tau 10, dsp and bfs)"
    echo
    if [ ! -x "$gc" ]; then
        echo "($gc is missing: skipped)"
        return
    fi
    probe=$("$gc" --net /no-network/ 2>&1 | head -1)
    case $probe in
    *"nothing to compare"*)
        probe=${probe#gpu-check: }
        echo "(${probe%%: nothing to compare*}: skipped)"
        return
        ;;
    esac
    echo '```'
    echo "$probe"
    for n in ${BENCH_GPU_NETS:-Berlin-Center Austin-SDB}; do
        "$gc" --net "$n" --filter dsp,bfs --threads "$threads" | grep -v '^gpu-check: \(GPU\|0 cell\)'
    done
    echo '```'
}
# --- end GPU ---

start=$(date +%s)
mkdir -p "$BUILD/bench"
if [ "${BENCH_GPU_ONLY:-0}" = 1 ]; then
    gpu_bench | tee "$out"
else
    { run; sweep_bench; gpu_bench; } | tee "$out"
fi
echo
echo "(bench took $(( $(date +%s) - start )) s; saved to $out)"
