/* SPDX-License-Identifier: GPL-2.0 */
/* libmicrohttpd, opened when --metrics (or a socket from systemd) asks for the HTTP endpoint,
 * not linked: linked, it and the TLS stack it brings and initializes at every start (GnuTLS,
 * p11-kit, nettle, gmp, ...) were 2.4 MiB of every irqlatd's resident size, /metrics or not.
 * metrics_http.c calls the functions below through these pointers. */
#ifndef IRQLATD_MHD_DLOPEN_H
#define IRQLATD_MHD_DLOPEN_H

#include <microhttpd.h>

#define MHD_FUNCTIONS(X)						\
	X(MHD_add_connection) X(MHD_add_response_header)		\
	X(MHD_basic_auth_get_username_password) X(MHD_free)		\
	X(MHD_create_response_from_buffer) X(MHD_create_response_from_callback) \
	X(MHD_destroy_response)						\
	X(MHD_get_connection_info) X(MHD_get_daemon_info)		\
	X(MHD_get_timeout) X(MHD_is_feature_supported)			\
	X(MHD_lookup_connection_value) X(MHD_queue_basic_auth_fail_response) \
	X(MHD_queue_response) X(MHD_run) X(MHD_start_daemon)		\
	X(MHD_stop_daemon)

#define MHD_DECLARE(f) extern typeof(f) *sym_##f;
MHD_FUNCTIONS(MHD_DECLARE)
#undef MHD_DECLARE

/* Opens the library once and finds every function above. Returns 0, or -ENOENT logged with
 * what to install. */
int mhd_dlopen(void);

#endif
