/* SPDX-License-Identifier: GPL-2.0 */
/* json_cgroups.h - attach mode's JSON by cgroup (--all, --cgroup, --listen): "cgroups" (docs/json.md) */
#ifndef WAKEPROBE_JSON_CGROUPS_H
#define WAKEPROBE_JSON_CGROUPS_H

#include "cgroup_stats.h"
#include "json_writer.h"

/* json_cgroups__write - "cgroups": the series of each kind, "other" last; nothing when @s is NULL */
void json_cgroups__write(struct json_writer *w, const struct cgroup_stats *s);

#endif /* WAKEPROBE_JSON_CGROUPS_H */
