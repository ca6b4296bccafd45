/* SPDX-License-Identifier: GPL-2.0 */
/* test_kernel_features.c - what a kernel offers wakeprobe, from a BTF built here as a kernel's would have it */
#include <criterion/criterion.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include "kernel_features.h"

/* what the BTF built here holds */
struct kernel {
	bool task_btf, task_pt_regs, loop, find_vma, percpu_lookup;	/* enum bpf_func_id */
	bool bpf_storage;	/* task_struct.bpf_storage: task storage for tracing programs */
	int switch_args;	/* sched_switch's, 0: no such tracepoint */
	bool rdonly_cast;
};

static const struct kernel v6_18 = { true, true, true, true, true, true, 4, true };

static void add_enum(struct btf *btf, const char *name, const char *const values[], size_t n)
{
	int id = btf__add_enum(btf, name, 4);

	cr_assert_gt(id, 0);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(btf__add_enum_value(btf, values[i], (__s64)i + 1), 0);
}

/* kernel_btf - the pieces of a kernel's BTF that wakeprobe reads its features from */
static struct btf *kernel_btf(const struct kernel *k)
{
	const char *funcs[8], *maps[] = { "BPF_MAP_TYPE_HASH", "BPF_MAP_TYPE_RINGBUF", "BPF_MAP_TYPE_TASK_STORAGE" };
	const char *attach[] = { "BPF_CGROUP_INET_INGRESS", "BPF_TRACE_RAW_TP" };
	struct btf *btf = btf__new_empty();
	int n = 0, u32, ptr, task, proto, fn;

	cr_assert_not_null(btf);
	funcs[n++] = "BPF_FUNC_map_lookup_elem";
	if (k->task_btf)
		funcs[n++] = "BPF_FUNC_get_current_task_btf";
	if (k->task_pt_regs)
		funcs[n++] = "BPF_FUNC_task_pt_regs";
	if (k->loop)
		funcs[n++] = "BPF_FUNC_loop";
	if (k->find_vma)
		funcs[n++] = "BPF_FUNC_find_vma";
	if (k->percpu_lookup)
		funcs[n++] = "BPF_FUNC_map_lookup_percpu_elem";
	add_enum(btf, "bpf_func_id", funcs, (size_t)n);
	add_enum(btf, "bpf_map_type", maps, 3);
	add_enum(btf, "bpf_attach_type", attach, 2);
	u32 = btf__add_int(btf, "unsigned int", 4, 0);
	ptr = btf__add_ptr(btf, 0);
	task = btf__add_struct(btf, "task_struct", 16);
	cr_assert_eq(btf__add_field(btf, "__state", u32, 0, 0), 0);
	if (k->bpf_storage)
		cr_assert_eq(btf__add_field(btf, "bpf_storage", ptr, 64, 0), 0);
	if (k->switch_args) {
		/* typedef void (*btf_trace_sched_switch)(void *, bool, struct task_struct *, ... ) */
		int task_ptr = btf__add_ptr(btf, task);

		proto = btf__add_func_proto(btf, 0);
		cr_assert_eq(btf__add_func_param(btf, "__data", ptr), 0);
		cr_assert_eq(btf__add_func_param(btf, "preempt", u32), 0);
		cr_assert_eq(btf__add_func_param(btf, "prev", task_ptr), 0);
		cr_assert_eq(btf__add_func_param(btf, "next", task_ptr), 0);
		if (k->switch_args > 3)
			cr_assert_eq(btf__add_func_param(btf, "prev_state", u32), 0);
		cr_assert_gt(btf__add_typedef(btf, "btf_trace_sched_switch", btf__add_ptr(btf, proto)), 0);
	}
	if (k->rdonly_cast) {
		proto = btf__add_func_proto(btf, ptr);
		fn = btf__add_func(btf, "bpf_rdonly_cast", BTF_FUNC_GLOBAL, proto);
		cr_assert_gt(fn, 0);
	}
	return btf;
}

static void read_kernel(const struct kernel *k, struct kernel_features *kf)
{
	struct btf *btf = kernel_btf(k);

	memset(kf, 0, sizeof(*kf));
	snprintf(kf->release, sizeof(kf->release), "test");
	kernel_features__read(btf, kf);
	btf__free(btf);
}

Test(kernel_features, a_kernel_with_everything_meets_the_floor_and_has_each_feature)
{
	struct kernel_features kf;
	char msg[256] = "";

	read_kernel(&v6_18, &kf);
	cr_assert(kf.btf);
	for (int f = 0; f < KF_COUNT; f++)
		cr_assert(kf.has[f], "%s", kernel_features__desc(f)->what);
	cr_assert(kernel_features__floor(&kf, msg, sizeof(msg)), "%s", msg);
}

/* each feature is read from its own sign in the BTF: taken away there, it alone is missing */
Test(kernel_features, each_feature_is_missing_where_the_kernels_btf_lacks_its_sign)
{
	static const struct {
		size_t field;		/* the struct kernel member taken away */
		bool is_int;
		enum kernel_feature missing;
	} cases[] = {
		{ offsetof(struct kernel, task_btf), false, KF_TASK_BTF },
		{ offsetof(struct kernel, task_pt_regs), false, KF_TASK_PT_REGS },
		{ offsetof(struct kernel, loop), false, KF_LOOP },
		{ offsetof(struct kernel, find_vma), false, KF_FIND_VMA },
		{ offsetof(struct kernel, percpu_lookup), false, KF_PERCPU_LOOKUP },
		{ offsetof(struct kernel, bpf_storage), false, KF_TASK_STORAGE },
		{ offsetof(struct kernel, switch_args), true, KF_SWITCH_PREV_STATE },
		{ offsetof(struct kernel, rdonly_cast), false, KF_RDONLY_CAST },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kernel k = v6_18;
		struct kernel_features kf;

		if (cases[i].is_int)
			*(int *)((char *)&k + cases[i].field) = 3;	/* before v5.18: no prev_state */
		else
			*(bool *)((char *)&k + cases[i].field) = false;
		read_kernel(&k, &kf);
		for (int f = 0; f < KF_COUNT; f++)
			cr_assert_eq(kf.has[f], f != (int)cases[i].missing, "case %zu: %s", i,
				     kernel_features__desc(f)->what);
	}
}

