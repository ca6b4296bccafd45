// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "explain.h"

size_t explain__phase_parts(const struct explanation *x, int k, const struct interval **parts)
{
	size_t n = 0, i, j;

	for (i = 0; i < x->nr_iv; i++)
		if (x->iv[i].phase == k)
			parts[n++] = &x->iv[i];
	/* insertion sort: at most EXPLAIN_MAX_INTERVALS, and equals keep their order */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && parts[j - 1]->dur_ns < parts[j]->dur_ns; j--) {
			const struct interval *t = parts[j];

			parts[j] = parts[j - 1];
			parts[j - 1] = t;
		}
	return n;
}

void explain__describe_interval(const struct interval *iv, char *buf, size_t len)
{
	char pid[24];

	switch (iv->cause) {
	case CAUSE_IDLE:
		snprintf(buf, len, "CPU %u idle", iv->cpu);
		break;
	case CAUSE_IPI:
		snprintf(buf, len, "IPI in flight to CPU %u", iv->cpu);
		break;
	case CAUSE_OTHER_TASK:
		snprintf(buf, len, "'%.16s' pid %s prio %u ran on CPU %u%s", iv->name,
			 wakeup__pid(iv->pid, pid, sizeof(pid)), iv->prio, iv->cpu, !iv->left_known ? "" : iv->preempted ? " (then preempted)" : " (until it slept)");
		break;
	case CAUSE_IRQ:
		if (iv->irq_kind == WP_IRQ_HARD)
			snprintf(buf, len, "irq %d '%.16s' on CPU %u", iv->nr, iv->name, iv->cpu);
		else
			snprintf(buf, len, "%s on CPU %u", wakeup__irq_kind_name(iv->irq_kind), iv->cpu);
		break;
	case CAUSE_SOFTIRQ:
		snprintf(buf, len, "softirq %s on CPU %u", wakeup__softirq_name(iv->nr), iv->cpu);
		break;
	case CAUSE_WAKER_PREEMPTED:
		snprintf(buf, len, "waker off CPU %u, '%.16s' pid %s ran", iv->cpu, iv->name,
			 wakeup__pid(iv->pid, pid, sizeof(pid)));
		break;
	case CAUSE_WAKEE_PREEMPTED:
		snprintf(buf, len, "wakee preempted on CPU %u, '%.16s' pid %s ran", iv->cpu, iv->name,
			 wakeup__pid(iv->pid, pid, sizeof(pid)));
		break;
	case CAUSE_REACQUIRE:
		snprintf(buf, len, "wakee blocked again (the mutex)");
		break;
	case CAUSE_HOST:
		snprintf(buf, len, "host held CPU %u's vCPU", iv->cpu);
		break;
	default:
		snprintf(buf, len, "%s", wakeup__cause_name(iv->cause));
	}
}

/* what one CPU is doing, as far as its events tell */
struct cpu_view {
	int cpu;		/* -1: not in use */
	bool known;		/* the running task is known (set at the start, or by a switch) */
	uint32_t running;	/* tid on the CPU, 0 for the idle task */
	uint16_t prio;
	char comm[WP_TASK_COMM_LEN];
	bool idle;		/* between power:cpu_idle entry and exit */
	int irq_depth;
	uint8_t irq_kind;
	int32_t irq_nr;
	char irq_name[WP_TASK_COMM_LEN];
	int32_t softirq;	/* the vector being run, -1 when none */
	bool ipi_ran;		/* a wake-list or reschedule IPI ran since the wake */
};

/* the wakee after its switch-in, for the time it is off its CPU again */
enum wakee_state {
	WAKEE_RUNNABLE,		/* on its CPU, or preempted: off it is wakee_preempted */
	WAKEE_ASLEEP,		/* blocked again (cond: the mutex): reacquire */
	WAKEE_REWOKEN,		/* woken from that sleep: it waits for its CPU again */
};

/* a stretch the host held a vCPU, as a WP_EV_STEAL record places it */
struct stolen {
	uint64_t start_ns;
	uint64_t end_ns;
	int cpu;
};

