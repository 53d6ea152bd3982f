# make check-vm: the VM tests, Debian's own kernel under QEMU (docs/vm.md), and what the
# guests take in: sillymod, the binaries, the Debian package (mk/deb.mk), a three-argument
# sillymod and the guests' own helpers.
#   make module      build module/sillymod against the guest kernel's headers
#   make check-vm    boot guests, run tests/vm checks, end with "vm: N passed, N failed"
# Variables: KVER, MODULE_BTF (1/0), VM_SYSTEMD (auto/1/0), VM_TIMEOUT, BUILD.

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

# A sillymod whose me_silly has a third argument (twice = 2 x count), built without BTF: the
# guest check (tests/vm/initramfs/20-irqlatd-tracepoints.sh) loads it after the real one, so
# irqlatd must re-read the arity, from the tracefs format this time. Made from module/sillymod
# by sed, so it follows that module's changes.
SILLYMOD_ARITY := $(BUILD)/module/sillymod-arity
$(SILLYMOD_ARITY)/sillymod.ko: module/sillymod/silly-trace.h module/sillymod/sillymod-event.c module/sillymod/Makefile | module
	@mkdir -p $(SILLYMOD_ARITY)
	@cp -p module/sillymod/Makefile $(SILLYMOD_ARITY)/
	sed -e 's/TP_PROTO(unsigned long time, unsigned long count)/TP_PROTO(unsigned long time, unsigned long count, unsigned long twice)/' \
	    -e 's/TP_ARGS(time, count)/TP_ARGS(time, count, twice)/' \
	    -e 's/__field(\(\s*\)unsigned long,\(\s*\)count\(\s*\))/&\n\t\t__field(\1unsigned long,\2twice\3)/' \
	    -e 's/__entry->count = count;/&\n\t\t__entry->twice = twice;/' \
	    -e 's/"time=%lu count=%lu", __entry->time, __entry->count/"time=%lu count=%lu twice=%lu", __entry->time, __entry->count, __entry->twice/' \
	    module/sillymod/silly-trace.h > $(SILLYMOD_ARITY)/silly-trace.h
	sed -e 's/trace_me_silly(jiffies, count);/trace_me_silly(jiffies, count, 2 * count);/' \
	    module/sillymod/sillymod-event.c > $(SILLYMOD_ARITY)/sillymod-event.c
	@grep -q 'count, 2 \* count' $(SILLYMOD_ARITY)/sillymod-event.c && grep -c 'twice' $(SILLYMOD_ARITY)/silly-trace.h | grep -qx 5 || \
		{ echo "mk/check-vm.mk: module/sillymod changed: the three-argument variant no longer applies" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(abspath $(SILLYMOD_ARITY)) modules
	@objcopy --remove-section=.BTF $@ 2>/dev/null || true

# The guests' own helpers (tests/vm/helpers), copied in by tests/vm/run-initramfs
$(BUILD)/vm-helpers/%: tests/vm/helpers/%.c
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra -o $@ $<
# bpf-cells loads one of the BPF objects on a pool of its own (68-nmi.sh): libbpf and the ABI
$(BUILD)/vm-helpers/bpf-cells: tests/vm/helpers/bpf-cells.c bpf/irqlat_abi.h bpf/hist_bucket.h
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra -D_GNU_SOURCE -Ibpf -o $@ $< -lbpf

# Everything the guests take in. The initramfs guest copies in the binaries (and runs the
# daemon's tracepoint checks), the three-argument sillymod (VM_EXTRA_FILES) and the helpers;
# the systemd guest installs the .deb (IRQLATD_DEB).
check-vm: module $(DEB) $(BUILD)/irqlatd $(BUILD)/irqlat $(SILLYMOD_ARITY)/sillymod.ko $(BUILD)/vm-helpers/proc-sample \
	  $(BUILD)/vm-helpers/rt-burst $(BUILD)/vm-helpers/timerfd-past $(BUILD)/vm-helpers/bpf-cells $(BUILD)/nmi.bpf.o
	@BUILD=$(BUILD) KVER=$(KVER) MODULE_BTF=$(MODULE_BTF) VM_SYSTEMD=$(VM_SYSTEMD) \
		MAKE="$(MAKE)" tests/vm/check-vm
check-vm: export VM_EXTRA_FILES += $(abspath $(SILLYMOD_ARITY)/sillymod.ko)
check-vm: export IRQLATD_DEB := $(abspath $(DEB))
