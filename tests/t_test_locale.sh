#!/bin/sh
# t_test_locale.sh - the test scripts read the program's numbers whatever the
# user's locale: under LANG (or LC_ALL) de_DE.UTF-8, awk in a script that
# sources tests/lib.sh read "3.17e-08" as 3 and printed "3,000000e+00"
# (t_cli and t_load failed 7 checks that the program passed). The locale is
# built with localedef when none is installed, as t_tui_locale.sh does.
. "$(dirname "$0")/lib.sh"
LOC=
for l in de_DE.UTF-8 fr_FR.UTF-8; do
    if locale -a 2>/dev/null | grep -qix "$(echo $l | sed 's/UTF-8/utf8/')"; then LOC=$l; break; fi
done
if [ -z "$LOC" ] && command -v localedef >/dev/null 2>&1 &&
    localedef -i de_DE -f UTF-8 "$tmp/de_DE.UTF-8" >/dev/null 2>&1; then
    LOC=de_DE.UTF-8
    LOCPATH=$tmp
    export LOCPATH
fi
if [ -z "$LOC" ] || [ "$(env LC_ALL=$LOC awk 'BEGIN { printf "%.1f", 1.5 }' 2>/dev/null)" != "1,5" ]; then
    skip test_scripts_locale "no locale with a decimal comma (de_DE) and none can be built, or awk ignores it"
    exit 0
fi
for v in LANG LC_ALL; do
    got=$(env -u LANG -u LC_ALL -u LC_NUMERIC "$v=$LOC" sh -c '. tests/lib.sh; awk "BEGIN { printf \"%.3e\", \"3.17e-08\" + 0 }"' tests/t_test_locale.sh)
    [ "$got" = 3.170e-08 ] && pass "test_scripts_numbers_under_$v" || fail "test_scripts_numbers_under_$v" "awk read 3.17e-08 as '$got'"
done
