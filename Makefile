# irqlatd: see README.md. `make` builds into $(BUILD); `sudo make run` and `sudo make check`
# also install the Debian packages they need (scripts/install-deps).
#
# Entry points (`make help` prints this list). Each mk/ file makes the target it is named for:
#   make              all: $(BUILD)/irqlatd, $(BUILD)/irqlat, and systemd/irqlatd.service for
#                     this PREFIX (mk/install.mk)
#   make run          deps, all; then irqlatd in the foreground
#   make install      all; then the binaries, man pages, systemd unit, catalog, sysusers.d
#                     file, metrics socket unit and bash completion (mk/install.mk)
#   make unit         the unit tests (tests/unit/**/test_*.c, cmocka), built over the objects
#                     of all and run: no root, no package installed (mk/unit.mk)
#   make check-unit   all, the unit tests built (not run), scripts/include-cycles (mk/unit.mk)
#   make check-host   test-deps, deb, fuzz-check (not with SANITIZE=1); then all, check-unit,
#                     bench-build; then prove over the unit tests and tests/host/*.t, as root
#                     (mk/check-host.mk)
#   make check-vm     module, deb, the binaries, the three-argument sillymod, the guests'
#                     helpers; then tests/vm/check-vm boots the QEMU guests (mk/check-vm.mk)
#   make check        check-host, then check-vm (SANITIZE=1: check-host only); CI runs it
#                     (.ci/run)
#   make deb          deb-deps; then $(BUILD)/deb/irqlatd_VERSION_ARCH.deb (mk/deb.mk)
#   make fuzz         test-deps; then each libFuzzer harness for FUZZ_SECONDS (mk/fuzz.mk,
#                     also fuzz-check and fuzz-merge)
#   make bench        test-deps, bench-build; then the benchmarks, as root (mk/bench.mk, also
#                     bench-scale and bench-soak)
#   make module       vm-deps; then sillymod for the guests' kernel (mk/check-vm.mk)
#   make deps         scripts/install-deps build (test-deps, deb-deps, vm-deps: the other sets)
#   make vmlinux      vmlinux/ARCH/vmlinux.h from the running kernel's BTF
#   make clean        rm -rf $(BUILD)
#   SANITIZE=1        any of them with ASan and UBSan, into build-san/ (mk/sanitize.mk)
BUILD ?= $(if $(SANITIZE),build-san,build)
PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR ?= $(PREFIX)/sbin
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man

CC ?= cc
CLANG ?= clang
BPFTOOL ?= bpftool
LLVM_STRIP ?= llvm-strip
PROTOC_C ?= protoc-c
ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')

# The folders say who runs the code: src/daemon is irqlatd, src/client is irqlat, src/common is
# linked into both, bpf/ is the kernel side with the ABI header both sides compile.
# A new .c file in one of them needs no edit here.
DAEMON_PKGS := libbpf libsystemd json-c libcap inih libmicrohttpd libprotobuf-c
CLIENT_PKGS := json-c ncursesw
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Werror=implicit-function-declaration -D_GNU_SOURCE \
	  -Isrc -Ibpf -I$(BUILD) -MMD -MP $(shell pkg-config --cflags $(DAEMON_PKGS) $(CLIENT_PKGS) 2>/dev/null)
# libmicrohttpd is opened at run time, by --metrics only (src/daemon/sinks/mhd_dlopen.c): its headers
# at build time, its SONAME from the library the build finds
DAEMON_LDLIBS := $(shell pkg-config --libs $(filter-out libmicrohttpd,$(DAEMON_PKGS)) 2>/dev/null) -lm
MHD_SONAME := $(shell objdump -p "$$(pkg-config --variable=libdir libmicrohttpd 2>/dev/null)/libmicrohttpd.so" 2>/dev/null | awk '$$1 == "SONAME" { print $$2 }')
CFLAGS += $(if $(MHD_SONAME),-DMHD_SONAME='"$(MHD_SONAME)"')
CLIENT_LDLIBS := $(shell pkg-config --libs $(CLIENT_PKGS) 2>/dev/null || echo -ljson-c -lncursesw) -lm
BPF_CFLAGS := -target bpf -D__TARGET_ARCH_$(ARCH) -g -O2 -mcpu=v3 -Wall \
	      -Ivmlinux -Ibpf -I$(BUILD) $(BPF_EXTRA_CFLAGS)

