// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "capability.h"
#include "collector.h"
#include "lean_adapt.h"
#include "lean_sums.h"
#include "mechanism.h"
#include "program_set.h"
#include "steal_clock.h"
#include "wakeprobe.skel.h"
#include "kernel_features.h"

#define BTF_PATH "/sys/kernel/btf/vmlinux"

struct collector {
	struct wakeprobe_bpf *skel;
	struct steal_layout steal;	/* where the BPF side reads each CPU's steal clock, or why not */
	struct ring_buffer *rb;
	collector_event_fn fn;
	collector_copy_fn copy_fn;
	void *ctx;
	int stats_fd;		/* run-time stats stay on while this is open */
	int stats_err;		/* why they could not be turned on, a negative errno; 0 */
	bool time_windows;	/* ... only in windows (collector__time_tick()) */
	uint64_t windows_from_ns;	/* the start of the first window; 0 before it */
	/* collector__drain_until(): the first record past its bound, taken from the ring and not yet delivered */
	uint64_t until_ns;	/* the bound while it drains; UINT64_MAX otherwise */
	struct wp_event held[WP_RECORD_PARTS];
	uint32_t nr_held;
	/* the ring's two positions, mapped read-only: how much waits in it */
	const unsigned long *consumer_pos, *producer_pos;
	uint32_t ring_bytes;
	/* the lean engine's flight threshold, moved to the running p99 (lean_adapt.h); NULL buckets: fixed */
	uint64_t *lean_buckets;		/* every CPU's counts, as the map gives them */
	uint64_t lean_p99[WP_SLOW_KINDS];	/* by kind, LEAN_ADAPT_NONE until known */
	uint64_t lean_counted[WP_SLOW_KINDS];	/* by kind, the wakeups counted at the last tick */
	int nr_cpus;
	uint64_t lean_adapted_ns;
	struct lean_sums *sums;		/* want_sums: the copies the sums are read against; else NULL */
};

/* the counts of one CPU in the lean_slowness map: a kind's buckets after another's */
#define LEAN_CPU_BUCKETS	(WP_SLOW_KINDS * WP_SLOW_BUCKETS)

static bool libbpf_verbose;

/* libbpf's last warning, the first line of it: the detail an error message names */
static char libbpf_last_warning[160];
/* the first program the kernel refused, as libbpf said it ("prog 'x': failed to load: -13"); "": none */
static char libbpf_refused_prog[160];

/* libbpf_text - @line without the "libbpf: " libbpf puts before the formats it hands its printer */
static const char *libbpf_text(const char *line)
{
	return strncmp(line, "libbpf: ", 8) ? line : line + 8;
}

