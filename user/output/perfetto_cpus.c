// SPDX-License-Identifier: GPL-2.0
/*
 * perfetto_cpus.c - the CPUs on the timeline: a thread per CPU the events
 * touched, with the tasks, interrupts, softirqs and idle periods between
 * the events that bound them, and instants for the wakes and migrations of
 * the tracked tasks. A slice is written once its end is known; until then
 * it is kept in the state of its CPU, a fixed stack of open slices.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "explain.h"
#include "perfetto_cpus.h"
#include "perfetto_trace.h"

uint32_t perfetto_cpus__thread(struct perfetto_timeline *t, uint32_t cpu)
{
	struct perfetto_cpus *cs = &t->cpus;
	uint32_t pid = perfetto_trace__cpus_pid(t), tid = pid + 1 + cpu;
	char name[32];

	if (!cs->process_named) {
		snprintf(name, sizeof(name), "CPUs (run %u)", t->run.id);
		perfetto_trace__name_process(t, pid, name, 2 * t->run.id + 1);
		cs->process_named = true;
	}
	if (!(cs->cpu_named[cpu / 64] & (1ull << (cpu % 64)))) {
		cs->cpu_named[cpu / 64] |= 1ull << (cpu % 64);
		snprintf(name, sizeof(name), "CPU %u", cpu);
		perfetto_trace__name_thread(t, pid, tid, name, cpu);
	}
	return tid;
}

/* draw - open slice @o of CPU @cpu ends at @end; @closing is the switch that ended a task */
static void draw(struct perfetto_timeline *t, uint32_t cpu, const struct tl_open *o, uint64_t end,
		 const struct wp_event *closing)
{
	struct tl_slice s = {
		.pid = perfetto_trace__cpus_pid(t),
		.tid = perfetto_cpus__thread(t, cpu),
		.start_ns = o->start_ns,
		.end_ns = end,
	};
	struct json_writer *w;
	char name[48], tid[24];

	s.name = name;
	switch (o->kind) {
	case TL_TASK:
		if (o->tid)
			snprintf(name, sizeof(name), "%.16s %s", o->name, wakeup__pid(o->tid, tid, sizeof(tid)));
		else
			snprintf(name, sizeof(name), "idle");
		s.cat = "sched";
		w = perfetto_trace__slice_begin(t, &s);
		json_writer__put_uint(w, "tid", o->tid);
		json_writer__put_uint(w, "tgid", o->tgid);
		json_writer__put_uint(w, "prio", o->prio);
		if (o->tid && closing) {
			/* a task still runnable when switched out was preempted */
			json_writer__put_str(w, "left",
				wp_switch_slept(closing->sw.prev_state, closing->sw.preempt) ? "slept" : "preempted");
			json_writer__put_uint(w, "prev_state", closing->sw.prev_state);
		}
		break;
	case TL_IDLE:
		snprintf(name, sizeof(name), "cpu_idle");
		s.cat = "idle";
		w = perfetto_trace__slice_begin(t, &s);
		if (o->nr >= 0)
			json_writer__put_int(w, "state", o->nr);
		break;
	default:
		if (o->irq_kind == WP_IRQ_HARD && o->name[0])
			snprintf(name, sizeof(name), "irq %d %.16s", o->nr, o->name);
		else if (o->irq_kind == WP_IRQ_HARD)
			snprintf(name, sizeof(name), "irq %d", o->nr);
		else if (o->irq_kind == WP_IRQ_SOFT)
			snprintf(name, sizeof(name), "softirq %s", wakeup__softirq_name(o->nr));
		else
			snprintf(name, sizeof(name), "%s", wakeup__irq_kind_name(o->irq_kind));
		s.cat = "irq";
		w = perfetto_trace__slice_begin(t, &s);
		json_writer__put_str(w, "kind", wakeup__irq_kind_name(o->irq_kind));
		json_writer__put_int(w, "nr", o->nr);
		break;
	}
	perfetto_trace__event_end(w);
	t->run.cpu_slices++;
}

/* advance - move CPU @c to @ts_ns; an event older than what the CPU has shown is late and skipped */
static bool advance(struct perfetto_timeline *t, struct tl_cpu *c, uint64_t ts_ns)
{
	if (ts_ns < c->last_ns) {
		t->run.late++;
		return false;
	}
	c->last_ns = ts_ns;
	return true;
}

static struct tl_open *push(struct perfetto_timeline *t, struct tl_cpu *c, enum tl_kind kind, uint64_t start_ns)
{
	struct tl_open *o;

