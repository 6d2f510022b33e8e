# arenabench: see README.md.  `make bench` and `make test` are the two
# commands a new user needs; everything else is listed by `make help`.

CC      ?= cc
CXX     ?= c++
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
CFLAGS  += -std=c11 -Wall -Wextra -Wshadow -Wno-unused-parameter -D_GNU_SOURCE
CXXFLAGS ?= $(OPT) -g
CXXFLAGS += -std=c++17 -Wall -Wextra
CPPFLAGS += -Iharness -Iplanners -I$(BUILD)
LDLIBS  += -lm
BUILD   ?= build

# Everything is found by glob: a new planner, harness module, generator or
# test file needs no edit here.
PLANNER_SRC  := $(sort $(wildcard planners/*.c))
PLANLIB_SRC  := $(sort $(wildcard planners/lib/*.c))
HARNESS_SRC  := $(sort $(filter-out harness/cli/%,$(wildcard harness/*/*.c)))
CLI_SRC      := $(sort $(wildcard harness/cli/*.c))
# Google Benchmark (the one C++ file) links only into the CLI, which times.
TIMING_SRC   := $(sort $(wildcard harness/cli/*.cc))
GEN_SRC      := $(sort $(wildcard graphs/gen/*.c))
GENLIB_SRC   := $(sort $(wildcard graphs/gen/lib/*.c))
TEST_SRC     := $(sort $(wildcard tests/test_*.c))
TESTLIB_SRC  := $(sort $(wildcard tests/lib/*.c))

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
LIB_OBJ      := $(call obj,$(PLANNER_SRC) $(PLANLIB_SRC) $(HARNESS_SRC))
TIMING_OBJ   := $(patsubst %.cc,$(BUILD)/obj/%.o,$(TIMING_SRC))
LIB          := $(BUILD)/libarenabench.a
BIN          := $(BUILD)/arenabench
GENS         := $(patsubst graphs/gen/%.c,$(BUILD)/gen/%,$(GEN_SRC))
TESTS        := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))

.PHONY: all help bench sweep sweep-problems test clean plots paper corpus \
	scaling bench-cli fuzz reference baselines transforms FORCE
all: $(BIN) $(GENS)

help:
	@echo "make              build $(BIN) and the corpus generators"
	@echo "make bench        plan the default corpus with the fast planners -> results/results.csv"
	@echo "                  (CORPUS=full adds the scale sweep; BENCH_FLAGS=... passes options)"
	@echo "make test         run the test suite"
	@echo "make sweep        all alignments and the budgeted planners -> results/sweep.csv"
	@echo "make baselines    every planner on minimalloc's suite + the real corpus -> results/baselines.csv"
	@echo "make transforms   reordering and in-place reuse on top of placement -> results/transforms.csv"
	@echo "make scaling      planning time from 10^2 to 10^6 buffers -> results/scaling.csv"
	@echo "make bench-cli    whole-command times with hyperfine -> results/hyperfine.csv"
	@echo "make plots        every figure from results/ -> plots/out/"
	@echo "make paper        paper/paper.pdf from the results"
	@echo "make reference    the full study -> results/reference/ (committed on purpose)"
	@echo "make corpus       regenerate the committed graphs from the generators"
	@echo "make fuzz         run the fuzz targets (FUZZ_SECONDS=600 each)"
	@echo "make clean        remove $(BUILD)/"

# --- the main jobs -------------------------------------------------------------
# The default corpus: starter graphs, the zoo and the small/medium synthetic
# families.  CORPUS=full adds the scale sweep generated into $(BUILD)/sweep.
CORPUS ?= default
CORPUS_DIRS := graphs/starter graphs/zoo graphs/synthetic
ifeq ($(CORPUS),full)
CORPUS_DIRS += $(BUILD)/sweep
endif
BENCH_FLAGS ?=

# `make bench -jN` shards per input over N pinned workers and merges the
# rows in corpus order (scripts/study/bench-parallel.sh); plain `make bench` runs
# the shards one at a time.  The CSV is the same either way.
JOBS ?= $(or $(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS))),1)

bench: $(BIN) $(if $(filter full,$(CORPUS)),sweep-problems)
	@mkdir -p results
	+@sh scripts/study/bench-parallel.sh $(BUILD) $(JOBS) results/results.csv $(CORPUS_DIRS) -- --align 1,16,64 $(BENCH_FLAGS)

sweep: $(BIN)
	@mkdir -p results
	+@sh scripts/study/bench-parallel.sh $(BUILD) $(JOBS) results/sweep.csv $(CORPUS_DIRS) -- --cost all --align 1,4,8,16,32,64,128,256 $(BENCH_FLAGS)

baselines: $(BIN)
	+@sh scripts/study/baselines.sh $(BUILD) $(JOBS)

transforms: $(BIN)
	+@sh scripts/study/transforms.sh $(BUILD) $(JOBS)

sweep-problems: $(GENS)
	@BUILD=$(BUILD) sh scripts/study/corpus.sh sweep

corpus: $(GENS) $(BIN)
	@BUILD=$(BUILD) sh scripts/study/corpus.sh
	@BUILD=$(BUILD) sh scripts/study/corpus-index.sh

scaling: $(BIN) sweep-problems
	@sh scripts/study/scaling.sh $(BUILD)

bench-cli: $(BIN) sweep-problems
	@sh scripts/deps.sh cli
	@sh scripts/study/bench-cli.sh $(BUILD)

plots:
	@sh scripts/deps.sh plots
	@sh plots/plots.sh

paper: plots
	@sh scripts/deps.sh paper
	@sh paper/gen/paper.sh

reference: $(BIN)
	@sh scripts/study/reference.sh $(BUILD)

FUZZ_SECONDS ?= 600
fuzz:
	@sh scripts/deps.sh fuzz
	@BUILD=$(BUILD) sh scripts/fuzz.sh $(FUZZ_SECONDS)

# --- dependencies (Debian packages) ----------------------------------------
$(BUILD)/.deps-build: scripts/deps.sh
	@mkdir -p $(BUILD)
	@sh scripts/deps.sh build
	@touch $@
$(BUILD)/.deps-test: scripts/deps.sh
	@mkdir -p $(BUILD)
	@sh scripts/deps.sh test
	@touch $@

# --- the planner registry, generated from planners/*.c ---------------------
$(BUILD)/planners.def: FORCE
	@mkdir -p $(BUILD)
	@for f in $(PLANNER_SRC); do b=$${f##*/}; echo "PLANNER($${b%.c})"; done > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

# --- compile -----------------------------------------------------------------
$(BUILD)/obj/%.o: %.c $(BUILD)/.deps-build | $(BUILD)/planners.def
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/obj/%.o: %.cc $(BUILD)/.deps-build
	@mkdir -p $(@D)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/obj/harness/core/registry.o: $(BUILD)/planners.def

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(call obj,$(CLI_SRC)) $(TIMING_OBJ) $(LIB)
	$(CXX) $(LDFLAGS) -o $@ $^ -lbenchmark -lpthread $(LDLIBS)

# --- corpus generators -------------------------------------------------------
$(BUILD)/gen/%: graphs/gen/%.c $(call obj,$(GENLIB_SRC)) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Igraphs/gen/lib $(CFLAGS) -o $@ $< $(call obj,$(GENLIB_SRC)) $(LIB) -lpthread $(LDLIBS)

# --- tests -------------------------------------------------------------------
$(BUILD)/tests/%: tests/%.c $(call obj,$(TESTLIB_SRC)) $(LIB) $(BUILD)/.deps-test
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests/lib -DAB_BUILD_DIR='"$(BUILD)"' $(CFLAGS) -o $@ $< $(call obj,$(TESTLIB_SRC)) $(LIB) -lcriterion -lpthread $(LDLIBS)

test: $(BIN) $(GENS) $(TESTS)
	@sh scripts/run-tests.sh $(TESTS)
	@sh scripts/test-extension.sh
	@sh scripts/test-check-deps.sh
	@sh scripts/check-deps.sh

clean:
	rm -rf $(BUILD)

# Keep the objects of generator and test helpers (they are intermediates).
.SECONDARY:

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
