# libFuzzer harnesses (tests/fuzz/fuzz_NAME.c, docs/fuzzing.md): clang with
# -fsanitize=fuzzer,address,undefined over the same sources as the daemon and the client,
# built into $(BUILD)/fuzz/. A new fuzz_NAME.c needs no edit here; its kept corpus is
# tests/fuzz/corpus/NAME/.
#   make fuzz [FUZZ_SECONDS=60] [FUZZERS="request config"]   each harness for that long
#   make fuzz-merge        what the runs found that adds coverage, into the kept corpora
# make check-host runs each for FUZZ_CHECK_SECONDS (10; 0: only the kept corpus once), so a
# crash fails CI (fuzz-check; not with SANITIZE=1, whose run has had its fuzzing in the plain
# one). What a run finds stays in $(BUILD)/fuzz/corpus/NAME/ (the kept corpus is
# only read), a crash in $(BUILD)/fuzz/crash/.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_CHECK_SECONDS ?= 10
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_ALL := $(patsubst tests/fuzz/fuzz_%.c,%,$(FUZZ_SRCS))
FUZZERS ?= $(FUZZ_ALL)
FUZZ_BUILD := $(BUILD)/fuzz
FUZZ_BINS := $(patsubst %,$(FUZZ_BUILD)/fuzz_%,$(FUZZ_ALL))
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# the project's flags without optimization, dependency or sanitizer choices of their own
FUZZ_CFLAGS = -g -O1 $(FUZZ_SAN) $(filter-out -O% -g -MMD -MP -fsanitize=% -fno-sanitize-recover=% -fno-omit-frame-pointer,$(CFLAGS))
fuzz_obj = $(patsubst src/%.c,$(FUZZ_BUILD)/obj/%.o,$(1))
FUZZ_OBJS := $(call fuzz_obj,$(LIB_SRCS))

$(FUZZ_BUILD)/obj/%.o: src/%.c $(SKELS) $(PROTO_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h) $(UNIT_HDRS) $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_OBJS) -o $@ $(DAEMON_LDLIBS) $(CLIENT_LDLIBS)

-include $(FUZZ_OBJS:.o=.d)

fuzz-deps:
	@scripts/install-deps test

fuzz-build: fuzz-deps
	@$(MAKE) --no-print-directory $(FUZZ_BINS)

fuzz: fuzz-build
	tests/fuzz/run $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZERS)

fuzz-check: fuzz-build
	tests/fuzz/run $(FUZZ_BUILD) $(FUZZ_CHECK_SECONDS) $(FUZZ_ALL)

fuzz-merge: fuzz-build
	tests/fuzz/run --merge $(FUZZ_BUILD) 0 $(FUZZERS)

.PHONY: fuzz fuzz-build fuzz-check fuzz-merge fuzz-deps
