// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "common.h"
#include "cpus.h"
#include "parse.h"

#define WL_DEFAULT_SAMPLES	1000
#define WL_DEFAULT_INTERVAL_US	1000
#define WL_MAX_SAMPLES		(1ull << 40)
#define WL_MAX_INTERVAL_US	(10ull * 1000 * 1000)	/* 10 s */

static void wl_usage(FILE *out, const char *name, const char *summary)
{
	fprintf(out,
		"Usage: %s [--samples N] [--interval-us U] [--cpus A,B]\n"
		"\n"
		"%s - %s\n"
		"Run by itself it prints the latency from right before the notify to right after\n"
		"the wait returns; under wakeprobe it hands its samples to the tracer instead.\n"
		"\n"
		"  -n, --samples N        wakeups to measure (default %d)\n"
		"  -i, --interval-us U    pause between wakeups, 0 for back to back (default %d)\n"
		"  -c, --cpus A,B         waker CPU A, wakee CPU B (default: the first two allowed)\n"
		"      --ring-fd FD       shared-memory sample ring set up by wakeprobe\n"
		"  -h, --help             this text\n"
		"\n"
		"Example: %s --samples 10000 --interval-us 500 --cpus 0,1\n",
		name, name, summary, WL_DEFAULT_SAMPLES, WL_DEFAULT_INTERVAL_US, name);
}

static void __attribute__((noreturn, format(printf, 2, 3)))
wl_usage_error(const char *name, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see --help)\n");
	exit(2);
}

/* wl_default_cpus - the first two CPUs this process may run on */
static int wl_default_cpus(int *waker_cpu, int *wakee_cpu)
{
	cpu_set_t allowed;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return -errno;
	return cpus__first_two(&allowed, waker_cpu, wakee_cpu);
}

static int wl_map_ring(struct wl_run *run)
{
	struct wp_ring_header *hdr;
	struct stat st;
	void *mem;

	if (fstat(run->opt.ring_fd, &st))
		return -errno;
	if ((uint64_t)st.st_size < sizeof(struct wp_ring))
		return -EINVAL;
	mem = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, run->opt.ring_fd, 0);
	if (mem == MAP_FAILED)
		return -errno;
	hdr = mem;
	if (hdr->magic != WP_RING_MAGIC || hdr->version != WP_RING_VERSION ||
	    hdr->slot_size != sizeof(struct wp_sample) ||
	    (hdr->nr_slots & (hdr->nr_slots - 1)) || !hdr->nr_slots ||
	    wp_ring_bytes(hdr->nr_slots) > (uint64_t)st.st_size) {
		munmap(mem, st.st_size);
		return -EPROTO;
	}
	run->ring = mem;
	run->ring_bytes = st.st_size;
	close(run->opt.ring_fd);
	return 0;
}

