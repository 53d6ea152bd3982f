// SPDX-License-Identifier: GPL-2.0
/* Where a consumed tracepoint is and what its arguments are: its SYSTEM:EVENT name, tracefs
 * (mounted, readable, the event's directory), and the argument names, types and count from
 * BTF or, failing that, the event's tracefs format. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "common/macro.h"
#include "daemon/base/log.h"
#include "daemon/tracepoints/tp_resolve.h"

DEFINE_POINTER_CLEANUP(struct btf, btf__free)
DEFINE_POINTER_CLEANUP(DIR, closedir)

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

int tp_name_split(const char *name, char *system, size_t slen, char *event, size_t elen)
{
	const char *colon = strchr(name, ':');
	size_t sl, el;

	if (!colon)
		return -EINVAL;
	sl = (size_t)(colon - name);
	el = strlen(colon + 1);
	if (!sl || !el || sl >= slen || el >= elen)
		return -EINVAL;
	for (size_t i = 0; i < sl; i++)
		if (!ident_char(name[i]))
			return -EINVAL;
	for (size_t i = 0; i < el; i++)
		if (!ident_char(colon[1 + i]))
			return -EINVAL;
	memcpy(system, name, sl);
	system[sl] = 0;
	memcpy(event, colon + 1, el + 1);
	return 0;
}

int tp_parse_format(const char *text, struct tp_arg *args, unsigned max)
{
	unsigned n = 0;

	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *f = strstr(line, "field:"), *semi, *end, *p;
		const char *eol = strchr(line, '\n');
		char decl[160];
		size_t len;
		int size = 8, is_signed = 0;

		if (!f || (eol && f > eol))
			continue;
		f += strlen("field:");
		semi = strchr(f, ';');
		if (!semi || (eol && semi > eol) || (size_t)(semi - f) >= sizeof(decl))
			continue;
		len = (size_t)(semi - f);
		memcpy(decl, f, len);
		decl[len] = 0;
		/* "TYPE NAME", "TYPE NAME[N]" or "__data_loc char[] NAME": the name is the last
		 * identifier, once a trailing [N] is taken off */
		end = decl + len;
		while (end > decl && end[-1] == ' ')
			end--;
		if (end > decl && end[-1] == ']')
			while (end > decl && *--end != '[')
				;
		while (end > decl && !ident_char(end[-1]))
			end--;
		p = end;
		while (p > decl && ident_char(p[-1]))
			p--;
		if (p == end || !strncmp(p, "common_", 7))
			continue;
		if ((f = strstr(semi, "size:")) && (!eol || f < eol))
			size = atoi(f + 5);
		if ((f = strstr(semi, "signed:")) && (!eol || f < eol))
			is_signed = atoi(f + 7);
		if (n == max)
			return -E2BIG;
		memset(&args[n], 0, sizeof(args[n]));
		snprintf(args[n].name, sizeof(args[n].name), "%.*s", (int)(end - p), p);
		if (strchr(decl, '*') || strstr(decl, "__data_loc") || strchr(decl, '['))
			args[n].kind = TP_ARG_POINTER;	/* the argument behind a string or array field */
		else
			args[n].kind = is_signed ? TP_ARG_SIGNED : TP_ARG_UNSIGNED;
		args[n].size = size > 0 && size <= 8 ? (unsigned)size : 8;
		n++;
	}
	return (int)n;
}

/* The file's text (at most len - 1 bytes), NUL-terminated: its length, or -errno. */
static int read_text(const char *path, char *buf, size_t len)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	if (ferror(f))
		return -EIO;
	buf[n] = 0;
	return (int)n;
}

int tp_identity_read(const struct tracepoint *t, struct tp_identity *id)
{
	char path[256], buf[32];
	struct stat st;

	memset(id, 0, sizeof(*id));
	snprintf(path, sizeof(path), TP_TRACEFS "/events/%s/%s", t->system, t->event);
	if (stat(path, &st) < 0)
		return -errno;
	id->present = 1;
	id->ino = (unsigned long long)st.st_ino;
	/* the inode alone tells a reload too: an unreadable id is left 0 */
	snprintf(path, sizeof(path), TP_TRACEFS "/events/%s/%s/id", t->system, t->event);
	if (read_text(path, buf, sizeof(buf)) > 0)
		id->id = strtol(buf, NULL, 10);
	return 0;
}

bool tp_system_present(const struct tracepoint *t)
{
	char path[256];

	snprintf(path, sizeof(path), TP_TRACEFS "/events/%s", t->system);
	return access(path, F_OK) == 0;
}

/* tracefs must be mounted on TP_TRACEFS and readable. It is mounted only when statfs() says it
 * is not there: a tracefs that is mounted but unreadable (mode 0700, root's, seen by another
 * uid) fails access() with EACCES, and mounting it again would not help; under the unit's
 * SystemCallFilter= mount(2) is denied anyway. */
