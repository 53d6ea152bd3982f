/* SPDX-License-Identifier: GPL-2.0 */
/* A task's memory mappings from /proc/PID/maps, parsed once and kept a little while, to name
 * the user frames of the explained waits' stacks: the file of the mapping that holds an
 * address and the offset in that file. The maps text was read again and scanned with sscanf()
 * for every frame of every explained wait: under a flood of late timers that was nearly all of
 * the daemon's time (the ring buffer dropped outliers); most of them interrupt the same few
 * tasks. */
#ifndef IRQLAT_UMAPS_H
#define IRQLAT_UMAPS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define UMAPS_MAX 4096			/* mappings kept of one task (the first so many) */
#define UMAPS_PIDS 8			/* tasks kept, the least recently asked for going first */
/* Kept so long: a task maps and unmaps, or execs; a frame that no kept mapping holds has them
 * read again sooner (umaps_reread()), so a new library is named within UMAPS_RETRY_NS */
#define UMAPS_TTL_NS 10000000000ull
#define UMAPS_RETRY_NS 100000000ull

struct umaps;
/* Parses a maps text (the kernel's format). 0, -ENOMEM, or -EINVAL when no line parses. */
int umaps_parse(FILE *maps, struct umaps **out);
void umaps_free(struct umaps *m);
/* addr as "/usr/bin/cat+0x1a2b" (the mapping's file and the offset in it), "[heap]+0x40" or
 * "[anon]+0x10" (the offset from the mapping's start), "0x7f..." when no mapping holds it.
 * 0, or -ENOENT when none does. */
int umaps_name(const struct umaps *m, uint64_t addr, char *buf, size_t len);

/* The mappings of the tasks asked for lately */
struct umaps_cache {
	struct {
		uint32_t pid;
		uint64_t read_ns, used_ns;
		struct umaps *m;	/* NULL: the task was gone or its maps unreadable then */
	} e[UMAPS_PIDS];
};
/* pid's mappings, read at most once a UMAPS_TTL_NS (now_ns: CLOCK_MONOTONIC); NULL when its
 * /proc/PID/maps cannot be read (the task is gone) */
const struct umaps *umaps_get(struct umaps_cache *c, uint32_t pid, uint64_t now_ns);
/* The same, read again if the kept copy is UMAPS_RETRY_NS old or more: for a frame the kept
 * copy has no mapping for (a library mapped since) */
const struct umaps *umaps_reread(struct umaps_cache *c, uint32_t pid, uint64_t now_ns);
void umaps_cache_free(struct umaps_cache *c);

#endif