int wl_init(struct wl_run *run, const char *name, const char *summary, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "samples", required_argument, NULL, 'n' },
		{ "interval-us", required_argument, NULL, 'i' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "ring-fd", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	bool cpus_given = false;
	uint64_t v;
	int opt, err;

	memset(run, 0, sizeof(*run));
	run->name = name;
	run->opt.samples = WL_DEFAULT_SAMPLES;
	run->opt.interval_us = WL_DEFAULT_INTERVAL_US;
	run->opt.ring_fd = -1;
	run->notify_fd = -1;
	run->wait_fd = -1;
	histogram__init(&run->total_cycles);
	tsc_clock__init(&run->clock);

	opterr = 0;	/* one line per mistake: ours, naming the option */
	while ((opt = getopt_long(argc, argv, ":n:i:c:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			if (parse__u64(optarg, 1, WL_MAX_SAMPLES, &run->opt.samples))
				wl_usage_error(name, "--samples wants a whole number from 1 to %llu, not '%s'",
					       WL_MAX_SAMPLES, parse__shown(optarg));
			break;
		case 'i':
			if (parse__u64(optarg, 0, WL_MAX_INTERVAL_US, &run->opt.interval_us))
				wl_usage_error(name, "--interval-us wants microseconds from 0 to %llu, not '%s'",
					       WL_MAX_INTERVAL_US, parse__shown(optarg));
			break;
		case 'c':
			err = parse__cpu_pair(optarg, nr_cpus, &run->opt.waker_cpu, &run->opt.wakee_cpu);
			if (err)
				wl_usage_error(name, "--cpus wants two different CPUs below %d as A,B, not '%s'",
					       nr_cpus, parse__shown(optarg));
			cpus_given = true;
			break;
		case 'r':
			if (parse__u64(optarg, 0, INT32_MAX, &v))
				wl_usage_error(name, "--ring-fd wants a file descriptor, not '%s'",
					       parse__shown(optarg));
			run->opt.ring_fd = (int)v;
			break;
		case 'h':
			wl_usage(stdout, name, summary);
			exit(0);
		case ':':
			wl_usage_error(name, "%s needs a value", parse__shown(argv[optind - 1]));
		default:
			wl_usage_error(name, "unknown option '%s'", parse__shown(argv[optind - 1]));
		}
	}
	if (optind < argc)
		wl_usage_error(name, "unexpected argument '%s'", parse__shown(argv[optind]));
	if (!cpus_given && wl_default_cpus(&run->opt.waker_cpu, &run->opt.wakee_cpu))
		wl_usage_error(name, "needs two CPUs it may run on; this process may use fewer");

	if (run->opt.ring_fd >= 0) {
		err = wl_map_ring(run);
		if (err) {
			fprintf(stderr, "%s: --ring-fd %d is not a wakeprobe sample ring: %s\n",
				name, run->opt.ring_fd, strerror(-err));
			exit(2);
		}
	} else {
		err = tsc_clock__calibrate(&run->clock, 3, 2000);
		if (err) {
			fprintf(stderr, "%s: TSC calibration failed: %s\n", name, strerror(-err));
			exit(1);
		}
	}
	return 0;
}

int wl_pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

void wl_set_roles(struct wl_run *run, uint32_t waker_tid, uint32_t wakee_tid)
{
	struct wp_ring_header *hdr;

	run->pending.waker_tid = waker_tid;
	run->pending.wakee_tid = wakee_tid;
	if (!run->ring)
		return;
	hdr = &run->ring->hdr;
	snprintf(hdr->workload, sizeof(hdr->workload), "%s", run->name);
	hdr->waker_tid = waker_tid;
	hdr->wakee_tid = wakee_tid;
	hdr->waker_cpu = run->opt.waker_cpu;
	hdr->wakee_cpu = run->opt.wakee_cpu;
	hdr->notify_fd = run->notify_fd;
	hdr->wait_fd = run->wait_fd;
	hdr->interval_ns = run->opt.interval_us * 1000;
	hdr->samples_planned = run->opt.samples;
}

void wl_start(struct wl_run *run)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	run->next_deadline_ns = (uint64_t)now.tv_sec * 1000000000ull + now.tv_nsec;
	if (run->ring)
		__atomic_store_n(&run->ring->hdr.state, WP_RING_RUNNING, __ATOMIC_RELEASE);
}

/* wl_publish - hand the completed sample in flight to the sink */
static void wl_publish(struct wl_run *run)
{
	struct wp_ring *ring = run->ring;
	struct timespec pause = { .tv_nsec = 20000 };
	uint64_t head;

	run->published++;
	if (!ring) {
		histogram__add(&run->total_cycles, run->pending.tsc_woken - run->pending.tsc_notify);
		return;
	}
	head = ring->hdr.head;
	/* back-pressure: a slow reader delays the next sample, it never loses one */
	while (head - __atomic_load_n(&ring->hdr.tail, __ATOMIC_ACQUIRE) >= ring->hdr.nr_slots)
		nanosleep(&pause, NULL);
	ring->slots[head & (ring->hdr.nr_slots - 1)] = run->pending;
	__atomic_store_n(&ring->hdr.head, head + 1, __ATOMIC_RELEASE);
}

static void wl_wait_acked(struct wl_run *run, uint64_t seq)
{
	while (__atomic_load_n(&run->acked, __ATOMIC_ACQUIRE) < seq)
		cpu_relax();
}

