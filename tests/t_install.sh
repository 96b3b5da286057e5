#!/bin/sh
# t_install.sh - `make install DESTDIR=... PREFIX=/usr` lays out the program,
# libdillsue.so (versioned soname, public symbols only) and libdillsue.a, the
# headers, dillsue.pc, the man page and the bash completion; a C program built
# with `pkg-config --cflags --libs dillsue` against that tree solves Sioux
# Falls; `make uninstall` removes every file again.
. "$(dirname "$0")/lib.sh"
stage=$tmp/stage
MAKE=${MAKE:-make}
if ! $MAKE -s B="$BUILD" install DESTDIR="$stage" PREFIX=/usr >"$tmp/make.out" 2>&1; then
    fail install_runs "$(tail -c 600 "$tmp/make.out")"
    exit 0
fi
pass install_runs
L=$stage/usr/lib
missing=""
for f in usr/bin/dillsue usr/lib/libdillsue.a usr/lib/libdillsue.so usr/lib/libdillsue.so.0 usr/include/dillsue/dillsue.h \
    usr/include/dillsue/ds_csv.h usr/include/dillsue/ds_ue.h usr/lib/pkgconfig/dillsue.pc usr/share/man/man1/dillsue.1 \
    usr/share/bash-completion/completions/dillsue; do
    [ -e "$stage/$f" ] || missing="$missing $f"
done
[ -z "$missing" ] && pass install_layout || fail install_layout "missing:$missing"
# the paths are this install's (PREFIX=/usr), not those of the build before it
# (`make test` builds dillsue.pc and module.o for the default /usr/local first)
if grep -qx 'prefix=/usr' "$L/pkgconfig/dillsue.pc" && strings "$L/libdillsue.a" | grep -qx '/usr/lib/dillsue'; then
    pass install_paths_of_this_install
else fail install_paths_of_this_install "$(grep '^prefix' "$L/pkgconfig/dillsue.pc"); module dirs: $(strings "$L/libdillsue.a" | grep 'lib/dillsue' | head -3 | tr '\n' ' ')"; fi
if [ -f "$BUILD/libdillsue_cuda.so" ]; then
    [ -f "$L/dillsue/libdillsue_cuda.so" ] && pass install_cuda_module || fail install_cuda_module "not in /usr/lib/dillsue"
    # the installed program finds the installed module (whether a GPU is here or not)
    "$stage/usr/bin/dillsue" info --net tests/bad_input/valid.net.tntp 2>&1 | grep '^GPU' >"$tmp/gpu"
    if grep -q "not found" "$tmp/gpu"; then fail install_cuda_module_found "$(cat "$tmp/gpu")"
    else pass install_cuda_module_found; fi
else skip install_cuda_module "built without nvcc"; fi
if [ -f "$BUILD/libdillsue_mpi.so" ]; then
    [ -f "$L/dillsue/libdillsue_mpi.so" ] && pass install_mpi_module || fail install_mpi_module "not in /usr/lib/dillsue"
    # the installed program finds the installed module under mpirun and deals the cells
    if command -v mpirun > /dev/null 2>&1 && [ -r "$TNTP/SiouxFalls/SiouxFalls_net.tntp" ]; then
        env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 mpirun --oversubscribe --allow-run-as-root -np 2 \
            "$stage/usr/bin/dillsue" sweep --net "$TNTP/SiouxFalls/SiouxFalls_net.tntp" --scenarios 2 --seed 1 \
            --tau 10 --filter dsp --out "$tmp/isw" --quiet >"$tmp/out" 2>"$tmp/err"; rc=$?
        if [ $rc -eq 0 ] && grep -q '^mode=mpi' "$tmp/isw/progress" 2>/dev/null; then
            pass install_mpi_module_found
        else fail install_mpi_module_found "rc $rc: $(tail -3 "$tmp/err")"; fi
    else skip install_mpi_module_found "mpirun or Sioux Falls not here"; fi
else skip install_mpi_module "built without mpicc"; fi

soname=$(readelf -d "$L/libdillsue.so" 2>/dev/null | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = libdillsue.so.0 ] && pass install_soname || fail install_soname "soname '$soname'"
extra=$(nm -D --defined-only "$L/libdillsue.so" | awk '$2 ~ /[TDBRW]/ && $3 !~ /^ds_/ {print $3}' | head -5)
if [ -z "$extra" ] && nm -D --defined-only "$L/libdillsue.so" | grep -qE ' ds_run_execute(@@DILLSUE_0)?$' &&
    ! nm -D "$L/libdillsue.so" | grep -qE ' (gmres_solve|run_eval|sp_dijkstra_to)(@.*)?$'; then
    pass install_exports_public_api_only
