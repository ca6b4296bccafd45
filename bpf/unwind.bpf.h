/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unwind.bpf.h - --stacks, where frame pointers do not reach: copies of the
 * user stacks, for wakeprobe to unwind by the objects' call frame
 * information.
 *
 * A frame pointer walk (bpf_get_stackid()) loses the caller of any
 * function built without them, and Debian builds most of its code so,
 * libc included. With want_unwind, each place the lean engine takes a
 * user stack it also copies the top of it and the registers the task
 * entered the kernel with (struct wp_stack_copy), into the storage of the
 * wakee of the wakeup it is for: its waker's copy at the waking, its own
 * at the switch-out to the sleep. The copies are written to the ring, just
 * before the wakeup's record, for the wakeups that matter: a slow one (the
 * flight recorder's threshold) within unwind_slow_per_cpu a second on its
 * CPU, any other within unwind_per_cpu; the rest stay behind, counted
 * (wp_stack_cost). Copies cannot be told apart before they are unwound,
 * so they are not deduplicated: the budget is what bounds them.
 */
#ifndef WAKEPROBE_UNWIND_BPF_H
#define WAKEPROBE_UNWIND_BPF_H

#include "lean_task.bpf.h"

const volatile bool want_unwind = false;
/* the copies each CPU writes a second: a slow wakeup's, another's (0: none) */
const volatile __u32 unwind_slow_per_cpu = 0;
const volatile __u32 unwind_per_cpu = 0;

/* a wakee's copies, until its wakeup's record is written: len 0 for none */
struct lean_copies {
	struct wp_stack_copy waker;
	struct wp_stack_copy wait;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct lean_copies);
} lean_copies SEC(".maps");

/*
 * each thread's stack's top, as wakeprobe learned it from a copy unwound
 * out to the thread's start: the end of the outermost frame, a fixed
 * address for the thread's life. A copy of its stack ends there, not at
 * the end of the mapping (a main thread's environment, a thread's TLS
 * above its first frame): the bytes past it are never read. Gone when the
 * thread ends, as its id may be another's next.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, WP_UNWIND_TOPS);
	__type(key, __u32);
	__type(value, __u64);
} unwind_tops SEC(".maps");

/* each CPU's budget of copies, for the second it counts in */
struct unwind_budget {
	__u64 second;
	__u32 slow, other;	/* written in it */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct unwind_budget);
} unwind_budget SEC(".maps");

/*
 * stack_copy_take - the top of current's user stack and its user
 * registers into @c; len 0 when there is none (a kernel thread), or no
 * registers to start from. Read a chunk at a time, up to the next chunk's
 * boundary first: a page that is not mapped (past the stack's top) ends
 * the copy, and a chunk never spans two pages.
 */
static __always_inline void stack_copy_take(struct wp_stack_copy *c)
{
	struct task_struct *t = bpf_get_current_task_btf();
	__u64 t0 = bpf_ktime_get_ns(), sp, *top, len = 0, max = WP_STACK_COPY_MAX;
	__u32 tid = task_tid(t);
	struct pt_regs *regs;

	c->head.copy.len = 0;
	if (!have_task_pt_regs || (t->flags & PF_KTHREAD))
		return;
	regs = (struct pt_regs *)bpf_task_pt_regs(t);
	if (!regs)
		return;
	c->regs[0] = regs->ax;
	c->regs[1] = regs->dx;
	c->regs[2] = regs->cx;
	c->regs[3] = regs->bx;
	c->regs[4] = regs->si;
	c->regs[5] = regs->di;
	c->regs[6] = regs->bp;
	c->regs[7] = regs->sp;
	c->regs[8] = regs->r8;
	c->regs[9] = regs->r9;
	c->regs[10] = regs->r10;
	c->regs[11] = regs->r11;
	c->regs[12] = regs->r12;
	c->regs[13] = regs->r13;
	c->regs[14] = regs->r14;
	c->regs[15] = regs->r15;
	c->regs[16] = regs->ip;
	sp = regs->sp;
	top = bpf_map_lookup_elem(&unwind_tops, &tid);
	if (top && *top > sp && *top - sp < WP_STACK_COPY_MAX)
		max = *top - sp;
	for (int i = 0; i <= WP_STACK_COPY_MAX / WP_STACK_COPY_CHUNK; i++) {
		__u64 at = sp + len;
		__u64 n = WP_STACK_COPY_CHUNK - (at & (WP_STACK_COPY_CHUNK - 1));

		if (len >= max)
			break;
		/* the last chunk to the top alone */
		if (n > max - len)
			n = max - len;
		/*
		 * n is 1 to a chunk: said again where the verifier sees it, in a
		 * form the compiler cannot drop (it knows, and would not say) and
		 * older verifiers follow into the call (6.1's lost a bound
		 * checked on a register through its spilled copy)
		 */
		__asm__ volatile("" : "+r"(n));
		n = ((n - 1) & (WP_STACK_COPY_CHUNK - 1)) + 1;
		/* the last may run past WP_STACK_COPY_MAX, into the chunk of room behind it: not counted */
		if (bpf_probe_read_user(&c->bytes[len & (WP_STACK_COPY_MAX - 1)], n, (const void *)at))
			break;
		len += n;
	}
	if (len > max)
		len = max;
	c->head.copy.sp = sp;
	c->head.copy.tgid = task_tgid(t);
	c->head.copy.tid = tid;
	c->head.copy.len = (__u32)len;
	__sync_fetch_and_add(&stack_cost.copies, 1);
	__sync_fetch_and_add(&stack_cost.copied_bytes, len);
	__sync_fetch_and_add(&stack_cost.copy_ns, bpf_ktime_get_ns() - t0);
}

