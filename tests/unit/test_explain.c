/* SPDX-License-Identifier: GPL-2.0 */
/* test_explain.c - attribution of a slow wakeup's phases to causes, from synthetic event streams */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "events.h"
#include "explain.h"

#define WAKER		2001u
#define WAKEE		2002u
#define HOG		2003u
#define KWORKER		2004u
#define WAKER_CPU	0u
#define WAKEE_CPU	1u
#define T0		5000000000ull

/* the marks of one wakeup, as offsets from t_notify */
struct marks {
	uint64_t enter, waking, wakeup, switch_in, wait_exit, woken;
};

static const struct marks standard = {
	.enter = 500, .waking = 1500, .wakeup = 41500, .switch_in = 51500, .wait_exit = 53500, .woken = 55000,
};

static struct sample_result result_for(const struct marks *mk, uint32_t target_cpu)
{
	struct sample_result r;

	memset(&r, 0, sizeof(r));
	r.sample.seq = 1;
	r.sample.waker_tid = WAKER;
	r.sample.wakee_tid = WAKEE;
	r.t_notify_ns = T0;
	r.t_woken_ns = T0 + mk->woken;
	r.total_ns = (int64_t)mk->woken;
	r.mark_ns[MARK_NOTIFY_ENTER] = T0 + mk->enter;
	r.mark_ns[MARK_WAKING] = T0 + mk->waking;
	r.mark_ns[MARK_WAKEUP] = T0 + mk->wakeup;
	r.mark_ns[MARK_SWITCH_IN] = T0 + mk->switch_in;
	r.mark_ns[MARK_WAIT_EXIT] = T0 + mk->wait_exit;
	r.waking_cpu = WAKER_CPU;
	r.target_cpu = target_cpu;
	r.wakeup_cpu = target_cpu;
	r.label = LABEL_COMPLETE;
	r.phased = true;
	return r;
}

/* ---------------------------------------------------------------- events */

static struct wp_event evs[64];
static size_t nr_evs;

/* add - @e into the stream explain__sample() reads */
static void add(struct wp_event e)
{
	struct wp_event *at = &evs[nr_evs++];

	cr_assert_leq(nr_evs, sizeof(evs) / sizeof(evs[0]));
	*at = e;
}

/*
 * The test's shorthands: times are offsets from T0, the waker is WAKER on
 * WAKER_CPU, every switch names the task it runs.
 */
static void add_waking(uint64_t off, uint32_t target_cpu, uint64_t idle_since, uint32_t curr, const char *comm)
{
	add(with_target_curr(ev_waking(T0 + off, WAKER_CPU, WAKER, WAKEE, target_cpu, idle_since), curr, comm));
}

static void add_switch(uint64_t off, uint32_t cpu, uint32_t prev, uint32_t next, const char *next_comm,
		       uint32_t prev_state, uint32_t preempt)
{
	add(with_next_comm(ev_switch(T0 + off, cpu, prev, next, prev_state, preempt), next_comm));
}

static void add_irq(uint64_t off, uint32_t cpu, enum wp_irq_kind kind, int nr, const char *name, int exit)
{
	add(ev_irq(T0 + off, cpu, kind, nr, exit, name));
}

/* the marks' own events, on the waker's CPU and the target */
static void add_marks(const struct marks *mk, uint32_t target_cpu)
{
	add(ev_sys_enter(T0 + mk->enter, WAKER_CPU, WAKER, 1, 0));
	add(ev_wakeup(T0 + mk->wakeup, target_cpu, 0, WAKEE, target_cpu));
	add(ev_sys_exit(T0 + mk->wait_exit, target_cpu, WAKEE, 0, 0));
}

/*
 * resumed_cond - a cond wakeup of 70 us: the standard marks, the wake onto
 * the idle WAKEE_CPU and the switch-in there; a test adds what follows
 */
static struct sample_result resumed_cond(struct marks *mk)
{
	struct sample_result r;

