# clomp: build, test and run. `make help` lists the targets and the compiler lines.

# make's built-in default is cc; clomp defaults to gcc (libgomp) unless CC is given.
ifeq ($(origin CC),default)
CC = gcc
endif
CFLAGS ?= -O3 -Wall -Wextra
LDFLAGS ?=
OPENMP_FLAGS ?= -fopenmp
PREFIX ?= /usr/local
DESTDIR ?=

# make MPI=1: clomp_mpi, the hybrid MPI + OpenMP build, compiled with the MPI
# wrapper (MPICC, default mpicc; Open MPI's takes OMPI_CC for the compiler
# under it) in its own build tree. Without MPI=1 nothing needs MPI.
MPI ?= 0
ifeq ($(MPI),1)
MPICC ?= mpicc
override CC := $(MPICC)
# The compiler under the wrapper (Open MPI: OMPI_CC), in the flags stamp, so
# that switching it rebuilds everything.
MPI_COMPILER := $(shell $(MPICC) --showme:command 2>/dev/null)
BUILD ?= build/mpi
PROGRAM ?= clomp_mpi
CLUSTER_SRC = mpi/cluster_mpi.c
else
CLUSTER_SRC = mpi/cluster_single.c
endif
# make OFFLOAD=host|nvptx|amdgcn: clomp-offload-KIND, the OpenMP target
# offload build (docs/offload.md), in its own build tree; the default build
# has no offload and none of its dependencies.
#   host:   clang, libomptarget's x86_64 host plugin (Debian libomp-14-dev):
#           target regions run on the CPU; marked everywhere as no accelerator
#   nvptx:  gcc -foffload=nvptx-none (Debian gcc-offload-nvptx); needs an
#           NVIDIA GPU and its driver to run
#   amdgcn: gcc -foffload=amdgcn-amdhsa (Debian has no gcc-offload-amdgcn
#           for gcc 12: builds only where that toolchain exists)
# Contraction stays off in the device code too (-ffp-contract=off reaches
# clang's device compilation by itself; gcc gets it in -foffload-options);
# on NVIDIA the driver's ptxas may still fuse an unrounded mul.f64, so the
# nvptx kernel's product is rounded explicitly (offload/device_product.h).
OFFLOAD ?=
ifneq ($(OFFLOAD),)
ifeq ($(OFFLOAD),host)
OFFLOAD_CC = clang
OFFLOAD_FLAGS = -fopenmp-targets=x86_64-pc-linux-gnu -DCLOMP_OFFLOAD_HOST_PLUGIN=1
else ifeq ($(OFFLOAD),nvptx)
OFFLOAD_CC = gcc
# The PTX target: gcc 12's default, sm_35, is refused by the ptxas of CUDA 12
# and later (which nvptx-as runs, when it finds one, to check its output);
# sm_75 (Turing) and newer GPUs run sm_75 code (the driver compiles the PTX).
NVPTX_ISA ?= sm_75
# libatomic: gcc 12 combines an array-section reduction (TARGET REDUCTION n)
# on the device with __atomic_compare_exchange_16, which nvptx's libgcc lacks.
OFFLOAD_FLAGS = -DCLOMP_OFFLOAD_NVPTX=1 -foffload=nvptx-none -foffload-options=nvptx-none=-misa=$(NVPTX_ISA) \
                -foffload-options=nvptx-none=-ffp-contract=off -foffload-options=nvptx-none=-lm \
                -foffload-options=nvptx-none=-latomic
# A position-dependent executable: gcc 12's crtoffloadtable.o (libgcc, which
# every gcc offload link adds) keeps __OFFLOAD_TABLE__, four absolute
# pointers, in .rodata, compiled without -fPIC, so a PIE link needs text
# relocations ("creating DT_TEXTREL in a PIE"); with -no-pie the linker
# resolves them. Our own objects are fine (their .gnu.offload_funcs/_vars
# are writable). docs/offload.md, "The nvptx link".
OFFLOAD_LDFLAGS = -no-pie
else ifeq ($(OFFLOAD),amdgcn)
OFFLOAD_CC = gcc
OFFLOAD_FLAGS = -DCLOMP_OFFLOAD_AMDGCN=1 -foffload=amdgcn-amdhsa -foffload-options=amdgcn-amdhsa=-ffp-contract=off -foffload-options=amdgcn-amdhsa=-lm
OFFLOAD_LDFLAGS = -no-pie   # the same crtoffloadtable.o as nvptx's (above)
else
$(error OFFLOAD=$(OFFLOAD): not an offload build; use OFFLOAD=host, nvptx or amdgcn)
endif
# CC given on the command line or in the environment wins; make's (gcc, above) does not.
ifeq ($(origin CC),file)
override CC := $(OFFLOAD_CC)
endif
OPENMP_FLAGS = -fopenmp $(OFFLOAD_FLAGS) -DCLOMP_OFFLOAD=1
BUILD ?= build/offload-$(OFFLOAD)
PROGRAM ?= clomp-offload-$(OFFLOAD)
endif
BUILD ?= build
# One spelling of each build directory: make matches targets, and the
# targets in the dependency files (.d), by their text, so objects built once
# as build/mpi/x.o and once as /path/to/clomp/build/mpi/x.o (tests/mpi.t's
# BUILD) missed each other's header dependencies and a changed header rebuilt
# nothing. A BUILD inside this tree is used relative to it.
override BUILD := $(patsubst $(CURDIR)/%,%,$(abspath $(BUILD)))
PROVE ?= prove

