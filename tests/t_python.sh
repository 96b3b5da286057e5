#!/bin/sh
# t_python.sh - the Python module (python/dillsue) over the shared library of
# this build; skips when python3 or numpy is missing.
. "$(dirname "$0")/lib.sh"
# the first python3 that has numpy (Debian's python3-numpy is for /usr/bin/python3)
PY=
for p in python3 /usr/bin/python3; do
    if command -v $p >/dev/null 2>&1 && $p -c 'import numpy' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
    skip python_module "python3 with numpy not installed (tools/setup.sh installs them)"
    exit 0
fi
lib=$(ls "$BUILD"/libdillsue.so.* 2>/dev/null | head -1)
if [ -z "$lib" ]; then fail python_module "no $BUILD/libdillsue.so.* (make lib)"; exit 0; fi
# a sanitizer build of the library cannot be loaded into a plain python3
if nm -D "$lib" | grep -q __asan_; then skip python_module "library built with AddressSanitizer"; exit 0; fi
if nm -D "$lib" | grep -q __tsan_; then skip python_module "library built with ThreadSanitizer"; exit 0; fi
DILLSUE_LIB=$lib DILLSUE_PROG=$D $PY python/tests/test_dillsue.py "$TNTP" 2>"$tmp/err" || true
[ -s "$tmp/err" ] && fail python_module_stderr "$(head -c 400 "$tmp/err")"
exit 0
