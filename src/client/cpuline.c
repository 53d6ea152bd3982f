// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "cpuline.h"
#include "fmt.h"
#include "common/cpulist.h"
#include "common/json.h"

/* The CPUs the daemon saw handler h run on, with their counts: h's "cpus" array */
static json_object *cpus_of(json_object *h)
{
	json_object *cpus;

	if (!json_object_object_get_ex(h, "cpus", &cpus) || !json_object_is_type(cpus, json_type_array))
		return NULL;
	return cpus;
}

/* The set the kernel routes the IRQ to: effective_affinity where the kernel says (x86 picks
 * one CPU of the allowed ones), else smp_affinity; NULL when the daemon could not read
 * either (the IRQ went away, an older daemon). */
static const char *routed_to(json_object *h)
{
	const char *eff = json_get_str(h, "effective_affinity", NULL), *aff = json_get_str(h, "affinity", NULL);

	return !cpulist_empty(eff) ? eff : !cpulist_empty(aff) ? aff : NULL;
}

struct cpu_marks {
	bool isolated, nohz_full, outside;	/* outside: ran there in the window, outside the affinity */
};

static struct cpu_marks marks_of(json_object *summary, json_object *h, json_object *co)
{
	unsigned cpu = (unsigned)json_get_u64(co, "cpu", 0);
	const char *routed = routed_to(h);

	return (struct cpu_marks){
		.isolated = cpulist_has(json_get_str(summary, "isolated_cpus", NULL), cpu),
		.nohz_full = cpulist_has(json_get_str(summary, "nohz_full_cpus", NULL), cpu),
		.outside = routed && json_get_u64(co, "window_count", 0) && !cpulist_has(routed, cpu),
	};
}

static void add_flag(struct row *r, char flag)
{
	size_t n = strlen(r->flags);

	if (!strchr(r->flags, flag) && n + 1 < sizeof(r->flags))
		r->flags[n] = flag;
}

void cpuline_mark_row(json_object *summary, json_object *h, struct row *r)
{
	json_object *cpus = cpus_of(h);
	size_t off = 0;

	r->cpus[0] = 0;
	for (size_t k = 0; cpus && k < json_array_len(cpus) && off < sizeof(r->cpus); k++) {
		json_object *co = json_array_at(cpus, k);
		struct cpu_marks m;

		if (!json_has(co, "cpu"))
			continue;
		m = marks_of(summary, h, co);
		off += (size_t)snprintf(r->cpus + off, sizeof(r->cpus) - off, "%s%d%s", off ? "," : "",
					(int)json_get_i64(co, "cpu", 0), m.isolated || m.nohz_full || m.outside ? "!" : "");
		if ((m.isolated || m.nohz_full) && json_get_u64(co, "window_count", 0))
			add_flag(r, FLAG_ISOLATED);
		if (m.outside)
			add_flag(r, FLAG_AFFINITY);
	}
}

bool cpuline_ran_on(json_object *h, const char *list)
{
	json_object *cpus = cpus_of(h);

	for (size_t k = 0; cpus && k < json_array_len(cpus); k++)
		if (cpulist_has(list, (unsigned)json_get_u64(json_array_at(cpus, k), "cpu", 0)))
			return true;
	return false;
}

int cpuline_text(char *buf, size_t len, json_object *summary, const struct row *r, const char *list)
{
	json_object *h = table_row_object(summary, r), *cpus = cpus_of(h);
	const char *aff = json_get_str(h, "affinity", NULL), *eff = json_get_str(h, "effective_affinity", NULL);
	double wsecs = json_get_double(summary, "window_s", 0);
	size_t off = 0;
	int n = 0;

	if (!len)
		return 0;
	buf[0] = 0;
	if (aff)
		off += (size_t)snprintf(buf, len, "affinity %.*s, effective %.*s", cpulist_empty(aff) ? 1 : (int)strcspn(aff, "\n"),
					cpulist_empty(aff) ? "-" : aff, cpulist_empty(eff) ? 1 : (int)strcspn(eff, "\n"),
					cpulist_empty(eff) ? "-" : eff);
	for (size_t k = 0; cpus && k < json_array_len(cpus) && off < len; k++) {
		json_object *co = json_array_at(cpus, k);
		unsigned cpu = (unsigned)json_get_u64(co, "cpu", 0);
		uint64_t wc = json_get_u64(co, "window_count", 0);
		struct cpu_marks m = marks_of(summary, h, co);
		char cnt[16], rate[16], why[64] = "";

		if (list && !cpulist_has(list, cpu))
			continue;
		if (m.isolated || m.nohz_full || m.outside)
			snprintf(why, sizeof(why), " (%s%s%s%s%s)!", m.isolated ? "isolated" : "",
				 m.isolated && m.nohz_full ? ", " : "", m.nohz_full ? "nohz_full" : "",
				 (m.isolated || m.nohz_full) && m.outside ? ", " : "", m.outside ? "outside affinity" : "");
		fmt_count(cnt, sizeof(cnt), (double)json_get_u64(co, "count", 0));
		off += (size_t)snprintf(buf + off, len - off, "%scpu %u%s: %s, ", off ? " | " : "", cpu, why, cnt);
		if (off >= len)
			break;
		if (!wc || wsecs <= 0) {
			off += (size_t)snprintf(buf + off, len - off, "idle");
		} else {
			fmt_rate(rate, sizeof(rate), (double)wc / wsecs);
			/* its share of the handler's runs in the window */
			off += (size_t)snprintf(buf + off, len - off, "%s/s, %.0f%%", rate,
						r->window_count ? 100.0 * (double)wc / (double)r->window_count : 0);
		}
		n++;
	}
	return n;
}

void cpuline_sets(char *buf, size_t len, json_object *summary)
{
	const char *iso = json_get_str(summary, "isolated_cpus", NULL), *nohz = json_get_str(summary, "nohz_full_cpus", NULL);
	/* what is not a list holds no CPU (an older daemon passed the kernel's "(null)" on) */
	bool has_iso = !cpulist_empty(iso) && !cpulist_check(iso), has_nohz = !cpulist_empty(nohz) && !cpulist_check(nohz);

	if (!has_iso && !has_nohz)
		snprintf(buf, len, "%s", "");
	else
		/* as the kernel wrote them, but for their newline */
		snprintf(buf, len, "isolated CPUs %.*s, nohz_full %.*s", has_iso ? (int)strcspn(iso, "\n") : 1,
			 has_iso ? iso : "-", has_nohz ? (int)strcspn(nohz, "\n") : 1, has_nohz ? nohz : "-");
}
