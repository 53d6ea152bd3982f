# Module (and any) tracepoints consumed by irqlatd: bpf/tracepoint.bpf.c, src/tracepoints.c,
# the client's side in src/tpclient.c.
# The Makefile expands DAEMON_SRCS/CLIENT_SRCS (and their link rules' prerequisites) before it
# includes mk/*.mk, so EXTRA_*_SRCS set here would come too late: add the objects directly.
TP_DAEMON_SRCS := src/tracepoints.c
TP_CLIENT_SRCS := src/tpclient.c
DAEMON_SRCS += $(TP_DAEMON_SRCS)
CLIENT_SRCS += $(TP_CLIENT_SRCS)
LIB_SRCS += $(TP_DAEMON_SRCS) $(TP_CLIENT_SRCS)
$(BUILD)/irqlatd: $(call obj,$(TP_DAEMON_SRCS))
$(BUILD)/irqlat: $(call obj,$(TP_CLIENT_SRCS))
# the guest runs the daemon's tracepoint checks (tests/vm/initramfs/20-irqlatd-tracepoints.sh)
check-vm: $(BUILD)/irqlatd $(BUILD)/irqlat
# unit tests link every object; the check.mk rule was expanded before ours were added
$(UNIT_BINS): $(call obj,$(TP_DAEMON_SRCS) $(TP_CLIENT_SRCS))
