// SPDX-License-Identifier: GPL-2.0
/* kernel_features.c - what of the BPF wakeprobe uses the running kernel has, from its BTF */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "kernel_features.h"

/* how the kernel's BTF shows each feature */
enum evidence {
	EV_FUNC_ID,		/* a value of enum bpf_func_id: a helper it knows */
	EV_MAP_TYPE,		/* a value of enum bpf_map_type */
	EV_ATTACH_TYPE,		/* a value of enum bpf_attach_type */
	EV_MEMBER,		/* a member of a struct: "struct.member" */
	EV_KFUNC,		/* a BTF function of that name */
	EV_TP_ARGS,		/* a tracepoint with at least this many arguments: "name/N" */
};

struct feature {
	struct kernel_feature_desc desc;
	enum evidence ev;
	const char *sign;
};

static const struct feature features[KF_COUNT] = {
	[KF_TP_BTF] = { { "tp_btf", "tp_btf programs (BPF_TRACE_RAW_TP)", "5.5",
			  "9e15db66136a \"bpf: Implement accurate raw_tp context access via BTF\"", true,
			  "every program: the scheduler's, interrupts' and syscalls' tracepoints, their arguments typed",
			  NULL },
			EV_ATTACH_TYPE, "BPF_TRACE_RAW_TP" },
	[KF_RINGBUF] = { { "ringbuf", "the BPF ring buffer", "5.8",
			   "457f44363a88 \"bpf: Implement BPF ring buffer and verifier support for it\"", true,
			   "every record's way to wakeprobe", NULL },
			 EV_MAP_TYPE, "BPF_MAP_TYPE_RINGBUF" },
	[KF_TASK_BTF] = { { "current_task_btf", "bpf_get_current_task_btf()", "5.11",
			    "3ca1032ab7ab \"bpf: Implement get_current_task_btf and RET_PTR_TO_BTF_ID\"", true,
			    "the running task as a typed pointer: its pid, storage and files", NULL },
			  EV_FUNC_ID, "BPF_FUNC_get_current_task_btf" },
	[KF_TASK_STORAGE] = { { "task_storage", "task storage in tracing programs", "5.13",
				"a10787e6d58c \"bpf: Enable task local storage for tracing programs\"", true,
				"each traced thread's state: its syscall, its pending wakeup", NULL },
			      EV_MEMBER, "task_struct.bpf_storage" },
	[KF_TASK_PT_REGS] = { { "task_pt_regs", "bpf_task_pt_regs()", "5.15",
				"dd6e10fbd9fb \"bpf: Add bpf_task_pt_regs() helper\"", false,
				"attach mode names the syscall a thread sleeps in, or wakes another from, by its registers; "
				"--stacks copies user stacks to unwind from them",
				"attach mode leaves a syscall it did not time unnamed; --syscall-phases times each, "
				"and names it from its entry; --stacks walks user stacks by frame pointers alone" },
			      EV_FUNC_ID, "BPF_FUNC_task_pt_regs" },
	[KF_LOOP] = { { "loop", "bpf_loop()", "5.17", "e6f2dd0f8067 \"bpf: Add bpf_loop helper\"", false,
			"the flight recorder copies a slow wakeup's evidence in the kernel (the lean engine)",
			"the lean engine cannot explain a slow wakeup: give --outliers 0, or --engine full" },
		      EV_FUNC_ID, "BPF_FUNC_loop" },
	[KF_FIND_VMA] = { { "find_vma", "bpf_find_vma()", "5.17", "7c7e3d31e785 \"bpf: Introduce helper bpf_find_vma\"",
			    false, "a futex in shared memory is keyed by its file and offset, as the kernel keys it",
			    "a futex shared between processes is counted per process" },
			  EV_FUNC_ID, "BPF_FUNC_find_vma" },
	[KF_SWITCH_PREV_STATE] = { { "switch_prev_state", "sched_switch's prev_state argument", "5.18",
				     "fa2c3254d7cf \"sched/tracing: Don't re-read p->state when emitting "
				     "sched_switch event\"", false,
				     "whether a task left its CPU asleep, as the scheduler decided it",
				     "read from the task as the tracepoint itself did, which a wakeup racing the "
				     "switch can show running" },
				   EV_TP_ARGS, "sched_switch/4" },
	[KF_PERCPU_LOOKUP] = { { "percpu_lookup", "bpf_map_lookup_percpu_elem()", "5.19",
				 "07343110b293 \"bpf: add bpf_map_lookup_percpu_elem for percpu map\"", false,
				 "the flight recorder reads the waker's CPU's evidence too",
				 "the lean engine cannot explain a slow wakeup: give --outliers 0, or --engine full" },
			       EV_FUNC_ID, "BPF_FUNC_map_lookup_percpu_elem" },
	[KF_RDONLY_CAST] = { { "rdonly_cast", "the bpf_rdonly_cast() kfunc", "6.2",
			       "\"bpf: Add a kfunc for generic type cast\"", false,
			       "the steal clock and fd kinds read inline",
			       "read with bpf_probe_read_kernel(): the same answers, at some 75 ns more a read" },
			     EV_KFUNC, "bpf_rdonly_cast" },
};

