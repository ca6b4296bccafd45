/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach_result.h - a wakeup of a tracked thread as attach mode hands it
 * over, whichever engine paired it: the full one (attach.h), from the
 * streamed records, or the lean engine's (attach_lean.h), from one record the
 * kernel paired. Who woke it, the wait it ended, its marks and kernel
 * phases, for each phase whether it is present and why not, its label,
 * and the mechanism named from both ends (mechanism.h); the names of the
 * reasons a phase is absent, and the naming both engines share.
 */
#ifndef WAKEPROBE_ATTACH_RESULT_H
#define WAKEPROBE_ATTACH_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include "chain.h"
#include "mechanism.h"
#include "wakeprobe.h"
#include "wakeup.h"

/* why a phase of a wakeup has no time; ATTACH_PRESENT when it has */
enum attach_absence {
	ATTACH_PRESENT,
	ATTACH_ABSENT_NO_USER_STAMP,	/* notify_user, resume_user: no stamps inside the program */
	ATTACH_ABSENT_WAKER_NO_SYSCALL,	/* the waker is a tracked thread outside any syscall */
	ATTACH_ABSENT_WAKER_UNTRACKED,	/* another process or a kernel thread: its syscalls are not traced */
	ATTACH_ABSENT_WAKER_INTERRUPT,	/* an irq, a softirq or a timer woke it: there is no syscall */
	ATTACH_ABSENT_ENTRY_UNSEEN,	/* the waker's syscall was entered before its entry could be seen */
	ATTACH_ABSENT_NO_WAIT_SYSCALL,	/* the wakee slept outside a syscall: nothing returns */
	ATTACH_ABSENT_SLEPT_AGAIN,	/* the wakee slept again in its wait syscall before it returned */
	ATTACH_ABSENT_LABELLED,		/* not complete (see the label): no phase is measured */
	ATTACH_ABSENT_UNTIMED,		/* no program ran on syscalls (no --syscall-phases): not timed */
	NR_ATTACH_ABSENCES,
};

/*
 * One wakeup of a tracked thread.
 *
 * sr is the wakeup in the words of the workload paths (wakeup.h), so that
 * the stages that take a struct sample_result (explain__sample(),
 * aggregate__add()) can take it too: sample.seq numbers the results from 1,
 * sample.waker_tid is waker.tid when a thread woke it (0 for an interrupt,
 * a softirq or a timer, whose waker.tid is the task they interrupted) and
 * sample.wakee_tid the wakee; label,
 * missing, phase_ns, the CPUs, the idle exit, notify_nr/arg/arg2 (the
 * waker's syscall) and wait_end_type/nr mean what they mean there. With no
 * stamps in the program, t_notify_ns is the first mark (the waker's syscall
 * entry, or sched_waking) and t_woken_ns the last (the wait's end, or the
 * switch-in), so notify_user and resume_user are always 0. In a complete
 * result an absent phase is zero wide: its marks in sr.mark_ns take the time
 * of their neighbours, the phases still add up to total_ns, and mark_seen[]
 * says which marks were really seen; in any other result sr.mark_ns holds
 * the marks seen and 0 for the others.
 */
struct attach_result {
	struct sample_result sr;

	uint32_t wakee_tgid;		/* 0 until the wakee's switch-in named it */
	char wakee_comm[WP_TASK_COMM_LEN];
	uint16_t wakee_prio;		/* at its switch-in */
	struct waker_info waker;	/* cls 0: no waker record came with the waking */
	struct wait_info wait;		/* known: the BLOCK of the sleep this wakeup ended */

	bool mark_seen[NR_MARKS];
	uint8_t absent[NR_PHASES];	/* enum attach_absence, per phase */
	int64_t wake_to_run_ns;		/* sched_waking -> switch-in; -1 when not complete */
	int64_t notify_to_return_ns;	/* waker's syscall entry -> wait syscall's exit; -1 unless both known */
	int64_t waited_ns;		/* wait syscall's entry -> its exit; -1 unless both known */
	uint32_t migrations;		/* sched_migrate_task of the wakee between its waking and its last mark */

