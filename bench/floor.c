// SPDX-License-Identifier: GPL-2.0
/* irqlat-bench-floor: the bench loader (bench/run.sh drives it). Turns on the kernel's BPF
 * run-time statistics for as long as it runs, attaches the throwaway clock-reading pair at
 * once, then the floor pair: at once, or on SIGUSR1 with --wait so that another program
 * (irqlatd) can be attached in between. Prints "warm ENTRY_ID EXIT_ID" and
 * "floor ENTRY_ID EXIT_ID" (kernel program ids) as it attaches; stops on SIGTERM or SIGINT.
 * Exit status: 0 stopped cleanly, 1 could not load or attach, 2 bad command line. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "floor.skel.h"

static int prog_id(const struct bpf_program *p)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len))
		return -errno;
	return (int)info.id;
}

/* exit first, as irqlatd does: an entry without its exit is harmless */
static int attach_pair(struct bpf_program *entry, struct bpf_program *exit_,
		       struct bpf_link **le, struct bpf_link **lx, const char *what)
{
	*lx = bpf_program__attach(exit_);
	if (!*lx)
		goto fail;
	*le = bpf_program__attach(entry);
	if (!*le)
		goto fail;
	printf("%s %d %d\n", what, prog_id(entry), prog_id(exit_));
	return 0;
fail:
	fprintf(stderr, "irqlat-bench-floor: cannot attach the %s pair to irq:irq_handler_entry/exit: %s\n",
		what, strerror(errno));
	return -1;
}

/* the first of the signals in set to arrive */
static int wait_signal(const sigset_t *set)
{
	int sig;

	return sigwait(set, &sig) ? -1 : sig;
}

int main(int argc, char **argv)
{
	struct floor_bpf *skel;
	sigset_t set;
	int stats_fd, wait = 0, rc = 1;

	if (argc == 2 && !strcmp(argv[1], "--wait"))
		wait = 1;
	else if (argc != 1) {
		fprintf(stderr, "usage: irqlat-bench-floor [--wait]   (--wait: attach the floor pair on SIGUSR1)\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* blocked before anything can send them; sigwait() takes them in order */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);

	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd < 0) {
		fprintf(stderr, "irqlat-bench-floor: cannot turn on BPF run-time statistics: %s; run as root\n",
			strerror(-stats_fd));
		return 1;
	}
	skel = floor_bpf__open_and_load();
	if (!skel) {
		fprintf(stderr, "irqlat-bench-floor: cannot load the floor programs: %s; run as root on a kernel with BTF\n",
			strerror(errno));
		goto out;
	}
	if (attach_pair(skel->progs.warm_entry, skel->progs.warm_exit,
			&skel->links.warm_entry, &skel->links.warm_exit, "warm") < 0)
		goto out;
	if (wait && wait_signal(&set) != SIGUSR1) {
		rc = 0;	/* told to stop before the floor was attached */
		goto out;
	}
	if (attach_pair(skel->progs.floor_entry, skel->progs.floor_exit,
			&skel->links.floor_entry, &skel->links.floor_exit, "floor") < 0)
		goto out;
	sigdelset(&set, SIGUSR1);	/* stays blocked: a second one means nothing */
	wait_signal(&set);
	rc = 0;
out:
	floor_bpf__destroy(skel);
	close(stats_fd);
	return rc;
}
