/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_steal_clock.c - the distances to the host's steal clock, from a BTF
 * built here and from real kernels' (tests/fixtures/btf/)
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include "readback.h"
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

/*
 * Real kernels: their BTF cut down by scripts/capture-percpu-btf.sh to the
 * per-CPU variables (tests/fixtures/btf/README says which kernels). What is
 * expected was read off each kernel's full BTF, not found by wakeprobe's
 * code. The variables' offsets in .data..percpu:
 *
 *   bpftool btf dump file /sys/kernel/btf/vmlinux format raw | grep -A400 "DATASEC '.data..percpu'" |
 *       grep -E "'(runqueues|steal_time|cpu_number|__preempt_count|pcpu_hot)'"
 *
 * steal's in struct kvm_steal_time ('steal' ... bits_offset=0 on all three):
 *
 *   bpftool btf dump file /sys/kernel/btf/vmlinux format raw | grep -A1 "STRUCT 'kvm_steal_time'"
 *
 * and, on 6.12, preempt_count's and cpu_number's in pcpu_hot: STRUCT
 * 'pcpu_hot' holds at bits_offset 0 an anonymous union, which holds at 0 an
 * anonymous struct with 'preempt_count' at bits_offset=64, 'cpu_number' at 96.
 */
struct kernel {
	const char *name;		/* tests/fixtures/btf/percpu-NAME.btf */
	int64_t runqueues, steal_time;
	int64_t steal;			/* in struct kvm_steal_time */
	int64_t cpu_number, preempt_count;	/* the variables', or -1: none of their own */
	int64_t pcpu_hot;		/* the variable's, or -1: none */
	int64_t hot_preempt_count, hot_cpu_number;	/* in struct pcpu_hot */
};

static const struct kernel debian_6_1 = {
	"6.1", 203840, 213120, 0, 104928, 129856, -1, 0, 0,
};
static const struct kernel debian_6_12 = {
	"6.12", 221248, 229504, 0, -1, -1, 217536, 64 / 8, 96 / 8,
};
static const struct kernel kvm_6_18 = {
	"6.18", 178752, 97280, 0, 86068, 86064, -1, 0, 0,
};

/* kernel_btf - the fixture of @k, parsed */
static struct btf *kernel_btf(const struct kernel *k)
{
	char path[512];
	struct btf *btf;

	snprintf(path, sizeof(path), "%s/btf/percpu-%s.btf", fixtures_dir(), k->name);
	btf = btf__parse_raw(path);
	cr_assert_not_null(btf, "cannot read %s: %s (run the tests from the repository, or set WAKEPROBE_FIXTURES)",
			   path, strerror(errno));
	return btf;
}

/* check_kernel - the layout from @k's BTF is the one its full BTF shows, and its pieces are where @k says */
static void check_kernel(const struct kernel *k)
{
	struct btf *btf = kernel_btf(k);
	bool own = k->cpu_number >= 0;
	int64_t number = own ? k->cpu_number : k->pcpu_hot + k->hot_cpu_number;
	int64_t preempt = own ? k->preempt_count : k->pcpu_hot + k->hot_preempt_count;
	struct steal_layout l = {};

	/* the fixture is of the shape expected: the variables of their own, or pcpu_hot and not them */
	cr_assert_eq(btf__find_by_name_kind(btf, "cpu_number", BTF_KIND_VAR) > 0, own, "%s", k->name);
	cr_assert_eq(btf__find_by_name_kind(btf, "__preempt_count", BTF_KIND_VAR) > 0, own, "%s", k->name);
	cr_assert_eq(btf__find_by_name_kind(btf, "pcpu_hot", BTF_KIND_VAR) > 0, !own, "%s", k->name);
	cr_assert_gt(btf__find_by_name_kind(btf, "steal_time", BTF_KIND_VAR), 0, "%s", k->name);

	cr_assert(steal_clock__layout_from_btf(btf, &l), "%s: %s", k->name, l.why_off);
	cr_assert(l.on);
	cr_assert_eq(l.steal_offset, k->steal_time + k->steal - k->runqueues, "%s: %lld", k->name,
		     (long long)l.steal_offset);
	cr_assert_eq(l.cpu_number_offset, number - k->runqueues, "%s: %lld", k->name,
		     (long long)l.cpu_number_offset);
	cr_assert_eq(l.preempt_count_offset, preempt - k->runqueues, "%s: %lld", k->name,
		     (long long)l.preempt_count_offset);
	btf__free(btf);
}

/* Debian 12's kernel: cpu_number and __preempt_count are variables of their own (before v6.2) */
Test(steal_clock, debian_6_1_has_cpu_number_and_the_preempt_count_as_variables_and_a_steal_clock)
{
	check_kernel(&debian_6_1);
}

/* Debian 12's backported kernel: they are struct pcpu_hot's, in its anonymous members (v6.2-v6.14) */
Test(steal_clock, debian_6_12_has_cpu_number_and_the_preempt_count_in_pcpu_hot_and_a_steal_clock)
{
	check_kernel(&debian_6_12);
}

/* a 6.18 guest's kernel: variables of their own again (v6.15+) */
Test(steal_clock, a_6_18_kernel_has_cpu_number_and_the_preempt_count_as_variables_and_a_steal_clock)
{
	check_kernel(&kvm_6_18);
}
