// SPDX-License-Identifier: GPL-2.0
/*
 * bench_overhead - what tracing costs the workload it measures.
 *
 * Runs the eventfd workload paced and back to back, with and without
 * tracing. Each round runs both sides next to each other, in alternating
 * order, so that the drifts of a shared machine hit both alike; a flood
 * round's traced/untraced ratio is taken within the round, and the verdict
 * rests on the median of those ratios. The host's steal time during each
 * run is shown, since on a shared VM it moves throughput more than anything
 * wakeprobe does. A last traced flood with the kernel's BPF run-time
 * statistics on says what the programs themselves cost per wakeup.
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

#define MAX_ROUNDS 51

enum { UNTRACED, TRACED };

struct run_figures {
	double value;		/* p50 us for paced runs, wakeups/s for floods */
	double p99_us;
	double steal_pct;	/* share of CPU time the host took away during the run */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* quantile - of @n values, linear between order statistics */
static double quantile(const double *v, int n, double q)
{
	double sorted[MAX_ROUNDS], pos;
	int lo;

	memcpy(sorted, v, n * sizeof(*v));
	qsort(sorted, n, sizeof(*v), cmp_double);
	pos = q * (n - 1);
	lo = (int)pos;
	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + (pos - lo) * (sorted[lo + 1] - sorted[lo]);
}

/* cpu_ticks - all CPU time and the stolen part, from /proc/stat */
static void cpu_ticks(unsigned long long *total, unsigned long long *steal)
{
	unsigned long long v[8] = {};
	FILE *f = fopen("/proc/stat", "r");
	int i;

	*total = *steal = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
		   &v[5], &v[6], &v[7]) == 8) {
		for (i = 0; i < 8; i++)
			*total += v[i];
		*steal = v[7];
	}
	fclose(f);
}

static int run(bool trace, bool stats, uint64_t samples, uint64_t interval_us, struct session_result *r,
	       struct run_figures *fig)
{
	struct session_opts o = {
		.workload = catalog__find("eventfd"),
		.samples = samples,
		.interval_us = interval_us,
		.waker_cpu = 0,
		.wakee_cpu = 1,
		.trace = trace,
		.bpf_run_stats = stats,
		.ringbuf_bytes = 8 << 20,
	};
	unsigned long long total0, steal0, total1, steal1;
	char msg[256];

	cpu_ticks(&total0, &steal0);
	if (session__run(&o, r, msg, sizeof(msg))) {
		fprintf(stderr, "bench: %s\n", msg);
		return -1;
	}
	cpu_ticks(&total1, &steal1);
	if (r->workload_failed || r->agg.samples != samples) {
		fprintf(stderr, "bench: run incomplete: %s\n", r->workload_error);
		return -1;
	}
	if (trace && (r->drops_total || r->missed_runs)) {
		fprintf(stderr, "bench: %" PRIu64 " events dropped, %" PRIu64 " runs skipped\n", r->drops_total,
			r->missed_runs);
		return -1;
	}
	if (interval_us)
		fig->value = histogram__percentile(&r->agg.all_total, 50) / 1000.0;
	else
		fig->value = samples / ((r->agg.last_woken_ns - r->agg.first_notify_ns) / 1e9);
	fig->p99_us = histogram__percentile(&r->agg.all_total, 99) / 1000.0;
	fig->steal_pct = total1 > total0 ? 100.0 * (steal1 - steal0) / (total1 - total0) : 0;
	return 0;
}

/* run_pair - both sides of one round, untraced first in even rounds */
static int run_pair(int round, uint64_t samples, uint64_t interval_us, struct session_result *r,
		    struct run_figures fig[2])
{
	int k, side;

