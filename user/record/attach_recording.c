// SPDX-License-Identifier: GPL-2.0
/* attach_recording.c - an attach run's targets and end to and from ATTACH_BEGIN and ATTACH_END */
#include <stdio.h>
#include <string.h>
#include "attach_recording.h"
#include "recorder.h"
#include "run_recording.h"

_Static_assert(sizeof(((struct attach_session_result *)0)->command_exit) == REC_EXIT_LEN, "ATTACH_END's exit text");
_Static_assert(sizeof(((struct rec_attach_begin *)0)->kernel) == sizeof(((struct run_meta *)0)->kernel),
	       "ATTACH_BEGIN's uname fields");
_Static_assert(sizeof(((struct wp_counters *)0)->dropped) <= sizeof(((struct rec_attach_end *)0)->dropped),
	       "ATTACH_END carries one drop counter per event type");

static void copy_string(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src);
}

void attach_recording__encode_begin(const struct attach_session_opts *o, const struct attach_session_result *res,
				    struct rec_attach_begin *b)
{
	const struct run_meta *m = &res->meta;
	size_t used = 0;

	/* every byte is written: padding and the ends of the strings too */
	memset(b, 0, sizeof(*b));
	b->nr_pids = o->nr_pids < REC_MAX_PIDS ? o->nr_pids : REC_MAX_PIDS;
	if (b->nr_pids)
		memcpy(b->pids, o->pids, b->nr_pids * sizeof(b->pids[0]));
	for (; o->argv && o->argv[b->nr_args]; b->nr_args++) {
		const char *arg = o->argv[b->nr_args];
		size_t n = strlen(arg);

		/* the first that does not fit ends the list: those kept are in order and whole ... */
		if (b->nr_args_kept != b->nr_args)
			continue;
		/* ... but for the command's name, which a run always has, cut if it must be */
		if (!b->nr_args && n >= sizeof(b->args))
			n = sizeof(b->args) - 1;
		if (used + n + 1 > sizeof(b->args))
			continue;
		memcpy(b->args + used, arg, n);
		used += n + 1;		/* its NUL is there: memset */
		b->nr_args_kept++;
	}
	b->ringbuf_bytes = o->ringbuf_bytes;
	b->duration_ms = o->duration_ms;
	b->timeout_ms = o->timeout_ms;
	b->flags = (o->syscall_phases ? 0 : REC_ATTACH_UNTIMED) | (o->lean ? REC_ATTACH_LEAN : 0) |
		   (o->lean_flight_adaptive ? REC_ATTACH_ADAPTIVE : 0) |
		   (o->lean_softirqs ? REC_ATTACH_SOFTIRQS : 0) | (o->chains ? REC_ATTACH_CHAINS : 0);
	b->started_unix_ns = m->started_unix_ns;
	b->trace_start_ns = res->trace_start_ns;
	b->nr_cpus = m->nr_cpus;
	copy_string(b->version, sizeof(b->version), m->version);
	copy_string(b->kernel, sizeof(b->kernel), m->kernel);
	copy_string(b->machine, sizeof(b->machine), m->machine);
	copy_string(b->hostname, sizeof(b->hostname), m->hostname);
}

void attach_recording__decode_begin(const struct rec_attach_begin *b, struct attach_targets *t,
				    struct attach_session_result *res)
{
	struct run_meta *m = &res->meta;
	const char *arg;

	memset(t, 0, sizeof(*t));
	memcpy(t->pids, b->pids, sizeof(t->pids));
	memcpy(t->args, b->args, sizeof(t->args));
	t->nr_args = b->nr_args;
	/* the reader checked that args[] holds nr_args_kept terminated strings */
	arg = t->args;
	for (uint32_t i = 0; i < b->nr_args_kept; i++) {
		t->argv[i] = (char *)arg;
		arg += strlen(arg) + 1;
	}
	t->opts = (struct attach_session_opts){
		.pids = b->nr_pids ? t->pids : NULL,
		.nr_pids = b->nr_pids,
		.argv = b->nr_args_kept ? t->argv : NULL,
		.duration_ms = b->duration_ms,
		.timeout_ms = b->timeout_ms,
		.ringbuf_bytes = b->ringbuf_bytes,
		.syscall_phases = !(b->flags & REC_ATTACH_UNTIMED),
		.lean = b->flags & REC_ATTACH_LEAN,
		.lean_flight_adaptive = b->flags & REC_ATTACH_ADAPTIVE,
		.lean_softirqs = b->flags & REC_ATTACH_SOFTIRQS,
		.chains = b->flags & REC_ATTACH_CHAINS,
	};