#define EXPLAIN_MAX_STOLEN	16

struct attribution {
	struct explanation *x;
	const struct sample_result *r;
	uint64_t bound[NR_PHASES + 1];	/* phase k runs from bound[k] to bound[k + 1] */
	struct cpu_view waker_cpu, target_cpu;
	enum wakee_state wakee;		/* once it has resumed: what a stretch off its CPU is */
	struct stolen stolen[EXPLAIN_MAX_STOLEN];	/* on the two CPUs, in time order per CPU */
	uint32_t nr_stolen;
};

static void view_init(struct cpu_view *v, int cpu)
{
	memset(v, 0, sizeof(*v));
	v->cpu = cpu;
	v->softirq = -1;
}

/*
 * bound_to_waker_cpu - is phase @k bound to the waker's CPU? The notify
 * phases are, and so is wake_enqueue when the waker enqueued the wakee
 * itself (its sched_wakeup ran on the waker's CPU) rather than queueing it
 * for the target
 */
static bool bound_to_waker_cpu(const struct sample_result *r, int k)
{
	return k <= PHASE_NOTIFY_KERNEL || (k == PHASE_WAKE_ENQUEUE && r->wakeup_cpu == r->waking_cpu);
}

uint32_t explain__phase_cpu(const struct sample_result *r, int k)
{
	return bound_to_waker_cpu(r, k) ? r->waking_cpu : r->target_cpu;
}

static bool on_waker_cpu(const struct attribution *a, int k)
{
	return bound_to_waker_cpu(a->r, k);
}

/* the CPU phase @k is bound to */
static struct cpu_view *view_for_phase(struct attribution *a, int k)
{
	return on_waker_cpu(a, k) ? &a->waker_cpu : &a->target_cpu;
}

/*
 * waiting_cause - what keeps a woken wakee from its CPU @v: another task on
 * it, or the CPU's idle exit; CAUSE_UNEXPLAINED when neither
 */
static enum cause waiting_cause(const struct cpu_view *v, uint32_t wakee)
{
	if (v->known && v->running != 0 && v->running != wakee)
		return CAUSE_OTHER_TASK;
	if (v->idle)
		return CAUSE_IDLE;
	return CAUSE_UNEXPLAINED;
}

/* cause_now - what holds @v during phase @k; fills the naming fields of @iv */
static enum cause cause_now(const struct attribution *a, int k, const struct cpu_view *v, struct interval *iv)
{
	const struct sample_result *r = a->r;
	uint32_t waker = r->sample.waker_tid, wakee = r->sample.wakee_tid;

	if (v->irq_depth > 0) {
		iv->irq_kind = v->irq_kind;
		iv->nr = v->irq_nr;
		memcpy(iv->name, v->irq_name, sizeof(iv->name));
		return CAUSE_IRQ;
	}
	if (v->softirq >= 0) {
		iv->irq_kind = WP_IRQ_SOFT;
		iv->nr = v->softirq;
		return CAUSE_SOFTIRQ;
	}
	/*
	 * Name what runs, but the waker on its own CPU's phases, where it is
	 * expected. On the wakee's CPU (both on one CPU in attach mode) a waker
	 * that goes on running is what the wakee waits for, and is named.
	 */
	if (v->known && v->running != wakee && v->running != 0 && (v->running != waker || !on_waker_cpu(a, k))) {
		iv->pid = v->running;
		iv->prio = v->prio;
		memcpy(iv->name, v->comm, sizeof(iv->name));
		if (!iv->name[0] && v->running == waker)
			snprintf(iv->name, sizeof(iv->name), "the waker");
	}
	if (on_waker_cpu(a, k)) {
		if (!v->known)
			return CAUSE_UNEXPLAINED;
		return v->running != waker ? CAUSE_WAKER_PREEMPTED : CAUSE_OWN_WORK;
	}
	switch (k) {
	case PHASE_WAKE_ENQUEUE:
	case PHASE_RUNQ_WAIT: {
		enum cause c = waiting_cause(v, wakee);

		if (c == CAUSE_UNEXPLAINED && k == PHASE_WAKE_ENQUEUE && !v->ipi_ran)
			return CAUSE_IPI;
		/*
		 * Out of idle, the idle task on its way to the wakee: it restarts the
		 * tick and switches (8 us at the median on the test VM, where the
		 * timer writes exit to the host). The scheduler's own work for this
		 * wakeup; a stretch far over its usual length is flagged where a
		 * wakeup is explained (text_workload.c), since the guest cannot tell it
		 * from the host holding the vCPU's thread outside the guest.
		 */
		if (c == CAUSE_UNEXPLAINED && v->known && v->running == 0)
			return CAUSE_OWN_WORK;
		return c;
	}
	default:
		if (!v->known)
			return CAUSE_UNEXPLAINED;
		if (v->running == wakee)
			return CAUSE_OWN_WORK;
		switch (a->wakee) {
		case WAKEE_ASLEEP:
			return CAUSE_REACQUIRE;
		case WAKEE_REWOKEN:
			/* it waits for its CPU as after the first wake */
			return waiting_cause(v, wakee);
		default:
			return CAUSE_WAKEE_PREEMPTED;
		}
	}
}

