/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_attach.h - attach mode's report for programs: what the text report
 * (text_attach.h) says, as numbers, in one JSON document, with every pair
 * and every futex word of the tables rather than the first few. docs/json.md
 * is its schema ("The attach document").
 *
 * It reads a struct attach_report and nothing else, so that a live run and
 * a replay of a recording write the same document.
 */
#ifndef WAKEPROBE_JSON_ATTACH_H
#define WAKEPROBE_JSON_ATTACH_H

#include <stdio.h>
#include "attach_analysis.h"

#define ATTACH_JSON_SCHEMA		"wakeprobe-attach-report"
/* adding keys keeps it; renaming or removing one, or changing what it means, bumps it */
#define ATTACH_JSON_SCHEMA_VERSION	2

/* json_attach__print - the document of @r on @out; 0, or -EIO if the stream had a write error */
int json_attach__print(FILE *out, const struct attach_report *r);

#endif /* WAKEPROBE_JSON_ATTACH_H */
