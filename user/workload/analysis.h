/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analysis.h - what turns a run's inputs into its result: clock pairs,
 * kernel events, workload samples and the watermarks of the event stream go
 * in; merged samples, the aggregate and the counters come out.
 *
 * A live session feeds it from the BPF ring buffer and the sample ring; a
 * replay feeds it from a record file. Both go through these calls and
 * nothing else, so a report of a recording is the live report again. A
 * tap sees every input as it goes in: a recording writes them down there
 * (run_recording.h), and this folder knows nothing of the file.
 */
#ifndef WAKEPROBE_ANALYSIS_H
#define WAKEPROBE_ANALYSIS_H

#include <stdint.h>
#include "merger.h"
#include "run_config.h"
#include "run_result.h"

/*
 * How far a TSC-derived time may stray across a kernel timestamp before the
 * sample is labelled clock_order: an order above the measured fit error.
 */
#define ANALYSIS_CLOCK_SLACK_NS	1000

/*
 * analysis_tap - what sees each input of a run before the analysis takes it,
 * in the order the analysis takes them; every hook is optional
 */
struct analysis_tap {
	/* the run @cfg begins, into @res (its meta and trace_start_ns set) */
	void (*begin)(void *ctx, const struct run_config *cfg, const struct run_result *res);
	void (*clock_pair)(void *ctx, const struct tsc_pair *p);
	void (*event)(void *ctx, const struct wp_event *e);
	void (*sample)(void *ctx, const struct wp_sample *s, uint64_t t_notify_ns, uint64_t t_woken_ns,
		       uint64_t t_wait_start_ns);
	void (*fds)(void *ctx, int notify_fd, int wait_fd);
	void (*advance)(void *ctx, uint64_t complete_ns, uint64_t drops);
	/* the inputs are over: @res's end-of-run fields are set */
	void (*end)(void *ctx, const struct run_result *res);
};

/*
 * What the analysis of a run is asked besides the run itself, and so what a
 * report of a recording chooses anew: the outliers to keep, and where what
 * the analysis sees goes besides the result. Every output is optional.
 */
struct analysis_opts {
	uint32_t outliers;		/* slowest samples to keep with their explanation */
	uint64_t outlier_threshold_ns;
	/*
	 * sees every merged sample (tests check each one); an untraced run
	 * hands each sample over with its totals only
	 */
	merger_sample_fn on_sample;
	void *on_sample_ctx;
	/* sees every kernel event as it arrives, before the merge */
	void (*on_event)(const struct wp_event *e, void *ctx);
	void *on_event_ctx;
	/* sees every input before the analysis (a recording's writer); NULL: none */
	const struct analysis_tap *tap;
	void *tap_ctx;
};

/*
 * analysis__lean_flight_ns - the wake-to-run past which a lean run's wakeups
 * bring their CPU's flight records: the outlier threshold (--threshold-us),
 * the wakeups it would explain; 0 (off) for a run not lean
 */
static inline uint64_t analysis__lean_flight_ns(const struct run_config *cfg, const struct analysis_opts *o)
{
	return cfg->traced && cfg->lean ? o->outlier_threshold_ns : 0;
}

/*
 * analysis__lean_flight_adaptive - does a lean run's flight threshold follow
 * the running p99 of its wakeups (lean_adapt.h)? Without --threshold-us,
 * when there are outliers to explain: they are the slowest, over it.
 */
static inline bool analysis__lean_flight_adaptive(bool lean, uint32_t outliers, uint64_t threshold_ns)
{
	return lean && outliers && !threshold_ns;
}

struct analysis {
	struct analysis_opts opts;
	struct run_result *res;
	struct merger *merger;		/* NULL for an untraced run */
};

/*
 * analysis__begin - start the run @cfg into @res, whose meta and
 * trace_start_ns are already set, as @o asks. Returns 0 or a negative errno.
 */
int analysis__begin(struct analysis *a, const struct run_config *cfg, const struct analysis_opts *o,
		    struct run_result *res);
void analysis__clock_pair(struct analysis *a, const struct tsc_pair *p);
void analysis__event(struct analysis *a, const struct wp_event *e);
/* a sample, its TSC stamps mapped to CLOCK_MONOTONIC with the fit of the moment */
void analysis__sample(struct analysis *a, const struct wp_sample *s, uint64_t t_notify_ns, uint64_t t_woken_ns,
		      uint64_t t_wait_start_ns);
void analysis__fds(struct analysis *a, int notify_fd, int wait_fd);
/* every event stamped before @complete_ns is in; @drops: the drop counter after that drain */
void analysis__advance(struct analysis *a, uint64_t complete_ns, uint64_t drops);
/*
 * analysis__end - the inputs are over. @res's end-of-run fields (trace_end_ns,
 * counters, drops, the workload's fate) are set; finish the merge.
 */
void analysis__end(struct analysis *a);
void analysis__free(struct analysis *a);

#endif /* WAKEPROBE_ANALYSIS_H */
