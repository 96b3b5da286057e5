#!/bin/sh
# setup.sh - install the Debian packages dillsue needs (as root or via sudo) and build.
# Used by the README's first command and by .ci/run.
set -e
PKGS="gcc make libncurses-dev libopenblas-dev liblapacke-dev libcsv-dev libsuitesparse-dev tmux python3 python3-numpy libopenmpi-dev openmpi-bin"
if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
missing=
for p in $PKGS; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
    echo "installing:$missing"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
fi
make -j"$(nproc 2>/dev/null || echo 2)"