int tp_tracefs_ready(struct tp_set *s)
{
	char *why = s->tracefs_error;
	size_t len = sizeof(s->tracefs_error);
	struct statfs sf;
	int r;

	why[0] = 0;
	if (statfs(TP_TRACEFS, &sf) < 0) {
		r = -errno;
		snprintf(why, len, "cannot find " TP_TRACEFS " (%s): this kernel has no tracefs", strerror(-r));
		return r;
	}
	if (sf.f_type != TRACEFS_MAGIC) {
		if (mount("nodev", TP_TRACEFS, "tracefs", 0, NULL) < 0) {
			r = -errno;
			snprintf(why, len, "tracefs is not mounted on " TP_TRACEFS " and mounting it failed (%s): "
				 "mount it first (mount -t tracefs nodev " TP_TRACEFS "; systemd does at boot)", strerror(-r));
			return r;
		}
		log_info("mounted tracefs on " TP_TRACEFS);
	}
	if (access(TP_TRACEFS "/events", R_OK | X_OK) < 0) {
		r = -errno;
		snprintf(why, len, "tracefs (" TP_TRACEFS ") is not readable by uid %u (%s): it is root's, mode 0700; "
			 "run irqlatd as uid 0 (it needs no more capabilities for this, see docs/systemd.md)",
			 (unsigned)geteuid(), strerror(-r));
		return r;
	}
	return 0;
}

/* ---- argument names and count ---- */

static void arg_from_btf(const struct btf *btf, __u32 type_id, struct tp_arg *a)
{
	int id = btf__resolve_type(btf, type_id);	/* through typedefs and qualifiers */
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, (__u32)id) : NULL;

	/* a type BTF cannot resolve (struct by value cannot be a raw_tp argument) reads as
	 * the 64-bit slot it comes in */
	a->kind = TP_ARG_UNSIGNED;
	a->size = 8;
	if (!t)
		return;
	if (btf_is_ptr(t)) {
		a->kind = TP_ARG_POINTER;
	} else if (btf_is_int(t)) {
		a->size = t->size;
		if (btf_int_encoding(t) & BTF_INT_SIGNED)
			a->kind = TP_ARG_SIGNED;
	} else if (btf_is_any_enum(t)) {
		a->size = t->size;
		a->kind = btf_kflag(t) ? TP_ARG_SIGNED : TP_ARG_UNSIGNED;
	}
}

/* A split BTF's own type of that name and kind, or 0: btf__find_by_name_kind() would also
 * walk the whole base (vmlinux's ~130,000 types, ~20 ms under emulation) before them. */
static int find_own(const struct btf *btf, const char *name, unsigned kind)
{
	const struct btf *base = btf__base_btf(btf);

	for (__u32 id = base ? btf__type_cnt(base) : 1, n = btf__type_cnt(btf); id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (btf_kind(t) == kind && !strcmp(btf__name_by_offset(btf, t->name_off), name))
			return (int)id;
	}
	return 0;
}

/* The tracepoint's prototype is the typedef btf_trace_EVENT: a pointer to a function whose
 * first parameter is the probe's void *data, then the TP_PROTO arguments. Its parameters have
 * no names; __bpf_trace_EVENT (the probe of a TRACE_EVENT, or of the class of a DEFINE_EVENT
 * of the same name) has the same parameters with names. In a module's BTF, split on vmlinux's,
 * both are the module's own types. */
int tp_args_from_btf(struct tracepoint *t, const struct btf *btf)
{
	bool split = btf__base_btf(btf) != NULL;
	char name[128];
	const struct btf_type *td, *proto, *named = NULL;
	const struct btf_param *p, *np = NULL;
	int id, td_id;
	unsigned n;

	snprintf(name, sizeof(name), "btf_trace_%s", t->event);
	id = split ? find_own(btf, name, BTF_KIND_TYPEDEF) : btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	if (id <= 0)
		return -ENOENT;
	td_id = id;
	td = btf__type_by_id(btf, (__u32)id);
	td = td ? btf__type_by_id(btf, td->type) : NULL;	/* the pointer */
	proto = td && btf_is_ptr(td) ? btf__type_by_id(btf, td->type) : NULL;
	if (!proto || !btf_is_func_proto(proto) || btf_vlen(proto) < 1)
		return -EPROTO;
	n = btf_vlen(proto) - 1;
	if (n > TP_MAX_ARGS)
		return -E2BIG;
	snprintf(name, sizeof(name), "__bpf_trace_%s", t->event);
	id = split ? find_own(btf, name, BTF_KIND_FUNC) : btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
	if (id > 0) {
		const struct btf_type *fn = btf__type_by_id(btf, (__u32)id);

		named = fn ? btf__type_by_id(btf, fn->type) : NULL;
		if (named && btf_is_func_proto(named) && btf_vlen(named) == n + 1)
			np = btf_params(named) + 1;
	}
	p = btf_params(proto) + 1;
	for (unsigned i = 0; i < n; i++) {
		const char *an = np ? btf__name_by_offset(btf, np[i].name_off) : NULL;

		memset(&t->args[i], 0, sizeof(t->args[i]));
		arg_from_btf(btf, p[i].type, &t->args[i]);
		if (an && *an)
			snprintf(t->args[i].name, sizeof(t->args[i].name), "%s", an);
		else
			snprintf(t->args[i].name, sizeof(t->args[i].name), "arg%u", i);
	}
	t->nargs = n;
	t->btf_type_id = (int)td_id;
	return 0;
}

