// SPDX-License-Identifier: GPL-2.0
/* steal_clock.c - the distances from a CPU's struct rq to its steal clock, from the kernel's BTF */
#include <cpuid.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include "steal_clock.h"

#define CPUID_HYPERVISOR_BIT	(1u << 31)	/* leaf 1, ecx: running under a hypervisor */
#define KVM_CPUID_SIGNATURE	0x40000000u
#define KVM_CPUID_FEATURES	0x40000001u
#define KVM_FEATURE_STEAL_TIME	(1u << 5)	/* arch/x86/include/uapi/asm/kvm_para.h */

/* hypervisor - what CPUID says of the machine: @vendor gets the hypervisor's signature */
static enum steal_hypervisor hypervisor(char vendor[13])
{
	unsigned int a, b, c, d;

	vendor[0] = '\0';
	__cpuid(1, a, b, c, d);
	if (!(c & CPUID_HYPERVISOR_BIT))
		return STEAL_HV_NONE;
	__cpuid(KVM_CPUID_SIGNATURE, a, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &c, 4);
	memcpy(vendor + 8, &d, 4);
	vendor[12] = '\0';
	if (strcmp(vendor, "KVMKVMKVM") || a < KVM_CPUID_FEATURES)
		return STEAL_HV_OTHER;
	__cpuid(KVM_CPUID_FEATURES, a, b, c, d);
	return a & KVM_FEATURE_STEAL_TIME ? STEAL_HV_KVM_STEAL : STEAL_HV_OTHER;
}

/* percpu_var - where per-CPU variable @name lies in @sec, its type into *@type_id; -1 if absent */
static int64_t percpu_var(const struct btf *btf, const struct btf_type *sec, const char *name, __u32 *type_id)
{
	const struct btf_var_secinfo *vi = btf_var_secinfos(sec);
	int i;

	for (i = 0; i < btf_vlen(sec); i++, vi++) {
		const struct btf_type *v = btf__type_by_id(btf, vi->type);

		if (v && btf_is_var(v) && !strcmp(btf__name_by_offset(btf, v->name_off), name)) {
			if (type_id)
				*type_id = v->type;
			return vi->offset;
		}
	}
	return -1;
}

/*
 * member_offset - the byte offset of @name in the struct or union
 * @type_id (typedefs and qualifiers seen through), looked for in its
 * anonymous members too, as struct pcpu_hot keeps its fields in an
 * anonymous struct inside an anonymous union; @depth bounds the descent
 */
static int64_t member_offset_in(const struct btf *btf, __u32 type_id, const char *name, uint32_t *size, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, btf__resolve_type(btf, type_id));
	const struct btf_member *m;
	int64_t in;
	int i;

	if (!t || !btf_is_composite(t) || depth > 4)
		return -1;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		if (!m->name_off) {
			in = member_offset_in(btf, m->type, name, size, depth + 1);
			if (in >= 0)
				return btf_member_bit_offset(t, i) / 8 + in;
			continue;
		}
		if (strcmp(btf__name_by_offset(btf, m->name_off), name))
			continue;
		*size = (uint32_t)btf__resolve_size(btf, m->type);
		return btf_member_bit_offset(t, i) / 8;
	}
	return -1;
}

static int64_t member_offset(const struct btf *btf, __u32 type_id, const char *name, uint32_t *size)
{
	return member_offset_in(btf, type_id, name, size, 0);
}

/*
 * percpu_hot - where the per-CPU @name lies in @sec: a variable of its own
 * (v6.1, and v6.15+), or v6.2-v6.14's member of struct pcpu_hot, @field,
 * which "x86/percpu: Move cpu_number next to current_task" and "x86/percpu:
 * Move preempt_count next to current_task" (v6.2) gathered into the per-CPU
 * pcpu_hot for the current task's cache line (in an anonymous struct in an
 * anonymous union, arch/x86/include/asm/current.h); -1 if neither
 */