const struct kernel_feature_desc *kernel_features__desc(enum kernel_feature f)
{
	return f < KF_COUNT ? &features[f].desc : NULL;
}

/* enum_has - does @btf's enum @type hold the value @name? */
static bool enum_has(const struct btf *btf, const char *type, const char *name)
{
	int id = btf__find_by_name_kind(btf, type, BTF_KIND_ENUM);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	const struct btf_enum *e;

	if (!t)
		return false;
	e = btf_enum(t);
	for (int i = 0; i < btf_vlen(t); i++, e++)
		if (!strcmp(btf__name_by_offset(btf, e->name_off), name))
			return true;
	return false;
}

/* member_has - does @btf's struct "@sign" (struct.member) have that member? */
static bool member_has(const struct btf *btf, const char *sign)
{
	const char *dot = strchr(sign, '.');
	char type[64];
	const struct btf_type *t;
	const struct btf_member *m;
	int id;

	if (!dot || (size_t)(dot - sign) >= sizeof(type))
		return false;
	memcpy(type, sign, (size_t)(dot - sign));
	type[dot - sign] = '\0';
	id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	if (!t)
		return false;
	m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++)
		if (m->name_off && !strcmp(btf__name_by_offset(btf, m->name_off), dot + 1))
			return true;
	return false;
}

/*
 * tracepoint_proto - the arguments a tp_btf program of tracepoint @name
 * gets: its btf_trace_<name> typedef is a pointer to a function whose
 * first parameter is the tracepoint's data, not passed on. -1: no such
 * tracepoint.
 */
static int tracepoint_args(const struct btf *btf, const char *name)
{
	char typedef_name[128];
	const struct btf_type *t;
	int id;

	snprintf(typedef_name, sizeof(typedef_name), "btf_trace_%s", name);
	id = btf__find_by_name_kind(btf, typedef_name, BTF_KIND_TYPEDEF);
	if (id <= 0)
		return -1;
	t = btf__type_by_id(btf, id);
	t = t ? btf__type_by_id(btf, t->type) : NULL;	/* the pointer */
	t = t && btf_is_ptr(t) ? btf__type_by_id(btf, t->type) : NULL;
	if (!t || !btf_is_func_proto(t) || btf_vlen(t) < 1)
		return -1;
	return btf_vlen(t) - 1;
}

bool kernel_features__tracepoint(const struct btf *btf, const char *name)
{
	return tracepoint_args(btf, name) >= 0;
}

static bool has(const struct btf *btf, const struct feature *f)
{
	char name[64];
	const char *slash;

	switch (f->ev) {
	case EV_FUNC_ID:
		return enum_has(btf, "bpf_func_id", f->sign);
	case EV_MAP_TYPE:
		return enum_has(btf, "bpf_map_type", f->sign);
	case EV_ATTACH_TYPE:
		return enum_has(btf, "bpf_attach_type", f->sign);
	case EV_MEMBER:
		return member_has(btf, f->sign);
	case EV_KFUNC:
		return btf__find_by_name_kind(btf, f->sign, BTF_KIND_FUNC) > 0;
	case EV_TP_ARGS:
		slash = strchr(f->sign, '/');
		if (!slash || (size_t)(slash - f->sign) >= sizeof(name))
			return false;
		memcpy(name, f->sign, (size_t)(slash - f->sign));
		name[slash - f->sign] = '\0';
		return tracepoint_args(btf, name) >= atoi(slash + 1);
	}
	return false;
}

