/* SPDX-License-Identifier: GPL-2.0 */
/* run_meta.h - where and when a run was measured: shown in every report, kept in a recording */
#ifndef WAKEPROBE_RUN_META_H
#define WAKEPROBE_RUN_META_H

#include <stdint.h>

/* where and when a run was measured: shown in the report, kept in a recording */
struct run_meta {
	char version[16];		/* wakeprobe's, at the time of the run */
	char kernel[65];		/* uname -r */
	char machine[65];		/* uname -m */
	char hostname[65];
	uint32_t nr_cpus;		/* online */
	uint64_t started_unix_ns;	/* CLOCK_REALTIME when the run began */
};

/* run_meta__now - this machine and this moment, for a run that begins now */
void run_meta__now(struct run_meta *m);

#endif /* WAKEPROBE_RUN_META_H */