	*mk = standard;
	mk->woken = 70000;
	r = result_for(mk, WAKEE_CPU);
	add_marks(mk, WAKEE_CPU);
	add_waking(mk->waking, WAKEE_CPU, 0, 0, "swapper/1");
	add_switch(mk->switch_in, WAKEE_CPU, 0, WAKEE, "cond", 0, 0);
	return r;
}

static void sort_events(void)
{
	size_t i, j;

	for (i = 1; i < nr_evs; i++) {
		struct wp_event e = evs[i];

		for (j = i; j > 0 && evs[j - 1].ts_ns > e.ts_ns; j--)
			evs[j] = evs[j - 1];
		evs[j] = e;
	}
}

static void setup(void)
{
	nr_evs = 0;
}

TestSuite(explain, .init = setup);

/* ---------------------------------------------------------------- checks */

static uint64_t us_off(const struct marks *mk, int phase)
{
	const uint64_t b[] = { 0, mk->enter, mk->waking, mk->wakeup, mk->switch_in, mk->wait_exit, mk->woken };

	return b[phase + 1] - b[phase];
}

/* every phase's causes and its unexplained rest add up to the phase */
static void assert_phases_covered(const struct explanation *x, const struct marks *mk)
{
	int64_t all = 0;
	int k, c;

	for (k = 0; k < NR_PHASES; k++) {
		int64_t sum = 0;

		for (c = 0; c < NR_CAUSES; c++) {
			cr_assert_geq(x->by_phase_cause[k][c], 0);
			sum += x->by_phase_cause[k][c];
		}
		cr_assert_eq(sum, (int64_t)us_off(mk, k), "%s: causes sum to %" PRId64 ", phase is %" PRIu64,
			     wakeup__phase_name(k), sum, us_off(mk, k));
		all += sum;
	}
	for (c = 0, all = 0; c < NR_CAUSES; c++)
		all += x->by_cause[c];
	cr_assert_eq(all, (int64_t)mk->woken, "by_cause sums to the total");
}

static const struct interval *find(const struct explanation *x, enum cause cause, int phase)
{
	uint32_t i;

	for (i = 0; i < x->nr_iv; i++)
		if (x->iv[i].cause == cause && x->iv[i].phase == phase)
			return &x->iv[i];
	return NULL;
}

#define assert_ns(got_, want_, what)                                                                      \
	cr_assert_eq((int64_t)(got_), (int64_t)(want_), "%s: got %" PRId64 ", want %" PRId64, (what),      \
		     (int64_t)(got_), (int64_t)(want_))

/* ---------------------------------------------------------------- causes */

Test(explain, an_idle_target_is_idle_until_its_exit_then_the_ipi_handler_then_its_own_work)
{
	struct sample_result r = result_for(&standard, WAKEE_CPU);
	struct explanation *x = &r.why;

	add_marks(&standard, WAKEE_CPU);
	add_waking(standard.waking, WAKEE_CPU, T0 - 900000, 0, "swapper/1");
	add(ev_idle_exit(T0 + 31500, WAKEE_CPU, 0));
	add_irq(32000, WAKEE_CPU, WP_IRQ_CALL_FUNC, 251, NULL, 0);
	add_irq(33000, WAKEE_CPU, WP_IRQ_CALL_FUNC, 251, NULL, 1);
	add_switch(standard.switch_in, WAKEE_CPU, 0, WAKEE, "eventfd", 0, 0);
	sort_events();
	explain__sample(x, &r, evs, nr_evs);

	assert_phases_covered(x, &standard);
	assert_ns(x->by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_IDLE], 30000, "idle: waking -> idle exit");
	/* out of idle, the interrupt is still on its way in */
	assert_ns(x->by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_IPI], 500, "idle exit -> IPI entry");
	assert_ns(x->by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_IRQ], 1000, "the wake-list IPI handler");
	/* out of idle, the idle task runs the scheduler's path to the wakee */
	assert_ns(x->by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_OWN_WORK], 8500, "the rest");
	cr_assert_eq(find(x, CAUSE_IRQ, PHASE_WAKE_ENQUEUE)->irq_kind, WP_IRQ_CALL_FUNC);
	assert_ns(x->by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_OWN_WORK], 10000, "the switch to the wakee");
	assert_ns(x->by_phase_cause[PHASE_NOTIFY_USER][CAUSE_OWN_WORK], 500, "the waker's own work");
	cr_assert_null(find(x, CAUSE_OWN_WORK, PHASE_NOTIFY_USER), "own work is a sum: nothing to name in it");
	for (int k = 0; k < NR_PHASES; k++)
		assert_ns(x->by_phase_cause[k][CAUSE_UNEXPLAINED], 0, wakeup__phase_name(k));
}