BPF_OBJS := $(patsubst bpf/%.bpf.c,$(BUILD)/%.bpf.o,$(wildcard bpf/*.bpf.c))
SKELS := $(patsubst $(BUILD)/%.bpf.o,$(BUILD)/%.skel.h,$(BPF_OBJS))
# the Prometheus protobuf messages (src/daemon/sinks/*.proto), generated beside the skeletons;
# src/daemon/sinks/prometheus_client_pb.c compiles the generated .c into every build of src/
PROTO_HDRS := $(patsubst src/daemon/sinks/%.proto,$(BUILD)/%.pb-c.h,$(wildcard src/daemon/sinks/*.proto))

COMMON_SRCS := $(sort $(shell find src/common -name '*.c'))
DAEMON_SRCS := $(sort $(shell find src/daemon -name '*.c')) $(COMMON_SRCS)
CLIENT_SRCS := $(sort $(shell find src/client -name '*.c')) $(COMMON_SRCS)
# everything but the two mains, for unit tests and helpers to link against
LIB_SRCS := $(filter-out src/daemon/main.c src/client/main.c,$(sort $(DAEMON_SRCS) $(CLIENT_SRCS)))

obj = $(patsubst src/%.c,$(BUILD)/obj/%.o,$(1))

# The mk/ files of the entry points above, in this order: a rule's prerequisites are
# read as make reads the rule, so a file comes after those whose variables it names there
# (fuzz and bench name the unit tests' headers, check-host and check-vm the .deb)
include mk/sanitize.mk
include mk/install.mk
include mk/unit.mk
include mk/deb.mk
include mk/fuzz.mk
include mk/bench.mk
include mk/check-host.mk
include mk/check-vm.mk

all: $(BUILD)/irqlatd $(BUILD)/irqlat

$(BUILD)/obj $(BUILD)/tests:
	@mkdir -p $@

$(BUILD)/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) | $(BUILD)/obj
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

# The skeleton embeds its object in the daemon: without the DWARF (the BTF and its line info
# stay), 0.4 MB for every object together instead of 3 MB, which libbpf reads at start-up and
# which stayed in the daemon's resident size.
$(BUILD)/%.skel.o: $(BUILD)/%.bpf.o
	$(LLVM_STRIP) -g $< -o $@

$(BUILD)/%.skel.h: $(BUILD)/%.skel.o
	$(BPFTOOL) gen skeleton $< name $*_bpf > $@.tmp && mv $@.tmp $@

$(BUILD)/%.pb-c.h $(BUILD)/%.pb-c.c: src/daemon/sinks/%.proto | $(BUILD)/obj
	$(PROTOC_C) --proto_path=src/daemon/sinks --c_out=$(BUILD) $<

# every object waits for the skeletons and the protobuf code: the daemon's sources include
# them (-MMD finds the rest)
$(BUILD)/obj/%.o: src/%.c $(SKELS) $(PROTO_HDRS) | $(BUILD)/obj
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/irqlatd: $(call obj,$(DAEMON_SRCS))
	$(CC) $(LDFLAGS) $^ -o $@ $(DAEMON_LDLIBS)

$(BUILD)/irqlat: $(call obj,$(CLIENT_SRCS))
	$(CC) $(LDFLAGS) $^ -o $@ $(CLIENT_LDLIBS)

-include $(patsubst %.o,%.d,$(call obj,$(LIB_SRCS) src/daemon/main.c src/client/main.c))

# Kernel types for CO-RE, from the running kernel; committed so builds do not depend on it.
vmlinux:
	mkdir -p vmlinux/$(ARCH)
	$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > vmlinux/$(ARCH)/vmlinux.h

deps:
	@scripts/install-deps build

test-deps:
	@scripts/install-deps test

run: deps
	@$(MAKE) --no-print-directory all
	@echo "irqlatd: starting in the foreground; in another terminal: $(BUILD)/irqlat --top (Ctrl-C stops)"
	$(BUILD)/irqlatd $(RUN_ARGS)

# SANITIZE=1: the unit and host tests only (the guests run the packaged, unsanitized build)
check:
	@$(MAKE) --no-print-directory check-host
	$(if $(SANITIZE),,@$(MAKE) --no-print-directory check-vm)

help:
	@sed -n '/^# Entry points/,/^#   SANITIZE=1/s/^# \{0,1\}//p' $(firstword $(MAKEFILE_LIST))

clean:
	rm -rf $(BUILD)

.SECONDARY:
.PHONY: all vmlinux deps test-deps run check help clean
.DEFAULT_GOAL := all