# libnuma (Debian libnuma-dev) enables --numa and the locality report; NUMA=0
# builds without it, and the default detects whether it is installed.
NUMA ?= auto
ifeq ($(NUMA),auto)
NUMA := $(shell printf '\043include <numa.h>\nint main(void) { return numa_available(); }\n' | \
          $(CC) -x c - -lnuma -o /dev/null 2>/dev/null && echo 1 || echo 0)
endif
ifeq ($(NUMA),1)
NUMA_CFLAGS = -DCLOMP_HAVE_LIBNUMA=1
NUMA_LIBS = -lnuma
endif

# omp_init_lock_with_hint (OpenMP 4.5) for the construct table's hinted lock
# rows: libomp has it, libgomp up to GCC 12 does not (the rows then say "not
# provided"). LOCK_HINT=0 builds without; the default detects it.
LOCK_HINT ?= auto
ifeq ($(LOCK_HINT),auto)
LOCK_HINT := $(shell printf '\043include <omp.h>\nint main(void) { omp_lock_t l; omp_init_lock_with_hint(&l, omp_lock_hint_contended); return 0; }\n' | \
          $(CC) $(OPENMP_FLAGS) -x c - -o /dev/null 2>/dev/null && echo 1 || echo 0)
endif
ifeq ($(LOCK_HINT),1)
RUNTIME_CFLAGS = -DCLOMP_HAVE_LOCK_HINT=1
endif

# libomp 14 aborts ("__kmpc_for_static_init: unknown scheduling type") on a
# for schedule(monotonic: static) inside a nested team: the probe runs one
# (2 x 2 threads, a few microseconds) and, where it aborts, the construct
# table's STATIC_MONOTONIC rows are not run at level 2 and say why.
NESTED_MONOTONIC_STATIC ?= auto
ifeq ($(NESTED_MONOTONIC_STATIC),auto)
NESTED_MONOTONIC_STATIC := $(shell t=$$(mktemp) && printf '\043include <omp.h>\nint main(void) { int s = 0; omp_set_max_active_levels(2);\n_Pragma("omp parallel num_threads(2)")\n_Pragma("omp parallel num_threads(2) reduction(+ : s)")\n_Pragma("omp for schedule(monotonic: static)")\nfor (int i = 0; i < 8; i++) s += i; return s == 0; }\n' | \
          $(CC) $(OPENMP_FLAGS) -x c - -o "$$t" 2>/dev/null && { OMP_WAIT_POLICY=passive "$$t" >/dev/null 2>&1 && echo 1 || echo 0; } || echo 1; rm -f "$$t")
endif
ifeq ($(NESTED_MONOTONIC_STATIC),0)
RUNTIME_CFLAGS += -DCLOMP_NESTED_MONOTONIC_STATIC_ABORTS=1
endif

# Not overridable, and placed after CFLAGS so they win: bit-for-bit
# verification needs strict IEEE evaluation (no fused multiply-add
# contraction), and the sources are C11 + POSIX.
REQUIRED_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -ffp-contract=off $(OPENMP_FLAGS) $(NUMA_CFLAGS) $(RUNTIME_CFLAGS) $(FAULT_CFLAGS)
ALL_CFLAGS = $(strip $(CFLAGS) $(REQUIRED_CFLAGS))
# The program's ompt_start_tool (ompt/tool.c) must be visible to an OMPT
# runtime loaded in libgomp's place (the gcc build on libomp): exported.
OMPT_LDFLAGS = -Wl,--export-dynamic-symbol=ompt_start_tool
ALL_LDFLAGS = $(strip $(OPENMP_FLAGS) $(OMPT_LDFLAGS) $(OFFLOAD_LDFLAGS) $(LDFLAGS))
LDLIBS = $(NUMA_LIBS) -lm