else fail install_exports_public_api_only "also exported: $extra"; fi

# The static library exports the public API only, too: a program with its own
# run_now (an engine-internal name) links against it and solves.
nonds=$(nm -g --defined-only "$L/libdillsue.a" 2>/dev/null | awk 'NF == 3 && $3 !~ /^ds_/ {print $3}' | head -5)
cat >"$tmp/clash.c" <<'EOC'
#include <stdio.h>
#include "dillsue.h"
double run_now(void) { return 42; } /* a name of the embedding program's own */
int main(void)
{
    ds_error err;
    ds_config cfg;
    ds_network *net = ds_network_load_default(&err);
    if (!net) return 1;
    ds_config_default(&cfg);
    ds_run *run = ds_run_create(net, &cfg, &err);
    int ok = run && ds_run_execute(run) == DS_STATUS_CONVERGED && run_now() == 42;
    printf("%s\n", ok ? "converged" : "failed");
    ds_run_free(run);
    ds_network_free(net);
    return !ok;
}
EOC
san=""
nm "$L/libdillsue.a" 2>/dev/null | grep -q __asan_ && san="-fsanitize=address,undefined"
nm "$L/libdillsue.a" 2>/dev/null | grep -q __tsan_ && san="-fsanitize=thread"
if [ -n "$nonds" ]; then
    fail install_static_public_only "libdillsue.a defines: $nonds"
elif ! ${CC:-cc} $san -I"$stage/usr/include/dillsue" -o "$tmp/clash" "$tmp/clash.c" "$L/libdillsue.a" \
    -lklu -lcsv -lm -lpthread -ldl 2>"$tmp/cc.err"; then
    fail install_static_public_only "a program with its own run_now does not link: $(head -c 400 "$tmp/cc.err")"
elif [ "$("$tmp/clash" 2>&1)" != converged ]; then
    fail install_static_public_only "it links but does not solve: $("$tmp/clash" 2>&1 | head -c 300)"
else pass install_static_public_only; fi

if ! command -v pkg-config >/dev/null 2>&1; then
    skip install_pkg_config_program "pkg-config not installed"
else
    export PKG_CONFIG_PATH="$L/pkgconfig"
    flags=$(pkg-config --define-prefix --cflags --libs dillsue 2>"$tmp/pc.err") ||
        flags=$(pkg-config --define-variable=prefix="$stage/usr" --cflags --libs dillsue)
    # a sanitizer build of the library needs the sanitizer runtime in the program too
    san=""
    nm -D "$L/libdillsue.so" | grep -q __asan_ && san="-fsanitize=address,undefined"
    nm -D "$L/libdillsue.so" | grep -q __tsan_ && san="-fsanitize=thread"
    if ! ${CC:-cc} $san -o "$tmp/solve_sf" tests/install/solve_sf.c $flags 2>"$tmp/cc.err"; then
        fail install_pkg_config_program "does not build with '$flags': $(head -c 400 "$tmp/cc.err")"
    else
        SF=$TNTP/SiouxFalls/SiouxFalls_net.tntp
        if [ -f "$SF" ]; then
            LD_LIBRARY_PATH=$L run "$tmp/solve_sf" "$SF" "$tmp/sf.csv"
            if [ $rc -eq 0 ] && grep -q '^SiouxFalls converged' "$tmp/out" && [ "$(wc -l <"$tmp/sf.csv")" -eq 77 ]; then
                pass install_pkg_config_program_solves_siouxfalls
            else fail install_pkg_config_program_solves_siouxfalls "rc $rc: $(cat "$tmp/out" "$tmp/err" | head -c 400)"; fi
            # the same flows as the program gives
            "$stage/usr/bin/dillsue" solve --net "$SF" --tau 10 --quiet --out "$tmp/sf_cli.csv" >/dev/null 2>&1
            cmp -s "$tmp/sf.csv" "$tmp/sf_cli.csv" && pass install_library_matches_program \
                || fail install_library_matches_program "flows differ"
            # statically, as `pkg-config --static` says (Libs.private lacked
            # what libklu.a needs: btf_strongcomp undefined)
            sflags=$(pkg-config --define-prefix --static --cflags --libs dillsue 2>/dev/null) ||
                sflags=$(pkg-config --define-variable=prefix="$stage/usr" --static --cflags --libs dillsue)
            # (the libraries behind it taken statically too: with their .so
            # beside, the linker would take those and prove nothing)
            sflags=$(echo "$sflags" | sed "s|-ldillsue|$L/libdillsue.a|; s|-lklu|-Wl,-Bstatic -lklu|; s|-lcsv|-lcsv -Wl,-Bdynamic|")
            if [ -n "$san" ]; then skip install_pkg_config_static "sanitizer build"
            elif ! ${CC:-cc} -o "$tmp/solve_sf_static" tests/install/solve_sf.c $sflags 2>"$tmp/cc.err"; then
                fail install_pkg_config_static "does not link with '$sflags': $(head -c 400 "$tmp/cc.err")"
            elif run "$tmp/solve_sf_static" "$SF" "$tmp/sfs.csv" && [ $rc -eq 0 ] && cmp -s "$tmp/sfs.csv" "$tmp/sf_cli.csv"; then
                pass install_pkg_config_static
            else fail install_pkg_config_static "rc $rc: $(cat "$tmp/out" "$tmp/err" | head -c 300)"; fi
        else
            LD_LIBRARY_PATH=$L run "$tmp/solve_sf"
            [ $rc -eq 0 ] && pass install_pkg_config_program_default_network || fail install_pkg_config_program_default_network "rc $rc"
            skip install_pkg_config_program_solves_siouxfalls "no TNTP data in $TNTP"
        fi
    fi
