// SPDX-License-Identifier: GPL-2.0
/* run_config.c - a run's description to and from the record file's RUN_BEGIN */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "run_config.h"

static void copy_string(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

void run_config__encode(const struct run_config *cfg, const struct run_meta *meta, uint64_t trace_start_ns,
			struct rec_run_begin *b)
{
	const struct workload_desc *wl = cfg->workload;

	/* every byte is written: padding and the ends of the strings too */
	memset(b, 0, sizeof(*b));
	copy_string(b->workload, sizeof(b->workload), wl->name);
	copy_string(b->summary, sizeof(b->summary), wl->summary);
	b->notify_syscalls = wl->notify_syscalls;
	b->wait_syscalls = wl->wait_syscalls;
	b->wait_end = wl->wait_end;
	b->match_fd = !!wl->match_fd;
	b->user_only = wl->user_only;
	b->notify_optional = wl->notify_optional;
	b->new_task = wl->new_task;
	b->traced = cfg->traced;
	b->samples = cfg->samples;
	b->interval_us = cfg->interval_us;
	b->waker_cpu = cfg->waker_cpu;
	b->wakee_cpu = cfg->wakee_cpu;
	b->ringbuf_bytes = cfg->ringbuf_bytes;
	b->nr_cpus = meta->nr_cpus;
	copy_string(b->version, sizeof(b->version), meta->version);
	copy_string(b->kernel, sizeof(b->kernel), meta->kernel);
	copy_string(b->machine, sizeof(b->machine), meta->machine);
	copy_string(b->hostname, sizeof(b->hostname), meta->hostname);
	b->started_unix_ns = meta->started_unix_ns;
	b->trace_start_ns = trace_start_ns;
}

void run_config__decode(const struct rec_run_begin *b, struct run_config *cfg, struct recorded_workload *wl,
			struct run_meta *meta, uint64_t *trace_start_ns)
{
	memset(wl, 0, sizeof(*wl));
	copy_string(wl->name, sizeof(wl->name), b->workload);
	copy_string(wl->summary, sizeof(wl->summary), b->summary);
	wl->desc.name = wl->name;
	wl->desc.summary = wl->summary;
	wl->desc.notify_syscalls = b->notify_syscalls;
	wl->desc.wait_syscalls = b->wait_syscalls;
	wl->desc.match_fd = b->match_fd;
	wl->desc.wait_end = b->wait_end;
	wl->desc.user_only = b->user_only;
	wl->desc.notify_optional = b->notify_optional;
	wl->desc.new_task = b->new_task;

	*cfg = (struct run_config){
		.workload = &wl->desc,
		.samples = b->samples,
		.interval_us = b->interval_us,
		.waker_cpu = b->waker_cpu,
		.wakee_cpu = b->wakee_cpu,
		.traced = b->traced,
		.ringbuf_bytes = b->ringbuf_bytes,
	};

	memset(meta, 0, sizeof(*meta));
	copy_string(meta->version, sizeof(meta->version), b->version);
	copy_string(meta->kernel, sizeof(meta->kernel), b->kernel);
	copy_string(meta->machine, sizeof(meta->machine), b->machine);
	copy_string(meta->hostname, sizeof(meta->hostname), b->hostname);
	meta->nr_cpus = b->nr_cpus;
	meta->started_unix_ns = b->started_unix_ns;
	*trace_start_ns = b->trace_start_ns;
}

void run_config__meta_now(struct run_meta *m)
{
	struct utsname u;
	struct timespec ts;

	snprintf(m->version, sizeof(m->version), "%s", WAKEPROBE_VERSION);
	if (uname(&u) == 0) {
		snprintf(m->kernel, sizeof(m->kernel), "%s", u.release);
		snprintf(m->machine, sizeof(m->machine), "%s", u.machine);
		snprintf(m->hostname, sizeof(m->hostname), "%s", u.nodename);
	}
	m->nr_cpus = (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
	clock_gettime(CLOCK_REALTIME, &ts);
	m->started_unix_ns = (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}
