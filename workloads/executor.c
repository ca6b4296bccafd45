// SPDX-License-Identifier: GPL-2.0
/*
 * executor - Boost.Asio's io_service models, built in C with the same
 * locking: H handlers (1,000,000) posted up front, each a loop of L
 * iterations, drained by one thread (single), by N threads sharing one
 * queue (pool), or by N threads each with a queue of its own holding H/N of
 * them (per-thread). How long the drain takes, in handlers per second and
 * against single: seed 003's comparison (docs/seeds.md).
 *
 * One io_service here is what Asio's task_io_service (Boost 1.59, the
 * seed's time) does for posted handlers: a FIFO under a mutex; a thread
 * locks it, pops one handler, wakes an idle thread through the condition
 * variable if more remain and the service was not made for one thread,
 * unlocks, runs the handler, then decrements an atomic count of
 * outstanding work. A thread that finds the queue empty sleeps on the
 * condition variable while handlers still run elsewhere (they might post
 * more); the one that brings the count to zero stops the service and wakes
 * them all.
 *
 * The seed's defects fixed: its handler was an empty loop, which a compiler
 * at -O3 removes (gcc 12 does: 0 ns for any L), so its handlers may have
 * cost nothing; ours loops through an asm statement that may change the
 * counter, so every iteration is kept, and one handler's cost is measured
 * first and printed (and the run stops if it is implausibly small). Its
 * figures came from 4 vCPUs of a 2-core host; ours from the CPUs this
 * process may use, threads pinned to them in turn, every count checked.
 *
 * The clock starts when the threads, created and asleep at a gate, are
 * released, and stops when the last handler is done: the thread whose
 * handler brought the outstanding count to zero reads it (per-thread: the
 * latest of the queues' such moments).
 *
 * For a tracer: the threads are named ex-single, ex-pool-I and ex-pt-I (I
 * from 0; new threads for every run), and --json counts the handlers each
 * mode ran, the waits on an empty queue and the contended locks, so
 * wakeups per handler is a division.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "parse.h"
#include "throughput.h"

#define EX_NAME			"executor"
#define EX_DEFAULT_HANDLERS	1000000ull
#define EX_MAX_HANDLERS		10000000ull	/* 64 bytes each */
#define EX_MAX_LOOPS		10000000ull
#define EX_MAX_THREADS		1024ull
#define EX_MAX_LIST		12
#define EX_DEFAULT_REPEAT	5
#define EX_CAL_HANDLERS		1024		/* the calibration cycles through these */
#define EX_CAL_ROUNDS		5
#define EX_CAL_ROUND_NS		20000000ull	/* a calibration round lasts at least this */
/* below this a loop iteration is not executed: 0.05 ns is one cycle at 20 GHz */
#define EX_MIN_NS_PER_LOOP	0.05

enum ex_mode {
	EX_SINGLE,
	EX_POOL,
	EX_PER_THREAD,
	EX_NR_MODES,
};

static const char *const ex_mode_names[EX_NR_MODES] = {
	[EX_SINGLE] = "single",
	[EX_POOL] = "pool",
	[EX_PER_THREAD] = "per-thread",
};

/* the threads' names, %u their index in the run */
static const char *const ex_thread_names[EX_NR_MODES] = {
	[EX_SINGLE] = "ex-single",
	[EX_POOL] = "ex-pool-%u",
	[EX_PER_THREAD] = "ex-pt-%u",
};

static const uint64_t ex_default_loops[] = { 1000, 5000 };

struct ex_options {
	struct tp_options tp;
	bool modes[EX_NR_MODES];
	uint64_t handlers;
	uint64_t loops[EX_MAX_LIST];
	size_t nr_loops;
	uint64_t threads[EX_MAX_LIST];
	size_t nr_threads;
};

struct ex_handler;
typedef void ex_handler_fn(struct ex_handler *h);

/*
 * struct ex_handler - one posted handler, called through its function
 * pointer as Asio calls an operation's. A cache line each, as each of
 * Asio's operations is an allocation of its own: two threads running
 * neighbouring handlers never write the same line.
 */
struct ex_handler {
	_Alignas(64) ex_handler_fn *fn;
	uint64_t loops;
	uint32_t ran;		/* the handler counts its own runs: each must end at 1 */
};

/*
 * struct ex_service - one io_service. head, tail, idle and stopped are
 * under @lock; @outstanding is atomic (Asio's outstanding_work_).
 */
struct ex_service {
	_Alignas(64) pthread_mutex_t lock;
	pthread_cond_t wakeup;
	struct ex_handler *queue;	/* the posted handlers, run from head to tail */
	uint64_t head;
	uint64_t tail;
	uint64_t outstanding;		/* posted and not yet finished */
	unsigned int idle;		/* threads asleep on @wakeup */
	bool stopped;
	bool one_thread;		/* Asio's concurrency hint 1: never wakes another thread */
	uint64_t done_ns;		/* when the last handler finished */
};

