#!/bin/sh
# t_docs_options.sh - what the documentation says about options is true for
# every command, from the one option table (`dillsue --list-options CMD`):
# the man page (docs/dillsue.1) names every option of a command in that
# command's entry and no option the command refuses; the bash completion
# (tools/dillsue.bash-completion) offers exactly the table's options and,
# after an option that takes names, exactly those names; every `dillsue CMD`
# example in README.md and docs/*.md uses only options CMD takes.
. "$(dirname "$0")/lib.sh"
MAN=docs/dillsue.1
COMP=tools/dillsue.bash-completion
CMDS="solve ue info compare load tui sweep"

if [ ! -x "$D" ]; then
    fail docs_options "$D not built"
    exit 0
fi

# ------------------------------------------------------------ the man page
# Each command's entry: from ".TP" + ".B CMD" (outside .RS/.RE) to the next
# such entry or section, with \- read as - and font escapes dropped.
man_entry() {
    awk -v cmd="$1" '
    { gsub(/\\-/, "-"); gsub(/\\f[BIRP]/, "") }
    /^\.SH/ { inside = 0 }
    /^\.RS/ { depth++ } /^\.RE/ { depth-- }
    tp && depth == 0 { inside = ($0 ~ "^\\.BI? " cmd "( |$)") }
    { tp = ($0 == ".TP" && depth == 0) }
    inside { print }' "$MAN"
}
for cmd in $CMDS; do
    man_entry "$cmd" >"$tmp/man_$cmd"
    if ! [ -s "$tmp/man_$cmd" ]; then
        fail "docs_man_$cmd" "no entry for $cmd in $MAN"
        continue
    fi
    missing=""
    for o in $("$D" --list-options "$cmd"); do
        [ "$o" = --help ] && continue
        grep -q -- "$o\([^a-z-]\|$\)" "$tmp/man_$cmd" || missing="$missing $o"
    done
    "$D" --list-options "$cmd" >"$tmp/opts_$cmd"
    wrong=""
    for o in $(grep -o -- '--[a-z][a-z-]*' "$tmp/man_$cmd" | sort -u); do
        grep -qx -- "$o" "$tmp/opts_$cmd" || wrong="$wrong $o"
    done
    if [ -n "$missing" ]; then fail "docs_man_$cmd" "$MAN does not describe:$missing"
    elif [ -n "$wrong" ]; then fail "docs_man_$cmd" "$MAN names options $cmd does not take:$wrong"
    else pass "docs_man_$cmd"; fi
done

# ------------------------------------------------------------ bash completion
if ! command -v bash >/dev/null 2>&1; then
    skip docs_completion "bash not installed"
else
    # complete WORDS...: what the completion offers for the last word, sorted
    cat >"$tmp/complete.sh" <<'EOS'
