// SPDX-License-Identifier: GPL-2.0
/* file_limit.c - RLIMIT_NOFILE raised for wakeprobe's clients, and put back for the programs it starts */
#include <errno.h>
#include <stdbool.h>
#include "file_limit.h"

static struct rlimit started_with;
static bool raised;

int file_limit__raise(rlim_t *now)
{
	struct rlimit lim;

	if (getrlimit(RLIMIT_NOFILE, &lim))
		return -errno;
	*now = lim.rlim_cur;
	if (lim.rlim_cur >= lim.rlim_max)
		return 0;
	if (!raised)
		started_with = lim;
	lim.rlim_cur = lim.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &lim))
		return -errno;
	raised = true;
	*now = lim.rlim_cur;
	return 0;
}

void file_limit__restore(void)
{
	if (raised)
		setrlimit(RLIMIT_NOFILE, &started_with);
}
