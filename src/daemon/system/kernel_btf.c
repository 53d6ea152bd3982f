// SPDX-License-Identifier: GPL-2.0
/* The kernel's BTF, for libbpf and for irqlatd alike, made from a memory map of
 * /sys/kernel/btf/vmlinux.
 *
 * Why this defines libbpf's own btf__load_vmlinux_btf(): libbpf 1.1 parses the kernel's BTF
 * again for every BPF object it loads (the tp_btf attach ids, CO-RE), and has no way to hand an
 * object a BTF parsed already (btf_custom_path is parsed again, for CO-RE only). Its parse
 * reads the 5.5 MB file one page per read(2) into a buffer and copies that buffer: 11.5 MiB held
 * at once and about 60 ms on the development VM, for each of the five or six objects and for
 * irqlatd's own questions (docs/bench.md, "The daemon's start-up"). Since Linux 6.16 the file
 * can be mapped: btf__new() over the map makes the one copy a struct btf needs (6 MiB, about
 * 16 ms), and the kernel's mapped pages are not irqlatd's memory. libbpf calls
 * btf__load_vmlinux_btf() through its PLT, so this definition serves libbpf's loads too; each
 * gets a struct btf of its own, which it frees with btf__free() as it would its own parse, so
 * nothing depends on how libbpf frees it. Where the kernel refuses the map (before 6.16), or
 * the file is missing, libbpf's own function runs as before. */
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

struct btf *btf__load_vmlinux_btf(void)
{
	static struct btf *(*libbpf_own)(void);
	struct btf *btf = kernel_btf_from_map(VMLINUX_BTF);

	if (btf)
		return btf;
	if (!libbpf_own)
		libbpf_own = (struct btf *(*)(void))dlsym(RTLD_NEXT, "btf__load_vmlinux_btf");
	if (!libbpf_own) {
		errno = ENOENT;
		return NULL;
	}
	return libbpf_own();
}
