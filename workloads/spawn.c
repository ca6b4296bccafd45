// SPDX-License-Identifier: GPL-2.0
/*
 * spawn - what it costs to start a thread, and to start a coroutine: n
 * thread creations timed as one loop, for n in steps from 1 to 1000, beside
 * n coroutines made as libtask makes them; and, beyond the seed, what one
 * switch costs: swapcontext() between two coroutines against a futex
 * hand-off between two threads. Seed 001's comparison (docs/seeds.md).
 *
 * Modes:
 * - thread-32k: pthread_create() with a 32 KiB stack (pthread_attr_
 *   setstacksize), the stack the seed meant to use: it built the attribute
 *   but passed NULL. The stack the thread got is read back and checked.
 * - thread-default: pthread_create() with no attribute (RLIMIT_STACK).
 * - coroutine: libtask's taskcreate() done here with ucontext: one malloc()
 *   of the coroutine and its 32 KiB stack, getcontext(), makecontext(),
 *   appended to a run queue, not run while timed.
 * - switch-coroutine: swapcontext() between two coroutines of one thread.
 * - switch-thread: a futex hand-off between two threads on one CPU (the
 *   like of a coroutine switch: one CPU, one control flow at a time).
 * - switch-cross-cpu: the same between threads on two CPUs.
 *
 * The seed's defects fixed: the 32 KiB attribute reaches pthread_create();
 * room for any n (the seed's thr[1000] overflowed past 1000); an error of
 * pthread_create() is its return code, not errno (the seed's perror()); R
 * samples per n rather than one, so every point has a median and a spread.
 * The threads are joined after the clock stopped, as the seed did.
 *
 * Beyond the loop's time, every created thread reads the clock as its first
 * instruction into a slot made before the clock started (no allocation):
 * with the creator's read just before each pthread_create(), that gives
 * each thread's creation-to-first-run latency, reported as median and p99.
 * Traced, that is the path pthread_create() -> clone -> sched_wakeup_new ->
 * switch-in -> the new thread's first clock read.
 *
 * Threads are named sp-creator (every mode's clock runs there), sp-thread
 * (the created ones, once they ran) and sp-partner (switch-thread's other
 * side); --json counts threads, coroutines and switches so that a tracer
 * can divide its wakeups by them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>
#include "parse.h"
#include "throughput.h"

#define SP_NAME			"spawn"
#define SP_STACK_32K		32768	/* the seed's pthread stack, and libtask's taskcreate() stack */
#define SP_MAX_COUNT		100000ull
#define SP_MAX_COUNTS		1000	/* "1-1000" is the seed's whole curve */
#define SP_MAX_SWITCHES		100000000ull
#define SP_DEFAULT_REPEAT	20
#define SP_DEFAULT_SWITCHES	20000
/* every first-run latency of one (mode, n) is kept to sort: R x n of them at most */
#define SP_MAX_LATENCIES	20000000ull

enum sp_mode {
	SP_THREAD_32K,
	SP_THREAD_DEFAULT,
	SP_COROUTINE,
	SP_SWITCH_COROUTINE,
	SP_SWITCH_THREAD,
	SP_SWITCH_CROSS_CPU,
	SP_NR_MODES,
};

static const char *const sp_mode_names[SP_NR_MODES] = {
	[SP_THREAD_32K] = "thread-32k",
	[SP_THREAD_DEFAULT] = "thread-default",
	[SP_COROUTINE] = "coroutine",
	[SP_SWITCH_COROUTINE] = "switch-coroutine",
	[SP_SWITCH_THREAD] = "switch-thread",
	[SP_SWITCH_CROSS_CPU] = "switch-cross-cpu",
};

/* what one unit of a mode's work is: a tracer divides by these */
static const char *const sp_mode_units[SP_NR_MODES] = {
	[SP_THREAD_32K] = "thread",
	[SP_THREAD_DEFAULT] = "thread",
	[SP_COROUTINE] = "coroutine",
	[SP_SWITCH_COROUTINE] = "switch",
	[SP_SWITCH_THREAD] = "switch",
	[SP_SWITCH_CROSS_CPU] = "switch",
};

/* where the created threads may run: CPU A is the creator's, B the other of --cpus */
enum sp_placement {
	SP_PLACE_SPREAD,	/* creator and threads on A or B: the kernel places each new thread */
	SP_PLACE_SAME,		/* creator on A, threads inherit A */
	SP_PLACE_OTHER,		/* creator on A, threads pinned to B by the attribute */
	SP_NR_PLACEMENTS,
};

static const char *const sp_placement_names[SP_NR_PLACEMENTS] = { "spread", "same", "other" };

static const uint64_t sp_default_counts[] = { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000 };

struct sp_options {
	struct tp_options tp;
	bool modes[SP_NR_MODES];
	uint64_t counts[SP_MAX_COUNTS];
	size_t nr_counts;
	uint64_t max_count;
	uint64_t switches;
	enum sp_placement placement;
};

/*
 * struct sp_slot - what one created thread writes, and nothing else does
 * until it was joined; a cache line each, so that threads running side by
 * side do not share one.
 */
struct sp_slot {
	_Alignas(64) uint64_t first_ns;	/* the thread's first clock read */
	uint32_t runs;
};

/* struct sp_first_run - the creation-to-first-run latencies of one (mode, n), over its runs */
struct sp_first_run {
	struct tp_stats ns;
	double p90;
	double p99;
};

