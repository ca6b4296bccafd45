/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collector.h - load and attach the BPF programs, track processes, and stream
 * their ring-buffer records to a callback.
 */
#ifndef WAKEPROBE_COLLECTOR_H
#define WAKEPROBE_COLLECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/types.h>
#include "syscall_list.h"
#include "wakeprobe.h"

typedef int (*collector_event_fn)(const struct wp_event *e, void *ctx);
/* a copy of a user stack (struct wp_stack_copy), whole: its bytes are len long, no more */
typedef void (*collector_copy_fn)(const struct wp_stack_copy *copy, void *ctx);

struct collector_opts {
	bool verbose;			/* pass libbpf's own messages through */
	uint32_t ringbuf_bytes;		/* a power of two, at least one page */
	/* syscalls whose entry / exit to record, ended by -1 if shorter */
	struct syscall_list enter_syscalls;
	struct syscall_list exit_syscalls;
	bool all_syscalls;		/* record both ends of every syscall instead */
	/*
	 * Have the kernel time the programs' runs (BPF_ENABLE_STATS), in
	 * windows of COLLECTOR_TIMED_MS of every COLLECTOR_TIMED_EVERY_MS:
	 * its two clock reads a run cost more than the programs' own work on
	 * a hypervisor's clock, and timed throughout they change what is
	 * measured (bench/NOTES.md). A refusal is not an error.
	 */
	bool run_stats;
	bool time_every_run;		/* ... every run instead: the benchmark's per-program figures */
	/*
	 * Attach mode: trace programs wakeprobe did not start. Adds the
	 * WP_EV_WAKER and WP_EV_BLOCK records and the SYS_EXIT of every
	 * syscall a tracked task slept in (bpf/full.bpf.h says what each
	 * holds); false keeps the BPF side exactly as the workloads need it.
	 */
	bool attach;
	/*
	 * Attach mode, --syscall-phases: programs on every syscall's entry and
	 * exit time the waker's notify and the wakee's return. Without it no
	 * program runs on syscalls, and the WAKER and BLOCK records name the
	 * syscall from the task's registers (WP_WAKER_UNTIMED, WP_BLOCK_UNTIMED).
	 */
	bool syscall_phases;
	/*
	 * The lean engine: only the scheduler's wake and switch tracepoints (and a
	 * workload's syscalls), one WP_EV_LEAN record per wakeup
	 * (bpf/lean.bpf.h).
	 */
	bool lean;
	/*
	 * What follows is the lean engine's alone. The caller passes it
	 * settled, as the options are (options.h): each is false or 0 unless
	 * lean is true, and the collector takes it as it comes.
	 */
	/* a workload: its wait ends at a signal's delivery, not at its syscall's exit */
	bool lean_wait_end_signal;
	/* the flight recorder: wakeups this slow or slower bring their CPU's records; 0: off */
	uint64_t lean_flight_ns;
	/* ... on, its threshold the running p99 of the wakeups' waking to switch-in instead (lean_adapt.h) */
	bool lean_flight_adaptive;
	/* ... on in attach mode, keeping softirqs too (a workload's always does) */
	bool lean_softirqs;
	/* --stacks: each wakeup's waker's and wakee's stacks, kept once each (COLLECTOR_STACKS) */
	bool stacks;
	/*
	 * ... and copies of their user stacks (struct wp_stack_copy), handed
	 * to fn like any record: a slow wakeup's, up to COLLECTOR_UNWIND_SLOW
	 * a second, and unwind_per_s a second of the others'
	 */
	bool unwind;
	uint32_t unwind_per_s;
	/*
	 * Attach mode beyond processes: --all traces every task but
	 * wakeprobe's own; --cgroup (trace_cgroups) the tasks of the cgroups
	 * collector__trace_cgroup() adds, and of those below them, made before
	 * the run or during it. cgroups: each wakeup's cgroups ride with it
	 * (struct wp_lean_cgroups).
	 */
	bool trace_all;
	bool trace_cgroups;
	bool cgroups;
	/* --chains: each wakeup's chain of wakers rides with it (struct wp_lean_link) */
	bool chains;
	/*
	 * A service's (--listen): with cgroups, and neither stacks nor chains,
	 * the wakeups the flight recorder does not judge slow are summed in the
	 * kernel instead of sent (bpf/sums.bpf.h), read by collector__sum_maps()
	 */
	bool sums;
	/* load the programs, and no more: collector__open() tells whether this kernel takes them */
	bool load_only;
	collector_event_fn fn;
	/* --unwind's copies, handed over as they come, never to fn; NULL: dropped */
	collector_copy_fn copy_fn;
	void *ctx;
};

struct collector;

/*
 * collector__check_access - can this process trace at all? Fills @msg with
 * one line naming the fix when not; returns 0 or a negative errno.
 */
int collector__check_access(char *msg, size_t len);

/*
 * collector__names_refused_prog - does libbpf's warning @warning (a line, its
 * "libbpf: " prefix or not) say the kernel refused a program? Its verifier
 * answers EACCES as a blocked bpf() does: the warning tells the two apart.
 */
