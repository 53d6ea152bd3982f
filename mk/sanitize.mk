# make check SANITIZE=1: the daemon, the client, the unit tests and the bench helper built
# with AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer into build-san/ (the
# Makefile picks the folder), then the unit and host tests run over them (not the VM guests:
# their kernel and systemd run the packaged, unsanitized build). Every report fails the run:
# the first error stops the process (halt_on_error, abort_on_error) and goes to a file under
# $(SAN_LOG), which tests/sanitized-prove lists after the tests and fails on, so a report
# from a daemon in the background, or from a command whose failure a test expected, is not
# missed.
ifneq ($(SANITIZE),)
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CFLAGS += $(SAN_FLAGS)
LDFLAGS += $(SAN_FLAGS)
SAN_LOG := $(abspath $(BUILD))/sanitizer
# quarantine_size_mb: freed memory ASan keeps poisoned to catch late uses; its default
# 256 MB would read as retained memory in the bounded-RSS checks of 81-limits.t.
# LeakSanitizer works as root with BPF; not under ptrace: a test that runs the daemon under
# strace turns it off for that run (tests/lib.sh, NO_LSAN).
export ASAN_OPTIONS := halt_on_error=1:abort_on_error=1:detect_leaks=1:quarantine_size_mb=4:log_path=$(SAN_LOG)/asan
export UBSAN_OPTIONS := halt_on_error=1:abort_on_error=1:print_stacktrace=1:log_path=$(SAN_LOG)/ubsan
export SAN_LOG SAN_FLAGS
PROVE := tests/sanitized-prove
# tests/lib.sh finds the binaries through BUILD (the wrapper makes it absolute)
export BUILD
endif
