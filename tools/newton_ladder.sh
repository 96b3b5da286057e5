#!/bin/sh
# newton_ladder.sh - docs/results.md "Newton globalisation": outer iterations,
# loading evaluations and J v (all exact counts) of Newton with the default
# globalisation (ptc: the line search, regularised once a trial leaves the
# domain of f), the plain line search (--globalise linesearch) and the paper's
# rule (--globalise paper), every shared network, full graph and dsp, tau 3 /
# 10 / 30, gap_rel < 1e-8. Prints Markdown.
#   sh tools/newton_ladder.sh [BUILD]
BUILD=${1:-build}
T=${DILLSUE_TNTP_DIR:-../shared/data/tntp}
D="$BUILD/dillsue"
cell() {
    out=$("$D" solve --tol 1e-8 --threads 2 --max-iter 500 "$@" 2>&1)
    st=$(echo "$out" | grep -E '^(converged|max-iterations|ill-posed|error|cancelled)' | cut -d' ' -f1)
    it=$(echo "$out" | sed -n 's/^[a-z-]* | iterations \([0-9]*\) |.*/\1/p')
    ev=$(echo "$out" | sed -n 's/.*| evals \([0-9]*\) |.*/\1/p')
    jv=$(echo "$out" | sed -n 's/.*| J\*v \([0-9]*\) |.*/\1/p')
    case "$st" in
    converged) echo "$it / $ev / $jv" ;;
    ill-posed) echo "ill-posed" ;;
    *) echo "$st ($it it)" ;;
    esac
}
echo "| network | filter | tau | ptc (default): it / evals / J v | line search | paper rule |"
echo "|---|---|---:|---|---|---|"
for c in "SiouxFalls SiouxFalls/SiouxFalls_net.tntp" "EMA Eastern-Massachusetts/EMA_net.tntp" \
         "Anaheim Anaheim/Anaheim_net.tntp" "Barcelona Barcelona/Barcelona_net.tntp" \
         "Winnipeg Winnipeg/Winnipeg_net.tntp" "Chicago-Sketch Chicago-Sketch/ChicagoSketch_net.tntp" \
         "Berlin-Center Berlin-Center/berlin-center_net.tntp" "Austin-SDB Austin-SDB/AustinSDB_net.tntp"; do
    set -- $c
    name=$1 file=$T/$2
    [ -f "$file" ] || continue
    for f in full dsp; do
        case "$name/$f" in Berlin-Center/full | Austin-SDB/full) continue ;; esac
        for tau in 3 10 30; do
            echo "| $name | $f | $tau | $(cell --net "$file" --filter $f --tau $tau) |" \
                "$(cell --net "$file" --filter $f --tau $tau --globalise linesearch) |" \
                "$(cell --net "$file" --filter $f --tau $tau --globalise paper) |"
        done
    done
done