Test(explain, a_task_holding_the_target_cpu_is_named_with_its_time_and_how_it_left)
{
	struct sample_result r = result_for(&standard, WAKEE_CPU);
	struct explanation *x = &r.why;
	const struct interval *iv;

	add_marks(&standard, WAKEE_CPU);
	add_waking(standard.waking, WAKEE_CPU, 0, HOG, "wp-hog");
	/* the hog is preempted for the wakee at its switch-in */
	add_switch(standard.switch_in, WAKEE_CPU, HOG, WAKEE, "eventfd", 0, 1);
	sort_events();
	explain__sample(x, &r, evs, nr_evs);

	assert_phases_covered(x, &standard);
	assert_ns(x->by_cause[CAUSE_OTHER_TASK], standard.switch_in - standard.waking, "the hog, waking -> switch-in");
	iv = find(x, CAUSE_OTHER_TASK, PHASE_RUNQ_WAIT);
	cr_assert_not_null(iv);
	cr_assert_eq(iv->pid, HOG);
	cr_assert_str_eq(iv->name, "wp-hog");
	cr_assert(iv->left_known && iv->preempted, "it left by preemption");
	cr_assert(find(x, CAUSE_OTHER_TASK, PHASE_WAKE_ENQUEUE)->preempted, "the same stint, earlier in it");
	cr_assert_eq(iv->cpu, WAKEE_CPU);
}

Test(explain, an_interrupt_inside_another_task_takes_its_own_stretch_and_leaves_the_task_the_rest)
{
	struct sample_result r = result_for(&standard, WAKEE_CPU);
	struct explanation *x = &r.why;
	const struct interval *iv;

	add_marks(&standard, WAKEE_CPU);
	add_waking(standard.waking, WAKEE_CPU, 0, HOG, "wp-hog");
	add_irq(45000, WAKEE_CPU, WP_IRQ_HARD, 11, "virtio0", 0);
	add_irq(45000 + 2500, WAKEE_CPU, WP_IRQ_HARD, 11, NULL, 1);
	/* the softirq the handler raised runs as it returns */
	add_irq(47500, WAKEE_CPU, WP_IRQ_SOFT, 3, NULL, 0);
	add_irq(47500 + 700, WAKEE_CPU, WP_IRQ_SOFT, 3, NULL, 1);
	add_switch(standard.switch_in, WAKEE_CPU, HOG, WAKEE, "eventfd", 0, 1);
	sort_events();
	explain__sample(x, &r, evs, nr_evs);

	assert_phases_covered(x, &standard);
	assert_ns(x->by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_IRQ], 2500, "irq 11");
	assert_ns(x->by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_SOFTIRQ], 700, "NET_RX");
	assert_ns(x->by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_OTHER_TASK], 10000 - 2500 - 700, "the hog, the rest");
	iv = find(x, CAUSE_IRQ, PHASE_RUNQ_WAIT);
	cr_assert_eq(iv->nr, 11);
	cr_assert_str_eq(iv->name, "virtio0");
	cr_assert_str_eq(wakeup__softirq_name(find(x, CAUSE_SOFTIRQ, PHASE_RUNQ_WAIT)->nr), "NET_RX");
}

