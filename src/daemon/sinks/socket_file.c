// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include "daemon/base/log.h"
#include "daemon/sinks/socket_file.h"
#include "common/macro.h"

#define SUN_PATH_MAX (sizeof(((struct sockaddr_un *)0)->sun_path))
#define ADVICE "use a folder that only root can write, such as /run/irqlatd"

/* Who may change what is in a folder without being root or irqlatd's user: the others when
 * they have its write bit, a group when it has it and is not root's or the daemon's. */
static const char *writers(const struct stat *st, char *buf, size_t len)
{
	if (st->st_mode & S_IWOTH)
		return "every user";
	if ((st->st_mode & S_IWGRP) && st->st_gid != 0 && st->st_gid != getegid()) {
		snprintf(buf, len, "group %u", (unsigned)st->st_gid);
		return buf;
	}
	return NULL;
}

/* One folder on the way to the socket: -EPERM, logged, when someone else could swap what is in
 * it. own: the socket's own folder, where even a sticky bit does not help (they could put their
 * own socket at the path before the daemon starts). */
static int folder_check(int fd, const char *folder, const char *sock, bool own)
{
	struct stat st;
	const char *who;
	char grp[32];

	if (fstat(fd, &st) < 0)
		return log_error_errno(-errno, "socket %s: cannot look at the folder %s: %m", sock, folder);
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		log_error("socket %s: the folder %s belongs to uid %u, not to root or irqlatd's user (uid %u): that user could "
			  "replace the socket; " ADVICE, sock, folder, (unsigned)st.st_uid, (unsigned)geteuid());
		return -EPERM;
	}
	who = writers(&st, grp, sizeof(grp));
	if (who && (own || !(st.st_mode & S_ISVTX))) {
		log_error("socket %s: the folder %s is writable by %s (mode %04o): they could replace the socket or put their "
			  "own there; " ADVICE, sock, folder, who, (unsigned)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

/* Opens the folder dir (absolute, without symbolic links: realpath's) one component at a
 * time without following links, checking each; the last one's descriptor, or a negative
 * errno, logged. */
static int folder_open_checked(const char *dir, const char *sock)
{
	_cleanup_close_ int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	char path[PATH_MAX];
	const char *p = dir;
	int r;

	if (fd < 0)
		return log_error_errno(-errno, "socket %s: cannot open /: %m", sock);
	r = folder_check(fd, "/", sock, !strcmp(dir, "/"));
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "%s", dir);
	while (*(p += strspn(p, "/"))) {
		size_t n = strcspn(p, "/");
		char name[NAME_MAX + 1];
		int next;

		if (n > NAME_MAX)
			return log_error_errno(-ENAMETOOLONG, "socket %s: a folder name in %s is too long", sock, dir);
		memcpy(name, p, n);
		name[n] = 0;
		p += n;
		path[p - dir] = 0;	/* the folder so far, for the lines */
		next = openat(fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0)
			/* realpath() just resolved it: a link or a file there now is someone's doing */
			return log_error_errno(-errno, "socket %s: cannot open the folder %s: %m", sock, path);
		close(fd);
		fd = next;
		r = folder_check(fd, path, sock, !*(p + strspn(p, "/")));
		if (r < 0)
			return r;
		path[p - dir] = *p;
	}
	return TAKE_FD(fd);
}

/* The socket's folder dir, resolved and checked: created when only it is missing. Its
 * descriptor (O_PATH) and its resolved path in real[], or a negative errno, logged. */
static int folder_get(const char *dir, const char *sock, char real[PATH_MAX])
{
	_cleanup_close_ int parent = -1;
	char up[PATH_MAX], *slash;
	const char *name;

	if (realpath(dir, real))
		return folder_open_checked(real, sock);
	if (errno != ENOENT)
		return log_error_errno(-errno, "socket %s: cannot resolve the folder %s: %m", sock, dir);
	/* only the socket's own folder is made, in a folder that exists */
	snprintf(up, sizeof(up), "%s", dir);
	while ((slash = strrchr(up, '/')) && slash > up && !slash[1])
		*slash = 0;	/* "a/b/" is "a/b" */
	slash = strrchr(up, '/');
	name = dir + (slash ? slash + 1 - up : 0);	/* dir's last component, in dir */
	if (slash == up)
		up[1] = 0;	/* "/x": in / */
	else if (slash)
		*slash = 0;
	else
		strcpy(up, ".");
	if (!realpath(up, real)) {
		if (errno == ENOENT)
			log_error("socket %s: the folder %s does not exist: irqlatd creates only the socket's own folder, in a "
				  "folder that exists; create it, or give --socket a path in an existing folder", sock, up);
		else
			log_error_errno(-errno, "socket %s: cannot resolve the folder %s: %m", sock, up);
		return -ENOENT;
	}
	parent = folder_open_checked(real, sock);
	if (parent < 0)
		return parent;
	if (strcspn(name, "/") > NAME_MAX)
		return log_error_errno(-ENAMETOOLONG, "socket %s: the folder name %s is too long", sock, name);
	if (mkdirat(parent, name, 0755) < 0) {
		if (errno != EEXIST)	/* made meanwhile: checked below like any other */
			return log_error_errno(-errno, "socket %s: cannot create the folder %s: %m", sock, dir);
	} else {
		/* 0755 whatever the umask: a client must reach the socket to be judged by its mode */
		_cleanup_close_ int d = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

		if (d < 0 || fchmod(d, 0755) < 0)
			return log_error_errno(-errno, "socket %s: cannot set mode 0755 on the folder %s it created: %m", sock, dir);
		log_info("created the folder %s for the socket", dir);
	}
	if (strlen(real) + 1 + strcspn(name, "/") >= PATH_MAX)
		return log_error_errno(-ENAMETOOLONG, "socket %s: the path of its folder is too long", sock);
	strncat(strcmp(real, "/") ? strcat(real, "/") : real, name, strcspn(name, "/"));
	return folder_open_checked(real, sock);
}

/* bind() found something at the path. A socket that nothing listens on is what a daemon that
 * died leaves: replaced. A live daemon, or anything but a socket, is left alone. */
static int replace_stale(int dir, const char *base, const struct sockaddr_un *sa, const char *sock)
{
	_cleanup_close_ int probe = -1;
	struct stat st;

	if (fstatat(dir, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : log_error_errno(-errno, "cannot look at %s: %m", sock);	/* gone: bind again */
	if (!S_ISSOCK(st.st_mode)) {
		log_error("%s exists and is not a socket: irqlatd replaces only a socket a dead daemon left there; "
			  "remove it or give --socket another path", sock);
		return -EEXIST;
	}
	probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (probe < 0)
		return log_error_errno(-errno, "cannot create a Unix socket: %m");
	/* only "refused" says nobody listens: EAGAIN is a live daemon with a full queue */
	if (connect(probe, (const struct sockaddr *)sa, sizeof(*sa)) == 0 || errno != ECONNREFUSED) {
		log_error("another irqlatd is already serving %s: stop it first, or give this one --socket PATH", sock);
		return -EADDRINUSE;
	}
	if (unlinkat(dir, base, 0) < 0 && errno != ENOENT)
		return log_error_errno(-errno, "cannot remove the stale socket %s: %m", sock);
	return 0;
}

/* Owner, group and mode, on the file bound (sfd: O_PATH, a socket) */
static int apply_access(int sfd, const char *sock, const struct server_access *a)
{
	struct stat st;
	char proc[40];

	if ((a->uid != (uid_t)-1 || a->gid != (gid_t)-1) && fchownat(sfd, "", a->uid, a->gid, AT_EMPTY_PATH) < 0)
		return log_error_errno(-errno, "cannot give socket %s to uid %d, gid %d: %m (irqlatd needs CAP_CHOWN, or to be a "
				       "member of the group: SupplementaryGroups= in its unit)", sock,
				       a->uid == (uid_t)-1 ? -1 : (int)a->uid, a->gid == (gid_t)-1 ? -1 : (int)a->gid);
	if (fstat(sfd, &st) < 0)
		return log_error_errno(-errno, "cannot look at the socket %s just created: %m", sock);
	if ((st.st_mode & 07777) == a->mode)
		return 0;
	/* a default ACL on the folder overrides the umask: the mode is set on this very file,
	 * through its descriptor's /proc link (chmod() cannot take an O_PATH descriptor) */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", sfd);
	if (chmod(proc, a->mode) < 0)
		return log_error_errno(-errno, "cannot set mode %04o on socket %s: %m", (unsigned)a->mode, sock);
	return 0;
}

int socket_file_bind(int fd, const char *path, const struct server_access *a, struct socket_file *f)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	_cleanup_close_ int dir = -1, sfd = -1;
	char real[PATH_MAX], folder[PATH_MAX];
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	struct stat st;
	mode_t old;
	int r;

	*f = (struct socket_file){ 0 };
	if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
		log_error("socket path %s does not end in a file name", path);
		return -EINVAL;
	}
	snprintf(folder, sizeof(folder), "%.*s", slash ? (slash == path ? 1 : (int)(slash - path)) : 1, slash ? path : ".");
	dir = folder_get(folder, path, real);
	if (dir < 0)
		return dir;
	if (strlen(real) + 1 + strlen(base) >= SUN_PATH_MAX) {
		log_error("socket path %s is too long (at most %zu bytes, its folder resolved: %s)", path, SUN_PATH_MAX - 1, real);
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, real);	/* the lengths are checked above */
	if (strcmp(real, "/"))
		strcat(sa.sun_path, "/");
	strcat(sa.sun_path, base);
	/* created with its final mode: nobody may connect with more than it allows, even before
	 * its owner is set (and nobody can before listen()) */
	old = umask(~a->mode & 0777);
	r = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	if (r < 0 && errno == EADDRINUSE) {
		r = replace_stale(dir, base, &sa, path);
		if (r < 0) {
			umask(old);
			return r;	/* said */
		}
		r = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	}
	if (r < 0)
		r = -errno;
	umask(old);
	if (r < 0)
		return log_error_errno(r, "cannot bind the socket %s: %m", path);
	f->path = strdup(sa.sun_path);
	if (!f->path) {
		unlinkat(dir, base, 0);
		return log_error_errno(-ENOMEM, "socket %s: %m", path);
	}
	/* the folder is the daemon's alone (checked): what is there is what bind() made */
	sfd = openat(dir, base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (sfd < 0 || fstat(sfd, &st) < 0 || !S_ISSOCK(st.st_mode)) {
		r = sfd < 0 ? -errno : -ENOTSOCK;
		socket_file_remove(f);
		return log_error_errno(r, "cannot open the socket %s just created: %m", path);
	}
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	r = apply_access(sfd, path, a);
	if (r < 0)
		socket_file_remove(f);
	return r;
}

void socket_file_remove(struct socket_file *f)
{
	struct stat st;

	/* only our own socket: whatever took its place since is someone else's */
	if (f->path && lstat(f->path, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_dev == f->dev && st.st_ino == f->ino)
		unlink(f->path);
	free(f->path);
	f->path = NULL;
}
