// SPDX-License-Identifier: GPL-2.0
/* The kernel's BTF, for libbpf and for irqlatd alike, made from a memory map of
 * /sys/kernel/btf/vmlinux, and parsed once for all of them.
 *
 * Why this defines libbpf's own btf__load_vmlinux_btf(): libbpf 1.1 parses the kernel's BTF
 * again for every BPF object it loads (the tp_btf attach ids, CO-RE), and has no way to hand an
 * object a BTF parsed already (btf_custom_path is parsed again, for CO-RE only). Its parse
 * reads the 5.5 MB file one page per read(2) into a buffer and copies that buffer: 11.5 MiB held
 * at once and about 60 ms on the development VM, for each of the five or six objects and for
 * irqlatd's own questions (docs/bench.md, "The daemon's start-up"). Since Linux 6.16 the file
 * can be mapped: btf__new() over the map makes the one copy a struct btf needs (6 MiB, about
 * 16 ms, most of it faulting in fresh pages), and the kernel's mapped pages are not irqlatd's
 * memory. libbpf calls btf__load_vmlinux_btf() and btf__free() through its PLT, so these
 * definitions serve libbpf's loads too.
 *
 * Why it also defines btf__free(): that copy was still made once per object, nine times in
 * all, about a third of the start-up. Every caller now gets the same struct btf, counted, and
 * btf__free() of it only drops a count; the last one frees it. The daemon holds a count across
 * the start-up (kernel_btf_hold()), so the kernel's BTF is parsed once there and freed before
 * the loop runs (a tracepoint watcher that needs it later keeps a count of its own). Sharing is
 * safe because nothing changes the kernel's BTF once parsed: libbpf only looks types up in it
 * (attach ids, CO-RE candidates, ksyms), as irqlatd does, and a module's BTF split on it is
 * freed before the count its maker took. Start-up is one thread, so the count is a plain
 * integer. Where the kernel refuses the map (before 6.16), libbpf's own function parses it, and
 * its parse is shared the same way. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/btf.h>
#include "daemon/system/kernel_btf.h"

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

struct btf *kernel_btf_from_map(const char *path)
{
	struct btf *btf = NULL;
	struct stat st;
	void *data = MAP_FAILED;
	int fd, err = ENOENT;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && st.st_size > 0)
		data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (data == MAP_FAILED)
		err = errno;
	close(fd);
	if (data == MAP_FAILED) {
		errno = err;
		return NULL;
	}
	btf = btf__new(data, (__u32)st.st_size);	/* copies: the map can go */
	err = errno;
	munmap(data, (size_t)st.st_size);
	errno = err;
	return btf;
}

static struct btf *shared;	/* the kernel's BTF while anyone holds it */
static unsigned shared_refs;

struct btf *btf__load_vmlinux_btf(void)
{
	static struct btf *(*libbpf_own)(void);
	struct btf *btf;

	if (shared) {
		shared_refs++;
		return shared;
	}
	btf = kernel_btf_from_map(VMLINUX_BTF);
	if (!btf) {
		if (!libbpf_own)
			libbpf_own = (struct btf *(*)(void))dlsym(RTLD_NEXT, "btf__load_vmlinux_btf");
		if (!libbpf_own) {
			errno = ENOENT;
			return NULL;
		}
		btf = libbpf_own();
		if (!btf)
			return NULL;
	}
	shared = btf;
	shared_refs = 1;
	return btf;
}

void btf__free(struct btf *btf)
{
	static void (*libbpf_free)(struct btf *);

	if (!btf)
		return;
	if (btf == shared) {
		if (--shared_refs)
			return;
		shared = NULL;
	}
	if (!libbpf_free)
		libbpf_free = (void (*)(struct btf *))dlsym(RTLD_NEXT, "btf__free");
	if (libbpf_free)
		libbpf_free(btf);
}

struct btf *kernel_btf_hold(void)
{
	return btf__load_vmlinux_btf();
}

void kernel_btf_release(struct btf **btf)
{
	btf__free(*btf);
	*btf = NULL;
}