Test(explain, a_waker_preempted_inside_its_notify_is_named_with_who_ran)
{
	struct sample_result r = result_for(&standard, WAKEE_CPU);
	struct explanation *x = &r.why;
	const struct interval *iv;

	add_marks(&standard, WAKEE_CPU);
	/* inside the syscall, before the wake: a kworker takes the waker's CPU for 700 ns */
	add_switch(700, WAKER_CPU, WAKER, KWORKER, "kworker/0:1", 0, 1);
	add_switch(1400, WAKER_CPU, KWORKER, WAKER, "eventfd", 1, 0);
	add_waking(standard.waking, WAKEE_CPU, 0, 0, "swapper/1");
	add_switch(standard.switch_in, WAKEE_CPU, 0, WAKEE, "eventfd", 0, 0);
	sort_events();
	explain__sample(x, &r, evs, nr_evs);

	assert_phases_covered(x, &standard);
	assert_ns(x->by_phase_cause[PHASE_NOTIFY_KERNEL][CAUSE_WAKER_PREEMPTED], 700, "off CPU");
	iv = find(x, CAUSE_WAKER_PREEMPTED, PHASE_NOTIFY_KERNEL);
	cr_assert_eq(iv->pid, KWORKER);
	cr_assert_str_eq(iv->name, "kworker/0:1");
	cr_assert(iv->left_known && !iv->preempted, "the kworker left by sleeping");
}

Test(explain, a_wakee_preempted_before_its_timestamp_and_a_second_wait_are_told_apart)
{
	struct marks mk;
	struct sample_result r = resumed_cond(&mk);
	struct explanation *x = &r.why;

	/* resume_kernel: preempted by the hog for 1000 ns */
	add_switch(52000, WAKEE_CPU, WAKEE, HOG, "wp-hog", 0, 1);
	add_switch(53000, WAKEE_CPU, HOG, WAKEE, "cond", 0, 1);
	/* resume_user: blocks on the mutex (a sleep), woken 10 us later */
	add_switch(56000, WAKEE_CPU, WAKEE, 0, "swapper/1", 1, 0);
	add_switch(66000, WAKEE_CPU, 0, WAKEE, "cond", 0, 0);
	sort_events();
	explain__sample(x, &r, evs, nr_evs);

	assert_phases_covered(x, &mk);
	assert_ns(x->by_phase_cause[PHASE_RESUME_KERNEL][CAUSE_WAKEE_PREEMPTED], 1000, "preempted");
	cr_assert_eq(find(x, CAUSE_WAKEE_PREEMPTED, PHASE_RESUME_KERNEL)->pid, HOG);
	assert_ns(x->by_phase_cause[PHASE_RESUME_USER][CAUSE_REACQUIRE], 10000, "the mutex wait");
	assert_ns(x->by_phase_cause[PHASE_RESUME_USER][CAUSE_WAKEE_PREEMPTED], 0, "not a preemption");
}

/*
 * The wakee blocks again on the mutex and is woken again. Its CPU is not
 * watched while it sleeps, so a task that took the CPU meanwhile shows only
 * in the second waking record; from that wake on it is that task's time.
 */
Test(explain, a_wakee_woken_again_waits_for_the_task_the_second_waking_names)
{
	struct marks mk;
	struct sample_result r = resumed_cond(&mk);
	struct explanation *x = &r.why;
	const struct interval *iv;

	/* resume_user: blocks on the mutex; the hog's switch-in goes unrecorded */
	add_switch(56000, WAKEE_CPU, WAKEE, 0, "swapper/1", 1, 0);
	add_waking(60000, WAKEE_CPU, 0, HOG, "wp-hog");
	add_switch(66000, WAKEE_CPU, HOG, WAKEE, "cond", 0, 1);
	sort_events();
	explain__sample(x, &r, evs, nr_evs);

	assert_phases_covered(x, &mk);
	assert_ns(x->by_phase_cause[PHASE_RESUME_USER][CAUSE_REACQUIRE], 4000, "asleep on the mutex");
	assert_ns(x->by_phase_cause[PHASE_RESUME_USER][CAUSE_OTHER_TASK], 6000, "woken, behind the hog");
	iv = find(x, CAUSE_OTHER_TASK, PHASE_RESUME_USER);
	cr_assert_eq(iv->pid, HOG);
	cr_assert_str_eq(iv->name, "wp-hog");
	cr_assert(iv->left_known && iv->preempted, "the hog was preempted by the wakee");
}