complete() { :; }
. "$1"; shift
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
_dillsue
printf '%s\n' "${COMPREPLY[@]}" | sort
EOS
    comp() { bash "$tmp/complete.sh" "$COMP" "$D" "$@"; }
    for cmd in $CMDS; do
        bad=""
        comp "$cmd" -- >"$tmp/got"
        "$D" --list-options "$cmd" | sort >"$tmp/want"
        cmp -s "$tmp/got" "$tmp/want" || bad=" options: $(diff "$tmp/want" "$tmp/got" | grep '^[<>]' | tr '\n' ' ')"
        for o in $("$D" --list-options "$cmd"); do
            "$D" --list-values "$cmd" "$o" | sort >"$tmp/want"
            [ -s "$tmp/want" ] || continue
            comp "$cmd" "$o" "" >"$tmp/got"
            cmp -s "$tmp/got" "$tmp/want" || bad="$bad $o: $(tr '\n' ' ' <"$tmp/got")"
        done
        if [ -n "$bad" ]; then fail "docs_completion_$cmd" "$bad"; else pass "docs_completion_$cmd"; fi
    done
    # the names are the table's: a choice option lists what its parser takes
    if [ "$("$D" --list-values sweep --globalise | tr '\n' ' ')" = "linesearch paper ptc " ] &&
        [ "$("$D" --list-values solve --filter | tr '\n' ' ')" = "full dsp bfs edsp " ] &&
        [ -z "$("$D" --list-values sweep --tau)" ]; then
        pass docs_list_values
    else fail docs_list_values "$("$D" --list-values sweep --globalise)"; fi
    # a directory after sweep's --out, no file after its --flows (a flag there)
    mkdir -p "$tmp/cd/subdir" && : >"$tmp/cd/file.csv"
    (cd "$tmp/cd" && bash "$tmp/complete.sh" "$OLDPWD/$COMP" dillsue sweep --out "") >"$tmp/got"
    (cd "$tmp/cd" && bash "$tmp/complete.sh" "$OLDPWD/$COMP" dillsue load --out "") >"$tmp/got2"
    if [ "$(cat "$tmp/got")" = subdir ] && grep -q file.csv "$tmp/got2"; then pass docs_completion_paths
    else fail docs_completion_paths "sweep --out: $(cat "$tmp/got"); load --out: $(cat "$tmp/got2")"; fi
    # a file name with a space is one word (it was offered as "my" and "net.tntp")
    : >"$tmp/cd/my net.tntp"
    (cd "$tmp/cd" && bash "$tmp/complete.sh" "$OLDPWD/$COMP" dillsue solve --net my) >"$tmp/got" 2>/dev/null
    if [ "$(cat "$tmp/got")" = "my net.tntp" ]; then pass docs_completion_name_with_space
    else fail docs_completion_name_with_space "offered: $(tr '\n' '|' <"$tmp/got")"; fi
    # --opt=value: bash passes "--filter" "=" ["e"]; the values are the option's
    comp solve --filter = >"$tmp/got"
    "$D" --list-values solve --filter | sort >"$tmp/want"
    if cmp -s "$tmp/got" "$tmp/want" && [ "$(comp solve --filter = e)" = edsp ]; then pass docs_completion_opt_equals
    else fail docs_completion_opt_equals "after --filter=: $(tr '\n' ' ' <"$tmp/got")"; fi
fi

# ------------------------------------------------------------ examples
# Every "dillsue CMD ..." line of a code block (continuation lines joined)
# uses options CMD takes.
bad=""
for f in README.md docs/*.md; do
    sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$f" | grep -o 'dillsue [a-z]* [^`|]*' >"$tmp/ex" || continue
    while read -r _ cmd rest; do
        case " $CMDS " in *" $cmd "*) ;; *) continue ;; esac
        for o in $(printf '%s\n' "$rest" | grep -o -- '--[a-z][a-z-]*'); do
            "$D" --list-options "$cmd" | grep -qx -- "$o" || bad="$bad $f:'dillsue $cmd ... $o'"
        done
    done <"$tmp/ex"
done
if [ -n "$bad" ]; then fail docs_examples "options the command does not take:$bad"
else pass docs_examples; fi

# docs/files.md's table of the history CSV names every column the program
# writes, in order, and no other
"$D" solve --quiet --max-iter 1 --history "$tmp/hist.csv" >/dev/null 2>&1
head -n 1 "$tmp/hist.csv" | tr ',' '\n' >"$tmp/hcols"
sed -n '/^## The history CSV/,/^## /p' docs/files.md | grep '^| `' | cut -d'|' -f2 | grep -o '`[a-z_]*`' |
    tr -d '`' >"$tmp/dcols"
if [ -s "$tmp/hcols" ] && cmp -s "$tmp/hcols" "$tmp/dcols"; then pass docs_history_columns
else fail docs_history_columns "$(diff "$tmp/hcols" "$tmp/dcols" | grep '^[<>]' | tr '\n' ' ')"; fi
exit 0