/* same_part - one cause from one source in one phase: summed into one entry */
static bool same_part(const struct interval *a, const struct interval *b)
{
	return a->cause == b->cause && a->phase == b->phase && a->cpu == b->cpu && a->pid == b->pid &&
	       a->irq_kind == b->irq_kind && a->nr == b->nr;
}

static void add_interval(struct explanation *x, const struct interval *iv)
{
	uint32_t i;

	x->by_cause[iv->cause] += (int64_t)iv->dur_ns;
	x->by_phase_cause[iv->phase][iv->cause] += (int64_t)iv->dur_ns;
	/* the path's own time and the rest are sums: there is nothing to name in them */
	if (iv->cause == CAUSE_UNEXPLAINED || iv->cause == CAUSE_OWN_WORK)
		return;
	/* a task cut in pieces by interrupts is still one task: sum its pieces */
	for (i = 0; i < x->nr_iv; i++) {
		if (same_part(&x->iv[i], iv)) {
			x->iv[i].dur_ns += iv->dur_ns;
			return;
		}
	}
	if (x->nr_iv == EXPLAIN_MAX_INTERVALS) {
		x->more_iv++;
		return;
	}
	x->iv[x->nr_iv++] = *iv;
}

/* attribute_piece - give [lo, hi) of phase @k to what holds its CPU, or to the host */
static void attribute_piece(struct attribution *a, int k, uint64_t lo, uint64_t hi, bool host)
{
	struct interval iv = {};

	if (lo >= hi)
		return;
	iv.start_ns = lo;
	iv.dur_ns = hi - lo;
	iv.phase = (uint8_t)k;
	iv.cpu = (uint16_t)view_for_phase(a, k)->cpu;
	iv.cause = (uint8_t)(host ? CAUSE_HOST : cause_now(a, k, view_for_phase(a, k), &iv));
	add_interval(a->x, &iv);
}

/*
 * attribute - give [from, to) to the causes holding each phase's CPU. Where
 * the host held that vCPU nothing in the guest ran on it, whatever the
 * guest's own state says: those stretches go to the host first.
 */
static void attribute(struct attribution *a, uint64_t from, uint64_t to)
{
	int k;

	for (k = 0; k < NR_PHASES; k++) {
		uint64_t lo = from > a->bound[k] ? from : a->bound[k];
		uint64_t hi = to < a->bound[k + 1] ? to : a->bound[k + 1];
		int cpu = view_for_phase(a, k)->cpu;
		uint32_t i;

		for (i = 0; i < a->nr_stolen && lo < hi; i++) {
			const struct stolen *s = &a->stolen[i];
			uint64_t s_lo = s->start_ns > lo ? s->start_ns : lo;
			uint64_t s_hi = s->end_ns < hi ? s->end_ns : hi;

			if (s->cpu != cpu || s_lo >= s_hi)
				continue;
			attribute_piece(a, k, lo, s_lo, false);
			attribute_piece(a, k, s_lo, s_hi, true);
			lo = s_hi;
		}
		attribute_piece(a, k, lo, hi, false);
	}
}