Test(explain, a_wakee_woken_again_onto_an_idle_cpu_waits_for_its_idle_exit)
{
	struct marks mk;
	struct sample_result r = resumed_cond(&mk);
	struct explanation *x = &r.why;

	add_switch(56000, WAKEE_CPU, WAKEE, 0, "swapper/1", 1, 0);
	add_waking(60000, WAKEE_CPU, T0 + 57000, 0, "swapper/1");
	add(ev_idle_exit(T0 + 63000, WAKEE_CPU, 0));
	add_switch(64000, WAKEE_CPU, 0, WAKEE, "cond", 0, 0);
	/* back on its CPU: a preemption after this is the wakee's, not a wait */
	add_switch(65000, WAKEE_CPU, WAKEE, HOG, "wp-hog", 0, 1);
	add_switch(67000, WAKEE_CPU, HOG, WAKEE, "cond", 0, 1);
	sort_events();
	explain__sample(x, &r, evs, nr_evs);

	assert_phases_covered(x, &mk);
	assert_ns(x->by_phase_cause[PHASE_RESUME_USER][CAUSE_REACQUIRE], 4000, "asleep on the mutex");
	assert_ns(x->by_phase_cause[PHASE_RESUME_USER][CAUSE_IDLE], 3000, "the idle exit");
	assert_ns(x->by_phase_cause[PHASE_RESUME_USER][CAUSE_WAKEE_PREEMPTED], 2000, "preempted after");
	assert_ns(x->by_phase_cause[PHASE_RESUME_USER][CAUSE_OTHER_TASK], 0, "no wait behind a task");
}

/* ---------------------------------------------------------------- the host */

Test(explain, the_host_holding_the_targets_vcpu_is_host_placed_at_the_end_of_its_silence)
{
	struct sample_result r = result_for(&standard, WAKEE_CPU);
	struct explanation *x = &r.why;
	const struct interval *iv;

	add_marks(&standard, WAKEE_CPU);
	add_waking(standard.waking, WAKEE_CPU, T0 - 900000, 0, "swapper/1");
	/* halted since long before; kicked at the wake, it waited 20 us for the host before it ran */
	add(ev_steal(T0 + 31500, WAKEE_CPU, 0, 20000, T0 - 900000));
	add(ev_idle_exit(T0 + 31500, WAKEE_CPU, 0));
	add_switch(standard.switch_in, WAKEE_CPU, 0, WAKEE, "eventfd", 0, 0);
	/* the host's stretches on a CPU the sample does not use are not its business */
	add(ev_steal(T0 + 20000, 7, 0, 15000, T0));
	sort_events();
	explain__sample(x, &r, evs, nr_evs);

	assert_phases_covered(x, &standard);
	assert_ns(x->by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_HOST], 20000, "the host, up to the idle exit");
	assert_ns(x->by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_IDLE], 10000, "halted before the host's stretch");
	assert_ns(x->by_cause[CAUSE_HOST], 20000, "nowhere else");
	iv = find(x, CAUSE_HOST, PHASE_WAKE_ENQUEUE);
	cr_assert_not_null(iv);
	cr_assert_eq(iv->cpu, WAKEE_CPU);
	assert_ns(iv->start_ns, T0 + 11500, "placed at the end of the silence");
}