fi
"$stage/usr/bin/dillsue" --version >"$tmp/out" 2>&1
grep -qE '^dillsue [0-9.]+ \(git [0-9a-f]+' "$tmp/out" && pass install_version_names_revision \
    || fail install_version_names_revision "$(cat "$tmp/out")"

$MAKE -s B="$BUILD" uninstall DESTDIR="$stage" PREFIX=/usr >"$tmp/make.out" 2>&1
left=$(find "$stage" ! -type d | head -5)
[ -z "$left" ] && pass uninstall_removes_everything || fail uninstall_removes_everything "left: $left"

# A DESTDIR with a space (a stage under a checkout in "My Projects") holds
# every file, and uninstall empties it: unquoted, "DIR1 DIR2" made the shell
# create DIR1 and DIR2/usr/... (both halves are under $tmp here, so that a
# split leaves nothing outside it) and install failed.
sp="$tmp/st $tmp/age"
if $MAKE -s B="$BUILD" install DESTDIR="$sp" PREFIX=/usr >"$tmp/make.out" 2>&1 &&
    [ -x "$sp/usr/bin/dillsue" ] && [ -f "$sp/usr/lib/pkgconfig/dillsue.pc" ] && [ -f "$sp/usr/include/dillsue/dillsue.h" ] &&
    [ ! -e "$tmp/st" ] && [ ! -e "$tmp/age" ]; then
    pass install_destdir_with_space
else fail install_destdir_with_space "$(tail -c 400 "$tmp/make.out")"; fi
$MAKE -s B="$BUILD" uninstall DESTDIR="$sp" PREFIX=/usr >"$tmp/make.out" 2>&1
left=$(find "$sp" ! -type d 2>/dev/null | head -5)
[ -d "$sp" ] && [ -z "$left" ] && pass uninstall_destdir_with_space || fail uninstall_destdir_with_space "left: $left"

# Debian's build flags are honoured, on the command line or in the environment,
# without losing the project's own.
$MAKE -n -B B="$tmp/flags" CPPFLAGS=-DZZ_CPP CFLAGS="-O1 -DZZ_C" LDFLAGS=-Wl,-z,relro "$tmp/flags/dillsue" >"$tmp/n.out" 2>&1
if grep -E -- '-DZZ_CPP .*-DZZ_C .*-Iinclude.*-c src/engine/tntp.c' "$tmp/n.out" >/dev/null &&
    grep -E -- "-o $tmp/flags/dillsue .*-Wl,-z,relro" "$tmp/n.out" >/dev/null; then
    pass install_build_flags_honoured
else fail install_build_flags_honoured "$(grep -E 'tntp.c|-o .*flags/dillsue' "$tmp/n.out" | head -c 400)"; fi