/*
 * find_stolen - the host's stretches on the sample's two CPUs. A steal
 * record comes with the first record of its CPU after the vCPU ran again,
 * and says how much the clock moved since the CPU's record before: the
 * stretch lies in that silence, and is placed at its end. That is where it
 * is on a vCPU that halted in idle, the common case: the host lets a halted
 * vCPU wait for nothing it owes, and the steal begins at the kick that wakes
 * it. A vCPU taken while it ran may have lost the stretch anywhere in the
 * silence; the phases that silence spans are then right in sum, and each
 * off by at most the silence's length less the stretch.
 */
static void find_stolen(struct attribution *a, const struct wp_event *evs, size_t n)
{
	size_t i;

	for (i = 0; i < n && a->nr_stolen < EXPLAIN_MAX_STOLEN; i++) {
		const struct wp_event *e = &evs[i];
		struct stolen *s;

		if (e->type != WP_EV_STEAL || ((int)e->cpu != a->waker_cpu.cpu && (int)e->cpu != a->target_cpu.cpu))
			continue;
		s = &a->stolen[a->nr_stolen++];
		s->cpu = (int)e->cpu;
		s->end_ns = e->ts_ns;
		s->start_ns = e->ts_ns - e->steal.delta_ns;
		if (e->steal.delta_ns > e->ts_ns || s->start_ns < e->steal.since_ns)
			s->start_ns = e->steal.since_ns;	/* a clock that moved more than the silence: cut to it */
	}
}

/*
 * mark_how_it_left - a task that held the CPU in this sample's intervals
 * left it: preempted (still runnable) or to sleep
 */
static void mark_how_it_left(struct explanation *x, const struct wp_event *e)
{
	uint32_t i;

	for (i = 0; i < x->nr_iv; i++) {
		struct interval *iv = &x->iv[i];

		if (iv->pid != e->sw.prev_tid || iv->cpu != e->cpu || iv->left_known)
			continue;
		iv->left_known = true;
		iv->preempted = !wp_switch_slept(e->sw.prev_state, e->sw.preempt);
	}
}

static void apply(struct attribution *a, struct cpu_view *v, const struct wp_event *e)
{
	uint32_t wakee = a->r->sample.wakee_tid;

	switch (e->type) {
	case WP_EV_SWITCH:
		mark_how_it_left(a->x, e);
		if (e->sw.prev_tid == wakee && e->ts_ns >= a->bound[PHASE_RESUME_KERNEL])
			a->wakee = wp_switch_slept(e->sw.prev_state, e->sw.preempt) ? WAKEE_ASLEEP : WAKEE_RUNNABLE;
		if (e->sw.next_tid == wakee)
			a->wakee = WAKEE_RUNNABLE;
		v->known = true;
		v->running = e->sw.next_tid;
		v->prio = e->sw.next_prio;
		memcpy(v->comm, e->sw.next_comm, sizeof(v->comm));
		break;
	case WP_EV_IRQ:
		if (e->irq.kind == WP_IRQ_SOFT) {
			v->softirq = e->irq.exit ? -1 : e->irq.nr;
			break;
		}
		if (e->irq.exit) {
			if (v->irq_depth > 0)
				v->irq_depth--;
			break;
		}
		v->irq_depth++;
		v->irq_kind = (uint8_t)e->irq.kind;
		v->irq_nr = e->irq.nr;
		memcpy(v->irq_name, e->irq.name, sizeof(v->irq_name));
		if (e->irq.kind == WP_IRQ_CALL_FUNC || e->irq.kind == WP_IRQ_RESCHED)
			v->ipi_ran = true;
		break;
	case WP_EV_IDLE_ENTER:
		v->idle = true;
		break;
	case WP_EV_IDLE_EXIT:
		v->idle = false;
		break;
	default:
		break;
	}
}

