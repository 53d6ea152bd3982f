/* SPDX-License-Identifier: GPL-2.0 */
/* The other BPF programs on irq:irq_handler_entry/exit. The kernel runs every program of a
 * tracepoint at the same place, so theirs run between irqlatd's entry and exit clock reads
 * and their cost is in every duration irqlatd measures (hardirqs -d beside irqlatd roughly
 * doubled the handler times it showed). Found through the kernel's list of BPF links
 * (tp_btf, raw_tp: any process, pinned too) and the perf-event fds of the processes in /proc
 * (tracepoint programs as bpftrace attaches them), like bpftool link and bpftool perf. */
#ifndef IRQLAT_BPF_PEERS_H
#define IRQLAT_BPF_PEERS_H

#include <stdint.h>
#include <json-c/json.h>

#define BPF_PEERS_MAX_AGE_NS 5000000000ull	/* a scan walks /proc: at most one per 5 s */

struct bpf_peer {
	uint32_t prog_id;
	char name[16];		/* BPF_OBJ_NAME_LEN */
	char tracepoint[32];	/* "irq_handler_entry" */
	int pid;		/* a process holding it, 0 when none was found (pinned, or not visible) */
	char comm[16];
};

struct bpf_peers {
	struct bpf_peer *list;
	unsigned n;
	int error;		/* 0, or the -errno that kept the last scan from listing links */
	uint64_t scanned_ns;	/* CLOCK_MONOTONIC of the last scan, 0: never */
};

/* Scans again when the last scan is older than max_age_ns; own (nown ids): irqlatd's own
 * programs, left out. */
void bpf_peers_refresh(struct bpf_peers *p, const uint32_t *own, unsigned nown, uint64_t now_ns, uint64_t max_age_ns);
void bpf_peers_free(struct bpf_peers *p);
/* {"known": true, "programs": [{"id", "name", "tracepoint", "pid", "comm"}]} or
 * {"known": false, "error": "..."} */
json_object *bpf_peers_json(const struct bpf_peers *p);

#endif