	if (c->depth == TL_DEPTH) {
		t->run.too_deep++;
		return NULL;
	}
	o = &c->open[c->depth++];
	memset(o, 0, sizeof(*o));
	o->kind = kind;
	o->start_ns = start_ns;
	return o;
}

/* drop_from - the open slices from @depth up never saw their end: forget them */
static void drop_from(struct perfetto_timeline *t, struct tl_cpu *c, uint32_t depth)
{
	if (c->depth > depth) {
		t->run.unclosed += c->depth - depth;
		c->depth = depth;
	}
}

/* innermost - depth + 1 of the innermost open slice of @kind, 0 if none */
static uint32_t innermost(const struct tl_cpu *c, enum tl_kind kind)
{
	uint32_t i;

	for (i = c->depth; i > 0; i--)
		if (c->open[i - 1].kind == kind)
			return i;
	return 0;
}

static void on_switch(struct perfetto_timeline *t, struct tl_cpu *c, uint32_t cpu, const struct wp_event *e)
{
	struct tl_open *o;

	if (!advance(t, c, e->ts_ns))
		return;
	if (c->depth && c->open[0].kind == TL_TASK) {
		drop_from(t, c, 1);
		/*
		 * The switch names the task leaving. If that is not the one seen
		 * coming in, the CPU was not watched in between and what ran
		 * there is unknown: no slice is drawn across that gap.
		 */
		if (c->open[0].tid == e->sw.prev_tid)
			draw(t, cpu, &c->open[0], e->ts_ns, e);
		else
			t->run.unwatched++;
		c->depth = 0;
	} else {
		drop_from(t, c, 0);
	}
	o = push(t, c, TL_TASK, e->ts_ns);
	o->tid = e->sw.next_tid;
	o->tgid = e->sw.next_tgid;
	o->prio = e->sw.next_prio;
	memcpy(o->name, e->sw.next_comm, sizeof(o->name));
}

static void on_irq(struct perfetto_timeline *t, struct tl_cpu *c, uint32_t cpu, const struct wp_event *e)
{
	struct tl_open *o;
	uint32_t i;

	if (!advance(t, c, e->ts_ns))
		return;
	if (!e->irq.exit) {
		o = push(t, c, TL_IRQ, e->ts_ns);
		if (o) {
			o->irq_kind = (uint8_t)e->irq.kind;
			o->nr = e->irq.nr;
			memcpy(o->name, e->irq.name, sizeof(o->name));
		}
		return;
	}
	/* the innermost entry of this interrupt; handlers nest in handlers only, never in a task or idle above */
	for (i = c->depth; i > 0 && c->open[i - 1].kind == TL_IRQ; i--) {
		o = &c->open[i - 1];
		if (o->irq_kind == e->irq.kind && o->nr == e->irq.nr) {
			drop_from(t, c, i);
			draw(t, cpu, o, e->ts_ns, NULL);
			c->depth = i - 1;
			return;
		}
	}
	t->run.unmatched++;
}

static void on_idle_enter(struct perfetto_timeline *t, struct tl_cpu *c, const struct wp_event *e)
{
	uint32_t i;
	struct tl_open *o;

	if (!advance(t, c, e->ts_ns))
		return;
	/* an idle period still open lost its exit */
	i = innermost(c, TL_IDLE);
	if (i)
		drop_from(t, c, i - 1);
	o = push(t, c, TL_IDLE, e->ts_ns);
	if (o)
		o->nr = (int32_t)e->idle.state;
}

static void on_idle_exit(struct perfetto_timeline *t, struct tl_cpu *c, uint32_t cpu, const struct wp_event *e)
{
	uint64_t since = e->idle.idle_since_ns, seen_until = c->last_ns;
	struct tl_open *o;
	uint32_t i;

	if (!advance(t, c, e->ts_ns))
		return;
	i = innermost(c, TL_IDLE);
	if (i) {
		drop_from(t, c, i);
		draw(t, cpu, &c->open[i - 1], e->ts_ns, NULL);
		c->depth = i - 1;
		return;
	}
	/*
	 * The entry was not seen (the CPU was not watched yet), but the exit
	 * says since when the CPU was idle. That start may be drawn if nothing
	 * on this CPU was seen after it.
	 */
	if (since && since >= seen_until && since <= e->ts_ns) {
		o = push(t, c, TL_IDLE, since);
		if (o) {
			o->nr = -1;
			draw(t, cpu, o, e->ts_ns, NULL);
			c->depth--;
		}
		return;
	}
	t->run.unmatched++;
}