	for (k = 0; k < 2; k++) {
		side = round % 2 ? !k : k;
		if (run(side == TRACED, false, samples, interval_us, r, &fig[side]))
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t paced_rounds = 5, flood_rounds = 21, paced_samples = 3000, flood_samples = 30000;
	double p50[2][MAX_ROUNDS], p99[2][MAX_ROUNDS], flood[2][MAX_ROUNDS], ratio[MAX_ROUNDS];
	struct run_figures fig[2];
	struct session_result *r;
	double p50_delta, ratio_med;
	struct utsname u;
	char why[256];
	int i, t;

	if ((argc > 1 && parse_u64(argv[1], 1, MAX_ROUNDS, &paced_rounds)) ||
	    (argc > 2 && parse_u64(argv[2], 1, MAX_ROUNDS, &flood_rounds)) ||
	    (argc > 3 && parse_u64(argv[3], 100, 1000000, &paced_samples)) ||
	    (argc > 4 && parse_u64(argv[4], 1000, 100000000, &flood_samples)) || argc > 5) {
		fprintf(stderr, "usage: %s [PACED_ROUNDS] [FLOOD_ROUNDS] [PACED_SAMPLES] [FLOOD_SAMPLES]\n"
			"  rounds 1-%d; defaults 5 21 3000 30000\n", argv[0], MAX_ROUNDS);
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
	printf("paced: %" PRIu64 " rounds of %" PRIu64 " wakeups at 1000 us; flood: %" PRIu64
	       " rounds of %" PRIu64 " back to back;\neach round runs untraced and traced side by side, "
	       "in alternating order; steal = host's share of CPU time\n\n",
	       paced_rounds, paced_samples, flood_rounds, flood_samples);

	for (i = 0; i < (int)paced_rounds; i++) {
		if (run_pair(i, paced_samples, 1000, r, fig))
			goto fail;
		for (t = 0; t < 2; t++) {
			p50[t][i] = fig[t].value;
			p99[t][i] = fig[t].p99_us;
		}
		printf("paced %2d: p50 %7.2f / %7.2f us   p99 %8.1f / %8.1f us   steal %4.1f / %4.1f %%"
		       "   (untraced / traced)\n", i + 1, p50[0][i], p50[1][i], p99[0][i], p99[1][i],
		       fig[0].steal_pct, fig[1].steal_pct);
		fflush(stdout);
	}
	for (i = 0; i < (int)flood_rounds; i++) {
		if (run_pair(i, flood_samples, 0, r, fig))
			goto fail;
		for (t = 0; t < 2; t++)
			flood[t][i] = fig[t].value;
		ratio[i] = flood[1][i] / flood[0][i];
		printf("flood %2d: %7.0f / %7.0f wakeups/s   ratio %.3f   steal %4.1f / %4.1f %%"
		       "   (untraced / traced)\n", i + 1, flood[0][i], flood[1][i], ratio[i],
		       fig[0].steal_pct, fig[1].steal_pct);
		fflush(stdout);
	}

	printf("\n%-24s %11s %11s %17s %17s\n", "median of the rounds", "untraced", "traced", "traced/untraced",
	       "traced-untraced");
	double m50[2], m99[2], mfl[2];
	for (t = 0; t < 2; t++) {
		m50[t] = quantile(p50[t], paced_rounds, 0.5);
		m99[t] = quantile(p99[t], paced_rounds, 0.5);
		mfl[t] = quantile(flood[t], flood_rounds, 0.5);
	}
	p50_delta = m50[1] - m50[0];
	ratio_med = quantile(ratio, flood_rounds, 0.5);
	printf("%-24s %11.2f %11.2f %17.3f %17.2f\n", "paced p50 (us)", m50[0], m50[1], m50[1] / m50[0], p50_delta);
	printf("%-24s %11.1f %11.1f %17.3f %17.1f\n", "paced p99 (us)", m99[0], m99[1], m99[1] / m99[0],
	       m99[1] - m99[0]);
	printf("%-24s %11.0f %11.0f %17.3f\n", "flood (wakeups/s)", mfl[0], mfl[1], mfl[1] / mfl[0]);
	printf("%-24s %11s %11s %17.3f   (quartiles %.3f - %.3f)\n", "flood, ratio per round", "", "",
	       ratio_med, quantile(ratio, flood_rounds, 0.25), quantile(ratio, flood_rounds, 0.75));

	if (run(true, true, flood_samples, 0, r, &fig[1]))
		goto fail;
	printf("\nBPF programs in a traced flood (kernel run-time statistics on): %.2f runs and %.0f ns "
	       "per wakeup,\n%.0f ns per run, %.2f records per wakeup\n",
	       (double)r->bpf_runs / flood_samples, (double)r->bpf_run_ns / flood_samples,
	       r->bpf_runs ? (double)r->bpf_run_ns / r->bpf_runs : 0.0, (double)r->merge.events / flood_samples);

	printf("\ntargets: paced p50 %+.2f us (aim <= 1 us): %s; flood throughput %.1f%% lower, median of "
	       "per-round ratios (aim <= 30%%): %s\n", p50_delta, p50_delta <= 1.0 ? "met" : "NOT met",
	       100.0 * (1 - ratio_med), ratio_med >= 0.7 ? "met" : "NOT met");
	free(r);
	return 0;
fail:
	free(r);
	return 1;
}
