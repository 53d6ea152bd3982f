# make check: unit tests (cmocka, TAP) and host integration tests (tests/host/*.t, as root
# against the real kernel) under prove; then the VM tests when mk/vm.mk provides them.
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
# every src/ file except the two mains, for unit tests to link against
LIB_SRCS := $(filter-out src/irqlatd.c src/irqlat.c src/top.c,$(sort $(DAEMON_SRCS) $(CLIENT_SRCS)))

$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(call obj,$(LIB_SRCS)) | $(BUILD)/tests
	$(CC) $(CFLAGS) $< $(call obj,$(LIB_SRCS)) -o $@ $(LDLIBS) $(DAEMON_LDLIBS) $(CLIENT_LDLIBS) -lcmocka

check-unit: all $(UNIT_BINS)

check-host: test-deps
	@$(MAKE) --no-print-directory all check-unit
	prove -v $(UNIT_BINS) tests/host/*.t

check-vm: $(BUILD)/irqlatd $(BUILD)/irqlat

check:
	@$(MAKE) --no-print-directory check-host
	@$(MAKE) --no-print-directory check-vm
