// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "cpulat.h"
#include "fmt.h"
#include "table.h"
#include "why.h"
#include "common/json.h"
#include "common/macro.h"
#include "common/util.h"

static bool on_cpu(const struct why_named *w, const void *arg)
{
	return w->cpu == *(const uint32_t *)arg;
}

/* A window's count, its P99 (p99 NULL: not asked) and MAX, "-" each when the window had none */
static void put_lat(char cnt[16], char p99[16], char max[16], json_object *t, const char *count_key,
		    const char *p99_key, const char *max_key)
{
	uint64_t n = t ? json_get_u64(t, count_key, 0) : 0;

	snprintf(cnt, 16, "-");
	if (p99)
		snprintf(p99, 16, "-");
	snprintf(max, 16, "-");
	if (!n)
		return;
	fmt_count(cnt, 16, (double)n);
	if (p99)
		fmt_latency(p99, 16, json_get_u64(t, p99_key, 0), n, 0.99);
	fmt_latency(max, 16, json_get_u64(t, max_key, 0), n, 0);
}

/* "98% blocking task python3[3991] (FIFO 99)" as "98% python3[3991] (FIFO 99)" where the
 * screen is narrow: a task named with its pid and policy is the blocking one (other tasks are
 * not named), and the pid is what tells two threads apart */
static void brief(char *cause)
{
	static const char word[] = "blocking task ";
	char *p = strstr(cause, word);

	if (p)
		memmove(p, p + sizeof(word) - 1, strlen(p + sizeof(word) - 1) + 1);
}

static void put_line(FILE *f, const char *line, int width)
{
	fprintf(f, "%.*s\n", width > 0 ? width : (int)strlen(line), line);
}

void cpulat_print(FILE *f, json_object *summary, int width)
{
	_cleanup_free_ struct why_named *waits = NULL;
	size_t nwaits = why_rows_waits(summary, &waits);
	json_object *load;
	char line[512];

	if (!json_object_object_get_ex(summary, "cpu_load", &load) || !json_object_is_type(load, json_type_array) ||
	    !json_array_len(load))
		return;
	fputc('\n', f);
	/* 80 columns: what each column is, irqlat(1) says */
	snprintf(line, sizeof(line), "Per CPU over the last %s, as rtla timerlat top and osnoise print it",
		 json_get_str(summary, "window", "?"));
	put_line(f, line, width);
	/* rtla's IRQ latency is read by its maximum, a wake-up by its tail too: at 80 columns the
	 * cause keeps 28 */
	snprintf(line, sizeof(line), "%-5s %6s %7s %7s %7s %7s %6s  %s", "CPU", "TIMERS", "MAX", "WAKEUPS", "P99", "MAX",
		 "FREE%", "TOP CAUSE");
	put_line(f, line, width);
	for (size_t i = 0; i < json_array_len(load); i++) {
		json_object *l = json_array_at(load, i);
		int64_t cpu = json_get_i64(l, "cpu", -1);
		json_object *t = table_timer_cpu(summary, cpu);
		uint32_t c = (uint32_t)cpu;
		char tn[16], tm[16], wn[16], wp[16], wm[16], cause[160];
		int n;
		/* softirqs include the hard IRQs that interrupt them: the load may count those twice */
		double free_pct = 100 - 100 * json_get_double(l, "total_share", 0);

		put_lat(tn, NULL, tm, t, "window_count", NULL, "lateness_max_ns");
		put_lat(wn, wp, wm, t, "wakeup_window_count", "wakeup_latency_p99_ns", "wakeup_latency_max_ns");
		if (!why_top_cause(cause, sizeof(cause), waits, nwaits, on_cpu, &c))
			snprintf(cause, sizeof(cause), "-");
		/* "cpu1", not a number first: a row of the handlers' table starts with its IRQ number */
		n = snprintf(line, sizeof(line), "cpu%-2lld %6s %7s %7s %7s %7s %6.1f  ", (long long)cpu, tn, tm, wn, wp, wm,
			     free_pct > 0 ? free_pct : 0);
		if (width > 0 && n + (int)strlen(cause) > width)
			brief(cause);
		snprintf(line + n, sizeof(line) - (size_t)n, "%s", cause);
		put_line(f, line, width);
	}
}