/* struct sp_coroutine - one coroutine and, behind it in the same block, its stack (libtask's layout) */
struct sp_coroutine {
	ucontext_t uc;
	struct sp_coroutine *next;	/* the run queue */
	uint64_t id;
	uint32_t runs;
	_Alignas(16) unsigned char stack[];
};

/* struct sp_queue - the run queue the coroutines go on, and the context that runs them */
struct sp_queue {
	ucontext_t sched;
	struct sp_coroutine *head;
	struct sp_coroutine *tail;
	uint64_t queued;
};

/* struct sp_switch - one switch run: the baton, its counts, both sides' */
struct sp_switch {
	_Alignas(64) uint32_t baton;	/* hand-off k sets it to k + 1: whose turn, and how far */
	uint32_t ready;			/* switch-thread: the partner is about to wait */
	uint64_t switches;
	_Alignas(64) uint64_t hand_offs[2];
	uint64_t waits[2];		/* FUTEX_WAIT calls that slept */
	uint64_t wait_again[2];		/* FUTEX_WAIT calls that found the baton moved on (EAGAIN) */
	uint64_t woken[2];		/* FUTEX_WAKE calls that woke the other side */
	bool out_of_turn;
	const char *failed;
	int failed_err;
	ucontext_t main_uc;		/* switch-coroutine */
	ucontext_t co_uc;
};

/* struct sp_run - what the creator thread is given and gives back */
struct sp_run {
	const struct sp_options *opt;
	struct tp_result *results;
	struct sp_first_run *first_runs;	/* one per result; threads' results only */
	size_t nr_results;
	size_t stack_bytes[SP_NR_MODES];	/* the stacks the modes' threads and coroutines got */
	uint64_t totals[SP_NR_MODES];		/* units of work done, over the whole invocation */
	char error[256];
	int status;
};

/* the one coroutine running or about to run; only sp-creator touches it */
static struct sp_coroutine *sp_current;
static struct sp_queue *sp_current_queue;
static struct sp_switch *sp_current_switch;

static void sp_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s [--mode M[,M...]] [--count N[,N|A-B/S...]] [--switches S] [--placement P]\n"
		"             [--repeat R] [--cpus A,B] [--json]\n"
		"\n"
		"%s - the time to create n threads or n coroutines, n in steps (seed 001), and the cost\n"
		"of one switch between two coroutines or two threads, over repeated runs.\n"
		"\n"
		"Modes:\n"
		"  thread-32k           n pthread_create() with a 32 KiB stack (the seed's intended one)\n"
		"  thread-default       n pthread_create() with the default stack (RLIMIT_STACK)\n"
		"  coroutine            n coroutines as libtask makes them: malloc of a 32 KiB stack,\n"
		"                       getcontext, makecontext, onto a run queue; not run while timed\n"
		"  switch-coroutine     swapcontext() back and forth between two coroutines\n"
		"  switch-thread        a futex hand-off back and forth between two threads on CPU A\n"
		"  switch-cross-cpu     the same between a thread on CPU A and one on CPU B\n"
		"\n"
		"  -m, --mode M         modes, comma-separated, or all (default all)\n"
		"  -n, --count N        threads or coroutines per run: numbers and ranges A-B/S, comma-\n"
		"                       separated (default 1,2,5,10,20,50,100,200,500,1000; the seed's\n"
		"                       whole curve is 1-1000)\n"
		"  -s, --switches S     switches per run of the switch modes, even (default %d)\n"
		"  -p, --placement P    where created threads run: spread (creator and threads may use\n"
		"                       A and B, the kernel places each new thread; default), same (all\n"
		"                       on A) or other (creator on A, threads pinned to B by the\n"
		"                       attribute, which costs glibc a sched_setaffinity per thread)\n"
		"  -r, --repeat R       runs per mode and n (default %d)\n"
		"  -c, --cpus A,B       the creator's CPU A and the other one B (default: the first two)\n"
		"  -j, --json           one JSON document on stdout instead of the tables\n"
		"  -h, --help           this text\n"
		"\n"
		"The creation clock runs from just before the first pthread_create() (or malloc) to the\n"
		"return of the last; threads are joined, and coroutines run once, after it stopped. Each\n"
		"thread's first clock read gives its creation-to-first-run latency (median, p99). glibc\n"
		"keeps up to 40 MiB of joined threads' stacks for reuse: GLIBC_TUNABLES=glibc.pthread.\n"
		"stack_cache_size=0 makes every run map fresh stacks, as the seed's one run per process did.\n"
		"The defaults take about a minute on two busy vCPUs, most of it thread-default and the\n"
		"switch-thread modes.\n"
		"\n"
		"Examples:\n"
		"  %s\n"
		"  %s --mode thread-32k,coroutine --count 1-1000/50 --repeat 10 --json > spawn.json\n"
		"  %s --mode switch-coroutine,switch-thread --switches 1000000 --repeat 5\n"
		"  GLIBC_TUNABLES=glibc.pthread.stack_cache_size=0 %s --mode thread-32k --placement other\n",
		SP_NAME, SP_NAME, SP_DEFAULT_SWITCHES, SP_DEFAULT_REPEAT, SP_NAME, SP_NAME, SP_NAME, SP_NAME);
}

static bool sp_is_thread_mode(int m)
{
	return m == SP_THREAD_32K || m == SP_THREAD_DEFAULT;
}

