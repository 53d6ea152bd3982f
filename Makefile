# irqlatd: see README.md. `make` builds into $(BUILD); `sudo make run` and `sudo make check`
# also install the Debian packages they need (scripts/install-deps).
BUILD ?= $(if $(SANITIZE),build-san,build)
PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR ?= $(PREFIX)/sbin
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man

CC ?= cc
CLANG ?= clang
BPFTOOL ?= bpftool
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
DAEMON_LDLIBS := $(shell pkg-config --libs $(DAEMON_PKGS) 2>/dev/null) -lm
CLIENT_LDLIBS := $(shell pkg-config --libs $(CLIENT_PKGS) 2>/dev/null || echo -ljson-c -lncursesw) -lm
BPF_CFLAGS := -target bpf -D__TARGET_ARCH_$(ARCH) -g -O2 -mcpu=v3 -Wall \
	      -Ivmlinux -Ibpf -I$(BUILD)

BPF_OBJS := $(patsubst bpf/%.bpf.c,$(BUILD)/%.bpf.o,$(wildcard bpf/*.bpf.c))
SKELS := $(patsubst $(BUILD)/%.bpf.o,$(BUILD)/%.skel.h,$(BPF_OBJS))
# the Prometheus protobuf messages (src/daemon/*.proto), generated beside the skeletons;
# src/daemon/prometheus_client_pb.c compiles the generated .c into every build of src/
PROTO_HDRS := $(patsubst src/daemon/%.proto,$(BUILD)/%.pb-c.h,$(wildcard src/daemon/*.proto))

COMMON_SRCS := $(sort $(wildcard src/common/*.c src/common/*/*.c))
DAEMON_SRCS := $(sort $(wildcard src/daemon/*.c src/daemon/*/*.c)) $(COMMON_SRCS)
CLIENT_SRCS := $(sort $(wildcard src/client/*.c src/client/*/*.c)) $(COMMON_SRCS)
# everything but the two mains, for unit tests and helpers to link against
LIB_SRCS := $(filter-out src/daemon/main.c src/client/main.c,$(sort $(DAEMON_SRCS) $(CLIENT_SRCS)))

obj = $(patsubst src/%.c,$(BUILD)/obj/%.o,$(1))

-include $(filter-out mk/check.mk,$(wildcard mk/*.mk))

all: $(BUILD)/irqlatd $(BUILD)/irqlat

$(BUILD)/obj $(BUILD)/tests:
	@mkdir -p $@

$(BUILD)/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) | $(BUILD)/obj
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/%.skel.h: $(BUILD)/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $*_bpf > $@.tmp && mv $@.tmp $@

$(BUILD)/%.pb-c.h $(BUILD)/%.pb-c.c: src/daemon/%.proto | $(BUILD)/obj
	$(PROTOC_C) --proto_path=src/daemon --c_out=$(BUILD) $<

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

install: all
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man8
	install -m 0755 $(BUILD)/irqlatd $(DESTDIR)$(SBINDIR)/irqlatd
	install -m 0755 $(BUILD)/irqlat $(DESTDIR)$(BINDIR)/irqlat
	install -m 0644 docs/irqlat.1 $(DESTDIR)$(MANDIR)/man1/irqlat.1
	install -m 0644 docs/irqlatd.8 $(DESTDIR)$(MANDIR)/man8/irqlatd.8

clean:
	rm -rf $(BUILD)

.SECONDARY:
.PHONY: all vmlinux deps test-deps run install clean check check-unit check-host bench

include mk/check.mk
.DEFAULT_GOAL := all