MESH_SRC = mesh/build_mesh.c mesh/verify.c
# Every file in kernels/: a new schedule is its file and its row in kernels/schedules.c.
KERNEL_SRC = $(sort $(wildcard kernels/*.c))
# Every file in report/ (the writers) and setup/.
REPORT_SRC = $(sort $(wildcard report/*.c))
SETUP_SRC = $(sort $(wildcard setup/*.c))
CLI_SRC = cli/options.c cli/usage.c cli/construct_options.c cli/limits_options.c
NUMA_SRC = numa/placement.c numa/arena.c numa/thread_placement.c numa/cpu_classes.c numa/root_file.c numa/cpu_place.c numa/node_topology.c numa/job_cores.c
TIMING_SRC = timing/statistics.c timing/signed_rank.c timing/series.c timing/decision.c timing/simulation_memo.c timing/planning.c timing/core_clock.c timing/cycles.c timing/comparison.c timing/process_cost.c timing/replication.c timing/outlier_rule.c
MEASURE_SRC = measure/chunk_plan.c measure/sequence.c measure/record.c measure/warnings.c measure/locality.c \
              measure/llnl_targets.c measure/summarize.c measure/paired_overhead.c measure/construct_overhead.c measure/construct_resolution.c measure/construct_shape.c measure/construct_level.c measure/constructs.c \
              measure/ompt_plan.c \
              measure/noise_probe.c measure/noise_sampler.c \
              measure/groups.c measure/limits.c measure/limits_pairs.c measure/limits_timing.c
MPI_SRC = mpi/rank_view.c $(CLUSTER_SRC)
OMPT_SRC = ompt/tool.c
# The offload device (docs/offload.md): inert in builds without OFFLOAD.
OFFLOAD_SRC = offload/device.c offload/device_mesh.c
LIB_SRC = $(MESH_SRC) $(KERNEL_SRC) $(REPORT_SRC) $(SETUP_SRC) $(CLI_SRC) $(NUMA_SRC) $(TIMING_SRC) $(MEASURE_SRC) \
          $(MPI_SRC) $(OMPT_SRC) $(OFFLOAD_SRC)
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o)

UNIT_TESTS = test_mesh test_kernel test_schedules test_verify test_options test_locality test_statistics test_signed_rank test_decision test_core_clock_range test_json test_report test_chunk_plan test_thread_placement test_arena test_comparison test_rank_view test_constructs test_setup_warnings test_validity test_replication test_limits test_autocorrelation test_outlier_rule test_wide_team
UNIT_BIN = $(UNIT_TESTS:%=$(BUILD)/tests/%)
ORACLE = $(BUILD)/tests/clomp_oracle

.PHONY: pycache all check check-build check-all cluster-check numa-vm-check bignode-vm-check device-check run run-suite plots clean install help unit-tests program clomp-faults clomp-stats clomp-write asan tsan fuzz golden runtimes FORCE

# The program this make builds: clomp, or clomp-faults in its own build tree.
PROGRAM ?= clomp

all: $(PROGRAM)

# Everything is rebuilt when the compiler or a flag changes, so the build
# facts the binary prints always describe every object in it.
FLAGS_STAMP = $(BUILD)/compiler-flags

$(PROGRAM): $(BUILD)/clomp.o $(LIB_OBJ) $(FLAGS_STAMP)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(BUILD)/clomp.o $(LIB_OBJ) $(LDLIBS)

program: $(PROGRAM)

# Test build with fault injection (kernels/fault.h); the normal clomp has none.
# With MPI=1 it is clomp_mpi-faults.
ifeq ($(PROGRAM),clomp)
clomp-faults: FORCE
	$(MAKE) --no-print-directory PROGRAM=clomp-faults BUILD=$(BUILD)/faults FAULT_CFLAGS=-DCLOMP_FAULTS program
endif
ifeq ($(PROGRAM),clomp_mpi)
clomp-faults: FORCE
	$(MAKE) --no-print-directory PROGRAM=clomp_mpi-faults BUILD=$(BUILD)/faults FAULT_CFLAGS=-DCLOMP_FAULTS program
endif
ifneq ($(OFFLOAD),)
ifeq ($(PROGRAM),clomp-offload-$(OFFLOAD))
clomp-faults: FORCE
	$(MAKE) --no-print-directory PROGRAM=clomp-offload-$(OFFLOAD)-faults BUILD=$(BUILD)/faults FAULT_CFLAGS=-DCLOMP_FAULTS program
endif
endif

$(BUILD)/%.o: %.c $(FLAGS_STAMP) | $(BUILD)/build_info_generated.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -I$(BUILD) -MMD -MP -c -o $@ $<

$(FLAGS_STAMP): FORCE
	@mkdir -p $(BUILD)
	@printf '%s\n' 'CC=$(CC)$(if $(MPI_COMPILER), ($(MPI_COMPILER)))' 'CFLAGS=$(ALL_CFLAGS)' 'LDFLAGS=$(ALL_LDFLAGS) $(LDLIBS)' > $@.tmp; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

# The binary reports how it was built; regenerated whenever a flag changes.
# The environment variables an OpenMP runtime reads (the record's): the
# prefixes the runtime profiles' `variables` lines give (env/runtimes/).
# Its commit: git's, when this tree is a checkout's top ("-dirty" when a
# tracked C file, header or this Makefile differs from it: what the binary is
# built from); "unknown" in a copy without git (CI's trees).
$(BUILD)/build_info_generated.h: FORCE
	@mkdir -p $(BUILD)
	@esc() { printf '%s' "$$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g'; }; \
	commit() { [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$$(pwd -P)" ] && c=$$(git rev-parse --short=12 HEAD 2>/dev/null) && \
	           { git diff --quiet HEAD -- '*.c' '*.h' Makefile 2>/dev/null && echo "$$c" || echo "$$c-dirty"; } || echo unknown; }; \
	{ printf '#define CLOMP_BUILD_CC "%s"\n' "$$(esc '$(CC)')"; \
	  printf '#define CLOMP_BUILD_CFLAGS "%s"\n' "$$(esc '$(ALL_CFLAGS)')"; \
	  printf '#define CLOMP_BUILD_LDFLAGS "%s"\n' "$$(esc '$(ALL_LDFLAGS) $(LDLIBS)')"; \
	  printf '#define CLOMP_BUILD_HOST "%s"\n' "$$(esc "$$(uname -n)")"; \
	  printf '#define CLOMP_BUILD_DATE "%s"\n' "$$(date -u '+%Y-%m-%d')"; \
	  printf '#define CLOMP_BUILD_COMMIT "%s"\n' "$$(esc "$$(commit)")"; \
	  printf '#define CLOMP_RUNTIME_VARIABLE_PREFIXES %s\n' \
	      "$$(awk -F '\t' '$$1 == "variables" { for (i = 2; i <= NF; i++) if ($$i ~ /^[A-Z][A-Z0-9_]*$$/ && !seen[$$i]++) \
	          printf "%s\"%s\"", n++ ? ", " : "", $$i }' env/runtimes/*.tsv)"; \
	} > $@.tmp; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJ) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -I. -Itests -I$(BUILD) -MMD -MP $(ALL_LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS)

$(ORACLE): tests/oracle/clomp_oracle.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP $(ALL_LDFLAGS) -o $@ $< $(LDLIBS)

unit-tests: $(UNIT_BIN) $(ORACLE)

# The statistics of timing/ for the shell drivers (run_clomp.sh --replicates
# and --compare), built beside the objects; never installed.
STATS_HELPER = $(BUILD)/clomp-stats
STATS_SRC = stats/clomp_stats.c stats/batch.c stats/answer_fields.c stats/figure_comparison.c stats/comparison_json.c stats/paired_answer.c stats/paired_figure.c stats/plan_answer.c stats/judge_answer.c stats/suite_table.c \
            stats/outlier_answer.c stats/replicates_answer.c stats/replicates_recorded.c
# It links timing/ (cycles_from_us' calibration brings core_clock's OpenMP team: -fopenmp) and two
# leaves it needs: LLNL's targets' rule (judge) and the JSON writer (comparison-json); not the
# benchmark's other objects, no libnuma.
STATS_OBJ = $(TIMING_SRC:%.c=$(BUILD)/%.o) $(BUILD)/measure/llnl_targets.o $(BUILD)/report/json.o $(BUILD)/report/json_string.o
$(STATS_HELPER): $(STATS_SRC) $(STATS_OBJ) $(FLAGS_STAMP)
	$(CC) $(ALL_CFLAGS) -MMD -MP -o $@ $(STATS_SRC) $(STATS_OBJ) $(OPENMP_FLAGS) -lm

clomp-stats: $(STATS_HELPER)

# The drivers' writer (write/clomp_write.c): every file run_clomp.sh and the
# comparisons write in an output directory, never through a link, and the
# suite manifest written from the driver's facts (write/manifest_writer.c)
# and read back by its JSON (write/manifest_reader.c); built
# beside the objects, never installed. No OpenMP, no library objects: of the
# benchmark, only the JSON string escaper (report/json_string.c, stdio alone).
WRITE_HELPER = $(BUILD)/clomp-write
WRITE_SRC = write/clomp_write.c write/manifest_reader.c write/manifest_writer.c write/manifest_facts.c write/manifest_runs.c \
    write/suite_names.c write/launcher.c write/plan.c write/slurm_facts.c write/preflight.c write/eta.c write/mpi_root.c write/suite_sets.c \
    write/run_group.c write/suite_lock.c write/record_journal.c write/done_runs.c write/run_reason.c \
    write/resume_drop.c write/text_file.c write/machine.c write/figure_rows.c \
    report/json_string.c
$(WRITE_HELPER): $(WRITE_SRC) $(wildcard write/*.h) report/json.h $(FLAGS_STAMP)
	$(CC) $(CFLAGS) -std=c11 $(LDFLAGS) -o $@ $(WRITE_SRC)

clomp-write: $(WRITE_HELPER)

# TAP through prove: C unit tests and shell tests of the binary, in two lanes
# (tests/lib/tap.sh): `make check` the quick lane, every feature covered;
# `make check-all` the full lane, everything (NUMA guests included).
# Passive waiting unless the caller says otherwise: the tests oversubscribe the
# cores, where spinning waiters starve the threads they wait for (libgomp's
# schedule table at 4 threads on 2 cores: 24 s spinning, 0.4 s passive). A test
# that needs another policy sets its own.
# An offload build (OFFLOAD=...) tests its own binaries.
CHECK_PROGRAM = $(if $(OFFLOAD),$(PROGRAM),clomp)
# The tests start python3 a few hundred times: the interpreter's own directory
# first on their PATH, so that each start is the interpreter that python3
# names here, not a launcher shim (pyenv's re-resolves it at every start, more
# than doubling each start's cost). Empty without python3: PATH unchanged.
# (Recursive: asked only when a test recipe runs, not on every make.)
PYTHON_BIN_DIR = $(shell python3 -c 'import os, sys; print(os.path.dirname(sys.executable))' 2>/dev/null)
TEST_ENV = $(if $(PYTHON_BIN_DIR),PATH='$(PYTHON_BIN_DIR)':"$$PATH") OMP_WAIT_POLICY=$${OMP_WAIT_POLICY:-passive} CLOMP=$(CURDIR)/$(CHECK_PROGRAM) CLOMP_FAULTS_BIN=$(CURDIR)/$(CHECK_PROGRAM)-faults BUILD_DIR=$(CURDIR)/$(BUILD) CLOMP_STATS=$(CURDIR)/$(STATS_HELPER) CLOMP_WRITE=$(CURDIR)/$(WRITE_HELPER)
# The quick lane runs three test files at a time (CHECK_JOBS): most of them are
# one shell or Python process at a time that often waits (two at a time kept 2
# cores 82% busy), and every test already copes with oversubscribed cores. The full lane's guests, ranks and Slurm daemons run
# one file at a time (check-all).
CHECK_JOBS ?= 3
# The quick lane's test files (a lane may name fewer: .ci/run's offload lane),
# the longest first: started last, one of them alone would hold the lane's end
# while the other slot stands idle. By wall time in make check (2026-11-29,
# load 1-12): suite.t 211 s, mpi.t 202 s (its build of clomp_mpi included),
# manifest.t 100 s, compare.t 71 s, results.t 64 s, numa.t 63 s,
# untrusted_driver.t 59 s, statistics.t 57 s, untrusted.t 54 s, suite_estimate.t
# 43 s, suite_safety.t 40 s; the rest 38 s or less.
SLOW_TESTS = tests/suite.t tests/mpi.t tests/manifest.t tests/compare.t tests/results.t tests/numa.t \
    tests/untrusted_driver.t tests/statistics.t tests/untrusted.t tests/suite_estimate.t tests/suite_safety.t
CHECK_TESTS ?= $(filter $(wildcard tests/*.t),$(SLOW_TESTS)) $(filter-out $(SLOW_TESTS),$(sort $(wildcard tests/*.t)))
# Test files whose outcome does not depend on how clomp is built (they read
# records, bundles and the results package's code, or lint the Python): the
# other builds' lanes (make asan, .ci/run's clang lane) leave them out.
BUILD_INDEPENDENT_TESTS = tests/results_render.t tests/results_package.t tests/python_lint.t tests/python_layers.t tests/install.t \
    tests/tap-lib.t tests/compare_submissions.t tests/sweep_package.t tests/cluster_report.t \
    tests/bench_fidelity.t tests/bench_delay_lengths.t tests/bench_constructs.t tests/construct_capture.t
BUILD_TESTS = $(filter-out $(BUILD_INDEPENDENT_TESTS),$(CHECK_TESTS))
# The Python the tests start, compiled once before them: where the environment
# sets PYTHONDONTWRITEBYTECODE (as this project's machines do), every start
# would otherwise compile the modules it imports again (about 0.08 s of CPU a
# start, a few thousand starts a lane). Nothing without python3.
pycache:
	-@command -v python3 >/dev/null 2>&1 && python3 -m compileall -q results/clomp_results tests/python integrations >/dev/null || true

check: $(CHECK_PROGRAM) clomp-faults unit-tests $(STATS_HELPER) $(WRITE_HELPER) pycache
	$(TEST_ENV) CLOMP_TEST_LANE=quick $(PROVE) -j$(CHECK_JOBS) --exec '' $(CHECK_TESTS) $(UNIT_BIN)

# The quick lane's build-dependent files only (the other builds' lanes).
check-build: $(CHECK_PROGRAM) clomp-faults unit-tests $(STATS_HELPER) $(WRITE_HELPER) pycache
	$(TEST_ENV) CLOMP_TEST_LANE=quick $(PROVE) -j$(CHECK_JOBS) --exec '' $(BUILD_TESTS) $(UNIT_BIN)

# The full lane: the files that start guests, daemons or ranks with time-outs
# of their own (FULL_LANE_ALONE) one at a time after the others, which run
# CHECK_JOBS at a time as in the quick lane; a failure in the first part still
# lets the second run.
FULL_LANE_ALONE = tests/numa-vm.t tests/cluster.t tests/slurm.t tests/mpi.t tests/bignode-vm.t
check-all: $(CHECK_PROGRAM) clomp-faults unit-tests $(STATS_HELPER) $(WRITE_HELPER) pycache
	rc=0; \
	$(TEST_ENV) CLOMP_TEST_LANE=full $(PROVE) --timer -j$(CHECK_JOBS) --exec '' \
	    $(filter-out $(FULL_LANE_ALONE),$(CHECK_TESTS)) $(UNIT_BIN) || rc=1; \
	$(TEST_ENV) CLOMP_TEST_LANE=full $(PROVE) --timer --exec '' $(filter $(wildcard tests/*.t),$(FULL_LANE_ALONE)) || rc=1; \
	exit $$rc

# An emulated 4-node Slurm cluster (tests/cluster.t, issue 50: one slurmd per
# node in its own UTS namespace, started and stopped by the test, nothing left
# running): clomp_mpi across the nodes under srun and mpirun, checksums against
# CLOMP 1.2's MPI build, lost, hung and busy nodes, the cluster report. As root,
# with slurm-wlm, munge and Open MPI; also in make check-all (the full lane).
cluster-check: clomp unit-tests $(STATS_HELPER) $(WRITE_HELPER)
	$(TEST_ENV) CLOMP_TEST_LANE=full $(PROVE) -v tests/cluster.t

# clomp inside QEMU guests with 2 and 4 emulated NUMA nodes (TCG, about a
# minute): locality per policy against the topology. Needs qemu-system-x86
# and busybox-static; the guest kernel is fetched once into $(BUILD)/numa-vm.
numa-vm-check: clomp
	CLOMP=$(CURDIR)/clomp BUILD_DIR=$(CURDIR)/$(BUILD) $(PROVE) -v tests/numa-vm.t

# clomp and a tiny suite inside a QEMU guest with 32 vCPUs: 2 sockets of 8
# cores, SMT-2, 4 NUMA nodes (TCG, about 3 minutes here): core counting, placement,
# SMT, the nested default and the plan against the guest's lscpu. Needs
# qemu-system-x86, busybox-static and numactl; the guest kernel as above.
bignode-vm-check: clomp $(WRITE_HELPER) $(STATS_HELPER)
	CLOMP=$(CURDIR)/clomp BUILD_DIR=$(CURDIR)/$(BUILD) CLOMP_TEST_LANE=full CLOMP_WRITE=$(CURDIR)/$(WRITE_HELPER) \
	    CLOMP_STATS=$(CURDIR)/$(STATS_HELPER) $(PROVE) -v tests/bignode-vm.t

# The quick lane's build-dependent tests (check-build) under AddressSanitizer and UndefinedBehaviorSanitizer,
# in a copy of the tree so that no sanitized binary ever replaces ./clomp.
# Full stacks for each allocation (fast_unwind_on_malloc=0): libgomp has no
# frame pointers, and tests/lsan.supp names the clomp frame under it.
SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=all
asan:
	rm -rf $(BUILD)/asan-tree && mkdir -p $(BUILD)/asan-tree
	tar --exclude=./build --exclude=./.git --exclude=./out --exclude=./clomp --exclude=./clomp-faults --exclude=./clomp_mpi --exclude=./clomp_mpi-faults -cf - . | \
	    tar -C $(BUILD)/asan-tree -xf -
	CLOMP_SANITIZED=1 ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1 \
	    $(MAKE) -C $(BUILD)/asan-tree CC='$(CC)' CFLAGS='-O1 -g -fno-omit-frame-pointer -Wall -Wextra $(SANITIZE)' \
	    LDFLAGS='$(SANITIZE)' check-build

# Race detection: clang -fsanitize=thread with LLVM's Archer OMPT tool (from
# libomp-dev), every schedule at 2 and 4 threads, plus proof that the detector
# is on (tests/tsan/races.t). Also in a copy of the tree.
ARCHER ?= $(firstword $(wildcard /usr/lib/llvm-*/lib/libarcher.so))
TSAN_CC ?= clang
tsan:
	rm -rf $(BUILD)/tsan-tree && mkdir -p $(BUILD)/tsan-tree
	tar --exclude=./build --exclude=./.git --exclude=./out --exclude=./clomp --exclude=./clomp-faults --exclude=./clomp_mpi --exclude=./clomp_mpi-faults -cf - . | \
	    tar -C $(BUILD)/tsan-tree -xf -
	$(MAKE) -C $(BUILD)/tsan-tree CC='$(TSAN_CC)' CFLAGS='-O1 -g -fsanitize=thread' LDFLAGS='-fsanitize=thread' \
	    clomp clomp-faults
	CLOMP=$(CURDIR)/$(BUILD)/tsan-tree/clomp CLOMP_FAULTS_BIN=$(CURDIR)/$(BUILD)/tsan-tree/clomp-faults \
	    BUILD_DIR=$(CURDIR)/$(BUILD)/tsan-tree/build ARCHER='$(ARCHER)' $(PROVE) --exec '' tests/tsan/races.t