Test(kernel_features, below_the_floor_one_line_names_what_is_missing_since_when_and_what_still_works)
{
	struct kernel k = v6_18;
	struct kernel_features kf;
	char msg[512];

	k.bpf_storage = false;	/* v5.11 and v5.12: task storage for LSM programs only */
	read_kernel(&k, &kf);
	cr_assert_not(kernel_features__floor(&kf, msg, sizeof(msg)));
	cr_assert_str_eq(msg, "this kernel (test) lacks task storage in tracing programs (Linux 5.13), which every "
			      "traced mode needs; what still works: a workload with --no-trace, and `wakeprobe report "
			      "FILE` of a recording made elsewhere");
	/* the oldest missing piece first: a 5.10 lacks bpf_get_current_task_btf() too */
	k.task_btf = false;
	read_kernel(&k, &kf);
	cr_assert_not(kernel_features__floor(&kf, msg, sizeof(msg)));
	cr_assert(strstr(msg, "lacks bpf_get_current_task_btf() (Linux 5.11)"), "%s", msg);
	/* an optional one missing is no floor */
	k = v6_18;
	k.loop = k.find_vma = false;
	read_kernel(&k, &kf);
	cr_assert(kernel_features__floor(&kf, msg, sizeof(msg)), "%s", msg);
}

Test(kernel_features, a_kernel_without_btf_has_nothing_and_says_what_it_needs)
{
	struct kernel_features kf = { .release = "4.19.0" };
	char msg[512];

	snprintf(kf.why_no_btf, sizeof(kf.why_no_btf), "%s", strerror(ENOENT));
	kernel_features__read(NULL, &kf);
	cr_assert_not(kf.btf);
	for (int f = 0; f < KF_COUNT; f++)
		cr_assert_not(kf.has[f]);
	cr_assert_not(kernel_features__floor(&kf, msg, sizeof(msg)));
	cr_assert(strstr(msg, "this kernel (4.19.0) has no BTF to read (No such file or directory; it needs "
			      "CONFIG_DEBUG_INFO_BTF=y)"), "%s", msg);
}

/* WAKEPROBE_KERNEL_LACKS takes features away by their keys, to try the fallbacks on a newer kernel */
Test(kernel_features, features_named_as_lacking_are_taken_away_and_an_unknown_name_is_refused)
{
	struct kernel_features kf;
	char msg[256] = "";

	read_kernel(&v6_18, &kf);
	cr_assert_eq(kernel_features__lack(&kf, "loop,switch_prev_state", msg, sizeof(msg)), 0, "%s", msg);
	cr_assert(kf.pretended);
	for (int f = 0; f < KF_COUNT; f++)
		cr_assert_eq(kf.has[f], f != KF_LOOP && f != KF_SWITCH_PREV_STATE, "%s", kernel_features__desc(f)->key);
	cr_assert_eq(kernel_features__lack(&kf, "loop,loopy", msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "'loopy'"), "%s", msg);
	read_kernel(&v6_18, &kf);
	cr_assert_eq(kernel_features__lack(&kf, NULL, msg, sizeof(msg)), 0);
	cr_assert_not(kf.pretended);
}

/* every feature says since when, in which commit, what it gives, and (but the floor's) what happens without */
Test(kernel_features, every_feature_is_described_whole)
{
	for (int f = 0; f < KF_COUNT; f++) {
		const struct kernel_feature_desc *d = kernel_features__desc(f);

		cr_assert(d && d->key && d->what && d->since && d->commit && d->gives, "feature %d", f);
		cr_assert(d->floor == !d->without, "%s", d->key);
	}
	cr_assert_null(kernel_features__desc(KF_COUNT));
}

/* a tracepoint is there when its btf_trace_ typedef is: the name the section gives, and none other */
Test(kernel_features, a_tracepoint_is_missing_by_its_section_name_alone)
{
	struct kernel_features kf = { .tracepoints_missing = "sched_waking irq_handler_entry " };
	struct btf *btf = kernel_btf(&v6_18);

	cr_assert(kernel_features__tracepoint(btf, "sched_switch"));
	cr_assert_not(kernel_features__tracepoint(btf, "sched_waking"));
	btf__free(btf);
	cr_assert(kernel_features__tracepoint_missing(&kf, "tp_btf/sched_waking"));
	cr_assert(kernel_features__tracepoint_missing(&kf, "tp_btf/irq_handler_entry"));
	cr_assert_not(kernel_features__tracepoint_missing(&kf, "tp_btf/sched_wakin"));
	cr_assert_not(kernel_features__tracepoint_missing(&kf, "tp_btf/waking"));
	cr_assert_not(kernel_features__tracepoint_missing(&kf, "tp_btf/irq_handler_exit"));
	cr_assert_not(kernel_features__tracepoint_missing(&kf, "raw_tp/sched_waking"));
}