/* idle_from_hint - a waking record @e says whether its target CPU @v was idle */
static void idle_from_hint(struct cpu_view *v, const struct wp_event *e)
{
	v->idle = e->wake.target_idle_since_ns != 0;
	/* an idle CPU runs its idle task, whatever a stale hint or switch says */
	if (v->idle) {
		v->known = true;
		v->running = 0;
	}
}

/*
 * view_from_hint - what a waking record @e says its target CPU @v ran at the
 * wake: the task that last switched in there, or the idle task
 */
static void view_from_hint(struct cpu_view *v, const struct wp_event *e)
{
	v->known = true;
	v->running = e->wake.target_curr_pid;
	v->prio = e->wake.target_curr_prio;
	memcpy(v->comm, e->wake.target_curr_comm, sizeof(v->comm));
	idle_from_hint(v, e);
}

static void explain_sample(struct explanation *x, const struct sample_result *r, const struct wp_event *evs,
			   size_t n, bool lean);

void explain__sample(struct explanation *x, const struct sample_result *r, const struct wp_event *evs, size_t n)
{
	explain_sample(x, r, evs, n, false);
}

/* unexplain_phase - phase @k of @x had no records to split it: all of it unexplained */
static void unexplain_phase(struct explanation *x, int k)
{
	int64_t phase = 0;
	uint32_t i, n = 0;
	int c;

	for (c = 0; c < NR_CAUSES; c++) {
		phase += x->by_phase_cause[k][c];
		x->by_cause[c] -= x->by_phase_cause[k][c];
		x->by_phase_cause[k][c] = 0;
	}
	x->by_phase_cause[k][CAUSE_UNEXPLAINED] = phase;
	x->by_cause[CAUSE_UNEXPLAINED] += phase;
	for (i = 0; i < x->nr_iv; i++)
		if (x->iv[i].phase != k)
			x->iv[n++] = x->iv[i];
	x->nr_iv = n;
}

/*
 * enqueue_steal_of - among the lean engine's flight records @evs, the STEAL record
 * of the waker's CPU stamped at @r's wakeup (bpf/flight.bpf.h,
 * flight_enqueue_steal()): the waker enqueued the wakee on its own CPU with
 * interrupts off, so between the waking and the wakeup that CPU ran the
 * wake's own work or the host, and this record says how much was the host's
 */
static bool enqueue_steal_of(const struct sample_result *r, const struct wp_event *evs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (evs[i].type == WP_EV_STEAL && evs[i].cpu == r->waking_cpu && evs[i].ts_ns == r->mark_ns[MARK_WAKEUP])
			return true;
	return false;
}

/* reached - do the lean engine's flight records, of @cpu and as far as @reach says, cover phase @k of @r? */
static bool reached(const struct sample_result *r, int k, uint32_t cpu, unsigned int reach)
{
	switch (k) {
	case PHASE_NOTIFY_USER:
	case PHASE_NOTIFY_KERNEL:
		return reach & EXPLAIN_REACH_NOTIFY;
	case PHASE_WAKE_ENQUEUE:
		if (bound_to_waker_cpu(r, k) && (reach & EXPLAIN_REACH_ENQUEUE))
			return true;
		return (reach & EXPLAIN_REACH_WAKE) && explain__phase_cpu(r, k) == cpu;
	case PHASE_RUNQ_WAIT:
		return (reach & EXPLAIN_REACH_WAKE) && explain__phase_cpu(r, k) == cpu;
	case PHASE_RESUME_KERNEL:
		return (reach & EXPLAIN_REACH_RESUME) && explain__phase_cpu(r, k) == cpu;
	default:
		return false;
	}
}

void explain__sample_lean(struct explanation *x, const struct sample_result *r, const struct wp_event *evs,
			  size_t n, uint32_t cpu, unsigned int reach)
{
	int k;

	if (r->sample.waker_tid && enqueue_steal_of(r, evs, n))
		reach |= EXPLAIN_REACH_ENQUEUE;
	explain_sample(x, r, evs, n, true);
	for (k = 0; k < NR_PHASES; k++)
		if (!reached(r, k, cpu, reach))
			unexplain_phase(x, k);
}

