#!/bin/sh
# t_one_definition.sh - formulas that the CPU backend and the GPU kernels both
# evaluate are written once, in src/engine/kernels.h ("one definition of every
# formula, shared by CPU and CUDA"), and called from the CPU loader, the host
# driver (src/engine/gpu.c) and the kernel bodies (cuda/dsg_kernels.h). This
# looks for copies of those that were once written out in place:
#   - a choice probability from a log-sum-exp's term and sum, `sum > 0 ? x / sum`
#     (dsk_prob_norm; was in loader.c's DAG pass and in both Bellman kernels);
#   - the --start relax penalty -log(lambda) / mu (dsk_relax_pen; was in
#     loader.c and gpu.c);
#   - the one-term log-sum-exp, `V = a + 0.0` with P = 1 (dsk_logsumexp1; was
#     loader.c's shortcut beside the kernels' dsk_logsumexp).
. "$(dirname "$0")/lib.sh"

files=$(ls src/engine/*.c src/engine/*.h cuda/*.c cuda/*.h cuda/*.cu 2>/dev/null | grep -v '^src/engine/kernels\.h$')
if [ -z "$files" ]; then
    fail one_definition "no sources under src/engine and cuda/"
    exit 0
fi
# check NAME FUNCTION REGEX: no line outside kernels.h matches, its comments
# taken out (a comment may name the formula)
check() {
    hits=$(grep -nE -- "$3" $files | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/?\*|//)' |
        sed -E 's#/\*.*(\*/|$)##; s#//.*$##' | grep -E -- "$3")
    if [ -n "$hits" ]; then
        fail "one_definition_$1" "written out in place, use $2 of kernels.h: $(echo "$hits" | head -3 | tr '\n' ' ')"
    else
        pass "one_definition_$1"
    fi
}
check prob_norm dsk_prob_norm 'sum[[:space:]]*>[[:space:]]*0[[:space:]]*\?[^:]*/[[:space:]]*sum'
check relax_pen dsk_relax_pen '-[[:space:]]*log[[:space:]]*\([^)]*lambda[^)]*\)[[:space:]]*/'
check logsumexp1 dsk_logsumexp1 '\+[[:space:]]*0\.0[[:space:]]*;'
