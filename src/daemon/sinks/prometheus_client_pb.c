// SPDX-License-Identifier: GPL-2.0
/* The protobuf-c code that protoc-c generates from prometheus_client.proto into $(BUILD) at
 * build time (Makefile), compiled here so that every build of src/ (the daemon, the unit
 * tests, the fuzzers, the sanitized build) links it without a rule of its own. */
#include "prometheus_client.pb-c.c"