bool collector__names_refused_prog(const char *warning);

/*
 * collector__check_pid_namespace - the BPF side gives every pid as
 * wakeprobe's own pid namespace numbers it (a container's, when it runs in
 * one); @starts: the run starts a workload or a command, which must get
 * pids in that namespace too, not in one made for its children alone
 * (unshare -p without -f). 0 when it does, else -EOPNOTSUPP and @msg.
 */
int collector__check_pid_namespace(bool starts, char *msg, size_t len);

/* collector__open - load and attach; on failure @msg says why */
int collector__open(struct collector **out, const struct collector_opts *opts, char *msg, size_t len);
/* collector__track - trace process @tgid from now on (a lean workload: its first thread's state made now) */
int collector__track(struct collector *c, pid_t tgid);
/* collector__trace_cgroup - trace_cgroups: trace the tasks of cgroup @id (v2) and of those below it; 0 or -errno */
int collector__trace_cgroup(struct collector *c, uint64_t id);
/*
 * collector__out_of_fds - is @err (a negative errno) a run out of file
 * descriptors? Then one line into @msg: about how many a run with @c (NULL:
 * untraced) needs, the limit and the fix. A limit below what the BPF side
 * alone holds counts whatever @err says: libbpf words that EINVAL.
 */
bool collector__out_of_fds(const struct collector *c, int err, char *msg, size_t len);
/*
 * How often a live run drains the ring buffer: the BPF side commits records
 * without waking the reader (bpf/ring.bpf.h, event_submit()).
 */
#define COLLECTOR_DRAIN_EVERY_MS	10
/*
 * ... a run over the whole machine (--all, --cgroup, --listen): what a take
 * of the ring costs whatever it holds (the poll, the clocks, the flight
 * threshold's buckets, the programs' timing) was 0.4% of a CPU at 100 a
 * second, as much as 10,000 wakeups; at 200,000 wakeups a second, 50 ms of
 * them are 2 MiB of the 8 MiB ring
 */
#define COLLECTOR_DRAIN_MACHINE_MS	50
/*
 * A BPF program stamps its record before it reserves and commits it, so a
 * record can show up slightly after records stamped later. Everything older
 * than this, relative to the moment the ring buffer was last drained, is in.
 */
#define COLLECTOR_COMMIT_DELAY_NS	(2ull * 1000 * 1000)

/* collector__now_ns - CLOCK_MONOTONIC, the clock the BPF side stamps its records with */
uint64_t collector__now_ns(void);

/*
 * collector__take - wait up to @timeout_ms for records, deliver every one
 * in the ring buffer, and return the time up to which the stream is now
 * complete; the drop counter read after the drain goes into @drops.
 */
uint64_t collector__take(struct collector *c, int timeout_ms, uint64_t *drops);
/*
 * collector__leave - collector__take() that leaves the records in the ring
 * buffer: wait @timeout_ms, and return the time up to which the stream
 * would be complete had it been drained now (collector__drain_until()
 * takes them later); the drop counter goes into @drops.
 */
uint64_t collector__leave(struct collector *c, int timeout_ms, uint64_t *drops);

/* collector__poll - wait up to @timeout_ms, then deliver what arrived */
int collector__poll(struct collector *c, int timeout_ms);
/* collector__drain - deliver everything already in the ring buffer */
int collector__drain(struct collector *c);
/*
 * collector__drain_until - deliver the records in the ring buffer, in its
 * order, up to the first one stamped after @until_ns: that one waits for
 * the next drain. Records that waited in the ring while the workload ran
 * (session.c) come out this way, a stretch at a time.
 */
int collector__drain_until(struct collector *c, uint64_t until_ns);
/* collector__backlog - the bytes of records waiting in the ring buffer, of collector__ring_bytes() */
uint64_t collector__backlog(const struct collector *c);
uint32_t collector__ring_bytes(const struct collector *c);
/* collector__detach - stop producing events; the ring buffer can still be drained */
void collector__detach(struct collector *c);
/* collector__attach - after collector__detach, produce events again */
int collector__attach(struct collector *c);
/*
 * collector__follow_raisers - attach mode: a softirq woke a traced thread;
 * from now on keep who raises each CPU's softirqs, so that one a task
 * raised in its own context names that task (bpf/irq.bpf.h,
 * handle_softirq_raise: it runs at every raise of the machine, which a
 * run that no softirq wakes does not pay for). 0, or a negative errno.
 */
int collector__follow_raisers(struct collector *c);
void collector__counters(const struct collector *c, struct wp_counters *out, uint64_t *drops_total);

struct lean_sums_delta;
/*
 * collector__take_sums - a run that sums (opts.sums): what grew in its
 * sums since the last take, into *@out (lean_sums__take(), @gone and @ctx
 * its); -ENOENT when it does not sum. The run's one set of copies: every
 * taker gets what grew since any took last.
 */
