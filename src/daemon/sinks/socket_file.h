/* SPDX-License-Identifier: GPL-2.0 */
/* The client socket's file: where it may be created and how its owner and mode are set, so
 * that nobody but root (or irqlatd's own user) can put anything at its path or make the daemon
 * act on another file through it.
 * - The path is used as its folder resolves (realpath): the symbolic links in it are followed
 *   once, here, and never again.
 * - Every folder on the way must be owned by root or by irqlatd's user; the socket's own folder
 *   must be writable by nobody else (no write bit for others, nor for a group other than
 *   root's or the daemon's), and a folder above it may be only when it is sticky (/tmp: then
 *   nobody but its owner can rename or remove the root-owned folder in it). A folder that
 *   fails is refused, naming it.
 * - Of the folders only the socket's own is created, when its parent exists (with an info
 *   line): --socket /nonexistent/dir/s.sock does not make /nonexistent.
 * - The file is created with its final mode (umask at bind()); its owner and group are set on
 *   a descriptor of it (O_PATH, opened without following a link and checked to be a socket),
 *   never through the path; all that before listen(), so nobody connects before. */
#ifndef IRQLAT_SOCKET_FILE_H
#define IRQLAT_SOCKET_FILE_H

#include <sys/types.h>

/* The socket file's owner, group and mode; (uid_t)-1 / (gid_t)-1 leave the daemon's. */
struct server_access {
	uid_t uid;
	gid_t gid;
	mode_t mode;
};

struct socket_file {
	char *path;	/* as it resolved: the path bound, and removed at the end */
	dev_t dev;	/* the socket file bound here, removed at the end only if it is still there */
	ino_t ino;
};

/* Binds the unbound Unix stream socket fd at path (given as the user wrote it, for the
 * lines) with the owner, group and mode of a. A socket file there that nothing listens on
 * (left by a daemon that died) is replaced; any other file is left alone. 0 with *f filled,
 * or a negative errno, logged. */
int socket_file_bind(int fd, const char *path, const struct server_access *a, struct socket_file *f);
/* Removes the file if it is still the one bound; frees f's path. */
void socket_file_remove(struct socket_file *f);

#endif
