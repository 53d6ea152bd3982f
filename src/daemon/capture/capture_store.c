// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "daemon/capture/capture_store.h"
#include "common/macro.h"

void capture_dir(char *buf, size_t len)
{
	const char *st = getenv("STATE_DIRECTORY");

	if (st && *st == '/')
		snprintf(buf, len, "%.*s/captures", (int)strcspn(st, ":"), st);
	else
		snprintf(buf, len, "%s", CAPTURE_DIR_DEFAULT);
}

int capture_dir_make(const char *dir)
{
	char parent[256];
	const char *slash = strrchr(dir, '/');

	if (mkdir(dir, 0700) == 0 || errno == EEXIST)
		return 0;
	if (errno != ENOENT || !slash || slash == dir)
		return -errno;
	snprintf(parent, sizeof(parent), "%.*s", (int)(slash - dir), dir);
	if (mkdir(parent, 0700) < 0 && errno != EEXIST)
		return -errno;
	return mkdir(dir, 0700) == 0 || errno == EEXIST ? 0 : -errno;
}

static void closedirp(DIR **d)
{
	if (*d)
		closedir(*d);
}

struct capture_file {
	char name[CAPTURE_NAME_MAX];
	uint64_t size;
};

static bool is_capture(const char *name)
{
	size_t n = strlen(name), s = strlen(CAPTURE_SUFFIX);

	return n > s && n < CAPTURE_NAME_MAX && *name >= '0' && *name <= '9' && !strcmp(name + n - s, CAPTURE_SUFFIX);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct capture_file *)a)->name, ((const struct capture_file *)b)->name);
}

/* The folder's captures, oldest first: *n of them in *out (to free), or a negative errno */
static int capture_files(const char *dir, struct capture_file **out, unsigned *n)
{
	_cleanup_(closedirp) DIR *d = opendir(dir);
	struct capture_file *v = NULL;
	unsigned len = 0, cap = 0;
	struct dirent *de;

	*out = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct stat st;

		if (!is_capture(de->d_name) || fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		if (len == cap) {
			struct capture_file *w = realloc(v, (cap ? cap * 2 : 64) * sizeof(*v));

			if (!w) {
				free(v);
				return -ENOMEM;
			}
			v = w;
			cap = cap ? cap * 2 : 64;
		}
		snprintf(v[len].name, sizeof(v[len].name), "%s", de->d_name);
		v[len++].size = (uint64_t)st.st_size;
	}
	if (len)
		qsort(v, len, sizeof(*v), by_name);
	*out = v;
	*n = len;
	return 0;
}

int capture_store_enforce(const char *dir, uint64_t budget)
{
	_cleanup_free_ struct capture_file *f = NULL;
	uint64_t total = 0;
	unsigned n, removed = 0;
	int r = capture_files(dir, &f, &n);

	if (r < 0)
		return r;
	for (unsigned i = 0; i < n; i++)
		total += f[i].size;
	for (unsigned i = 0; i < n && total > budget; i++) {
		char path[512];

		snprintf(path, sizeof(path), "%s/%s", dir, f[i].name);
		if (unlink(path) < 0 && errno != ENOENT)
			return -errno;
		total -= f[i].size;
		removed++;
	}
	return (int)removed;
}

/* The "# key: value" lines at the head of a capture */
static void read_header(const char *path, json_object *o)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char line[512];

	for (int i = 0; f && i < 16 && fgets(line, sizeof(line), f) && !strncmp(line, "# ", 2); i++) {
		char *colon = strstr(line, ": ");
		uint64_t v;

		if (!colon)
			continue;
		*colon = 0;
		line[strcspn(line, "\n")] = 0;
		colon[1 + strcspn(colon + 1, "\n")] = 0;
		const char *key = line + 2, *val = colon + 2;

		if (!strcmp(key, "kind") || !strcmp(key, "name"))
			json_object_object_add(o, key, json_object_new_string(val));
		else if ((!strcmp(key, "cpu") || !strcmp(key, "latency_ns") || !strcmp(key, "wall_ns") ||
			  !strcmp(key, "ts_ns") || !strcmp(key, "threshold_ns")) && sscanf(val, "%" SCNu64, &v) == 1)
			json_object_object_add(o, key, json_object_new_uint64(v));
	}
}

json_object *capture_store_list(const char *dir)
{
	_cleanup_free_ struct capture_file *f = NULL;
	json_object *a = json_object_new_array();
	unsigned n;

	if (capture_files(dir, &f, &n) < 0)
		return a;
	for (unsigned i = 0; i < n; i++) {
		json_object *o = json_object_new_object();
		char path[512];

		snprintf(path, sizeof(path), "%s/%s", dir, f[i].name);
		json_object_object_add(o, "file", json_object_new_string(path));
		json_object_object_add(o, "size", json_object_new_uint64(f[i].size));
		read_header(path, o);
		json_object_array_add(a, o);
	}
	return a;
}
