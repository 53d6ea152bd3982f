/* SPDX-License-Identifier: GPL-2.0 */
/* A reader of the Prometheus text format 0.0.4 of its own (the exposition formats page of
 * prometheus.io), strict where Prometheus is: every line a HELP, a TYPE or a sample with a
 * valid name, labels whose values are UTF-8 with only \\, \" and \n escaped, a number; no
 * series twice. For the HTTP harness, which cannot run promtool on every input. */
#ifndef IRQLAT_FUZZ_PROM_CHECK_H
#define IRQLAT_FUZZ_PROM_CHECK_H

#include <math.h>
#include "fuzz.h"

struct prom_page {
	unsigned samples;
	double runs_total;	/* the sum of irqlat_handler_runs_total's samples */
	unsigned runs_series;
};

static inline bool prom_name_char(char c, bool first, bool label)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (!label && c == ':') ||
	       (!first && c >= '0' && c <= '9');
}

/* The name at *p: its length, 0 when there is none */
static inline size_t prom_name(const char *p, bool label)
{
	size_t n = 0;

	while (prom_name_char(p[n], n == 0, label))
		n++;
	return n;
}

static int prom_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Checks page[0..len) line by line (fuzz_check fails on the first fault) into *out */
static inline void prom_check(const char *page, size_t len, struct prom_page *out)
{
	char *copy = malloc(len + 1), **series = NULL;
	unsigned nseries = 0;

	fuzz_check(copy, "out of memory");
	memcpy(copy, page, len);
	copy[len] = 0;
	fuzz_check(len && page[len - 1] == '\n' && strlen(copy) == len, "the page does not end in a newline or holds a NUL");
	memset(out, 0, sizeof(*out));
	for (char *line = copy, *next; *line; line = next) {
		char *p = line, *end;
		size_t n;

		next = strchr(line, '\n');
		*next++ = 0;
		if (!strncmp(line, "# HELP ", 7) || !strncmp(line, "# TYPE ", 7)) {
			p += 7;
			n = prom_name(p, false);
			fuzz_check(n && p[n] == ' ', "a HELP or TYPE line without a name: %s", line);
			if (line[2] == 'T')
				fuzz_check(!strcmp(p + n + 1, "counter") || !strcmp(p + n + 1, "gauge") ||
						   !strcmp(p + n + 1, "histogram"),
					   "unknown type: %s", line);
			fuzz_check(fuzz_utf8_valid(p, strlen(p)), "not UTF-8: %s", line);
			continue;
		}
		fuzz_check(*line != '#', "a comment irqlatd does not write: %s", line);
		n = prom_name(p, false);
		fuzz_check(n, "a sample without a name: %s", line);
		p += n;
		if (*p == '{') {
			p++;
			while (*p != '}') {
				const char *value;

				n = prom_name(p, true);
				fuzz_check(n && p[n] == '=' && p[n + 1] == '"', "a bad label: %s", line);
				p += n + 2;
				value = p;
				for (; *p != '"'; p++) {
					fuzz_check(*p, "a label value without its closing quote: %s", line);
					if (*p == '\\') {
						p++;
						fuzz_check(*p == '\\' || *p == '"' || *p == 'n', "escape \\%c: %s", *p, line);
					}
				}
				fuzz_check(fuzz_utf8_valid(value, (size_t)(p - value)), "a label value that is not UTF-8: %s", line);
				p++;
				if (*p == ',')
					p++;
				else
					fuzz_check(*p == '}', "labels not separated by commas: %s", line);
			}
			p++;
		}
		fuzz_check(*p == ' ', "no space before the value: %s", line);
		*p++ = 0;
		double v = strtod(p, &end);

		fuzz_check(end != p && !*end && !isnan(v), "value '%s' of %s", p, line);
		series = realloc(series, (nseries + 1) * sizeof(*series));
		fuzz_check(series, "out of memory");
		series[nseries++] = line;
		out->samples++;
		if (!strncmp(line, "irqlat_handler_runs_total{", 26)) {
			out->runs_total += v;
			out->runs_series++;
		}
	}
	qsort(series, nseries, sizeof(*series), prom_cmp);
	for (unsigned i = 1; i < nseries; i++)
		fuzz_check(strcmp(series[i - 1], series[i]), "series %s twice", series[i]);
	free(series);
	free(copy);
}

#endif
