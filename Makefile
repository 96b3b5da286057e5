# dillsue - build, test, bench.  `make`, `make test`, `make check`, `make tsan`, `make bench`.
CC       ?= gcc
OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
override CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -pthread -Iinclude -Isrc/engine -I/usr/include/suitesparse
# no fused multiply-adds on the host either: gcc in ISO C mode contracts none,
# clang contracts within an expression by default (-ffp-contract=on) wherever
# the target has FMA (-march=native), which would give the CPU backend and the
# GPU emulation other bits than the device's (-fmad=false below)
override CFLAGS += -ffp-contract=off
LDLIBS   := -lklu -lcsv -lm -lpthread
TUILIBS  := -lncursesw
B        ?= build

ENGINE_SRC := $(sort $(wildcard src/engine/*.c))
APP_SRC    := $(sort $(wildcard src/cli/*.c src/tui/*.c))
TEST_SRC   := $(sort $(wildcard tests/test_*.c))
BENCH_SRC  := $(sort $(wildcard bench/*.c))

ENGINE_OBJ := $(ENGINE_SRC:%.c=$(B)/obj/%.o) $(B)/obj/gen/default_net.o
APP_OBJ    := $(APP_SRC:%.c=$(B)/obj/%.o)
TEST_BIN   := $(TEST_SRC:tests/%.c=$(B)/tests/%)
BENCH_BIN  := $(BENCH_SRC:bench/%.c=$(B)/bench/%)

.PHONY: all test check tsan bench clean format tests install uninstall fuzz lib FORCE
# a recipe that fails leaves no half-written target that the next make would take as up to date
.DELETE_ON_ERROR:
all: $(B)/dillsue $(TEST_BIN) $(BENCH_BIN)

$(B)/obj/%.o: %.c $(wildcard include/*.h src/engine/*.h src/tui/*.h src/cli/*.h tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# OpenBLAS (LAPACK dposv, Anderson's normal equations) is not linked: the first
# Anderson run opens it (src/engine/lapack.c), so that no other command pays its
# constructor at start. Its soname is the one of the OpenBLAS this build finds.
OPENBLAS_SONAME := $(shell objdump -p "$$($(CC) -print-file-name=libopenblas.so)" 2>/dev/null | awk '/SONAME/ {print $$2}')
ifneq ($(OPENBLAS_SONAME),)
$(B)/obj/src/engine/lapack.o $(B)/pic/src/engine/lapack.o: override CFLAGS += -DDS_OPENBLAS_SONAME='"$(OPENBLAS_SONAME)"'
endif

# The default network is compiled into the binary so that `dillsue` works anywhere.
$(B)/gen/default_net.c: data/ringcity.net.tntp data/ringcity.trips.tntp tools/embed.sh
	@mkdir -p $(dir $@)
	sh tools/embed.sh data/ringcity.net.tntp ds_default_net data/ringcity.trips.tntp ds_default_trips > $@
$(B)/obj/gen/default_net.o: $(B)/gen/default_net.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(B)/libdillsue.a: $(ENGINE_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(B)/dillsue: $(APP_OBJ) $(B)/obj/gen/revision.o $(B)/libdillsue.a
	$(CC) $(CFLAGS) -o $@ $(APP_OBJ) $(B)/obj/gen/revision.o $(B)/libdillsue.a $(TUILIBS) $(LDLIBS) $(LDFLAGS) $(RPATH_CUDA)

# Engine tests link the library only; tests/test_tui_*.c also link the TUI modules.
# (`tests` also builds bench/costnewton and bench/walltime: tests/t_costnewton.sh
# and tests/t_walltime.sh run them.)
TUI_OBJ := $(filter $(B)/obj/src/tui/%,$(APP_OBJ)) $(B)/obj/src/cli/opts.o $(B)/obj/src/cli/env.o
$(B)/tests/test_tui_%: tests/test_tui_%.c $(B)/libdillsue.a $(wildcard tests/*.h) $(TUI_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -Isrc/tui -o $@ $< $(TUI_OBJ) $(B)/libdillsue.a $(TUILIBS) $(LDLIBS) $(LDFLAGS)
$(B)/tests/%: tests/%.c $(B)/libdillsue.a $(wildcard tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< $(B)/libdillsue.a $(LDLIBS) $(LDFLAGS)

$(B)/bench/%: bench/%.c $(B)/libdillsue.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libdillsue.a $(LDLIBS) $(LDFLAGS)

tests: $(B)/dillsue $(TEST_BIN) $(B)/bench/costnewton $(B)/bench/walltime lib

test: tests
	@BUILD=$(B) sh tests/run.sh

# The whole suite under AddressSanitizer + UBSan, in a separate build tree,
# then a short run of every fuzz harness (where clang's libFuzzer exists).
check:
	$(MAKE) B=build-asan OPT="-O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" test
	$(MAKE) fuzz-run FUZZ_SECONDS=10

# The suite under ThreadSanitizer, in its own build tree: data races between
# the engine's threads and the front ends that watch them (tests/tsan.sh).
# (the suite runs inside the sub-make, as check's does, so that a test that
# calls make itself, t_install's `make install`, builds with the same flags)
tsan:
	$(MAKE) B=build-tsan OPT="-O1 -g -fno-omit-frame-pointer -fsanitize=thread" LDFLAGS="-fsanitize=thread" \
	  tests tsan-suite
.PHONY: tsan-suite
tsan-suite:
	@BUILD=$(B) sh tests/tsan.sh

bench: $(B)/dillsue $(BENCH_BIN)
	@BUILD=$(B) sh bench/run.sh

format:
	clang-format -i include/*.h src/*/*.c src/*/*.h tests/*.c tests/*.h bench/*.c

clean:
	rm -rf build build-asan build-tsan

# --- CUDA ---
# The GPU backend (cuda/, src/engine/gpu.c). The CPU emulation of the kernels is
# part of the engine library (always built and tested); the device code is a
# separate shared object that the program loads at run time, built only where
# nvcc exists (on the PATH or in /usr/local/cuda/bin; NVCC=... overrides), and
# make says which on every run without it. CI (.ci/run) installs no CUDA
# toolkit: it builds the device code only if its machine image has nvcc.
ifeq ($(origin NVCC),undefined)
NVCC := $(shell command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
endif
NVCCFLAGS ?= -O2 -std=c++17 -Xcompiler -fPIC,-Wall,-Wextra -cudart static \
             -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
             -gencode arch=compute_90,code=compute_90
# The device's + - * / must be the host's, bit for bit, so that the emulation
# (and with it `make test`) runs the device's arithmetic: nvcc contracts
# a * b + c into one fused multiply-add by default (-fmad=true, one rounding
# where the host, the emulation and the CPU backend round twice), in every
# kernel's sums (flows, J v, dot products, mat-vecs) and in dsk_cost itself.
# Not part of NVCCFLAGS, so that a flag override cannot drop it
# (tests/t_gpu_fmad.sh). exp, log and pow remain CUDA's own (docs/gpu.md).
NVCC_FP := -fmad=false
LDLIBS += -ldl
CUDA_HDR := $(wildcard cuda/*.h) src/engine/kernels.h

# the emulation joins the engine library ($^ of the library rule takes it in)
$(B)/libdillsue.a: $(B)/obj/cuda/emul.o
$(B)/obj/cuda/emul.o $(B)/obj/src/engine/gpu.o: $(CUDA_HDR)

ifneq ($(NVCC),)
all: $(B)/libdillsue_cuda.so
$(B)/libdillsue_cuda.so: cuda/gpu_cuda.cu $(CUDA_HDR) Makefile
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) $(NVCC_FP) -shared -Iinclude -Isrc/engine -Icuda -o $@ $<
GPU_SO := $(B)/libdillsue_cuda.so
# make test compiles the device code too where nvcc exists, so that a change
# that breaks it fails the suite's build here rather than on the GPU machine
tests: $(GPU_SO)
else
$(info note: nvcc not found (PATH, /usr/local/cuda/bin): $(B)/libdillsue_cuda.so is not built, --backend cuda will say "GPU: none"; the CPU emulation of the kernels and its tests are built as usual)
GPU_SO :=
endif

.PHONY: gpu-check
$(B)/tools/gpu_check: tools/gpu_check.c $(B)/libdillsue.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libdillsue.a $(LDLIBS) $(LDFLAGS)
all: $(B)/tools/gpu_check
tests: $(B)/tools/gpu_check # tests/t_gpu_emul.sh runs it in the emulation
# GPU against 2 CPU threads on every TNTP network and filter: flows (MAPE), J v,
# time per evaluation and per Newton solve (docs/gpu.md); says so and exits 0
# without a GPU. GPU_CHECK_ARGS="--emulate --net SiouxFalls" runs the emulation.
gpu-check: $(B)/tools/gpu_check $(GPU_SO)
ifeq ($(NVCC),)
	@echo "gpu-check: built without nvcc, so there is no device code to check"
endif
	$(B)/tools/gpu_check $(GPU_CHECK_ARGS)
# --- end CUDA ---

# --- install (issue 12) ---
# `make install PREFIX=/usr DESTDIR=/tmp/stage`, `make uninstall` with the same
# variables. CPPFLAGS, CFLAGS and LDFLAGS from the environment are honoured
# (Debian's hardening flags). The shared library exports the public API only
# (a version script generated from include/*.h); the CUDA module goes to
# $(LIBDIR)/dillsue, which the program and the library find through their
# run path (src/engine/gpu.c dlopens it by name after looking next to the
# program).
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
LIBDIR      ?= $(PREFIX)/lib
INCLUDEDIR  ?= $(PREFIX)/include
MANDIR      ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
VERSION     := $(shell sed -n 's/^\#define DS_VERSION "\(.*\)"/\1/p' include/dillsue.h)
SOVERSION   := 0
SONAME      := libdillsue.so.$(SOVERSION)
# relative to the program ($$ORIGIN = BINDIR) and to the library (LIBDIR), so
# that any PREFIX or DESTDIR works without relinking
RPATH_CUDA  := -Wl,-rpath,'$$ORIGIN/../$(patsubst $(PREFIX)/%,%,$(LIBDIR))/dillsue'
RPATH_LIB   := -Wl,-rpath,'$$ORIGIN/dillsue'
# the same folder for src/engine/module.c, which also looks there itself, and
# that folder's absolute path, last (a program that links libdillsue.a and
# lives elsewhere finds the installed modules there)
$(B)/obj/src/engine/module.o $(B)/pic/src/engine/module.o: override CFLAGS += \
  -DDS_MODULE_DIR='"../$(patsubst $(PREFIX)/%,%,$(LIBDIR))/dillsue"' -DDS_MODULE_ABSDIR='"$(LIBDIR)/dillsue"'
# The install paths compiled into module.o, the program's run path and
# dillsue.pc: rewritten only when they change, so that `make install
# PREFIX=/usr` after a `make` (or `make test`) for /usr/local rebuilds what
# names them instead of installing the old paths.
$(B)/gen/install-paths: FORCE
	@mkdir -p $(dir $@)
	@t='$(PREFIX) $(LIBDIR) $(INCLUDEDIR)'; [ "$$(cat $@ 2>/dev/null)" = "$$t" ] || echo "$$t" > $@
$(B)/obj/src/engine/module.o $(B)/pic/src/engine/module.o $(B)/dillsue $(B)/dillsue.pc: $(B)/gen/install-paths
PUBLIC_HDR  := include/dillsue.h include/ds_csv.h include/ds_metrics.h include/ds_scenario.h include/ds_ue.h

# the git revision `dillsue --version` names, rewritten only when it changes
$(B)/gen/revision.c: FORCE
	@mkdir -p $(dir $@)
	@r=$$(git describe --always --dirty 2>/dev/null || echo unknown); \
	 t='const char ds_cli_revision[] = "'"$$r"'";'; \
	 [ "$$(cat $@ 2>/dev/null)" = "$$t" ] || echo "$$t" > $@
$(B)/obj/gen/revision.o: $(B)/gen/revision.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@
FORCE:

# position-independent objects for the shared library
PIC_OBJ := $(ENGINE_SRC:%.c=$(B)/pic/%.o) $(B)/pic/gen/default_net.o $(B)/pic/cuda/emul.o
$(B)/pic/%.o: %.c $(wildcard include/*.h src/engine/*.h cuda/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -c $< -o $@
$(B)/pic/gen/default_net.o: $(B)/gen/default_net.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -c $< -o $@
$(B)/dillsue.map: $(PUBLIC_HDR) tools/exports.sh
	@mkdir -p $(dir $@)
	sh tools/exports.sh $(PUBLIC_HDR) > $@
$(B)/libdillsue.so.$(VERSION): $(PIC_OBJ) $(B)/dillsue.map
	$(CC) $(CFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=$(B)/dillsue.map -o $@ $(PIC_OBJ) \
	  $(LDFLAGS) $(RPATH_LIB) $(LDLIBS)
# a static link needs what libklu.a needs (pkg-config --static: btf_strongcomp undefined)
KLU_STATIC_DEPS := -lbtf -lamd -lcolamd -lsuitesparseconfig
$(B)/dillsue.pc: dillsue.pc.in Makefile
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(patsubst $(PREFIX)%,$${prefix}%,$(LIBDIR))|' \
	  -e 's|@INCLUDEDIR@|$(patsubst $(PREFIX)%,$${prefix}%,$(INCLUDEDIR))|; s|@VERSION@|$(VERSION)|' \
	  -e 's|@LIBS_PRIVATE@|$(patsubst -lklu,-lklu $(KLU_STATIC_DEPS),$(LDLIBS))|' dillsue.pc.in > $@
# The installed static library: the engine's objects linked into one, with
# only the public API global (the names of the version script), so that a
# program's own run_now or gmres_solve cannot clash with the engine's (the
# build tree's libdillsue.a keeps them: the tests call the internals).
$(B)/dillsue.syms: $(B)/dillsue.map
	sed -n 's/^ *\(ds_[A-Za-z0-9_]*\);$$/\1/p' $< > $@
$(B)/install/libdillsue.a: $(ENGINE_OBJ) $(B)/obj/cuda/emul.o $(B)/dillsue.syms
	@mkdir -p $(dir $@)
	@rm -f $@ $(B)/install/dillsue.o
	$(LD) -r -o $(B)/install/dillsue.o $(ENGINE_OBJ) $(B)/obj/cuda/emul.o
	objcopy --keep-global-symbols=$(B)/dillsue.syms $(B)/install/dillsue.o
	ar rcs $@ $(B)/install/dillsue.o
lib: $(B)/libdillsue.so.$(VERSION) $(B)/libdillsue.a $(B)/install/libdillsue.a $(B)/dillsue.pc

# (every path quoted: a DESTDIR or PREFIX with a space, a stage under
# "My Projects", was split by the shell into directories beside the caller)
D_BIN = "$(DESTDIR)$(BINDIR)"
D_LIB = "$(DESTDIR)$(LIBDIR)"
D_INC = "$(DESTDIR)$(INCLUDEDIR)/dillsue"
install: $(B)/dillsue lib $(GPU_SO)
	install -d $(D_BIN) $(D_LIB)/dillsue $(D_INC) \
	  "$(DESTDIR)$(PKGCONFIGDIR)" "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(BASHCOMPDIR)"
	install -m 755 $(B)/dillsue $(D_BIN)/dillsue
	install -m 644 $(B)/libdillsue.so.$(VERSION) $(D_LIB)/
	ln -sf libdillsue.so.$(VERSION) $(D_LIB)/$(SONAME)
	ln -sf $(SONAME) $(D_LIB)/libdillsue.so
	install -m 644 $(B)/install/libdillsue.a $(D_LIB)/
	install -m 644 $(PUBLIC_HDR) $(D_INC)/
	install -m 644 $(B)/dillsue.pc "$(DESTDIR)$(PKGCONFIGDIR)/dillsue.pc"
	install -m 644 docs/dillsue.1 "$(DESTDIR)$(MANDIR)/man1/dillsue.1"
	install -m 644 tools/dillsue.bash-completion "$(DESTDIR)$(BASHCOMPDIR)/dillsue"
	if [ -f $(B)/libdillsue_cuda.so ]; then install -m 755 $(B)/libdillsue_cuda.so $(D_LIB)/dillsue/; fi
	if [ -f $(B)/libdillsue_mpi.so ]; then install -m 755 $(B)/libdillsue_mpi.so $(D_LIB)/dillsue/; fi
	@# the dynamic linker finds a new library in /usr/local/lib only through its
	@# cache: without this a program built with pkg-config failed to start
	@# ("libdillsue.so.0: cannot open shared object file") until `ldconfig`
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null 2>&1; then ldconfig; fi

uninstall:
	rm -f $(D_BIN)/dillsue $(D_LIB)/libdillsue.so.$(VERSION) \
	  $(D_LIB)/$(SONAME) $(D_LIB)/libdillsue.so $(D_LIB)/libdillsue.a \
	  "$(DESTDIR)$(PKGCONFIGDIR)/dillsue.pc" "$(DESTDIR)$(MANDIR)/man1/dillsue.1" "$(DESTDIR)$(BASHCOMPDIR)/dillsue" \
	  $(D_LIB)/dillsue/libdillsue_cuda.so $(D_LIB)/dillsue/libdillsue_mpi.so
	for h in $(notdir $(PUBLIC_HDR)); do rm -f $(D_INC)/$$h; done
	-rmdir $(D_INC) $(D_LIB)/dillsue 2>/dev/null
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null 2>&1; then ldconfig; fi
# --- end install ---

# --- fuzz (issue 12) ---
# libFuzzer harnesses in tests/fuzz, built with clang, ASan and UBSan over the
# engine's sources (build-fuzz/): fuzz_tntp (TNTP net + trips), fuzz_flowcsv
# (flow CSV), fuzz_settings (number parsers, setting rules), fuzz_sweep (a
# sweep directory's sweep.conf and journal). `make fuzz` builds them, `make
# fuzz-run` runs each for FUZZ_SECONDS on the bad-input corpus and its own
# seeds in tests/fuzz/seeds/NAME where there are some (saying so and doing
# nothing where clang or its fuzzer runtime is missing).
FUZZ_CC      ?= clang
FUZZ_B       := build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_SRC     := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN     := $(FUZZ_SRC:tests/fuzz/%.c=$(FUZZ_B)/%)
FUZZ_FLAGS   := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -std=c11 -D_GNU_SOURCE \
                -pthread -Iinclude -Isrc/engine -I/usr/include/suitesparse
HAVE_FUZZ    = $(shell printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n){return 0;}' | \
                 $(FUZZ_CC) -fsanitize=fuzzer -x c - -o /dev/null 2>/dev/null && echo yes)
.PHONY: fuzz-run
fuzz:
	@if [ "$(HAVE_FUZZ)" = yes ]; then $(MAKE) $(FUZZ_BIN); \
	 else echo "note: $(FUZZ_CC) with libFuzzer not found (Debian: clang libclang-rt-14-dev): fuzz harnesses not built"; fi
$(FUZZ_B)/fuzz_%: tests/fuzz/fuzz_%.c $(ENGINE_SRC) cuda/emul.c $(B)/gen/default_net.c $(wildcard include/*.h src/engine/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(ENGINE_SRC) cuda/emul.c $(B)/gen/default_net.c $(LDLIBS)
fuzz-run: fuzz
	@if [ "$(HAVE_FUZZ)" = yes ]; then for f in $(FUZZ_BIN); do \
	   echo "fuzz: $$f for $(FUZZ_SECONDS) s"; mkdir -p $(FUZZ_B)/corpus-$$(basename $$f); \
	   $$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=0 $(FUZZ_B)/corpus-$$(basename $$f) tests/bad_input \
	     $$(ls -d tests/fuzz/seeds/$$(basename $$f) 2>/dev/null) \
	     >$(FUZZ_B)/$$(basename $$f).log 2>&1 || { tail -40 $(FUZZ_B)/$$(basename $$f).log; exit 1; }; \
	   tail -1 $(FUZZ_B)/$$(basename $$f).log; done; fi
# --- end fuzz ---

# --- MPI (issue 13: `mpirun -np R dillsue sweep`) ---
# Where mpicc exists (Debian: libopenmpi-dev openmpi-bin), src/mpi/sweep_mpi.c
# becomes the module libdillsue_mpi.so (linked with Open MPI), cmd_sweep.c is
# compiled with DS_HAVE_MPI, and a sweep that mpirun started opens the module
# (src/cli/sweep_mpi_load.c): the program itself does not link Open MPI.
# Elsewhere `dillsue sweep` runs locally only. `make MPICC=` builds without MPI.
$(B)/obj/src/cli/cmd_sweep.o $(B)/obj/src/cli/sweep_mpi_load.o: src/cli/sweep.h
# whether this build has MPI, rewritten only when that changes: cmd_sweep.o is
# compiled again when it does (`make MPICC=` then `make install` built the module
# beside a program compiled without MPI, and every rank ran the whole sweep)
$(B)/gen/mpi-config: FORCE
	@mkdir -p $(dir $@)
	@t='mpicc=$(MPICC)'; [ "$$(cat $@ 2>/dev/null)" = "$$t" ] || echo "$$t" > $@
$(B)/obj/src/cli/cmd_sweep.o: $(B)/gen/mpi-config
ifeq ($(origin MPICC),undefined)
MPICC := $(shell command -v mpicc 2>/dev/null)
endif
ifneq ($(MPICC),)
MPI_CFLAGS := $(shell $(MPICC) --showme:compile 2>/dev/null || $(MPICC) -compile_info 2>/dev/null | cut -d' ' -f2-)
MPI_LIBS   := $(shell $(MPICC) --showme:link 2>/dev/null || $(MPICC) -link_info 2>/dev/null | cut -d' ' -f2-)
$(B)/obj/src/cli/cmd_sweep.o: override CFLAGS += -DDS_HAVE_MPI
$(B)/libdillsue_mpi.so: src/mpi/sweep_mpi.c src/cli/sweep.h $(wildcard include/*.h src/engine/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -DDS_HAVE_MPI $(MPI_CFLAGS) -fPIC -shared -o $@ $< $(LDFLAGS) $(MPI_LIBS)
all: $(B)/libdillsue_mpi.so
$(B)/dillsue: | $(B)/libdillsue_mpi.so
else
$(info note: mpicc not found: building without MPI (dillsue sweep runs on one machine))
endif
# --- end MPI ---
