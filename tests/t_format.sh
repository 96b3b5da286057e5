#!/bin/sh
# t_format.sh - the tree is as `make format` writes it (.clang-format): a
# change that is not formatted fails here, so `make format` on a clean tree
# changes nothing. Skips where clang-format is not installed.
. "$(dirname "$0")/lib.sh"
if ! command -v clang-format >/dev/null 2>&1; then
    skip format_clean "clang-format not installed"
    exit 0
fi
files=$(ls include/*.h src/*/*.c src/*/*.h tests/*.c tests/*.h bench/*.c)
if clang-format --dry-run --Werror $files >"$tmp/out" 2>&1; then
    pass format_clean
else
    fail format_clean "$(grep -cE 'warning:|error:' "$tmp/out") places differ from clang-format, first: $(grep -m1 -E 'warning:|error:' "$tmp/out")"
fi
exit 0
