# make bench (as root): hard-IRQ cost of irqlatd's programs against a clock-only floor and a
# bpftrace script, side by side under fio load (bench/run.sh, docs/bench.md). Not part of
# make check: it is a measurement, it never fails on a missed target.
# The bench BPF source lives in bench/ with its own rules: the main Makefile builds every
# bpf/*.bpf.c into the daemon.
BENCH_BUILD := $(BUILD)/bench

$(BENCH_BUILD)/floor.bpf.o: bench/floor.bpf.c | $(BUILD)/obj
	@mkdir -p $(BENCH_BUILD)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BENCH_BUILD)/floor.skel.h: $(BENCH_BUILD)/floor.bpf.o
	$(BPFTOOL) gen skeleton $< name floor_bpf > $@.tmp && mv $@.tmp $@

$(BENCH_BUILD)/irqlat-bench-floor: bench/floor.c $(BENCH_BUILD)/floor.skel.h
	$(CC) $(filter-out -MMD -MP,$(CFLAGS)) -I$(BENCH_BUILD) $< -o $@ $(DAEMON_LDLIBS)

bench-build: all $(BENCH_BUILD)/irqlat-bench-floor

bench: test-deps
	@$(MAKE) --no-print-directory bench-build
	BUILD=$(BUILD) bench/run.sh $(BENCH_ARGS)

.PHONY: bench-build
