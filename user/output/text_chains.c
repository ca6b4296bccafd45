// SPDX-License-Identifier: GPL-2.0
/* text_chains.c - a wakeup's chain of wakers in the text reports (text_chains.h) */
#include <inttypes.h>
#include "attach_aggregate.h"
#include "attach_session.h"
#include "chain.h"
#include "chain_check.h"
#include "chain_totals.h"
#include "mechanism.h"
#include "text_chains.h"
#include "text_stacks.h"

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

/* print_explained - the hop's waker's own wakeup, split by cause (the flight records', or the full engine's stream) */
static void print_explained(FILE *out, const struct chain_hop *h)
{
	char t[48];
	bool first = true;

	fprintf(out, "           its own waking to switch-in, by cause:");
	for (int k = 0; k < NR_CAUSES; k++) {
		if (h->runnable_by_cause[k] <= 0)
			continue;
		fprintf(out, "%s %s %.2f", first ? "" : ",", wakeup__cause_name(k), us((uint64_t)h->runnable_by_cause[k]));
		if (k == CAUSE_OTHER_TASK && h->runnable_task_tid)
			fprintf(out, " (%s the longest, %.2f)", task(t, sizeof(t), h->runnable_task_comm,
				h->runnable_task_tid), us(h->runnable_task_ns));
		first = false;
	}
	fprintf(out, " us\n");
}

/* print_hop - hop @i of @c: who woke the one before, what it ran, how long it waited for its CPU and behind whom */
static void print_hop(FILE *out, struct run_stacks *rs, const struct chain *c, uint32_t i)
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
		fprintf(out, "; runnable %.2f us%s before that, on CPU %u, which it took from %s", us(h->runnable_ns),
			h->clipped ? " (from the wakee's sleep)" : "", h->cpu,
			h->holder_tid ? task(holder, sizeof(holder), h->holder_comm, h->holder_tid) : "an idle CPU");
	}
	fprintf(out, "\n");
	if (h->runnable_explained)
		print_explained(out, h);
	if (h->stacked && rs) {
		fprintf(out, "           woke it from: ");
		text_stacks__brief(out, rs, h->waker_user, h->waker_kernel, h->waker_tgid);
		fprintf(out, "\n");
	}
}

void text_chains__print_chain(FILE *out, struct run_stacks *rs, const struct attach_result *r)
{
	const struct chain *c = &r->chain;

	if (!r->chained)
		return;
	if (c->wait_seen)
		fprintf(out, "  chain: asleep %.2f us before its waking; the hops back from it:\n", us(c->wait_ns));
	else
		fprintf(out, "  chain: asleep since before it was traced; the hops back from its waking:\n");
	for (uint32_t i = 0; i < c->nr_hops; i++)
		print_hop(out, rs, c, i);
	fprintf(out, "    end    %s", chain__end_name(c->end));
	if (c->rest_ns)
		fprintf(out, ", %.2f us of the wait before it", us(c->rest_ns));
	fprintf(out, ": %s\n", chain__end_meaning(c->end));
	switch (r->chain_verdict) {
	case CHAIN_SAME:
		fprintf(out, "    kernel the kernel's links say the same, hop for hop (times within %.2f us)\n",
			us(r->chain_diff_ns));
		break;
	case CHAIN_DIFFERS:
		fprintf(out, "    kernel the kernel's links say otherwise (the run's first difference is under the "
			"chains' section)\n");
		break;
	case CHAIN_NO_KERNEL:
		fprintf(out, "    kernel no chain of the kernel's was found for this waking\n");
		break;
	default:
		break;
	}
}

/* share - @part of @whole, in percent */
static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* print_tasks - "@title: 'comm' tid 95.2%, ..." of @tt, each a share of @whole; nothing when it holds none */
static void print_tasks(FILE *out, const char *title, const struct chain_task_times *tt, uint64_t whole,
			const char *tid0)
{
	const struct chain_task_time *rows[CHAIN_TOTALS_TASKS];
	size_t n = chain_totals__tasks(tt, rows, CHAIN_TOTALS_TASKS);
	char t[48];

	if (!n)
		return;
	fprintf(out, "    %s:", title);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s %s %.1f%%%s", i ? "," : "", rows[i]->tid ? task(t, sizeof(t), rows[i]->comm,
			rows[i]->tid) : tid0, share(rows[i]->ns - rows[i]->error, whole),
			rows[i]->error ? " or more" : "");
	if (tt->other_ns)
		fprintf(out, ", other tasks %.1f%%", share(tt->other_ns, whole));
	fprintf(out, "\n");
}