static void explain_sample(struct explanation *x, const struct sample_result *r, const struct wp_event *evs,
			   size_t n, bool lean)
{
	struct attribution a = { .x = x, .r = r };
	uint64_t now;
	size_t i;
	int k;

	memset(x, 0, sizeof(*x));
	a.bound[0] = r->t_notify_ns;
	for (k = 0; k < NR_MARKS; k++)
		a.bound[k + 1] = r->mark_ns[k];
	a.bound[NR_PHASES] = r->t_woken_ns;

	/*
	 * The waker is on its CPU at t_notify: it just read the TSC there. An
	 * interrupt, a softirq or a timer has no thread (waker_tid 0): what it
	 * interrupted is known from the waking record's hint on.
	 */
	view_init(&a.waker_cpu, (int)r->waking_cpu);
	a.waker_cpu.known = r->sample.waker_tid != 0;
	a.waker_cpu.running = r->sample.waker_tid;
	/* the target CPU is known from the waking record on; see below */
	view_init(&a.target_cpu, (int)r->target_cpu);
	find_stolen(&a, evs, n);

	now = a.bound[0];
	for (i = 0; i < n; i++) {
		const struct wp_event *e = &evs[i];

		if (e->ts_ns < a.bound[0]) {
			/*
			 * lean: the flight records before the sample say what its
			 * target CPU was doing; an IPI that ran then carried no wake of its
			 */
			if (lean && (int)e->cpu == a.target_cpu.cpu) {
				apply(&a, &a.target_cpu, e);
				a.target_cpu.ipi_ran = false;
			}
			continue;
		}
		if (e->ts_ns > a.bound[NR_PHASES])
			break;
		attribute(&a, now, e->ts_ns);
		now = e->ts_ns;

		if (wp_wake_decides(e->type, e->wake.flags) && e->ts_ns == r->mark_ns[MARK_WAKING] &&
		    e->wake.pid == r->sample.wakee_tid) {
			/*
			 * What the target CPU was doing when the wake was decided:
			 * its own switch records win over the waking record's hint
			 */
			if (a.target_cpu.cpu == a.waker_cpu.cpu && r->sample.waker_tid) {
				/* the waker runs there: only the idle flag is news, and its name if unknown */
				if (!a.waker_cpu.comm[0] && e->wake.target_curr_pid == a.waker_cpu.running) {
					a.waker_cpu.prio = e->wake.target_curr_prio;
					memcpy(a.waker_cpu.comm, e->wake.target_curr_comm, sizeof(a.waker_cpu.comm));
				}
				a.target_cpu = a.waker_cpu;
				a.target_cpu.idle = e->wake.target_idle_since_ns != 0;
			} else if (!a.target_cpu.known && e->wake.target_cpu == r->target_cpu) {
				view_from_hint(&a.target_cpu, e);
			} else {
				idle_from_hint(&a.target_cpu, e);
			}
		}
		if (e->type == WP_EV_WAKING && e->wake.pid == r->sample.wakee_tid && a.wakee == WAKEE_ASLEEP &&
		    e->ts_ns > r->mark_ns[MARK_WAKING]) {
			/*
			 * Woken again from the sleep it went back to. Its CPU was not
			 * watched while it slept, so the switches there went unrecorded:
			 * the waking record's hint is the freshest word on that CPU.
			 */
			a.wakee = WAKEE_REWOKEN;
			if (e->wake.target_cpu == (uint32_t)a.target_cpu.cpu && a.target_cpu.cpu != a.waker_cpu.cpu)
				view_from_hint(&a.target_cpu, e);
		}
		if (e->type == WP_EV_MIGRATE && e->migrate.pid == r->sample.wakee_tid) {
			x->migrations++;
			x->migrated_from = e->migrate.orig_cpu;
			x->migrated_to = e->migrate.dest_cpu;
		}
		if ((int)e->cpu == a.waker_cpu.cpu)
			apply(&a, &a.waker_cpu, e);
		if ((int)e->cpu == a.target_cpu.cpu)
			apply(&a, &a.target_cpu, e);
	}
	attribute(&a, now, a.bound[NR_PHASES]);
}