/*
 * on_waking - an instant on the waker's CPU; and when the wake targets an
 * idle CPU, that CPU's idle period opens where the record says it began.
 * The target becomes watched only now, so its entry into idle was not
 * recorded; its exit will be, after the IPIs that the wake sends it, which
 * then nest inside.
 */
static void on_waking(struct perfetto_timeline *t, uint32_t cpu, const struct wp_event *e)
{
	uint64_t since = e->wake.target_idle_since_ns;
	uint32_t target = e->wake.target_cpu;
	struct json_writer *w;
	struct tl_cpu *c;
	struct tl_open *o;
	char name[32];

	snprintf(name, sizeof(name), "sched_waking %u", e->wake.pid);
	w = perfetto_trace__instant_begin(t, name, perfetto_trace__cpus_pid(t), perfetto_cpus__thread(t, cpu),
					  e->ts_ns);
	json_writer__put_uint(w, "pid", e->wake.pid);
	json_writer__put_uint(w, "target_cpu", target);
	if (since && since <= e->ts_ns)
		json_writer__put_uint(w, "target_idle_for_ns", e->ts_ns - since);
	else if (e->wake.target_curr_pid)
		json_writer__put_strn(w, "target_running", e->wake.target_curr_comm, sizeof(e->wake.target_curr_comm));
	perfetto_trace__event_end(w);

	if (!since || since > e->ts_ns || target >= WP_MAX_CPUS || target == cpu)
		return;
	c = &t->cpus.cpu[target];
	if (innermost(c, TL_IDLE) || since < c->last_ns)
		return;
	o = push(t, c, TL_IDLE, since);
	if (o) {
		o->nr = -1;
		c->last_ns = since;
	}
}

static void on_wakeup(struct perfetto_timeline *t, uint32_t cpu, const struct wp_event *e)
{
	struct json_writer *w;
	char name[32];

	snprintf(name, sizeof(name), "sched_wakeup %u", e->wake.pid);
	w = perfetto_trace__instant_begin(t, name, perfetto_trace__cpus_pid(t), perfetto_cpus__thread(t, cpu),
					  e->ts_ns);
	json_writer__put_uint(w, "pid", e->wake.pid);
	json_writer__put_uint(w, "target_cpu", e->wake.target_cpu);
	perfetto_trace__event_end(w);
}

static void on_migrate(struct perfetto_timeline *t, uint32_t cpu, const struct wp_event *e)
{
	struct json_writer *w;
	char name[32];

	snprintf(name, sizeof(name), "migrate %u", e->migrate.pid);
	w = perfetto_trace__instant_begin(t, name, perfetto_trace__cpus_pid(t), perfetto_cpus__thread(t, cpu),
					  e->ts_ns);
	json_writer__put_uint(w, "pid", e->migrate.pid);
	json_writer__put_uint(w, "from_cpu", e->migrate.orig_cpu);
	json_writer__put_uint(w, "to_cpu", e->migrate.dest_cpu);
	perfetto_trace__event_end(w);
}

void perfetto_cpus__begin_run(struct perfetto_cpus *cs)
{
	memset(cs, 0, sizeof(*cs));
}

void perfetto_cpus__event(struct perfetto_timeline *t, const struct wp_event *e)
{
	struct tl_cpu *c;

	t->run.events++;
	if (e->cpu >= WP_MAX_CPUS) {
		t->run.bad_cpu++;
		return;
	}
	c = &t->cpus.cpu[e->cpu];
	switch (e->type) {
	case WP_EV_SWITCH:
		on_switch(t, c, e->cpu, e);
		break;
	case WP_EV_IRQ:
		on_irq(t, c, e->cpu, e);
		break;
	case WP_EV_IDLE_ENTER:
		on_idle_enter(t, c, e);
		break;
	case WP_EV_IDLE_EXIT:
		on_idle_exit(t, c, e->cpu, e);
		break;
	case WP_EV_WAKING:
		on_waking(t, e->cpu, e);
		break;
	case WP_EV_WAKEUP:
		on_wakeup(t, e->cpu, e);
		break;
	case WP_EV_MIGRATE:
		on_migrate(t, e->cpu, e);
		break;
	default:
		/* syscalls and signals bound the phases, drawn with the samples; forks show nothing */
		break;
	}
}
