#!/bin/sh
# t_setup.sh - tools/setup.sh (the README's first command) with stand-ins for
# dpkg, id and make on a PATH of their own: run from another directory it
# builds in the repository root (make ran in the caller's directory: "No
# targets specified"); as a user without root and without sudo, with packages
# missing, it says which and how to get them and stops before building
# (it said "sudo: not found" and exited 127).
. "$(dirname "$0")/lib.sh"
root=$PWD
mkdir -p "$tmp/bin" "$tmp/elsewhere"
for c in dirname nproc cat; do ln -s "$(command -v $c)" "$tmp/bin/$c"; done
cat >"$tmp/bin/make" <<'EOS'
#!/bin/sh
pwd >"$STUB_LOG"
EOS
cat >"$tmp/bin/dpkg" <<'EOS'
#!/bin/sh
[ "$2" = "$STUB_MISSING" ] && exit 1
exit 0
EOS
cat >"$tmp/bin/id" <<'EOS'
#!/bin/sh
echo 1000
EOS
chmod +x "$tmp/bin/make" "$tmp/bin/dpkg" "$tmp/bin/id"

(cd "$tmp/elsewhere" && PATH="$tmp/bin" STUB_LOG="$tmp/make.pwd" STUB_MISSING=none \
    /bin/sh "$root/tools/setup.sh") >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(cat "$tmp/make.pwd" 2>/dev/null)" = "$root" ]; then pass setup_from_another_directory
else fail setup_from_another_directory "rc $rc, make ran in '$(cat "$tmp/make.pwd" 2>/dev/null)': $(cat "$tmp/err")"; fi

rm -f "$tmp/make.pwd"
(cd "$tmp/elsewhere" && PATH="$tmp/bin" STUB_LOG="$tmp/make.pwd" STUB_MISSING=libcsv-dev \
    /bin/sh "$root/tools/setup.sh") >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && [ ! -e "$tmp/make.pwd" ] && grep -q 'missing: libcsv-dev' "$tmp/err" &&
    grep -q 'root.*sudo' "$tmp/err"; then pass setup_without_sudo_says_what_is_missing
else fail setup_without_sudo_says_what_is_missing "rc $rc: $(cat "$tmp/out" "$tmp/err")"; fi
