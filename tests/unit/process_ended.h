/* SPDX-License-Identifier: GPL-2.0 */
/*
 * process_ended.h - has a process ended, a zombie or reaped: for the tests
 * of the naming child (test_sandbox.c, test_symbolizer.c), which must see
 * a child killed at its limit or at its parent's stop.
 */
#ifndef WAKEPROBE_TEST_PROCESS_ENDED_H
#define WAKEPROBE_TEST_PROCESS_ENDED_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

/* process_ended - has process @pid ended: no /proc entry, or a zombie */
static inline bool process_ended(pid_t pid)
{
	char path[64], state = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return true;
	if (fscanf(f, "%*d (%*[^)]) %c", &state) != 1)
		state = 0;
	fclose(f);
	return state == 'Z' || state == 'X';
}

#endif
