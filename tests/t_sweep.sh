#!/bin/sh
# t_sweep.sh - `dillsue sweep` end to end on Sioux Falls (4 scenarios x tau 3,10 x
# full,dsp x newton,anderson = 32 cells): the local sweep, with one worker and under
# mpirun with 1, 2 and 3 ranks gives the same cells.csv (timing and rank columns
# aside) and the same flow files; cells are what `dillsue solve` computes, bit for
# bit; a sweep stopped (SIGTERM) or killed (a journal line cut short) and resumed,
# and three shards merged, give the same result; --ue MAPE agrees with `compare`.
. "$(dirname "$0")/lib.sh"

# tsv FILE: the CSV as tab-separated fields (reasons are quoted and may hold commas)
tsv() { python3 -c 'import csv, sys
for r in csv.reader(open(sys.argv[1])): print("\t".join(r))' "$1"; }
SF=$TNTP/SiouxFalls/SiouxFalls_net.tntp

run "$D" sweep --net "$SF" --scenarios 2 --seed 1
if [ $rc -eq 2 ] && grep -q -- "--out" "$tmp/err"; then pass sweep_needs_out; else fail sweep_needs_out "rc $rc"; fi
run "$D" sweep --net "$SF" --scenarios 2 --seed 1 --tau 3,abc --out "$tmp/x"
if [ $rc -eq 2 ] && grep -q "tau" "$tmp/err"; then pass sweep_bad_list; else fail sweep_bad_list "rc $rc"; fi
run "$D" sweep --net "$SF" --scenarios 2 --seed 1 --shard 4/3 --out "$tmp/x"
if [ $rc -eq 2 ]; then pass sweep_bad_shard; else fail sweep_bad_shard "rc $rc"; fi
run "$D" sweep --net "$SF" --scenarios 2 --seed 1 --solver newton,newton --out "$tmp/x"
if [ $rc -eq 2 ]; then pass sweep_repeated_solver; else fail sweep_repeated_solver "rc $rc"; fi
# a --net whose absolute path does not fit the grid (1,023 bytes) was cut, or
# kept relative, without a word: --resume from elsewhere named another file
long=$(python3 -c 'print("d/" * 520 + "x_net.tntp")')
run "$D" sweep --net "$long" --scenarios 1 --seed 1 --out "$tmp/longp"
if [ $rc -eq 2 ] && grep -q "absolute path is longer than the 1023 bytes" "$tmp/err" && [ ! -e "$tmp/longp" ]; then
    pass sweep_long_net_path_refused
else fail sweep_long_net_path_refused "rc $rc: $(head -c 300 "$tmp/err")"; fi

# --- options through the one option table: a value sweep shares with solve is
# refused by the same rule with the same words; a list item by item, naming it
msg() { # the first line of stderr without "dillsue CMD: " and a list's "(item N ...)"
    head -n 1 "$tmp/err" | sed -e 's/^dillsue [a-z]*: //' -e 's/ (item [0-9]* of the list)$//'
}
ok=1
for c in "--tau 0,3|--tau 0" "--tau=3,0|--tau=0" "--mu 1,-2|--mu -2" "--tol -1|--tol -1" "--tol=2|--tol=2" \
    "--max-iter 99999999999|--max-iter 99999999999" "--threads -5|--threads -5" "--cap=-1|--cap=-1" \
    "--filter full,nosuch|--filter nosuch" "--solver newton,bogus|--solver bogus" "--seed -3|--seed -3" \
    "--tau 1e400|--tau 1e400" "--tau 0x10|--tau 0x10" "--globalise nope|--globalise nope" \
    "--inner-max=0|--inner-max=0" "--edsp-damping 0|--edsp-damping 0" "--start=x|--start=x"; do
    sw=${c%%|*}
    so=${c#*|}
    run "$D" sweep --net "$SF" --scenarios 2 --seed 1 --out "$tmp/x" $sw
    src=$rc
    m1=$(msg)
    run "$D" solve $so
    m2=$(msg)
    if [ $src -ne 2 ] || [ $rc -ne 2 ] || [ -z "$m1" ] || [ "$m1" != "$m2" ]; then
        ok=0
        fail sweep_same_rule_as_solve "sweep $sw: rc $src '$m1'; solve $so: rc $rc '$m2'"
    fi
done
[ $ok = 1 ] && pass sweep_same_rule_as_solve
[ -e "$tmp/x" ] && fail sweep_refused_writes_nothing "$tmp/x created by a refused command line"
run "$D" sweep --net "$SF" --scenarios 2 --seed 1 --out "$tmp/x" --tau 3,10,0.5,0
if [ $rc -eq 2 ] && grep -q "^dillsue sweep: --tau must be a number > 0, got '0' (item 4 of the list)$" "$tmp/err"; then
    pass sweep_list_item_named
else fail sweep_list_item_named "rc $rc: $(cat "$tmp/err")"; fi
run "$D" sweep --net "$SF" --scenarios 2 --seed 1 --out "$tmp/x" --tau 3,10,3
if [ $rc -eq 2 ] && grep -q "lists 3 twice (items 1 and 3)" "$tmp/err"; then pass sweep_list_repeat_named
else fail sweep_list_repeat_named "rc $rc: $(cat "$tmp/err")"; fi
run "$D" sweep --net "$SF" --scenarios 2 --seed 1 --out "$tmp/x" --tau 3,3.00000000001
if [ $rc -eq 2 ] && grep -q "items 1 and 2 are equal to 10 significant digits (3), as the flow files name them" "$tmp/err"; then
    pass sweep_list_equal_to_10_digits_said
else fail sweep_list_equal_to_10_digits_said "rc $rc: $(cat "$tmp/err")"; fi
n=0
for c in "--bogus|--bogus" "--bogus=3|--bogus" "--zz-tau 3|--zz-tau"; do
    n=$((n + 1))
    run "$D" sweep --net "$SF" --scenarios 2 --seed 1 --out "$tmp/x" ${c%%|*}
    if [ $rc -eq 2 ] && grep -q "^dillsue sweep: unknown option '${c#*|}'$" "$tmp/err" && grep -q "sweep --help" "$tmp/err"; then
        pass sweep_unknown_option_named_$n
    else fail sweep_unknown_option_named_$n "${c%%|*}: rc $rc: $(cat "$tmp/err")"; fi
done
run "$D" sweep --net "$SF" --scen 2 --seed 1 --out "$tmp/x"
if [ $rc -eq 2 ] && grep -q "unknown option '--scen' (did you mean --scenarios?" "$tmp/err"; then pass sweep_no_abbreviations
else fail sweep_no_abbreviations "rc $rc: $(cat "$tmp/err")"; fi
run "$D" sweep --net "$SF" --scenarios 2 --seed 1 --out "$tmp/x" --flows=yes
if [ $rc -eq 2 ] && grep -q "option '--flows' takes no value" "$tmp/err"; then pass sweep_flag_takes_no_value
else fail sweep_flag_takes_no_value "rc $rc: $(cat "$tmp/err")"; fi
# options that would be silently ignored are refused: the grid with --merge, or
# with --resume alone (which reads it from DIR/sweep.conf)
run "$D" sweep --merge --out "$tmp/x" --net "$SF"
rc1=$rc
grep -q "^dillsue sweep: --merge solves nothing .*: no --net$" "$tmp/err"
g1=$?
run "$D" sweep --resume --out "$tmp/x" --tau 3
if [ $rc1 -eq 2 ] && [ $g1 -eq 0 ] && [ $rc -eq 2 ] && grep -q "^dillsue sweep: --tau is part of the grid" "$tmp/err"; then
    pass sweep_ignored_options_refused
else fail sweep_ignored_options_refused "rc $rc1 / $rc: $(cat "$tmp/err")"; fi
run "$D" sweep --net "$SF" --scenarios 2 --seed 1 --out "$tmp/x" --ue-gap 2 --ue
if [ $rc -eq 2 ] && grep -q "^dillsue sweep: --ue-gap must be in \[0, 1), got '2'$" "$tmp/err"; then pass sweep_ue_gap_rule
else fail sweep_ue_gap_rule "rc $rc: $(cat "$tmp/err")"; fi

if [ ! -f "$SF" ]; then
    skip sweep_siouxfalls "SiouxFalls not found in $TNTP (set DILLSUE_TNTP_DIR)"
    exit 0
fi

# Open MPI leaks in its own start-up (plugins it unloads, so no suppression can
# name them): under `make check` the leak check is off for mpirun runs only.
MPIRUN="env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 mpirun --oversubscribe --allow-run-as-root"
# a FIFO where sweep.conf belongs: refused at once (it blocked in open until a writer came)
mkdir -p "$tmp/fifo" && mkfifo "$tmp/fifo/sweep.conf"
run timeout 20 "$D" sweep --resume --out "$tmp/fifo"
if [ $rc -eq 2 ] && grep -q "no sweep here (sweep.conf is not a regular file)" "$tmp/err"; then pass sweep_conf_fifo_refused
else fail sweep_conf_fifo_refused "rc $rc: $(cat "$tmp/err")"; fi
# a new sweep there: refused, the FIFO kept (an unreadable sweep.conf was replaced as if absent)
run timeout 20 "$D" sweep --net "$SF" --scenarios 1 --seed 1 --tau 10 --filter dsp --solver newton --out "$tmp/fifo"
if [ $rc -eq 2 ] && grep -q "sweep.conf: cannot read: not a regular file" "$tmp/err" && [ -p "$tmp/fifo/sweep.conf" ]; then
    pass sweep_conf_unreadable_not_replaced
else fail sweep_conf_unreadable_not_replaced "rc $rc: $(cat "$tmp/err")"; fi

GRID="--net $SF --scenarios 4 --seed 7 --tau 3,10 --filter full,dsp --solver newton,anderson"
# cells.csv without the timing and rank columns (wall_s, t_end, rank, worker: always last)
strip() { sed 's/,[^,]*,[^,]*,[^,]*,[^,]*$//' "$1"; }
# same DIR: cells.csv (timing and rank aside) and every flow file equal to the reference
same() {
    strip "$1/cells.csv" > "$tmp/cells.cmp" 2>/dev/null &&
        cmp -s "$tmp/cells.cmp" "$tmp/ref.cells" && diff -r "$1/flows" "$tmp/ref/flows" > /dev/null
}

# --- the local sweep: the reference of everything below
run "$D" sweep $GRID --out "$tmp/ref" --flows
rows=$(tail -n +2 "$tmp/ref/cells.csv" | wc -l)
order=$(tail -n +2 "$tmp/ref/cells.csv" | cut -d, -f1 | tr '\n' ' ')
nflows=$(ls "$tmp/ref/flows" | wc -l)
if [ $rc -eq 0 ] && [ "$rows" -eq 32 ] && [ "$nflows" -eq 32 ] &&
    [ "$order" = "$(seq 0 31 | tr '\n' ' ')" ] && grep -q "32 of 32 cells done" "$tmp/out"; then
    pass sweep_local_grid_order
else
    fail sweep_local_grid_order "rc $rc, $rows rows, $nflows flow files, order '$order': $(tail -3 "$tmp/err")"
fi
# summary.csv and the table are what --merge computes from the directory: the
# time percentiles were taken from the unrounded seconds, cells.csv keeps 6 decimals
cp "$tmp/out" "$tmp/ref.table"
cp -r "$tmp/ref" "$tmp/refm"
"$D" sweep --merge --out "$tmp/refm" > "$tmp/refm.table" 2> /dev/null
if cmp -s "$tmp/ref/summary.csv" "$tmp/refm/summary.csv" && cmp -s "$tmp/ref.table" "$tmp/refm.table"; then
    pass sweep_summary_is_merge_of_dir
else fail sweep_summary_is_merge_of_dir "$(diff "$tmp/ref/summary.csv" "$tmp/refm/summary.csv" | head -4)"; fi
strip "$tmp/ref/cells.csv" > "$tmp/ref.cells"
nconv=$(grep -c ',converged,' "$tmp/ref/cells.csv")
if [ "$nconv" -eq 32 ]; then pass sweep_all_converged; else fail sweep_all_converged "$nconv of 32 converged"; fi
# summary: 8 groups, each 4 cells, all converged, medians present
if [ "$(head -1 "$tmp/ref/summary.csv" | cut -d, -f1-8)" = "tau,filter,solver,cells,converged,ill_posed,failed,iter_p10" ] &&
    [ "$(tail -n +2 "$tmp/ref/summary.csv" | awk -F, '$4 == 4 && $5 == 4 && $9 > 0' | wc -l)" -eq 8 ]; then
    pass sweep_summary_csv
else
    fail sweep_summary_csv "$(cat "$tmp/ref/summary.csv")"
fi
# the median of a group is the median of its cells' iterations
med=$(tsv "$tmp/ref/cells.csv" | awk -F'\t' '$4 == 10 && $6 == "dsp" && $7 == "newton" { print $10 }' | sort -n |
    awk '{ v[NR] = $1 } END { print (v[2] + v[3]) / 2 }')
smed=$(awk -F, '$1 == 10 && $2 == "dsp" && $3 == "newton" { print $9 }' "$tmp/ref/summary.csv")
if [ -n "$med" ] && [ "$med" = "$smed" ]; then pass sweep_summary_median; else fail sweep_summary_median "cells give $med, summary $smed"; fi

# --- cells are what `dillsue solve` computes (flows bit for bit, iterations)
ok=1
for c in "1 10 dsp anderson" "3 3 full newton" "0 10 full anderson"; do
    set -- $c
    run "$D" solve --net "$SF" --scenario $1 --seed 7 --tau $2 --filter $3 --solver $4 --quiet --out "$tmp/solve.csv"
    it=$(sed -n 's/.*| iterations \([0-9]*\) |.*/\1/p' "$tmp/out")
    cit=$(tsv "$tmp/ref/cells.csv" | awk -F'\t' -v k=$1 -v t=$2 -v f=$3 -v s=$4 '$2 == k && $4 == t && $6 == f && $7 == s { print $10 }')
    if [ $rc -ne 0 ] || ! cmp -s "$tmp/solve.csv" "$tmp/ref/flows/k000$1_tau$2_$3_$4.csv" || [ "$it" != "$cit" ]; then
        ok=0
        fail sweep_cell_equals_solve "scenario $1 tau $2 $3 $4: rc $rc, iterations solve $it sweep $cit"
    fi
done
[ $ok = 1 ] && pass sweep_cell_equals_solve

# --- solve's solver options hold in every cell: flows bit for bit those of solve
# with the same options (and not those of the defaults); sweep.conf keeps them,
# so --resume with other values is refused
SOPT="--globalise paper --start capacity --inner passes --inner-max 80"
run "$D" sweep --net "$SF" --scenarios 2 --seed 7 --tau 10 --filter full --solver newton $SOPT --out "$tmp/sopt" --flows --quiet
src=$rc
run "$D" solve --net "$SF" --scenario 1 --seed 7 --tau 10 --filter full --solver newton $SOPT --quiet --out "$tmp/sopt.csv"
if [ $src -eq 0 ] && [ $rc -eq 0 ] && cmp -s "$tmp/sopt.csv" "$tmp/sopt/flows/k0001_tau10_full_newton.csv" &&
    ! cmp -s "$tmp/sopt.csv" "$tmp/ref/flows/k0001_tau10_full_newton.csv" &&
    grep -q '^globalise=paper$' "$tmp/sopt/sweep.conf" && grep -q '^inner_max=80$' "$tmp/sopt/sweep.conf"; then
    pass sweep_solver_options_as_solve
else fail sweep_solver_options_as_solve "rc $src / $rc: $(tail -n 3 "$tmp/err")"; fi
run "$D" sweep --net "$SF" --scenarios 2 --seed 7 --tau 10 --filter full --solver newton --globalise paper --out "$tmp/sopt" --resume
if [ $rc -eq 2 ] && grep -q "another grid" "$tmp/err"; then pass sweep_solver_options_in_grid
else fail sweep_solver_options_in_grid "rc $rc: $(cat "$tmp/err")"; fi
! grep -q 'globalise\|inner\|start' "$tmp/ref/sweep.conf" || fail sweep_conf_defaults_unwritten "$(cat "$tmp/ref/sweep.conf")"

# --- --opt=value reads as --opt value: the same grid, the same cells
run "$D" sweep --net="$SF" --scenarios=4 --seed=7 --tau=3,10 --filter=full,dsp --solver=newton,anderson \
    --out="$tmp/eq" --flows --quiet
if [ $rc -eq 0 ] && same "$tmp/eq" && cmp -s "$tmp/eq/sweep.conf" "$tmp/ref/sweep.conf"; then pass sweep_equals_form
else fail sweep_equals_form "rc $rc: $(tail -n 3 "$tmp/err")"; fi

# --- one worker, and --threads 2 per cell: the same
run "$D" sweep $GRID --out "$tmp/w1" --flows --workers 1 --quiet
if [ $rc -eq 0 ] && same "$tmp/w1"; then pass sweep_one_worker_same; else fail sweep_one_worker_same "rc $rc"; fi
run "$D" sweep $GRID --out "$tmp/t2" --flows --workers 1 --threads 2 --quiet
if [ $rc -eq 0 ] && same "$tmp/t2"; then pass sweep_threads_same; else fail sweep_threads_same "rc $rc"; fi

# --- MPI: R = 1, 2, 3
if ! command -v mpirun > /dev/null 2>&1; then
    skip sweep_mpi "mpirun not found (apt-get install openmpi-bin libopenmpi-dev, then rebuild)"
elif ! "$D" sweep --help | grep -q "This build: with MPI"; then
    skip sweep_mpi "this dillsue was built without MPI (mpicc not found at build time)"
else
    for R in 1 2 3; do
        run $MPIRUN -np $R "$D" sweep $GRID --out "$tmp/mpi$R" --flows --quiet
        ranks=$(tail -n +2 "$tmp/mpi$R/cells.csv" 2>/dev/null | awk -F, '{ print $(NF-1) }' | sort -u | wc -l)
        if [ $rc -eq 0 ] && same "$tmp/mpi$R" && [ "$ranks" -ge 1 ] && [ "$ranks" -le $R ]; then
            pass sweep_mpi_np$R
        else
            fail sweep_mpi_np$R "rc $rc, $ranks ranks in cells.csv: $(tail -3 "$tmp/err")"
        fi
    done
    # a 3-rank sweep deals cells to more than one rank
    ranks=$(tail -n +2 "$tmp/mpi3/cells.csv" | awk -F, '{ print $(NF-1) }' | sort -u | wc -l)
    if [ "$ranks" -ge 2 ]; then pass sweep_mpi_dealt; else fail sweep_mpi_dealt "only $ranks rank(s) solved cells"; fi
    # --merge under mpirun (a job script's last line): rank 0 merges, once
    # (each rank merged: R tables, R writers of cells.csv at once)
    run $MPIRUN -np 3 "$D" sweep --merge --out "$tmp/mpi2"
    if [ $rc -eq 0 ] && [ "$(grep -c 'cells done' "$tmp/out")" -eq 1 ] && same "$tmp/mpi2"; then pass sweep_mpi_merge_once
    else fail sweep_mpi_merge_once "rc $rc: $(cat "$tmp/out" "$tmp/err" | tail -4)"; fi
    # Open MPI is in the module (libdillsue_mpi.so), not in the program: a
    # local sweep never loads it, and a sweep under mpirun that cannot open the
    # module stops with exit 2 and says why
    if readelf -d "$D" | grep NEEDED | grep -q libmpi; then fail sweep_mpi_module "$D links libmpi"
    else
        LD_DEBUG=files "$D" sweep --net "$SF" --scenarios 1 --seed 1 --tau 10 --filter dsp --out "$tmp/nompi" --quiet \
            > "$tmp/out" 2> "$tmp/err"; rc=$?
        if [ $rc -ne 0 ]; then fail sweep_mpi_module "local sweep: rc $rc"
        elif grep -q 'file=libmpi' "$tmp/err"; then fail sweep_mpi_module "a local sweep loaded libmpi"
        else pass sweep_mpi_module; fi
    fi
    # under a launcher (srun sets PMIX_RANK) each rank runs one cell at a time:
    # --workers would be ignored, so it is refused, before anything is written
    PMIX_RANK=0 "$D" sweep $GRID --out "$tmp/pmix" --workers 2 --quiet >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 2 ] && grep -q "^dillsue sweep: --workers is for a sweep without mpirun.*PMIX_RANK is set" "$tmp/err" &&
        [ ! -e "$tmp/pmix" ]; then
        pass sweep_mpi_workers_refused
    else fail sweep_mpi_workers_refused "rc $rc: $(tail -3 "$tmp/err")"; fi
    run $MPIRUN -np 2 -x DILLSUE_MPI_LIB=/nonexistent/libdillsue_mpi.so "$D" sweep $GRID --out "$tmp/nomod" --quiet
    if [ $rc -eq 2 ] && grep -q "started by mpirun, but the MPI module cannot be opened: DILLSUE_MPI_LIB=/nonexistent/libdillsue_mpi.so does not exist" "$tmp/err"; then
        pass sweep_mpi_module_missing
    else fail sweep_mpi_module_missing "rc $rc: $(tail -3 "$tmp/err")"; fi
fi

# --- stopped midway (SIGTERM), then --resume
"$D" sweep $GRID --out "$tmp/stop" --flows --workers 1 > "$tmp/stop.out" 2> "$tmp/stop.err" &
pid=$!
i=0
while [ $i -lt 300 ] && [ "$(cat "$tmp/stop/journal.csv" 2>/dev/null | wc -l)" -lt 6 ]; do
    sleep 0.05
    i=$((i + 1))
done
kill -TERM $pid 2> /dev/null
wait $pid
src=$?
before=$(tail -n +2 "$tmp/stop/journal.csv" | wc -l)
if [ $src -eq 4 ] && [ "$before" -lt 32 ] && grep -q -- "--resume" "$tmp/stop.err"; then
    pass sweep_sigterm_stops_exit4
elif [ $src -eq 0 ]; then
    skip sweep_sigterm_stops_exit4 "the sweep finished before the signal came"
else
    fail sweep_sigterm_stops_exit4 "rc $src, $before cells: $(cat "$tmp/stop.err")"
fi
# (without --flows: the sweep was started with it, so the resume writes flow files too)
run "$D" sweep --resume --out "$tmp/stop"
if [ $rc -eq 0 ] && same "$tmp/stop" && grep -q "$before done before, $((32 - before)) to do" "$tmp/err" &&
    grep -q "the sweep writes flow files; so does this run" "$tmp/err"; then
    pass sweep_resume_after_stop
else
    fail sweep_resume_after_stop "rc $rc: $(cat "$tmp/err")"
fi

# --- the same stop delivered twice at once (timeout signals the child and then its process
# group): still one clean stop, cells.csv written (a repeat a second or more later kills,
# as before)
slow="--net $SF --scenarios 20 --seed 1 --tau 100 --filter full --solver sra --workers 1"
"$D" sweep $slow --out "$tmp/twice" > /dev/null 2> "$tmp/twice.err" &
pid=$!
sleep 1
kill -TERM $pid 2> /dev/null
kill -TERM $pid 2> /dev/null
wait $pid
trc=$?
if [ $trc -eq 4 ] && [ -f "$tmp/twice/cells.csv" ] && grep -q -- "--resume" "$tmp/twice.err"; then
    pass sweep_double_sigterm_one_stop
else
    fail sweep_double_sigterm_one_stop "rc $trc, cells.csv $([ -f "$tmp/twice/cells.csv" ] && echo written || echo missing): $(tail -n 2 "$tmp/twice.err")"
fi

# --- a hang-up (the SSH connection of the terminal that started it drops) stops it the same way
if sig_ignored 1; then skip sweep_sighup_stops_exit4 "SIGHUP is ignored here (nohup)"
else
run_then_signal HUP "$D" sweep $slow --out "$tmp/hup"
if [ $rc -eq 4 ] && [ -f "$tmp/hup/cells.csv" ] && grep -q "sweep: hung up: stopping" "$tmp/err"; then
    pass sweep_sighup_stops_exit4
else
    fail sweep_sighup_stops_exit4 "rc $rc, cells.csv $([ -f "$tmp/hup/cells.csv" ] && echo written || echo missing): $(tail -n 2 "$tmp/err")"
fi
fi

# --- killed: the journal ends in a line cut short; cells.csv and later flows gone
mkdir -p "$tmp/kill/flows"
cp "$tmp/ref/sweep.conf" "$tmp/kill/"
head -11 "$tmp/ref/journal.csv" > "$tmp/kill/journal.csv"   # header + 10 cells
sed -n 12p "$tmp/ref/journal.csv" | cut -c1-40 | tr -d '\n' >> "$tmp/kill/journal.csv"
for c in $(tail -n +2 "$tmp/kill/journal.csv" | head -10 | cut -d, -f1); do
    f=$(awk -F, -v c=$c '$1 == c { printf "k%04d_tau%s_%s_%s.csv", $2, $4, $6, $7 }' "$tmp/ref/cells.csv")
    cp "$tmp/ref/flows/$f" "$tmp/kill/flows/"
done
run "$D" sweep --resume --out "$tmp/kill" --flows
if [ $rc -eq 0 ] && same "$tmp/kill" && grep -q "10 done before, 22 to do" "$tmp/err" && grep -q "cut short" "$tmp/err"; then
    pass sweep_resume_after_kill
else
    fail sweep_resume_after_kill "rc $rc: $(cat "$tmp/err")"
fi
# the cut line, its cell redone, is gone from the journal: a later --merge or
# --resume said "incomplete ... skipped" / "cut short ... redone" for ever
run "$D" sweep --merge --out "$tmp/kill"
if [ $rc -eq 0 ] && ! grep -q "incomplete" "$tmp/err" && [ "$(wc -l < "$tmp/kill/journal.csv")" -eq 33 ]; then
    pass sweep_cut_line_cut_off
else fail sweep_cut_line_cut_off "rc $rc, $(wc -l < "$tmp/kill/journal.csv") lines: $(cat "$tmp/err")"; fi

# --- a resume of another grid, or a new sweep over an old one, is refused
run "$D" sweep --net "$SF" --scenarios 5 --seed 7 --tau 3,10 --filter full,dsp --solver newton,anderson --out "$tmp/kill" --resume
if [ $rc -eq 2 ] && grep -q "another grid" "$tmp/err"; then pass sweep_resume_other_grid_refused; else fail sweep_resume_other_grid_refused "rc $rc: $(cat "$tmp/err")"; fi
run "$D" sweep $GRID --out "$tmp/kill"
if [ $rc -eq 2 ] && grep -q "already holds a sweep" "$tmp/err"; then pass sweep_existing_dir_refused; else fail sweep_existing_dir_refused "rc $rc"; fi
run "$D" sweep --net "$SF" --scenarios 4 --seed 7 --tau 3,30 --filter full,dsp --solver newton,anderson --out "$tmp/kill" --resume
# (and says nothing before that of what "this run" would do: it said it writes flow files)
if [ $rc -eq 2 ] && grep -q "another grid (.* differs from these options: it has 'tau=3,10', these options give 'tau=3,30')" "$tmp/err" &&
    [ "$(wc -l < "$tmp/err")" -eq 2 ]; then
    pass sweep_other_grid_names_difference
else fail sweep_other_grid_names_difference "rc $rc: $(cat "$tmp/err")"; fi

# --- a directory that holds what a sweep writes but no sweep.conf is someone
# else's: refused, nothing in it replaced or appended to (cells.csv was)
mkdir -p "$tmp/foreign"
echo hello >"$tmp/foreign/cells.csv"
run "$D" sweep --net "$SF" --scenarios 1 --seed 1 --filter dsp --solver newton --out "$tmp/foreign" --quiet
if [ $rc -eq 2 ] && grep -q "holds cells.csv but no sweep.conf: not a sweep directory" "$tmp/err" &&
    [ "$(cat "$tmp/foreign/cells.csv")" = hello ] && [ ! -e "$tmp/foreign/sweep.conf" ]; then
    pass sweep_foreign_dir_refused
else fail sweep_foreign_dir_refused "rc $rc: $(cat "$tmp/err")"; fi
# a grid whose records cannot fit in this machine's memory: refused before DIR exists
run "$D" sweep --net "$SF" --scenarios 2147483647 --seed 1 --tau 1,3,10,30,100 --out "$tmp/huge" --quiet
if [ $rc -eq 2 ] && grep -q "more than this machine's memory" "$tmp/err" && [ ! -e "$tmp/huge" ]; then
    pass sweep_huge_grid_refused_first
else fail sweep_huge_grid_refused_first "rc $rc: $(cat "$tmp/err")"; fi

# --- an output error (flows/ is a file here) stops the sweep with exit 2 and says how to finish it
"$D" sweep --net "$SF" --scenarios 2 --seed 1 --tau 10 --filter dsp --solver newton --flows --shard 1/2 --out "$tmp/ioe" --quiet >/dev/null 2>&1
rm -rf "$tmp/ioe/flows"
echo x >"$tmp/ioe/flows"
run "$D" sweep --net "$SF" --scenarios 2 --seed 1 --tau 10 --filter dsp --solver newton --flows --shard 2/2 --out "$tmp/ioe" --quiet
if [ $rc -eq 2 ] && grep -q "flows/k0001_tau10_dsp_newton.csv" "$tmp/err" &&
    grep -q "stopped by the output error above .* dillsue sweep --resume --out $tmp/ioe$" "$tmp/err"; then
    pass sweep_output_error_says_resume
else fail sweep_output_error_says_resume "rc $rc: $(cat "$tmp/err")"; fi

# --- 64 tau values at full precision: sweep.conf reads back as the same grid
# (a list cut at 1,024 characters became another grid, and MPI workers solved it)
BR=$TNTP/Braess-Example/Braess_net.tntp
L=$(awk 'BEGIN { for (i = 0; i < 64; i++) printf "%s%.17g", (i ? "," : ""), 0.07 + 0.1 * i }')
run "$D" sweep --net "$BR" --scenarios 1 --seed 1 --tau "$L" --filter dsp --solver msa --max-iter 2 --out "$tmp/long" --quiet
rc1=$rc
last=$(tail -n 1 "$tmp/long/cells.csv" | cut -d, -f4)
run "$D" sweep --merge --out "$tmp/long"
if [ $rc1 -eq 0 ] && [ $rc -eq 0 ] && [ "$(($(wc -l <"$tmp/long/cells.csv") - 1))" -eq 64 ] && [ "$last" = "${L##*,}" ]; then
    pass sweep_long_list_reads_back
else fail sweep_long_list_reads_back "rc $rc1/$rc, last tau '$last' want '${L##*,}': $(head -c 300 "$tmp/err")"; fi

# --- the --resume a message suggests is a command a shell runs as such, DIR
# one word whatever it holds (a space split it in two)
sp="$tmp/it's a dir"
run "$D" sweep --net "$BR" --scenarios 2 --seed 1 --tau 10 --filter dsp --solver newton --shard 1/2 --out "$sp" --quiet
run "$D" sweep --merge --out "$sp"
cmd=$(sed -n 's/.* missing shards or //p' "$tmp/err")
if (eval "set -- $cmd") 2>/dev/null; then
    eval "set -- $cmd"
    run "$D" sweep "$@" --quiet
else rc=99; fi
if [ -n "$cmd" ] && [ $rc -eq 0 ] && [ "$(wc -l < "$sp/cells.csv")" -eq 3 ]; then pass sweep_suggested_resume_is_shell_words
else fail sweep_suggested_resume_is_shell_words "'$cmd': rc $rc: $(cat "$tmp/err")"; fi

# --- the printed table names tau as summary.csv does (it printed 3.0001 and
# 3.00012 both as "3", and 123456.7 as 1.235e+05)
run "$D" sweep --net "$BR" --scenarios 1 --seed 1 --tau 3.0001,3.00012,123456.7 --filter dsp --solver msa --max-iter 2 \
    --out "$tmp/tlab" --quiet
if [ $rc -eq 0 ] && [ "$(sed -n '2,4p' "$tmp/out" | awk '{ print $1 }')" = "$(tail -n +2 "$tmp/tlab/summary.csv" | cut -d, -f1)" ]; then
    pass sweep_table_tau_as_summary
else fail sweep_table_tau_as_summary "rc $rc: $(cat "$tmp/out")"; fi

# --- --mu: cells.csv gives tau too (mu x the scenario's cbar, as `solve --tau` prints it)
run "$D" sweep --net "$SF" --scenarios 1 --seed 1 --mu 0.5 --filter dsp --solver newton --out "$tmp/mu" --quiet
tau_mu=$(sed -n 2p "$tmp/mu/cells.csv" | cut -d, -f4)
cbar=$("$D" solve --net "$SF" --tau 3 --filter dsp --max-iter 1 2>/dev/null | sed -n 's/.*| cbar \([0-9.e+-]*\) |.*/\1/p')
if [ $rc -eq 0 ] && [ -n "$tau_mu" ] && [ -n "$cbar" ] &&
    awk -v t="$tau_mu" -v c="$cbar" 'BEGIN { r = t / (0.5 * c); exit !(r > 0.999999 && r < 1.000001) }'; then
    pass sweep_mu_cells_give_tau
else fail sweep_mu_cells_give_tau "rc $rc: tau '$tau_mu', cbar '$cbar'"; fi

# --- three shards and a merge
for k in 1 2; do run "$D" sweep $GRID --out "$tmp/shard" --flows --shard $k/3 --quiet; done
run "$D" sweep --merge --out "$tmp/shard"
if [ $rc -eq 1 ] && grep -q "missing" "$tmp/err"; then pass sweep_merge_incomplete_exit1; else fail sweep_merge_incomplete_exit1 "rc $rc"; fi
run "$D" sweep $GRID --out "$tmp/shard" --flows --shard 3/3 --quiet
shard_rc=$rc
run "$D" sweep --merge --out "$tmp/shard"
if [ $shard_rc -eq 0 ] && [ $rc -eq 0 ] && [ -f "$tmp/shard/journal-2-of-3.csv" ] && same "$tmp/shard"; then
    pass sweep_shards_merge_same
else
    fail sweep_shards_merge_same "rc $shard_rc/$rc: $(cat "$tmp/err")"
fi

# --- one process at a time writes a directory (flock): a --resume while the
# sweep still runs redid every cell the sweep had not finished, both appending
# to one journal; shards run side by side, but not one shard twice. flock(1)
# holds the lock here as a running sweep would.
one="--net $SF --scenarios 2 --seed 1 --tau 3 --filter dsp --solver newton --quiet"
if command -v flock > /dev/null 2>&1; then
    run "$D" sweep $one --shard 1/2 --out "$tmp/lk"
    run flock -x "$tmp/lk/sweep.conf" "$D" sweep --resume --out "$tmp/lk"
    if [ $rc -eq 2 ] && grep -q "another sweep is writing $tmp/lk (it holds the lock of $tmp/lk/sweep.conf)" "$tmp/err" &&
        [ ! -e "$tmp/lk/journal.csv" ] && [ ! -e "$tmp/lk/cells.csv" ]; then
        pass sweep_dir_locked_resume_refused
    else fail sweep_dir_locked_resume_refused "rc $rc: $(cat "$tmp/err")"; fi
    run flock -x "$tmp/lk/journal-1-of-2.csv" "$D" sweep $one --shard 1/2 --out "$tmp/lk"
    rc1=$rc
    run flock -s "$tmp/lk/sweep.conf" "$D" sweep $one --shard 2/2 --out "$tmp/lk"
    if [ $rc1 -eq 2 ] && [ $rc -eq 0 ] && [ "$(wc -l < "$tmp/lk/journal-2-of-2.csv")" -eq 2 ]; then
        pass sweep_shard_locks
    else fail sweep_shard_locks "rc $rc1/$rc: $(cat "$tmp/err")"; fi
    # two new sweeps started at once: both found no sweep.conf, both wrote it
    # (a rename), and both ran every cell; one of them is refused now
    ok=1
    for i in 1 2 3 4 5; do
        "$D" sweep $one --out "$tmp/twin$i" > /dev/null 2> "$tmp/twin$i.a" &
        _p1=$!
        "$D" sweep $one --out "$tmp/twin$i" > /dev/null 2> "$tmp/twin$i.b" &
        _p2=$!
        wait $_p1
        r1=$?
        wait $_p2
        r2=$?
        if [ $((r1 + r2)) -ne 2 ] || [ "$(tail -n +2 "$tmp/twin$i/journal.csv" | cut -d, -f1 | sort | uniq -d)" ]; then
            ok=0
            fail sweep_twin_start_one_runs "try $i: rc $r1/$r2: $(cat "$tmp/twin$i.a" "$tmp/twin$i.b")"
            break
        fi
    done
    [ $ok = 1 ] && pass sweep_twin_start_one_runs
else
    skip sweep_dir_locked_resume_refused "no flock(1)"
fi

# --- a journal of another grid (tau 10) copied beside this grid's (tau 3) is
# skipped, never taken for a cell; sweep.conf is read by the command line's
# rules (a key or a list value twice is refused); no percentile over no
# converged cell reaches summary.csv or the table as nan
one="--net $SF --scenarios 2 --seed 1 --filter dsp --solver newton --quiet"
run "$D" sweep $one --tau 3 --shard 1/2 --out "$tmp/ga"
run "$D" sweep $one --tau 10 --shard 2/2 --out "$tmp/gb"
cp "$tmp/gb/journal-2-of-2.csv" "$tmp/ga/"
run "$D" sweep --merge --out "$tmp/ga"
if [ $rc -eq 1 ] && grep -q "1 of 2 cells missing" "$tmp/err" && ! grep -q '^10,' "$tmp/ga/summary.csv"; then
    pass sweep_merge_other_grid_skipped
else fail sweep_merge_other_grid_skipped "rc $rc: $(cat "$tmp/err") $(cat "$tmp/ga/summary.csv")"; fi
cp -r "$tmp/ga" "$tmp/gc"
printf 'tau=3\n' >> "$tmp/gc/sweep.conf"
run "$D" sweep --merge --out "$tmp/gc"
if [ $rc -eq 2 ] && grep -q "sweep.conf:[0-9]*: tau given a second time" "$tmp/err"; then pass sweep_conf_key_twice_refused
else fail sweep_conf_key_twice_refused "rc $rc: $(cat "$tmp/err")"; fi
sed -i 's/^tau=3$/tau=10,10/; $d' "$tmp/gc/sweep.conf"
run "$D" sweep --merge --out "$tmp/gc"
if [ $rc -eq 2 ] && grep -q "10 listed twice" "$tmp/err"; then pass sweep_conf_value_twice_refused
else fail sweep_conf_value_twice_refused "rc $rc: $(cat "$tmp/err") $(cat "$tmp/gc/sweep.conf")"; fi
run "$D" sweep --net "$SF" --scenarios 2 --seed 1 --tau 10 --filter dsp --solver newton --max-iter 1 --out "$tmp/gn"
if [ $rc -eq 0 ] && ! grep -qi 'nan' "$tmp/gn/summary.csv" "$tmp/out" && grep -q '^10,dsp,newton,2,0,0,2,,,' "$tmp/gn/summary.csv"; then
    pass sweep_summary_no_nan
else fail sweep_summary_no_nan "rc $rc: $(cat "$tmp/gn/summary.csv" "$tmp/out")"; fi

# --- --ue: a UE reference per scenario, MAPE per cell as `compare` computes it
UEGRID="--net $SF --scenarios 2 --seed 7 --tau 10 --filter dsp --solver newton,anderson --ue --ue-gap 1e-6"
run "$D" sweep $UEGRID --flows --out "$tmp/ue"
mape=$(tsv "$tmp/ue/cells.csv" | awk -F'\t' '$2 == 1 && $7 == "newton" { printf "%.4f", $18 }')
cmape=$("$D" compare "$tmp/ue/flows/k0001_tau10_dsp_newton.csv" "$tmp/ue/ue/k0001.csv" | awk '/^MAPE/ { print $2 }')
if [ $rc -eq 0 ] && [ -n "$mape" ] && [ "$mape" = "$cmape" ] && grep -q "UE references: 2 of 2" "$tmp/out" &&
    grep -q "^status=converged" "$tmp/ue/ue/k0001.txt"; then
    pass sweep_ue_mape
else
    fail sweep_ue_mape "rc $rc, sweep MAPE '$mape', compare '$cmape': $(cat "$tmp/out" "$tmp/err")"
fi
# numbers of the directory by the rule of every reader: a journal row with
# inf, nan, a hexadecimal float or an integer beyond an int is skipped and its
# cell redone (strtol/strtod took them: 4294967313 iterations read as 17); a
# UE reference's rel_gap=inf is no gap ("relative gap <= inf")
cp -r "$tmp/ue" "$tmp/uen"
j=$(ls "$tmp/uen"/journal*.csv | head -1)
awk -F, 'BEGIN { OFS = "," } NR == 2 { $13 = "inf" } NR == 3 { $10 = "4294967313" } { print }' "$j" >"$tmp/j.new" && cat "$tmp/j.new" >"$j"
sed -i 's/^rel_gap=.*/rel_gap=0x1p+4/' "$tmp/uen/ue/k0001.txt"
run "$D" sweep --merge --out "$tmp/uen"
r1=$rc o1=$(cat "$tmp/out" "$tmp/err")
sed -i 's/^rel_gap=.*/rel_gap=inf/' "$tmp/uen/ue/k0001.txt"
run "$D" sweep --resume --out "$tmp/uen"
if [ $r1 -eq 1 ] && echo "$o1" | grep -q "UE references: 1 of 2 scenarios" && [ $rc -eq 0 ] &&
    grep -q "^dillsue sweep: 2 journal lines .* hold a field that is no number" "$tmp/err" && grep -q "2 to do" "$tmp/err" &&
    grep -q "UE references: 1 of 2 scenarios, relative gap <= [0-9.e-]* (target" "$tmp/out"; then
    pass sweep_dir_numbers_refused
else fail sweep_dir_numbers_refused "merge rc $r1: $o1 / resume rc $rc: $(cat "$tmp/out" "$tmp/err")"; fi
# no reference in ue/ (a sweep stopped while solving them): none is said to
# be exact ("relative gap <= 0")
cp -r "$tmp/ue" "$tmp/ue0" && rm -f "$tmp/ue0"/ue/*
run "$D" sweep --merge --out "$tmp/ue0"
if grep -q "UE references: 0 of 2 scenarios (target 1e-06)" "$tmp/out" && ! grep -q "gap <= 0 " "$tmp/out"; then
    pass sweep_no_ue_reference_no_gap
else fail sweep_no_ue_reference_no_gap "rc $rc: $(cat "$tmp/out")"; fi
# (its --resume has nothing to do, nor references to solve: it said "0 to do (and the UE references they need)")
run "$D" sweep --resume --out "$tmp/ue0"
if [ $rc -eq 0 ] && grep -q "4 done before, 0 to do$" "$tmp/err"; then pass sweep_nothing_to_do_said
else fail sweep_nothing_to_do_said "rc $rc: $(cat "$tmp/err")"; fi
# sweep.conf names the network by an absolute path: --resume (and the TUI's
# replay) find it from any directory; a directory written before that (the
# path as typed) is still resumed with the same options
case "$D" in /*) DA=$D ;; *) DA=$PWD/$D ;; esac
run "$D" sweep --net "$SF" --scenarios 2 --seed 5 --tau 10 --filter dsp --solver newton --shard 1/2 --out "$tmp/abs" --quiet
rc1=$rc
net=$(sed -n 's/^net=//p' "$tmp/abs/sweep.conf")
(cd / && "$DA" sweep --resume --out "$tmp/abs" --quiet > /dev/null 2> "$tmp/abs.err")
if [ $rc1 -eq 0 ] && [ $? -eq 0 ] && [ "${net#/}" != "$net" ] && [ "$(wc -l < "$tmp/abs/cells.csv")" -eq 3 ]; then
    pass sweep_conf_absolute_resume_elsewhere
else fail sweep_conf_absolute_resume_elsewhere "rc $rc1, net=$net: $(cat "$tmp/abs.err")"; fi
run "$D" sweep --net "$SF" --scenarios 2 --seed 5 --tau 10 --filter dsp --solver newton --shard 1/2 --out "$tmp/typed" --quiet
sed -i "s|^net=.*|net=$SF|" "$tmp/typed/sweep.conf"
run "$D" sweep --net "$SF" --scenarios 2 --seed 5 --tau 10 --filter dsp --solver newton --resume --out "$tmp/typed" --quiet
if [ $rc -eq 0 ] && [ "$(wc -l < "$tmp/typed/cells.csv")" -eq 3 ] && grep -q "^net=$SF$" "$tmp/typed/sweep.conf"; then
    pass sweep_conf_typed_path_resumed
else fail sweep_conf_typed_path_resumed "rc $rc: $(cat "$tmp/err")"; fi
# a network file edited in place since the sweep began is refused by --resume
# (with and without the grid's options) and by another shard, naming the file;
# a directory made before sweep.conf held the checksums resumes as before
mkdir -p "$tmp/edit"
cp "$SF" "$tmp/edit/SF_net.tntp"
cp "${SF%_net.tntp}_trips.tntp" "$tmp/edit/SF_trips.tntp"
EG="--net $tmp/edit/SF_net.tntp --scenarios 2 --seed 5 --tau 10 --filter dsp --solver newton"
run "$D" sweep $EG --shard 1/2 --out "$tmp/ed" --quiet
rc1=$rc
cp -r "$tmp/ed" "$tmp/ed_old"
sed -i '/^inputs=/d' "$tmp/ed_old/sweep.conf"
awk 'done != 1 && $1 == "1" && $2 == "2" { $3 = $3 / 2; done = 1 } { print }' "$tmp/edit/SF_net.tntp" > "$tmp/edit/x" &&
    mv "$tmp/edit/x" "$tmp/edit/SF_net.tntp"
run "$D" sweep --resume --out "$tmp/ed" --quiet
rc2=$rc
grep -q "ed: the network file changed since the sweep began (sweep.conf's inputs=" "$tmp/err"
said=$?
run "$D" sweep $EG --resume --out "$tmp/ed" --quiet
rc3=$rc
run "$D" sweep $EG --shard 2/2 --out "$tmp/ed" --quiet
rc4=$rc
run "$D" sweep --resume --out "$tmp/ed_old" --quiet
if [ $rc1 -eq 0 ] && grep -q '^inputs=[0-9a-f]\{16\}:[0-9a-f]\{16\}$' "$tmp/ed/sweep.conf" && [ $rc2 -eq 2 ] && [ $said -eq 0 ] &&
    [ $rc3 -eq 2 ] && [ $rc4 -eq 2 ] && [ "$(wc -l < "$tmp/ed/journal-1-of-2.csv")" -eq 2 ] && [ $rc -eq 0 ]; then
    pass sweep_inputs_changed_refused
else fail sweep_inputs_changed_refused "rc $rc1 $rc2 ($said) $rc3 $rc4, old dir $rc: $(cat "$tmp/err")"; fi
# the same with 3 ranks (cells may finish before their scenario's reference and wait for it)
if command -v mpirun > /dev/null 2>&1 && "$D" sweep --help | grep -q "This build: with MPI"; then
    run $MPIRUN -np 3 "$D" sweep $UEGRID --out "$tmp/ue3" --quiet
    strip "$tmp/ue/cells.csv" > "$tmp/ue.cells"
    if [ $rc -eq 0 ] && strip "$tmp/ue3/cells.csv" | cmp -s - "$tmp/ue.cells" && cmp -s "$tmp/ue/ue/k0001.csv" "$tmp/ue3/ue/k0001.csv"; then
        pass sweep_ue_mpi_same
    else
        fail sweep_ue_mpi_same "rc $rc: $(cat "$tmp/err")"
    fi
fi
exit 0
