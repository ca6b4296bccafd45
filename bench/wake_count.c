// SPDX-License-Identifier: GPL-2.0
/*
 * wake-count SECONDS PID... - the witness of bench/wake_count.bpf.c: the
 * wakeups of the tasks of the processes PID... (the kernel's pids), and of
 * the processes they fork, over SECONDS (0: until SIGINT or SIGTERM; a
 * line on stderr says when counting began), one line, with the window in
 * CLOCK_MONOTONIC ns, the clock of
 * wakeprobe's records: the wakeups a recording holds inside that window
 * are what to hold against it. A second line says how many were queued
 * from another CPU, and a third the percentiles of their waking -> wakeup
 * time, to the power of two that holds them.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "parse.h"
#include "wake_count.skel.h"

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/* print_enqueue - the p50, p90 and p99 of the waking -> wakeup times, each as the log2 slot that holds it */
static void print_enqueue(const __u64 *slots, size_t n)
{
	static const unsigned int pct[] = { 50, 90, 99 };
	unsigned long long all = 0, seen = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		all += slots[i];
	printf("waking -> wakeup, %llu paired:", all);
	for (size_t j = 0; j < sizeof(pct) / sizeof(pct[0]) && all; j++) {
		while (k < n && (seen + slots[k]) * 100 < all * pct[j])
			seen += slots[k++];
		printf(" p%u < %llu ns", pct[j], 2ull << k);
	}
	printf("\n");
}

int main(int argc, char **argv)
{
	struct wake_count_bpf *skel;
	uint64_t seconds, pid, from_ns, to_ns;
	__u8 one = 1;
	int err;

	struct sigaction sa = { .sa_handler = on_stop };

	if (argc < 3 || parse__u64(argv[1], 0, 3600, &seconds)) {
		fprintf(stderr, "usage: wake-count SECONDS PID...  (the kernel's pids, as the host sees them; "
			"SECONDS 0: until SIGINT or SIGTERM)\n");
		return 2;
	}
	/* set before anything is counted: a stop that comes early ends the count, never the process */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	skel = wake_count_bpf__open_and_load();
	if (!skel) {
		fprintf(stderr, "wake-count: cannot load its BPF program: %s (root and BTF needed)\n", strerror(errno));
		return 1;
	}
	for (int i = 2; i < argc; i++) {
		__u32 tgid;

		if (parse__u64(argv[i], 1, 4194304, &pid)) {
			fprintf(stderr, "wake-count: '%s' is not a pid\n", parse__shown(argv[i]));
			wake_count_bpf__destroy(skel);
			return 2;
		}
		tgid = (__u32)pid;
		bpf_map__update_elem(skel->maps.counted_tgids, &tgid, sizeof(tgid), &one, sizeof(one), BPF_ANY);
	}
	err = wake_count_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "wake-count: cannot attach: %s\n", strerror(-err));
		wake_count_bpf__destroy(skel);
		return 1;
	}
	from_ns = now_ns();
	fprintf(stderr, "wake-count: counting\n");
	if (seconds) {
		struct timespec left = { .tv_sec = (time_t)seconds };

		while (!stop && nanosleep(&left, &left) && errno == EINTR)
			;
	} else {
		while (!stop)
			pause();
	}
	to_ns = now_ns();
	wake_count_bpf__detach(skel);
	printf("wakeups %llu in %.3f s, CLOCK_MONOTONIC %llu..%llu ns\n", (unsigned long long)skel->bss->wakeups,
	       (to_ns - from_ns) / 1e9, (unsigned long long)from_ns, (unsigned long long)to_ns);
	printf("queued from another CPU %llu\n", (unsigned long long)skel->bss->queued_remote);
	if (skel->bss->untracked_forks)
		printf("forked processes not counted (table full) %llu\n",
		       (unsigned long long)skel->bss->untracked_forks);
	print_enqueue(skel->bss->enqueue_log2, sizeof(skel->bss->enqueue_log2) / sizeof(skel->bss->enqueue_log2[0]));
	wake_count_bpf__destroy(skel);
	return 0;
}
