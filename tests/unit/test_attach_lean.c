/* SPDX-License-Identifier: GPL-2.0 */
/* test_attach_lean.c - Criterion tests for attach mode's lean records: one record, one wakeup */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <linux/futex.h>

#include "attach_analysis.h"
#include "attach_lean.h"
#include "events.h"

#define PROC		2000u
#define WAKER		2001u
#define WAKEE		2002u
#define OUTSIDER	3001u
#define KWORKER		77u
#define WAKER_CPU	0u
#define WAKEE_CPU	1u
#define T0		5000000000ull

#define KEPT	16

static struct attach_result got[KEPT];
static size_t nr_got;
static struct attach_lean *lean;

static void keep(const struct attach_result *r, void *ctx)
{
	(void)ctx;
	if (nr_got < KEPT)
		got[nr_got] = *r;
	nr_got++;
}

static void setup(void)
{
	nr_got = 0;
	lean = attach_lean__new(NULL, keep, NULL);
	cr_assert_not_null(lean);
}

static void teardown(void)
{
	attach_lean__free(lean);
}

TestSuite(attach_lean, .init = setup, .fini = teardown);

static void add(struct wp_event e)
{
	attach_lean__add_event(lean, &e);
}

/* the names the BPF side writes: the two threads of PROC, a thread of another process, a kernel thread */
static void add_names(void)
{
	add(ev_lean_name(T0 - 900, WAKER_CPU, WAKER, PROC, "producer", WP_LEAN_TRACKED));
	add(ev_lean_name(T0 - 800, WAKEE_CPU, WAKEE, PROC, "consumer", WP_LEAN_TRACKED));
	add(ev_lean_name(T0 - 700, WAKER_CPU, OUTSIDER, OUTSIDER - 1, "client", 0));
	add(ev_lean_name(T0 - 600, WAKER_CPU, KWORKER, 2, "kworker/0:1", WP_LEAN_KTHREAD));
}

Test(attach_lean, a_record_is_a_complete_wakeup_with_only_what_lean_mode_measures)
{
	const struct attach_result *r;
	const struct attach_counters *c;

	add_names();
	add(ev_lean(T0 + 9000, WAKEE_CPU, 0, WAKEE, WAKER, WAKER_CPU, T0, T0 + 2000, 0));

	cr_assert_eq(nr_got, 1);
	r = &got[0];
	cr_assert_eq(r->sr.label, LABEL_COMPLETE);
	cr_assert(r->sr.phased && r->sr.lean);
	cr_assert_eq(r->sr.phase_ns[PHASE_WAKE_ENQUEUE], 2000);
	cr_assert_eq(r->sr.phase_ns[PHASE_RUNQ_WAIT], 7000);
	cr_assert_eq(r->sr.phase_ns[PHASE_NOTIFY_KERNEL] + r->sr.phase_ns[PHASE_RESUME_KERNEL], 0);
	cr_assert_eq(r->wake_to_run_ns, 9000);
	cr_assert_eq(r->sr.total_ns, 9000, "first mark to last: the waking to the switch-in");
	cr_assert_eq(r->absent[PHASE_NOTIFY_KERNEL], ATTACH_ABSENT_WAKER_NO_SYSCALL, "a tracked thread woke it");
	cr_assert_eq(r->absent[PHASE_RESUME_KERNEL], ATTACH_ABSENT_UNTIMED, "its wait was not seen: untimed");
	cr_assert_eq(r->absent[PHASE_WAKE_ENQUEUE], ATTACH_PRESENT);
	cr_assert_eq(r->absent[PHASE_RUNQ_WAIT], ATTACH_PRESENT);
	cr_assert_eq(r->notify_to_return_ns, -1, "no syscall traced");
	cr_assert_eq(r->waited_ns, -1);
	cr_assert_not(r->wait.known);
	cr_assert_eq(r->waker.cls, WP_WAKER_TRACKED);
	cr_assert_str_eq(r->waker.comm, "producer");
	cr_assert_eq(r->waker.tgid, PROC);
	cr_assert_eq(r->sr.sample.waker_tid, WAKER);
	cr_assert_eq(r->sr.sample.wakee_tid, WAKEE);
	cr_assert_str_eq(r->wakee_comm, "consumer");
	cr_assert_eq(r->wakee_tgid, PROC);
	cr_assert_eq(r->family, MECH_OTHER);
	cr_assert_str_eq(r->mechanism, "thread -> run");
	cr_assert_eq(r->sr.target_cpu, WAKEE_CPU);
	c = attach_lean__counters(lean);
	cr_assert_eq(c->events, 5);
	cr_assert_eq(c->results, 1);
	cr_assert_eq(c->threads_peak, 4);
}

/*
 * A thread's last switch-out (TASK_DEAD) is counted as its end; its name
 * stays for a wakeup it made before it ended, whose record comes later
 */
Test(attach_lean, a_thread_that_ends_is_counted_and_still_names_what_it_woke)
{
	const struct attach_counters *c;

	add_names();
	add(ev_lean_name(T0 + 500, WAKER_CPU, WAKER, PROC, "producer", WP_LEAN_TRACKED | WP_LEAN_ENDED));
	add(ev_lean(T0 + 9000, WAKEE_CPU, 0, WAKEE, WAKER, WAKER_CPU, T0, T0 + 2000, 0));
	c = attach_lean__counters(lean);
	cr_assert_eq(c->exited_threads, 1);
	cr_assert_eq(c->threads_peak, 4, "an end names no thread");
	cr_assert_eq(nr_got, 1);
	cr_assert_str_eq(got[0].waker.comm, "producer");
	cr_assert_eq(got[0].waker.cls, WP_WAKER_TRACKED);
}

