/* SPDX-License-Identifier: GPL-2.0 */
/* A line of text made from an element of an answer by a template that names its fields:
 * "IRQ {irq} ({name})" -> "IRQ 36 (virtio1-req.0)". The kind table (src/common/kinds/) keeps
 * irqlat's titles and event lines so, each naming the fields it shows: a printf format in the
 * table would have to pair each %d and %s with the caller's arguments by position, and a
 * template library would bring far more than these three rules.
 *   {key}           the field as text: a string as it is, a number in decimal
 *   {key:duration}  a number of ns in short units (fmt_duration: 850ns 41us 1.2ms)
 *   {a|b}           the first of the fields that is there
 * A field that is not there (or null) is "?". */
#ifndef IRQLAT_TEMPLATE_H
#define IRQLAT_TEMPLATE_H

#include <stddef.h>
#include <json-c/json.h>

/* The text of tmpl over object o into buf, cut as snprintf() cuts it; returns its length (what
 * snprintf() returns: the length it would have had) */
size_t tmpl_render(char *buf, size_t len, const char *tmpl, json_object *o);

#endif
