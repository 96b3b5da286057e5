#!/bin/sh
# exports.sh HEADER... - the linker version script of libdillsue.so: every
# function the public headers declare (ds_ names followed by '('), nothing
# else; internals such as gmres_solve, run_eval or sp_dijkstra_to stay local.
echo "DILLSUE_0 {"
echo "  global:"
cat "$@" | sed 's|/\*.*\*/||g' | grep -v '^ *\*' | grep -o '\bds_[a-z0-9_]*[ ]*(' | sed 's/[ (]//g' | sort -u |
    grep -v '_fn$' | sed 's/^/    /; s/$/;/'
echo "  local: *;"
echo "};"
