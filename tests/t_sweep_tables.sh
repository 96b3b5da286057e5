#!/bin/sh
# t_sweep_tables.sh - tools/sweep_tables.py on two small Sioux Falls sweeps of one
# grid (2 scenarios x tau 3,10 x full,dsp; newton in A, newton,anderson in B, with
# --ue): the ladder's counts and medians are those of cells.csv; given as LABEL=B,
# every solver of B appears as "solver (LABEL)" (B's newton row equal to A's);
# given as a bare directory, only B's newton (already in A) takes B's folder name;
# the UE gap line counts the references; a sweep of another network is refused;
# the paper's columns are shown on Sioux Falls only.
. "$(dirname "$0")/lib.sh"

SF=$TNTP/SiouxFalls/SiouxFalls_net.tntp
EMA=$TNTP/Eastern-Massachusetts/EMA_net.tntp
T=tools/sweep_tables.py
if ! command -v python3 > /dev/null; then
    skip sweep_tables "python3 not found"
    exit 0
fi
run python3 $T
if [ $rc -ne 0 ] && grep -q "sweep_tables.py" "$tmp/err"; then pass sweep_tables_usage; else fail sweep_tables_usage "rc $rc"; fi
if [ ! -f "$SF" ]; then
    skip sweep_tables_siouxfalls "SiouxFalls not found in $TNTP (set DILLSUE_TNTP_DIR)"
    exit 0
fi

GRID="--net $SF --scenarios 2 --seed 5 --tau 3,10 --filter full,dsp --ue --ue-gap 1e-5 --quiet"
run "$D" sweep $GRID --solver newton --out "$tmp/a"
ra=$rc
run "$D" sweep $GRID --solver newton,anderson --out "$tmp/b"
if [ $ra -ne 0 ] || [ $rc -ne 0 ]; then
    fail sweep_tables_sweeps "sweeps exited $ra and $rc: $(tail -2 "$tmp/err")"
    exit 0
fi

run python3 $T "$tmp/a" "prev=$tmp/b"
cp "$tmp/out" "$tmp/tables"
# the row's counts and median, computed here from cells.csv (median of an even count: the mean of the middle two)
want=$(python3 -c 'import csv, sys
c = [r for r in csv.DictReader(open(sys.argv[1])) if r["tau"] == "10" and r["filter"] == "dsp" and r["solver"] == "anderson"]
it = sorted(int(r["iterations"]) for r in c if r["status"] == "converged")
n = len(it)
med = "-" if n == 0 else f"{it[n // 2]:,}" if n % 2 else f"{(it[n // 2 - 1] + it[n // 2]) / 2:,.0f}"
ill = sum(r["status"] == "ill-posed" for r in c)
print(f"| 10 | dsp | anderson (prev) | {n} | {len(c) - n - ill} | {ill} | {med} (")' "$tmp/b/cells.csv")
if [ $rc -eq 0 ] && grep -qF "$want" "$tmp/tables"; then
    pass sweep_tables_ladder_median
else
    fail sweep_tables_ladder_median "rc $rc, want '$want': $(grep '| 10 | dsp | anderson' "$tmp/tables") $(cat "$tmp/err")"
fi
# a bare directory: its anderson keeps its name, its newton (already in A) takes the folder name b
run python3 $T "$tmp/a" "$tmp/b"
if [ $rc -eq 0 ] && grep -q '^| 10 | dsp | anderson | ' "$tmp/out" && grep -q '^| 10 | dsp | newton (b) | ' "$tmp/out" &&
    ! grep -q 'anderson (' "$tmp/out"; then
    pass sweep_tables_bare_dir_names
else
    fail sweep_tables_bare_dir_names "rc $rc: $(grep '| 10 | dsp |' "$tmp/out")"
fi
# A's newton and B's newton: one engine, one grid, so the same row apart from the label and time
na=$(grep '^| 3 | full | newton |' "$tmp/tables" | cut -d'|' -f5-8)
nb=$(grep '^| 3 | full | newton (prev) |' "$tmp/tables" | cut -d'|' -f5-8)
if [ -n "$na" ] && [ "$na" = "$nb" ] && grep -q '| paper median |' "$tmp/tables" &&
    grep -q '^| 3 | full | newton | .* | 115 |' "$tmp/tables"; then
    pass sweep_tables_labelled_dir
else
    fail sweep_tables_labelled_dir "'$na' against '$nb'"
fi
if grep -q "^| full, median of 2 scenarios |" "$tmp/tables" && grep -q "^| dsp, paper S6 |" "$tmp/tables" &&
    grep -q "UE references ($tmp/a/ue): 2 scenarios, target relative gap 1e-05" "$tmp/tables"; then
    pass sweep_tables_bridge_and_ue_gap
else
    fail sweep_tables_bridge_and_ue_gap "$(grep -i 'ue ref' "$tmp/tables")"
fi

if [ -f "$EMA" ]; then
    run "$D" sweep --net "$EMA" --scenarios 1 --seed 5 --tau 10 --filter dsp --quiet --out "$tmp/e"
    run python3 $T "$tmp/a" "e=$tmp/e"
    if [ $rc -ne 0 ] && grep -q "net=" "$tmp/err"; then pass sweep_tables_other_network_refused; else fail sweep_tables_other_network_refused "rc $rc"; fi
    run python3 $T "$tmp/e"
    if [ $rc -eq 0 ] && grep -q "^EMA: 1 scenarios" "$tmp/out" && ! grep -q "paper" "$tmp/out"; then
        pass sweep_tables_paper_columns_siouxfalls_only
    else
        fail sweep_tables_paper_columns_siouxfalls_only "rc $rc: $(head -5 "$tmp/out")"
    fi
else
    skip sweep_tables_other_network "EMA not found in $TNTP"
fi
