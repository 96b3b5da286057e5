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
