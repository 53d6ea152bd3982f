# make check: unit tests (cmocka, TAP) and host integration tests (tests/host/*.t, as root
# against the real kernel) under prove; then the VM tests when mk/vm.mk provides them.
# Unit tests mirror src/: tests/unit/daemon/test_collect.c tests src/daemon/collect.c.
UNIT_SRCS := $(sort $(wildcard tests/unit/*/test_*.c))
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))

$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*/*.h) $(call obj,$(LIB_SRCS)) | $(BUILD)/tests
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -MMD -MP,$(CFLAGS)) $< $(call obj,$(LIB_SRCS)) -o $@ $(DAEMON_LDLIBS) $(CLIENT_LDLIBS) -lcmocka

check-unit: all $(UNIT_BINS)

# mk/sanitize.mk runs them through its wrapper
PROVE ?= prove

check-host: test-deps
	@$(MAKE) --no-print-directory all check-unit bench-build
	$(PROVE) -v $(UNIT_BINS) tests/host/*.t

check-vm: $(BUILD)/irqlatd $(BUILD)/irqlat

# SANITIZE=1 (mk/sanitize.mk): the unit and host tests only
check:
	@$(MAKE) --no-print-directory check-host
	$(if $(SANITIZE),,@$(MAKE) --no-print-directory check-vm)
