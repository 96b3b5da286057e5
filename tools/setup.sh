#!/bin/sh
# setup.sh - install the Debian packages dillsue needs (as root or via sudo) and build.
# Used by the README's first command and by .ci/run.
set -e
PKGS="gcc make pkgconf libncurses-dev libopenblas-dev libcsv-dev libsuitesparse-dev tmux python3 python3-numpy libopenmpi-dev openmpi-bin"
if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
missing=
for p in $PKGS; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
    echo "installing:$missing"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
fi
# clang's libFuzzer for `make fuzz` / the short fuzz run of `make check`
# (optional: skipped where the distribution does not have it).
FUZZ_PKGS="clang libclang-rt-14-dev"
fmissing=
for p in $FUZZ_PKGS; do dpkg -s "$p" >/dev/null 2>&1 || fmissing="$fmissing $p"; done
if [ -n "$fmissing" ] && apt-cache show $fmissing >/dev/null 2>&1; then
    echo "installing (fuzzing):$fmissing"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $fmissing || true
fi
make -j"$(nproc 2>/dev/null || echo 2)"