/* unwind_copies_of - @p's copies, made with its storage when @create: NULL without */
static __always_inline struct lean_copies *unwind_copies_of(struct task_struct *p, bool create)
{
	return bpf_task_storage_get(&lean_copies, p, 0, create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
}

/* unwind_take_waker - current wakes @p, in a task's context (@user): its copy into @p's storage */
static __always_inline void unwind_take_waker(struct task_struct *p, bool user)
{
	struct lean_copies *lc = unwind_copies_of(p, true);

	if (!lc)
		return;
	if (user)
		stack_copy_take(&lc->waker);
	else
		lc->waker.head.copy.len = 0;
}

/* unwind_take_wait - current, tracked, goes to sleep: its copy into its storage */
static __always_inline void unwind_take_wait(void)
{
	struct lean_copies *lc = unwind_copies_of(bpf_get_current_task_btf(), true);

	if (lc)
		stack_copy_take(&lc->wait);
}

/* unwind_forget - @tid ends: the top learned of its stack is no other thread's */
static __always_inline void unwind_forget(__u32 tid)
{
	bpf_map_delete_elem(&unwind_tops, &tid);
}

/* unwind_allowed - may this CPU write a wakeup's copies now, @slow or not? Counted when it may */
static __always_inline bool unwind_allowed(bool slow, __u64 now)
{
	struct unwind_budget *b;
	__u32 zero = 0;

	b = bpf_map_lookup_elem(&unwind_budget, &zero);
	if (!b)
		return false;
	if (b->second != now / 1000000000) {
		b->second = now / 1000000000;
		b->slow = b->other = 0;
	}
	if (slow && b->slow < unwind_slow_per_cpu) {
		b->slow++;
		return true;
	}
	if (b->other < unwind_per_cpu) {
		b->other++;
		return true;
	}
	return false;
}

/* unwind_send_one - @c, of @which stack of @wakee's wakeup, into the ring: written or not */
static __always_inline bool unwind_send_one(struct wp_stack_copy *c, __u16 which, __u32 wakee, __u64 now)
{
	__u32 len = c->head.copy.len, size;

	if (!len)
		return false;
	header_fill(&c->head, WP_EV_LEAN, now);
	c->head.drops = (__u32)drops_total;
	c->head.copy.wakee_tid = wakee;
	c->head.copy.which = which;
	c->head.copy.__pad = 0;
	c->head.copy.__pad1 = 0;
	c->head.copy.__pad3 = 0;
	c->head.copy.flags = WP_LEAN_NAMES | WP_LEAN_COPY;
	size = __builtin_offsetof(struct wp_stack_copy, bytes) + (len & (2 * WP_STACK_COPY_MAX - 1));
	if (size > sizeof(*c))
		return false;
	if (bpf_ringbuf_output(&events, c, size, 0)) {
		__sync_fetch_and_add(&stack_cost.lost, 1);
		return false;
	}
	__sync_fetch_and_add(&stack_cost.sent_bytes, size);
	return true;
}

/*
 * unwind_send - @p's wakeup, which took @took from its waking and is
 * judged @slow, is written now (@now): its copies first, when the budget
 * lets them go. Which went (WP_COPY_*), for its wp_lean_stacks. Either
 * way they are spent: a later wakeup takes copies of its own.
 */
static __always_inline __u16 unwind_send(struct task_struct *p, bool slow, __u64 now)
{
	struct lean_copies *lc = unwind_copies_of(p, false);
	__u16 sent = 0;

	if (!lc || (!lc->waker.head.copy.len && !lc->wait.head.copy.len))
		return 0;
	if (!unwind_allowed(slow, now)) {
		__sync_fetch_and_add(&stack_cost.over_budget, 1);
	} else {
		if (unwind_send_one(&lc->waker, WP_COPY_WAKER, task_tid(p), now))
			sent |= WP_COPY_WAKER;
		if (unwind_send_one(&lc->wait, WP_COPY_WAIT, task_tid(p), now))
			sent |= WP_COPY_WAIT;
		if (sent)
			__sync_fetch_and_add(slow ? &stack_cost.sent_slow : &stack_cost.sent_budget, 1);
	}
	lc->waker.head.copy.len = 0;
	lc->wait.head.copy.len = 0;
	return sent;
}

#endif /* WAKEPROBE_UNWIND_BPF_H */
