// SPDX-License-Identifier: GPL-2.0
/*
 * wakeprobe - where does the time of a wakeup go?
 *
 * Runs a workload that hands wakeups from one thread to another, traces the
 * scheduler and syscalls with BPF while it runs, and reports each phase of
 * the wakeup as a latency distribution.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "catalog.h"
#include "collect.h"
#include "options.h"
#include "report.h"
#include "session.h"

static void on_signal(int sig)
{
	/* the first signal ends the run and still reports; a second one ends wakeprobe */
	if (session_stop_requested)
		_exit(128 + sig);
	session_stop_requested = 1;
}

static void install_signal_handlers(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void list_workloads(void)
{
	size_t i;

	for (i = 0; i < catalog__count(); i++)
		printf("%-16s %s\n", catalog__at(i)->name, catalog__at(i)->summary);
}

/* pick_cpus - check the CPUs asked for, or choose the first two allowed */
static int pick_cpus(struct wp_options *o, char *err, size_t len)
{
	cpu_set_t allowed;
	int cpu, found = 0;

	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		snprintf(err, len, "cannot read this process's CPU affinity: %s", strerror(errno));
		return -errno;
	}
	if (o->waker_cpu >= 0) {
		for (cpu = 0; cpu < 2; cpu++) {
			int c = cpu ? o->wakee_cpu : o->waker_cpu;

			if (c >= CPU_SETSIZE || !CPU_ISSET(c, &allowed)) {
				snprintf(err, len, "CPU %d is offline or not allowed for this process: "
					 "pick two CPUs this process may run on", c);
				return -EINVAL;
			}
		}
		return 0;
	}
	for (cpu = 0; cpu < CPU_SETSIZE && found < 2; cpu++) {
		if (!CPU_ISSET(cpu, &allowed))
			continue;
		if (found++ == 0)
			o->waker_cpu = cpu;
		else
			o->wakee_cpu = cpu;
	}
	if (found < 2) {
		snprintf(err, len, "the waker and the wakee need two CPUs, and this process may use only one");
		return -EINVAL;
	}
	return 0;
}

static void announce(const struct session_opts *so)
{
	fprintf(stderr, "wakeprobe: %s%s: %llu wakeups, waker on CPU %d, wakee on CPU %d ...\n",
		so->trace ? "tracing " : "timing ", so->workload->name, (unsigned long long)so->samples,
		so->waker_cpu, so->wakee_cpu);
}

static int run_one(const struct session_opts *so)
{
	struct session_result *result;
	char msg[256];
	int err;

	result = malloc(sizeof(*result));
	if (!result) {
		fprintf(stderr, "wakeprobe: out of memory\n");
		return 1;
	}
	announce(so);
	err = session__run(so, result, msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		free(result);
		return 1;
	}
	report__print_text(stdout, so, result);
	err = result->workload_failed ? 1 : 0;
	free(result);
	return err;
}

/*
 * run_all - every path in turn with the same settings, then one table. A
 * path that cannot run at all stops the whole run (the same cause would stop
 * the others); one whose workload fails keeps its row, marked FAILED.
 */
static int run_all(struct session_opts *so)
{
	const struct workload_desc *wl[CATALOG_MAX_WORKLOADS];
	struct session_result *res[CATALOG_MAX_WORKLOADS];
	size_t done = 0, n = catalog__count(), i;
	char msg[256];
	int err = 0;

	while (done < n && !session_stop_requested) {
		wl[done] = catalog__at(done);
		res[done] = malloc(sizeof(*res[done]));
		if (!res[done]) {
			fprintf(stderr, "wakeprobe: out of memory\n");
			err = 1;
			break;
		}
		so->workload = wl[done];
		announce(so);
		if (session__run(so, res[done], msg, sizeof(msg))) {
			fprintf(stderr, "wakeprobe: %s: %s\n", wl[done]->name, msg);
			free(res[done]);
			err = 1;
			break;
		}
		if (res[done]->workload_failed)
			err = 1;
		done++;
	}
	if (done) {
		fprintf(stdout, "\n");
		report__print_comparison(stdout, so, wl, (const struct session_result *const *)res, done);
	}
	for (i = 0; i < done; i++)
		free(res[i]);
	return err;
}

int main(int argc, char **argv)
{
	struct session_opts so = {};
	struct wp_options o;
	char msg[256];
	int nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF);

	switch (options__parse(&o, argc, argv, nr_cpus, stdout, msg, sizeof(msg))) {
	case OPTIONS_DONE:
		return 0;
	case OPTIONS_BAD:
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 2;
	case OPTIONS_RUN:
		break;
	}
	if (o.list_workloads) {
		list_workloads();
		return 0;
	}
	if (pick_cpus(&o, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 2;
	}
	if (!o.no_trace && collector__check_access(msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 1;
	}

	so.samples = o.samples;
	so.interval_us = o.interval_us;
	so.waker_cpu = o.waker_cpu;
	so.wakee_cpu = o.wakee_cpu;
	so.trace = !o.no_trace;
	so.verbose = o.verbose;
	so.ringbuf_bytes = o.ringbuf_kb * 1024;
	so.outliers = o.outliers;
	so.outlier_threshold_ns = o.threshold_us * 1000;

	install_signal_handlers();
	if (!strcmp(o.workload, "all"))
		return run_all(&so);
	so.workload = catalog__find(o.workload);
	return run_one(&so);
}
