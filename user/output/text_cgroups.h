/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text_cgroups.h - attach mode's report by cgroup (--all, --cgroup,
 * --listen): the cgroups whose wakeups took the most time, who held the
 * CPUs they waited for (the noisy neighbours), and who woke whom
 */
#ifndef WAKEPROBE_TEXT_CGROUPS_H
#define WAKEPROBE_TEXT_CGROUPS_H

#include <stdio.h>
#include "cgroup_stats.h"

/* the rows of each table, at most */
#define TEXT_CGROUPS_ROWS	10

void text_cgroups__print(FILE *out, const struct cgroup_stats *s);

#endif /* WAKEPROBE_TEXT_CGROUPS_H */
