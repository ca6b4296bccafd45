// SPDX-License-Identifier: GPL-2.0
/* text_chains.c - a wakeup's chain of wakers in the text reports (text_chains.h) */
#include <inttypes.h>
#include "chain.h"
#include "mechanism.h"
#include "text_chains.h"

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

/* task - "'comm' tid", or "tid N" where the run never named it */
static const char *task(char *buf, size_t len, const char *comm, uint32_t tid)
{
	if (comm[0])
		snprintf(buf, len, "'%.16s' %" PRIu32, comm, tid);
	else
		snprintf(buf, len, "tid %" PRIu32, tid);
	return buf;
}

/* waker_words - who ran hop @h's waking: a task, or the interrupt work that came in on one */
static const char *waker_words(char *buf, size_t len, const struct chain_hop *h)
{
	char t[48];

	switch (h->kind) {
	case WP_LINK_IRQ:
		return "an interrupt (a timer's expiry too)";
	case WP_LINK_SOFTIRQ:
		return "a softirq";
	case WP_LINK_UNSURE:
		return "a waker whose context could not be read";
	case WP_LINK_UNTRACED:
		snprintf(buf, len, "%s (not traced)", task(t, sizeof(t), h->waker_comm, h->waker_tid));
		return buf;
	case WP_LINK_RAISED:
		snprintf(buf, len, "%s (a softirq it raised)", task(t, sizeof(t), h->waker_comm, h->waker_tid));
		return buf;
	default:
		return task(buf, len, h->waker_comm, h->waker_tid);
	}
}

/* print_hop - hop @i of @c: who woke the one before, what it ran, how long it waited for its CPU and behind whom */
static void print_hop(FILE *out, const struct chain *c, uint32_t i)
{
	const struct chain_hop *h = &c->hops[i];
	char who[80], holder[48];

	fprintf(out, "    hop %" PRIu32 "  %s", i + 1, waker_words(who, sizeof(who), h));
	if (h->nr >= 0 && h->kind == WP_LINK_THREAD && mechanism__syscall_name(h->nr))
		fprintf(out, " in %s", mechanism__syscall_name(h->nr));
	if (!h->run_seen) {
		fprintf(out, h->kind == WP_LINK_THREAD || h->kind == WP_LINK_RAISED || h->kind == WP_LINK_NEW ?
			     ", not seen to sleep before: running all along\n" : "\n");
		return;
	}
	fprintf(out, ": ran %.2f us%s before the waking", us(h->ran_ns), h->clipped && !h->runnable_ns ?
		" (from the wakee's sleep; it ran since before)" : "");
	if (h->preempted_ns)
		fprintf(out, ", %.2f us of it preempted", us(h->preempted_ns));
	if (h->runnable_ns || !h->clipped) {
		fprintf(out, "; runnable %.2f us%s before that, on CPU %u behind %s", us(h->runnable_ns),
			h->clipped ? " (from the wakee's sleep)" : "", h->cpu,
			h->holder_tid ? task(holder, sizeof(holder), h->holder_comm, h->holder_tid) : "an idle CPU");
	}
	fprintf(out, "\n");
}

void text_chains__print_chain(FILE *out, const struct attach_result *r)
{
	const struct chain *c = &r->chain;

	if (!r->chained)
		return;
	if (c->wait_seen)
		fprintf(out, "  chain: asleep %.2f us before its waking; the hops back from it:\n", us(c->wait_ns));
	else
		fprintf(out, "  chain: asleep since before it was traced; the hops back from its waking:\n");
	for (uint32_t i = 0; i < c->nr_hops; i++)
		print_hop(out, c, i);
	fprintf(out, "    end    %s", chain__end_name(c->end));
	if (c->rest_ns)
		fprintf(out, ", %.2f us of the wait before it", us(c->rest_ns));
	fprintf(out, ": %s\n", chain__end_meaning(c->end));
}
