#!/bin/sh
# t_gpu_fmad.sh - the device's + - * / are the host's, bit for bit: the CUDA
# module is compiled without fused multiply-adds (-fmad=false, Makefile
# NVCC_FP). nvcc contracts a * b + c into one FMA by default, one rounding where
# the host, the CPU emulation of the kernels and the CPU backend round twice,
# so the emulation that `make test` runs would not be the device's arithmetic
# (dsk_cost's t0 (1 + b r^4) + fixed, every sum of the flows, J v, dot products
# and mat-vecs). Where nvcc exists: the command make builds the module with
# must have -fmad=false, and PTX compiled with that command's flags must hold
# no fma.rn.f64 in any kernel that calls no exp, log or pow (those are CUDA's
# own functions, which use FMAs inside and differ from glibc's anyway).
. "$(dirname "$0")/lib.sh"

NVCC=$(command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
if [ -z "$NVCC" ]; then
    skip gpu_fmad_off "no nvcc (PATH, /usr/local/cuda/bin): no device code is built"
    exit 0
fi

# the command make runs for the module (whether or not it is up to date)
cmd=$(make -s -n -B B="$BUILD" NVCC="$NVCC" "$BUILD/libdillsue_cuda.so" 2>/dev/null | grep -- ' -shared ' | tail -1)
if [ -z "$cmd" ]; then
    fail gpu_fmad_off "make -n printed no nvcc command for $BUILD/libdillsue_cuda.so"
    exit 0
fi
case " $cmd " in
*" -fmad=false "*) ;;
*)
    fail gpu_fmad_off "the CUDA module is built without -fmad=false: $cmd"
    exit 0
    ;;
esac

# the same command, for one virtual architecture's PTX instead of the module
ptx_cmd=""
skip_next=0
for w in $cmd; do
    if [ $skip_next -eq 1 ]; then
        skip_next=0
        continue
    fi
    case $w in
    -gencode | -cudart | -o) skip_next=1 ;;
    -shared) ;;
    *) ptx_cmd="$ptx_cmd $w" ;;
    esac
done
if ! $ptx_cmd -arch=compute_90 -ptx -o "$tmp/k.ptx" >"$tmp/out" 2>"$tmp/err"; then
    fail gpu_fmad_off "PTX with the module's flags did not compile: $(tail -3 "$tmp/err")"
    exit 0
fi
# kernels (".entry dsg_g_NAME") with an FMA; the library functions (".func")
# that follow the kernels are not counted
awk '/\.entry/ { name = $0; sub(/.*dsg_g_/, "", name); sub(/5dsg_k.*/, "", name); next }
     /^[.a-z ]*\.func/ { name = ""; next }
     /fma\.rn\.f64/ && name != "" { n[name]++ }
     END { for (k in n) print k, n[k] }' "$tmp/k.ptx" | sort >"$tmp/fma"
# the kernels whose bodies call exp, log or pow (dsk_exp_weight, dsk_logsumexp,
# dsk_z_start, dsk_v_from_z, dsk_cost and dsk_cost_deriv's general power)
bad=$(awk '$1 !~ /^(bell_full|bell_dag|wred_full|zinit_full|vz_full|costs|dtv)$/' "$tmp/fma" | tr '\n' ' ')
kernels=$(grep -c '\.entry' "$tmp/k.ptx")
if [ "$kernels" -lt 40 ]; then
    fail gpu_fmad_off "found $kernels kernels in the PTX, expected every kernel of DSG_KERNELS"
elif [ -n "$bad" ]; then
    fail gpu_fmad_off "fused multiply-adds in kernels that call no exp/log/pow (kernel count): $bad"
else
    echo "# $kernels kernels, FMAs only in exp/log/pow: $(tr '\n' ' ' <"$tmp/fma")"
    pass gpu_fmad_off
fi