Test(explain, a_host_stretch_goes_to_the_phase_of_its_cpu_and_one_longer_than_its_silence_is_cut_to_it)
{
	struct sample_result r = result_for(&standard, WAKEE_CPU);
	struct explanation *x = &r.why;

	add_marks(&standard, WAKEE_CPU);
	add_waking(standard.waking, WAKEE_CPU, 0, HOG, "wp-hog");
	add_switch(standard.switch_in - 8000, WAKEE_CPU, HOG, 0, "swapper/1", 0, 0);
	/* the waker's CPU lost 1 us inside notify_kernel, seen at the waking; its record before was the entry */
	add(ev_steal(T0 + standard.waking, WAKER_CPU, WAKER, 1000, T0 + standard.enter));
	/* the target lost 5 us after the hog left, seen at the switch-in */
	add(ev_steal(T0 + standard.switch_in, WAKEE_CPU, 0, 5000, T0 + standard.switch_in - 8000));
	/*
	 * Seen after t_woken, at the wakee's next record: a clock that moved by
	 * more than its silence (from the wait's exit) lasted gives the host only
	 * the silence, and of that the sample only what lies inside it
	 */
	add(ev_steal(T0 + standard.woken + 500, WAKEE_CPU, WAKEE, 9000, T0 + standard.wait_exit));
	sort_events();
	explain__sample(x, &r, evs, nr_evs);

	assert_phases_covered(x, &standard);
	assert_ns(x->by_phase_cause[PHASE_NOTIFY_KERNEL][CAUSE_HOST], 1000, "the waker's vCPU");
	assert_ns(x->by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_HOST], 5000, "the target's, before the switch-in");
	assert_ns(x->by_phase_cause[PHASE_RESUME_KERNEL][CAUSE_HOST], 0, "a record there: the vCPU ran");
	assert_ns(x->by_phase_cause[PHASE_RESUME_USER][CAUSE_HOST], standard.woken - standard.wait_exit,
		  "cut to its silence");
	assert_ns(x->by_cause[CAUSE_HOST], 1000 + 5000 + standard.woken - standard.wait_exit, "the three stretches");
}

Test(explain, a_target_cpu_nothing_is_known_about_stays_unexplained)
{
	struct sample_result r = result_for(&standard, WAKEE_CPU);
	struct explanation *x = &r.why;

	/* no waking record with its hint, no switch on the target until the wakee's */
	add_marks(&standard, WAKEE_CPU);
	add_switch(standard.switch_in, WAKEE_CPU, HOG, WAKEE, "eventfd", 1, 0);
	sort_events();
	explain__sample(x, &r, evs, nr_evs);

	assert_phases_covered(x, &standard);
	assert_ns(x->by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_UNEXPLAINED], 10000, "runq_wait: unknown");
	assert_ns(x->by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_OWN_WORK], 0, "nothing says the path ran there");
	assert_ns(x->by_phase_cause[PHASE_RESUME_KERNEL][CAUSE_OWN_WORK], 2000, "the wakee, once switched in");
}

Test(explain, a_remote_wake_before_its_ipi_runs_is_ipi_in_flight)
{
	struct sample_result r = result_for(&standard, WAKEE_CPU);
	struct explanation *x = &r.why;

	add_marks(&standard, WAKEE_CPU);
	/* the target runs the hog, not idle; the IPI lands 20 us after the wake */
	add_waking(standard.waking, WAKEE_CPU, 0, HOG, "wp-hog");
	add_irq(21500, WAKEE_CPU, WP_IRQ_CALL_FUNC, 251, NULL, 0);
	add_irq(22500, WAKEE_CPU, WP_IRQ_CALL_FUNC, 251, NULL, 1);
	add_switch(23000, WAKEE_CPU, HOG, 0, "swapper/1", 1, 0);
	add_switch(standard.switch_in, WAKEE_CPU, 0, WAKEE, "eventfd", 0, 0);
	sort_events();
	explain__sample(x, &r, evs, nr_evs);

	assert_phases_covered(x, &standard);
	/* while the hog holds the CPU the hog is the cause; the IPI's own handler is an irq */
	assert_ns(x->by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_OTHER_TASK], 21500 - 1500 + 500, "the hog");
	assert_ns(x->by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_IRQ], 1000, "the IPI handler");
	/* the hog gone and the IPI run, the idle task runs the rest of the wake: the path's own work */
	assert_ns(x->by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_OWN_WORK], 41500 - 23000, "the idle task, no more events");
}

Test(explain, a_remote_wake_to_a_target_with_nothing_known_running_waits_as_ipi_in_flight)
{
	struct sample_result r = result_for(&standard, WAKEE_CPU);
	struct explanation *x = &r.why;

	add_marks(&standard, WAKEE_CPU);
	add_waking(standard.waking, WAKEE_CPU, 0, 0, "swapper/1");
	add_irq(31500, WAKEE_CPU, WP_IRQ_CALL_FUNC, 251, NULL, 0);
	add_irq(32500, WAKEE_CPU, WP_IRQ_CALL_FUNC, 251, NULL, 1);
	add_switch(standard.switch_in, WAKEE_CPU, 0, WAKEE, "eventfd", 0, 0);
	sort_events();
	explain__sample(x, &r, evs, nr_evs);

	assert_phases_covered(x, &standard);
	assert_ns(x->by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_IPI], 30000, "waking -> IPI entry");
	assert_ns(x->by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_OWN_WORK], 41500 - 32500, "after the IPI");
}

