/* SPDX-License-Identifier: GPL-2.0 */
/* Scope-bound cleanup in systemd's style: a variable declared _cleanup_free_ is freed on every
 * path out of its scope, so functions need no goto ladders. TAKE_PTR()/TAKE_FD() hand the
 * value on and leave nothing to clean. */
#ifndef IRQLAT_MACRO_H
#define IRQLAT_MACRO_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _unused_ __attribute__((unused))

#define ELEMENTSOF(a) (sizeof(a) / sizeof((a)[0]))

static inline void freep(void *p)
{
	free(*(void **)p);
}

/* close() keeps errno: a cleanup must not change the error a caller is about to report */
static inline void closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;

		close(*fd);
		errno = saved;
	}
}

static inline void fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}

#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_close_ _cleanup_(closep)
#define _cleanup_fclose_ _cleanup_(fclosep)

/* Defines name##p(type **), calling func on a non-NULL pointer: for _cleanup_(name##p). */
#define DEFINE_POINTER_CLEANUP(type, func)                \
	static inline void func##p(type **p)              \
	{                                                 \
		if (*p)                                   \
			func(*p);                         \
	}

#define TAKE_PTR(p) ({ __typeof__(p) _p = (p); (p) = NULL; _p; })
#define TAKE_FD(fd) ({ int _fd = (fd); (fd) = -1; _fd; })

#endif