/*
 * A wake that chose another CPU than the one the task last ran on, and a
 * move while it waited to run: each a migration inside the wakeup, from
 * and to the CPUs the record tells
 */
Test(attach_lean, a_wakeup_counts_the_moves_its_record_tells)
{
	struct wp_event queued_away = ev_lean(T0 + 29000, WAKER_CPU, 0, WAKEE, WAKER, WAKER_CPU, T0 + 20000,
					      T0 + 21000, WP_LEAN_MOVED);

	/* placed on WAKEE_CPU, then pulled to WAKER_CPU before it ran */
	queued_away.lean.target_cpu = WAKEE_CPU;
	add_names();
	add(ev_lean(T0 + 9000, WAKEE_CPU, 0, WAKEE, WAKER, WAKER_CPU, T0, T0 + 2000, 0));
	add(ev_lean(T0 + 19000, WAKEE_CPU, 0, WAKEE, WAKER, WAKER_CPU, T0 + 10000, T0 + 12000, WP_LEAN_MOVED));
	add(queued_away);
	cr_assert_eq(nr_got, 3);
	cr_assert_eq(got[0].migrations, 0);
	cr_assert_eq(got[0].sr.why.migrations, 0);
	cr_assert_eq(got[1].migrations, 1, "woken onto another CPU");
	cr_assert_eq(got[1].sr.why.migrated_from, EXPLAIN_CPU_UNKNOWN, "the CPU it left is not recorded");
	cr_assert_eq(got[1].sr.why.migrated_to, WAKEE_CPU);
	cr_assert_eq(got[2].migrations, 2, "woken onto another CPU, and moved again before it ran");
	cr_assert_eq(got[2].sr.why.migrations, 2);
	cr_assert_eq(got[2].sr.why.migrated_from, WAKEE_CPU);
	cr_assert_eq(got[2].sr.why.migrated_to, WAKER_CPU);
}

/* the context the waking ran in names the waker; an interrupt's current is not it */
Test(attach_lean, the_wakers_context_and_name_say_who_woke_it)
{
	static const struct {
		uint32_t waker;
		uint16_t flags;
		uint8_t cls;
		enum mech_family family;
		const char *mechanism;
	} cases[] = {
		{ WAKER, WP_LEAN_WAKER_IRQ, WP_WAKER_IRQ, MECH_IRQ, "interrupt -> run" },
		{ WAKER, WP_LEAN_WAKER_SOFTIRQ, WP_WAKER_SOFTIRQ, MECH_SOFTIRQ, "softirq -> run" },
		{ OUTSIDER, 0, WP_WAKER_PROCESS, MECH_PROCESS, "another process -> run" },
		{ KWORKER, 0, WP_WAKER_KTHREAD, MECH_KTHREAD, "kernel thread -> run" },
		{ 4242, 0, WP_WAKER_PROCESS, MECH_PROCESS, "another process -> run" },
		{ WAKER, WP_LEAN_WAKER_UNSURE, 0, MECH_UNKNOWN, "unknown -> run" },
		{ WAKER, WP_LEAN_NEW, WP_WAKER_TRACKED, MECH_START, "clone -> first run" },
	};
	size_t n = sizeof(cases) / sizeof(cases[0]);

	add_names();
	for (size_t i = 0; i < n; i++)
		add(ev_lean(T0 + i * 100000 + 9000, WAKEE_CPU, 0, WAKEE, cases[i].waker, WAKER_CPU, T0 + i * 100000,
			    T0 + i * 100000 + 2000, cases[i].flags));
	cr_assert_eq(nr_got, n);
	for (size_t i = 0; i < n; i++) {
		const struct attach_result *r = &got[i];
		bool thread = cases[i].cls == WP_WAKER_TRACKED || cases[i].cls == WP_WAKER_PROCESS ||
			      cases[i].cls == WP_WAKER_KTHREAD;

		cr_assert_eq(r->waker.cls, cases[i].cls, "case %zu: class %u", i, r->waker.cls);
		cr_assert_eq(r->family, cases[i].family, "case %zu", i);
		cr_assert_str_eq(r->mechanism, cases[i].mechanism, "case %zu", i);
		cr_assert_eq(r->sr.sample.waker_tid, thread ? cases[i].waker : 0,
			     "case %zu: a waker thread only when a thread woke it", i);
		cr_assert_eq(r->sr.sample.seq, i + 1);
	}
	cr_assert(got[n - 1].wait.start, "a new thread's first run is its start");
	cr_assert_eq(attach_lean__counters(lean)->new_threads, 1);
}

#define EFD		5
#define WORD		0x7f0042a0ull

/* PROC's fd EFD is an eventfd; nothing else is known */
static enum fd_kind stub_fd_kind(uint32_t tgid, int fd, void *ctx)
{
	(void)ctx;
	return tgid == PROC && fd == EFD ? FD_KIND_EVENTFD : FD_KIND_UNKNOWN;
}

/* the lean pairing made anew, asking stub_fd_kind() what an fd is */
static void with_fd_kinds(void)
{
	const struct attach_config cfg = { .fd_kind = stub_fd_kind };

	attach_lean__free(lean);
	lean = attach_lean__new(&cfg, keep, NULL);
	cr_assert_not_null(lean);
}

