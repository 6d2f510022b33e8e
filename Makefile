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
# PLANNERS_DIR=<folder> (outside the tree) adds its C planner files, and
# its Python strategies to `make bench` (docs/python.md).
PLANNERS_DIR ?=
EXT_PLANNER_SRC := $(if $(PLANNERS_DIR),$(sort $(wildcard $(PLANNERS_DIR)/*.c)))
EXT_PLANNER_PY  := $(if $(PLANNERS_DIR),$(sort $(wildcard $(PLANNERS_DIR)/*.py)))
PLANNER_SRC  := $(sort $(wildcard planners/*.c)) $(EXT_PLANNER_SRC)
PLANLIB_SRC  := $(sort $(wildcard planners/lib/*.c))
# The ONNX importer (harness/import/onnx*.c and onnx_proto.cc) stays out
# of the library: only binaries that read ONNX link it and libonnx.
ONNX_SRC     := $(sort $(wildcard harness/import/onnx*.c))
ONNX_CC_SRC  := $(sort $(wildcard harness/import/onnx*.cc))
HARNESS_SRC  := $(sort $(filter-out harness/cli/% $(ONNX_SRC),$(wildcard harness/*/*.c)))
CLI_SRC      := $(sort $(wildcard harness/cli/*.c))
# Google Benchmark (the one C++ file) links only into the CLI, which times.
TIMING_SRC   := $(sort $(wildcard harness/cli/*.cc))
GEN_SRC      := $(sort $(wildcard graphs/gen/*.c))
GENLIB_SRC   := $(sort $(wildcard graphs/gen/lib/*.c))
TEST_SRC     := $(sort $(wildcard tests/test_*.c))
TESTLIB_SRC  := $(sort $(wildcard tests/lib/*.c))

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out $(EXT_PLANNER_SRC),$(1))) \
	$(patsubst $(PLANNERS_DIR)/%.c,$(BUILD)/obj/planners-dir/%.o,$(filter $(EXT_PLANNER_SRC),$(1)))
LIB_OBJ      := $(call obj,$(PLANNER_SRC) $(PLANLIB_SRC) $(HARNESS_SRC))
TIMING_OBJ   := $(patsubst %.cc,$(BUILD)/obj/%.o,$(TIMING_SRC))
ONNX_OBJ     := $(call obj,$(ONNX_SRC)) $(patsubst %.cc,$(BUILD)/obj/%.o,$(ONNX_CC_SRC))
ONNX_LIBS    := -lonnx -lonnx_proto -lprotobuf
LIB          := $(BUILD)/libarenabench.a
BIN          := $(BUILD)/arenabench
GENS         := $(patsubst graphs/gen/%.c,$(BUILD)/gen/%,$(GEN_SRC))
TESTS        := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))

.PHONY: all help bench bench-slurm sweep sweep-problems test test-long test-all test-unit test-binaries \
	test-python python deps clean plots paper corpus scaling bench-cli fuzz fresh-check compare report \
	reference baselines transforms hard offsets-reference FORCE
all: $(BIN) $(GENS)

help:
	@echo "make              build $(BIN) and the corpus generators"
	@echo "make bench        plan the default corpus with the fast planners -> results/results.csv"
	@echo "                  (CORPUS=full adds the scale sweep; BENCH_FLAGS=... passes options)"
	@echo "                  (-jN: N shards at once; HOSTS=\"2/host1,2/host2\": over ssh;"
	@echo "                  unchanged shards are reused; ACCEPT_MIXED=1: also those of another build)"
	@echo "                  (PLANNERS_DIR=<folder>: its C planners and Python strategies too)"
	@echo "make test         the test suite: unit tests and fast end-to-end checks, about 5 minutes"
	@echo "                  (with or without ../shared; skips are named; docs/testing.md)"
	@echo "make test-long    the long checks: campaigns over sshd and Slurm, the report in Chromium,"
	@echo "                  sanitizers, fuzzing, bench -> plots -> paper, make fresh-check (root)"
	@echo "make test-all     make test, then make test-long (what CI runs)"
	@echo "make test-unit    the C test binaries only (CI runs them under sanitizers)"
	@echo "make python       the Python package's shared library -> $(BUILD)/libarenabench.so (docs/python.md)"
	@echo "make test-python  the Python package's tests alone (pytest; part of make test)"
	@echo "make deps         install the Debian packages make, make test and make bench need (root)"
	@echo "make bench-slurm  the same campaign as a Slurm job array (SLURM_WAIT=1 waits for the merge)"
	@echo "make sweep        all alignments and the budgeted planners -> results/sweep.csv"
	@echo "make baselines    every planner on minimalloc's suite + the real corpus -> results/baselines.csv"
	@echo "make hard         known-optimum tilings, minimalloc, idealloc: budgeted vs best fast -> results/hard.csv"
	@echo "                  (a reduced run of minutes; HARD=full for the full study, hours)"
	@echo "make transforms   reordering and in-place reuse on top of placement -> results/transforms.csv"
	@echo "make scaling      planning time from 10^2 to 10^6 buffers -> results/scaling.csv"
	@echo "                  (each time also over a radix sort timed next to it; peaks against the reference's)"
	@echo "make bench-cli    whole-command times with hyperfine -> results/hyperfine.csv"
	@echo "make plots        every figure from results/ -> plots/out/"
	@echo "make paper        paper/paper.pdf from the results"
	@echo "make reference    the full study -> results/reference/ (committed on purpose)"
	@echo "make offsets-reference  every fast planner's plans by sha256 -> results/reference/offsets.tsv"
	@echo "                  (re-record when a planner is meant to move offsets; the commit says why)"
	@echo "make corpus       regenerate the committed graphs from the generators"
	@echo "make compare      A=old.csv B=new.csv [MATCH=graph,planner]: two runs row by row, figure plots/out/compare.png"
	@echo "make report       one HTML page, figures inline -> results/report/index.html ([A=old.csv B=new.csv] adds compare)"
	@echo "make fresh-check  make test and make bench in a new minimal Debian root (root, network to Debian)"
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

# `make bench` is a campaign (scripts/study/campaign.sh, on GNU parallel): one
# shard per input, `-jN` runs N at once (handed out as slots free up), and
# HOSTS="2/host1,2/host2" (GNU parallel's --sshlogin list) runs them over
# ssh; `make bench-slurm` submits them as a Slurm job array and a merge job.
# Shards whose input, binary, planners, revision and flags are unchanged
# are reused (build/campaigns/), so a stopped run resumes; ACCEPT_MIXED=1
# also reuses those of another revision or binary.  The CSV is the
# same whichever way it ran, timing aside (docs/campaigns.md).
JOBS ?= $(or $(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS))),1)
HOSTS ?=
BENCH_OUT ?= results/results.csv
SWEEP_OUT ?= results/sweep.csv
SBATCH_FLAGS ?=
SLURM_WAIT ?=
ACCEPT_MIXED ?=
campaign = sh scripts/study/campaign.sh $(1) --build $(BUILD) --jobs $(JOBS) $(if $(HOSTS),--hosts "$(HOSTS)") $(if $(ACCEPT_MIXED),--accept-mixed)
bench_args = --out $(BENCH_OUT) $(CORPUS_DIRS) -- --align 1,16,64 $(if $(EXT_PLANNER_PY),--planners-dir $(abspath $(PLANNERS_DIR))) $(BENCH_FLAGS)

# README's two commands install what they need first (plain `make` only
# names what is missing), then build.
bench:
	@sh scripts/deps.sh build campaign $(if $(HOSTS),campaign-ssh)
	@$(MAKE) --no-print-directory $(BIN) $(if $(filter full,$(CORPUS)),sweep-problems)
	@$(call campaign,run) $(bench_args)

bench-slurm: $(BIN) $(if $(filter full,$(CORPUS)),sweep-problems)
	@sh scripts/deps.sh campaign slurm
	@$(call campaign,slurm) $(if $(SLURM_WAIT),--wait) --sbatch "$(SBATCH_FLAGS)" $(bench_args)

sweep: $(BIN)
	@sh scripts/deps.sh campaign $(if $(HOSTS),campaign-ssh)
	@$(call campaign,run) --out $(SWEEP_OUT) $(CORPUS_DIRS) -- --cost all --align 1,4,8,16,32,64,128,256 $(BENCH_FLAGS)

baselines: $(BIN)
	+@sh scripts/study/baselines.sh $(BUILD) $(JOBS)

hard: $(BIN) $(GENS)
	@sh scripts/study/hard.sh $(BUILD)

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

# The offsets regression's record (scripts/dev/offsets-digest.sh): make
# test checks graphs/ against it (tests/test_offsets.c), make test-long the
# sweep at 10^4 and 10^5 and ../shared.  SETS="graphs ..." re-records some.
offsets-reference: $(BIN) $(GENS)
	@BUILD=$(BUILD) JOBS=$(JOBS) sh scripts/dev/offsets-digest.sh --write $(SETS)

# One self-contained HTML page: summary, provenance, every figure inline as
# SVG, and with A= and B= the comparison (plots/report/report.sh).
report: $(BIN)
	@test -z "$(A)$(B)" || { test -n "$(A)" && test -n "$(B)"; } || { echo "usage: make report [A=old.csv B=new.csv]" >&2; exit 2; }
	@sh scripts/deps.sh report
	@BUILD=$(BUILD) sh plots/report/report.sh $(A) $(B)

# README's two commands in a minimal Debian bookworm root made by mmdebstrap
# (scripts/fresh-check.sh): a missing install step fails here, not on a
# user's machine.  Needs root; about 8 minutes.
fresh-check:
	@sh scripts/deps.sh fresh
	@sh scripts/fresh-check.sh

# Two bench CSVs compared row by row; the figure goes to plots/out/.
compare: $(BIN)
	@test -n "$(A)" && test -n "$(B)" || { echo "usage: make compare A=old.csv B=new.csv" >&2; exit 2; }
	@mkdir -p plots/out
	@$(BIN) compare $(A) $(B) $(if $(MATCH),--match $(MATCH)) --ratios $(BUILD)/compare-ratios.txt
	@sh scripts/deps.sh plots
	@gnuplot -e "datafile='$(BUILD)/compare-ratios.txt'; out='plots/out/compare.png'; title_a='$(A)'; title_b='$(B)'" plots/compare.gp
	@echo "compare: plots/out/compare.png" >&2

FUZZ_SECONDS ?= 600
fuzz:
	@sh scripts/deps.sh fuzz
	@BUILD=$(BUILD) sh scripts/fuzz.sh $(FUZZ_SECONDS)

# --- dependencies (Debian packages) ----------------------------------------
# Building only checks: a missing package is named with the command that
# installs it (make deps); `make test` and `make bench` install first.
deps:
	@sh scripts/deps.sh build test onnx plots paper campaign report python python-test
$(BUILD)/.deps-build: scripts/deps.sh
	@mkdir -p $(BUILD)
	@sh scripts/deps.sh --check build
	@touch $@
$(BUILD)/.deps-test: scripts/deps.sh
	@mkdir -p $(BUILD)
	@sh scripts/deps.sh --check test onnx
	@touch $@
$(BUILD)/.deps-onnx: scripts/deps.sh
	@mkdir -p $(BUILD)
	@sh scripts/deps.sh --check onnx
	@touch $@

# --- the planner registry, generated from planners/*.c ---------------------
$(BUILD)/planners.def: FORCE
	@mkdir -p $(BUILD)
	@for f in $(PLANNER_SRC); do b=$${f##*/}; echo "PLANNER($${b%.c})"; done > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

# --- what `arenabench --version` prints: revision (+dirty) and build flags ---
$(BUILD)/version.h: FORCE
	@mkdir -p $(BUILD)
	@{ r=$$(git rev-parse --short=10 HEAD 2>/dev/null) && \
	   { [ -z "$$(git status --porcelain --untracked-files=no 2>/dev/null | head -c1)" ] || r="$$r+dirty"; } || r=unknown; \
	   printf '#define AB_BUILD_REVISION "%s"\n#define AB_BUILD_FLAGS "%s"\n' "$$r" \
	   "CC=$(CC) CFLAGS=$(subst ",,$(CFLAGS)) CXXFLAGS=$(subst ",,$(CXXFLAGS)) LDFLAGS=$(subst ",,$(LDFLAGS))"; } > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/obj/harness/cli/version.o: $(BUILD)/version.h

# --- compile -----------------------------------------------------------------
$(BUILD)/obj/%.o: %.c $(BUILD)/.deps-build | $(BUILD)/planners.def
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/obj/%.o: %.cc $(BUILD)/.deps-build
	@mkdir -p $(@D)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/obj/harness/core/registry.o: $(BUILD)/planners.def
# `py:` strategies: the interpreter and the package's folder (docs/python.md)
$(BUILD)/obj/harness/cli/python_planner.o: CPPFLAGS += -DAB_PYTHON='"$(PYTHON)"' -DAB_PYTHON_DIR='"$(abspath python)"'
ifneq ($(PLANNERS_DIR),)
$(BUILD)/obj/planners-dir/%.o: $(PLANNERS_DIR)/%.c $(BUILD)/.deps-build | $(BUILD)/planners.def
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/pic/planners-dir/%.o: $(PLANNERS_DIR)/%.c $(BUILD)/.deps-build | $(BUILD)/planners.def
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -MMD -MP -c $< -o $@
endif
# libonnx's headers need these (Debian's CMake package sets the same).
$(patsubst %.cc,$(BUILD)/obj/%.o,$(ONNX_CC_SRC)): CPPFLAGS += -DONNX_ML=1 -DONNX_NAMESPACE=onnx
$(patsubst %.cc,$(BUILD)/obj/%.o,$(ONNX_CC_SRC)): $(BUILD)/.deps-onnx

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(call obj,$(CLI_SRC)) $(TIMING_OBJ) $(ONNX_OBJ) $(LIB)
	$(CXX) $(LDFLAGS) -o $@ $^ $(ONNX_LIBS) -lbenchmark -lpthread $(LDLIBS)

# --- the Python package (python/, docs/python.md) ---------------------------
# `make python`: the library's sources compiled again with -fPIC in their
# own folder, with the package's C API (python/capi/) and Google
# Benchmark's timer, as one shared library; the ONNX importer as a second
# one that the package loads beside it (the loader hook, docs/onnx.md).
PYTHON      ?= /usr/bin/python3
pic          = $(patsubst $(BUILD)/obj/%,$(BUILD)/pic/%,$(1))
PY_CAPI_SRC := $(sort $(wildcard python/capi/*.c))
PY_LIB      := $(BUILD)/libarenabench.so
PY_ONNX_LIB := $(BUILD)/libarenabench_onnx.so
$(BUILD)/pic/%.o: %.c $(BUILD)/.deps-build | $(BUILD)/planners.def
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -MMD -MP -c $< -o $@
$(BUILD)/pic/%.o: %.cc $(BUILD)/.deps-build
	@mkdir -p $(@D)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -fPIC -MMD -MP -c $< -o $@
$(BUILD)/pic/harness/core/registry.o: $(BUILD)/planners.def
$(call pic,$(patsubst %.cc,$(BUILD)/obj/%.o,$(ONNX_CC_SRC))): CPPFLAGS += -DONNX_ML=1 -DONNX_NAMESPACE=onnx
$(call pic,$(patsubst %.cc,$(BUILD)/obj/%.o,$(ONNX_CC_SRC))): $(BUILD)/.deps-onnx
$(PY_LIB): $(call pic,$(LIB_OBJ) $(call obj,$(PY_CAPI_SRC)) $(TIMING_OBJ))
	$(CXX) -shared $(LDFLAGS) -o $@ $^ -lbenchmark -lpthread $(LDLIBS)
$(PY_ONNX_LIB): $(call pic,$(ONNX_OBJ)) $(PY_LIB)
	$(CXX) -shared $(LDFLAGS) -o $@ $(call pic,$(ONNX_OBJ)) $(ONNX_LIBS) $(LDLIBS)
python: $(PY_LIB) $(PY_ONNX_LIB)

# --- corpus generators -------------------------------------------------------
$(BUILD)/gen/%: graphs/gen/%.c $(call obj,$(GENLIB_SRC)) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Igraphs/gen/lib $(CFLAGS) -o $@ $< $(call obj,$(GENLIB_SRC)) $(LIB) -lpthread $(LDLIBS)

# --- tests -------------------------------------------------------------------
# The test helpers include Criterion's headers: its package comes first
# (a fresh machine has none; `make fresh-check` proves the order).
$(call obj,$(TESTLIB_SRC)): $(BUILD)/.deps-test
# They link the users' option parser (cli/options.c, tier_spec.c) too: tests of --tier
# and --dim call the parser the command line reaches (with python_planner.c,
# whose py: planners the parser resolves).
TEST_CLI_OBJ := $(call obj,harness/cli/options.c harness/cli/select.c harness/cli/tier_spec.c harness/cli/python_planner.c)
$(BUILD)/tests/%: tests/%.c $(call obj,$(TESTLIB_SRC)) $(TEST_CLI_OBJ) $(LIB) $(BUILD)/.deps-test
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests/lib -DAB_BUILD_DIR='"$(BUILD)"' $(CFLAGS) -o $@ $< $(call obj,$(TESTLIB_SRC)) $(TEST_CLI_OBJ) $(if $(filter test_onnx%,$(notdir $@)),$(ONNX_OBJ)) $(LIB) -lcriterion $(if $(filter test_onnx%,$(notdir $@)),$(ONNX_LIBS) -lstdc++) -lpthread $(LDLIBS)
# The ONNX tests (tests/test_onnx*.c) link the importer and libonnx.
$(filter $(BUILD)/tests/test_onnx%,$(TESTS)): $(ONNX_OBJ)

# The tiers (scripts/run-tests.sh, docs/testing.md).  `make test` installs
# what it needs, then builds and runs the fast tier: every step timed, each
# skip named, closing on "tests: N passed, N failed, N skipped".
test:
	@sh scripts/deps.sh build test onnx plots python-test
	@sh scripts/run-tests.sh fast $(BUILD)

# The Python package's tests alone (python/tests; pytest from Debian).
test-python:
	@sh python/tests/run.sh $(BUILD)

# The long checks: sshd and Slurm campaigns, Chromium, sanitizers, fuzzing,
# bench -> plots -> paper, fresh-check.  Root for the services and chroot.
test-long:
	@sh scripts/deps.sh build test onnx plots paper cli fuzz fresh campaign-test report-test
	@sh scripts/run-tests.sh long $(BUILD)

test-all:
	@$(MAKE) --no-print-directory test
	@$(MAKE) --no-print-directory test-long

test-binaries: $(BIN) $(GENS) $(TESTS)

# The C test binaries alone: CI's sanitizer pass runs these.
test-unit: $(BIN) $(GENS) $(TESTS)
	@sh scripts/run-tests.sh unit $(BUILD)

clean:
	rm -rf $(BUILD)

# Keep the objects of generator and test helpers (they are intermediates).
.SECONDARY:

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