Test(explain, a_wake_the_waker_enqueued_itself_is_bound_to_the_wakers_cpu_not_the_targets)
{
	struct sample_result r = result_for(&standard, WAKEE_CPU);
	struct explanation *x = &r.why;

	r.wakeup_cpu = WAKER_CPU;	/* sched_wakeup ran on the waker's CPU: no wake list */
	/* the waker's own marks, and a hog on the target that must not take the blame */
	add(ev_sys_enter(T0 + standard.enter, WAKER_CPU, WAKER, 1, 0));
	add(ev_wakeup(T0 + standard.wakeup, WAKER_CPU, WAKER, WAKEE, WAKEE_CPU));
	add_waking(standard.waking, WAKEE_CPU, 0, HOG, "wp-hog");
	/* the waker is preempted between its sched_waking and sched_wakeup */
	add_switch(11500, WAKER_CPU, WAKER, KWORKER, "kworker/0:1", 0, 1);
	add_switch(31500, WAKER_CPU, KWORKER, WAKER, "cond", 1, 0);
	add_switch(standard.switch_in, WAKEE_CPU, HOG, WAKEE, "eventfd", 0, 1);
	sort_events();
	explain__sample(x, &r, evs, nr_evs);

	assert_phases_covered(x, &standard);
	assert_ns(x->by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_WAKER_PREEMPTED], 20000, "the waker, off its CPU");
	assert_ns(x->by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_OTHER_TASK], 0, "not the target's hog");
	assert_ns(x->by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_OTHER_TASK], 10000, "the hog, once the wakee is queued");
}

Test(explain, a_migration_of_the_wakee_is_noted_with_its_cpus)
{
	struct sample_result r = result_for(&standard, WAKEE_CPU);
	struct explanation *x = &r.why;

	add_marks(&standard, WAKEE_CPU);
	add_waking(standard.waking, WAKEE_CPU, 0, 0, "swapper/1");
	add(ev_migrate(T0 + 2000, WAKER_CPU, WAKER, WAKEE, 2, WAKEE_CPU));
	add_switch(standard.switch_in, WAKEE_CPU, 0, WAKEE, "eventfd", 0, 0);
	sort_events();
	explain__sample(x, &r, evs, nr_evs);

	assert_phases_covered(x, &standard);
	cr_assert_eq(x->migrations, 1);
	cr_assert_eq(x->migrated_from, 2);
	cr_assert_eq(x->migrated_to, WAKEE_CPU);
}

/*
 * A task outside wakeprobe's pid namespace has no number there: its records
 * carry WP_PID_OUTSIDE and its host pid, and the explanation says so
 */
Test(explain, a_task_outside_the_pid_namespace_is_named_by_its_host_pid)
{
	struct interval iv = { .cause = CAUSE_OTHER_TASK, .pid = WP_PID_OUTSIDE | 57, .prio = 120, .cpu = 1,
			       .name = "kworker/1:0" };
	char buf[128], pid[24];

	explain__describe_interval(&iv, buf, sizeof(buf));
	cr_assert_str_eq(buf, "'kworker/1:0' pid host:57 prio 120 ran on CPU 1");
	iv.pid = 57;
	explain__describe_interval(&iv, buf, sizeof(buf));
	cr_assert_str_eq(buf, "'kworker/1:0' pid 57 prio 120 ran on CPU 1");
	cr_assert_str_eq(wakeup__pid(WP_PID_OUTSIDE | 4194303, pid, sizeof(pid)), "host:4194303");
	cr_assert_str_eq(wakeup__pid(0, pid, sizeof(pid)), "0");
}
