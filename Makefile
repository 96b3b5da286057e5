# dillsue - build, test, bench.  `make`, `make test`, `make check`, `make bench`.
CC       ?= gcc
OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
CFLAGS   += -std=c11 -D_GNU_SOURCE -Wall -Wextra -pthread -Iinclude -Isrc/engine -I/usr/include/suitesparse
LDLIBS   := -lklu -lcsv -llapacke -lopenblas -lm -lpthread
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

.PHONY: all test check bench clean format tests
all: $(B)/dillsue $(TEST_BIN) $(BENCH_BIN)

$(B)/obj/%.o: %.c $(wildcard include/*.h src/engine/*.h src/tui/*.h tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# The default network is compiled into the binary so that `dillsue` works anywhere.
$(B)/gen/default_net.c: data/ringcity.net.tntp data/ringcity.trips.tntp tools/embed.sh
	@mkdir -p $(dir $@)
	sh tools/embed.sh data/ringcity.net.tntp ds_default_net data/ringcity.trips.tntp ds_default_trips > $@
$(B)/obj/gen/default_net.o: $(B)/gen/default_net.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(B)/libdillsue.a: $(ENGINE_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(B)/dillsue: $(APP_OBJ) $(B)/libdillsue.a
	$(CC) $(CFLAGS) -o $@ $(APP_OBJ) $(B)/libdillsue.a $(TUILIBS) $(LDLIBS) $(LDFLAGS)

# Engine tests link the library only; tests/test_tui_*.c also link the TUI modules.
TUI_OBJ := $(filter $(B)/obj/src/tui/%,$(APP_OBJ))
$(B)/tests/test_tui_%: tests/test_tui_%.c $(B)/libdillsue.a $(wildcard tests/*.h) $(TUI_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -Isrc/tui -o $@ $< $(TUI_OBJ) $(B)/libdillsue.a $(TUILIBS) $(LDLIBS) $(LDFLAGS)
$(B)/tests/%: tests/%.c $(B)/libdillsue.a $(wildcard tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< $(B)/libdillsue.a $(LDLIBS) $(LDFLAGS)

$(B)/bench/%: bench/%.c $(B)/libdillsue.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libdillsue.a $(LDLIBS) $(LDFLAGS)

tests: $(B)/dillsue $(TEST_BIN)

test: tests
	@BUILD=$(B) sh tests/run.sh

# The whole suite under AddressSanitizer + UBSan, in a separate build tree.
check:
	$(MAKE) B=build-asan OPT="-O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" test

bench: $(B)/dillsue $(BENCH_BIN)
	@BUILD=$(B) sh bench/run.sh

format:
	clang-format -i include/*.h src/*/*.c src/*/*.h tests/*.c tests/*.h bench/*.c

clean:
	rm -rf build build-asan

# --- CUDA ---
# The GPU backend (cuda/, src/engine/gpu.c). The CPU emulation of the kernels is
# part of the engine library; the device code is a separate shared object that
# the program loads at run time, built only where nvcc exists.
ifeq ($(origin NVCC),undefined)
NVCC := $(shell command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
endif
NVCCFLAGS ?= -O2 -std=c++17 -Xcompiler -fPIC,-Wall,-Wextra -cudart static \
             -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
             -gencode arch=compute_90,code=compute_90
LDLIBS += -ldl
CUDA_HDR := $(wildcard cuda/*.h) src/engine/kernels.h

# the emulation joins the engine library ($^ of the library rule takes it in)
$(B)/libdillsue.a: $(B)/obj/cuda/emul.o
$(B)/obj/cuda/emul.o $(B)/obj/src/engine/gpu.o: $(CUDA_HDR)

ifneq ($(NVCC),)
all: $(B)/libdillsue_cuda.so
$(B)/libdillsue_cuda.so: cuda/gpu_cuda.cu $(CUDA_HDR)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -shared -Iinclude -Isrc/engine -Icuda -o $@ $<
GPU_SO := $(B)/libdillsue_cuda.so
else
$(info note: nvcc not found: building without the CUDA backend (the program says "GPU: none"))
GPU_SO :=
endif

.PHONY: gpu-check
$(B)/tools/gpu_check: tools/gpu_check.c $(B)/libdillsue.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libdillsue.a $(LDLIBS) $(LDFLAGS)
all: $(B)/tools/gpu_check
# Compares GPU and CPU flows on every TNTP network; says so and exits 0 without a GPU.
gpu-check: $(B)/tools/gpu_check $(GPU_SO)
	$(B)/tools/gpu_check $(GPU_CHECK_ARGS)
# --- end CUDA ---

# --- MPI (issue 13: `mpirun -np R dillsue sweep`) ---
# Where mpicc exists (Debian: libopenmpi-dev openmpi-bin), src/mpi/sweep_mpi.c
# joins the program, cmd_sweep.c is compiled with DS_HAVE_MPI and the program
# links the MPI library; elsewhere `dillsue sweep` runs locally only.
# `make MPICC=` builds without MPI.
$(B)/obj/src/cli/cmd_sweep.o $(B)/obj/src/mpi/sweep_mpi.o: src/cli/sweep.h
ifeq ($(origin MPICC),undefined)
MPICC := $(shell command -v mpicc 2>/dev/null)
endif
ifneq ($(MPICC),)
MPI_CFLAGS := $(shell $(MPICC) --showme:compile 2>/dev/null || $(MPICC) -compile_info 2>/dev/null | cut -d' ' -f2-)
MPI_LIBS   := $(shell $(MPICC) --showme:link 2>/dev/null || $(MPICC) -link_info 2>/dev/null | cut -d' ' -f2-)
MPI_OBJ    := $(B)/obj/src/mpi/sweep_mpi.o
$(B)/obj/src/cli/cmd_sweep.o: CFLAGS += -DDS_HAVE_MPI
$(MPI_OBJ): CFLAGS += -DDS_HAVE_MPI $(MPI_CFLAGS)
$(B)/dillsue: $(MPI_OBJ)
$(B)/dillsue: APP_OBJ += $(MPI_OBJ)
$(B)/dillsue: TUILIBS += $(MPI_LIBS)
else
$(info note: mpicc not found: building without MPI (dillsue sweep runs on one machine))
endif
# --- end MPI ---
