/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stop_flags.h - what the signal handler (main.c) tells a run, as flags
 * it sets and the run reads between its steps: end now, or (a service's
 * SIGHUP) write the files. A module of their own, so that what only reads
 * them (a stacks' naming that a signal ends) needs nothing more.
 */
#ifndef WAKEPROBE_STOP_FLAGS_H
#define WAKEPROBE_STOP_FLAGS_H

#include <signal.h>

/* set from a signal handler to the signal's number: end the run early and report what was seen */
extern volatile sig_atomic_t launch_stop_requested;
/*
 * A service's (--listen) SIGHUP: not a stop, a request to write its files
 * now. launch_hup_writes says which SIGHUP means; the handler sets
 * launch_reopen_requested, the run clears it once done.
 */
extern volatile sig_atomic_t launch_hup_writes;
extern volatile sig_atomic_t launch_reopen_requested;

#endif /* WAKEPROBE_STOP_FLAGS_H */