struct btf *tp_vmlinux_btf(struct tp_set *s, bool *owned)
{
	*owned = !s->vmlinux_btf;
	return s->vmlinux_btf ? s->vmlinux_btf : btf__load_vmlinux_btf();
}

/* t's arguments from the BTF of module name (split on vmlinux's): 0, -ENOENT when it does
 * not describe t, -errno when it cannot be read */
static int resolve_module_btf(struct tracepoint *t, const char *name, const struct btf *vmlinux)
{
	_cleanup_(btf__freep) struct btf *mod = NULL;
	char path[300];
	int r;

	snprintf(path, sizeof(path), "/sys/kernel/btf/%s", name);
	mod = btf__parse_split(path, (struct btf *)vmlinux);
	if (!mod)
		return -errno;
	r = tp_args_from_btf(t, mod);
	if (r < 0)
		return r;
	snprintf(t->args_source, sizeof(t->args_source), "BTF (module %.60s)", name);
	if (name != t->module)
		snprintf(t->module, sizeof(t->module), "%s", name);
	return 0;
}

static int resolve_btf(struct tp_set *s, struct tracepoint *t)
{
	_cleanup_(closedirp) DIR *d = NULL;
	struct dirent *de;
	bool owned;
	struct btf *vmlinux = tp_vmlinux_btf(s, &owned);
	int r = -ENOENT;

	if (!vmlinux)
		return -errno;
	/* a module's tracepoint: its BTF is split on top of vmlinux's, one file per module; the
	 * module is known when its load event brought it: its file first (not even vmlinux's
	 * lookup, the attach races the module's first event), the others only when the
	 * tracepoint has moved to another module */
	if (t->loaded_ns && t->module[0] && (r = resolve_module_btf(t, t->module, vmlinux)) == 0)
		goto out;
	if (tp_args_from_btf(t, vmlinux) == 0) {
		snprintf(t->args_source, sizeof(t->args_source), "BTF (vmlinux)");
		t->module[0] = 0;
		r = 0;
		goto out;
	}
	if (t->module[0] && !t->loaded_ns && (r = resolve_module_btf(t, t->module, vmlinux)) == 0)
		goto out;
	d = opendir("/sys/kernel/btf");
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "vmlinux") || !strcmp(de->d_name, t->module))
			continue;
		r = resolve_module_btf(t, de->d_name, vmlinux);
		if (r == 0)
			break;
	}
out:
	if (owned)
		btf__free(vmlinux);
	return r;
}

int tp_module_btf_fd(const char *name, int *id_out)
{
	__u32 id = 0;
	int r;

	/* both calls want CAP_SYS_ADMIN on 6.1: -EPERM under the hardened unit */
	while ((r = bpf_btf_get_next_id(id, &id)) == 0) {
		char bname[MODULE_NAME_LEN_ABI] = "";
		struct bpf_btf_info info = { .name = (__u64)(unsigned long)bname, .name_len = sizeof(bname) };
		__u32 len = sizeof(info);
		int fd = bpf_btf_get_fd_by_id(id);

		if (fd < 0)
			continue;	/* gone since: the next one */
		if (bpf_obj_get_info_by_fd(fd, &info, &len) == 0 && info.kernel_btf && !strcmp(bname, name)) {
			*id_out = (int)id;
			return fd;
		}
		close(fd);
	}
	return r < 0 && r != -ENOENT ? r : -ENOENT;
}

int tp_module_of(const struct tracepoint *t, char *name, size_t len)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/kallsyms", "re");
	char line[512], want[96];
	size_t wl;

	if (!f)
		return -errno;
	/* "ffffffffc0a0b000 d __tracepoint_me_silly\t[sillymod]": a module's symbols come last */
	wl = (size_t)snprintf(want, sizeof(want), " __tracepoint_%s\t[", t->event);
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, want), *end;

		if (!p || !(end = strchr(p + wl, ']')))
			continue;
		snprintf(name, len, "%.*s", (int)(end - (p + wl)), p + wl);
		return 0;
	}
	return -ENOENT;
}

static int resolve_format(struct tracepoint *t)
{
	char path[256], buf[8192];
	int r;

	t->btf_type_id = 0;
	snprintf(path, sizeof(path), TP_TRACEFS "/events/%s/%s/format", t->system, t->event);
	r = read_text(path, buf, sizeof(buf));
	if (r < 0)
		return r;
	r = tp_parse_format(buf, t->args, TP_MAX_ARGS);
	if (r < 0)
		return r;
	t->nargs = (unsigned)r;
	snprintf(t->args_source, sizeof(t->args_source), "tracefs format");
	return 0;
}

/* Re-read on every attach: a reloaded module may have changed its tracepoint. */
int tp_resolve_args(struct tp_set *s, struct tracepoint *t)
{
	if (resolve_btf(s, t) == 0)
		return 0;
	return resolve_format(t);
}