/* add_named - lean wakeup @w, with the names the BPF side writes in front of it */
static void add_named(struct wp_event w, uint8_t cls, int32_t waker_nr, uint64_t waker_arg, uint32_t waker_arg2,
		      uint8_t seen, int32_t wait_nr, uint64_t wait_arg, uint32_t wait_arg2)
{
	add(ev_lean_names(&w, cls, waker_nr, waker_arg, waker_arg2, seen, wait_nr, wait_arg, wait_arg2));
	add(w);
}

/*
 * Attach mode's names: the waker's syscall and the wakee's wait, read from
 * registers, name the mechanism from both ends as the full engine does,
 * untimed: notify_kernel and resume_kernel stay absent.
 */
Test(attach_lean, the_names_written_with_a_wakeup_name_its_mechanism_from_both_ends)
{
	static const struct {
		uint8_t cls;
		int32_t waker_nr;
		uint64_t waker_arg;
		uint32_t waker_arg2;
		int32_t wait_nr;
		uint64_t wait_arg;
		uint32_t wait_arg2;
		enum mech_family family;
		const char *mechanism;
		/* as the full engine has them without --syscall-phases */
		enum attach_absence notify_absent, resume_absent;
	} cases[] = {
		{ WP_WAKER_SYSCALL, SYS_write, EFD, 0, SYS_read, EFD, 0, MECH_EVENTFD, "eventfd write -> read",
		  ATTACH_ABSENT_UNTIMED, ATTACH_ABSENT_UNTIMED },
		{ WP_WAKER_SYSCALL, SYS_futex, WORD, FUTEX_WAKE_PRIVATE, SYS_futex, WORD, FUTEX_WAIT_PRIVATE,
		  MECH_FUTEX, "futex 0x7f0042a0 wake -> wait", ATTACH_ABSENT_UNTIMED,
		  ATTACH_ABSENT_UNTIMED },
		{ WP_WAKER_TRACKED, -1, 0, 0, SYS_futex, WORD, FUTEX_WAIT_PRIVATE, MECH_FUTEX,
		  "thread producer 2001 -> futex 0x7f0042a0 wait", ATTACH_ABSENT_WAKER_NO_SYSCALL,
		  ATTACH_ABSENT_UNTIMED },
		{ WP_WAKER_IRQ, -1, 0, 0, SYS_clock_nanosleep, 1, 0, MECH_IRQ, "interrupt -> clock_nanosleep",
		  ATTACH_ABSENT_WAKER_INTERRUPT, ATTACH_ABSENT_UNTIMED },
		/* a page fault's sleep: no syscall returns */
		{ WP_WAKER_SOFTIRQ, -1, 0, 0, -1, 0, 0, MECH_SOFTIRQ, "softirq -> sleep outside a syscall",
		  ATTACH_ABSENT_WAKER_INTERRUPT, ATTACH_ABSENT_NO_WAIT_SYSCALL },
	};
	size_t n = sizeof(cases) / sizeof(cases[0]);

	with_fd_kinds();
	add_names();
	for (size_t i = 0; i < n; i++) {
		uint64_t t = T0 + i * 100000;

		add_named(ev_lean(t + 9000, WAKEE_CPU, 0, WAKEE, WAKER, WAKER_CPU, t, t + 2000,
				  cases[i].cls == WP_WAKER_IRQ ? WP_LEAN_WAKER_IRQ :
				  cases[i].cls == WP_WAKER_SOFTIRQ ? WP_LEAN_WAKER_SOFTIRQ : 0),
			  cases[i].cls, cases[i].waker_nr, cases[i].waker_arg, cases[i].waker_arg2, 1, cases[i].wait_nr,
			  cases[i].wait_arg, cases[i].wait_arg2);
	}
	cr_assert_eq(nr_got, n, "a names record is no wakeup of its own");
	for (size_t i = 0; i < n; i++) {
		const struct attach_result *r = &got[i];

		cr_assert(r->named, "case %zu", i);
		cr_assert_eq(r->waker.cls, cases[i].cls, "case %zu", i);
		cr_assert_str_eq(r->mechanism, cases[i].mechanism, "case %zu: %s", i, r->mechanism);
		cr_assert_eq(r->family, cases[i].family, "case %zu", i);
		cr_assert(r->wait.known && r->wait.untimed, "case %zu", i);
		cr_assert_eq(r->wait.nr, cases[i].wait_nr, "case %zu", i);
		cr_assert_eq(r->wait.arg, cases[i].wait_arg, "case %zu", i);
		cr_assert_eq(r->wait.arg2, cases[i].wait_arg2, "case %zu", i);
		cr_assert_eq(r->sr.notify_nr, cases[i].cls == WP_WAKER_SYSCALL ? cases[i].waker_nr : -1, "case %zu", i);
		cr_assert_eq(r->absent[PHASE_NOTIFY_KERNEL], cases[i].notify_absent, "case %zu", i);
		cr_assert_eq(r->absent[PHASE_RESUME_KERNEL], cases[i].resume_absent, "case %zu", i);
		cr_assert_eq(r->sr.label, LABEL_COMPLETE, "case %zu", i);
	}
	cr_assert(got[0].waker.untimed && got[0].waker.fd_kind == FD_KIND_EVENTFD && got[0].wait.fd_kind == FD_KIND_EVENTFD);
	cr_assert_eq(got[0].waker.tgid, PROC, "a tracked waker's process, from its name");
	cr_assert_eq(got[1].waker.arg2, FUTEX_WAKE_PRIVATE);
	cr_assert_eq(attach_lean__counters(lean)->unpaired_wakers, 0);
}

