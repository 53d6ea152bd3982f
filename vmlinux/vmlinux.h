/* Kernel type definitions for the BPF programs, generated per architecture by `make vmlinux`
 * from /sys/kernel/btf/vmlinux. CO-RE relocations make them work on other kernels. */
#if defined(__TARGET_ARCH_x86)
#include "x86/vmlinux.h"
#else
#error "irqlatd: no vmlinux.h for this architecture; run `make vmlinux` on such a machine"
#endif