/* what one thread did in one run, summed after the join */
struct ex_worker {
	_Alignas(64) struct ex_run *run;
	struct ex_service *service;
	unsigned int index;
	pthread_t thread;
	uint64_t handlers_run;
	uint64_t empty_waits;	/* found the queue empty and slept on the condition variable */
	uint64_t wakeups;	/* returns from that sleep */
	uint64_t signals;	/* idle threads woken for more handlers */
	uint64_t broadcasts;	/* stops: everyone woken */
	uint64_t locks;		/* acquisitions of the service's mutex */
	uint64_t contended;	/* of them, the ones a trylock could not take at once */
	uint64_t cpu_ns;	/* the thread's CPU time from its release to its return */
};

/* the start line: threads announce themselves, then sleep until released together */
struct ex_gate {
	pthread_mutex_t lock;
	pthread_cond_t all_ready;
	pthread_cond_t go;
	unsigned int ready;
	bool released;
};

/* struct ex_run - one drain of one mode, N threads, L loops */
struct ex_run {
	enum ex_mode mode;
	unsigned int nr_threads;
	unsigned int nr_services;
	uint64_t handlers;
	uint64_t loops;
	struct ex_handler *ops;		/* all the handlers, preallocated once */
	struct ex_service *services;
	struct ex_worker *workers;
	struct ex_gate gate;
	uint64_t start_ns;
	uint64_t done_ns;
	unsigned int threads_created;
	unsigned int threads_joined;
};

/* one handler's cost, called directly, no queue: what the machine charges for L loops */
struct ex_cost {
	uint64_t loops;
	double ns_per_handler;	/* median of the rounds */
	uint64_t calls;		/* per round */
};

/* one (mode, N, L): its repeats' times, and where its result goes */
struct ex_config {
	enum ex_mode mode;
	unsigned int nr_threads;
	uint64_t loops;
	double *ns;
	struct tp_result *result;
};

static void ex_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s [--mode M[,M...]] [--handlers H] [--loops L[,L...]] [--threads N[,N...]]\n"
		"       [--repeat R] [--cpus A[,B...]] [--json]\n"
		"\n"
		"%s - Boost.Asio's io_service models in C, with its locking: H handlers posted up front,\n"
		"each a loop of L iterations the compiler cannot remove, drained by the threads of a model;\n"
		"the time from their release to the last handler done, handlers per second and the ratio\n"
		"to single, over repeated runs (seed 003).\n"
		"\n"
		"Modes:\n"
		"  single      one thread runs one io_service (made for one thread: it never wakes another)\n"
		"  pool        N threads share one io_service: one mutex and condition variable over one FIFO\n"
		"  per-thread  N threads, each its own io_service holding H/N handlers (the first H %% N\n"
		"              queues one more)\n"
		"\n"
		"  -m, --mode M         modes, comma-separated, or all (default all)\n"
		"  -H, --handlers H     handlers per run, from 1 to %llu (default %llu)\n"
		"  -l, --loops L        iterations per handler, comma-separated, 0 for an empty handler\n"
		"                       (default 1000,5000)\n"
		"  -n, --threads N      threads of pool and per-thread, comma-separated (default: powers of\n"
		"                       two from 1 to 4 times the CPUs, 1,2,4,8 on 2 CPUs)\n"
		"  -r, --repeat R       runs per mode, N and L, interleaved (default %d)\n"
		"  -c, --cpus A[,B...]  the CPUs the threads are pinned to in turn (default: all allowed)\n"
		"  -j, --json           one JSON document on stdout instead of the table\n"
		"  -h, --help           this text\n"
		"\n"
		"First one handler's cost is measured: called directly, no queue, on the first CPU, in\n"
		"the thread's CPU time (what it costs when it runs, however busy the machine). Then\n"
		"each run posts the handlers, creates its threads asleep at a gate, and times from their\n"
		"release to the last handler done. Every handler must have run once, every queue end\n"
		"empty and every thread be joined, or the program stops with exit status 1.\n"
		"\n"
		"The defaults take about a minute on 2 idle CPUs: each repeat drains 1,000,000 handlers 9\n"
		"times at each L, some 11 s at 0.3 ns per iteration; on 2 CPUs shared with other work,\n"
		"1.5 to 3 minutes were measured.\n"
		"\n"
		"Examples:\n"
		"  %s --loops 1000 --threads 1,2,3,4 --repeat 3\n"
		"  %s --mode pool,per-thread --handlers 100000 --loops 0,1000 --json > ex.json\n"
		"  %s --mode pool --threads 8 --cpus 1 --repeat 10\n",
		EX_NAME, EX_NAME, EX_MAX_HANDLERS, EX_DEFAULT_HANDLERS, EX_DEFAULT_REPEAT, EX_NAME, EX_NAME, EX_NAME);
}