	memset(m, 0, sizeof(*m));
	copy_string(m->version, sizeof(m->version), b->version);
	copy_string(m->kernel, sizeof(m->kernel), b->kernel);
	copy_string(m->machine, sizeof(m->machine), b->machine);
	copy_string(m->hostname, sizeof(m->hostname), b->hostname);
	m->nr_cpus = b->nr_cpus;
	m->started_unix_ns = b->started_unix_ns;
	res->trace_start_ns = b->trace_start_ns;
	host_steal__init(&res->steal, HOST_STEAL_ALL_CPUS, HOST_STEAL_ALL_CPUS);
}

void attach_recording__encode_end(const struct attach_session_result *res, struct rec_attach_end *e)
{
	memset(e, 0, sizeof(*e));
	e->trace_end_ns = res->trace_end_ns;
	e->drops_total = res->drops_total;
	e->missed_runs = res->missed_runs;
	memcpy(e->dropped, res->counters.dropped, sizeof(res->counters.dropped));
	e->tracked_full = res->counters.tracked_full;
	e->command_pid = (int32_t)res->command_pid;
	e->command_status = res->command_status;
	e->targets_exited = res->targets_exited;
	e->command_exited = res->command_exited;
	e->interrupted = res->interrupted;
	e->stop_signal = res->interrupted ? (uint8_t)res->stop_signal : 0;
	e->others_stopped = res->others_stopped;
	e->timed_out = res->timed_out;
	e->duration_reached = res->duration_reached;
	copy_string(e->command_exit, sizeof(e->command_exit), res->command_exit);
	run_recording__encode_steal(&res->steal, &e->steal);
	run_recording__encode_cost(&res->cost, &e->cost);
	run_recording__encode_lean(&res->lean, res->lean_flight_ns, &e->lean);
	e->descendants = res->descendants;
}

void attach_recording__decode_end(const struct rec_attach_end *e, struct attach_session_result *res)
{
	res->trace_end_ns = e->trace_end_ns;
	res->drops_total = e->drops_total;
	res->missed_runs = e->missed_runs;
	memcpy(res->counters.dropped, e->dropped, sizeof(res->counters.dropped));
	res->counters.tracked_full = e->tracked_full;
	res->command_pid = (pid_t)e->command_pid;
	res->command_status = e->command_status;
	res->targets_exited = e->targets_exited;
	res->command_exited = e->command_exited;
	res->interrupted = e->interrupted;
	res->stop_signal = e->stop_signal;
	res->others_stopped = e->others_stopped;
	res->timed_out = e->timed_out;
	res->duration_reached = e->duration_reached;
	run_recording__decode_steal(&e->steal, &res->steal);
	run_recording__decode_cost(&e->cost, &res->cost);
	copy_string(res->command_exit, sizeof(res->command_exit), e->command_exit);
	run_recording__decode_lean(&e->lean, &res->lean, res->lean_flight_ns);
	res->descendants = e->descendants;
}

/* the tap: each input of an attach run's analysis, written down as the record that replays it */

static void tap_begin(void *w, const struct attach_session_opts *targets, const struct attach_session_result *res)
{
	struct rec_attach_begin b;

	attach_recording__encode_begin(targets, res, &b);
	recorder__write(w, REC_ATTACH_BEGIN, &b, sizeof(b));
}

static void tap_fd_kind(void *w, uint32_t tgid, int fd, enum fd_kind kind)
{
	struct rec_fd_kind r = { .tgid = tgid, .fd = fd, .kind = kind };

	recorder__write(w, REC_FD_KIND, &r, sizeof(r));
}

static void tap_event(void *w, const struct wp_event *e)
{
	recorder__write(w, REC_EVENT, e, sizeof(*e));
}

static void tap_advance(void *w, uint64_t complete_ns, uint64_t drops)
{
	struct rec_advance adv = { .complete_ns = complete_ns, .drops = drops };

	recorder__write(w, REC_ADVANCE, &adv, sizeof(adv));
}

static void tap_end(void *w, const struct attach_session_result *res)
{
	struct rec_attach_end e;

	attach_recording__encode_end(res, &e);
	recorder__write(w, REC_ATTACH_END, &e, sizeof(e));
}

const struct attach_analysis_tap attach_recording_tap = {
	.begin = tap_begin,
	.fd_kind = tap_fd_kind,
	.event = tap_event,
	.advance = tap_advance,
	.end = tap_end,
};
