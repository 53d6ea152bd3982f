// SPDX-License-Identifier: GPL-2.0
/* Module life cycle for the tracepoint consumer: module:module_load (after the module's
 * tracepoints, tracefs events and BTF are registered, before its init function runs) and
 * module:module_free wake the daemon through the shared ring buffer, so a waiting tracepoint
 * is attached at once instead of at the next tracefs check. The delete_module(2) pair reports
 * an unload the kernel refused: while irqlatd's link holds a module, that is the rmmod a
 * person is waiting for (docs/tracepoints.md says why irqlatd cannot let go in time).
 * Module loads and unloads are rare: nothing here is on a hot path. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "irqlat_abi.h"
#include "ringbuf.bpf.h"

/* the name each delete_module(2) in flight was called with, by task */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 64);
	__type(key, __u64);
	__type(value, char[MODULE_NAME_LEN_ABI]);
} unloading SEC(".maps");

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

/* Attached only while a consumed tracepoint holds a module: a syscall tracepoint sends every
 * system call of the machine through the slower entry path. */
SEC("tracepoint/syscalls/sys_enter_delete_module")
int unload_enter(struct trace_event_raw_sys_enter *ctx)
{
	char name[MODULE_NAME_LEN_ABI] = {};
	__u64 id = bpf_get_current_pid_tgid();

	if (bpf_probe_read_user_str(name, sizeof(name), (const char *)ctx->args[0]) > 0)
		bpf_map_update_elem(&unloading, &id, name, BPF_ANY);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_delete_module")
int unload_exit(struct trace_event_raw_sys_exit *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct module_event *e;
	char *name = bpf_map_lookup_elem(&unloading, &id);

	if (!name)
		return 0;
	if (ctx->ret < 0 && (e = module_event_new(MODULE_UNLOAD_REFUSED))) {
		e->ret = ctx->ret;
		__builtin_memcpy(e->name, name, sizeof(e->name));
		bpf_ringbuf_submit(e, BPF_RB_FORCE_WAKEUP);
	}
	bpf_map_delete_elem(&unloading, &id);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
