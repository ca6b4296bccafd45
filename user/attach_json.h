/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach_json.h - attach mode's report for programs: what the text report
 * (attach_report.h) says, as numbers, in one JSON document, with every pair
 * and every futex word of the tables rather than the first few. docs/json.md
 * is its schema ("The attach document").
 *
 * It reads a struct attach_report and nothing else, so that a live run and
 * a replay of a recording write the same document.
 */
#ifndef WAKEPROBE_ATTACH_JSON_H
#define WAKEPROBE_ATTACH_JSON_H

#include <stdio.h>
#include "attach_report.h"

#define ATTACH_JSON_SCHEMA		"wakeprobe-attach-report"
/* adding keys keeps it; renaming or removing one, or changing what it means, bumps it */
#define ATTACH_JSON_SCHEMA_VERSION	2

struct json_writer;

/* attach_json__print - the document of @r on @out; 0, or -EIO if the stream had a write error */
int attach_json__print(FILE *out, const struct attach_report *r);
/*
 * attach_json__write_analysis - the members of the document that the run
 * and its analysis make (trace, ended, events, threads, migrations,
 * wakeups, stats, the pairs and futex words, causes, tasks, outliers),
 * into the object open in @w: the design document (design_json.h) holds
 * a traced run's as its "attach" object, read with the same code
 */
void attach_json__write_analysis(struct json_writer *w, const struct attach_report *r);

#endif /* WAKEPROBE_ATTACH_JSON_H */