void kernel_features__read(const struct btf *btf, struct kernel_features *kf)
{
	kf->btf = btf != NULL;
	for (int i = 0; i < KF_COUNT; i++)
		kf->has[i] = btf && has(btf, &features[i]);
}

int kernel_features__lack(struct kernel_features *kf, const char *list, char *msg, size_t len)
{
	const char *p = list;

	while (p && *p) {
		size_t n = strcspn(p, ",");
		int i;

		for (i = 0; i < KF_COUNT; i++)
			if (strlen(features[i].desc.key) == n && !strncmp(features[i].desc.key, p, n))
				break;
		if (i == KF_COUNT) {
			snprintf(msg, len, "WAKEPROBE_KERNEL_LACKS names '%.*s', which is none of wakeprobe's kernel "
				 "features: `wakeprobe kernel` lists them", (int)n, p);
			return -EINVAL;
		}
		kf->has[i] = false;
		kf->pretended = true;
		p += n;
		p += *p == ',';
	}
	return 0;
}

#define TP_BTF_SECTION "tp_btf/"

void kernel_features__tracepoints(const struct btf *btf, struct bpf_object *obj, struct kernel_features *kf)
{
	struct bpf_program *prog;
	size_t used = 0;

	kf->tracepoints = 0;
	kf->tracepoints_missing[0] = '\0';
	bpf_object__for_each_program(prog, obj) {
		const char *sec = bpf_program__section_name(prog), *name;
		int n;

		if (strncmp(sec, TP_BTF_SECTION, strlen(TP_BTF_SECTION)))
			continue;
		name = sec + strlen(TP_BTF_SECTION);
		kf->tracepoints++;
		/* the lean and the full engine share some: each name once */
		if (tracepoint_args(btf, name) >= 0 || kernel_features__tracepoint_missing(kf, sec))
			continue;
		n = snprintf(kf->tracepoints_missing + used, sizeof(kf->tracepoints_missing) - used, "%s ", name);
		if (n > 0 && (size_t)n < sizeof(kf->tracepoints_missing) - used)
			used += (size_t)n;
	}
}

bool kernel_features__tracepoint_missing(const struct kernel_features *kf, const char *section)
{
	const char *name, *at;
	size_t n;

	if (strncmp(section, TP_BTF_SECTION, strlen(TP_BTF_SECTION)))
		return false;
	name = section + strlen(TP_BTF_SECTION);
	n = strlen(name);
	for (at = kf->tracepoints_missing; (at = strstr(at, name)); at += n)
		if ((at == kf->tracepoints_missing || at[-1] == ' ') && at[n] == ' ')
			return true;
	return false;
}

const struct kernel_features *kernel_features__get(struct bpf_object *obj, char *msg, size_t len)
{
	static struct kernel_features found;
	static bool looked;
	struct utsname u;
	struct btf *btf;

	if (looked)
		return &found;
	memset(&found, 0, sizeof(found));
	if (!uname(&u))
		snprintf(found.release, sizeof(found.release), "%s", u.release);
	btf = btf__load_vmlinux_btf();
	if (!btf)
		snprintf(found.why_no_btf, sizeof(found.why_no_btf), "%s", strerror(errno));
	kernel_features__read(btf, &found);
	if (btf)
		kernel_features__tracepoints(btf, obj, &found);
	steal_clock__find(btf, found.why_no_btf, &found.steal);
	btf__free(btf);
	if (kernel_features__lack(&found, getenv("WAKEPROBE_KERNEL_LACKS"), msg, len))
		return NULL;
	looked = true;
	return &found;
}

bool kernel_features__floor(const struct kernel_features *kf, char *msg, size_t len)
{
	const char *works = "what still works: a workload with --no-trace, and `wakeprobe report FILE` of a "
			    "recording made elsewhere";

	if (!kf->btf) {
		snprintf(msg, len, "this kernel (%s) has no BTF to read (%s; it needs CONFIG_DEBUG_INFO_BTF=y), "
			 "and every traced mode needs it; %s", kf->release, kf->why_no_btf, works);
		return false;
	}
	for (int i = 0; i < KF_COUNT; i++) {
		const struct kernel_feature_desc *d = &features[i].desc;

		if (d->floor && !kf->has[i]) {
			snprintf(msg, len, "this kernel (%s) lacks %s (Linux %s), which every traced mode needs; %s",
				 kf->release, d->what, d->since, works);
			return false;
		}
	}
	return true;
}
