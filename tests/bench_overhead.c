// SPDX-License-Identifier: GPL-2.0
/*
 * bench_overhead - what tracing costs the workload it measures.
 *
 * Runs the eventfd workload paced and back to back, with and without
 * tracing, alternating the two in several rounds so that slow drifts of a
 * shared machine hit both sides alike, and reports the median of the rounds
 * and the traced/untraced ratio of each figure.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "collect.h"
#include "parse.h"
#include "session.h"

#define MAX_ROUNDS 15

struct figures {
	double paced_p50_us[MAX_ROUNDS];
	double paced_p99_us[MAX_ROUNDS];
	double flood_per_s[MAX_ROUNDS];
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
	double sorted[MAX_ROUNDS];

	memcpy(sorted, v, n * sizeof(*v));
	qsort(sorted, n, sizeof(*v), cmp_double);
	return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

static int run(bool trace, uint64_t samples, uint64_t interval_us, struct session_result *r)
{
	struct session_opts o = {
		.workload = catalog__find("eventfd"),
		.samples = samples,
		.interval_us = interval_us,
		.waker_cpu = 0,
		.wakee_cpu = 1,
		.trace = trace,
		.ringbuf_bytes = 8 << 20,
	};
	char msg[256];

	if (session__run(&o, r, msg, sizeof(msg))) {
		fprintf(stderr, "bench: %s\n", msg);
		return -1;
	}
	if (r->workload_failed || r->agg.samples != samples) {
		fprintf(stderr, "bench: run incomplete: %s\n", r->workload_error);
		return -1;
	}
	if (trace && (r->drops_total || r->missed_runs)) {
		fprintf(stderr, "bench: %" PRIu64 " events dropped, %" PRIu64 " runs skipped\n", r->drops_total,
			r->missed_runs);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t rounds = 5, paced_samples = 3000, flood_samples = 200000;
	struct figures fig[2] = {};	/* [0] untraced, [1] traced */
	struct session_result *r;
	struct utsname u;
	char why[256];
	int i, t;

	if ((argc > 1 && parse_u64(argv[1], 1, MAX_ROUNDS, &rounds)) ||
	    (argc > 2 && parse_u64(argv[2], 100, 1000000, &paced_samples)) ||
	    (argc > 3 && parse_u64(argv[3], 1000, 100000000, &flood_samples))) {
		fprintf(stderr, "usage: %s [ROUNDS (1-%d)] [PACED_SAMPLES] [FLOOD_SAMPLES]\n", argv[0], MAX_ROUNDS);
		return 2;
	}
	if (collector__check_access(why, sizeof(why))) {
		fprintf(stderr, "bench: %s\n", why);
		return 1;
	}
	r = malloc(sizeof(*r));
	if (!r)
		return 1;
	uname(&u);
	printf("wakeprobe %s overhead benchmark, eventfd, waker CPU 0 -> wakee CPU 1\n", WAKEPROBE_VERSION);
	printf("machine: %s %s, %ld CPUs online\n", u.machine, u.release, sysconf(_SC_NPROCESSORS_ONLN));
	printf("%" PRIu64 " rounds, alternating untraced and traced; each round: %" PRIu64
	       " wakeups paced at 1000 us, %" PRIu64 " back to back\n\n", rounds, paced_samples, flood_samples);

	for (i = 0; i < (int)rounds; i++) {
		for (t = 0; t < 2; t++) {
			double span_s;

			if (run(t, paced_samples, 1000, r))
				goto fail;
			fig[t].paced_p50_us[i] = histogram__percentile(&r->agg.all_total, 50) / 1000.0;
			fig[t].paced_p99_us[i] = histogram__percentile(&r->agg.all_total, 99) / 1000.0;
			if (run(t, flood_samples, 0, r))
				goto fail;
			span_s = (r->agg.last_woken_ns - r->agg.first_notify_ns) / 1e9;
			fig[t].flood_per_s[i] = flood_samples / span_s;
		}
		printf("round %d: paced p50 %.2f / %.2f us, p99 %.1f / %.1f us, flood %.0f / %.0f wakeups/s "
		       "(untraced / traced)\n", i + 1, fig[0].paced_p50_us[i], fig[1].paced_p50_us[i],
		       fig[0].paced_p99_us[i], fig[1].paced_p99_us[i], fig[0].flood_per_s[i], fig[1].flood_per_s[i]);
		fflush(stdout);
	}

	double p50[2], p99[2], flood[2];
	for (t = 0; t < 2; t++) {
		p50[t] = median(fig[t].paced_p50_us, rounds);
		p99[t] = median(fig[t].paced_p99_us, rounds);
		flood[t] = median(fig[t].flood_per_s, rounds);
	}
	printf("\nmedian of %" PRIu64 " rounds     untraced      traced   traced/untraced   traced-untraced\n", rounds);
	printf("paced p50 (us)       %11.2f %11.2f %17.3f %17.2f\n", p50[0], p50[1], p50[1] / p50[0], p50[1] - p50[0]);
	printf("paced p99 (us)       %11.1f %11.1f %17.3f %17.1f\n", p99[0], p99[1], p99[1] / p99[0], p99[1] - p99[0]);
	printf("flood (wakeups/s)    %11.0f %11.0f %17.3f\n", flood[0], flood[1], flood[1] / flood[0]);
	printf("\ntargets: paced p50 +%.2f us (aim <= 1 us): %s; flood throughput %.1f%% lower (aim <= 30%%): %s\n",
	       p50[1] - p50[0], p50[1] - p50[0] <= 1.0 ? "met" : "NOT met", 100.0 * (1 - flood[1] / flood[0]),
	       flood[1] / flood[0] >= 0.7 ? "met" : "NOT met");
	free(r);
	return 0;
fail:
	free(r);
	return 1;
}