/* ev_futex_key - the BPF side's key of the shared futex word at @addr of process @tgid */
static struct wp_event ev_futex_key(uint64_t ts, uint32_t tgid, uint64_t addr, uint64_t ino, uint64_t offset)
{
	struct wp_event e = { .ts_ns = ts, .type = WP_EV_LEAN, .cpu = WAKER_CPU };

	e.lean.addr = addr;
	e.lean.key_ino = ino;
	e.lean.key_offset = offset;
	e.lean.pid = tgid;
	e.lean.key_dev = 0x2d;
	e.lean.flags = WP_LEAN_NAME | WP_LEAN_FUTEX_KEY;
	return e;
}

/*
 * A process-shared semaphore: two processes map the same file at their
 * own addresses. Each word's key names the one lock, so a wake in one
 * process and the wait it ends in the other are one object; a word no key
 * came for stays its process's address.
 */
Test(attach_lean, a_shared_futex_is_named_by_the_file_and_offset_the_kernel_keys_it_by)
{
	const uint64_t waker_addr = 0x7f11000040ull, wakee_addr = 0x7f22000040ull;

	add(ev_lean_name(T0 - 900, WAKER_CPU, OUTSIDER, OUTSIDER, "poster", WP_LEAN_TRACKED));
	add(ev_lean_name(T0 - 800, WAKEE_CPU, WAKEE, PROC, "waiter", WP_LEAN_TRACKED));
	add(ev_futex_key(T0 - 500, OUTSIDER, waker_addr, 4711, 0x40));
	add(ev_futex_key(T0 - 400, PROC, wakee_addr, 4711, 0x40));
	add_named(ev_lean(T0 + 9000, WAKEE_CPU, 0, WAKEE, OUTSIDER, WAKER_CPU, T0, T0 + 2000, 0), WP_WAKER_SYSCALL,
		  SYS_futex, waker_addr, FUTEX_WAKE, 1, SYS_futex, wakee_addr, FUTEX_WAIT_BITSET);
	/* the same address in a process no key came for: private */
	add_named(ev_lean(T0 + 19000, WAKEE_CPU, 0, WAKEE, OUTSIDER, WAKER_CPU, T0 + 10000, T0 + 12000, 0),
		  WP_WAKER_SYSCALL, SYS_futex, wakee_addr, FUTEX_WAKE, 1, SYS_futex, wakee_addr, FUTEX_WAIT_BITSET);
	cr_assert_eq(nr_got, 2, "a key record is no wakeup");
	cr_assert_eq(attach_lean__counters(lean)->futex_keys, 2);
	cr_assert(got[0].waker.futex.shared && got[0].wait.futex.shared);
	cr_assert_eq(got[0].wait.futex.ino, 4711);
	cr_assert_eq(got[0].wait.futex.offset, 0x40);
	cr_assert_eq(got[0].wait.futex.dev, 0x2d);
	cr_assert_str_eq(got[0].mechanism, "futex inode 4711+0x40 wake -> wait_bitset");
	cr_assert_eq(got[0].family, MECH_FUTEX);
	cr_assert_not(got[1].waker.futex.shared, "no key came for the waker's process at that address");
	cr_assert(got[1].wait.futex.shared);
	cr_assert_str_eq(got[1].mechanism, "futex 0x7f22000040 wake -> futex inode 4711+0x40 wait_bitset");
}

/*
 * A softirq its waker raised in its own context (a send on loopback): the
 * names record says so, with the vector; the task, a process not traced,
 * named by its name record, is the waker, and the mechanism is still the
 * softirq's. One it did not raise is the softirq's alone, its vector unknown.
 */
Test(attach_lean, a_softirq_its_task_raised_names_the_task_as_the_waker)
{
	char name[MECHANISM_NAME_LEN];

	add_names();
	add_named(ev_lean(T0 + 9000, WAKEE_CPU, 0, WAKEE, OUTSIDER, WAKER_CPU, T0, T0 + 2000, WP_LEAN_WAKER_SOFTIRQ),
		  WP_WAKER_SOFTIRQ, 3, 0, 0, WP_SEEN_WAIT | WP_SEEN_RAISED, SYS_epoll_wait, 5, 0);
	add_named(ev_lean(T0 + 19000, WAKEE_CPU, 0, WAKEE, OUTSIDER, WAKER_CPU, T0 + 10000, T0 + 12000,
			  WP_LEAN_WAKER_SOFTIRQ),
		  WP_WAKER_SOFTIRQ, -1, 0, 0, WP_SEEN_WAIT, SYS_epoll_wait, 5, 0);
	cr_assert_eq(nr_got, 2);
	cr_assert(got[0].waker.raised);
	cr_assert_str_eq(got[0].mechanism, "softirq NET_RX -> epoll wait");
	mechanism__waker_name(&got[0].waker, name, sizeof(name));
	cr_assert_str_eq(name, "process client 3000");
	cr_assert_eq(mechanism__waker_id(&got[0].waker), MECHANISM_RAISER_ID | (OUTSIDER - 1));
	cr_assert(mechanism__waker_has_task(&got[0].waker) && !mechanism__waker_is_thread(&got[0].waker),
		  "a task to name, not a thread on its CPU's phases");
	cr_assert_not(got[1].waker.raised);
	cr_assert_str_eq(got[1].mechanism, "softirq -> epoll wait");
	mechanism__waker_name(&got[1].waker, name, sizeof(name));
	cr_assert_str_eq(name, "softirq");
}

