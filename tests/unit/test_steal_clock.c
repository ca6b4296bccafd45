/* SPDX-License-Identifier: GPL-2.0 */
/* test_steal_clock.c - the distances to the host's steal clock, from a BTF built here */
#include <criterion/criterion.h>
#include <string.h>
#include <bpf/btf.h>
#include "steal_clock.h"

/* where the synthetic per-CPU variables lie in .data..percpu */
#define OFF_PREEMPT	86064
#define OFF_CPU_NUMBER	86068
#define OFF_STEAL_TIME	97280
#define OFF_RUNQUEUES	178816
#define OFF_PCPU_HOT	86016	/* v6.2-v6.14: cpu_number and preempt_count are struct pcpu_hot's */
#define HOT_PREEMPT	8	/* their offsets in it, as 6.12's BTF has them */
#define HOT_CPU_NUMBER	12

struct vars {
	bool runqueues, steal_time, cpu_number, preempt_count;
	uint32_t steal_at;	/* the steal member's byte offset in struct kvm_steal_time */
	uint32_t steal_size;
	bool pcpu_hot;		/* a per-CPU struct pcpu_hot with both, in place of the variables */
};

/* percpu_btf - a kernel BTF's worth of .data..percpu with the variables @v asks for */
static struct btf *percpu_btf(const struct vars *v)
{
	struct btf *btf = btf__new_empty();
	int u64, u32, st, rq, hot = 0, var[5], sec, n = 0;

	cr_assert_not_null(btf);
	u64 = btf__add_int(btf, "long long unsigned int", 8, 0);
	u32 = btf__add_int(btf, "unsigned int", 4, 0);
	st = btf__add_struct(btf, "kvm_steal_time", 64);
	cr_assert_eq(btf__add_field(btf, "version", u32, 0, 0), 0);
	cr_assert_eq(btf__add_field(btf, "steal", v->steal_size == 8 ? u64 : u32, v->steal_at * 8, 0), 0);
	rq = btf__add_struct(btf, "rq", 3584);
	cr_assert_eq(btf__add_field(btf, "nr_running", u32, 0, 0), 0);
	if (v->pcpu_hot) {
		/* as 6.12 has it: struct pcpu_hot { union { struct { ... }; u8 pad[64]; }; } */
		int fields = btf__add_struct(btf, NULL, 64), either, pad;

		cr_assert_eq(btf__add_field(btf, "current_task", u64, 0, 0), 0);
		cr_assert_eq(btf__add_field(btf, "preempt_count", u32, HOT_PREEMPT * 8, 0), 0);
		cr_assert_eq(btf__add_field(btf, "cpu_number", u32, HOT_CPU_NUMBER * 8, 0), 0);
		pad = btf__add_array(btf, u32, btf__add_int(btf, "u8", 1, 0), 64);
		either = btf__add_union(btf, NULL, 64);
		cr_assert_eq(btf__add_field(btf, NULL, fields, 0, 0), 0);
		cr_assert_eq(btf__add_field(btf, "pad", pad, 0, 0), 0);
		hot = btf__add_struct(btf, "pcpu_hot", 64);
		cr_assert_eq(btf__add_field(btf, NULL, either, 0, 0), 0);
		var[n++] = btf__add_var(btf, "pcpu_hot", BTF_VAR_GLOBAL_ALLOCATED, hot);
	}
	if (v->preempt_count)
		var[n++] = btf__add_var(btf, "__preempt_count", BTF_VAR_GLOBAL_ALLOCATED, u32);
	if (v->cpu_number)
		var[n++] = btf__add_var(btf, "cpu_number", BTF_VAR_GLOBAL_ALLOCATED, u32);
	if (v->steal_time)
		var[n++] = btf__add_var(btf, "steal_time", BTF_VAR_GLOBAL_ALLOCATED, st);
	if (v->runqueues)
		var[n++] = btf__add_var(btf, "runqueues", BTF_VAR_GLOBAL_ALLOCATED, rq);
	sec = btf__add_datasec(btf, ".data..percpu", OFF_RUNQUEUES + 3584);
	cr_assert_gt(sec, 0);
	n = 0;
	if (v->pcpu_hot)
		cr_assert_eq(btf__add_datasec_var_info(btf, var[n++], OFF_PCPU_HOT, 64), 0);
	if (v->preempt_count)
		cr_assert_eq(btf__add_datasec_var_info(btf, var[n++], OFF_PREEMPT, 4), 0);
	if (v->cpu_number)
		cr_assert_eq(btf__add_datasec_var_info(btf, var[n++], OFF_CPU_NUMBER, 4), 0);
	if (v->steal_time)
		cr_assert_eq(btf__add_datasec_var_info(btf, var[n++], OFF_STEAL_TIME, 64), 0);
	if (v->runqueues)
		cr_assert_eq(btf__add_datasec_var_info(btf, var[n++], OFF_RUNQUEUES, 3584), 0);
	return btf;
}

