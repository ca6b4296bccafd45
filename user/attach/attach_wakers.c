// SPDX-License-Identifier: GPL-2.0
/* attach_wakers.c - a WAKER record held for its waking, and the waker it names (attach_wakers.h) */
#include <string.h>
#include "attach_wakers.h"

bool attach_wakers__hold(struct held_waker *h, const struct wp_event *e)
{
	bool unpaired = h->valid;

	h->valid = true;
	h->tid = e->tid;
	h->rec = e->waker;
	return unpaired;
}

void attach_wakers__name(struct waker_names *names, uint32_t tid, const char comm[WP_TASK_COMM_LEN])
{
	names->slot[tid % WAKER_NAMES].tid = tid;
	memcpy(names->slot[tid % WAKER_NAMES].comm, comm, WP_TASK_COMM_LEN);
}

const char *attach_wakers__comm(const struct waker_names *names, uint32_t tid)
{
	return tid && names->slot[tid % WAKER_NAMES].tid == tid ? names->slot[tid % WAKER_NAMES].comm : NULL;
}

/* syscall_waker_comm - a syscall waker's comm, which its record has no room for: its last switch-in told it */
static void syscall_waker_comm(const struct waker_names *names, const char *thread_comm, uint32_t tid,
			       struct waker_info *w)
{
	if (thread_comm && thread_comm[0]) {
		/* a comm's bytes up to its NUL: a name shorter than the field is not read past */
		size_t n = strnlen(thread_comm, sizeof(w->comm));

		memset(w->comm, 0, sizeof(w->comm));
		memcpy(w->comm, thread_comm, n);
	}
	else if (attach_wakers__comm(names, tid))
		memcpy(w->comm, attach_wakers__comm(names, tid), sizeof(w->comm));
}

enum waker_take attach_wakers__take(struct held_waker *h, const struct waker_names *names, const char *thread_comm,
				    const struct wp_event *e, struct waker_info *w)
{
	const struct wp_waker *k;

	memset(w, 0, sizeof(*w));
	w->nr = -1;
	w->tid = e->tid;
	if (!h || !h->valid)
		return WAKER_NONE;
	h->valid = false;
	k = &h->rec;
	if (k->wakee_pid != e->wake.pid || h->tid != e->tid)
		return WAKER_UNPAIRED;
	w->cls = k->waker_class;
	if (k->waker_class == WP_WAKER_SYSCALL)
		w->fd_kind = k->fd_kind;
	else
		w->irq_kind = k->irq_kind;
	w->nr = k->nr;
	w->tgid = k->waker_tgid;
	w->since_ns = k->since_ns;
	w->untimed = k->flags & WP_WAKER_UNTIMED;
	switch (k->waker_class) {
	case WP_WAKER_SYSCALL:
		w->arg = k->arg;
		w->arg2 = k->arg2;
		syscall_waker_comm(names, thread_comm, e->tid, w);
		break;
	case WP_WAKER_TIMER:
		w->timer_fn = k->timer_fn;
		break;
	case WP_WAKER_SOFTIRQ:
		/* raised by current in its own context: the task behind it, by its comm */
		w->raised = k->flags & WP_WAKER_RAISED;
		if (w->raised)
			memcpy(w->comm, k->comm, sizeof(w->comm));
		break;
	default:
		memcpy(w->comm, k->comm, sizeof(w->comm));
		break;
	}
	return WAKER_TAKEN;
}
