// SPDX-License-Identifier: GPL-2.0
/*
 * burst-queue - one producer thread hands N tasks, unpaced, to one consumer
 * thread; how long until the N-th task is consumed? Seed 000's comparison of
 * a condition-variable queue, a pipe byte as the notification, the tasks
 * themselves written into a pipe, batched pipe reads, and a new thread per
 * task (docs/seeds.md).
 *
 * Each mode hands over exactly what the seed's program did, with its defects
 * fixed: every thread is joined, the batch reader's carried-over bytes are
 * moved with memmove, the clock is CLOCK_MONOTONIC in ns, both threads are
 * pinned, nothing is allocated while the clock runs, and the pipe's writer
 * is non-blocking so that a write which found the pipe full is counted
 * before it waits in poll() for room (--pipe-size makes the pipe smaller).
 *
 * The clock starts at one of two points: "seed", right after the consumer's
 * pthread_create() returned, as the seed did (the consumer's start-up runs
 * inside the window), or "ready", once the consumer runs and sleeps in its
 * wait. It stops when the consumer has taken the N-th task. Both are
 * measured in every repeat, one after the other, so they share conditions.
 *
 * For a tracer: the threads are named bq-producer, bq-consumer (a new one
 * for every run) and bq-task (thread-per-event's), and --json counts the
 * tasks each mode handed over, so wakeups per task is a division.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "parse.h"
#include "throughput.h"

#define BQ_NAME			"burst-queue"
#define BQ_MAX_TASKS		10000000ull
#define BQ_MAX_SIZES		8
#define BQ_NOTIFY_READ		1024	/* the seed's pipe_cond reads up to this many notify bytes */
#define BQ_BATCH_READ		8192	/* the seed's pipe_cached buffer: 1024 records of 8 bytes */
#define BQ_MAX_IN_FLIGHT	1024	/* thread-per-event: unjoined threads, each holds a stack */
#define BQ_SLEEP_WAIT_NS	(10ull * 1000000000ull)

enum bq_mode {
	BQ_COND,
	BQ_PIPE_NOTIFY,
	BQ_PIPE_RECORD,
	BQ_PIPE_BATCH,
	BQ_THREAD_PER_EVENT,
	BQ_NR_MODES,
};

static const char *const bq_mode_names[BQ_NR_MODES] = {
	[BQ_COND] = "cond",
	[BQ_PIPE_NOTIFY] = "pipe-notify",
	[BQ_PIPE_RECORD] = "pipe-record",
	[BQ_PIPE_BATCH] = "pipe-batch",
	[BQ_THREAD_PER_EVENT] = "thread-per-event",
};

enum bq_start {
	BQ_START_SEED,
	BQ_START_READY,
	BQ_NR_STARTS,
};

static const char *const bq_start_names[BQ_NR_STARTS] = { "seed", "ready" };

static const uint64_t bq_default_sizes[] = { 10, 100, 1000, 100000 };

struct bq_options {
	struct tp_options tp;
	bool modes[BQ_NR_MODES];
	uint64_t sizes[BQ_MAX_SIZES];
	size_t nr_sizes;
	uint64_t pipe_size;	/* asked for with --pipe-size, 0: the kernel's default */
	int pipe_capacity;	/* what a pipe of this run holds, F_GETPIPE_SZ */
};

struct bq_trial;

/* thread-per-event: what one task thread is handed */
struct bq_task {
	struct bq_trial *trial;
	uint64_t seq;
};

/*
 * struct bq_trial - one run: N tasks of one mode from one start point. The
 * producer fills the first block, the consumer the second; the producer
 * reads the consumer's only after joining it.
 */
struct bq_trial {
	enum bq_mode mode;
	enum bq_start start;
	uint64_t tasks;
	int fds[2];			/* pipe modes: [0] read end (consumer), [1] write end, O_NONBLOCK */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/* cond: the FIFO (room for all N); pipe-notify: the vector the producer appends to */
	uint64_t *queue;
	uint64_t queue_head;
	uint64_t queue_len;
	uint64_t *cache;		/* pipe-notify: the consumer's side of the swap */
	struct bq_task *task_args;	/* thread-per-event */
	pthread_t *task_threads;
	uint32_t *seen;			/* thread-per-event: how often each task ran */

	/* producer */
	uint64_t start_ns;
	uint64_t sent;
	uint64_t writes;
	uint64_t full_writes;		/* writes that found the pipe full and waited for room */
	uint64_t bytes_written;
	uint64_t threads_joined;
	const char *failed;		/* the producer's failed call, NULL if none */
	int failed_err;