Test(steal_clock, the_offsets_are_the_distances_from_the_run_queue_to_the_steal_field_and_the_cpu_number)
{
	struct vars v = { true, true, true, true, 8, 8, false };
	struct btf *btf = percpu_btf(&v);
	struct steal_layout l;

	memset(&l, 0xff, sizeof(l));
	l.preempt_count_offset = 0;
	cr_assert(steal_clock__layout_from_btf(btf, &l));
	cr_assert(l.on);
	cr_assert_eq(l.steal_offset, (int64_t)OFF_STEAL_TIME + 8 - OFF_RUNQUEUES);
	cr_assert_eq(l.cpu_number_offset, (int64_t)OFF_CPU_NUMBER - OFF_RUNQUEUES);
	cr_assert_eq(l.preempt_count_offset, (int64_t)OFF_PREEMPT - OFF_RUNQUEUES);
	btf__free(btf);
}

/* v6.2-v6.14 keep cpu_number and the preempt count in the per-CPU struct pcpu_hot: found there */
Test(steal_clock, cpu_number_and_the_preempt_count_are_found_in_pcpu_hot_where_a_kernel_keeps_them_there)
{
	struct vars v = { true, true, false, false, 8, 8, true };
	struct btf *btf = percpu_btf(&v);
	struct steal_layout l = {};

	cr_assert(steal_clock__layout_from_btf(btf, &l), "%s", l.why_off);
	cr_assert_eq(l.steal_offset, (int64_t)OFF_STEAL_TIME + 8 - OFF_RUNQUEUES);
	cr_assert_eq(l.cpu_number_offset, (int64_t)OFF_PCPU_HOT + HOT_CPU_NUMBER - OFF_RUNQUEUES);
	cr_assert_eq(l.preempt_count_offset, (int64_t)OFF_PCPU_HOT + HOT_PREEMPT - OFF_RUNQUEUES);
	btf__free(btf);
	/* a variable of its own, where there is one, is the one */
	v.cpu_number = v.preempt_count = true;
	btf = percpu_btf(&v);
	memset(&l, 0, sizeof(l));
	cr_assert(steal_clock__layout_from_btf(btf, &l));
	cr_assert_eq(l.cpu_number_offset, (int64_t)OFF_CPU_NUMBER - OFF_RUNQUEUES);
	cr_assert_eq(l.preempt_count_offset, (int64_t)OFF_PREEMPT - OFF_RUNQUEUES);
	btf__free(btf);
}

/* a kernel built without KVM guest support still has its run queues, cpu_number and preempt count */
Test(steal_clock, the_preempt_count_is_found_without_a_steal_clock_and_not_without_cpu_number)
{
	struct vars v = { true, false, true, true, 8, 8, false };
	struct btf *btf = percpu_btf(&v);
	struct steal_layout l = {};

	cr_assert_not(steal_clock__layout_from_btf(btf, &l));
	cr_assert_eq(l.preempt_count_offset, (int64_t)OFF_PREEMPT - OFF_RUNQUEUES);
	cr_assert_eq(l.cpu_number_offset, (int64_t)OFF_CPU_NUMBER - OFF_RUNQUEUES);
	btf__free(btf);
	v = (struct vars){ true, true, false, true, 8, 8, false };
	btf = percpu_btf(&v);
	memset(&l, 0, sizeof(l));
	cr_assert_not(steal_clock__layout_from_btf(btf, &l));
	cr_assert_eq(l.preempt_count_offset, 0, "nothing to check the layout against: not used");
	btf__free(btf);
}

Test(steal_clock, a_kernel_without_a_piece_turns_it_off_and_says_which)
{
	static const struct {
		struct vars v;
		const char *why;
	} cases[] = {
		{ { true, false, true, true, 8, 8, false }, "no KVM steal clock" },
		{ { false, true, true, true, 8, 8, false }, "runqueues" },
		{ { true, true, false, true, 8, 8, false }, "cpu_number" },
		{ { true, true, true, true, 8, 4, false }, "64-bit steal" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct btf *btf = percpu_btf(&cases[i].v);
		struct steal_layout l;

		memset(&l, 0, sizeof(l));
		cr_assert_not(steal_clock__layout_from_btf(btf, &l), "case %zu", i);
		cr_assert_not(l.on);
		cr_assert(strstr(l.why_off, cases[i].why), "case %zu: '%s' lacks '%s'", i, l.why_off, cases[i].why);
		btf__free(btf);
	}
}

Test(steal_clock, a_btf_with_no_per_cpu_section_turns_it_off)
{
	struct btf *btf = btf__new_empty();
	struct steal_layout l;

	cr_assert_not_null(btf);
	cr_assert_gt(btf__add_int(btf, "int", 4, BTF_INT_SIGNED), 0);
	cr_assert_not(steal_clock__layout_from_btf(btf, &l));
	cr_assert(strstr(l.why_off, ".data..percpu"), "%s", l.why_off);
	btf__free(btf);
}
