#!/bin/sh
# t_run_script.sh - tests/run.sh without a build says so and how to get one,
# with status 2, from the repository root or elsewhere (it ran every test
# against a missing program, and from another directory found no tests and
# said "0 passed, 0 failed"); a single test script started from elsewhere
# finds tests/lib.sh and runs from the root.
. "$(dirname "$0")/lib.sh"
root=$PWD
for where in "$root" "$tmp"; do
    (cd "$where" && BUILD=no-such-build sh "$root/tests/run.sh") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 2 ] && grep -q 'no-such-build/dillsue is not built.*make test' "$tmp/err" && ! grep -q passed "$tmp/out"; then
        pass "run_sh_without_build_$([ "$where" = "$root" ] && echo root || echo elsewhere)"
    else fail "run_sh_without_build_$([ "$where" = "$root" ] && echo root || echo elsewhere)" "rc $rc: $(head -c 300 "$tmp/out" "$tmp/err")"; fi
done

# A single test script started from another directory, by a path of any
# form, finds tests/lib.sh and runs from the repository root (it said
# "cannot open tests/lib.sh" and ran nothing).
for how in abs rel; do
    if [ $how = abs ]; then script=$root/tests/t_func_length.sh; else script=$(realpath --relative-to="$tmp" "$root/tests/t_func_length.sh" 2>/dev/null || echo "$root/tests/t_func_length.sh"); fi
    (cd "$tmp" && sh "$script") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 0 ] && grep -q '^PASS func_length' "$tmp/out" && ! grep -q 'cannot open' "$tmp/err"; then
        pass "test_script_from_elsewhere_$how"
    else fail "test_script_from_elsewhere_$how" "rc $rc: $(head -c 300 "$tmp/out" "$tmp/err")"; fi
done
# every script finds its library beside itself, none by the working directory
bad=$(grep -l '^\. tests/' tests/t_*.sh)
# (the libraries themselves, and the scripts that source neither, go to the root)
for f in tests/lib.sh tests/tui_lib.sh $(grep -L 'dirname "$0")/\(tui_\)\{0,1\}lib.sh' tests/t_*.sh); do
    grep -q '^cd "$(dirname "$0")/.." || exit 2$' "$f" || bad="$bad $f"
done
if [ -z "$bad" ]; then pass test_scripts_find_their_library; else fail test_scripts_find_their_library "$bad"; fi