	uint8_t family;			/* enum mech_family */
	char mechanism[MECHANISM_NAME_LEN];	/* mechanism__name() */
	/*
	 * the lean engine: the waker's syscall and the wait were read with the wakeup
	 * (WP_LEAN_NAMES): the mechanism is named from both ends, as above
	 */
	bool named;
	/* the lean engine: idle transitions were traced (the flight recorder): sr.target_was_idle holds */
	bool idle_seen;
	/* --stacks (sr.stacked): what names its stacks while the run goes (run_stacks.h), for the outputs that stream */
	struct run_stacks *stack_names;
	/*
	 * --all, --cgroup, --listen (WP_LEAN_CGROUPS): the wakee's, the
	 * waker's and the CPU holder's cgroups, by id; cgrouped false: none came
	 */
	bool cgrouped;
	struct wp_lean_cgroups cgroups;
	/* --chains (WP_LEAN_LINK): the chain of wakers behind it (chain.h); chained false: none came */
	bool chained;
	struct chain chain;
	/*
	 * --chains with the full engine: its chain from the stream held against
	 * the kernel's (chain_check.h), enum chain_verdict; with CHAIN_SAME the
	 * most a hop's time differed
	 */
	uint8_t chain_verdict;
	uint64_t chain_diff_ns;
};

/* what fd @fd of process @tgid is, for records that do not say: asked once per wakeup end */
/* the counters of either engine: the full engine keeps them all, the lean one as many as it has */
struct attach_counters {
	uint64_t events;		/* records added */
	uint64_t late_events;		/* stamped before a time attach__advance() had finished: not replayed */
	uint64_t evicted_events;	/* pushed out of a full event window */
	uint64_t drops_seen;		/* highest drop count carried by a record or noted */
	uint64_t results;		/* wakeups handed to the callback */
	uint64_t threads;		/* threads known now */
	uint64_t threads_peak;
	uint64_t new_threads;		/* sched_wakeup_new and fork: a thread began (or a tid was reused) */
	uint64_t exited_threads;	/* a switch-out in TASK_DEAD (a BLOCK in exit_group may be any sleep there) */
	uint64_t forgotten_threads;	/* the table was full: the thread seen least recently was dropped */
	uint64_t unpaired_wakers;	/* a WAKER record whose WAKING did not follow on its CPU */
	uint64_t stray_wakeups;		/* a second sched_wakeup for one waking: ignored */
	uint64_t cpu_out_of_range;	/* records from a CPU >= WP_MAX_CPUS: not paired, no idle exit */
	uint64_t migrations;		/* sched_migrate_task of a tracked task, anywhere in the run */
	uint64_t explained_cut;		/* complete wakeups older than the records kept: their start unexplained */
	/* the lean engine: slow wakeups split by cause from their CPU's flight records, and not for want of memory */
	uint64_t flight_explained;
	uint64_t flight_lost;
	/* lean attach mode: shared futex words whose key the kernel sent, and those a full table left out */
	uint64_t futex_keys;
	uint64_t futex_keys_lost;
};

typedef enum fd_kind (*attach_fd_kind_fn)(uint32_t tgid, int fd, void *ctx);
typedef void (*attach_result_fn)(const struct attach_result *r, void *ctx);

struct attach_config {
	attach_fd_kind_fn fd_kind;	/* NULL: an fd the records do not name is FD_KIND_UNKNOWN */
	void *fd_kind_ctx;
	/* the full engine: each wakeup's chain, from the stream (chain_stream.h); the lean one's ride in its records */
	bool chains;
	/* ... and sees each such chain, woken at @waking_ns, before the wakeup is handed over; NULL: none */
	void (*chained)(struct attach_result *r, uint64_t waking_ns, void *ctx);
	void *chained_ctx;
};

/*
 * attach__name_mechanism - @r's mechanism and family from its waker and its
 * wait, once @cfg has said what their fds are: for the engine's wakeups and
 * the lean engine's alike; from @memo when it has them (NULL: named afresh)
 */
void attach__name_mechanism(const struct attach_config *cfg, struct attach_result *r, struct mechanism_memo *memo);
/* attach__absence_name - "present", "no_user_stamp", "waker_untracked", ... */
const char *attach__absence_name(enum attach_absence why);
/* attach__notify_absence - why a wakeup by @w has no notify_kernel, if it has none */
enum attach_absence attach__notify_absence(const struct waker_info *w);
/* attach__absence_describe - the reason as a sentence fragment: "the waker is another process ..." */
const char *attach__absence_describe(enum attach_absence why);

#endif /* WAKEPROBE_ATTACH_RESULT_H */
