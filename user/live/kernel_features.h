/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel_features.h - what of the BPF that wakeprobe uses the running
 * kernel has, read from its BTF before anything is loaded: the kernel's
 * enum bpf_func_id lists the helpers it knows, enum bpf_map_type its maps,
 * a btf_trace_<name> typedef each tracepoint a tp_btf program can attach to
 * and that tracepoint's arguments, a BTF function each kfunc.
 *
 * The floor is what every traced mode needs (kernel_features__floor());
 * the rest each turn one thing on, and on a kernel without them that thing
 * is off or has an older way (docs/kernels.md lists them all).
 */
#ifndef WAKEPROBE_KERNEL_FEATURES_H
#define WAKEPROBE_KERNEL_FEATURES_H

#include <stdbool.h>
#include <stddef.h>
#include "steal_clock.h"

enum kernel_feature {
	/* the floor */
	KF_TP_BTF,		/* tp_btf programs, BPF_TRACE_RAW_TP (v5.5) */
	KF_RINGBUF,		/* the BPF ring buffer (v5.8) */
	KF_TASK_BTF,		/* bpf_get_current_task_btf() (v5.11) */
	KF_TASK_STORAGE,	/* task storage, which tracing programs may use (v5.11) */
	/* each turns one thing on */
	KF_TASK_PT_REGS,	/* bpf_task_pt_regs() (v5.15) */
	KF_LOOP,		/* bpf_loop() (v5.17) */
	KF_FIND_VMA,		/* bpf_find_vma() (v5.17) */
	KF_SWITCH_PREV_STATE,	/* sched_switch's prev_state argument (v5.18) */
	KF_PERCPU_LOOKUP,	/* bpf_map_lookup_percpu_elem() (v5.19) */
	KF_RDONLY_CAST,		/* the bpf_rdonly_cast() kfunc (v6.2) */
	KF_COUNT
};

struct kernel_feature_desc {
	const char *key;	/* its short name: WAKEPROBE_KERNEL_LACKS takes these */
	const char *what;	/* what the kernel has, as a person would say it */
	const char *since;	/* the mainline release that brought it */
	const char *commit;	/* ... in this commit */
	bool floor;		/* every traced mode needs it */
	const char *gives;	/* what wakeprobe does with it */
	const char *without;	/* what it does on a kernel without it */
};

/* kernel_features__desc - what wakeprobe knows of @f */
const struct kernel_feature_desc *kernel_features__desc(enum kernel_feature f);

struct kernel_features {
	char release[65];	/* uname -r */
	bool btf;		/* the kernel's BTF could be read; nothing below counts without it */
	char why_no_btf[160];
	bool has[KF_COUNT];
	bool pretended;		/* WAKEPROBE_KERNEL_LACKS took some away */
	/* the tracepoints of the BPF object that the kernel lacks, each followed by a space */
	char tracepoints_missing[256];
	int tracepoints;	/* ... of this many */
	struct steal_layout steal;	/* its per-CPU layout and steal clock, read from the same BTF */
};

/* kernel_features__read - what @btf (a kernel's) says of each feature, into @kf (btf and has[]) */
void kernel_features__read(const struct btf *btf, struct kernel_features *kf);

/*
 * kernel_features__lack - take away the features named in @list
 * (comma-separated keys, WAKEPROBE_KERNEL_LACKS's format), as a kernel
 * without them would have it: to try the fallbacks on a newer kernel.
 * 0, or -EINVAL with the unknown name in @msg.
 */
int kernel_features__lack(struct kernel_features *kf, const char *list, char *msg, size_t len);

struct bpf_object;

/* kernel_features__tracepoints - which of @obj's tp_btf programs' tracepoints @btf lacks, into @kf */
void kernel_features__tracepoints(const struct btf *btf, struct bpf_object *obj, struct kernel_features *kf);

/*
 * kernel_features__get - the running kernel's, its tracepoints for @obj's
 * programs, and its per-CPU layout (steal_clock__find()), read once a
 * process from one parse of its BTF (some 12 ms here; --workload all opens
 * a collector per path), less what WAKEPROBE_KERNEL_LACKS names; NULL with
 * @msg when that variable names something unknown
 */
const struct kernel_features *kernel_features__get(struct bpf_object *obj, char *msg, size_t len);

/*
 * kernel_features__tracepoint_missing - whether the tracepoint of program
 * @prog's section is one @kf found missing (a section other than tp_btf's: false)
 */
bool kernel_features__tracepoint_missing(const struct kernel_features *kf, const char *section);

/*
 * kernel_features__floor - whether @kf has what every traced mode needs:
 * false with one line in @msg saying what this kernel lacks, since which
 * release it exists, and what still works without it
 */
bool kernel_features__floor(const struct kernel_features *kf, char *msg, size_t len);

/*
 * kernel_features__tracepoint - whether @btf has the tracepoint @name for
 * a tp_btf program (its btf_trace_<name> typedef)
 */
bool kernel_features__tracepoint(const struct btf *btf, const char *name);

#endif /* WAKEPROBE_KERNEL_FEATURES_H */