/*
 * A sleep not seen (asleep since before tracking) names the waker's end
 * alone; a start's "wait" is its parent's clone(); names whose header is
 * not their wakeup's (another CPU's, another moment's) are not taken, and
 * are counted.
 */
Test(attach_lean, names_without_a_wait_a_start_and_names_of_another_record)
{
	struct wp_event w;

	with_fd_kinds();
	add_names();
	add_named(ev_lean(T0 + 9000, WAKEE_CPU, 0, WAKEE, WAKER, WAKER_CPU, T0, T0 + 2000, WP_LEAN_STATE_UNKNOWN),
		  WP_WAKER_SYSCALL, SYS_write, EFD, 0, 0, -1, 0, 0);
	add_named(ev_lean(T0 + 109000, WAKEE_CPU, 0, WAKEE, WAKER, WAKER_CPU, T0 + 100000, T0 + 100000,
			  WP_LEAN_NEW),
		  WP_WAKER_SYSCALL, SYS_clone3, 0, 0, 0, -1, 0, 0);
	w = ev_lean(T0 + 209000, WAKEE_CPU, 0, WAKEE, WAKER, WAKER_CPU, T0 + 200000, T0 + 202000, 0);
	add(ev_lean_names(&(struct wp_event){ .ts_ns = w.ts_ns, .cpu = WAKER_CPU }, WP_WAKER_SYSCALL, SYS_write,
			  EFD, 0, 1, SYS_read, EFD, 0));
	add(w);

	cr_assert_eq(nr_got, 3);
	cr_assert_not(got[0].wait.known);
	cr_assert_str_eq(got[0].mechanism, "eventfd write", "the waker's end alone");
	cr_assert(got[1].wait.known && got[1].wait.start);
	cr_assert_eq(got[1].wait.nr, SYS_clone3);
	cr_assert_eq(got[1].family, MECH_START);
	cr_assert_not(got[2].named, "another record's names are not its");
	cr_assert_str_eq(got[2].mechanism, "thread -> run");
	cr_assert_eq(attach_lean__counters(lean)->unpaired_wakers, 1);
}

/*
 * With the flight recorder's idle program, the names say whether the CPU
 * the wakee last ran on was idle at its waking and when it left that idle:
 * the wakeup's idle CPU and idle exit, as the full engine has them; without
 * it, nothing is claimed either way.
 */
Test(attach_lean, the_names_tell_the_idle_cpu_and_its_exit_when_idle_was_traced)
{
	static const struct {
		uint8_t seen;
		uint32_t idle_exit;
		bool idle, exit_seen;
		int64_t exit_ns;
	} cases[] = {
		{ WP_SEEN_WAIT | WP_SEEN_IDLE, 4001, true, true, 4000 },
		{ WP_SEEN_WAIT | WP_SEEN_IDLE, WP_IDLE_EXIT_UNSEEN, true, false, 0 },
		{ WP_SEEN_WAIT | WP_SEEN_IDLE, 0, false, false, 0 },
		{ WP_SEEN_WAIT, 4001, false, false, 0 },
	};
	size_t n = sizeof(cases) / sizeof(cases[0]);

	add_names();
	for (size_t i = 0; i < n; i++) {
		uint64_t t = T0 + i * 100000;
		struct wp_event w = ev_lean(t + 9000, WAKEE_CPU, 0, WAKEE, WAKER, WAKER_CPU, t, t + 2000, 0);
		struct wp_event names = ev_lean_names(&w, WP_WAKER_SYSCALL, SYS_write, EFD, 0, cases[i].seen, SYS_read,
						      EFD, 0);

		names.lean_names.idle_exit = cases[i].idle_exit;
		add(names);
		add(w);
	}
	cr_assert_eq(nr_got, n);
	for (size_t i = 0; i < n; i++) {
		const struct sample_result *sr = &got[i].sr;

		cr_assert_eq(got[i].idle_seen, !!(cases[i].seen & WP_SEEN_IDLE), "case %zu", i);
		cr_assert_eq(sr->target_was_idle, cases[i].idle, "case %zu", i);
		cr_assert_eq(sr->idle_exit_seen, cases[i].exit_seen, "case %zu", i);
		if (cases[i].exit_seen)
			cr_assert_eq(sr->idle_exit_ns, cases[i].exit_ns, "case %zu", i);
	}
}

/* through the analysis: named futex wakes and waits make the futex words' table, untimed */
Test(attach_lean, named_futex_wakeups_count_their_words_waits_and_wakes)
{
	struct attach_analysis_opts o = { .lean = true };
	struct attach_analysis *a = attach_analysis__new(&o);
	struct attach_session_result end = { .drops_total = 0 };
	const struct attach_futex *f;
	struct wp_event e, names;

	cr_assert_not_null(a);
	e = ev_lean_name(T0 - 200, WAKER_CPU, WAKER, PROC, "producer", WP_LEAN_TRACKED);
	attach_analysis__event(a, &e);
	e = ev_lean_name(T0 - 100, WAKEE_CPU, WAKEE, PROC, "consumer", WP_LEAN_TRACKED);
	attach_analysis__event(a, &e);
	for (int i = 0; i < 4; i++) {
		e = ev_lean(T0 + i * 100000 + 5000, WAKEE_CPU, 0, WAKEE, WAKER, WAKER_CPU, T0 + i * 100000,
			    T0 + i * 100000 + 1500, 0);
		names = ev_lean_names(&e, WP_WAKER_SYSCALL, SYS_futex, WORD, FUTEX_WAKE_PRIVATE, 1, SYS_futex, WORD,
				      FUTEX_WAIT_PRIVATE);
		attach_analysis__event(a, &names);
		attach_analysis__event(a, &e);
	}
	attach_analysis__advance(a, T0 + 2000000, 0);
	attach_analysis__end(a, &end);
	cr_assert_eq(a->agg->complete, 4);
	cr_assert_eq(a->agg->nr_futexes, 1);
	f = &a->agg->futexes[0];
	cr_assert_eq(f->tgid, PROC);
	cr_assert_eq(f->addr, WORD);
	cr_assert_eq(f->waits, 4, "a wait ends at its switch-in when no program times it");
	cr_assert_eq(f->wakes, 4);
	cr_assert_eq(f->waits_timed, 0);
	attach_analysis__free(a);
}