int collector__take_sums(struct collector *c, bool (*gone)(uint64_t id, void *ctx), void *ctx,
			 const struct lean_sums_delta **out);
/*
 * --stacks: the distinct stacks the kernel keeps, at most; as many hash
 * slots, so a stack whose slot another holds is not kept (counted): about
 * one in 2 * 16384 / n of n distinct stacks. 127 frames each: 17 MiB.
 */
#define COLLECTOR_STACKS	16384

/* --unwind: the slow wakeups a second whose stacks are copied, at most (a flood of slow ones is bounded too) */
#define COLLECTOR_UNWIND_SLOW	1000

/*
 * collector__stack - the frames of stack @id of the stacks map (--stacks)
 * into @ips, innermost first: how many, at most @max; 0 when the map has
 * no such stack
 */
size_t collector__stack(const struct collector *c, int32_t id, uint64_t *ips, size_t max);
/* collector__next_stack - the id of the stacks map's stack after @id (-1: the first): 0, or -ENOENT past the last */
int collector__next_stack(const struct collector *c, int32_t id, int32_t *next);
/* collector__stack_cost - --stacks: the programs' time taking the stacks, and how many they asked for */
void collector__stack_cost(const struct collector *c, struct wp_stack_cost *out);
/*
 * collector__unwind_top - --unwind: thread @tid's stack ends at @top, as
 * an unwinding out to its start found: its copies stop there (the BPF
 * side's unwind_tops). 0, or a negative errno.
 */
int collector__unwind_top(const struct collector *c, uint32_t tid, uint64_t top);
/* collector__stack_bytes - the kernel memory the stacks map holds, 0 without --stacks */
uint64_t collector__stack_bytes(const struct collector *c);
/* collector__lean_counters - the lean engine's count of the wakes that wrote no record */
void collector__lean_counters(const struct collector *c, struct wp_lean_counters *out);
/*
 * collector__lean_flight_ns - the flight recorder's thresholds now, by the
 * kind of waker (enum wp_slow_kind): fixed, or where the running p99 of the
 * kind has moved them (LEAN_ADAPT_NONE before it had enough wakeups, when
 * LEAN_ADAPT_FIRST_NS was in force); 0
 * without the recorder. Returns whether they follow the running p99.
 */
bool collector__lean_flight_ns(const struct collector *c, uint64_t out[WP_SLOW_KINDS]);
/* collector__run_stats - 0 when the kernel times the programs' runs, else why not (a negative errno) */
int collector__run_stats(const struct collector *c);
struct kernel_features;
/*
 * collector__kernel - what the running kernel offers the programs
 * (kernel_features__get() of the BPF object, opened and not loaded);
 * NULL with @msg when it cannot be said
 */
const struct kernel_features *collector__kernel(char *msg, size_t len);
struct steal_layout;
/*
 * collector__steal - whether the BPF side reads the host's steal clock
 * (WP_EV_STEAL records), or the one line saying why not. A CPU whose
 * layout check failed is counted in wp_counters.steal_bad_cpus.
 */
const struct steal_layout *collector__steal(const struct collector *c);
#define COLLECTOR_MAX_PROGS	32

struct collector_prog_totals {
	/*
	 * Times the kernel skipped one of our programs because another of its
	 * invocations was already running on that CPU (recursion_misses,
	 * v5.12+): events that were never made.
	 */
	uint64_t missed_runs;
	/* how often the programs ran: their own count (bpf/maps.bpf.h, prog_runs) */
	uint64_t counted_runs;
	/* with run_stats: the runs the kernel timed, and their time in all */
	uint64_t runs;
	uint64_t run_ns;
	/* ... and program by program, the loaded ones, in the object's order */
	struct collector_prog_cost {
		char name[32];		/* the program's: handle_sched_switch, lean_sched_waking, ... */
		char tracepoint[32];	/* where it is attached: sched_switch, cpu_idle, ... */
		uint64_t runs;
		uint64_t run_ns;
	} progs[COLLECTOR_MAX_PROGS];
	uint32_t nr_progs;
};

/* the kernel times the programs in windows this long, one at the start of each period */
#define COLLECTOR_TIMED_MS		20
#define COLLECTOR_TIMED_EVERY_MS	2000

/*
 * collector__time_tick - with run_stats, turn the kernel's timing on or off
 * as the windows say at @now_ns; the first call starts the first window.
 * Call it as tracing starts and then every COLLECTOR_DRAIN_EVERY_MS or so.
 */
void collector__time_tick(struct collector *c, uint64_t now_ns);
/* collector__prog_totals - the programs' own count, and bpf_prog_info summed over every program */
void collector__prog_totals(const struct collector *c, struct collector_prog_totals *t);
/*
 * collector__object_totals - bpf_prog_info of every loaded program of @obj,
 * any BPF object's (the benchmark's floor tracer's too); no counted_runs
 */
struct bpf_object;
void collector__object_totals(const struct bpf_object *obj, struct collector_prog_totals *t);
void collector__close(struct collector *c);

#endif /* WAKEPROBE_COLLECTOR_H */
