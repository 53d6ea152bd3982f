// SPDX-License-Identifier: GPL-2.0
#include <dlfcn.h>
#include <errno.h>
#include "daemon/base/log.h"
#include "daemon/sinks/mhd_dlopen.h"

/* the library's SONAME, from the one the build found (mk: MHD_SONAME) */
#ifndef MHD_SONAME
#define MHD_SONAME "libmicrohttpd.so.12"
#endif

#define MHD_DEFINE(f) typeof(f) *sym_##f;
MHD_FUNCTIONS(MHD_DEFINE)
#undef MHD_DEFINE

int mhd_dlopen(void)
{
	static void *lib;
	const char *missing = NULL;

	if (lib)
		return 0;
	/* kept for the daemon's life: nothing closes it, so its functions stay valid */
	void *l = dlopen(MHD_SONAME, RTLD_NOW | RTLD_NODELETE);

	if (!l)
		return log_error_errno(-ENOENT, "metrics: the HTTP endpoint needs libmicrohttpd (%s; Debian: libmicrohttpd12): %s",
				       MHD_SONAME, dlerror());
#define MHD_FIND(f) if (!missing && !(sym_##f = (typeof(f) *)dlsym(l, #f))) missing = #f;
	MHD_FUNCTIONS(MHD_FIND)
#undef MHD_FIND
	if (missing) {
		dlclose(l);
		return log_error_errno(-ENOENT, "metrics: %s has no %s: not the libmicrohttpd irqlatd was built with", MHD_SONAME, missing);
	}
	lib = l;
	return 0;
}