# libFuzzer over the command-line parser for FUZZ_SECONDS, starting from the
# corpus in tests/fuzz-corpus/ (new inputs go to build/fuzz-work, not the repo).
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
fuzz:
	mkdir -p $(BUILD)/fuzz-work
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -std=c11 -D_POSIX_C_SOURCE=200809L -I. \
	    -o $(BUILD)/fuzz_options tests/fuzz/fuzz_options.c cli/options.c cli/construct_options.c cli/limits_options.c numa/placement.c
	$(BUILD)/fuzz_options -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 $(BUILD)/fuzz-work tests/fuzz-corpus

# The target input spot check: ~6400 zones, one thread per core: the cores
# this job may use as clomp counts them (clomp --topology: affinity mask,
# cgroup cpuset and cpu.max, SMT, Slurm; CORES=N instead), not whatever
# OMP_NUM_THREADS says. Parts follow the team (suite/common.sh team_shape):
# CLOMP 1.2's 64 x 100 where the cores divide 64, else a multiple of the
# cores with 6400 zones in all, so that every thread has a part.
# Threads bound as the README recommends (unless the environment already
# says otherwise), and a verdict at the end.
RUN_BIND = OMP_PROC_BIND=$${OMP_PROC_BIND:-close} OMP_PLACES=$${OMP_PLACES:-cores}
# The golden files of tests/golden.t, for an intended output change only: it
# refuses without REASON, prints the diff, and records REASON in
# tests/golden/REASONS (tests/golden.t fails on files changed any other way).
golden: clomp
	bash tests/golden/regenerate.sh --reason "$${REASON:-}" ./clomp

