// SPDX-License-Identifier: GPL-2.0
/* launch.c - a traced run begins whole or not at all, and says why its process did not start */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "collector.h"
#include "launch.h"
#include "runner.h"

int launch__begin_whole(sigset_t *saved, char *msg, size_t len)
{
	sigset_t stop;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, saved);
	if (!launch_stop_requested)
		return 0;
	sigprocmask(SIG_SETMASK, saved, NULL);
	snprintf(msg, len, "interrupted before the run began");
	return -EINTR;
}

void launch__began(const sigset_t *saved)
{
	sigprocmask(SIG_SETMASK, saved, NULL);
}

void launch__describe_failure(const struct runner *r, const struct collector *c, const char *path, int err,
			      char *msg, size_t len)
{
	char why[256];

	if (!collector__out_of_fds(c, err, why, sizeof(why)))
		snprintf(why, sizeof(why), "%s", strerror(-err));
	runner__describe_start(r, path, why, msg, len);
}
