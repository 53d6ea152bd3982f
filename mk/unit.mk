# make unit: the unit tests, built and run as any user, with no package installed by make
# (cmocka comes with the build packages: scripts/install-deps build). Each is one program
# printing TAP, tests/unit/PATH/test_NAME.c built into $(BUILD)/tests/PATH/test_NAME and
# linked against every src/ object but the two mains. They mirror src/ at any depth
# (tests/unit/daemon/collect/test_collect.c tests src/daemon/collect/collect.c); a new test_*.c
# needs no edit here. make check-host builds them (check-unit) and runs them under prove with
# the host tests.
UNIT_SRCS := $(sort $(shell find tests/unit -name 'test_*.c' 2>/dev/null))
UNIT_HDRS := $(sort $(shell find tests/unit -name '*.h' 2>/dev/null))
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))

$(BUILD)/tests/%: tests/unit/%.c $(UNIT_HDRS) $(call obj,$(LIB_SRCS)) | $(BUILD)/tests cmocka-check
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -MMD -MP,$(CFLAGS)) $< $(call obj,$(LIB_SRCS)) -o $@ $(DAEMON_LDLIBS) $(CLIENT_LDLIBS) -lcmocka

# one line, before any compiler's complaint about a missing cmocka.h
cmocka-check:
	@pkg-config --exists cmocka || { echo "make unit: cmocka is missing: install libcmocka-dev (sudo scripts/install-deps build)" >&2; exit 1; }

unit-build: $(UNIT_BINS)

# cmocka is looked for first; every program runs, whatever the one before did; then one line
# says which failed
unit: cmocka-check
	@$(MAKE) --no-print-directory unit-build
	@failed=; for t in $(UNIT_BINS); do $$t || failed="$$failed $${t#$(BUILD)/tests/}"; done; \
	if [ -n "$$failed" ]; then echo "unit: $(words $(UNIT_BINS)) programs, failed:$$failed" >&2; exit 1; fi; \
	echo "unit: $(words $(UNIT_BINS)) programs passed"

# make check-unit: the binaries and the unit tests built (not run: make unit runs them, make
# check-host runs them under prove), and no include circle in src/, no header with libbpf's
# (scripts/include-cycles)
check-unit: all unit-build
	@scripts/include-cycles && echo 'include-cycles: no circle in src/, libbpf in no header'

.PHONY: unit unit-build cmocka-check check-unit