# Runtime libraries that cannot be installed beside the ones the build needs (Debian 12's
# libomp5-16 and libomp5-19 remove libomp-dev), unpacked privately into build/runtimes/ from
# their Debian packages: every runtime profile with an `unpack` field (env/runtimes/*.tsv).
runtimes:
	bash env/unpack_runtimes.sh

run: clomp
	@cores=$${CORES:-$$(./clomp --topology | sed -n 's/^cores: //p')}; \
	shape=$$(bash -c '. suite/common.sh && team_shape "$$1" 6400 64' team_shape "$$cores") || exit 2; \
	echo "make run: the target input on $$cores cores ($${shape% *} parts of $${shape#* } zones: parts follow the team), threads bound: OMP_PROC_BIND=$${OMP_PROC_BIND:-close} OMP_PLACES=$${OMP_PLACES:-cores}"; \
	echo "OMP_NUM_THREADS=$$cores $(RUN_BIND) ./clomp -1 1 $$shape 32 1 100 --verdict"; \
	OMP_NUM_THREADS=$$cores $(RUN_BIND) ./clomp -1 1 $$shape 32 1 100 --verdict

# The offload measurements (docs/offload.md): builds every offload binary this
# machine can build and measures with each that has a device: Offload OMP and
# Dev Bestcase, the target probes, the crossover sweep (bench/device_check.sh).
device-check:
	bench/device_check.sh

