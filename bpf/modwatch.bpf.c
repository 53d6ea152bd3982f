// SPDX-License-Identifier: GPL-2.0
/* Module life cycle for the tracepoint consumer: module:module_load (after the module's
 * tracepoints, tracefs events and BTF are registered, before its init function runs) and
 * module:module_free wake the daemon through the shared ring buffer, so a waiting tracepoint
 * is attached at once instead of at the next tracefs check. The delete_module(2) program
 * reports an unload the kernel refused: while irqlatd's link holds a module, that is the rmmod
 * a person is waiting for (docs/tracepoints.md says why irqlatd cannot let go in time).
 * Module loads and unloads are rare: nothing here is on a hot path. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "irqlat_abi.h"
#include "ringbuf.bpf.h"

static __always_inline struct module_event *module_event_new(__u32 what)
{
	struct module_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	__u64 id;

	if (!e) {
		count_drop(DROP_TRACEPOINT);	/* the tracefs check catches a lost load or free */
		return NULL;
	}
	id = bpf_get_current_pid_tgid();
	e->kind = RB_MODULE;
	e->what = what;
	e->ts_ns = bpf_ktime_get_ns();
	e->ret = 0;
	e->pid = (__u32)id;
	e->tgid = id >> 32;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	return e;
}

static __always_inline int module_changed(struct module *mod, __u32 what)
{
	struct module_event *e = module_event_new(what);

	if (!e)
		return 0;
	if (BPF_CORE_READ_STR_INTO(&e->name, mod, name) < 0)
		e->name[0] = 0;
	bpf_ringbuf_submit(e, BPF_RB_FORCE_WAKEUP);	/* the daemon races the module's first event */
	return 0;
}

SEC("raw_tp/module_load")
int BPF_PROG(module_load, struct module *mod)
{
	return module_changed(mod, MODULE_LOADED);
}

SEC("raw_tp/module_free")
int BPF_PROG(module_free, struct module *mod)
{
	return module_changed(mod, MODULE_FREED);
}

/* delete_module(2)'s result. fexit on the syscall's entry point (not a syscall tracepoint,
 * which would send every system call of the machine through the slower entry path, and whose
 * switching on and off patches code every system call runs): only unloads pay. The body,
 * __do_sys_delete_module, is inlined and cannot be traced; the entry point is per
 * architecture and takes the caller's registers. */
#if defined(__TARGET_ARCH_x86)
#define UNLOAD_SYSCALL "fexit/__x64_sys_delete_module"
#elif defined(__TARGET_ARCH_arm64)
#define UNLOAD_SYSCALL "fexit/__arm64_sys_delete_module"
#endif

#ifdef UNLOAD_SYSCALL
SEC(UNLOAD_SYSCALL)
int BPF_PROG(unload_exit, const struct pt_regs *regs, long ret)
{
	struct module_event *e;

	if (ret >= 0 || !(e = module_event_new(MODULE_UNLOAD_REFUSED)))
		return 0;
	e->ret = ret;
	if (bpf_probe_read_user_str(e->name, sizeof(e->name), (const char *)PT_REGS_PARM1_CORE_SYSCALL(regs)) < 0)
		e->name[0] = 0;
	bpf_ringbuf_submit(e, BPF_RB_FORCE_WAKEUP);
	return 0;
}
#endif

char LICENSE[] SEC("license") = "GPL";
