// SPDX-License-Identifier: GPL-2.0
/* program_set.c - which of the BPF side's programs a run loads, and what they record (program_set.h) */
#include <string.h>
#include <bpf/libbpf.h>
#include "mechanism.h"
#include "program_set.h"
#include "wakeprobe.skel.h"

void program_set__want_syscalls(__u8 wanted[WP_MAX_SYSCALLS], const struct syscall_list *list, __u8 end)
{
	int i;

	for (i = 0; i < syscall_list__len(list); i++)
		if (list->nr[i] < WP_MAX_SYSCALLS)
			wanted[list->nr[i]] |= end;
}

/* set_fd_syscalls - attach mode names the fd of the syscalls that take one, in the kernel, as it finds it */
static void set_fd_syscalls(struct wakeprobe_bpf *skel)
{
	int nr;

	for (nr = 0; nr < WP_MAX_SYSCALLS; nr++)
		if (mechanism__syscall_takes_fd(nr))
			skel->rodata->fd_syscalls[nr / 64] |= 1ull << (nr % 64);
}

void program_set__mode(struct wakeprobe_bpf *skel, bool attach, bool lean)
{
	struct bpf_program *prog;

	/* fixed at load: the verifier prunes every branch the mode never takes */
	skel->rodata->attach_mode = attach;
	/* the lean engine loads its own programs and the fork tracker; the full engine all but those */
	bpf_object__for_each_program(prog, skel->obj) {
		bool is_lean = !strncmp(bpf_program__name(prog), "lean_", 5);

		bpf_program__set_autoload(prog, lean ? is_lean : !is_lean);
	}
	/*
	 * attach mode names the task behind a softirq it raised itself, in
	 * either engine: loaded, attached once a softirq wakes a traced thread
	 * (collector__follow_raisers(), collector.h)
	 */
	bpf_program__set_autoload(skel->progs.handle_softirq_raise, attach);
	bpf_program__set_autoattach(skel->progs.handle_softirq_raise, false);
	if (attach)
		set_fd_syscalls(skel);
	if (lean) {
		bpf_program__set_autoload(skel->progs.handle_sched_process_fork, true);
		return;
	}
	bpf_program__set_autoload(skel->progs.handle_hrtimer_expire_entry, attach);
	bpf_program__set_autoload(skel->progs.handle_hrtimer_expire_exit, attach);
}

/*
 * program_set__lean_chains - the full engine with --chains: the lean
 * engine's scheduler programs load beside it, with no flight recorder, for
 * the links the kernel carries in their records; the full engine's stream
 * builds the same links, and the analysis checks one against the other
 */
void program_set__lean_chains(struct wakeprobe_bpf *skel)
{
	skel->rodata->lean_beside_full = true;
	bpf_program__set_autoload(skel->progs.lean_sched_waking, true);
	bpf_program__set_autoload(skel->progs.lean_sched_wakeup, true);
	bpf_program__set_autoload(skel->progs.lean_sched_wakeup_new, true);
	bpf_program__set_autoload(skel->progs.lean_sched_switch, true);
}

/*
 * program_set__syscall_phases - attach mode without --syscall-phases: no
 * program on any syscall (a program there runs for every syscall of the
 * machine), nor at a signal's delivery, which only ends a wait its
 * sys_exit would have
 */
void program_set__syscall_phases(struct wakeprobe_bpf *skel, bool on)
{
	skel->rodata->syscall_phases = on;
	if (on)
		return;
	bpf_program__set_autoload(skel->progs.handle_sys_enter, false);
	bpf_program__set_autoload(skel->progs.handle_sys_exit, false);
	bpf_program__set_autoload(skel->progs.handle_signal_deliver, false);
}

/*
 * program_set__flight_evidence - the lean engine: the interrupt programs, which
 * the flight recorder loads to keep interrupt work in each CPU's ring
 * (@on), and the idle program; the full engine loads them all the same. The
 * softirqs' for a workload, and in attach mode with --softirqs
 * (@softirqs): there a loopback server runs a dozen a wakeup on every CPU,
 * and their two programs, even returning at once, cost it more than lean
 * mode's own four (docs/phases.md, "The flight recorder"); a workload's
 * two threads see few.
 */
void program_set__flight_evidence(struct wakeprobe_bpf *skel, bool on, bool softirqs)
{
	struct bpf_program *const progs[] = {
		skel->progs.lean_cpu_idle,
		skel->progs.handle_irq_entry,
		skel->progs.handle_irq_exit,
		skel->progs.handle_timer_entry,
		skel->progs.handle_timer_exit,
		skel->progs.handle_resched_entry,
		skel->progs.handle_resched_exit,
		skel->progs.handle_call_func_single_entry,
		skel->progs.handle_call_func_single_exit,
		skel->progs.handle_call_func_entry,
		skel->progs.handle_call_func_exit,
	};

	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++)
		bpf_program__set_autoload(progs[i], on);
	bpf_program__set_autoload(skel->progs.handle_softirq_entry, on && softirqs);
	bpf_program__set_autoload(skel->progs.handle_softirq_exit, on && softirqs);
}

/*
 * program_set__lean_syscalls - the lean engine: a workload's (@on) notify and
 * resume split at its threads' syscalls, its wait ending at a signal's
 * delivery when @at_signal; attach mode loads no program on syscalls
 * (--syscall-phases asks for the full engine)
 */
void program_set__lean_syscalls(struct wakeprobe_bpf *skel, bool on, bool at_signal)
{
	skel->rodata->lean_syscalls = on;
	skel->rodata->lean_wait_end_signal = on && at_signal;
	bpf_program__set_autoload(skel->progs.lean_sys_enter, on);
	bpf_program__set_autoload(skel->progs.lean_sys_exit, on);
	bpf_program__set_autoload(skel->progs.lean_signal_deliver, on && at_signal);
}