	/* consumer (or the task threads) */
	_Alignas(64) int ready;		/* the consumer is about to wait: its tid is set */
	pid_t consumer_tid;
	uint64_t done_ns;
	uint64_t received;
	uint64_t completed;		/* thread-per-event: atomic, tasks finished */
	uint64_t cond_waits;
	uint64_t reads;
	uint64_t bytes_read;
	uint64_t short_reads;		/* pipe-record reads that returned part of a record */
	bool out_of_order;
	uint64_t first_bad_expected;
	uint64_t first_bad_got;
	const char *consumer_failed;
	int consumer_err;
};

/* what the producer thread is given and gives back */
struct bq_run {
	const struct bq_options *opt;
	struct tp_result *results;
	size_t nr_results;
	char error[256];	/* the one line that ends the program, empty if none */
	int status;		/* 0, or the exit status */
};

static void bq_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s [--mode M[,M...]] [--tasks N[,N...]] [--repeat R] [--cpus P,C] [--pipe-size B] [--json]\n"
		"\n"
		"%s - one producer thread hands N tasks, unpaced, to one consumer thread: the time\n"
		"until the N-th task is consumed, per mode and N, over repeated runs (seed 000).\n"
		"\n"
		"Modes:\n"
		"  cond              a FIFO under a mutex: lock, push, signal, unlock per task; the consumer\n"
		"                    pops one task per lock and waits on the condition while it is empty\n"
		"  pipe-notify       a mutex-guarded vector plus a 1-byte pipe write per task; the consumer\n"
		"                    reads up to %d bytes, then swaps the whole vector out\n"
		"  pipe-record       each task an 8-byte record written into the pipe, one 8-byte read each\n"
		"  pipe-batch        the same records, read %d bytes at a time, a partial one carried over\n"
		"  thread-per-event  a new thread per task (on the consumer CPU), joined, completions counted\n"
		"\n"
		"  -m, --mode M         modes, comma-separated, or all (default all)\n"
		"  -t, --tasks N        tasks per run, comma-separated (default 10,100,1000,100000)\n"
		"  -r, --repeat R       runs per mode, N and start point (default %d)\n"
		"  -c, --cpus P,C       producer CPU P, consumer CPU C (default: the first two allowed)\n"
		"  -p, --pipe-size B    pipe capacity in bytes (F_SETPIPE_SZ; default the kernel's)\n"
		"  -j, --json           one JSON document on stdout instead of the table\n"
		"  -h, --help           this text\n"
		"\n"
		"The clock starts right after the consumer's pthread_create() (start \"seed\", as the\n"
		"seed did) or once the consumer sleeps in its wait (start \"ready\"); it stops when the\n"
		"consumer has taken the N-th task. thread-per-event has the seed start only: nothing\n"
		"runs before its first pthread_create(). The defaults take minutes: a run of\n"
		"thread-per-event at 100000 tasks alone takes seconds, and it is repeated R times.\n"
		"\n"
		"Examples:\n"
		"  %s --tasks 10,100,1000 --repeat 100\n"
		"  %s --mode cond,pipe-notify --tasks 1000 --cpus 0,1 --json > bq.json\n"
		"  %s --mode pipe-record --tasks 100000 --pipe-size 4096 --repeat 10\n",
		BQ_NAME, BQ_NAME, BQ_NOTIFY_READ, BQ_BATCH_READ, TP_DEFAULT_REPEAT, BQ_NAME, BQ_NAME, BQ_NAME);
}

/* bq_probe_pipe - the capacity a pipe of this run has, after --pipe-size: bytes or -errno */
static int bq_probe_pipe(uint64_t pipe_size)
{
	int fds[2], cap, err = 0;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	if (pipe_size && fcntl(fds[1], F_SETPIPE_SZ, (int)pipe_size) < 0)
		err = -errno;
	cap = fcntl(fds[1], F_GETPIPE_SZ);
	if (!err && cap < 0)
		err = -errno;
	close(fds[0]);
	close(fds[1]);
	return err ? err : cap;
}