/* ex_default_threads - powers of two from 1 to 4 times the CPUs used: below, at and beyond their count */
static void ex_default_threads(struct ex_options *opt)
{
	uint64_t n, top = 4 * (uint64_t)opt->tp.nr_cpu_list;

	opt->nr_threads = 0;
	for (n = 1; n <= top && n <= EX_MAX_THREADS && opt->nr_threads < EX_MAX_LIST; n *= 2)
		opt->threads[opt->nr_threads++] = n;
}

static void ex_parse_options(struct ex_options *opt, int argc, char **argv)
{
	static const struct option longopts[] = {
		TP_LONGOPTS,
		{ "mode", required_argument, NULL, 'm' },
		{ "handlers", required_argument, NULL, 'H' },
		{ "loops", required_argument, NULL, 'l' },
		{ "threads", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	bool threads_given = false;
	size_t i;
	int o, m;

	memset(opt, 0, sizeof(*opt));
	tp_options__init(&opt->tp, EX_NAME);
	opt->tp.repeat = EX_DEFAULT_REPEAT;
	opt->tp.list_cpus = true;
	for (m = 0; m < EX_NR_MODES; m++)
		opt->modes[m] = true;
	opt->handlers = EX_DEFAULT_HANDLERS;
	memcpy(opt->loops, ex_default_loops, sizeof(ex_default_loops));
	opt->nr_loops = sizeof(ex_default_loops) / sizeof(ex_default_loops[0]);

	opterr = 0;	/* one line per mistake: ours, naming the option */
	while ((o = getopt_long(argc, argv, ":" TP_SHORTOPTS "m:H:l:n:", longopts, NULL)) != -1) {
		if (tp_options__parse(&opt->tp, o, optarg, argc, argv))
			continue;
		switch (o) {
		case 'm':
			if (tp_parse_names(optarg, ex_mode_names, EX_NR_MODES, NULL, NULL, opt->modes))
				tp_usage_error(EX_NAME, "--mode wants single, pool, per-thread or all, "
					       "comma-separated, not '%s'", parse__shown(optarg));
			break;
		case 'H':
			if (parse__u64(optarg, 1, EX_MAX_HANDLERS, &opt->handlers))
				tp_usage_error(EX_NAME, "--handlers wants a whole number from 1 to %llu, not '%s'",
					       EX_MAX_HANDLERS, parse__shown(optarg));
			break;
		case 'l':
			if (tp_parse_u64_list(optarg, 0, EX_MAX_LOOPS, opt->loops, EX_MAX_LIST, &opt->nr_loops))
				tp_usage_error(EX_NAME, "--loops wants up to %d whole numbers from 0 to %llu, "
					       "comma-separated, not '%s'", EX_MAX_LIST, EX_MAX_LOOPS,
					       parse__shown(optarg));
			break;
		case 'n':
			if (tp_parse_u64_list(optarg, 1, EX_MAX_THREADS, opt->threads, EX_MAX_LIST,
					      &opt->nr_threads))
				tp_usage_error(EX_NAME, "--threads wants up to %d whole numbers from 1 to %llu, "
					       "comma-separated, not '%s'", EX_MAX_LIST, EX_MAX_THREADS,
					       parse__shown(optarg));
			threads_given = true;
			break;
		}
	}
	tp_options__finish(&opt->tp, argc, argv, ex_usage);
	if (!threads_given)
		ex_default_threads(opt);
	for (i = 0; opt->modes[EX_PER_THREAD] && i < opt->nr_threads; i++)
		if (opt->threads[i] > opt->handlers)
			tp_usage_error(EX_NAME, "--threads %llu is more than --handlers %llu: per-thread gives each "
				       "thread a queue of its own, and each needs a handler",
				       (unsigned long long)opt->threads[i], (unsigned long long)opt->handlers);
}

/*
 * ex_handler__spin - the handler: L iterations of a loop the compiler must
 * keep. The asm takes the counter in a register and may change it, so the
 * trip count cannot be computed and no iteration dropped; the seed's empty
 * loop had no such hold and vanishes at -O3.
 */
static void ex_handler__spin(struct ex_handler *h)
{
	uint64_t i;

	for (i = 0; i < h->loops; i++)
		__asm__ volatile("" : "+r"(i));
	h->ran++;
}

/* ex_lock - take @s's mutex, counting the times someone else held it (a trylock is one CAS: cheap) */
static inline void ex_lock(struct ex_service *s, struct ex_worker *w)
{
	w->locks++;
	if (pthread_mutex_trylock(&s->lock)) {
		w->contended++;
		pthread_mutex_lock(&s->lock);
	}
}

/*
 * ex_service__run - one thread's io_service::run(): handlers one at a time
 * until the service stops, with the locking of Asio's task_io_service.
 */
static void ex_service__run(struct ex_service *s, struct ex_worker *w)
{
	struct ex_handler *h;
	bool wake;

	ex_lock(s, w);
	while (!s->stopped) {
		if (s->head == s->tail) {
			/* handlers still run elsewhere and might post more: sleep until one does or all end */
			w->empty_waits++;
			s->idle++;
			pthread_cond_wait(&s->wakeup, &s->lock);
			s->idle--;
			w->wakeups++;
			continue;
		}
		h = &s->queue[s->head++];
		wake = s->head != s->tail && s->idle && !s->one_thread;
		pthread_mutex_unlock(&s->lock);
		if (wake) {
			/* more work than running threads: wake an idle one, after unlocking, as Asio does */
			pthread_cond_signal(&s->wakeup);
			w->signals++;
		}
		h->fn(h);
		w->handlers_run++;
		if (__atomic_sub_fetch(&s->outstanding, 1, __ATOMIC_ACQ_REL) == 0) {
			/* the last one: nothing can post any more, stop and wake the sleepers */
			s->done_ns = tp_now_ns();
			ex_lock(s, w);
			s->stopped = true;
			pthread_cond_broadcast(&s->wakeup);
			w->broadcasts++;
			continue;
		}
		ex_lock(s, w);
	}
	pthread_mutex_unlock(&s->lock);
}

static void *ex_worker_main(void *arg)
{
	struct ex_worker *w = arg;
	struct ex_run *run = w->run;
	struct ex_gate *g = &run->gate;
	uint64_t cpu0;
	char name[16];

	snprintf(name, sizeof(name), ex_thread_names[run->mode], w->index);
	pthread_setname_np(pthread_self(), name);
	pthread_mutex_lock(&g->lock);
	if (++g->ready == run->threads_created)
		pthread_cond_signal(&g->all_ready);
	while (!g->released)
		pthread_cond_wait(&g->go, &g->lock);
	pthread_mutex_unlock(&g->lock);
	cpu0 = tp_thread_cpu_ns();
	ex_service__run(w->service, w);
	w->cpu_ns = tp_thread_cpu_ns() - cpu0;
	return NULL;
}

static void ex_run__free(struct ex_run *run)
{
	unsigned int i;

	for (i = 0; run->services && i < run->nr_services; i++) {
		pthread_mutex_destroy(&run->services[i].lock);
		pthread_cond_destroy(&run->services[i].wakeup);
	}
	free(run->services);
	free(run->workers);
	pthread_mutex_destroy(&run->gate.lock);
	pthread_cond_destroy(&run->gate.all_ready);
	pthread_cond_destroy(&run->gate.go);
}

/*
 * ex_run__init - one run's services with every handler posted, and its
 * workers, all made before the clock starts: 0 or -ENOMEM.
 */
static int ex_run__init(struct ex_run *run, struct ex_handler *ops, const struct ex_options *opt,
			const struct ex_config *c)
{
	uint64_t i, first = 0, share;
	unsigned int k;

	memset(run, 0, sizeof(*run));
	run->mode = c->mode;
	run->nr_threads = c->nr_threads;
	run->nr_services = c->mode == EX_PER_THREAD ? c->nr_threads : 1;
	run->handlers = opt->handlers;
	run->loops = c->loops;
	run->ops = ops;
	pthread_mutex_init(&run->gate.lock, NULL);
	pthread_cond_init(&run->gate.all_ready, NULL);
	pthread_cond_init(&run->gate.go, NULL);
	run->services = aligned_alloc(64, run->nr_services * sizeof(*run->services));
	run->workers = aligned_alloc(64, run->nr_threads * sizeof(*run->workers));
	if (!run->services || !run->workers) {
		free(run->services);
		run->services = NULL;
		return -ENOMEM;
	}
	memset(run->workers, 0, run->nr_threads * sizeof(*run->workers));
	for (i = 0; i < run->handlers; i++) {
		ops[i].fn = ex_handler__spin;
		ops[i].loops = c->loops;
		ops[i].ran = 0;
	}
	for (k = 0; k < run->nr_services; k++) {
		struct ex_service *s = &run->services[k];

		memset(s, 0, sizeof(*s));
		pthread_mutex_init(&s->lock, NULL);
		pthread_cond_init(&s->wakeup, NULL);
		share = run->handlers / run->nr_services + (k < run->handlers % run->nr_services);
		s->queue = ops + first;
		s->tail = share;
		s->outstanding = share;
		s->one_thread = c->mode == EX_SINGLE;
		first += share;
	}
	for (k = 0; k < run->nr_threads; k++) {
		run->workers[k].run = run;
		run->workers[k].index = k;
		run->workers[k].service = &run->services[c->mode == EX_PER_THREAD ? k : 0];
	}
	return 0;
}

/* ex_run__stop_all - a run that cannot start: every service stopped, so released threads return at once */
static void ex_run__stop_all(struct ex_run *run)
{
	unsigned int k;

	for (k = 0; k < run->nr_services; k++) {
		pthread_mutex_lock(&run->services[k].lock);
		run->services[k].stopped = true;
		pthread_mutex_unlock(&run->services[k].lock);
	}
}

/*
 * ex_run__go - create the threads pinned to the CPUs in turn, release them
 * together once all sleep at the gate, join them. 0, or the error of a
 * pthread call, named in @what.
 */
static int ex_run__go(struct ex_run *run, const struct ex_options *opt, const char **what)
{
	struct ex_gate *g = &run->gate;
	pthread_attr_t attr;
	unsigned int k;
	int err = 0;

	pthread_mutex_lock(&g->lock);
	for (k = 0; k < run->nr_threads; k++) {
		pthread_attr_init(&attr);
		err = -tp_attr_pin(&attr, opt->tp.cpu_list[k % opt->tp.nr_cpu_list]);
		if (err) {
			*what = "pinning a thread";
		} else {
			err = pthread_create(&run->workers[k].thread, &attr, ex_worker_main, &run->workers[k]);
			if (err)
				*what = "pthread_create";
		}
		pthread_attr_destroy(&attr);
		if (err)
			break;
		run->threads_created++;
	}
	if (err)
		ex_run__stop_all(run);
	/* under the gate's lock since before the first create: no thread can count itself before this reads */
	while (g->ready < run->threads_created)
		pthread_cond_wait(&g->all_ready, &g->lock);
	g->released = true;
	run->start_ns = tp_now_ns();
	pthread_cond_broadcast(&g->go);
	pthread_mutex_unlock(&g->lock);

	for (k = 0; k < run->threads_created; k++) {
		int jerr = pthread_join(run->workers[k].thread, NULL);

		if (jerr && !err) {
			err = jerr;
			*what = "pthread_join";
		}
		if (!jerr)
			run->threads_joined++;
	}
	for (k = 0; k < run->nr_services; k++)
		if (run->services[k].done_ns > run->done_ns)
			run->done_ns = run->services[k].done_ns;
	return err;
}

/*
 * ex_run__check - the counts, checked rather than trusted: 0, or -EPROTO
 * with the first that is off in @msg.
 */
static int ex_run__check(const struct ex_run *run, char *msg, size_t len)
{
	uint64_t ran = 0, i, first = 0;
	unsigned int k;

	if (run->threads_joined != run->nr_threads) {
		snprintf(msg, len, "%u threads joined of %u", run->threads_joined, run->nr_threads);
		return -EPROTO;
	}
	for (k = 0; k < run->nr_threads; k++)
		ran += run->workers[k].handlers_run;
	if (ran != run->handlers) {
		snprintf(msg, len, "the threads ran %llu handlers of %llu posted", (unsigned long long)ran,
			 (unsigned long long)run->handlers);
		return -EPROTO;
	}
	for (k = 0; k < run->nr_services; k++) {
		const struct ex_service *s = &run->services[k];

		if (s->head != s->tail || s->outstanding || !s->stopped || s->idle) {
			snprintf(msg, len, "queue %u ended with %llu handlers queued, %llu outstanding, %u threads "
				 "idle, %s", k, (unsigned long long)(s->tail - s->head),
				 (unsigned long long)s->outstanding, s->idle, s->stopped ? "stopped" : "not stopped");
			return -EPROTO;
		}
		if (s->queue != run->ops + first) {
			snprintf(msg, len, "queue %u does not start where queue %u ended", k, k - 1);
			return -EPROTO;
		}
		first += s->tail;
		if (run->mode == EX_PER_THREAD && run->workers[k].handlers_run != s->tail) {
			snprintf(msg, len, "thread %u ran %llu handlers of its queue's %llu", k,
				 (unsigned long long)run->workers[k].handlers_run, (unsigned long long)s->tail);
			return -EPROTO;
		}
	}
	if (first != run->handlers) {
		snprintf(msg, len, "the queues held %llu handlers of %llu posted", (unsigned long long)first,
			 (unsigned long long)run->handlers);
		return -EPROTO;
	}
	for (i = 0; i < run->handlers; i++) {
		if (run->ops[i].ran != 1) {
			snprintf(msg, len, "handler %llu ran %u times", (unsigned long long)i, run->ops[i].ran);
			return -EPROTO;
		}
	}
	if (run->done_ns <= run->start_ns) {
		snprintf(msg, len, "the last handler ended before the threads were released");
		return -EPROTO;
	}
	return 0;
}

/* ex_result__add - one checked run's counts into @r */
static void ex_result__add(struct tp_result *r, const struct ex_run *run)
{
	uint64_t sum[8] = { 0 };
	unsigned int k;

	for (k = 0; k < run->nr_threads; k++) {
		const struct ex_worker *w = &run->workers[k];

		sum[0] += w->handlers_run;
		sum[1] += w->empty_waits;
		sum[2] += w->wakeups;
		sum[3] += w->signals;
		sum[4] += w->broadcasts;
		sum[5] += w->locks;
		sum[6] += w->contended;
		sum[7] += w->cpu_ns;
	}
	tp_result__count(r, "posted", run->handlers);
	tp_result__count(r, "run", sum[0]);
	tp_result__count(r, "queues", run->nr_services);
	tp_result__count(r, "threads_joined", run->threads_joined);
	tp_result__count(r, "empty_waits", sum[1]);
	tp_result__count(r, "cond_wakeups", sum[2]);
	tp_result__count(r, "signals", sum[3]);
	tp_result__count(r, "broadcasts", sum[4]);
	tp_result__count(r, "locks", sum[5]);
	tp_result__count(r, "locks_contended", sum[6]);
	tp_result__count(r, "cpu_ns", sum[7]);
}

/*
 * ex_calibrate - one handler of @loops iterations, called directly through
 * its pointer on this (pinned) thread, no queue and no lock: rounds of
 * calls doubled until one takes EX_CAL_ROUND_NS, then EX_CAL_ROUNDS of
 * them, the median ns per call. Timed by the thread's CPU time: on a
 * machine others share, what the handler costs when it runs, not how long
 * the thread waited for a CPU. The handlers cycle through @nr records,
 * warm in the cache, where a drain's come cold from memory.
 */
static void ex_calibrate(struct ex_handler *cal, size_t nr, uint64_t loops, struct ex_cost *cost)
{
	double per[EX_CAL_ROUNDS];
	struct tp_stats st;
	uint64_t calls = 64, i, t0, ns;
	size_t j = 0;
	int round;

	for (i = 0; i < nr; i++) {
		cal[i].fn = ex_handler__spin;
		cal[i].loops = loops;
	}
	for (;;) {
		t0 = tp_thread_cpu_ns();
		for (i = 0; i < calls; i++, j = j + 1 < nr ? j + 1 : 0)
			cal[j].fn(&cal[j]);
		ns = tp_thread_cpu_ns() - t0;
		if (ns >= EX_CAL_ROUND_NS || calls >= (1ull << 32))
			break;
		calls *= 2;
	}
	for (round = 0; round < EX_CAL_ROUNDS; round++) {
		t0 = tp_thread_cpu_ns();
		for (i = 0; i < calls; i++, j = j + 1 < nr ? j + 1 : 0)
			cal[j].fn(&cal[j]);
		per[round] = (double)(tp_thread_cpu_ns() - t0) / (double)calls;
	}
	cost->loops = loops;
	cost->ns_per_handler = tp_stats__of(per, EX_CAL_ROUNDS, &st)->median;
	cost->calls = calls;
}

/* ex_configs - every (L, mode, N) to run, in the order of the results; their count */
static size_t ex_configs(const struct ex_options *opt, struct ex_config *configs)
{
	size_t n = 0, li, ti;
	int m;

	for (li = 0; li < opt->nr_loops; li++) {
		for (m = 0; m < EX_NR_MODES; m++) {
			if (!opt->modes[m])
				continue;
			for (ti = 0; ti < (m == EX_SINGLE ? 1 : opt->nr_threads); ti++) {
				configs[n].mode = m;
				configs[n].nr_threads = m == EX_SINGLE ? 1 : (unsigned int)opt->threads[ti];
				configs[n].loops = opt->loops[li];
				n++;
			}
		}
	}
	return n;
}

/* ex_single_of - the single result with @c's L, NULL if single was not run */
static const struct tp_result *ex_single_of(const struct ex_config *configs, size_t n, const struct ex_config *c)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (configs[i].mode == EX_SINGLE && configs[i].loops == c->loops)
			return configs[i].result;
	return NULL;
}

/* ex_cpus - the CPUs @r's threads had on average: their CPU time over the drains' */
static double ex_cpus(const struct tp_result *r)
{
	double drains = r->ns.mean * (double)r->ns.n;

	return drains > 0 ? (double)tp_result__counter(r, "cpu_ns") / drains : 0;
}

/* ex_cpu_per_handler - the threads' CPU time per handler run: the handler plus its dispatch, wherever it waited */
static double ex_cpu_per_handler(const struct tp_result *r)
{
	uint64_t run = tp_result__counter(r, "run");

	return run ? (double)tp_result__counter(r, "cpu_ns") / (double)run : 0;
}

/* ex_rate - handlers per second of a run that took @ns */
static double ex_rate(uint64_t handlers, double ns)
{
	return ns > 0 ? (double)handlers * 1e9 / ns : 0;
}

static void ex_print_table(const struct ex_options *opt, const struct ex_config *configs, size_t n,
			   const struct ex_cost *costs)
{
	static const char *const params[] = { "threads", "loops" };
	const struct tp_result *single;
	char note[160], ratio[32];
	double runs;
	size_t i;

	printf("%s: %llu handlers per run, %llu runs per row (interleaved), threads pinned in turn to CPU",
	       EX_NAME, (unsigned long long)opt->handlers, (unsigned long long)opt->tp.repeat);
	for (i = 0; i < opt->tp.nr_cpu_list; i++)
		printf("%s%d", i ? "," : " ", opt->tp.cpu_list[i]);
	printf(" (%zu of %ld online), CLOCK_MONOTONIC\n", opt->tp.nr_cpu_list, sysconf(_SC_NPROCESSORS_ONLN));
	for (i = 0; i < opt->nr_loops; i++)
		printf("one handler of %llu loops: %.1f ns of CPU (%.3f ns per loop), called directly %d x %llu times "
		       "on CPU %d\n", (unsigned long long)costs[i].loops, costs[i].ns_per_handler,
		       costs[i].loops ? costs[i].ns_per_handler / costs[i].loops : 0.0, EX_CAL_ROUNDS,
		       (unsigned long long)costs[i].calls, opt->tp.cpu_list[0]);
	printf("time from the threads' release to the last handler done; per run: handlers per second and ratio "
	       "to single (medians),\nthe CPUs the threads got (their CPU time over the drain), their CPU time per "
	       "handler, waits on an empty queue, contended locks\n\n");
	tp_table__header_params(stdout, "H", params, 2, "handler");
	for (i = 0; i < n; i++) {
		const struct tp_result *r = configs[i].result;

		runs = r->ns.n ? (double)r->ns.n : 1;
		single = ex_single_of(configs, n, &configs[i]);
		if (single)
			snprintf(ratio, sizeof(ratio), "x%.2f", single->ns.median / r->ns.median);
		else
			snprintf(ratio, sizeof(ratio), "x-");
		snprintf(note, sizeof(note), "%.3f M/s %s, %.2f CPUs, %.1f CPU ns/h, %.1f empty waits, %.1f contended",
			 ex_rate(r->units, r->ns.median) / 1e6, ratio, ex_cpus(r), ex_cpu_per_handler(r), tp_result__counter(r, "empty_waits") / runs,
			 tp_result__counter(r, "locks_contended") / runs);
		tp_table__row(stdout, r, note);
	}
}

static int ex_print_json(const struct ex_options *opt, const struct ex_config *configs, const struct tp_result *results,
			 size_t n, const struct ex_cost *costs)
{
	uint64_t run_by[EX_NR_MODES] = { 0 };
	const struct tp_result *single;
	struct json_writer w;
	size_t i;

	json_writer__init(&w, stdout);
	tp_json__begin(&w, &opt->tp, NULL, NULL);
	tp_json__names(&w, "modes", ex_mode_names, opt->modes, EX_NR_MODES);
	json_writer__put_uint(&w, "handlers", opt->handlers);
	tp_json__u64s(&w, "loops", opt->loops, opt->nr_loops);
	tp_json__u64s(&w, "threads", opt->threads, opt->nr_threads);
	tp_json__results(&w, results, n, "handlers", "handler");

	json_writer__key(&w, "handler_cost");
	json_writer__begin_array(&w);
	for (i = 0; i < opt->nr_loops; i++) {
		json_writer__begin_object(&w);
		json_writer__put_uint(&w, "loops", costs[i].loops);
		json_writer__put_double(&w, "ns_per_handler", costs[i].ns_per_handler);
		json_writer__key(&w, "ns_per_loop");
		if (costs[i].loops)
			json_writer__double(&w, costs[i].ns_per_handler / costs[i].loops);
		else
			json_writer__null(&w);
		json_writer__put_uint(&w, "calls", costs[i].calls);
		json_writer__put_uint(&w, "rounds", EX_CAL_ROUNDS);
		json_writer__put_int(&w, "cpu", opt->tp.cpu_list[0]);
		json_writer__end_object(&w);
	}
	json_writer__end_array(&w);

	/*
	 * In the results' order: each result's rate from its median, min and
	 * max runs, against single, and what CPU it had and spent
	 */
	json_writer__key(&w, "rates");
	json_writer__begin_array(&w);
	for (i = 0; i < n; i++) {
		const struct tp_result *r = &results[i];

		single = ex_single_of(configs, n, &configs[i]);
		json_writer__begin_object(&w);
		json_writer__put_str(&w, "mode", r->mode);
		json_writer__put_uint(&w, "threads", configs[i].nr_threads);
		json_writer__put_uint(&w, "loops", configs[i].loops);
		json_writer__key(&w, "handlers_per_second");
		json_writer__begin_object(&w);
		json_writer__put_double(&w, "median", ex_rate(r->units, r->ns.median));
		json_writer__put_double(&w, "min", ex_rate(r->units, r->ns.max));
		json_writer__put_double(&w, "max", ex_rate(r->units, r->ns.min));
		json_writer__end_object(&w);
		json_writer__key(&w, "ratio_to_single");
		if (single)
			json_writer__double(&w, single->ns.median / r->ns.median);
		else
			json_writer__null(&w);
		json_writer__put_double(&w, "cpus", ex_cpus(r));
		json_writer__put_double(&w, "cpu_ns_per_handler", ex_cpu_per_handler(r));
		json_writer__end_object(&w);
	}
	json_writer__end_array(&w);

	/* what a tracer divides by: every handler each mode ran, over all N, L and runs */
	for (i = 0; i < n; i++)
		run_by[configs[i].mode] += tp_result__counter(&results[i], "run");
	tp_json__per_name(&w, "handlers_run", ex_mode_names, opt->modes, run_by, EX_NR_MODES);
	json_writer__key(&w, "thread_names");
	json_writer__begin_object(&w);
	json_writer__put_str(&w, "single", "ex-single");
	json_writer__put_str(&w, "pool", "ex-pool-I");
	json_writer__put_str(&w, "per-thread", "ex-pt-I");
	json_writer__end_object(&w);
	json_writer__end_object(&w);
	return json_writer__finish(&w);
}

int main(int argc, char **argv)
{
	struct ex_options opt;
	struct ex_config *configs = NULL;
	struct tp_result *results = NULL;
	struct ex_handler *ops = NULL, *cal = NULL;
	struct ex_cost costs[EX_MAX_LIST];
	struct ex_run run;
	const char *what = NULL;
	char msg[200];
	size_t n = 0, i;
	uint64_t r;
	int err, status = 1;

	ex_parse_options(&opt, argc, argv);
	configs = calloc(opt.nr_loops * (1 + 2 * opt.nr_threads), sizeof(*configs));
	ops = aligned_alloc(64, opt.handlers * sizeof(*ops));
	cal = aligned_alloc(64, EX_CAL_HANDLERS * sizeof(*cal));
	if (!configs || !ops || !cal) {
		fprintf(stderr, "%s: out of memory for %llu handlers\n", EX_NAME, (unsigned long long)opt.handlers);
		goto out;
	}
	n = ex_configs(&opt, configs);
	results = calloc(n, sizeof(*results));
	if (!results) {
		fprintf(stderr, "%s: out of memory\n", EX_NAME);
		goto out;
	}
	for (i = 0; i < n; i++) {
		configs[i].result = &results[i];
		configs[i].ns = calloc(opt.tp.repeat, sizeof(double));
		if (!configs[i].ns) {
			fprintf(stderr, "%s: out of memory\n", EX_NAME);
			goto out;
		}
		results[i].mode = ex_mode_names[configs[i].mode];
		results[i].units = opt.handlers;
		results[i].start = "go";
		tp_result__param(&results[i], "threads", configs[i].nr_threads);
		tp_result__param(&results[i], "loops", configs[i].loops);
	}

	/* the main thread only creates, releases and joins; pinned, it calibrates where thread 0 runs */
	err = tp_pin_self(opt.tp.cpu_list[0]);
	if (err) {
		fprintf(stderr, "%s: cannot run on CPU %d: %s\n", EX_NAME, opt.tp.cpu_list[0], strerror(-err));
		goto out;
	}
	memset(cal, 0, EX_CAL_HANDLERS * sizeof(*cal));
	for (i = 0; i < opt.nr_loops; i++) {
		ex_calibrate(cal, EX_CAL_HANDLERS, opt.loops[i], &costs[i]);
		if (opt.loops[i] && costs[i].ns_per_handler / opt.loops[i] < EX_MIN_NS_PER_LOOP) {
			fprintf(stderr, "%s: a handler of %llu loops takes %.2f ns: the compiler removed the loop\n",
				EX_NAME, (unsigned long long)opt.loops[i], costs[i].ns_per_handler);
			goto out;
		}
	}

	/* the repeats interleaved: each round runs every configuration, so ratios compare like with like */
	for (r = 0; r < opt.tp.repeat; r++) {
		for (i = 0; i < n; i++) {
			err = ex_run__init(&run, ops, &opt, &configs[i]);
			if (err) {
				fprintf(stderr, "%s: cannot set up a run: %s\n", EX_NAME, strerror(-err));
				ex_run__free(&run);
				goto out;
			}
			err = ex_run__go(&run, &opt, &what);
			if (err) {
				snprintf(msg, sizeof(msg), "%s failed: %s", what, strerror(err));
			} else if (ex_run__check(&run, msg, sizeof(msg))) {
				err = -EPROTO;
			}
			if (err) {
				fprintf(stderr, "%s: run %llu of %s, %u threads, %llu loops: %s\n", EX_NAME,
					(unsigned long long)r + 1, ex_mode_names[configs[i].mode],
					configs[i].nr_threads, (unsigned long long)configs[i].loops, msg);
				ex_run__free(&run);
				goto out;
			}
			configs[i].ns[r] = (double)(run.done_ns - run.start_ns);
			ex_result__add(&results[i], &run);
			ex_run__free(&run);
		}
	}
	for (i = 0; i < n; i++)
		tp_stats__of(configs[i].ns, opt.tp.repeat, &results[i].ns);

	err = 0;
	if (opt.tp.json)
		err = ex_print_json(&opt, configs, results, n, costs);
	else
		ex_print_table(&opt, configs, n, costs);
	status = tp_results_out(EX_NAME, err);
out:
	for (i = 0; configs && results && i < n; i++)
		free(configs[i].ns);
	free(results);
	free(configs);
	free(ops);
	free(cal);
	return status;
}