static int64_t percpu_hot(const struct btf *btf, const struct btf_type *sec, const char *name, const char *field,
			  bool *in_hot)
{
	int64_t at = percpu_var(btf, sec, name, NULL), hot, in;
	__u32 hot_type = 0;
	uint32_t size = 0;

	*in_hot = false;
	if (at >= 0)
		return at;
	hot = percpu_var(btf, sec, "pcpu_hot", &hot_type);
	if (hot < 0)
		return -1;
	in = member_offset(btf, hot_type, field, &size);
	*in_hot = in >= 0 && size == 4;
	return *in_hot ? hot + in : -1;
}

bool steal_clock__layout_from_btf(const struct btf *btf, struct steal_layout *l)
{
	const struct btf_type *sec;
	int64_t rq, steal_time, number, steal, preempt;
	bool preempt_hot;
	__u32 steal_type = 0;
	uint32_t size = 0;
	int id;

	l->on = false;
	l->in_pcpu_hot = false;
	id = btf__find_by_name_kind(btf, ".data..percpu", BTF_KIND_DATASEC);
	sec = id > 0 ? btf__type_by_id(btf, id) : NULL;
	if (!sec) {
		snprintf(l->why_off, sizeof(l->why_off), "the kernel's BTF has no per-CPU variables (.data..percpu)");
		return false;
	}
	rq = percpu_var(btf, sec, "runqueues", NULL);
	steal_time = percpu_var(btf, sec, "steal_time", &steal_type);
	number = percpu_hot(btf, sec, "cpu_number", "cpu_number", &l->in_pcpu_hot);
	preempt = percpu_hot(btf, sec, "__preempt_count", "preempt_count", &preempt_hot);
	if (rq >= 0 && number >= 0) {
		l->cpu_number_offset = number - rq;
		l->preempt_count_offset = preempt >= 0 ? preempt - rq : 0;
	}
	if (steal_time < 0) {
		snprintf(l->why_off, sizeof(l->why_off), "this kernel has no KVM steal clock (no per-CPU steal_time: "
			 "not built as a KVM guest)");
		return false;
	}
	if (rq < 0 || number < 0) {
		snprintf(l->why_off, sizeof(l->why_off), "the kernel's BTF lacks the per-CPU %s to find it by",
			 rq < 0 ? "runqueues" : "cpu_number");
		return false;
	}
	steal = member_offset(btf, steal_type, "steal", &size);
	if (steal < 0 || size != 8) {
		snprintf(l->why_off, sizeof(l->why_off), "this kernel's steal_time is not a struct kvm_steal_time "
			 "with a 64-bit steal");
		return false;
	}
	l->steal_offset = steal_time + steal - rq;
	/* 0 is the BPF side's "off": a clock at the very start of the rq cannot be */
	l->on = l->steal_offset != 0;
	if (!l->on)
		snprintf(l->why_off, sizeof(l->why_off), "the steal clock and the run queue coincide in the BTF");
	return l->on;
}

void steal_clock__find(const struct btf *btf, const char *why_no_btf, struct steal_layout *l)
{
	char vendor[13];

	memset(l, 0, sizeof(*l));
	if (!btf) {
		snprintf(l->why_off, sizeof(l->why_off), "cannot read the kernel's BTF: %s", why_no_btf);
		return;
	}
	/* the per-CPU distances hold on any machine; the steal clock needs KVM's */
	steal_clock__layout_from_btf(btf, l);
	switch (hypervisor(vendor)) {
	case STEAL_HV_NONE:
		l->on = false;
		snprintf(l->why_off, sizeof(l->why_off), "no hypervisor (bare metal): no host to take the CPUs");
		break;
	case STEAL_HV_OTHER:
		l->on = false;
		snprintf(l->why_off, sizeof(l->why_off), "the hypervisor (%s) offers no KVM steal clock",
			 vendor[0] ? vendor : "unnamed");
		break;
	default:
		break;
	}
}