static void bq_parse_options(struct bq_options *opt, int argc, char **argv)
{
	static const struct option longopts[] = {
		TP_LONGOPTS,
		{ "mode", required_argument, NULL, 'm' },
		{ "tasks", required_argument, NULL, 't' },
		{ "pipe-size", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	int o, m, err;

	memset(opt, 0, sizeof(*opt));
	tp_options__init(&opt->tp, BQ_NAME);
	for (m = 0; m < BQ_NR_MODES; m++)
		opt->modes[m] = true;
	memcpy(opt->sizes, bq_default_sizes, sizeof(bq_default_sizes));
	opt->nr_sizes = sizeof(bq_default_sizes) / sizeof(bq_default_sizes[0]);

	opterr = 0;	/* one line per mistake: ours, naming the option */
	while ((o = getopt_long(argc, argv, ":" TP_SHORTOPTS "m:t:p:", longopts, NULL)) != -1) {
		if (tp_options__parse(&opt->tp, o, optarg, argc, argv))
			continue;
		switch (o) {
		case 'm':
			if (tp_parse_names(optarg, bq_mode_names, BQ_NR_MODES, NULL, NULL, opt->modes))
				tp_usage_error(BQ_NAME, "--mode wants cond, pipe-notify, pipe-record, pipe-batch, "
					       "thread-per-event or all, comma-separated, not '%s'",
					       parse__shown(optarg));
			break;
		case 't':
			if (tp_parse_u64_list(optarg, 1, BQ_MAX_TASKS, opt->sizes, BQ_MAX_SIZES, &opt->nr_sizes))
				tp_usage_error(BQ_NAME, "--tasks wants up to %d whole numbers from 1 to %llu, "
					       "comma-separated, not '%s'", BQ_MAX_SIZES, BQ_MAX_TASKS,
					       parse__shown(optarg));
			break;
		case 'p':
			if (parse__u64(optarg, 1, 1 << 30, &opt->pipe_size))
				tp_usage_error(BQ_NAME, "--pipe-size wants bytes from 1 to %d, not '%s'", 1 << 30,
					       parse__shown(optarg));
			break;
		}
	}
	tp_options__finish(&opt->tp, argc, argv, bq_usage);
	err = bq_probe_pipe(opt->pipe_size);
	if (err < 0 && opt->pipe_size && (err == -EPERM || err == -EBUSY))
		tp_usage_error(BQ_NAME, "--pipe-size %llu is above what this user may set "
			       "(/proc/sys/fs/pipe-max-size): ask for less, or run as root",
			       (unsigned long long)opt->pipe_size);
	if (err < 0) {
		fprintf(stderr, "%s: cannot make a pipe: %s\n", BQ_NAME, strerror(-err));
		exit(1);
	}
	opt->pipe_capacity = err;
}

static void bq_fail(struct bq_trial *t, const char *what, int err)
{
	if (!t->failed) {
		t->failed = what;
		t->failed_err = err;
	}
}

static void bq_consumer_fail(struct bq_trial *t, const char *what, int err)
{
	if (!t->consumer_failed) {
		t->consumer_failed = what;
		t->consumer_err = err;
	}
}

/* bq_take - the consumer took task @seq: check it is the next one, stop the clock at the N-th */
static inline void bq_take(struct bq_trial *t, uint64_t seq)
{
	if (seq != t->received && !t->out_of_order) {
		t->out_of_order = true;
		t->first_bad_expected = t->received;
		t->first_bad_got = seq;
	}
	if (++t->received == t->tasks)
		t->done_ns = tp_now_ns();
}

/* bq_ready - about to wait for the first time: the producer may start the "ready" clock once we sleep */
static inline void bq_ready(struct bq_trial *t)
{
	__atomic_store_n(&t->ready, 1, __ATOMIC_RELEASE);
}

/*
 * bq_write - @len bytes (<= PIPE_BUF, so all or nothing, pipe(7)) into the
 * non-blocking write end. A write that finds no room is counted, then
 * waits in poll() until the reader made some: the blocking write the seed
 * did, made visible.
 */
static int bq_write(struct bq_trial *t, const void *buf, size_t len)
{
	struct pollfd pfd = { .fd = t->fds[1], .events = POLLOUT };
	ssize_t n;

	for (;;) {
		n = write(t->fds[1], buf, len);
		if (n == (ssize_t)len) {
			t->writes++;
			t->bytes_written += len;
			return 0;
		}
		if (n >= 0)
			return -EIO;	/* a partial write of <= PIPE_BUF bytes: not a pipe */
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return -errno;
		t->full_writes++;
		while (poll(&pfd, 1, -1) < 0)
			if (errno != EINTR)
				return -errno;
	}
}

/* bq_read - one read() of up to @len bytes from the read end; 0 at EOF, < 0 -errno */
static ssize_t bq_read(struct bq_trial *t, void *buf, size_t len)
{
	ssize_t n;

	do {
		n = read(t->fds[0], buf, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	t->reads++;
	t->bytes_read += n;
	return n;
}

static void bq_consume_cond(struct bq_trial *t)
{
	uint64_t i, seq;

	for (i = 0; i < t->tasks; i++) {
		pthread_mutex_lock(&t->lock);
		if (i == 0)
			bq_ready(t);
		/* the predicate: a signal sent before we wait is in the queue, never lost */
		while (!t->queue_len) {
			t->cond_waits++;
			pthread_cond_wait(&t->cond, &t->lock);
		}
		seq = t->queue[t->queue_head++];
		t->queue_len--;
		pthread_mutex_unlock(&t->lock);
		bq_take(t, seq);
	}
}

static void bq_consume_notify(struct bq_trial *t)
{
	char trash[BQ_NOTIFY_READ];
	uint64_t *swap, n, i;
	ssize_t got;

	bq_ready(t);
	while (t->received < t->tasks) {
		got = bq_read(t, trash, sizeof(trash));
		if (got <= 0)
			goto fail;
		pthread_mutex_lock(&t->lock);
		swap = t->queue;
		t->queue = t->cache;
		t->cache = swap;
		n = t->queue_len;
		t->queue_len = 0;
		pthread_mutex_unlock(&t->lock);
		for (i = 0; i < n; i++)
			bq_take(t, t->cache[i]);
	}
	/*
	 * The swap can take tasks whose bytes are still in the pipe: read them
	 * too, after the clock stopped, or a producer that found the pipe full
	 * would wait for room forever. Every byte is then accounted for.
	 */
	while (t->bytes_read < t->tasks) {
		got = bq_read(t, trash, sizeof(trash));
		if (got <= 0)
			goto fail;
	}
	return;
fail:
	bq_consumer_fail(t, got < 0 ? "read from the pipe" : "the pipe closed early", got < 0 ? (int)-got : 0);
}

static void bq_consume_record(struct bq_trial *t)
{
	uint64_t i, seq;
	size_t have;
	ssize_t got;

	bq_ready(t);
	for (i = 0; i < t->tasks; i++) {
		for (have = 0; have < sizeof(seq); have += got) {
			got = bq_read(t, (char *)&seq + have, sizeof(seq) - have);
			if (got <= 0) {
				bq_consumer_fail(t, got < 0 ? "read from the pipe" : "the pipe closed early",
						 got < 0 ? (int)-got : 0);
				return;
			}
			if (have + got < sizeof(seq))
				t->short_reads++;
		}
		bq_take(t, seq);
	}
}

static void bq_consume_batch(struct bq_trial *t)
{
	_Alignas(8) char buf[BQ_BATCH_READ];
	size_t carry = 0, have, off;
	uint64_t seq;
	ssize_t got;

	bq_ready(t);
	while (t->received < t->tasks) {
		got = bq_read(t, buf + carry, sizeof(buf) - carry);
		if (got <= 0) {
			bq_consumer_fail(t, got < 0 ? "read from the pipe" : "the pipe closed early",
					 got < 0 ? (int)-got : 0);
			return;
		}
		have = carry + got;
		for (off = 0; have - off >= sizeof(seq); off += sizeof(seq)) {
			memcpy(&seq, buf + off, sizeof(seq));
			bq_take(t, seq);
		}
		/* the partial record left: source and destination may overlap, hence memmove */
		carry = have - off;
		memmove(buf, buf + off, carry);
	}
}

static void *bq_consumer_main(void *arg)
{
	struct bq_trial *t = arg;

	prctl(PR_SET_NAME, "bq-consumer", 0, 0, 0);
	t->consumer_tid = (pid_t)syscall(SYS_gettid);
	switch (t->mode) {
	case BQ_COND:
		bq_consume_cond(t);
		break;
	case BQ_PIPE_NOTIFY:
		bq_consume_notify(t);
		break;
	case BQ_PIPE_RECORD:
		bq_consume_record(t);
		break;
	case BQ_PIPE_BATCH:
		bq_consume_batch(t);
		break;
	default:
		break;
	}
	return NULL;
}

/*
 * bq_wait_asleep - the "ready" start: the consumer announced itself, and
 * its thread is asleep (state S in /proc/self/task/TID/stat), so it waits
 * in the mode's primitive. 0, or -ETIMEDOUT if it never slept.
 */
static int bq_wait_asleep(struct bq_trial *t)
{
	uint64_t deadline = tp_now_ns() + BQ_SLEEP_WAIT_NS;
	char path[64];
	int asleep;

	while (!__atomic_load_n(&t->ready, __ATOMIC_ACQUIRE)) {
		if (tp_now_ns() > deadline)
			return -ETIMEDOUT;
		sched_yield();
	}
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)t->consumer_tid);
	while (tp_now_ns() <= deadline) {
		asleep = tp_proc_asleep(path);
		if (asleep)
			return asleep < 0 ? asleep : 0;
		sched_yield();
	}
	return -ETIMEDOUT;
}

static void bq_produce_cond(struct bq_trial *t)
{
	uint64_t seq;

	for (seq = 0; seq < t->tasks; seq++) {
		pthread_mutex_lock(&t->lock);
		t->queue[t->queue_head + t->queue_len] = seq;
		t->queue_len++;
		pthread_cond_signal(&t->cond);
		pthread_mutex_unlock(&t->lock);
		t->sent++;
	}
}

static void bq_produce_notify(struct bq_trial *t)
{
	static const char byte;
	uint64_t seq;
	int err;

	for (seq = 0; seq < t->tasks; seq++) {
		pthread_mutex_lock(&t->lock);
		t->queue[t->queue_len++] = seq;
		pthread_mutex_unlock(&t->lock);
		t->sent++;
		err = bq_write(t, &byte, 1);
		if (err) {
			bq_fail(t, "write to the pipe", -err);
			return;
		}
	}
}

static void bq_produce_records(struct bq_trial *t)
{
	uint64_t seq;
	int err;

	for (seq = 0; seq < t->tasks; seq++) {
		err = bq_write(t, &seq, sizeof(seq));
		if (err) {
			bq_fail(t, "write to the pipe", -err);
			return;
		}
		t->sent++;
	}
}

static void *bq_task_main(void *arg)
{
	struct bq_task *task = arg;
	struct bq_trial *t = task->trial;

	prctl(PR_SET_NAME, "bq-task", 0, 0, 0);
	/* each thread owns its slot; the join orders these stores before the producer's check */
	t->seen[task->seq]++;
	if (__atomic_add_fetch(&t->completed, 1, __ATOMIC_ACQ_REL) == t->tasks)
		t->done_ns = tp_now_ns();
	return NULL;
}

/*
 * bq_reap - join the oldest task threads that have finished, without
 * waiting; the oldest whatever it takes once BQ_MAX_IN_FLIGHT are unjoined.
 * A joined thread's stack goes back to glibc's cache at once, as a
 * detached one's (the seed's) did when it ended: joining late would make
 * every create map a fresh stack. Returns 0 or the error of a join.
 */
static int bq_reap(struct bq_trial *t, uint64_t created, bool all)
{
	int err;

	while (t->threads_joined < created) {
		pthread_t th = t->task_threads[t->threads_joined];

		if (all || created - t->threads_joined >= BQ_MAX_IN_FLIGHT)
			err = pthread_join(th, NULL);
		else if (pthread_tryjoin_np(th, NULL))
			return 0;
		else
			err = 0;
		if (err)
			return err;
		t->threads_joined++;
	}
	return 0;
}

static void bq_produce_threads(struct bq_trial *t, const pthread_attr_t *attr)
{
	uint64_t seq;
	int err;

	t->start_ns = tp_now_ns();
	for (seq = 0; seq < t->tasks; seq++) {
		err = bq_reap(t, seq, false);
		if (err) {
			bq_fail(t, "pthread_join", err);
			break;
		}
		err = pthread_create(&t->task_threads[seq], attr, bq_task_main, &t->task_args[seq]);
		if (err) {
			bq_fail(t, "pthread_create", err);
			break;
		}
		t->sent++;
	}
	err = bq_reap(t, t->sent, true);
	if (err)
		bq_fail(t, "pthread_join", err);
}

static void bq_trial__free(struct bq_trial *t)
{
	free(t->queue);
	free(t->cache);
	free(t->task_args);
	free(t->task_threads);
	free(t->seen);
	if (t->fds[0] >= 0)
		close(t->fds[0]);
	if (t->fds[1] >= 0)
		close(t->fds[1]);
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->cond);
}

/* bq_trial__init - everything one run needs, made before the clock starts: 0 or -errno */
static int bq_trial__init(struct bq_trial *t, const struct bq_options *opt, enum bq_mode mode,
			  enum bq_start start, uint64_t tasks)
{
	uint64_t i;

	memset(t, 0, sizeof(*t));
	t->fds[0] = -1;
	t->fds[1] = -1;
	t->mode = mode;
	t->start = start;
	t->tasks = tasks;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
	switch (mode) {
	case BQ_COND:
		t->queue = calloc(tasks, sizeof(*t->queue));
		return t->queue ? 0 : -ENOMEM;
	case BQ_PIPE_NOTIFY:
		t->queue = calloc(tasks, sizeof(*t->queue));
		t->cache = calloc(tasks, sizeof(*t->cache));
		if (!t->queue || !t->cache)
			return -ENOMEM;
		break;
	case BQ_PIPE_RECORD:
	case BQ_PIPE_BATCH:
		break;
	default:
		t->task_args = calloc(tasks, sizeof(*t->task_args));
		t->task_threads = calloc(tasks, sizeof(*t->task_threads));
		t->seen = calloc(tasks, sizeof(*t->seen));
		if (!t->task_args || !t->task_threads || !t->seen)
			return -ENOMEM;
		for (i = 0; i < tasks; i++) {
			t->task_args[i].trial = t;
			t->task_args[i].seq = i;
		}
		return 0;
	}
	if (pipe2(t->fds, O_CLOEXEC))
		return -errno;
	if (opt->pipe_size && fcntl(t->fds[1], F_SETPIPE_SZ, (int)opt->pipe_size) < 0)
		return -errno;
	if (fcntl(t->fds[1], F_SETFL, O_NONBLOCK))
		return -errno;
	return 0;
}

/* bq_trial__run - one run, the consumer created and joined here: 0 or -errno of a call that failed */
static int bq_trial__run(struct bq_trial *t, const pthread_attr_t *consumer_attr)
{
	pthread_t consumer;
	int err;

	if (t->mode == BQ_THREAD_PER_EVENT) {
		bq_produce_threads(t, consumer_attr);
		return 0;
	}
	err = pthread_create(&consumer, consumer_attr, bq_consumer_main, t);
	if (err) {
		bq_fail(t, "pthread_create", err);
		return -err;
	}
	if (t->start == BQ_START_READY) {
		err = bq_wait_asleep(t);
		if (err)
			bq_fail(t, "waiting for the consumer to sleep", -err);
	}
	t->start_ns = tp_now_ns();
	if (!t->failed) {
		switch (t->mode) {
		case BQ_COND:
			bq_produce_cond(t);
			break;
		case BQ_PIPE_NOTIFY:
			bq_produce_notify(t);
			break;
		default:
			bq_produce_records(t);
			break;
		}
	}
	/* a producer that stopped early closes its end, so that a reading consumer sees EOF */
	if (t->failed && t->fds[1] >= 0) {
		close(t->fds[1]);
		t->fds[1] = -1;
	}
	if (t->failed && t->mode == BQ_COND) {
		/* the consumer waits for tasks that will not come: nothing ends it but the process */
		return -EIO;
	}
	err = pthread_join(consumer, NULL);
	if (err) {
		bq_fail(t, "pthread_join", err);
		return -err;
	}
	if (t->fds[0] >= 0 && t->mode != BQ_PIPE_NOTIFY) {
		/* the pipe must be empty now: a byte left over is a task nobody took */
		char extra;

		fcntl(t->fds[0], F_SETFL, O_NONBLOCK);
		if (read(t->fds[0], &extra, 1) == 1)
			t->bytes_read++;
	}
	return 0;
}

/*
 * bq_trial__check - the counts, checked rather than trusted: one line in
 * @msg and -EPROTO when a count is off, -EIO when a call failed.
 */
static int bq_trial__check(const struct bq_trial *t, char *msg, size_t len)
{
	uint64_t bytes = t->mode == BQ_PIPE_NOTIFY ? t->tasks : t->tasks * sizeof(uint64_t), i;
	int n = snprintf(msg, len, "%s, %llu tasks, %s start: ", bq_mode_names[t->mode],
			 (unsigned long long)t->tasks, bq_start_names[t->start]);

	msg += n;
	len -= n;
	if (t->failed) {
		snprintf(msg, len, "%s failed%s%s", t->failed, t->failed_err ? ": " : "",
			 t->failed_err ? strerror(t->failed_err) : "");
		return -EIO;
	}
	if (t->consumer_failed) {
		snprintf(msg, len, "the consumer's %s%s%s", t->consumer_failed, t->consumer_err ? ": " : "",
			 t->consumer_err ? strerror(t->consumer_err) : "");
		return -EIO;
	}
	if (t->sent != t->tasks) {
		snprintf(msg, len, "the producer sent %llu tasks, not %llu", (unsigned long long)t->sent,
			 (unsigned long long)t->tasks);
		return -EPROTO;
	}
	if (t->mode == BQ_THREAD_PER_EVENT) {
		if (t->threads_joined != t->tasks) {
			snprintf(msg, len, "%llu threads joined of %llu created", (unsigned long long)t->threads_joined,
				 (unsigned long long)t->tasks);
			return -EPROTO;
		}
		if (t->completed != t->tasks) {
			snprintf(msg, len, "%llu tasks completed of %llu", (unsigned long long)t->completed,
				 (unsigned long long)t->tasks);
			return -EPROTO;
		}
		for (i = 0; i < t->tasks; i++) {
			if (t->seen[i] != 1) {
				snprintf(msg, len, "task %llu ran %u times", (unsigned long long)i, t->seen[i]);
				return -EPROTO;
			}
		}
		return 0;
	}
	if (t->received != t->tasks) {
		snprintf(msg, len, "the consumer received %llu tasks of %llu sent",
			 (unsigned long long)t->received, (unsigned long long)t->tasks);
		return -EPROTO;
	}
	if (t->out_of_order) {
		snprintf(msg, len, "task %llu arrived where task %llu was due",
			 (unsigned long long)t->first_bad_got, (unsigned long long)t->first_bad_expected);
		return -EPROTO;
	}
	if (t->mode != BQ_COND && (t->bytes_written != bytes || t->bytes_read != bytes)) {
		snprintf(msg, len, "%llu bytes written and %llu read through the pipe, not %llu",
			 (unsigned long long)t->bytes_written, (unsigned long long)t->bytes_read,
			 (unsigned long long)bytes);
		return -EPROTO;
	}
	return 0;
}

/* bq_result__add - one checked run into @r: its time and its counts */
static void bq_result__add(struct tp_result *r, const struct bq_trial *t)
{
	tp_result__count(r, "sent", t->sent);
	tp_result__count(r, "received", t->mode == BQ_THREAD_PER_EVENT ? t->completed : t->received);
	switch (t->mode) {
	case BQ_COND:
		tp_result__count(r, "cond_waits", t->cond_waits);
		break;
	case BQ_THREAD_PER_EVENT:
		tp_result__count(r, "threads_joined", t->threads_joined);
		break;
	default:
		tp_result__count(r, "writes", t->writes);
		tp_result__count(r, "full_writes", t->full_writes);
		tp_result__count(r, "bytes_written", t->bytes_written);
		tp_result__count(r, "reads", t->reads);
		tp_result__count(r, "bytes_read", t->bytes_read);
		if (t->mode == BQ_PIPE_RECORD)
			tp_result__count(r, "short_reads", t->short_reads);
		break;
	}
}

static bool bq_has_start(enum bq_mode mode, enum bq_start start)
{
	return mode != BQ_THREAD_PER_EVENT || start == BQ_START_SEED;
}

static void *bq_producer_main(void *arg)
{
	struct bq_run *run = arg;
	const struct bq_options *opt = run->opt;
	uint64_t repeat = opt->tp.repeat, r;
	pthread_attr_t attr;
	double *ns[BQ_NR_STARTS] = { NULL, NULL };
	struct tp_result *res[BQ_NR_STARTS];
	struct bq_trial trial;
	char msg[200];
	size_t si;
	int m, s, err;

	prctl(PR_SET_NAME, "bq-producer", 0, 0, 0);
	pthread_attr_init(&attr);
	err = tp_attr_pin(&attr, opt->tp.cpu[1]);
	if (err) {
		snprintf(run->error, sizeof(run->error), "cannot pin threads to CPU %d: %s", opt->tp.cpu[1],
			 strerror(-err));
		run->status = 1;
		goto out;
	}
	for (s = 0; s < BQ_NR_STARTS; s++) {
		ns[s] = calloc(repeat, sizeof(double));
		if (!ns[s]) {
			snprintf(run->error, sizeof(run->error), "out of memory");
			run->status = 1;
			goto out;
		}
	}
	for (m = 0; m < BQ_NR_MODES; m++) {
		if (!opt->modes[m])
			continue;
		for (si = 0; si < opt->nr_sizes; si++) {
			for (s = 0; s < BQ_NR_STARTS; s++) {
				res[s] = NULL;
				if (!bq_has_start(m, s))
					continue;
				res[s] = &run->results[run->nr_results++];
				res[s]->mode = bq_mode_names[m];
				res[s]->units = opt->sizes[si];
				res[s]->start = bq_start_names[s];
			}
			for (r = 0; r < repeat; r++) {
				for (s = 0; s < BQ_NR_STARTS; s++) {
					if (!res[s])
						continue;
					err = bq_trial__init(&trial, opt, m, s, opt->sizes[si]);
					if (!err)
						err = bq_trial__run(&trial, &attr);
					if (err == -EIO) {
						/* a consumer may still wait: report and leave, exit ends it */
						bq_trial__check(&trial, msg, sizeof(msg));
						snprintf(run->error, sizeof(run->error), "%s", msg);
						run->status = 1;
						goto out;
					}
					if (err) {
						snprintf(run->error, sizeof(run->error), "%s, %llu tasks: cannot set up "
							 "a run: %s", bq_mode_names[m],
							 (unsigned long long)opt->sizes[si], strerror(-err));
						bq_trial__free(&trial);
						run->status = 1;
						goto out;
					}
					err = bq_trial__check(&trial, msg, sizeof(msg));
					if (err) {
						snprintf(run->error, sizeof(run->error), "run %llu of %s",
							 (unsigned long long)r + 1, msg);
						bq_trial__free(&trial);
						run->status = 1;
						goto out;
					}
					ns[s][r] = (double)(trial.done_ns - trial.start_ns);
					bq_result__add(res[s], &trial);
					bq_trial__free(&trial);
				}
			}
			for (s = 0; s < BQ_NR_STARTS; s++)
				if (res[s])
					tp_stats__of(ns[s], repeat, &res[s]->ns);
		}
	}
out:
	pthread_attr_destroy(&attr);
	free(ns[0]);
	free(ns[1]);
	return NULL;
}

/* bq_note - the table's last column: what one run did, on average */
static const char *bq_note(const struct tp_result *r, char *buf, size_t len)
{
	double runs = r->ns.n ? (double)r->ns.n : 1;

	if (tp_result__counter(r, "cond_waits") || !strcmp(r->mode, "cond"))
		snprintf(buf, len, "%.1f cond waits", tp_result__counter(r, "cond_waits") / runs);
	else if (!strcmp(r->mode, "thread-per-event"))
		snprintf(buf, len, "%.0f threads joined", tp_result__counter(r, "threads_joined") / runs);
	else
		snprintf(buf, len, "%.1f reads, %.1f full writes", tp_result__counter(r, "reads") / runs,
			 tp_result__counter(r, "full_writes") / runs);
	return buf;
}

static void bq_print_table(const struct bq_options *opt, const struct bq_run *run)
{
	char note[96];
	size_t i;

	printf("%s: producer on CPU %d, consumer on CPU %d, %llu runs per row, pipe capacity %d bytes, "
	       "CLOCK_MONOTONIC\n", BQ_NAME, opt->tp.cpu[0], opt->tp.cpu[1], (unsigned long long)opt->tp.repeat,
	       opt->pipe_capacity);
	printf("time to the N-th task consumed; start seed: right after the consumer's pthread_create(), "
	       "ready: once it sleeps in its wait\n\n");
	tp_table__header(stdout, "N", "task");
	for (i = 0; i < run->nr_results; i++)
		tp_table__row(stdout, &run->results[i], bq_note(&run->results[i], note, sizeof(note)));
}

static int bq_print_json(const struct bq_options *opt, const struct bq_run *run)
{
	uint64_t handed[BQ_NR_MODES] = { 0 };
	struct json_writer w;
	size_t i;
	int m;

	json_writer__init(&w, stdout);
	tp_json__begin(&w, &opt->tp, "producer", "consumer");
	tp_json__names(&w, "modes", bq_mode_names, opt->modes, BQ_NR_MODES);
	tp_json__u64s(&w, "tasks", opt->sizes, opt->nr_sizes);
	json_writer__key(&w, "pipe_size");
	json_writer__uint(&w, opt->pipe_size);
	json_writer__key(&w, "pipe_capacity");
	json_writer__int(&w, opt->pipe_capacity);
	tp_json__results(&w, run->results, run->nr_results, "tasks", "task");

	/* what a tracer divides by: every task handed over, over all sizes, starts and runs */
	for (i = 0; i < run->nr_results; i++)
		for (m = 0; m < BQ_NR_MODES; m++)
			if (!strcmp(run->results[i].mode, bq_mode_names[m]))
				handed[m] += tp_result__counter(&run->results[i], "received");
	tp_json__per_name(&w, "handed_over", bq_mode_names, opt->modes, handed, BQ_NR_MODES);
	json_writer__key(&w, "threads");
	json_writer__begin_object(&w);
	json_writer__key(&w, "producer");
	json_writer__string(&w, "bq-producer");
	json_writer__key(&w, "consumer");
	json_writer__string(&w, "bq-consumer");
	json_writer__key(&w, "task");
	json_writer__string(&w, "bq-task");
	json_writer__end_object(&w);
	json_writer__end_object(&w);
	return json_writer__finish(&w);
}

int main(int argc, char **argv)
{
	struct bq_options opt;
	struct bq_run run = { 0 };
	int err;

	bq_parse_options(&opt, argc, argv);
	run.opt = &opt;
	run.results = calloc(BQ_NR_MODES * BQ_MAX_SIZES * BQ_NR_STARTS, sizeof(*run.results));
	if (!run.results) {
		fprintf(stderr, "%s: out of memory\n", BQ_NAME);
		return 1;
	}
	err = tp_run_thread(opt.tp.cpu[0], bq_producer_main, &run);
	if (err) {
		fprintf(stderr, "%s: cannot run the producer on CPU %d: %s\n", BQ_NAME, opt.tp.cpu[0],
			strerror(-err));
		free(run.results);
		return 1;
	}
	if (run.status) {
		fprintf(stderr, "%s: %s\n", BQ_NAME, run.error);
		/* exit, not return: a consumer still blocked must not hold the process */
		exit(run.status);
	}
	if (opt.tp.json)
		err = bq_print_json(&opt, &run);
	else
		bq_print_table(&opt, &run);
	free(run.results);
	return tp_results_out(BQ_NAME, err);
}