/* print_totals - where the waits of @t went: per wakeup, and who held the hops' CPUs and ran on the path */
static void print_totals(FILE *out, const struct chain_totals *t)
{
	double n = t->waits ? (double)t->waits : 1.0;
	bool first = true;

	fprintf(out, "    %" PRIu64 " chains, %" PRIu64 " of their waits seen from their start: per wakeup %.2f us "
		"asleep, of which hops ran %.2f (%.2f preempted), waited for a CPU %.2f", t->chained, t->waits,
		us(t->wait_ns) / n, us(t->ran_ns) / n, us(t->preempted_ns) / n, us(t->runnable_ns) / n);
	for (int e = 0; e < NR_CHAIN_ENDS; e++)
		if (t->rest_ns[e])
			fprintf(out, ", behind the end '%s' %.2f", chain__end_name(e), us(t->rest_ns[e]) / n);
	fprintf(out, "\n    chains by their end:");
	for (int e = 0; e < NR_CHAIN_ENDS; e++) {
		if (!t->ends[e])
			continue;
		fprintf(out, "%s %s %" PRIu64, first ? "" : ",", chain__end_name(e), t->ends[e]);
		first = false;
	}
	fprintf(out, "\n");
	print_tasks(out, "waiting for a CPU behind", &t->holders, t->runnable_ns, "an idle CPU");
	print_tasks(out, "on the path", &t->wakers, t->ran_ns + t->runnable_ns, "?");
}

/* print_pairs - the first pairs of the report's table that had chains, each with where its waits went */
static void print_pairs(FILE *out, const struct attach_report *r)
{
	const struct attach_pair *rows[ATTACH_AGG_MAX_PAIRS];
	size_t n = attach_aggregate__pairs(r->agg, r->order, rows, r->pairs < ATTACH_AGG_MAX_PAIRS ? r->pairs :
					   ATTACH_AGG_MAX_PAIRS);

	fprintf(out, "\nWhere the waits went, back through the wakers hop by hop (--chains), for the pairs above:\n");
	for (size_t i = 0; i < n; i++) {
		const struct attach_pair *p = rows[i];
		char wakee[48];

		if (!p->chains || !p->chains->chained)
			continue;
		fprintf(out, "  %s -> %s via %s\n", p->waker, task(wakee, sizeof(wakee), p->wakee_comm, p->wakee_tid),
			p->mechanism);
		print_totals(out, p->chains);
	}
	fprintf(out, "  every pair:\n");
	print_totals(out, &r->agg->chains);
}

/* print_kept - the wakeups whose chains held the most of their wait, each with its chain */
static void print_kept(FILE *out, const struct attach_report *r)
{
	const struct attach_aggregate *g = r->agg;

	if (!g->nr_chains_kept)
		return;
	fprintf(out, "\nThe %" PRIu32 " wakeups whose chains held the most of their wait (their hops' runs and waits "
		"for a CPU), slow or not:\n", g->nr_chains_kept);
	for (uint32_t i = 0; i < g->nr_chains_kept; i++) {
		const struct attach_result *o = &g->chains_kept[i];
		char waker[MECHANISM_NAME_LEN], wakee[48];

		mechanism__waker_name(&o->waker, waker, sizeof(waker));
		fprintf(out, "#%" PRIu32 " wakeup %" PRIu64 " at %.6f s: %.2f us on its chain, then %.2f us waking -> "
			"switch-in\n", i + 1, o->sr.sample.seq, (o->sr.t_notify_ns - r->run->trace_start_ns) / 1e9,
			us(chain__on_path_ns(&o->chain)), us((uint64_t)o->wake_to_run_ns));
		fprintf(out, "  %s -> %s via %s\n", waker, task(wakee, sizeof(wakee), o->wakee_comm,
			o->sr.sample.wakee_tid), o->mechanism);
		text_chains__print_chain(out, r->run ? r->run->stacks : NULL, o);
	}
}

/*
 * print_check - the full engine's chains, built from its stream, held
 * against the kernel's links of the same wakeups (chain_check.h)
 */
static void print_check(FILE *out, const struct chain_check_counters *n)
{
	fprintf(out, "\nThe chains built twice: the full engine's from its stream, the kernel's from the links the "
		"lean\nengine's programs carried beside it; of the stream's, %" PRIu64 " held against the kernel's of "
		"the\nsame waking: %" PRIu64 " the same hop for hop (who woke whom, how, behind whom, where it "
		"ended),\n%" PRIu64 " not; %" PRIu64 " with no chain of the kernel's found. Of the kernel's %" PRIu64
		", %" PRIu64 " matched none of the\nstream's, %" PRIu64 " could not be kept to match.\n", n->compared,
		n->same, n->differ, n->no_kernel, n->kernel, n->kernel_unmatched, n->kernel_not_kept);
	if (n->hops)
		fprintf(out, "Where the same, a hop's run or wait for a CPU differed by %.2f us on average, %.2f at "
			"most: each\nengine reads its own clock.\n", us(n->time_diff_ns / n->hops),
			us(n->max_time_diff_ns));
	if (n->differ)
		fprintf(out, "The first to differ: %s\n", n->first_difference);
}

void text_chains__print(FILE *out, const struct attach_report *r)
{
	if (!r->targets->chains)
		return;
	if (r->chain_check)
		print_check(out, r->chain_check);
	print_pairs(out, r);
	print_kept(out, r);
}
