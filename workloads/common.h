/* SPDX-License-Identifier: GPL-2.0 */
/*
 * common.h - the harness every workload shares: options, CPU pinning, pacing,
 * the waker/wakee hand-shake and the sample sink (wakeprobe's shared-memory
 * ring, or in-process statistics when a workload runs by itself).
 *
 * One sample is one notify and the wait it ends. The waker does not start
 * sample n+1 before the wakee has stored its timestamp for sample n, so every
 * notify has exactly one wait: nothing coalesces, nothing is counted twice.
 *
 * A path whose waker and wakee are two threads of one process describes its
 * mechanism in a struct wl_path and hands it to wl_main(), which runs the
 * rest; shmsem, two processes, uses the parts below wl_main() directly.
 */
#ifndef WAKEPROBE_WORKLOAD_COMMON_H
#define WAKEPROBE_WORKLOAD_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include "sample_ring.h"
#include "summaries.h"
#include "tsc.h"
#include "tsc_clock.h"
#include "histogram.h"

struct wl_options {
	uint64_t samples;
	uint64_t interval_us;	/* 0: back to back */
	int waker_cpu;
	int wakee_cpu;
	int ring_fd;		/* -1: run by itself and print statistics */
};

struct wl_run {
	const char *name;
	struct wl_options opt;
	struct wp_ring *ring;	/* NULL when standalone */
	uint64_t ring_bytes;
	/* the fds the notify and the wait syscalls use, -1 if none: the tracer matches on them */
	int notify_fd;
	int wait_fd;

	/* the sample in flight; its fields are written by one side each */
	struct wp_sample pending;
	_Alignas(64) volatile uint64_t acked;	/* last seq whose wakee half is stored */
	_Alignas(64) uint64_t next_deadline_ns;
	uint64_t published;

	/* standalone statistics, in TSC cycles until the end-of-run calibration */
	struct histogram total_cycles;
	struct tsc_clock clock;
};

/*
 * wl_init - parse the common options, pin nothing yet, attach to the ring.
 * @summary is the path's line of summaries.h, which --help prints.
 * Exits with status 2 and a one-line message on bad usage.
 */
int wl_init(struct wl_run *run, const char *name, const char *summary, int argc, char **argv);

/* wl_pin_self - pin the calling thread to @cpu */
int wl_pin_self(int cpu);

/*
 * wl_set_roles - record who waits and who notifies (and the fds of @run).
 * From here on pending.waker_tid and pending.wakee_tid hold the two tids.
 */
void wl_set_roles(struct wl_run *run, uint32_t waker_tid, uint32_t wakee_tid);

/* wl_start - tell the reader that the run has begun */
void wl_start(struct wl_run *run);

/*
 * wl_before_notify - everything the waker does outside the measured window
 * before notify @seq: publish sample seq-1, wait for ring space, sleep until
 * the next pacing deadline.
 */
void wl_before_notify(struct wl_run *run, uint64_t seq);

/* wl_notified - waker half of sample @seq, taken right before the notify */
static inline void wl_notified(struct wl_run *run, uint64_t seq, uint64_t tsc, uint32_t cpu)
{
	run->pending.seq = seq;
	run->pending.tsc_notify = tsc;
	run->pending.waker_cpu = (uint16_t)cpu;
}

/*
 * wl_woken_waited - wakee half of sample @seq; releases the waker for the
 * next one. @tsc_wait_start is when the wakee began to wait, for paths whose
 * waiter burns CPU while it waits (spin); 0 if not taken. The wakee keeps it
 * until now because the waker has not published sample seq-1 before this.
 */
static inline void wl_woken_waited(struct wl_run *run, uint64_t seq, uint64_t tsc_wait_start, uint64_t tsc,
				   uint32_t cpu, uint64_t value)
{
	run->pending.tsc_wait_start = tsc_wait_start;
	run->pending.tsc_woken = tsc;
	run->pending.wakee_cpu = (uint16_t)cpu;
	run->pending.value = value;
	if (value != 1)
		run->pending.flags |= WP_SAMPLE_COALESCED;
	__atomic_store_n(&run->acked, seq, __ATOMIC_RELEASE);
}

/* wl_woken - wakee half of sample @seq, for paths that block */
static inline void wl_woken(struct wl_run *run, uint64_t seq, uint64_t tsc, uint32_t cpu, uint64_t value)
{
	wl_woken_waited(run, seq, 0, tsc, cpu, value);
}

/* wl_finish - publish the last sample, close the ring or print statistics */
int wl_finish(struct wl_run *run);

/* wl_fail - report a fatal error to stderr and to the reader; returns 1 */
int wl_fail(struct wl_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * struct wl_path - one wakeup path between two threads: its mechanism and
 * nothing else. wl_main() does the rest, the same for every path: options,
 * setup, pin the waker, start and pin the wakee, the paced run, the
 * statistics or the ring, join, teardown; every failure reported once
 * through wl_fail().
 *
 * The measured window lies inside the callbacks, not around them: notify
 * reads the TSC itself right before its notify call and passes the stamp to
 * wl_notified() after it; wait reads the TSC itself right after its wait
 * returned and passes the stamp to wl_woken(). wl_main() calls them through
 * the pointers below before the one stamp and after the other, so the window
 * holds the same instructions as a loop written out by hand.
 */
struct wl_path {
	const char *name;
	const char *summary;	/* its line of summaries.h */
	void *state;		/* the path's own, handed to every callback */
	/* waker thread, before anything is pinned: make the primitive, set run's fds; 0 or wl_fail(). Optional. */
	int (*setup)(struct wl_run *run, void *state);
	/*
	 * wakee thread, once pinned, before the run: what the wakee must set up
	 * itself; 0 or -errno. Optional. A path that has one reports a failure
	 * to pin the wakee as "cannot set up the wakee", not "cannot pin" it.
	 */
	int (*wakee_setup)(struct wl_run *run, void *state);
	/* waker: stamp, notify sample @seq, wl_notified(); 0 or wl_fail() */
	int (*notify)(struct wl_run *run, void *state, uint64_t seq);
	/*
	 * wakee: wait for sample @seq, stamp, wl_woken(); 0 or -errno. It stores
	 * its half even when the wait failed (value 0), so the waker is never
	 * left waiting; the last error is reported once the run is over.
	 */
	int (*wait)(struct wl_run *run, void *state, uint64_t seq);
	const char *wait_error;	/* what failed when wait does: "read from eventfd"; NULL if it cannot */
	/* after a whole run, the wakee joined: undo setup. Optional. */
	void (*teardown)(void *state);
};

/*
 * wl_main - a workload's main(): run @path with the command line @argc,
 * @argv. Returns the exit status. A failure before the wakee is joined ends
 * the run without teardown: the wakee may still be blocked in the path's
 * primitive, which must not be destroyed under it; exit releases it all.
 */
int wl_main(const struct wl_path *path, int argc, char **argv);

#endif /* WAKEPROBE_WORKLOAD_COMMON_H */