# The whole suite with its defaults: every core, timeScale 100, files in out/.
run-suite: clomp
	./run_clomp.sh

# Charts and the HTML report of an existing suite: OUT is its base name
# (out/CLOMP_host_3) or a directory (its latest suite). OUT is data, never
# make or shell text (issue 45: OUT='$(shell touch X)' ran touch): its value
# as given ($(value OUT): make expands nothing in it), quoted for the shell
# with every ' escaped, and, for make plots, not exported (make expands a
# command-line variable on its way to a recipe's environment).
OUT ?= out
ifneq ($(filter plots,$(MAKECMDGOALS)),)
unexport OUT
endif
OUT_QUOTED = '$(subst ','\'',$(value OUT))'
plots:
	python3 results/clomp-results render --report --charts $(OUT_QUOTED)

install: clomp
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 clomp $(DESTDIR)$(PREFIX)/bin/clomp

clean:
	rm -rf $(BUILD) clomp clomp-faults clomp_mpi clomp_mpi-faults clomp-offload-*
	find results tests/python integrations -name __pycache__ -type d -prune -exec rm -rf {} +

help:
	@echo "Targets:"
	@echo "  make            build ./clomp"
	@echo "  make run        target input spot check on every core, threads bound, with a verdict: ./clomp -1 1 64 100 32 1 100 --verdict (parts follow the team where the cores do not divide 64; CORES=N)"
	@echo "  make check      build and run the quick test lane: every feature (prove)"
	@echo "  make check-all  every test: the full lane (long matrices, guests, Slurm)"
	@echo "  make cluster-check  an emulated 4-node Slurm cluster: clomp_mpi across nodes, faults, the cluster report (root)"
	@echo "  make numa-vm-check  NUMA policies on emulated 2- and 4-node guests (qemu, busybox-static)"
	@echo "  make bignode-vm-check  clomp and a tiny suite on an emulated 32-vCPU, 2-socket, 4-node, SMT-2 guest"
	@echo "  make run-suite  the full CLOMP suite (run_clomp.sh, results in out/)"
	@echo "  make plots OUT=out/CLOMP_host_N  charts (gnuplot) and HTML report of a suite (OUT=DIR: its latest)"
	@echo "  make golden REASON='...'  rewrite tests/golden/ for an intended output change: prints the diff, records REASON"
	@echo "  make runtimes   unpack the runtime profiles' private libraries (libomp 16, 19) into build/runtimes/ (apt-get download)"
	@echo "  make clomp-faults  test build with fault injection (CLOMP_FAULT=name)"
	@echo "  make OFFLOAD=host  build ./clomp-offload-host (clang, libomptarget's host plugin; nvptx: gcc-offload-nvptx)"
	@echo "  make device-check  build the offload binaries and measure Offload OMP, the target probes, the crossover"
	@echo "  make MPI=1      build ./clomp_mpi (MPI + OpenMP hybrid, mpicc; build/mpi); MPI=1 clomp-faults too"
	@echo "  make clomp-stats   the statistics helper of run_clomp.sh --replicates/--compare ($(BUILD)/clomp-stats)"
	@echo "  make asan       every test under AddressSanitizer + UBSan (in build/asan-tree)"
	@echo "  make tsan       race detection: ThreadSanitizer + Archer on every schedule (clang, libomp-dev)"
	@echo "  make fuzz       libFuzzer on the command-line parser for FUZZ_SECONDS (default 60)"
	@echo "  make install    install to \$$(DESTDIR)\$$(PREFIX)/bin (PREFIX=$(PREFIX))"
	@echo "  make clean      remove build products"
	@echo "Compiler lines:"
	@echo "  compile: $(CC) $(ALL_CFLAGS) -I$(BUILD) -c FILE.c"
	@echo "  link:    $(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o clomp OBJECTS $(LDLIBS)"
	@echo "Override CC, CFLAGS, LDFLAGS, OPENMP_FLAGS, e.g. make CC=clang (needs libomp-dev)."

# The statistics helper's sources moved from compare/ to stats/ (issue 46): a build directory from
# before has a dependency file naming the old paths, which no rule makes; that file goes.
$(shell grep -qs '^$(BUILD)/clomp-stats: compare/' $(BUILD)/clomp-stats.d && rm -f $(BUILD)/clomp-stats.d)
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
