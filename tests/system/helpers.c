// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "collector.h"
#include "helpers.h"

static void check_sample(const struct sample_result *r, void *ctx)
{
	struct checks *c = ctx;
	int64_t sum = 0, diff;
	int k;

	c->seen++;
	if (c->hook)
		c->hook(r, c->hook_ctx);
	if (r->sample.seq != c->last_seq + 1)
		c->seq_out_of_order++;
	c->last_seq = r->sample.seq;
	c->waiter_syscalls += r->waiter_syscalls;
	if (r->label == LABEL_MISSING_EVENT && !c->first_missing.sample.seq)
		c->first_missing = *r;
	if (r->label != LABEL_COMPLETE)
		return;
	c->complete++;
	if (!r->phased)
		return;
	if (!c->phased++)
		c->first_phased = *r;
	c->last_phased = *r;
	for (k = 0; k < NR_PHASES; k++) {
		if (r->phase_ns[k] < 0)
			c->negative_phase++;
		sum += r->phase_ns[k];
	}
	diff = llabs(sum - r->total_ns);
	if (diff > c->worst_sum_error)
		c->worst_sum_error = diff;
	if (diff > 50)
		c->sum_off++;
}

void skip_unless_traceable(void)
{
	char why[256];

	if (collector__check_access(why, sizeof(why)))
		cr_skip_test("needs root and BTF: %s", why);
}

struct test_session test_session(const char *name, bool trace, uint64_t samples, uint64_t interval_us,
				 struct checks *c)
{
	struct test_session s = {
		.cfg = {
			.workload = catalog__find(name),
			.samples = samples,
			.interval_us = interval_us,
			.waker_cpu = 0,
			.wakee_cpu = 1,
			.traced = trace,
			.ringbuf_bytes = 8 << 20,
		},
		.opts.analysis = {
			.on_sample = check_sample,
			.on_sample_ctx = c,
		},
	};

	cr_assert_not_null(s.cfg.workload, "no workload '%s' in the catalog", name);
	return s;
}

int run_workload(const char *name, bool trace, uint64_t samples, uint64_t interval_us, struct checks *c,
		 struct run_result *res, char msg[256])
{
	struct test_session s = test_session(name, trace, samples, interval_us, c);

	return session__run(&s.cfg, &s.opts, res, msg, 256);
}

const char *wakeprobe_path(void)
{
	const char *p = getenv("WAKEPROBE");

	if (!p)
		cr_skip_test("set WAKEPROBE to the binary (make test does)");
	return p;
}

void read_to_end(int fd, char *buf, size_t len)
{
	size_t n = 0;
	ssize_t r;

	while (n + 1 < len && (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
}

uint64_t labelled(const struct aggregate *a)
{
	uint64_t n = 0;
	int l;

	for (l = 0; l < NR_LABELS; l++)
		if (l != LABEL_COMPLETE)
			n += a->by_label[l];
	return n;
}

const char *describe_missing(uint64_t n, const struct sample_result *r)
{
	static char buf[512];
	int k, len;

	len = snprintf(buf, sizeof(buf), "%lu samples miss a bounding event; first: seq %lu lacks '%s', "
		       "t_notify %lu t_woken %lu, marks:", n, r->sample.seq, wakeup__mark_name(r->missing),
		       r->t_notify_ns, r->t_woken_ns);
	for (k = 0; k < (int)r->missing && len < (int)sizeof(buf); k++)
		len += snprintf(buf + len, sizeof(buf) - len, " %lu", r->mark_ns[k]);
	return buf;
}

pid_t spawn_piped(char *const args[], const struct child_setup *setup, int *out, int *err)
{
	int o[2], e[2];
	pid_t pid;

	cr_assert_eq(pipe2(o, O_CLOEXEC), 0);
	cr_assert_eq(pipe2(e, O_CLOEXEC), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		dup2(o[1], 1);
		dup2(e[1], 2);
		if (setup && setup->uid >= 0 && (setgid(setup->uid) || setuid(setup->uid)))
			_exit(99);
		if (setup && setup->cpus && sched_setaffinity(0, sizeof(*setup->cpus), setup->cpus))
			_exit(99);
		execv(args[0], args);
		_exit(98);
	}
	close(o[1]);
	close(e[1]);
	*out = o[0];
	*err = e[0];
	return pid;
}
