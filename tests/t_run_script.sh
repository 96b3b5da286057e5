#!/bin/sh
# t_run_script.sh - tests/run.sh without a build says so and how to get one,
# with status 2, from the repository root or elsewhere (it ran every test
# against a missing program, and from another directory found no tests and
# said "0 passed, 0 failed").
. tests/lib.sh
root=$PWD
for where in "$root" "$tmp"; do
    (cd "$where" && BUILD=no-such-build sh "$root/tests/run.sh") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 2 ] && grep -q 'no-such-build/dillsue is not built.*make test' "$tmp/err" && ! grep -q passed "$tmp/out"; then
        pass "run_sh_without_build_$([ "$where" = "$root" ] && echo root || echo elsewhere)"
    else fail "run_sh_without_build_$([ "$where" = "$root" ] && echo root || echo elsewhere)" "rc $rc: $(head -c 300 "$tmp/out" "$tmp/err")"; fi
done