Test(attach_lean, a_record_of_a_lost_switch_in_is_missing_it_and_has_no_phase)
{
	const struct attach_result *r;

	add_names();
	add(ev_lean(T0 + 50000, WAKEE_CPU, WAKEE, WAKEE, WAKER, WAKER_CPU, T0, T0 + 2000, WP_LEAN_NO_SWITCH_IN));
	cr_assert_eq(nr_got, 1);
	r = &got[0];
	cr_assert_eq(r->sr.label, LABEL_MISSING_EVENT);
	cr_assert_eq(r->sr.missing, MARK_SWITCH_IN);
	cr_assert_not(r->sr.phased);
	cr_assert_eq(r->wake_to_run_ns, -1);
	cr_assert_eq(r->absent[PHASE_RUNQ_WAIT], ATTACH_ABSENT_LABELLED);
	cr_assert_not(r->mark_seen[MARK_SWITCH_IN]);
	cr_assert(r->mark_seen[MARK_WAKEUP]);
}

/* through the analysis: the aggregate takes lean wakeups, and no cause, since none was traced */
Test(attach_lean, the_analysis_aggregates_lean_wakeups_without_causes)
{
	struct attach_analysis_opts o = { .outliers = 2, .lean = true };
	struct attach_analysis *a = attach_analysis__new(&o);
	struct attach_session_result end = { .drops_total = 0 };
	struct wp_event e;

	cr_assert_not_null(a);
	e = ev_lean_name(T0 - 100, WAKEE_CPU, WAKEE, PROC, "consumer", WP_LEAN_TRACKED);
	attach_analysis__event(a, &e);
	for (int i = 0; i < 10; i++) {
		e = ev_lean(T0 + i * 100000 + 5000 + i * 1000, WAKEE_CPU, 0, WAKEE, WAKER, WAKER_CPU, T0 + i * 100000,
			    T0 + i * 100000 + 1500, 0);
		attach_analysis__event(a, &e);
	}
	attach_analysis__advance(a, T0 + 2000000, 0);
	attach_analysis__end(a, &end);
	cr_assert_eq(a->agg->complete, 10);
	cr_assert_eq(a->agg->wake_to_run.count, 10);
	cr_assert_eq(a->agg->wake_to_run.max, 14000);
	cr_assert_eq(a->agg->causes.explained_total_ns, 0, "nothing explains a lean wakeup");
	cr_assert_eq(a->agg->nr_outliers, 2);
	cr_assert_eq(attach_analysis__counters(a)->results, 10);
	cr_assert_null(a->engine, "lean records need no engine");
	attach_analysis__free(a);
}

#define OTHER		4001u
#define STRANGER	4002u
#define IDLE_TID	0u
#define TASK_INTERRUPTIBLE	1u

/* lean_flight - a lean record of a wakeup that brought @n flight records of its CPU */
static struct wp_event lean_flight(struct wp_event e, uint32_t n)
{
	e.lean.flags |= (uint16_t)(n << WP_LEAN_FLIGHT_SHIFT);
	return e;
}

/*
 * The flight recorder in attach mode: a slow wakeup's record comes right
 * after the newest records of its CPU, and says how many. Those split its
 * wake_enqueue (the CPU idle) and runq_wait (another task, then the idle
 * task on its way); what came before them on that CPU, and the records of
 * other CPUs between, are not its.
 */
