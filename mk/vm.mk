# sillymod and the VM tests: Debian's own kernel under QEMU (docs/vm.md).
#   make module      build module/sillymod against the guest kernel's headers
#   make check-vm    boot guests, run tests/vm checks, end with "vm: N passed, N failed"
# Variables: KVER, MODULE_BTF (1/0), VM_SYSTEMD (auto/1/0), VM_TIMEOUT, BUILD.

# Included before the top-level targets, these must not become the default goal.
vm_default_goal := $(.DEFAULT_GOAL)

BUILD ?= build
# The kernel the guest boots is the one linux-image-amd64 depends on, never
# the host's (uname -r).  Recursive, so that it is read after vm-deps has
# installed the package on a fresh machine.
KVER ?= $(shell dpkg-query -W -f='$${Depends}' linux-image-amd64 2>/dev/null | sed -E 's/^linux-image-([^ ,]+).*/\1/')
KDIR ?= /usr/src/linux-headers-$(KVER)
# Module BTF (needed by tp_btf/me_silly, not by raw_tp/me_silly).
MODULE_BTF ?= 1
# The systemd guest: auto runs it when tests/vm/systemd/ has a check.
VM_SYSTEMD ?= auto

SILLYMOD_OUT := $(BUILD)/module/sillymod

.PHONY: module check-vm vm-deps

vm-deps:
	@scripts/install-deps vm

# Kbuild builds in a copy, so that the source tree stays clean.
module: vm-deps
	@mkdir -p $(SILLYMOD_OUT)
	@cp -p module/sillymod/Makefile module/sillymod/*.c module/sillymod/*.h $(SILLYMOD_OUT)/
	$(MAKE) -C $(KDIR) M=$(abspath $(SILLYMOD_OUT)) modules
ifeq ($(MODULE_BTF),1)
	@KVER=$(KVER) VM_DIR=$(BUILD)/vm tests/vm/module-btf $(SILLYMOD_OUT)/sillymod.ko
else
	@# kbuild does not relink an unchanged .ko: drop BTF added by an earlier MODULE_BTF=1.
	@objcopy --remove-section=.BTF $(SILLYMOD_OUT)/sillymod.ko
endif

# The guests' own helpers (tests/vm/helpers), copied in by tests/vm/run-initramfs
$(BUILD)/vm-helpers/%: tests/vm/helpers/%.c
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra -o $@ $<
check-vm: $(BUILD)/vm-helpers/proc-sample

# Add prerequisites from elsewhere with a line such as
#   check-vm: $(BUILD)/irqlatd $(BUILD)/irqlat
check-vm: module
	@BUILD=$(BUILD) KVER=$(KVER) MODULE_BTF=$(MODULE_BTF) VM_SYSTEMD=$(VM_SYSTEMD) \
		MAKE="$(MAKE)" tests/vm/check-vm

.DEFAULT_GOAL := $(vm_default_goal)
