# Module (and any) tracepoints consumed by irqlatd: bpf/tracepoint.bpf.c, src/daemon/tracepoints.[ch] and tp_*.c,
# the client's side in src/client/tptable.c; here, the VM check's three-argument sillymod.
# the guest runs the daemon's tracepoint checks (tests/vm/initramfs/20-irqlatd-tracepoints.sh)
check-vm: $(BUILD)/irqlatd $(BUILD)/irqlat

# A sillymod whose me_silly has a third argument (twice = 2 x count), built without BTF: the
# guest check loads it after the real one, so irqlatd must re-read the arity, from the tracefs
# format this time. Made from module/sillymod by sed, so it follows that module's changes.
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
		{ echo "mk/tp.mk: module/sillymod changed: the three-argument variant no longer applies" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(abspath $(SILLYMOD_ARITY)) modules
	@objcopy --remove-section=.BTF $@ 2>/dev/null || true

check-vm: $(SILLYMOD_ARITY)/sillymod.ko
check-vm: export VM_EXTRA_FILES += $(abspath $(SILLYMOD_ARITY)/sillymod.ko)
