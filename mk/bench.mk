# make bench (as root): the hard-IRQ cost of irqlatd's programs against the clock-only pair,
# the per-CPU-lookup floor, libbpf-tools hardirqs and bpftrace, side by side under fio load
# (bench/run.sh, docs/bench.md); the daemon's start-up, memory and CPU; every program against
# its clock-only twin with its budget (bench/kinds.sh, rows in bench/kinds.list); hackbench and
# fio beside irqlatd (bench/workload.sh); the scale model (bench/scale.c); all of it into
# docs/bench.md's generated section (bench/docs.py). Not part of make check: it is a
# measurement, it never fails on a missed target (PASS/FAIL lines); make check-host builds
# it (bench-build), so it cannot rot. A quick run: BENCH_ARGS="--rounds 1 --seconds 3 --hackbench '-g 4 -l 500'".
# The bench BPF sources live in bench/ with their own rules: the main Makefile builds every
# bpf/*.bpf.c into the daemon.
BENCH_BUILD := $(BUILD)/bench

# The hot-path ladder (bench/hotpath.bpf.c): each step adds one design change to the one before.
LADDER_h0 :=
LADDER_h1 := -DPERCPU
LADDER_h2 := -DPERCPU -DCELL_THRESHOLD
LADDER_h3 := -DPERCPU -DCELL_THRESHOLD -DCOUNT_DERIVED
LADDER_h4 := -DPERCPU -DCELL_THRESHOLD -DCOUNT_DERIVED -DSCHEMA3
LADDER_h5 := -DPERCPU -DCELL_THRESHOLD -DCOUNT_DERIVED -DSCHEMA3 -DMRU
LADDER_h6 := -DPERCPU -DCELL_THRESHOLD -DCOUNT_DERIVED -DSCHEMA3 -DBRANCHY
LADDER_h7 := -DPERCPU -DCELL_THRESHOLD -DCOUNT_DERIVED -DSCHEMA3 -DCPU_ARRAY
LADDER_h8 := -DPERCPU -DCELL_THRESHOLD -DCOUNT_DERIVED -DSCHEMA3 -DCPU_ARRAY -DMRU
LADDER_h9 := -DPERCPU -DCELL_THRESHOLD -DCOUNT_DERIVED -DSCHEMA3 -DCPU_ARRAY -DSLOT_START
LADDER := h0 h1 h2 h3 h4 h5 h6 h7 h8 h9

# every bench/*.bpf.c (a new twin for bench/kinds.list needs no edit here) but the ladder's source
BENCH_OBJS := $(patsubst bench/%.bpf.c,$(BENCH_BUILD)/%.bpf.o,$(filter-out bench/hotpath.bpf.c,$(wildcard bench/*.bpf.c))) \
	      $(patsubst %,$(BENCH_BUILD)/hotpath-%.bpf.o,$(LADDER))

$(BENCH_BUILD)/.dir:
	@mkdir -p $(BENCH_BUILD) && touch $@

$(BENCH_BUILD)/%.bpf.o: bench/%.bpf.c $(wildcard bpf/*.h) | $(BENCH_BUILD)/.dir
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BENCH_BUILD)/hotpath-%.bpf.o: bench/hotpath.bpf.c $(wildcard bpf/*.h) | $(BENCH_BUILD)/.dir
	$(CLANG) $(BPF_CFLAGS) $(LADDER_$*) -c $< -o $@

# The kinds that keep the CPU's clocks, built as shipped (kind-*) and without the clocks'
# bookkeeping (noclocks-*, bpf/clock.bpf.h's IRQLAT_BENCH_NO_CLOCKS) for bench/clocks.sh
CLOCK_KINDS := hardirq softirq vector sched nmi
BENCH_OBJS += $(foreach k,$(CLOCK_KINDS),$(BENCH_BUILD)/kind-$k.bpf.o $(BENCH_BUILD)/noclocks-$k.bpf.o)

$(BENCH_BUILD)/kind-%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) | $(BENCH_BUILD)/.dir
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BENCH_BUILD)/noclocks-%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) | $(BENCH_BUILD)/.dir
	$(CLANG) $(BPF_CFLAGS) -DIRQLAT_BENCH_NO_CLOCKS -c $< -o $@

# and those that write to the flight recorder without it (noflight-*, bpf/clock.bpf.h's
# IRQLAT_NO_FLIGHT) for bench/clocks.sh --without flight
FLIGHT_KINDS := hardirq softirq vector sched nmi timer
BENCH_OBJS += $(foreach k,$(FLIGHT_KINDS),$(BENCH_BUILD)/kind-$k.bpf.o $(BENCH_BUILD)/noflight-$k.bpf.o)

$(BENCH_BUILD)/noflight-%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) | $(BENCH_BUILD)/.dir
	$(CLANG) $(BPF_CFLAGS) -DIRQLAT_NO_FLIGHT -c $< -o $@

# function-call IPIs for bench/kinds.sh: the host test's helper
$(BENCH_BUILD)/irqlat-bench-ipi: tests/host/helpers/ipi-load.c | $(BENCH_BUILD)/.dir
	$(CC) -O2 -Wall -Wextra -pthread $< -o $@

$(BENCH_BUILD)/irqlat-bench-load: bench/load.c bpf/irqlat_abi.h | $(BENCH_BUILD)/.dir
	$(CC) $(filter-out -MMD -MP,$(CFLAGS)) $< -o $@ $(DAEMON_LDLIBS)

# the daemon at scale: the real collector and answers over synthetic cells (bench/scale.c,
# with the unit tests' fake BPF maps)
$(BENCH_BUILD)/irqlat-bench-scale: bench/scale.c $(UNIT_HDRS) $(call obj,$(LIB_SRCS)) | $(BENCH_BUILD)/.dir
	$(CC) $(filter-out -MMD -MP,$(CFLAGS)) $< $(call obj,$(LIB_SRCS)) -o $@ $(DAEMON_LDLIBS) $(CLIENT_LDLIBS)

bench-build: all $(BENCH_OBJS) $(BENCH_BUILD)/irqlat-bench-load $(BENCH_BUILD)/irqlat-bench-scale $(BENCH_BUILD)/irqlat-bench-ipi

bench: test-deps
	@$(MAKE) --no-print-directory bench-build
	BUILD=$(BUILD) bench/run.sh $(BENCH_ARGS)

bench-scale: $(BENCH_BUILD)/irqlat-bench-scale
	$(BENCH_BUILD)/irqlat-bench-scale

# make bench-fair (as root; BASE=DIR compares another build in the same run): the ring
# buffer's drops and irqlat status's latency under fio with a 1 us threshold, with and without
# 16 pipelining clients (bench/fair-turns.sh, docs/bench.md)
bench-fair: all
	BUILD=$(BUILD) BASE=$(BASE) bench/fair-turns.sh $(FAIR_ARGS)

.PHONY: bench bench-build bench-scale bench-fair

# make bench-soak (as root; SOAK_ARGS="--minutes 10"): irqlatd for 30 minutes under fio with
# clients polling and subscribing, the slopes of its RSS, descriptors and CPU time
# (bench/soak, docs/bench.md). Under flock -s /tmp/irqlat-bench.lock on a shared machine.
bench-soak: all
	BUILD=$(BUILD) bench/soak $(SOAK_ARGS)

.PHONY: bench-soak