bool collector__names_refused_prog(const char *warning)
{
	warning = libbpf_text(warning);
	return !strncmp(warning, "prog '", 6) && strstr(warning, "failed to load");
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	char line[sizeof(libbpf_last_warning)];
	va_list copy;

	if (level == LIBBPF_WARN) {
		va_copy(copy, args);
		vsnprintf(line, sizeof(line), fmt, copy);
		va_end(copy);
		line[strcspn(line, "\n")] = '\0';
		/* kept without libbpf's prefix: the messages name libbpf themselves */
		snprintf(libbpf_last_warning, sizeof(libbpf_last_warning), "%s", libbpf_text(line));
		if (!libbpf_refused_prog[0] && collector__names_refused_prog(libbpf_last_warning))
			snprintf(libbpf_refused_prog, sizeof(libbpf_refused_prog), "%s", libbpf_last_warning);
	}
	/* wakeprobe words its own errors; libbpf's detail is there with -v */
	if (!libbpf_verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

int collector__check_access(char *msg, size_t len)
{
	static const int tracing[] = { CAPABILITY_BPF, CAPABILITY_PERFMON };
	char lacking[64];

	/*
	 * Loading tracing programs takes CAP_BPF, and CAP_PERFMON for a
	 * tracing program type and for reading kernel memory; both split out
	 * of CAP_SYS_ADMIN in Linux 5.8, which still stands for either. The
	 * kernel's refusal would only say EPERM, which reads as a seccomp
	 * policy (load_programs()): the missing capability is named here.
	 */
	if (!capability__has(CAPABILITY_SYS_ADMIN) &&
	    capability__missing(tracing, sizeof(tracing) / sizeof(tracing[0]), lacking, sizeof(lacking))) {
		snprintf(msg, len, "tracing needs CAP_BPF and CAP_PERFMON, and this process lacks %s: run wakeprobe "
			 "as root (sudo), or give it both as ambient or file capabilities (docs/fleet.md)", lacking);
		return -EPERM;
	}
	if (access(BTF_PATH, R_OK)) {
		snprintf(msg, len, "this kernel has no BTF at %s: use a kernel built with "
			 "CONFIG_DEBUG_INFO_BTF=y", BTF_PATH);
		return -ENOENT;
	}
	return 0;
}

/*
 * include/linux/proc_ns.h: the inode of the initial pid namespace, fixed
 * since v3.8; every other namespace gets one from PROC_DYNAMIC_FIRST up
 */
#define PROC_PID_INIT_INO	0xEFFFFFFCU

/*
 * pid_namespace - the inode of the pid namespace the link @path names, as
 * the kernel's ns.inum has it; 0 when the link leads nowhere (after
 * unshare -p, pid_for_children's namespace exists from its first child on)
 */
static uint32_t pid_namespace(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (uint32_t)st.st_ino;
}

/*
 * own_pid_namespace - the pid namespace whose pids the BPF side is to give
 * (pidns_inum in bpf/maps.bpf.h): 0 for the initial one, where they are
 * the kernel's own. The link is the process's own namespace whatever /proc
 * is mounted: a container's /proc shows it one pid deep (NSpid has one
 * entry), so only the namespace itself tells. No /proc: the initial one.
 */
static uint32_t own_pid_namespace(void)
{
	uint32_t ino = pid_namespace("/proc/self/ns/pid");

	return ino == PROC_PID_INIT_INO ? 0 : ino;
}

int collector__check_pid_namespace(bool starts, char *msg, size_t len)
{
	struct stat st;

	/*
	 * After unshare -p without a fork, wakeprobe keeps its namespace and
	 * what it starts gets another one's pids: the workload's threads and
	 * the command would be numbered where wakeprobe does not look.
	 */
	if (!starts || lstat("/proc/self/ns/pid_for_children", &st) ||
	    pid_namespace("/proc/self/ns/pid_for_children") == pid_namespace("/proc/self/ns/pid"))
		return 0;
	snprintf(msg, len, "what wakeprobe starts would have pids of a namespace it is not in (unshare -p without "
		 "-f): run it as unshare -fp --mount-proc wakeprobe ..., or without -p");
	return -EOPNOTSUPP;
}

_Static_assert(sizeof(struct wp_event) == 64, "a record is one cache line; keep it so");

/* handle_record's word to the ring that it stopped at collector__drain_until()'s bound */
#define STOP_AT_BOUND	(-EAGAIN)

/*
 * handle_record - one ring record: one struct wp_event, or a few written
 * as one (attach mode's lean wakeup and its names, bpf/wakeprobe.h), handed
 * over in their order. All the parts of one carry one header.
 */
static int handle_record(void *ctx, void *data, size_t size)
{
	struct collector *c = ctx;
	const struct wp_event *e = data;
	size_t n = size / sizeof(*e);

	/* a copy of a user stack goes its own way, bound or not: it is its wakeup's record that is ordered */
	if (n && e->type == WP_EV_LEAN &&
	    (e->copy.flags & (WP_LEAN_NAMES | WP_LEAN_COPY)) == (WP_LEAN_NAMES | WP_LEAN_COPY)) {
		const struct wp_stack_copy *copy = data;

		if (c->copy_fn && size >= offsetof(struct wp_stack_copy, bytes) &&
		    copy->head.copy.len <= size - offsetof(struct wp_stack_copy, bytes) &&
		    copy->head.copy.len <= WP_STACK_COPY_MAX)
			c->copy_fn(copy, c->ctx);
		return 0;
	}
	if (n > WP_RECORD_PARTS)
		n = WP_RECORD_PARTS;
	/* taken from the ring all the same (libbpf moves past it): kept for the next drain */
	if (n && e->ts_ns > c->until_ns) {
		memcpy(c->held, e, n * sizeof(*e));
		c->nr_held = (uint32_t)n;
		return STOP_AT_BOUND;
	}
	for (size_t i = 0; i < n; i++)
		c->fn(&e[i], c->ctx);
	return 0;
}

/* deliver_held - the record a bounded drain stopped at comes before any still in the ring */
static void deliver_held(struct collector *c)
{
	uint32_t n = c->nr_held;

	c->nr_held = 0;
	for (uint32_t i = 0; i < n; i++)
		c->fn(&c->held[i], c->ctx);
}

/*
 * The fds a run holds at its peak besides the BPF side's: the three
 * standard streams, the sample ring's memfd (a throughput workload's
 * output memfd instead), a runner's two pipes (four fds) and the two the
 * child moves them to, and up to six output files.
 */
#define OTHER_FDS	(3 + 1 + 4 + 2 + 6)

/*
 * fds_needed - about how many fds a run holds at its peak with @c's BPF
 * side (NULL: none): an fd for each map the object creates, for each
 * program loaded and for its link, one each for the object's BTF, the
 * ring buffer's epoll and the run-time stats; and OTHER_FDS. A full
 * workload run counts 9 maps and 22 programs: 56 + 16. (libbpf's probes
 * take a few more at load, for an instant, with no link open yet.)
 */
static unsigned int fds_needed(const struct collector *c, unsigned int *bpf_fds)
{
	struct bpf_program *prog;
	struct bpf_map *map;
	unsigned int n = 0;

	if (c && c->skel) {
		bpf_object__for_each_map(map, c->skel->obj)
			n += bpf_map__autocreate(map);
		bpf_object__for_each_program(prog, c->skel->obj)
			n += 2 * bpf_program__autoload(prog);
		n += 3;
	}
	if (bpf_fds)
		*bpf_fds = n;
	return n + OTHER_FDS;
}

bool collector__out_of_fds(const struct collector *c, int err, char *msg, size_t len)
{
	unsigned int bpf_fds, needed = fds_needed(c, &bpf_fds);
	struct rlimit lim;

	if (err == -ENFILE) {
		snprintf(msg, len, "out of file descriptors: the system's table is full (ENFILE); this run needs "
			 "about %u: end what holds them, or raise fs.file-max", needed);
		return true;
	}
	if (getrlimit(RLIMIT_NOFILE, &lim))
		return false;
	/*
	 * Short of fds, libbpf's feature probes fail first, and its load
	 * says EINVAL: a limit below what the BPF side alone holds is the cause
	 */
	if (err != -EMFILE && lim.rlim_cur >= bpf_fds + 3)
		return false;
	snprintf(msg, len, "out of file descriptors: this run needs about %u, and the limit is %llu (ulimit -n): "
		 "raise it", needed, (unsigned long long)lim.rlim_cur);
	return true;
}

/* map_positions - the ring's consumer and producer positions, a page each at its start, read-only */
static int map_positions(struct collector *c, int fd)
{
	long page = sysconf(_SC_PAGESIZE);
	void *cons = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	void *prod = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, page);

	if (cons == MAP_FAILED || prod == MAP_FAILED) {
		int err = -errno;

		if (cons != MAP_FAILED)
			munmap(cons, page);
		if (prod != MAP_FAILED)
			munmap(prod, page);
		return err;
	}
	c->consumer_pos = cons;
	c->producer_pos = prod;
	return 0;
}

/*
 * fit_to_kernel - the programs @skel is to load, fitted to the running
 * kernel before anything is loaded: on one below the floor, or without a
 * tracepoint or helper the run needs, false and one line in @msg naming
 * what is missing and what still works. Where a feature has an older way
 * (kernel_features.h), it is taken, and said once a process on stderr.
 */
static bool fit_to_kernel(struct wakeprobe_bpf *skel, const struct kernel_features *kf,
			  const struct collector_opts *opts, bool flight, char *msg, size_t len)
{
	static const enum kernel_feature flight_needs[] = { KF_LOOP, KF_PERCPU_LOOKUP };
	static const struct {
		enum kernel_feature feature;
		bool attach_only;	/* only attach mode's programs use it */
	} fallbacks[] = {
		{ KF_TASK_PT_REGS, true },
		{ KF_FIND_VMA, true },
		{ KF_SWITCH_PREV_STATE, false },
	};
	static bool told;
	const struct kernel_feature_desc *d;
	struct bpf_program *prog;
	enum kernel_feature f;

	if (!kernel_features__floor(kf, msg, len))
		return false;
	bpf_object__for_each_program(prog, skel->obj) {
		const char *sec = bpf_program__section_name(prog);

		if (bpf_program__autoload(prog) && kernel_features__tracepoint_missing(kf, sec)) {
			snprintf(msg, len, "this kernel (%s) has no tracepoint %s, which this run needs; "
				 "`wakeprobe kernel` says what it has", kf->release, strchr(sec, '/') + 1);
			return false;
		}
	}
	/* the flight recorder has no older way: the run is refused, the fix named */
	for (size_t i = 0; flight && i < sizeof(flight_needs) / sizeof(flight_needs[0]); i++) {
		d = kernel_features__desc(flight_needs[i]);
		if (!kf->has[flight_needs[i]]) {
			snprintf(msg, len, "this kernel (%s) lacks %s (Linux %s): %s", kf->release, d->what, d->since,
				 d->without);
			return false;
		}
	}
	skel->rodata->have_task_pt_regs = kf->has[KF_TASK_PT_REGS];
	skel->rodata->have_find_vma = kf->has[KF_FIND_VMA];
	skel->rodata->have_switch_prev_state = kf->has[KF_SWITCH_PREV_STATE];
	/* each older way this run takes, said once a process (bpf_rdonly_cast's gives the same answers) */
	for (size_t i = 0; !told && !opts->load_only && i < sizeof(fallbacks) / sizeof(fallbacks[0]); i++) {
		f = fallbacks[i].feature;
		d = kernel_features__desc(f);
		if (!kf->has[f] && (opts->attach || !fallbacks[i].attach_only))
			fprintf(stderr, "wakeprobe: this kernel (%s) lacks %s (Linux %s): %s\n", kf->release, d->what,
				d->since, d->without);
	}
	told = told || !opts->load_only;
	return true;
}

/* collector_new - a collector with nothing open yet, its records for @opts->fn */
static struct collector *collector_new(const struct collector_opts *opts)
{
	struct collector *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->fn = opts->fn;
	c->copy_fn = opts->copy_fn;
	c->ctx = opts->ctx;
	c->stats_fd = -1;
	c->until_ns = UINT64_MAX;
	return c;
}

/*
 * choose_programs - the programs the run loads, by its mode, and lean
 * mode's flight thresholds, each kind's until its p99 is known; returns
 * whether the flight recorder runs (its evidence programs load with it
 * alone)
 */
static bool choose_programs(struct collector *c, const struct collector_opts *opts)
{
	bool flight = opts->lean_flight_ns || opts->lean_flight_adaptive;

	program_set__mode(c->skel, opts->attach, opts->lean);
	if (opts->attach && !opts->lean)
		program_set__syscall_phases(c->skel, opts->syscall_phases);
	if (opts->attach && !opts->lean && opts->chains)
		program_set__lean_chains(c->skel);
	c->skel->rodata->pidns_inum = own_pid_namespace();
	if (opts->lean) {
		program_set__flight_evidence(c->skel, flight, !opts->attach || opts->lean_softirqs);
		program_set__lean_syscalls(c->skel, !opts->attach, opts->lean_wait_end_signal);
	}
	c->skel->rodata->lean_flight = flight;
	for (int i = 0; i < WP_SLOW_KINDS; i++) {
		c->lean_p99[i] = LEAN_ADAPT_NONE;
		c->skel->bss->lean_flight_ns[i] = opts->lean_flight_adaptive ? lean_adapt__in_force(LEAN_ADAPT_NONE)
									     : opts->lean_flight_ns;
		c->skel->bss->lean_flight_left[i] = opts->lean_flight_adaptive ? LEAN_ADAPT_FIRST_MAX : WP_FLIGHT_UNBOUNDED;
	}
	return flight;
}

/*
 * place_clock_reads - where the BPF side reads each CPU's steal clock and
 * preempt count, from the kernel's layout (@kf), and whether the run
 * states its steal
 */
static void place_clock_reads(struct collector *c, const struct kernel_features *kf,
			      const struct collector_opts *opts, bool flight)
{
	bool steal_read;

	c->steal = kf->steal;
	/* the BPF side reads the clocks: at each record, or the lean engine's at each flight record */
	steal_read = c->steal.on && (!opts->lean || flight);
	if (opts->lean && c->steal.on) {
		/* not the run's: its records are the slow wakeups' alone */
		c->steal.on = false;
		snprintf(c->steal.why_off, sizeof(c->steal.why_off), flight ?
			 "the lean engine reads them into its flight records only (the slow wakeups' host cause)" :
			 "the lean engine does not read the steal clocks");
	}
	/* the layout is checked against cpu_number on each CPU before either offset is used */
	c->skel->rodata->cpu_number_offset = c->steal.cpu_number_offset;
	if (steal_read)
		c->skel->rodata->steal_offset = c->steal.steal_offset;
	/* the lean engine's waker context, and attach mode's softirq raises: whose context they are */
	if ((opts->lean || opts->attach) && c->steal.cpu_number_offset)
		c->skel->rodata->preempt_count_offset = c->steal.preempt_count_offset;
}

/* set_scope - what the programs keep beyond the tracked processes: stacks, every task or cgroups' */
static void set_scope(struct collector *c, const struct collector_opts *opts)
{
	c->skel->rodata->want_stacks = opts->stacks;
	/* a kernel without bpf_task_pt_regs() takes no copies (have_task_pt_regs, fit_to_kernel()) */
	if (opts->stacks && opts->unwind) {
		long online = sysconf(_SC_NPROCESSORS_ONLN);
		unsigned int cpus = online > 0 ? (unsigned int)online : 1;

		/* each CPU its share of the second's budget, rounded up: a CPU counts its own */
		c->skel->rodata->want_unwind = true;
		c->skel->rodata->unwind_slow_per_cpu = (COLLECTOR_UNWIND_SLOW + cpus - 1) / cpus;
		c->skel->rodata->unwind_per_cpu = (opts->unwind_per_s + cpus - 1) / cpus;
	}
	c->skel->rodata->trace_all = opts->trace_all;
	c->skel->rodata->trace_cgroups = opts->trace_cgroups;
	c->skel->rodata->want_cgroups = opts->cgroups;
	c->skel->rodata->want_chains = opts->chains;
	c->skel->rodata->self_tgid = (__u32)getpid();
	if (opts->sums && opts->lean && opts->cgroups && !opts->stacks && !opts->chains) {
		c->skel->rodata->want_sums = true;
		mechanism__tables((struct wp_mech_tables *)&c->skel->rodata->mech_tables);
	}
}

/* size_maps - the ring buffer and the stacks map as the run asks, and the running p99's buckets */
static int size_maps(struct collector *c, const struct collector_opts *opts, bool flight, char *msg, size_t len)
{
	int err, nr_cpus;

	err = bpf_map__set_max_entries(c->skel->maps.events, opts->ringbuf_bytes);
	if (!err && c->skel->rodata->want_stacks)
		err = bpf_map__set_max_entries(c->skel->maps.stacks, COLLECTOR_STACKS);
	if (!err && c->skel->rodata->want_sums)
		err = bpf_map__set_max_entries(c->skel->maps.sum_cgroups, LEAN_SUMS_CGROUPS) ?:
		      bpf_map__set_max_entries(c->skel->maps.sum_cgroup_slots, LEAN_SUMS_CGROUPS) ?:
		      bpf_map__set_max_entries(c->skel->maps.sum_cgroup_free, LEAN_SUMS_CGROUPS) ?:
		      bpf_map__set_max_entries(c->skel->maps.sum_keys, LEAN_SUMS_KEYS) ?:
		      bpf_map__set_max_entries(c->skel->maps.sum_key_slots, LEAN_SUMS_KEYS) ?:
		      bpf_map__set_max_entries(c->skel->maps.sum_key_free, LEAN_SUMS_KEYS);
	nr_cpus = libbpf_num_possible_cpus();
	if (!err && nr_cpus > WP_MAX_CPUS)
		err = -E2BIG;
	if (err) {
		snprintf(msg, len, "cannot size the BPF maps: %s", strerror(-err));
		return err;
	}
	/* the running p99's buckets, every CPU's as the per-CPU map gives them */
	c->nr_cpus = nr_cpus;
	if (flight && opts->lean_flight_adaptive && nr_cpus > 0 &&
	    !(c->lean_buckets = calloc((size_t)nr_cpus * LEAN_CPU_BUCKETS, sizeof(uint64_t)))) {
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

/* load_programs - the programs into the kernel; a refusal said in one line, with libbpf's word on it */
static int load_programs(struct collector *c, char *msg, size_t len)
{
	int err;

	libbpf_last_warning[0] = '\0';
	libbpf_refused_prog[0] = '\0';
	err = wakeprobe_bpf__load(c->skel);
	if (!err || collector__out_of_fds(c, err, msg, len))
		return err;
	/* the verifier's refusal is EACCES too: it says which program, where a blocked bpf() says nothing */
	if (libbpf_refused_prog[0])
		snprintf(msg, len, "the kernel's verifier refused a BPF program (libbpf: %.100s): -v shows its log, "
			 "`wakeprobe kernel` what the kernel has", libbpf_refused_prog);
	else if (err == -EPERM || err == -EACCES)
		snprintf(msg, len, "the bpf() syscall was refused (%s): a seccomp policy, container or security "
			 "module blocks it; run wakeprobe as root on the host", strerror(-err));
	else
		snprintf(msg, len, "the kernel refused the BPF programs (%s; libbpf: %.100s): -v shows libbpf's "
			 "log, `wakeprobe kernel` what the kernel has", strerror(-err),
			 libbpf_last_warning[0] ? libbpf_last_warning : "no detail");
	return err;
}

/* want_syscalls - the syscalls whose entry or exit the programs record, now that the .bss is the kernel's */
static void want_syscalls(struct collector *c, const struct collector_opts *opts)
{
	__u8 *wanted = c->skel->bss->syscall_wanted;

	program_set__want_syscalls(wanted, &opts->enter_syscalls, WP_SYSCALL_ENTER | WP_SYSCALL_NOTIFY);
	program_set__want_syscalls(wanted, &opts->exit_syscalls, WP_SYSCALL_EXIT);
	if (opts->all_syscalls)
		for (int i = 0; i < WP_MAX_SYSCALLS; i++)
			wanted[i] |= WP_SYSCALL_ENTER | WP_SYSCALL_EXIT;
}

/*
 * start_run_stats - the kernel's run-time statistics of the programs, on
 * while the fd is open, and back to what they were when it closes (other
 * holders and the sysctl keep theirs). A kernel that refuses only takes
 * the cost figures away: the run goes on and says so. Before the attach:
 * timing every run, the kernel counts what the programs count.
 */
static void start_run_stats(struct collector *c, const struct collector_opts *opts)
{
	if (!opts->run_stats)
		return;
	/* on now, to learn whether they can be; windows begin with the first tick */
	c->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	c->stats_err = c->stats_fd < 0 ? c->stats_fd : 0;
	c->time_windows = !opts->time_every_run;
	if (c->stats_fd >= 0 && c->time_windows) {
		close(c->stats_fd);
		c->stats_fd = -1;
	}
}

/* attach_programs - the loaded programs on their tracepoints; a refusal said in one line */
static int attach_programs(struct collector *c, char *msg, size_t len)
{
	int err = wakeprobe_bpf__attach(c->skel);

	if (err && !collector__out_of_fds(c, err, msg, len))
		snprintf(msg, len, "cannot attach to the scheduler and syscall tracepoints (%s; libbpf: %.100s): "
			 "-v shows libbpf's log", strerror(-err),
			 libbpf_last_warning[0] ? libbpf_last_warning : "no detail");
	return err;
}

/* open_sums - want_sums: the service's sums mapped and their free slots queued (lean_sums__new()) */
static int open_sums(struct collector *c, char *msg, size_t len)
{
	const struct lean_sums_maps m = {
		.counts = bpf_map__fd(c->skel->maps.sum_counts),
		.hists = bpf_map__fd(c->skel->maps.sum_hists),
		.cgroups = bpf_map__fd(c->skel->maps.sum_cgroups),
		.keys = bpf_map__fd(c->skel->maps.sum_keys),
		.cgroup_slots = bpf_map__fd(c->skel->maps.sum_cgroup_slots),
		.key_slots = bpf_map__fd(c->skel->maps.sum_key_slots),
		.cgroup_free = bpf_map__fd(c->skel->maps.sum_cgroup_free),
		.key_free = bpf_map__fd(c->skel->maps.sum_key_free),
		.nr_cpus = c->nr_cpus,
	};

	c->sums = lean_sums__new(&m);
	if (c->sums)
		return 0;
	snprintf(msg, len, "cannot map the in-kernel sums: %s", strerror(errno));
	return -errno;
}

/* open_ring - the ring buffer read through libbpf, and its positions mapped to say how much waits */
static int open_ring(struct collector *c, const struct collector_opts *opts, char *msg, size_t len)
{
	int err;

	c->rb = ring_buffer__new(bpf_map__fd(c->skel->maps.events), handle_record, c, NULL);
	err = c->rb ? map_positions(c, bpf_map__fd(c->skel->maps.events)) : -errno;
	if (err && !collector__out_of_fds(c, err, msg, len))
		snprintf(msg, len, "cannot map the BPF ring buffer: %s", strerror(-err));
	if (!err)
		c->ring_bytes = opts->ringbuf_bytes;
	return err;
}

int collector__open(struct collector **out, const struct collector_opts *opts, char *msg, size_t len)
{
	const struct kernel_features *kf;
	struct collector *c;
	bool flight;
	int err;

	*out = NULL;
	libbpf_verbose = opts->verbose;
	libbpf_set_print(libbpf_print);

	c = collector_new(opts);
	if (!c)
		return -ENOMEM;
	c->skel = wakeprobe_bpf__open();
	if (!c->skel) {
		err = -errno;
		if (!collector__out_of_fds(c, err, msg, len))
			snprintf(msg, len, "cannot open the BPF object: %s", strerror(-err));
		goto err_out;
	}
	kf = kernel_features__get(c->skel->obj, msg, len);
	if (!kf) {
		err = -EINVAL;
		goto err_out;
	}
	flight = choose_programs(c, opts);
	place_clock_reads(c, kf, opts, flight);
	set_scope(c, opts);
	err = size_maps(c, opts, flight, msg, len);
	if (err)
		goto err_out;
	if (!fit_to_kernel(c->skel, kf, opts, flight, msg, len)) {
		err = -EOPNOTSUPP;
		goto err_out;
	}
	err = load_programs(c, msg, len);
	if (err)
		goto err_out;
	if (!opts->load_only) {
		want_syscalls(c, opts);
		start_run_stats(c, opts);
		/* the sums' free slots queued before any program can want one */
		if (c->skel->rodata->want_sums)
			err = open_sums(c, msg, len);
		if (!err)
			err = attach_programs(c, msg, len);
		if (!err)
			err = open_ring(c, opts, msg, len);
		if (err)
			goto err_out;
	}
	*out = c;
	return 0;

err_out:
	collector__close(c);
	return err;
}

/*
 * lean_storage_for - the lean engine in a workload: @tgid's thread gets its lean
 * state now, made through a pidfd, as the BPF side makes it for a thread
 * it sees start. The syscall programs look for it alone (a task without
 * it is no tracked process's): its first syscall may come before any
 * switch of it. The kernel refuses the update for an instant while a
 * program holds the storage's lock (EAGAIN, EBUSY): tried again a few
 * times, then left to the BPF side, which makes it at the thread's next
 * switch (a first sample before that misses its notify's entry, and says
 * so).
 */
static int lean_storage_for(struct collector *c, pid_t tgid)
{
	size_t size = bpf_map__value_size(c->skel->maps.lean_tasks);
	int pidfd, err = 0;
	void *zero;

	zero = calloc(1, size);
	if (!zero)
		return -ENOMEM;
	pidfd = (int)syscall(SYS_pidfd_open, tgid, 0);
	if (pidfd < 0)
		err = -errno;
	for (int tries = 0; pidfd >= 0 && tries < 100; tries++) {
		err = bpf_map__update_elem(c->skel->maps.lean_tasks, &pidfd, sizeof(pidfd), zero, size, BPF_NOEXIST) ?
			-errno : 0;
		if (err != -EAGAIN && err != -EBUSY)
			break;
		sched_yield();
	}
	if (err == -EEXIST || err == -EAGAIN || err == -EBUSY)
		err = 0;
	if (pidfd >= 0)
		close(pidfd);
	free(zero);
	return err;
}

int collector__track(struct collector *c, pid_t tgid)
{
	__u32 key = tgid;
	__u8 one = 1;

	if (bpf_map__update_elem(c->skel->maps.tracked_tgids, &key, sizeof(key), &one, sizeof(one), BPF_ANY))
		return -errno;
	return c->skel->rodata->lean_syscalls ? lean_storage_for(c, tgid) : 0;
}

int collector__trace_cgroup(struct collector *c, uint64_t id)
{
	__u64 key = id;
	__u8 one = 1;

	if (bpf_map__update_elem(c->skel->maps.traced_cgroups, &key, sizeof(key), &one, sizeof(one), BPF_ANY))
		return -errno;
	/* the programs run already: a cgroup judged before this one came may be under it */
	while (!bpf_map__get_next_key(c->skel->maps.cgroup_verdicts, NULL, &key, sizeof(key)))
		if (bpf_map__delete_elem(c->skel->maps.cgroup_verdicts, &key, sizeof(key), 0))
			return -errno;
	return 0;
}

uint64_t collector__now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* complete_at - for a drain at @at: the drop counter into @drops, and the time the stream is complete to */
static uint64_t complete_at(const struct collector *c, uint64_t at, uint64_t *drops)
{
	struct wp_counters counters;

	collector__counters(c, &counters, drops);
	return at - COLLECTOR_COMMIT_DELAY_NS;
}

/*
 * lean_adapt - without --threshold-us, every LEAN_ADAPT_EVERY_NS: the
 * flight threshold to the running p99 of the wakeups the BPF side counted,
 * and how many of the next tick's may bring their records (lean_adapt__budget())
 */
static void lean_adapt(struct collector *c, uint64_t now)
{
	uint64_t sum[WP_SLOW_BUCKETS];
	uint32_t zero = 0;

	if (!c->lean_buckets || now - c->lean_adapted_ns < LEAN_ADAPT_EVERY_NS)
		return;
	c->lean_adapted_ns = now;
	if (bpf_map__lookup_elem(c->skel->maps.lean_slowness, &zero, sizeof(zero), c->lean_buckets,
				 (size_t)c->nr_cpus * LEAN_CPU_BUCKETS * sizeof(uint64_t), 0))
		return;
	for (int k = 0; k < WP_SLOW_KINDS; k++) {
		uint64_t counted = 0;

		memset(sum, 0, sizeof(sum));
		for (int cpu = 0; cpu < c->nr_cpus; cpu++)
			for (int b = 0; b < WP_SLOW_BUCKETS; b++)
				sum[b] += c->lean_buckets[(size_t)cpu * LEAN_CPU_BUCKETS + (size_t)k * WP_SLOW_BUCKETS + b];
		for (int b = 0; b < WP_SLOW_BUCKETS; b++)
			counted += sum[b];
		c->lean_p99[k] = lean_adapt__threshold(sum);
		if (c->lean_p99[k] != LEAN_ADAPT_NONE) {
			c->skel->bss->lean_flight_ns[k] = c->lean_p99[k];
			c->skel->bss->lean_flight_left[k] = (int64_t)lean_adapt__budget(counted - c->lean_counted[k]);
		}
		c->lean_counted[k] = counted;
	}
}

size_t collector__stack(const struct collector *c, int32_t id, uint64_t *ips, size_t max)
{
	uint64_t frames[WP_STACK_DEPTH];
	uint32_t key = (uint32_t)id;
	size_t n = 0;

	if (id < 0 || !c->skel->rodata->want_stacks ||
	    bpf_map__lookup_elem(c->skel->maps.stacks, &key, sizeof(key), frames, sizeof(frames), 0))
		return 0;
	/* the map's value is the stack's frames, then zeros to its size */
	while (n < max && n < WP_STACK_DEPTH && frames[n]) {
		ips[n] = frames[n];
		n++;
	}
	return n;
}

int collector__next_stack(const struct collector *c, int32_t id, int32_t *next)
{
	uint32_t key = (uint32_t)id, out;

	if (!c->skel->rodata->want_stacks)
		return -ENOENT;
	if (bpf_map__get_next_key(c->skel->maps.stacks, id < 0 ? NULL : &key, &out, sizeof(out)))
		return -ENOENT;
	*next = (int32_t)out;
	return 0;
}

int collector__unwind_top(const struct collector *c, uint32_t tid, uint64_t top)
{
	if (!c->skel->rodata->want_unwind)
		return -ENOENT;
	return bpf_map__update_elem(c->skel->maps.unwind_tops, &tid, sizeof(tid), &top, sizeof(top), BPF_ANY);
}

void collector__stack_cost(const struct collector *c, struct wp_stack_cost *out)
{
	*out = c->skel->bss->stack_cost;
}

uint64_t collector__stack_bytes(const struct collector *c)
{
	if (!c->skel->rodata->want_stacks)
		return 0;
	return (uint64_t)bpf_map__max_entries(c->skel->maps.stacks) * (WP_STACK_DEPTH * sizeof(uint64_t) + 16);
}

bool collector__lean_flight_ns(const struct collector *c, uint64_t out[WP_SLOW_KINDS])
{
	for (int k = 0; k < WP_SLOW_KINDS; k++) {
		if (!c->skel->rodata->lean_flight)
			out[k] = 0;
		else
			out[k] = c->lean_buckets ? c->lean_p99[k] : c->skel->bss->lean_flight_ns[k];
	}
	return c->lean_buckets != NULL;
}

uint64_t collector__take(struct collector *c, int timeout_ms, uint64_t *drops)
{
	uint64_t drained_at, now = collector__now_ns();

	lean_adapt(c, now);
	collector__time_tick(c, now);
	deliver_held(c);
	collector__poll(c, timeout_ms);
	drained_at = collector__now_ns();
	collector__drain(c);
	return complete_at(c, drained_at, drops);
}

uint64_t collector__leave(struct collector *c, int timeout_ms, uint64_t *drops)
{
	struct timespec tick = { .tv_sec = timeout_ms / 1000, .tv_nsec = timeout_ms % 1000 * 1000000L };
	uint64_t now;

	nanosleep(&tick, NULL);
	now = collector__now_ns();
	lean_adapt(c, now);
	collector__time_tick(c, now);
	return complete_at(c, now, drops);
}

int collector__poll(struct collector *c, int timeout_ms)
{
	int n = ring_buffer__poll(c->rb, timeout_ms);

	return n == -EINTR ? 0 : n;
}

int collector__drain(struct collector *c)
{
	deliver_held(c);
	return ring_buffer__consume(c->rb);
}

int collector__drain_until(struct collector *c, uint64_t until_ns)
{
	int n;

	if (c->nr_held && c->held[0].ts_ns > until_ns)
		return 0;
	deliver_held(c);
	c->until_ns = until_ns;
	n = ring_buffer__consume(c->rb);
	c->until_ns = UINT64_MAX;
	return n == STOP_AT_BOUND ? 0 : n;
}

uint64_t collector__backlog(const struct collector *c)
{
	return __atomic_load_n(c->producer_pos, __ATOMIC_ACQUIRE) - __atomic_load_n(c->consumer_pos, __ATOMIC_ACQUIRE);
}

uint32_t collector__ring_bytes(const struct collector *c)
{
	return c->ring_bytes;
}

void collector__detach(struct collector *c)
{
	if (c && c->skel)
		wakeprobe_bpf__detach(c->skel);
}

int collector__attach(struct collector *c)
{
	return wakeprobe_bpf__attach(c->skel);
}

int collector__follow_raisers(struct collector *c)
{
	struct bpf_link *link;

	if (!c->skel->rodata->attach_mode || c->skel->links.handle_softirq_raise)
		return 0;
	link = bpf_program__attach(c->skel->progs.handle_softirq_raise);
	if (!link)
		return -errno;
	/* the skeleton's, so that its detach and its destroy take it with the rest */
	c->skel->links.handle_softirq_raise = link;
	return 0;
}

int collector__run_stats(const struct collector *c)
{
	if (c->stats_err)
		return c->stats_err;
	return c->stats_fd >= 0 || c->time_windows ? 0 : -ENODATA;
}

void collector__time_tick(struct collector *c, uint64_t now_ns)
{
	bool on;

	if (!c->time_windows)
		return;
	if (!c->windows_from_ns)
		c->windows_from_ns = now_ns;
	on = (now_ns - c->windows_from_ns) % (COLLECTOR_TIMED_EVERY_MS * 1000000ull) < COLLECTOR_TIMED_MS * 1000000ull;
	if (on && c->stats_fd < 0) {
		c->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	} else if (!on && c->stats_fd >= 0) {
		close(c->stats_fd);
		c->stats_fd = -1;
	}
}

/* counted_runs - the programs' own count of their runs, over every CPU */
static uint64_t counted_runs(const struct collector *c)
{
	int nr = libbpf_num_possible_cpus(), i;
	uint64_t *per_cpu, sum = 0;
	__u32 zero = 0;

	if (nr <= 0 || !(per_cpu = calloc(nr, sizeof(*per_cpu))))
		return 0;
	if (!bpf_map__lookup_elem(c->skel->maps.prog_runs, &zero, sizeof(zero), per_cpu, nr * sizeof(*per_cpu), 0))
		for (i = 0; i < nr; i++)
			sum += per_cpu[i];
	free(per_cpu);
	return sum;
}

const struct kernel_features *collector__kernel(char *msg, size_t len)
{
	struct wakeprobe_bpf *skel = wakeprobe_bpf__open();
	const struct kernel_features *kf;

	if (!skel) {
		snprintf(msg, len, "cannot open the BPF object: %s", strerror(errno));
		return NULL;
	}
	kf = kernel_features__get(skel->obj, msg, len);
	wakeprobe_bpf__destroy(skel);
	return kf;
}

const struct steal_layout *collector__steal(const struct collector *c)
{
	return &c->steal;
}

void collector__counters(const struct collector *c, struct wp_counters *out, uint64_t *drops_total)
{
	*out = c->skel->bss->counters;
	*drops_total = c->skel->bss->drops_total;
}

int collector__take_sums(struct collector *c, lean_sums_gone_fn gone, void *ctx, const struct lean_sums_delta **out)
{
	if (!c->sums)
		return -ENOENT;
	return lean_sums__take(c->sums, gone, ctx, out);
}

void collector__lean_counters(const struct collector *c, struct wp_lean_counters *out)
{
	*out = c->skel->bss->lean_counters;
}

void collector__object_totals(const struct bpf_object *obj, struct collector_prog_totals *t)
{
	struct bpf_program *prog;

	memset(t, 0, sizeof(*t));
	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		t->missed_runs += info.recursion_misses;
		t->runs += info.run_cnt;
		t->run_ns += info.run_time_ns;
		if (t->nr_progs < COLLECTOR_MAX_PROGS) {
			struct collector_prog_cost *pc = &t->progs[t->nr_progs++];
			const char *sec = bpf_program__section_name(prog);
			const char *tp = strrchr(sec, '/');

			snprintf(pc->name, sizeof(pc->name), "%s", bpf_program__name(prog));
			/* tp_btf/sched_switch: the tracepoint is what follows the program type */
			snprintf(pc->tracepoint, sizeof(pc->tracepoint), "%s", tp ? tp + 1 : sec);
			pc->runs = info.run_cnt;
			pc->run_ns = info.run_time_ns;
		}
	}
}

void collector__prog_totals(const struct collector *c, struct collector_prog_totals *t)
{
	collector__object_totals(c->skel->obj, t);
	t->counted_runs = counted_runs(c);
}

void collector__close(struct collector *c)
{
	if (!c)
		return;
	if (c->consumer_pos)
		munmap((void *)c->consumer_pos, sysconf(_SC_PAGESIZE));
	if (c->producer_pos)
		munmap((void *)c->producer_pos, sysconf(_SC_PAGESIZE));
	ring_buffer__free(c->rb);
	wakeprobe_bpf__destroy(c->skel);
	if (c->stats_fd >= 0)
		close(c->stats_fd);
	free(c->lean_buckets);
	lean_sums__free(c->sums);
	free(c);
}