Test(attach_lean, a_slow_wakeup_is_split_by_the_flight_records_it_brought)
{
	const struct attach_result *r;
	struct wp_event e;
	int64_t sum;

	add_names();
	/* not this wakeup's: an older copy's record, which would put STRANGER on CPU 1 in the wake */
	add(ev_switch(T0 + 500, WAKEE_CPU, IDLE_TID, STRANGER, 0, 0));
	/* the copy: CPU 1 went idle before the wake, left idle at +1500, ran OTHER until +5000 */
	add(ev_switch(T0 - 5000, WAKEE_CPU, WAKEE, IDLE_TID, TASK_INTERRUPTIBLE, 0));
	add(ev_idle_enter(T0 - 4900, WAKEE_CPU, 1));
	/* another CPU's record between two of the copy's: the ring is shared */
	add(ev_switch(T0 + 100, WAKER_CPU, WAKER, OTHER, 0, 1));
	add(ev_idle_exit(T0 + 1500, WAKEE_CPU, T0 - 4900));
	add(ev_switch(T0 + 2000, WAKEE_CPU, IDLE_TID, OTHER, 0, 0));
	add(ev_switch(T0 + 5000, WAKEE_CPU, OTHER, IDLE_TID, TASK_INTERRUPTIBLE, 0));
	add(ev_switch(T0 + 6000, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0));
	e = ev_lean(T0 + 6000, WAKEE_CPU, WAKEE, WAKEE, WAKER, WAKER_CPU, T0, T0 + 1500, 0);
	e.lean.wakeup_cpu = WAKEE_CPU;	/* queued on the target's wake list */
	add(lean_flight(e, 6));

	cr_assert_eq(nr_got, 1);
	r = &got[0];
	cr_assert_eq(r->sr.label, LABEL_COMPLETE);
	cr_assert(r->sr.lean_flight);
	for (int k = 0; k < NR_PHASES; k++) {
		sum = 0;
		for (int c = 0; c < NR_CAUSES; c++)
			sum += r->sr.why.by_phase_cause[k][c];
		cr_assert_eq(sum, r->sr.phase_ns[k], "%s: causes %lld, phase %lld", wakeup__phase_name(k),
			     (long long)sum, (long long)r->sr.phase_ns[k]);
	}
	cr_assert_eq(r->sr.why.by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_IDLE], 1500, "CPU 1 idle until the wakeup");
	cr_assert_eq(r->sr.why.by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_OTHER_TASK], 3000, "OTHER held CPU 1");
	cr_assert_eq(r->sr.why.by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_OWN_WORK], 500 + 1000,
		     "the idle task on its way to the wakee");
	cr_assert_eq(r->sr.why.by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_OTHER_TASK], 0,
		     "the older copy's STRANGER is not this wakeup's");
	cr_assert_eq(r->sr.why.by_cause[CAUSE_IPI], 0, "CPU 1 was idle: no IPI is claimed in flight");
	cr_assert_eq(attach_lean__counters(lean)->flight_explained, 1);
	cr_assert_eq(attach_lean__counters(lean)->flight_lost, 0);
}

/* sum_ok - each phase of @r is split whole */
static void sum_ok(const struct attach_result *r)
{
	for (int k = 0; k < NR_PHASES; k++) {
		int64_t sum = 0;

		for (int c = 0; c < NR_CAUSES; c++)
			sum += r->sr.why.by_phase_cause[k][c];
		cr_assert_eq(sum, r->sr.phase_ns[k], "%s: causes %lld, phase %lld", wakeup__phase_name(k),
			     (long long)sum, (long long)r->sr.phase_ns[k]);
	}
}

/*
 * The flight recorder keeps the interrupts of a CPU a wake watches: the
 * wake-list IPI that carried the wake to idle CPU 1 and a device's
 * interrupt that ran before the wakee are named in its phases, as the full
 * mode names them.
 */
Test(attach_lean, the_interrupts_in_a_slow_wakeups_flight_records_take_their_time)
{
	const struct attach_result *r;
	struct wp_event e;

	add_names();
	add(ev_switch(T0 - 5000, WAKEE_CPU, WAKEE, IDLE_TID, TASK_INTERRUPTIBLE, 0));
	add(ev_idle_enter(T0 - 4900, WAKEE_CPU, 1));
	add(ev_irq(T0 + 800, WAKEE_CPU, WP_IRQ_CALL_FUNC, 251, false, NULL));
	add(ev_irq(T0 + 1000, WAKEE_CPU, WP_IRQ_CALL_FUNC, 251, true, NULL));
	add(ev_idle_exit(T0 + 1100, WAKEE_CPU, T0 - 4900));
	add(ev_irq(T0 + 1200, WAKEE_CPU, WP_IRQ_HARD, 24, false, "virtio0-input"));
	add(ev_irq(T0 + 3200, WAKEE_CPU, WP_IRQ_HARD, 24, true, NULL));
	add(ev_switch(T0 + 4000, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0));
	e = ev_lean(T0 + 4000, WAKEE_CPU, WAKEE, WAKEE, WAKER, WAKER_CPU, T0, T0 + 900, 0);
	e.lean.wakeup_cpu = WAKEE_CPU;	/* in the IPI, on the target */
	add(lean_flight(e, 8));

	cr_assert_eq(nr_got, 1);
	r = &got[0];
	cr_assert(r->sr.lean_flight);
	sum_ok(r);
	cr_assert_eq(r->sr.why.by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_IDLE], 800, "CPU 1 idle until the IPI");
	cr_assert_eq(r->sr.why.by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_IRQ], 100, "the IPI, up to the wakeup");
	cr_assert_eq(r->sr.why.by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_IRQ], 100 + 2000, "the IPI's rest, the device's");
	cr_assert_eq(r->sr.why.by_cause[CAUSE_IPI], 0, "the IPI ran: none is in flight");
}

/*
 * The flight recorder reads its CPU's steal clock at each of its records:
 * the host's hold on the wakee's idle CPU, between two of them, is the
 * host's time in the wakeup, not the CPU's idle.
 */
Test(attach_lean, the_hosts_steal_in_a_slow_wakeups_flight_records_is_its_own_cause)
{
	const struct attach_result *r;
	struct wp_event e;

	add_names();
	add(ev_switch(T0 - 5000, WAKEE_CPU, WAKEE, IDLE_TID, TASK_INTERRUPTIBLE, 0));
	add(ev_idle_enter(T0 - 4900, WAKEE_CPU, 1));
	/* the host held CPU 1 for 3 us before it left idle: [T0 + 1000, T0 + 4000] */
	add(ev_steal(T0 + 4000, WAKEE_CPU, 0, 3000, T0 - 4900));
	add(ev_idle_exit(T0 + 4000, WAKEE_CPU, T0 - 4900));
	add(ev_switch(T0 + 5000, WAKEE_CPU, IDLE_TID, WAKEE, 0, 0));
	e = ev_lean(T0 + 5000, WAKEE_CPU, WAKEE, WAKEE, WAKER, WAKER_CPU, T0, T0 + 500, 0);
	add(lean_flight(e, 5));

	cr_assert_eq(nr_got, 1);
	r = &got[0];
	sum_ok(r);
	cr_assert_eq(r->sr.why.by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_HOST], 3000, "the host's hold");
	cr_assert_eq(r->sr.why.by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_IDLE], 500, "idle before it");
	cr_assert_eq(r->sr.why.by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_OWN_WORK], 1000, "the idle task on its way");
}

