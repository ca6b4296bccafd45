/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_analysis.h - a traced program's analysis in JSON, as attach mode's
 * document has it and a design's document holds it (docs/json.md)
 */
#ifndef WAKEPROBE_JSON_ANALYSIS_H
#define WAKEPROBE_JSON_ANALYSIS_H

#include "attach_analysis.h"
#include "json_writer.h"

/*
 * json_analysis__write - the members that the run and its analysis @r make
 * (trace, ended, events, threads, migrations, wakeups, stats, the pairs and
 * futex words, causes, tasks, outliers), into the object open in @w: attach
 * mode's document (json_attach.h) has them at its top, the design document
 * (json_design.h) holds a traced run's as its "attach" object
 */
void json_analysis__write(struct json_writer *w, const struct attach_report *r);

#endif /* WAKEPROBE_JSON_ANALYSIS_H */
