/* SPDX-License-Identifier: GPL-2.0 */
/*
 * launch.h - a traced run begins whole or not at all, ends when a signal
 * asks, and says why its process did not start: what every mode's live
 * run shares (the workload's session, attach mode's, a design's)
 */
#ifndef WAKEPROBE_LAUNCH_H
#define WAKEPROBE_LAUNCH_H

#include <signal.h>
#include <stddef.h>
#include "stop_flags.h"

/*
 * launch__begin_whole - a run is about to begin: -EINTR (and @msg) when a
 * signal asked for the end already, so that nothing is measured. Else the
 * stop signals wait from here until launch__began() (the run's first
 * record, its process started): the run either does not begin, or begins
 * whole and is then interrupted.
 */
int launch__begin_whole(sigset_t *saved, char *msg, size_t len);
/* launch__began - the stop signals held by launch__begin_whole() arrive */
void launch__began(const sigset_t *saved);

struct collector;
struct runner;

/*
 * launch__describe_failure - one line into @msg: why @r did not start @path
 * with @err, a negative errno; out of file descriptors, how many a run with
 * @c (its BPF side, NULL: none) needs. For the workloads and the commands.
 */
void launch__describe_failure(const struct runner *r, const struct collector *c, const char *path, int err,
			      char *msg, size_t len);

#endif /* WAKEPROBE_LAUNCH_H */