static bool sp_is_switch_mode(int m)
{
	return m == SP_SWITCH_COROUTINE || m == SP_SWITCH_THREAD || m == SP_SWITCH_CROSS_CPU;
}

static void sp_parse_options(struct sp_options *opt, int argc, char **argv)
{
	static const struct option longopts[] = {
		TP_LONGOPTS,
		{ "mode", required_argument, NULL, 'm' },
		{ "count", required_argument, NULL, 'n' },
		{ "switches", required_argument, NULL, 's' },
		{ "placement", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	size_t i;
	int o, m, p;

	memset(opt, 0, sizeof(*opt));
	tp_options__init(&opt->tp, SP_NAME);
	opt->tp.repeat = SP_DEFAULT_REPEAT;
	for (m = 0; m < SP_NR_MODES; m++)
		opt->modes[m] = true;
	memcpy(opt->counts, sp_default_counts, sizeof(sp_default_counts));
	opt->nr_counts = sizeof(sp_default_counts) / sizeof(sp_default_counts[0]);
	opt->switches = SP_DEFAULT_SWITCHES;
	opt->placement = SP_PLACE_SPREAD;

	opterr = 0;	/* one line per mistake: ours, naming the option */
	while ((o = getopt_long(argc, argv, ":" TP_SHORTOPTS "m:n:s:p:", longopts, NULL)) != -1) {
		if (tp_options__parse(&opt->tp, o, optarg, argc, argv))
			continue;
		switch (o) {
		case 'm':
			if (tp_parse_names(optarg, sp_mode_names, SP_NR_MODES, NULL, NULL, opt->modes))
				tp_usage_error(SP_NAME, "--mode wants thread-32k, thread-default, coroutine, "
					       "switch-coroutine, switch-thread, switch-cross-cpu or all, "
					       "comma-separated, not '%s'", parse__shown(optarg));
			break;
		case 'n':
			if (tp_parse_u64_steps(optarg, 1, SP_MAX_COUNT, opt->counts, SP_MAX_COUNTS, &opt->nr_counts))
				tp_usage_error(SP_NAME, "--count wants up to %d whole numbers from 1 to %llu, or "
					       "ranges A-B/S, comma-separated, not '%s'", SP_MAX_COUNTS, SP_MAX_COUNT,
					       parse__shown(optarg));
			break;
		case 's':
			if (parse__u64(optarg, 2, SP_MAX_SWITCHES, &opt->switches) || opt->switches % 2)
				tp_usage_error(SP_NAME, "--switches wants an even number from 2 to %llu (each round "
					       "trip is two switches), not '%s'", SP_MAX_SWITCHES,
					       parse__shown(optarg));
			break;
		case 'p':
			for (p = 0; p < SP_NR_PLACEMENTS; p++)
				if (!strcmp(optarg, sp_placement_names[p]))
					break;
			if (p == SP_NR_PLACEMENTS)
				tp_usage_error(SP_NAME, "--placement wants spread, same or other, not '%s'",
					       parse__shown(optarg));
			opt->placement = p;
			break;
		}
	}
	tp_options__finish(&opt->tp, argc, argv, sp_usage);
	for (i = 0; i < opt->nr_counts; i++)
		if (opt->counts[i] > opt->max_count)
			opt->max_count = opt->counts[i];
	if ((opt->modes[SP_THREAD_32K] || opt->modes[SP_THREAD_DEFAULT]) &&
	    opt->tp.repeat * opt->max_count > SP_MAX_LATENCIES)
		tp_usage_error(SP_NAME, "--repeat %llu times --count %llu is more than the %llu first-run "
			       "latencies kept per row: fewer repeats or a smaller count",
			       (unsigned long long)opt->tp.repeat, (unsigned long long)opt->max_count, SP_MAX_LATENCIES);
}

/* sp_set_cpus - the calling thread may run on CPU @a, and on @b too if it is >= 0: 0 or -errno */
static int sp_set_cpus(int a, int b)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(a, &set);
	if (b >= 0)
		CPU_SET(b, &set);
	return -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/*
 * Thread creation
 */

/* sp_thread_main - a created thread: its first clock read, then its name; nothing else */
static void *sp_thread_main(void *arg)
{
	struct sp_slot *slot = arg;
	uint64_t now = tp_now_ns();

	slot->first_ns = now;
	slot->runs++;
	prctl(PR_SET_NAME, "sp-thread", 0, 0, 0);
	return NULL;
}

/* sp_stack_probe - what stack a thread made with the attribute under test really has */
static void *sp_stack_probe(void *arg)
{
	size_t *bytes = arg;
	pthread_attr_t attr;

	prctl(PR_SET_NAME, "sp-thread", 0, 0, 0);
	if (pthread_getattr_np(pthread_self(), &attr))
		return NULL;
	pthread_attr_getstacksize(&attr, bytes);
	pthread_attr_destroy(&attr);
	return NULL;
}

/* sp_probe_stack - the stack size a thread created with @attr gets: 0 or an error of pthread_*() */
static int sp_probe_stack(const pthread_attr_t *attr, size_t *bytes)
{
	pthread_t th;
	int err;

	*bytes = 0;
	err = pthread_create(&th, attr, sp_stack_probe, bytes);
	if (!err)
		err = pthread_join(th, NULL);
	if (!err && !*bytes)
		err = EINVAL;
	return err;
}

/* the arrays a creation run fills, made once for the largest n */
struct sp_threads {
	pthread_t *tids;
	uint64_t *stamp;	/* [i]: the creator's clock just before pthread_create() i; [n]: after the last */
	struct sp_slot *slots;
	double *latencies;	/* every first-run latency of the current (mode, n) */
	size_t nr_latencies;
};

/*
 * sp_create_threads - one run: @n threads created with @attr, timed, then
 * joined. 0, or -1 with the one line in @msg.
 */
static int sp_create_threads(struct sp_threads *t, const pthread_attr_t *attr, uint64_t n, struct tp_result *r,
			     double *ns, char *msg, size_t len)
{
	uint64_t i, created, joined = 0, ran = 0, before_return = 0;
	int err = 0, join_err = 0;

	memset(t->slots, 0, n * sizeof(*t->slots));
	for (i = 0; i < n; i++) {
		t->stamp[i] = tp_now_ns();
		err = pthread_create(&t->tids[i], attr, sp_thread_main, &t->slots[i]);
		if (err)
			break;
	}
	t->stamp[i] = tp_now_ns();
	created = i;
	for (i = 0; i < created; i++) {
		int e = pthread_join(t->tids[i], NULL);

		if (e && !join_err)
			join_err = e;
		else if (!e)
			joined++;
	}
	if (err) {
		/* pthread_create() returns its error; it does not set errno (the seed's perror() said "Success") */
		snprintf(msg, len, "pthread_create() of thread %llu of %llu failed: %s%s", (unsigned long long)created + 1,
			 (unsigned long long)n, strerror(err),
			 err == EAGAIN ? " (see ulimit -u and /proc/sys/kernel/threads-max)" : "");
		return -1;
	}
	if (join_err) {
		snprintf(msg, len, "pthread_join() failed: %s", strerror(join_err));
		return -1;
	}
	for (i = 0; i < n; i++) {
		const struct sp_slot *s = &t->slots[i];

		if (s->runs != 1) {
			snprintf(msg, len, "thread %llu of %llu ran %u times, not once", (unsigned long long)i + 1,
				 (unsigned long long)n, s->runs);
			return -1;
		}
		if (s->first_ns < t->stamp[i]) {
			snprintf(msg, len, "thread %llu read the clock before it was created", (unsigned long long)i + 1);
			return -1;
		}
		ran++;
		before_return += s->first_ns < t->stamp[i + 1];
		t->latencies[t->nr_latencies++] = (double)(s->first_ns - t->stamp[i]);
	}
	*ns = (double)(t->stamp[n] - t->stamp[0]);
	tp_result__count(r, "created", created);
	tp_result__count(r, "joined", joined);
	tp_result__count(r, "first_runs", ran);
	tp_result__count(r, "ran_before_create_returned", before_return);
	return 0;
}

/*
 * Coroutines
 */

/* sp_coroutine_main - a coroutine's body, run once after the clock stopped: it counts itself */
static void sp_coroutine_main(void)
{
	sp_current->runs++;
	/* returning goes to uc_link: the queue's scheduler context */
}

/*
 * sp_coroutine__create - libtask's taskcreate(): the coroutine and its
 * stack in one malloc(), its context from getcontext() and makecontext(),
 * then onto the tail of the run queue. 0 or -errno.
 */
static int sp_coroutine__create(struct sp_queue *q, uint64_t id)
{
	struct sp_coroutine *c = malloc(sizeof(*c) + SP_STACK_32K);

	if (!c)
		return -ENOMEM;
	c->next = NULL;
	c->id = id;
	c->runs = 0;
	if (getcontext(&c->uc)) {
		free(c);
		return -errno;
	}
	c->uc.uc_stack.ss_sp = c->stack;
	c->uc.uc_stack.ss_size = SP_STACK_32K;
	c->uc.uc_link = &q->sched;
	makecontext(&c->uc, sp_coroutine_main, 0);
	if (q->tail)
		q->tail->next = c;
	else
		q->head = c;
	q->tail = c;
	q->queued++;
	return 0;
}

/* sp_queue__drain - run every queued coroutine once, then free it: how many ran, or -errno */
static int64_t sp_queue__drain(struct sp_queue *q, uint64_t *bad_id)
{
	struct sp_coroutine *c, *next;
	int64_t ran = 0;
	int err = 0;

	for (c = q->head; c; c = next) {
		next = c->next;
		if (!err) {
			sp_current = c;
			if (swapcontext(&q->sched, &c->uc))
				err = -errno;
			else if (c->runs == 1 && c->id == (uint64_t)ran)
				ran++;
			else if (!*bad_id)
				*bad_id = c->id + 1;
		}
		free(c);
	}
	q->head = NULL;
	q->tail = NULL;
	sp_current = NULL;
	return err ? err : ran;
}

static int sp_create_coroutines(uint64_t n, struct tp_result *r, double *ns, char *msg, size_t len)
{
	struct sp_queue *q = sp_current_queue;
	uint64_t start, end, i, bad_id = 0;
	int64_t ran;
	int err = 0;

	memset(q, 0, sizeof(*q));
	start = tp_now_ns();
	for (i = 0; i < n && !err; i++)
		err = sp_coroutine__create(q, i);
	end = tp_now_ns();
	ran = sp_queue__drain(q, &bad_id);
	if (err) {
		snprintf(msg, len, "creating coroutine %llu of %llu failed: %s", (unsigned long long)i,
			 (unsigned long long)n, strerror(-err));
		return -1;
	}
	if (ran < 0) {
		snprintf(msg, len, "swapcontext() into a coroutine failed: %s", strerror((int)-ran));
		return -1;
	}
	if (q->queued != n || (uint64_t)ran != n) {
		snprintf(msg, len, "%llu coroutines queued and %lld ran once in order, of %llu created%s",
			 (unsigned long long)q->queued, (long long)ran, (unsigned long long)n,
			 bad_id ? " (the first out of step is listed first)" : "");
		return -1;
	}
	*ns = (double)(end - start);
	tp_result__count(r, "created", n);
	tp_result__count(r, "queued", q->queued);
	tp_result__count(r, "ran_after", (uint64_t)ran);
	return 0;
}

/*
 * Switches
 */

/* sp_take_turn - side @side takes hand-off @k: the baton must say k; it moves it on */
static inline void sp_take_turn(struct sp_switch *s, int side, uint32_t k)
{
	if (__atomic_load_n(&s->baton, __ATOMIC_ACQUIRE) != k)
		s->out_of_turn = true;
	__atomic_store_n(&s->baton, k + 1, __ATOMIC_RELEASE);
	s->hand_offs[side]++;
}

/* sp_switch_coroutine_main - the other coroutine: takes every odd hand-off, switches back */
static void sp_switch_coroutine_main(void)
{
	struct sp_switch *s = sp_current_switch;
	uint32_t k;

	for (k = 1; k < s->switches; k += 2) {
		sp_take_turn(s, 1, k);
		if (swapcontext(&s->co_uc, &s->main_uc) && !s->failed) {
			s->failed = "swapcontext() back";
			s->failed_err = errno;
		}
	}
	/* never resumed after its last switch; uc_link is there should it be */
}

static int sp_switch_coroutines(struct sp_switch *s, double *ns)
{
	void *stack = malloc(SP_STACK_32K);
	uint64_t start, end;
	uint32_t k;

	if (!stack)
		return -ENOMEM;
	sp_current_switch = s;
	if (getcontext(&s->co_uc)) {
		free(stack);
		return -errno;
	}
	s->co_uc.uc_stack.ss_sp = stack;
	s->co_uc.uc_stack.ss_size = SP_STACK_32K;
	s->co_uc.uc_link = &s->main_uc;
	makecontext(&s->co_uc, sp_switch_coroutine_main, 0);
	start = tp_now_ns();
	for (k = 0; k < s->switches && !s->failed; k += 2) {
		sp_take_turn(s, 0, k);
		if (swapcontext(&s->main_uc, &s->co_uc)) {
			s->failed = "swapcontext()";
			s->failed_err = errno;
		}
	}
	end = tp_now_ns();
	free(stack);
	sp_current_switch = NULL;
	*ns = (double)(end - start);
	return 0;
}

static long sp_futex(uint32_t *word, int op, uint32_t val)
{
	return syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

/* sp_wait_for - side @side sleeps until the baton says @k: 0 or -errno */
static int sp_wait_for(struct sp_switch *s, int side, uint32_t k)
{
	uint32_t v;

	while ((v = __atomic_load_n(&s->baton, __ATOMIC_ACQUIRE)) != k) {
		if (!sp_futex(&s->baton, FUTEX_WAIT_PRIVATE, v))
			s->waits[side]++;
		else if (errno == EAGAIN)
			s->wait_again[side]++;
		else if (errno != EINTR)
			return -errno;
	}
	return 0;
}

/* sp_pass - side @side hands off turn @k and wakes the other: 0 or -errno */
static int sp_pass(struct sp_switch *s, int side, uint32_t k)
{
	long woke;

	sp_take_turn(s, side, k);
	woke = sp_futex(&s->baton, FUTEX_WAKE_PRIVATE, 1);
	if (woke < 0)
		return -errno;
	s->woken[side] += woke;
	return 0;
}

static void *sp_partner_main(void *arg)
{
	struct sp_switch *s = arg;
	uint32_t k;
	int err = 0;

	prctl(PR_SET_NAME, "sp-partner", 0, 0, 0);
	__atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
	sp_futex(&s->ready, FUTEX_WAKE_PRIVATE, 1);
	for (k = 1; k < s->switches && !err; k += 2) {
		err = sp_wait_for(s, 1, k);
		if (!err)
			err = sp_pass(s, 1, k);
	}
	if (err && !s->failed) {
		s->failed = "the partner's futex";
		s->failed_err = -err;
	}
	return NULL;
}

static int sp_switch_threads(struct sp_switch *s, int partner_cpu, double *ns)
{
	pthread_attr_t attr;
	pthread_t partner;
	uint64_t start, end;
	uint32_t k;
	int err;

	pthread_attr_init(&attr);
	err = tp_attr_pin(&attr, partner_cpu);
	if (!err)
		err = -pthread_create(&partner, &attr, sp_partner_main, s);
	pthread_attr_destroy(&attr);
	if (err)
		return err;
	/* the partner's start-up stays out of the window: it runs, then sleeps on the baton */
	while (!__atomic_load_n(&s->ready, __ATOMIC_ACQUIRE))
		sp_futex(&s->ready, FUTEX_WAIT_PRIVATE, 0);
	start = tp_now_ns();
	for (k = 0; k < s->switches && !err; k += 2) {
		err = sp_pass(s, 0, k);
		if (!err)
			err = sp_wait_for(s, 0, k + 2);
	}
	end = tp_now_ns();
	if (err) {
		/* the partner waits for a turn that will not come: exit ends it */
		s->failed = "the creator's futex";
		s->failed_err = -err;
		return 0;
	}
	err = -pthread_join(partner, NULL);
	*ns = (double)(end - start);
	return err;
}

/* sp_switch_run - one run of a switch mode: 0, or -1 with the one line in @msg */
static int sp_switch_run(int mode, int partner_cpu, uint64_t switches, struct tp_result *r, double *ns, char *msg,
			 size_t len)
{
	struct sp_switch *s = calloc(1, sizeof(*s));
	int err, ret = -1;

	if (!s) {
		snprintf(msg, len, "out of memory");
		return -1;
	}
	s->switches = switches;
	if (mode == SP_SWITCH_COROUTINE)
		err = sp_switch_coroutines(s, ns);
	else
		err = sp_switch_threads(s, partner_cpu, ns);
	if (err) {
		snprintf(msg, len, "cannot set up a switch run: %s", strerror(-err));
		goto out;
	}
	if (s->failed) {
		snprintf(msg, len, "%s failed: %s", s->failed, strerror(s->failed_err));
		goto out;
	}
	if (s->out_of_turn || s->baton != switches || s->hand_offs[0] != switches / 2 ||
	    s->hand_offs[1] != switches / 2) {
		snprintf(msg, len, "%llu and %llu hand-offs, the baton at %u, not %llu each and %llu%s",
			 (unsigned long long)s->hand_offs[0], (unsigned long long)s->hand_offs[1], s->baton,
			 (unsigned long long)switches / 2, (unsigned long long)switches,
			 s->out_of_turn ? ", one out of turn" : "");
		goto out;
	}
	tp_result__count(r, "switches", s->hand_offs[0] + s->hand_offs[1]);
	if (mode != SP_SWITCH_COROUTINE) {
		tp_result__count(r, "futex_waits", s->waits[0] + s->waits[1]);
		tp_result__count(r, "futex_wait_again", s->wait_again[0] + s->wait_again[1]);
		tp_result__count(r, "futex_wakes", s->hand_offs[0] + s->hand_offs[1]);
		tp_result__count(r, "futex_woken", s->woken[0] + s->woken[1]);
	}
	ret = 0;
out:
	/* a failed thread run leaves the partner waiting on s: the process ends before it is freed */
	if (!ret || mode == SP_SWITCH_COROUTINE)
		free(s);
	return ret;
}

/*
 * The runs
 */

/* sp_thread_attr - the attribute a mode and placement create threads with; NULL in @use for none */
static int sp_thread_attr(const struct sp_options *opt, int mode, pthread_attr_t *attr, pthread_attr_t **use)
{
	int err;

	*use = NULL;
	if (mode == SP_THREAD_DEFAULT && opt->placement != SP_PLACE_OTHER)
		return 0;	/* the seed's call: no attribute at all */
	*use = attr;
	if (mode == SP_THREAD_32K) {
		err = -pthread_attr_setstacksize(attr, SP_STACK_32K);
		if (err)
			return err;
	}
	if (opt->placement == SP_PLACE_OTHER)
		return tp_attr_pin(attr, opt->tp.cpu[1]);
	return 0;
}

/* sp_first_run__of - the latencies of one (mode, n) into @fr */
static void sp_first_run__of(struct sp_first_run *fr, double *lat, size_t n)
{
	tp_stats__of(lat, n, &fr->ns);
	fr->p90 = tp_percentile(lat, n, 0.90);
	fr->p99 = tp_percentile(lat, n, 0.99);
}

static int sp_run_mode(struct sp_run *run, int mode, struct sp_threads *t, double *ns, char *msg, size_t len)
{
	const struct sp_options *opt = run->opt;
	uint64_t repeat = opt->tp.repeat, rep;
	pthread_attr_t attr, *use = NULL;
	bool spread = sp_is_thread_mode(mode) && opt->placement == SP_PLACE_SPREAD;
	size_t nr_sizes = sp_is_switch_mode(mode) ? 1 : opt->nr_counts, si;
	int err, ret = -1;

	pthread_attr_init(&attr);
	err = sp_set_cpus(opt->tp.cpu[0], spread ? opt->tp.cpu[1] : -1);
	if (err) {
		snprintf(msg, len, "cannot run on CPU %d: %s", opt->tp.cpu[0], strerror(-err));
		goto out;
	}
	if (sp_is_thread_mode(mode)) {
		err = sp_thread_attr(opt, mode, &attr, &use);
		if (!err)
			err = -sp_probe_stack(use, &run->stack_bytes[mode]);
		if (err) {
			snprintf(msg, len, "%s: cannot make a thread attribute: %s", sp_mode_names[mode],
				 strerror(-err));
			goto out;
		}
		/* the seed's defect: a 32 KiB attribute built, and a default stack used */
		if (mode == SP_THREAD_32K && run->stack_bytes[mode] != SP_STACK_32K) {
			snprintf(msg, len, "thread-32k: the thread got a stack of %zu bytes, not %d",
				 run->stack_bytes[mode], SP_STACK_32K);
			goto out;
		}
	} else if (mode != SP_SWITCH_THREAD && mode != SP_SWITCH_CROSS_CPU) {
		run->stack_bytes[mode] = SP_STACK_32K;
	}

	for (si = 0; si < nr_sizes; si++) {
		struct tp_result *r = &run->results[run->nr_results];
		struct sp_first_run *fr = &run->first_runs[run->nr_results];
		uint64_t units = sp_is_switch_mode(mode) ? opt->switches : opt->counts[si];

		run->nr_results++;
		r->mode = sp_mode_names[mode];
		r->units = units;
		r->start = sp_is_switch_mode(mode) ? "ready" : "seed";
		if (sp_is_switch_mode(mode)) {
			r->size_name = "switches";
			r->unit = "switch";
		}
		t->nr_latencies = 0;
		for (rep = 0; rep < repeat; rep++) {
			char what[160];

			if (sp_is_thread_mode(mode))
				err = sp_create_threads(t, use, units, r, &ns[rep], what, sizeof(what));
			else if (mode == SP_COROUTINE)
				err = sp_create_coroutines(units, r, &ns[rep], what, sizeof(what));
			else
				err = sp_switch_run(mode, mode == SP_SWITCH_CROSS_CPU ? opt->tp.cpu[1] :
						    opt->tp.cpu[0], units, r, &ns[rep], what, sizeof(what));
			if (err) {
				snprintf(msg, len, "%s, n = %llu, run %llu: %s", sp_mode_names[mode],
					 (unsigned long long)units, (unsigned long long)rep + 1, what);
				goto out;
			}
			run->totals[mode] += units;
		}
		tp_stats__of(ns, repeat, &r->ns);
		if (sp_is_thread_mode(mode))
			sp_first_run__of(fr, t->latencies, t->nr_latencies);
	}
	ret = 0;
out:
	pthread_attr_destroy(&attr);
	return ret;
}

static void *sp_creator_main(void *arg)
{
	struct sp_run *run = arg;
	const struct sp_options *opt = run->opt;
	struct sp_threads t = { 0 };
	struct sp_queue *queue = NULL;
	double *ns = NULL;
	bool threads = opt->modes[SP_THREAD_32K] || opt->modes[SP_THREAD_DEFAULT];
	int m;

	prctl(PR_SET_NAME, "sp-creator", 0, 0, 0);
	/* everything a run fills is made here, before any clock starts */
	ns = calloc(opt->tp.repeat, sizeof(*ns));
	queue = calloc(1, sizeof(*queue));
	if (threads) {
		t.tids = calloc(opt->max_count, sizeof(*t.tids));
		t.stamp = calloc(opt->max_count + 1, sizeof(*t.stamp));
		t.slots = aligned_alloc(_Alignof(struct sp_slot), opt->max_count * sizeof(*t.slots));
		t.latencies = calloc(opt->tp.repeat * opt->max_count, sizeof(*t.latencies));
	}
	if (!ns || !queue || (threads && (!t.tids || !t.stamp || !t.slots || !t.latencies))) {
		snprintf(run->error, sizeof(run->error), "out of memory");
		run->status = 1;
		goto out;
	}
	sp_current_queue = queue;
	for (m = 0; m < SP_NR_MODES; m++) {
		if (!opt->modes[m])
			continue;
		if (sp_run_mode(run, m, &t, ns, run->error, sizeof(run->error))) {
			run->status = 1;
			goto out;
		}
	}
out:
	sp_current_queue = NULL;
	free(ns);
	free(queue);
	free(t.tids);
	free(t.stamp);
	free(t.slots);
	free(t.latencies);
	return NULL;
}

/*
 * Output
 */

static const struct sp_first_run *sp_first_run_of(const struct sp_run *run, const struct tp_result *r)
{
	return &run->first_runs[r - run->results];
}

/* sp_note - the table's last column: the threads' first-run latency, or the switches' futex calls */
static const char *sp_note(const struct sp_run *run, const struct tp_result *r, char *buf, size_t len)
{
	const struct sp_first_run *fr = sp_first_run_of(run, r);
	double runs = r->ns.n ? (double)r->ns.n : 1;

	buf[0] = '\0';
	if (!strcmp(r->mode, "thread-32k") || !strcmp(r->mode, "thread-default"))
		snprintf(buf, len, "first run %.1f us median, %.1f us p99; %.0f%% before create returned",
			 fr->ns.median / 1e3, fr->p99 / 1e3,
			 100.0 * tp_result__counter(r, "ran_before_create_returned") /
			 (double)(tp_result__counter(r, "created") ? tp_result__counter(r, "created") : 1));
	else if (!strcmp(r->mode, "switch-thread") || !strcmp(r->mode, "switch-cross-cpu"))
		snprintf(buf, len, "%.0f futex waits slept, %.0f found the turn taken",
			 tp_result__counter(r, "futex_waits") / runs, tp_result__counter(r, "futex_wait_again") / runs);
	return buf;
}

static void sp_print_table(const struct sp_options *opt, const struct sp_run *run)
{
	bool creation = false, switching = false;
	char note[128];
	size_t i;
	int m;

	for (m = 0; m < SP_NR_MODES; m++) {
		creation |= opt->modes[m] && !sp_is_switch_mode(m);
		switching |= opt->modes[m] && sp_is_switch_mode(m);
	}
	printf("%s: creator on CPU %d, other CPU %d, placement %s, %llu runs per row, CLOCK_MONOTONIC\n", SP_NAME,
	       opt->tp.cpu[0], opt->tp.cpu[1], sp_placement_names[opt->placement],
	       (unsigned long long)opt->tp.repeat);
	printf("stacks:");
	for (m = 0; m < SP_NR_MODES; m++)
		if (opt->modes[m] && run->stack_bytes[m])
			printf(" %s %zu KiB", sp_mode_names[m], run->stack_bytes[m] / 1024);
	printf("\n");
	if (creation) {
		printf("\ncreation: n threads or coroutines, from before the first create to after the last; "
		       "first run: each thread's first clock read after its creator's read before its create\n\n");
		tp_table__header(stdout, "n", "create");
		for (i = 0; i < run->nr_results; i++)
			if (!run->results[i].size_name)
				tp_table__row(stdout, &run->results[i], sp_note(run, &run->results[i], note,
										  sizeof(note)));
	}
	if (switching) {
		printf("\nswitches: from both sides ready to the last switch back\n\n");
		tp_table__header(stdout, "S", "switch");
		for (i = 0; i < run->nr_results; i++)
			if (run->results[i].size_name)
				tp_table__row(stdout, &run->results[i], sp_note(run, &run->results[i], note,
										  sizeof(note)));
	}
}

/* sp_json_extra - a thread result's first-run latencies, inside its object */
static void sp_json_extra(struct json_writer *w, const struct tp_result *r, void *ctx)
{
	const struct sp_run *run = ctx;
	const struct sp_first_run *fr = sp_first_run_of(run, r);

	if (strcmp(r->mode, "thread-32k") && strcmp(r->mode, "thread-default"))
		return;
	json_writer__key(w, "first_run_ns");
	json_writer__begin_object(w);
	json_writer__put_uint(w, "threads", fr->ns.n);
	json_writer__put_double(w, "mean", fr->ns.mean);
	json_writer__put_double(w, "sd", fr->ns.sd);
	json_writer__put_double(w, "min", fr->ns.min);
	json_writer__put_double(w, "median", fr->ns.median);
	json_writer__put_double(w, "p90", fr->p90);
	json_writer__put_double(w, "p99", fr->p99);
	json_writer__put_double(w, "max", fr->ns.max);
	json_writer__end_object(w);
}

static int sp_print_json(const struct sp_options *opt, struct sp_run *run)
{
	const char *tunables = getenv("GLIBC_TUNABLES");
	struct json_writer w;
	int m;

	json_writer__init(&w, stdout);
	tp_json__begin(&w, &opt->tp, "creator", "other");
	tp_json__names(&w, "modes", sp_mode_names, opt->modes, SP_NR_MODES);
	tp_json__u64s(&w, "counts", opt->counts, opt->nr_counts);
	json_writer__put_uint(&w, "switches", opt->switches);
	json_writer__put_str(&w, "placement", sp_placement_names[opt->placement]);
	json_writer__key(&w, "glibc_tunables");
	if (tunables)
		json_writer__string(&w, tunables);
	else
		json_writer__null(&w);
	tp_json__results_with(&w, run->results, run->nr_results, "count", "create", sp_json_extra, run);

	json_writer__key(&w, "stack_bytes");
	json_writer__begin_object(&w);
	for (m = 0; m < SP_NR_MODES; m++)
		if (opt->modes[m] && run->stack_bytes[m])
			json_writer__put_uint(&w, sp_mode_names[m], run->stack_bytes[m]);
	json_writer__end_object(&w);
	/* what a tracer divides by: every thread, coroutine or switch, over all n and runs */
	json_writer__key(&w, "totals");
	json_writer__begin_object(&w);
	for (m = 0; m < SP_NR_MODES; m++) {
		if (!opt->modes[m])
			continue;
		json_writer__key(&w, sp_mode_names[m]);
		json_writer__begin_object(&w);
		json_writer__put_str(&w, "unit", sp_mode_units[m]);
		json_writer__put_uint(&w, "count", run->totals[m]);
		json_writer__end_object(&w);
	}
	json_writer__end_object(&w);
	json_writer__key(&w, "threads");
	json_writer__begin_object(&w);
	json_writer__put_str(&w, "creator", "sp-creator");
	json_writer__put_str(&w, "created", "sp-thread");
	json_writer__put_str(&w, "partner", "sp-partner");
	json_writer__end_object(&w);
	json_writer__end_object(&w);
	return json_writer__finish(&w);
}

int main(int argc, char **argv)
{
	struct sp_options opt;
	struct sp_run run = { 0 };
	size_t room;
	int err;

	sp_parse_options(&opt, argc, argv);
	run.opt = &opt;
	room = SP_NR_MODES * opt.nr_counts;
	run.results = calloc(room, sizeof(*run.results));
	run.first_runs = calloc(room, sizeof(*run.first_runs));
	if (!run.results || !run.first_runs) {
		fprintf(stderr, "%s: out of memory\n", SP_NAME);
		return 1;
	}
	/* the creator sets its own CPUs per mode; its threads inherit them unless pinned elsewhere */
	err = tp_run_thread(-1, sp_creator_main, &run);
	if (err) {
		fprintf(stderr, "%s: cannot run the creator thread: %s\n", SP_NAME, strerror(-err));
		return 1;
	}
	if (run.status) {
		fprintf(stderr, "%s: %s\n", SP_NAME, run.error);
		/* exit, not return: a switch partner still waiting must not hold the process */
		exit(run.status);
	}
	if (opt.tp.json)
		err = sp_print_json(&opt, &run);
	else
		sp_print_table(&opt, &run);
	free(run.results);
	free(run.first_runs);
	return tp_results_out(SP_NAME, err);
}