/*
 * A wake_enqueue the waker did on its own CPU (another than the wakee's)
 * ran with interrupts off: the STEAL record of that CPU stamped at the
 * wakeup, which came before the wakeup's record, splits it into the host's
 * hold and the wake's own work. A record of that CPU copied between the two
 * for another wakeup does not hide it; without it the phase is unexplained.
 */
Test(attach_lean, a_wake_enqueue_its_waker_did_is_own_work_and_the_hosts_steal)
{
	static const uint64_t steals[] = { 1000, 0 };
	struct wp_event e;

	add_names();
	for (int i = 0; i < 3; i++) {
		uint64_t t = T0 + (uint64_t)i * 100000;

		nr_got = 0;
		if (i < 2)
			add(ev_steal(t + 1500, WAKER_CPU, WAKER, steals[i], t));
		/* the waker's CPU copies its own for a wakeup of its own */
		add(ev_switch(t + 1200, WAKER_CPU, WAKER, OTHER, 0, 1));
		add(ev_switch(t + 1000, WAKEE_CPU, WAKEE, OTHER, 0, 0));
		add(ev_switch(t + 6000, WAKEE_CPU, OTHER, WAKEE, 0, 1));
		e = ev_lean(t + 6000, WAKEE_CPU, WAKEE, WAKEE, WAKER, WAKER_CPU, t, t + 1500, 0);
		add(lean_flight(e, 2));
		cr_assert_eq(nr_got, 1);
		cr_assert_eq(got[0].sr.wakeup_cpu, WAKER_CPU, "enqueued by the waker");
		sum_ok(&got[0]);
		if (i == 2) {
			cr_assert_eq(got[0].sr.why.by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_UNEXPLAINED], 1500);
			break;
		}
		cr_assert_eq(got[0].sr.why.by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_HOST], (int64_t)steals[i], "pass %d",
			     i);
		cr_assert_eq(got[0].sr.why.by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_OWN_WORK], 1500 - (int64_t)steals[i],
			     "pass %d", i);
		cr_assert_eq(got[0].sr.why.by_phase_cause[PHASE_RUNQ_WAIT][CAUSE_OTHER_TASK], 4500, "pass %d", i);
	}
}

/*
 * An IPI the flight records show before the waking carried no wake of this
 * one: a wake_enqueue on a CPU nothing else is known of is the IPI in
 * flight, as in the full engine.
 */
Test(attach_lean, an_ipi_before_the_waking_is_not_the_one_that_carried_the_wake)
{
	const struct attach_result *r;
	struct wp_event e;

	add_names();
	add(ev_irq(T0 - 3000, WAKEE_CPU, WP_IRQ_CALL_FUNC, 251, false, NULL));
	add(ev_irq(T0 - 2900, WAKEE_CPU, WP_IRQ_CALL_FUNC, 251, true, NULL));
	add(ev_switch(T0 + 6000, WAKEE_CPU, OTHER, WAKEE, 0, 1));
	e = ev_lean(T0 + 6000, WAKEE_CPU, WAKEE, WAKEE, WAKER, WAKER_CPU, T0, T0 + 1500, 0);
	e.lean.wakeup_cpu = WAKEE_CPU;
	add(lean_flight(e, 3));

	cr_assert_eq(nr_got, 1);
	r = &got[0];
	sum_ok(r);
	cr_assert_eq(r->sr.why.by_phase_cause[PHASE_WAKE_ENQUEUE][CAUSE_IPI], 1500);
}

/* a wakeup that brought none is not explained, whatever its CPU's records */
Test(attach_lean, a_wakeup_without_flight_records_is_not_explained)
{
	add(ev_switch(T0 + 2000, WAKEE_CPU, IDLE_TID, OTHER, 0, 0));
	add(ev_lean(T0 + 6000, WAKEE_CPU, WAKEE, WAKEE, WAKER, WAKER_CPU, T0, T0 + 1500, 0));
	cr_assert_eq(nr_got, 1);
	cr_assert_not(got[0].sr.lean_flight);
	cr_assert_eq(got[0].sr.why.by_cause[CAUSE_OTHER_TASK] + got[0].sr.why.by_cause[CAUSE_UNEXPLAINED], 0);
	cr_assert_eq(attach_lean__counters(lean)->flight_explained, 0);
}

/* a record that says more came than did is counted, not explained from the wrong ones */
Test(attach_lean, flight_records_that_never_came_are_counted_lost)
{
	add(ev_switch(T0 + 2000, WAKEE_CPU, IDLE_TID, OTHER, 0, 0));
	add(lean_flight(ev_lean(T0 + 6000, WAKEE_CPU, WAKEE, WAKEE, WAKER, WAKER_CPU, T0, T0 + 1500, 0), 3));
	cr_assert_eq(nr_got, 1);
	cr_assert_not(got[0].sr.lean_flight);
	cr_assert_eq(attach_lean__counters(lean)->flight_lost, 1);
}
