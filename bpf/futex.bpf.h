/* SPDX-License-Identifier: GPL-2.0 */
/*
 * futex.bpf.h - the keys of shared futexes, for lean attach mode: the file
 * and offset by which the kernel keys a futex word in a shared mapping.
 */
#ifndef WAKEPROBE_FUTEX_BPF_H
#define WAKEPROBE_FUTEX_BPF_H

#include "ring.bpf.h"

/*
 * Shared futexes. A futex word in a shared mapping of a file is one lock
 * to every process that maps it, wherever each maps it: the kernel keys it
 * by the file's inode and the word's offset in the file (get_futex_key()),
 * a private one by the process's mm and the address. Lean attach mode says
 * so once per word and process: at the first wait or wake on it that is
 * not FUTEX_PRIVATE_FLAG's, it looks the address up among the process's
 * mappings, and a shared file mapping brings a WP_LEAN_FUTEX_KEY record.
 */
#define SYS_FUTEX_WAKE		454	/* x86-64, v6.7+: futex2 calls, with their own flags */
#define SYS_FUTEX_WAIT		455
#define FUTEX_PRIVATE_FLAG	128	/* include/uapi/linux/futex.h */
#define VM_SHARED		0x00000008	/* include/linux/mm.h */
#define PAGE_SHIFT_X86		12

struct futex_word {
	__u32 tgid;
	__u32 __pad;
	__u64 addr;
};

/* the words looked up already, shared or not: each is looked up once (again once the LRU let it go) */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, WP_FUTEXES_LOOKED_UP);
	__type(key, struct futex_word);
	__type(value, __u8);
} futexes_looked_up SEC(".maps");

struct futex_mapping {
	__u64 addr;
	__u64 ino;
	__u64 offset;
	__u32 dev;
	__u32 shared;
};

/* futex_mapping_of - bpf_find_vma()'s callback: is @vma a shared mapping of a file, and where in it is the word */
static long futex_mapping_of(struct task_struct *task, struct vm_area_struct *vma, void *data)
{
	struct futex_mapping *m = data;
	struct file *file = BPF_CORE_READ(vma, vm_file);
	struct inode *inode;

	if (!file || !(BPF_CORE_READ(vma, vm_flags) & VM_SHARED))
		return 0;
	inode = BPF_CORE_READ(file, f_inode);
	m->ino = BPF_CORE_READ(inode, i_ino);
	m->dev = BPF_CORE_READ(inode, i_sb, s_dev);
	m->offset = (BPF_CORE_READ(vma, vm_pgoff) << PAGE_SHIFT_X86) + (m->addr - BPF_CORE_READ(vma, vm_start));
	m->shared = 1;
	return 0;
}

/*
 * futex_may_be_shared - can futex call @nr (@op, futex(2)'s) be on a shared
 * word? futex(2) says so by its op's flag; the futex2 calls (v6.7+) keep
 * their flags past the two arguments read, so they are looked up
 */
static __always_inline bool futex_may_be_shared(__s64 nr, __u64 op)
{
	if (nr == SYS_FUTEX)
		return !(op & FUTEX_PRIVATE_FLAG);
	return nr == SYS_FUTEX_WAIT || nr == SYS_FUTEX_WAKE;
}

/*
 * lean_futex_key - attach mode: current, of a tracked process, waits or
 * wakes in futex call @nr (@op, futex(2)'s) on the word at @addr: the key
 * record of a shared word the first time it is met
 */
static __always_inline void lean_futex_key(__s64 nr, __u64 addr, __u64 op)
{
	struct futex_mapping m = { .addr = addr };
	struct futex_word w = { .addr = addr };
	struct wp_event *e;
	__u8 one = 1;

	if (!attach_mode || !have_find_vma || !futex_may_be_shared(nr, op))
		return;
	w.tgid = current_tgid();
	if (bpf_map_lookup_elem(&futexes_looked_up, &w))
		return;
	/* its mm's lock taken: another time */
	if (bpf_find_vma(bpf_get_current_task_btf(), addr, futex_mapping_of, &m, 0))
		return;
	bpf_map_update_elem(&futexes_looked_up, &w, &one, BPF_ANY);
	if (!m.shared)
		return;
	e = ring_reserve(WP_EV_LEAN, bpf_ktime_get_ns());
	if (!e)
		return;
	e->lean.addr = addr;
	e->lean.key_ino = m.ino;
	e->lean.key_offset = m.offset;
	e->lean.pid = w.tgid;
	e->lean.key_dev = m.dev;
	e->lean.waking_cpu = 0;
	e->lean.wakeup_cpu = 0;
	e->lean.target_cpu = 0;
	e->lean.flags = WP_LEAN_NAME | WP_LEAN_FUTEX_KEY;
	event_submit(e);
}

#endif /* WAKEPROBE_FUTEX_BPF_H */
