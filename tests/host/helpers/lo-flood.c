// SPDX-License-Identifier: GPL-2.0
/* NET_RX of loopback traffic on one CPU, for tests/host/21-why-irq-load.t.
 *
 * usage: lo-flood SECONDS SEND_CPU RX_CPU
 *
 * In a network namespace of its own (and a mount namespace, for a sysfs that shows that
 * namespace's devices), so that nothing of the machine's own loopback changes: brings lo up,
 * steers its received packets to RX_CPU with RPS (lo's rx-0 rps_cpus; left off when RX_CPU is
 * SEND_CPU, where loopback's NET_RX runs anyway, in the sender's own bottom half), binds a UDP
 * socket on 127.0.0.1 that it never reads (its queue fills, then each datagram is dropped in
 * udp_rcv: NET_RX's work, nothing for a task to do), and sends it 64-byte datagrams, 64 a
 * sendmmsg(), from a thread pinned to SEND_CPU for SECONDS. Prints "sent N".
 *
 * Why RPS: a sender on the receiving CPU hands each datagram to NET_RX at once (at its
 * local_bh_enable()), a few microseconds a run, which no real-time waiter notices. Steered to
 * another CPU, the datagrams queue in that CPU's backlog (net.core.netdev_max_backlog) faster
 * than it takes them, and its NET_RX runs for as long as the kernel lets a softirq run (2 ms
 * and 10 restarts in __do_softirq, then ksoftirqd, whose softirq runs are as long): a
 * real-time task woken meanwhile waits for the run's end. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/bpf.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define BATCH 64

static int die(const char *what)
{
	fprintf(stderr, "lo-flood: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		die("sched_setaffinity");
}

/* lo up, in this (new) network namespace */
static void lo_up(void)
{
	struct ifreq ifr = { 0 };
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	if (s < 0)
		die("socket");
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		die("SIOCGIFFLAGS lo");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
		die("SIOCSIFFLAGS lo");
	close(s);
}

/* lo's received packets to rx_cpu: through a sysfs mounted in this namespace (it shows the
 * devices of the network namespace it is mounted from) */
static void rps_to(int rx_cpu)
{
	char dir[] = "/tmp/lo-flood.XXXXXX", path[256];
	FILE *f;

	if (!mkdtemp(dir))
		die("mkdtemp");
	if (mount("sysfs", dir, "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		die("mount sysfs");
	snprintf(path, sizeof(path), "%s/class/net/lo/queues/rx-0/rps_cpus", dir);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%llx\n", 1ULL << rx_cpu) < 0 || fclose(f) != 0)
		die(path);
	umount2(dir, MNT_DETACH);
	rmdir(dir);
}

/* a socket filter (eBPF) that takes ns of the receiving CPU's time on each datagram, spinning
 * on bpf_ktime_get_ns(), and drops it; run in NET_RX (udp_queue_rcv_one_skb()), so that a
 * datagram costs the receiving CPU a known time, more than the sender's. The loop is bounded
 * for the verifier (SPIN_MAX clock reads) */
#define SPIN_MAX 20000
#define INSN(c, d, s_, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s_), .off = (o), .imm = (i) })
static void filter(int s, int ns)
{
	struct bpf_insn prog[] = {
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_ktime_get_ns),	/* r0 = now */
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 7, 0, 0, 0),			/* r7 = r0 + ns: the end */
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 7, 0, 0, ns),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 8, 0, 0, 0),			/* r8 = 0 */
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 8, 0, 0, 1),			/* loop: r8++ */
		INSN(BPF_JMP | BPF_JGT | BPF_K, 8, 0, 2, SPIN_MAX),		/* r8 > SPIN_MAX: out */
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_ktime_get_ns),
		INSN(BPF_JMP | BPF_JLT | BPF_X, 0, 7, -4, 0),			/* r0 < r7: loop */
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),			/* out: drop it */
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	union bpf_attr a = { .prog_type = BPF_PROG_TYPE_SOCKET_FILTER, .insn_cnt = sizeof(prog) / sizeof(prog[0]),
			     .insns = (uintptr_t)prog, .license = (uintptr_t)"GPL" };
	int fd = (int)syscall(SYS_bpf, BPF_PROG_LOAD, &a, sizeof(a));

	if (fd < 0)
		die("BPF_PROG_LOAD");
	if (setsockopt(s, SOL_SOCKET, SO_ATTACH_BPF, &fd, sizeof(fd)) < 0)
		die("SO_ATTACH_BPF");
	close(fd);
}

int main(int argc, char **argv)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(to);
	struct mmsghdr msgs[BATCH];
	struct iovec iov;
	char payload[64] = "irqlat lo-flood";
	unsigned long long sent = 0;
	double secs, end;
	int rx, tx, send_cpu, rx_cpu, cost_us = 0;

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: lo-flood SECONDS SEND_CPU RX_CPU [US_PER_DATAGRAM]\n");
		return 2;
	}
	if (argc == 5)
		cost_us = atoi(argv[4]);
	if (cost_us < 0 || cost_us > 1000) {
		fprintf(stderr, "lo-flood: a datagram's cost is 0 to 1000 us\n");
		return 2;
	}
	secs = atof(argv[1]);
	send_cpu = atoi(argv[2]);
	rx_cpu = atoi(argv[3]);
	if (unshare(CLONE_NEWNET | CLONE_NEWNS) < 0)
		die("unshare");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		die("mount --make-rprivate /");
	lo_up();
	if (rx_cpu != send_cpu)
		rps_to(rx_cpu);
	rx = socket(AF_INET, SOCK_DGRAM, 0);
	if (rx < 0 || bind(rx, (struct sockaddr *)&to, sizeof(to)) < 0 || getsockname(rx, (struct sockaddr *)&to, &len) < 0)
		die("the receiving socket");
	if (cost_us)
		filter(rx, cost_us * 1000);
	tx = socket(AF_INET, SOCK_DGRAM, 0);
	if (tx < 0 || connect(tx, (struct sockaddr *)&to, sizeof(to)) < 0)
		die("the sending socket");
	pin(send_cpu);
	iov = (struct iovec){ .iov_base = payload, .iov_len = sizeof(payload) };
	memset(msgs, 0, sizeof(msgs));
	for (int i = 0; i < BATCH; i++) {
		msgs[i].msg_hdr.msg_iov = &iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	end = now() + secs;
	while (now() < end) {
		int n = sendmmsg(tx, msgs, BATCH, 0);

		if (n < 0 && errno != ENOBUFS && errno != EAGAIN && errno != EINTR)
			die("sendmmsg");
		if (n > 0)
			sent += (unsigned long long)n;
	}
	printf("sent %llu\n", sent);
	return 0;
}
