# make check-host (as root): installs the test packages (test-deps), builds the Debian package
# (mk/deb.mk) and runs the fuzz harnesses over their corpora (fuzz-check, mk/fuzz.mk; not with
# SANITIZE=1, whose run has had its fuzzing in the plain one); then builds the binaries, the
# unit tests with the include check (check-unit, mk/unit.mk) and the benchmarks (bench-build, so
# they cannot rot) and runs, under prove, the unit tests and the host tests (tests/host/*.t)
# against the real kernel.
# mk/sanitize.mk runs prove through its wrapper.
PROVE ?= prove

check-host: test-deps $(DEB) $(if $(SANITIZE),,fuzz-check)
	@$(MAKE) --no-print-directory all check-unit bench-build
	$(PROVE) -v $(UNIT_BINS) tests/host/*.t

.PHONY: check-host
