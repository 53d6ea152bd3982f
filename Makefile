# irqlatd: see README.md. `make` builds into $(BUILD); `sudo make run` and `sudo make check`
# also install the Debian packages they need (scripts/install-deps).
BUILD ?= build
PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR ?= $(PREFIX)/sbin
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man

CC ?= cc
CLANG ?= clang
BPFTOOL ?= bpftool
ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')

PKGS := libbpf libsystemd json-c libcap inih
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Werror=implicit-function-declaration -D_GNU_SOURCE \
	  -Isrc -I$(BUILD) $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm
BPF_CFLAGS := -target bpf -D__TARGET_ARCH_$(ARCH) -g -O2 -mcpu=v3 -Wall \
	      -Ivmlinux -Isrc -I$(BUILD)

BPF_OBJS := $(patsubst bpf/%.bpf.c,$(BUILD)/%.bpf.o,$(wildcard bpf/*.bpf.c))
SKELS := $(patsubst $(BUILD)/%.bpf.o,$(BUILD)/%.skel.h,$(BPF_OBJS))

DAEMON_SRCS := src/irqlatd.c src/options.c src/loader.c src/collect.c src/hist.c src/report.c \
	       src/server.c src/outlier.c src/log.c src/util.c src/config.c src/notify.c src/journal.c
CLIENT_SRCS := src/irqlat.c src/cli.c src/client.c src/table.c src/util.c

obj = $(patsubst src/%.c,$(BUILD)/obj/%.o,$(1))

# Feature fragments add sources with EXTRA_DAEMON_SRCS += ..., EXTRA_CLIENT_SRCS += ... and
# CLIENT_LDLIBS += ... / DAEMON_LDLIBS += ...; they are read before the link rules below, which expand the lists.
-include $(filter-out mk/check.mk,$(wildcard mk/*.mk))
DAEMON_SRCS += $(EXTRA_DAEMON_SRCS)
CLIENT_SRCS += $(EXTRA_CLIENT_SRCS)

all: $(BUILD)/irqlatd $(BUILD)/irqlat

$(BUILD)/obj $(BUILD)/tests:
	@mkdir -p $@

$(BUILD)/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) src/irqlat_abi.h | $(BUILD)/obj
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/%.skel.h: $(BUILD)/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $*_bpf > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/%.o: src/%.c $(wildcard src/*.h) $(SKELS) | $(BUILD)/obj
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/irqlatd: $(call obj,$(DAEMON_SRCS))
	$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS) $(DAEMON_LDLIBS)

$(BUILD)/irqlat: $(call obj,$(CLIENT_SRCS))
	$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS) $(CLIENT_LDLIBS)

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
