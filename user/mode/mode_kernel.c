// SPDX-License-Identifier: GPL-2.0
/*
 * mode_kernel.c - wakeprobe kernel: what the running kernel offers
 * wakeprobe, read from its BTF (kernel_features.h, steal_clock.h), and,
 * as root, whether it takes each engine's programs: each is loaded, the
 * verifier's to pass, and closed again, nothing attached. Exit status 0
 * when every traced mode can run, 1 when one cannot (docs/kernels.md).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "collector.h"
#include "kernel_features.h"
#include "mode.h"

/* the engines a run can load, as the modes open them */
static const struct engine {
	const char *name;
	bool attach, lean;
	bool chains;		/* --chains: its programs verified with the links' copies in */
	bool stacks;		/* --stacks: with the stacks and the copies of user stacks to unwind */
	bool service;		/* --all --listen: every task, by cgroup, summed in the kernel */
} engines[] = {
	{ "a workload, the lean engine", false, true, false, false, false },
	{ "a workload, the lean engine, --stacks", false, true, false, true, false },
	{ "a workload, the full engine", false, false, false, false, false },
	{ "attach, the lean engine", true, true, false, false, false },
	{ "attach, the lean engine, --stacks", true, true, false, true, false },
	{ "attach, the lean engine, --chains", true, true, true, false, false },
	{ "attach, the full engine", true, false, false, false, false },
	/* the lean engine's programs beside it, for the kernel's links the stream's are held against */
	{ "attach, the full engine, --chains", true, false, true, false, false },
	{ "a service, the lean engine summing by cgroup", true, true, false, false, true },
};

static bool kernel_wants(const struct wp_options *o)
{
	return o->command == CMD_KERNEL;
}

static void print_features(const struct kernel_features *kf)
{
	for (int f = 0; f < KF_COUNT; f++) {
		const struct kernel_feature_desc *d = kernel_features__desc(f);

		printf("  %-4s %-42s %-5s %s%s\n", kf->has[f] ? "yes" : "no", d->what, d->since,
		       kf->has[f] || !d->without ? "" : "without: ", kf->has[f] || !d->without ? d->gives : d->without);
	}
}

static void print_layout(const struct steal_layout *l)
{
	if (!l->cpu_number_offset)
		printf("  per-CPU      not found: %s\n", l->why_off);
	else
		printf("  per-CPU      cpu_number and __preempt_count %s, at runqueues%+lld and %+lld\n",
		       l->in_pcpu_hot ? "in struct pcpu_hot (the v6.2-v6.14 layout)" : "variables of their own",
		       (long long)l->cpu_number_offset, (long long)l->preempt_count_offset);
	if (l->on)
		printf("  steal clock  on: kvm_steal_time.steal at runqueues%+lld\n", (long long)l->steal_offset);
	else if (l->steal_offset)
		printf("  steal clock  off: %s (its kvm_steal_time.steal at runqueues%+lld)\n", l->why_off,
		       (long long)l->steal_offset);
	else
		printf("  steal clock  off: %s\n", l->why_off);
}

/* try_engine - whether the kernel takes @e's programs: 0, or 1 with why on the line */
static int try_engine(const struct engine *e, bool verbose)
{
	struct collector_opts opts = {
		.verbose = verbose,
		.ringbuf_bytes = 1u << 20,
		.attach = e->attach,
		.lean = e->lean,
		.lean_flight_adaptive = e->lean,
		.chains = e->chains,
		.stacks = e->stacks,
		.unwind = e->stacks,
		.unwind_per_s = e->stacks ? OPT_DEFAULT_UNWIND : 0,
		.trace_all = e->service,
		.cgroups = e->service,
		.sums = e->service,
		.load_only = true,
	};
	struct collector *c = NULL;
	char msg[512];

	opts.enter_syscalls.nr[0] = -1;
	opts.exit_syscalls.nr[0] = -1;
	if (collector__open(&c, &opts, msg, sizeof(msg))) {
		printf("  no   %-28s %s\n", e->name, msg);
		return 1;
	}
	collector__close(c);
	printf("  yes  %s\n", e->name);
	return 0;
}

static int kernel_check(struct mode_run *m)
{
	const struct kernel_features *kf;
	struct utsname u;
	char msg[512];
	int failed = 0;

	kf = collector__kernel(msg, sizeof(msg));
	if (!kf) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 2;
	}
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	printf("wakeprobe %s: what Linux %s (%s) offers it\n", WAKEPROBE_VERSION, u.release, u.machine);
	if (kf->pretended)
		printf("  (WAKEPROBE_KERNEL_LACKS takes some features away)\n");
	if (!kernel_features__floor(kf, msg, sizeof(msg))) {
		printf("  floor        not met: %s\n", msg);
		if (kf->btf)
			print_features(kf);
		return 1;
	}
	printf("  floor        met: it has what every traced mode needs (Linux 5.13 has it all)\n");
	print_features(kf);
	print_layout(&kf->steal);
	/* by capability, not uid: a service's user may hold what loading takes, and root under a unit less */
	if (collector__check_access(msg, sizeof(msg))) {
		printf("  loads        not tried: %s\n", msg);
		return 0;
	}
	printf("  loads        each engine's programs, loaded and closed again:\n");
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		failed |= try_engine(&engines[i], m->o->verbose);
	return failed;
}

const struct mode kernel_mode = {
	.name = "kernel",
	.state_size = 1,
	.wants = kernel_wants,
	.check = kernel_check,
};