static void wl_pace(struct wl_run *run)
{
	uint64_t interval_ns = run->opt.interval_us * 1000, now_ns;
	struct timespec ts;

	if (!interval_ns)
		return;
	run->next_deadline_ns += interval_ns;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now_ns = (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
	/* running late: start now rather than firing a burst to catch up */
	if (run->next_deadline_ns <= now_ns) {
		run->next_deadline_ns = now_ns;
		return;
	}
	ts.tv_sec = run->next_deadline_ns / 1000000000ull;
	ts.tv_nsec = run->next_deadline_ns % 1000000000ull;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

void wl_before_notify(struct wl_run *run, uint64_t seq)
{
	if (seq > 1) {
		wl_wait_acked(run, seq - 1);
		wl_publish(run);
	}
	run->pending.flags = 0;
	wl_pace(run);
}

static double cycles_to_us(const struct wl_run *run, uint64_t cycles)
{
	return tsc_clock__cycles_to_ns(&run->clock, (int64_t)cycles) / 1000.0;
}

int wl_finish(struct wl_run *run)
{
	const struct histogram *h = &run->total_cycles;
	struct tsc_pair pair;

	wl_wait_acked(run, run->opt.samples);
	wl_publish(run);
	if (run->ring) {
		__atomic_store_n(&run->ring->hdr.state, WP_RING_DONE, __ATOMIC_RELEASE);
		munmap(run->ring, run->ring_bytes);
		run->ring = NULL;
		return 0;
	}
	if (tsc_clock__read_pair(&pair) == 0)
		tsc_clock__add_pair(&run->clock, &pair);
	printf("%s: %llu wakeups, waker CPU %d -> wakee CPU %d, interval %llu us, TSC %.1f MHz\n",
	       run->name, (unsigned long long)h->count, run->opt.waker_cpu, run->opt.wakee_cpu,
	       (unsigned long long)run->opt.interval_us, tsc_clock__mhz(&run->clock));
	printf("notify -> woken (us): min %.3f  median %.3f  p99 %.3f  max %.3f\n",
	       cycles_to_us(run, h->min), cycles_to_us(run, histogram__percentile(h, 50)),
	       cycles_to_us(run, histogram__percentile(h, 99)), cycles_to_us(run, h->max));
	return 0;
}

int wl_fail(struct wl_run *run, const char *fmt, ...)
{
	char msg[sizeof(run->ring->hdr.error)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", run->name, msg);
	if (run->ring) {
		memcpy(run->ring->hdr.error, msg, sizeof(msg));
		__atomic_store_n(&run->ring->hdr.state, WP_RING_FAILED, __ATOMIC_RELEASE);
	}
	return 1;
}

/* the wakee thread of wl_main() and what it shares with the waker */
struct wl_wakee {
	const struct wl_path *path;
	struct wl_run *run;
	pthread_barrier_t ready;
	uint32_t tid;
	int err;		/* -errno: set up before the barrier, or the last failed wait */
};

static void *wl_wakee_main(void *arg)
{
	struct wl_wakee *wakee = arg;
	const struct wl_path *path = wakee->path;
	struct wl_run *run = wakee->run;
	uint64_t seq;
	int err;

	wakee->err = wl_pin_self(run->opt.wakee_cpu);
	if (!wakee->err && path->wakee_setup)
		wakee->err = path->wakee_setup(run, path->state);
	wakee->tid = gettid();
	pthread_barrier_wait(&wakee->ready);
	if (wakee->err)
		return NULL;

	for (seq = 1; seq <= run->opt.samples; seq++) {
		err = path->wait(run, path->state, seq);
		if (err)
			wakee->err = err;
	}
	return NULL;
}

int wl_main(const struct wl_path *path, int argc, char **argv)
{
	/* static: a failure returns with the wakee still running on both, until exit() */
	static struct wl_run run;
	static struct wl_wakee wakee;
	pthread_t thread;
	uint64_t seq;
	int err;

	wl_init(&run, path->name, path->summary, argc, argv);
	wakee.path = path;
	wakee.run = &run;

	err = path->setup ? path->setup(&run, path->state) : 0;
	if (err)
		return err;
	err = wl_pin_self(run.opt.waker_cpu);
	if (err)
		return wl_fail(&run, "cannot pin the waker to CPU %d: %s", run.opt.waker_cpu, strerror(-err));
	pthread_barrier_init(&wakee.ready, NULL, 2);
	err = pthread_create(&thread, NULL, wl_wakee_main, &wakee);
	if (err)
		return wl_fail(&run, "pthread_create: %s", strerror(err));
	pthread_barrier_wait(&wakee.ready);
	if (wakee.err && path->wakee_setup)
		return wl_fail(&run, "cannot set up the wakee on CPU %d: %s", run.opt.wakee_cpu,
			       strerror(-wakee.err));
	if (wakee.err)
		return wl_fail(&run, "cannot pin the wakee to CPU %d: %s", run.opt.wakee_cpu,
			       strerror(-wakee.err));

	wl_set_roles(&run, gettid(), wakee.tid);
	wl_start(&run);
	for (seq = 1; seq <= run.opt.samples; seq++) {
		wl_before_notify(&run, seq);
		err = path->notify(&run, path->state, seq);
		if (err)
			return err;
	}
	err = wl_finish(&run);
	pthread_join(thread, NULL);
	if (wakee.err)
		return wl_fail(&run, "%s: %s", path->wait_error, strerror(-wakee.err));
	pthread_barrier_destroy(&wakee.ready);
	if (path->teardown)
		path->teardown(path->state);
	return err;
}
