#!/bin/sh
# setup.sh - install the Debian packages dillsue needs (as root or via sudo) and build.
# Used by the README's first command and by .ci/run.
set -e
# the repository root, wherever this is run from (`sh /path/to/tools/setup.sh`
# ran make in the caller's directory: "No targets specified and no makefile found")
cd "$(dirname "$0")/.."
PKGS="gcc make pkgconf libncurses-dev libopenblas-dev libcsv-dev libsuitesparse-dev tmux python3 python3-numpy libopenmpi-dev openmpi-bin"
if [ "$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null 2>&1; then SUDO=sudo; else SUDO=none; fi
missing=
for p in $PKGS; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ] && [ "$SUDO" = none ]; then
    echo "setup.sh: these Debian packages are missing:$missing" >&2
    echo "setup.sh: run this as root, or with sudo installed, or have them installed (apt-get install$missing), then run it again" >&2
    exit 1
fi
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
if [ -n "$fmissing" ] && [ "$SUDO" = none ]; then
    echo "note: not installing$fmissing (optional, for make fuzz) without root or sudo"
elif [ -n "$fmissing" ] && apt-cache show $fmissing >/dev/null 2>&1; then
    echo "installing (fuzzing):$fmissing"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $fmissing || true
fi
make -j"$(nproc 2>/dev/null || echo 2)"
