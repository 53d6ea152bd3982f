// SPDX-License-Identifier: GPL-2.0
/* Loader of bench/count-ref.bpf.c (bench/count-ref.sh runs it): attaches the counter-only
 * programs, then over SECONDS compares, per CPU, what they counted with /proc/softirqs and
 * /proc/interrupts (each reading of the map between two readings of /proc: the kernel's delta
 * lies in lo..hi) and prints run_cnt and recursion_misses of every softirq, vector and ref
 * program loaded (irqlatd's too, when it runs), as the kernel counts their runs.
 *   count-ref OBJECT SECONDS      (2 CPUs, as on the machines this project runs on)
 * With "serve" for SECONDS: one line of entry counts summed over every CPU (NAME=N ...) per
 * line read on stdin, for tests/host/helpers/snapshot_bracket.py. */
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#define NCPU 2
#define SLOTS 64
struct snap { unsigned long long sirq[2][10][NCPU]; unsigned long long vec[2][8][NCPU]; unsigned long long ref[SLOTS][NCPU];
	unsigned long long run[64], miss[64]; char pname[64][20]; unsigned pid[64]; int np; };
static const char *vnames[] = {"LOC","RES","CAL","IWI"};
static void readproc(struct snap *s, int w)
{
	char line[4096]; FILE *f = fopen("/proc/softirqs", "r"); int r = 0;
	fgets(line, sizeof line, f);
	while (fgets(line, sizeof line, f) && r < 10) { char nm[32]; unsigned long long a, b; sscanf(line, "%31s %llu %llu", nm, &a, &b); s->sirq[w][r][0] = a; s->sirq[w][r][1] = b; r++; }
	fclose(f);
	f = fopen("/proc/interrupts", "r");
	while (fgets(line, sizeof line, f)) { char nm[32]; unsigned long long a, b; if (sscanf(line, " %31[^:]: %llu %llu", nm, &a, &b) != 3) continue;
		for (int i = 0; i < 4; i++) if (!strcmp(nm, vnames[i])) { s->vec[w][i][0] = a; s->vec[w][i][1] = b; } }
	fclose(f);
}
static void take(struct snap *s, int mfd)
{
	readproc(s, 0);
	for (unsigned k = 0; k < SLOTS; k++) { unsigned long long v[NCPU]; bpf_map_lookup_elem(mfd, &k, v); for (int c = 0; c < NCPU; c++) s->ref[k][c] = v[c]; }
	__u32 id = 0; s->np = 0;
	while (!bpf_prog_get_next_id(id, &id) && s->np < 64) {
		int fd = bpf_prog_get_fd_by_id(id); if (fd < 0) continue;
		struct bpf_prog_info in = {0}; __u32 len = sizeof in;
		if (!bpf_obj_get_info_by_fd(fd, &in, &len) && (strstr(in.name, "softirq") || strstr(in.name, "resch") || strstr(in.name, "ref_") || strstr(in.name, "vec"))) {
			s->pid[s->np] = id; s->run[s->np] = in.run_cnt; s->miss[s->np] = in.recursion_misses; snprintf(s->pname[s->np], 20, "%s", in.name); s->np++; }
		close(fd);
	}
	readproc(s, 1);
}
int main(int argc, char **argv)
{
	struct bpf_object *o = bpf_object__open_file(argv[1], NULL);
	int secs = atoi(argv[2]), serve = !strcmp(argv[2], "serve");
	if (!o || bpf_object__load(o)) { fprintf(stderr, "load failed\n"); return 1; }
	struct bpf_program *p;
	bpf_object__for_each_program(p, o) if (!bpf_program__attach(p)) fprintf(stderr, "attach %s failed\n", bpf_program__name(p));
	int st = bpf_enable_stats(BPF_STATS_RUN_TIME);
	int mfd = bpf_map__fd(bpf_object__find_map_by_name(o, "counts"));
	static struct snap a, b;
	if (serve) {	/* one line of entry counts, summed over CPUs, per line read */
		static const char *sv[] = {"HI","TIMER","NET_TX","NET_RX","BLOCK","IRQ_POLL","TASKLET","SCHED","HRTIMER","RCU"};
		static const char *lv[] = {"LOC", "IWI", "RES", "CAL"};
		static const unsigned ll[] = {0, 4, 5, 6};
		char line[64];
		int ncpu = libbpf_num_possible_cpus();
		unsigned long long v[ncpu > 0 ? ncpu : 1], n;

		printf("ready\n");
		fflush(stdout);
		while (fgets(line, sizeof line, stdin)) {
			for (unsigned k = 0; k < 10; k++) {
				unsigned key = 10 + k;
				bpf_map_lookup_elem(mfd, &key, v);
				n = 0;
				for (int c = 0; c < ncpu; c++)
					n += v[c];
				printf("%s=%llu ", sv[k], n);
			}
			for (unsigned k = 0; k < 4; k++) {
				unsigned key = 40 + 3 * ll[k];
				bpf_map_lookup_elem(mfd, &key, v);
				n = 0;
				for (int c = 0; c < ncpu; c++)
					n += v[c];
				printf("%s=%llu ", lv[k], n);
			}
			printf("\n");
			fflush(stdout);
		}
		return 0;
	}
	sleep(1);
	take(&a, mfd);
	printf("ready\n"); fflush(stdout);
	sleep(secs);
	take(&b, mfd);
	static const char *sn[] = {"HI","TIMER","NET_TX","NET_RX","BLOCK","IRQ_POLL","TASKLET","SCHED","HRTIMER","RCU"};
	for (int v = 0; v < 10; v++) for (int c = 0; c < NCPU; c++) {
		long long lo = b.sirq[0][v][c] - a.sirq[1][v][c], hi = b.sirq[1][v][c] - a.sirq[0][v][c];
		long long en = b.ref[10 + v][c] - a.ref[10 + v][c], ex = b.ref[20 + v][c] - a.ref[20 + v][c], un = b.ref[30 + v][c] - a.ref[30 + v][c], ra = b.ref[v][c] - a.ref[v][c];
		printf("%-8s cpu%d kernel %lld..%lld ref entry %lld exit %lld unpaired %lld raise %lld%s\n", sn[v], c, lo, hi, en, ex, un, ra, en < lo ? "  SHORT" : en > hi ? "  OVER" : "");
	}
	int lab[4] = {0, 5, 6, 4};
	for (int v = 0; v < 4; v++) for (int c = 0; c < NCPU; c++) {
		long long lo = b.vec[0][v][c] - a.vec[1][v][c], hi = b.vec[1][v][c] - a.vec[0][v][c];
		int k = 40 + 3 * lab[v];
		long long en = b.ref[k][c] - a.ref[k][c], ex = b.ref[k + 1][c] - a.ref[k + 1][c], un = b.ref[k + 2][c] - a.ref[k + 2][c];
		printf("%-8s cpu%d kernel %lld..%lld ref entry %lld exit %lld unpaired %lld%s\n", vnames[v], c, lo, hi, en, ex, un, en < lo ? "  SHORT" : en > hi ? "  OVER" : "");
	}
	for (int i = 0; i < b.np; i++) for (int j = 0; j < a.np; j++) if (a.pid[j] == b.pid[i])
		printf("prog %u %-20s run_cnt +%llu recursion_misses +%llu\n", b.pid[i], b.pname[i], b.run[i] - a.run[j], b.miss[i] - a.miss[j]);
	(void)st;
	return 0;
}
