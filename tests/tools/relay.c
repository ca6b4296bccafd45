// SPDX-License-Identifier: GPL-2.0
/*
 * relay.c - a request relayed through three threads, as a small server
 * relays it, for the wakeup chain tests (tests/system/test_relay.c).
 * relay-client writes a request down a pipe; relay-disp reads it and
 * queues it, under a mutex and a condition variable, for relay-work,
 * which works on it for about 20 us and answers on an eventfd that
 * relay-client sleeps on in read(). One request is out at a time, each
 * due --interval-us after the one before.
 *
 * Each answer takes three wakeups, one a hop: the pipe wakes the
 * dispatcher, the condition variable the worker, the eventfd the client.
 * A delay on any hop is the client's, and the client's own wakeup need
 * not show it: that is the chain the tests follow back. Nothing here knows
 * of a tracer; its only measure is the client's round trip, which it
 * prints per round at the end.
 *
 * --worker-cpu C pins the worker to C and the client and the dispatcher
 * to another CPU, so that a task spinning on C delays the worker's hop
 * alone. --pause-between-rounds prints "round K" before each round and
 * waits for a line on stdin: whoever drives it knows which requests fall
 * in which round, and may change the machine in between.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>

#define DEFAULT_ROUNDS		20
#define DEFAULT_PER_ROUND	200
#define DEFAULT_INTERVAL_US	1000
#define MAX_ROUNDS		100000
#define MAX_PER_ROUND		1000000
#define MAX_INTERVAL_US		10000000	/* 10 s */
#define WORK_NS			20000		/* the worker's work on one request */
#define QUEUE_SLOTS		16

struct options {
	unsigned long rounds;
	unsigned long per_round;
	unsigned long interval_us;
	int worker_cpu;		/* -1: no pinning */
	int front_cpu;		/* the client's and the dispatcher's, with worker_cpu */
	bool pause;
};

/* what the client writes down the pipe */
struct request {
	uint64_t seq;		/* from 1, over the whole run */
	uint32_t round;		/* from 0 */
	uint32_t pad;
};

/* the dispatcher's hand-off to the worker */
struct queue {
	pthread_mutex_t lock;
	pthread_cond_t nonempty;
	pthread_cond_t nonfull;
	struct request slot[QUEUE_SLOTS];
	unsigned int head;
	unsigned int len;
	bool closed;		/* no more requests: the worker ends once it is empty */
};

/* the client's round trips of one round */
struct round_result {
	uint64_t p50_ns;
	uint64_t max_ns;
};

struct relay {
	struct options opt;
	int req_read;		/* the pipe: the dispatcher's end */
	int req_write;		/* the client's; closing it ends the run */
	int answer_fd;		/* the eventfd the worker answers on */
	struct queue queue;
	struct round_result *rounds;
	unsigned long rounds_done;
	uint64_t requests;
	int client_status;	/* 0, or 1: stdin ended before the last round */
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: relay [--rounds N] [--per-round N] [--interval-us US] [--worker-cpu C]\n"
		"             [--pause-between-rounds]\n"
		"\n"
		"relay - a request relayed client -> dispatcher -> worker -> client: down a pipe,\n"
		"through a queue under a mutex and a condition variable, back on an eventfd.\n"
		"It prints the client's round trips, per round, when it is done.\n"
		"\n"
		"  -r, --rounds N              rounds of requests (default %d)\n"
		"  -n, --per-round N           requests in each round (default %d)\n"
		"  -i, --interval-us US        one request every US, 0 for back to back (default %d)\n"
		"  -w, --worker-cpu C          the worker on CPU C, the client and the dispatcher on\n"
		"                              another (default: no pinning)\n"
		"  -p, --pause-between-rounds  print \"round K\" before each round and wait for a line\n"
		"                              on stdin\n"
		"  -h, --help                  this text\n"
		"\n"
		"Example: relay --rounds 6 --per-round 200 --worker-cpu 1 --pause-between-rounds\n",
		DEFAULT_ROUNDS, DEFAULT_PER_ROUND, DEFAULT_INTERVAL_US);
}

static void __attribute__((noreturn, format(printf, 1, 2))) usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "relay: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see --help)\n");
	exit(2);
}

/* die - a call that does not fail on a sound machine did: say which, and end the process, its threads with it */
static void __attribute__((noreturn)) die(const char *what, int err)
{
	fprintf(stderr, "relay: %s: %s\n", what, strerror(err));
	exit(1);
}

/* parse_ulong - all of @s as a decimal number in [@min, @max]: no sign, no blank, nothing after it */
static bool parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = (unsigned long)v;
	return true;
}

static void parse_options(struct options *opt, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "rounds", required_argument, NULL, 'r' },
		{ "per-round", required_argument, NULL, 'n' },
		{ "interval-us", required_argument, NULL, 'i' },
		{ "worker-cpu", required_argument, NULL, 'w' },
		{ "pause-between-rounds", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	cpu_set_t allowed;
	unsigned long v;
	int o, cpu;

	*opt = (struct options){
		.rounds = DEFAULT_ROUNDS,
		.per_round = DEFAULT_PER_ROUND,
		.interval_us = DEFAULT_INTERVAL_US,
		.worker_cpu = -1,
		.front_cpu = -1,
	};
	opterr = 0;	/* one line per mistake: ours, naming the option */
	while ((o = getopt_long(argc, argv, ":r:n:i:w:ph", longopts, NULL)) != -1) {
		switch (o) {
		case 'r':
			if (!parse_ulong(optarg, 1, MAX_ROUNDS, &opt->rounds))
				usage_error("--rounds wants a whole number from 1 to %d, not '%s'", MAX_ROUNDS, optarg);
			break;
		case 'n':
			if (!parse_ulong(optarg, 1, MAX_PER_ROUND, &opt->per_round))
				usage_error("--per-round wants a whole number from 1 to %d, not '%s'", MAX_PER_ROUND,
					    optarg);
			break;
		case 'i':
			if (!parse_ulong(optarg, 0, MAX_INTERVAL_US, &opt->interval_us))
				usage_error("--interval-us wants microseconds from 0 to %d, not '%s'", MAX_INTERVAL_US,
					    optarg);
			break;
		case 'w':
			if (!parse_ulong(optarg, 0, CPU_SETSIZE - 1, &v))
				usage_error("--worker-cpu wants a CPU number, not '%s'", optarg);
			opt->worker_cpu = (int)v;
			break;
		case 'p':
			opt->pause = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case ':':
			usage_error("%s needs a value", argv[optind - 1]);
		default:
			usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (opt->worker_cpu < 0)
		return;
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		die("sched_getaffinity", errno);
	if (!CPU_ISSET(opt->worker_cpu, &allowed))
		usage_error("--worker-cpu %d is not a CPU this process may run on", opt->worker_cpu);
	for (cpu = 0; cpu < CPU_SETSIZE && opt->front_cpu < 0; cpu++)
		if (cpu != opt->worker_cpu && CPU_ISSET(cpu, &allowed))
			opt->front_cpu = cpu;
	if (opt->front_cpu < 0)
		usage_error("--worker-cpu %d leaves no other CPU for the client and the dispatcher", opt->worker_cpu);
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000 + (uint64_t)t.tv_nsec;
}

/* pin - @thread on @cpu alone; 0 or an errno */
static int pin(pthread_t thread, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(thread, sizeof(set), &set);
}

static void queue_init(struct queue *q)
{
	memset(q, 0, sizeof(*q));
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->nonempty, NULL);
	pthread_cond_init(&q->nonfull, NULL);
}

static void queue_put(struct queue *q, const struct request *req)
{
	pthread_mutex_lock(&q->lock);
	while (q->len == QUEUE_SLOTS)
		pthread_cond_wait(&q->nonfull, &q->lock);
	q->slot[(q->head + q->len) % QUEUE_SLOTS] = *req;
	q->len++;
	pthread_cond_signal(&q->nonempty);
	pthread_mutex_unlock(&q->lock);
}

/* queue_take - the oldest request into @req; false once the queue is closed and empty */
static bool queue_take(struct queue *q, struct request *req)
{
	bool got = false;

	pthread_mutex_lock(&q->lock);
	while (!q->len && !q->closed)
		pthread_cond_wait(&q->nonempty, &q->lock);
	if (q->len) {
		*req = q->slot[q->head];
		q->head = (q->head + 1) % QUEUE_SLOTS;
		q->len--;
		pthread_cond_signal(&q->nonfull);
		got = true;
	}
	pthread_mutex_unlock(&q->lock);
	return got;
}

static void queue_close(struct queue *q)
{
	pthread_mutex_lock(&q->lock);
	q->closed = true;
	pthread_cond_broadcast(&q->nonempty);
	pthread_mutex_unlock(&q->lock);
}

/* work - what the worker does for a request: keep its CPU for WORK_NS */
static uint64_t work(const struct request *req)
{
	uint64_t start = now_ns(), t, sum = req->seq;

	do {
		t = now_ns();
		sum = sum * 31 + t;
	} while (t - start < WORK_NS);
	return sum;
}

static void *worker(void *arg)
{
	struct relay *r = arg;
	struct request req;
	uint64_t one = 1;
	volatile uint64_t result;

	pthread_setname_np(pthread_self(), "relay-work");
	while (queue_take(&r->queue, &req)) {
		result = work(&req);
		(void)result;
		if (write(r->answer_fd, &one, sizeof(one)) != sizeof(one))
			die("answer on the eventfd", errno);
	}
	return NULL;
}

static void *dispatcher(void *arg)
{
	struct relay *r = arg;
	struct request req;
	size_t got;
	ssize_t n;

	pthread_setname_np(pthread_self(), "relay-disp");
	for (;;) {
		/* a write of a request is atomic (PIPE_BUF), but read what a short read left all the same */
		for (got = 0; got < sizeof(req); got += (size_t)n) {
			n = read(r->req_read, (char *)&req + got, sizeof(req) - got);
			if (n < 0 && errno == EINTR)
				n = 0;
			else if (n < 0)
				die("read a request from the pipe", errno);
			else if (n == 0)
				break;
		}
		if (got < sizeof(req))
			break;	/* the client closed its end: no more requests */
		queue_put(&r->queue, &req);
	}
	if (got)
		fprintf(stderr, "relay: the pipe ended in the middle of a request\n");
	queue_close(&r->queue);
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* ask - one request's round trip: down the pipe, and the answer read back from the eventfd */
static uint64_t ask(struct relay *r, const struct request *req)
{
	uint64_t start = now_ns(), answers;
	ssize_t n;

	if (write(r->req_write, req, sizeof(*req)) != sizeof(*req))
		die("write a request down the pipe", errno);
	do
		n = read(r->answer_fd, &answers, sizeof(answers));
	while (n < 0 && errno == EINTR);
	if (n != sizeof(answers))
		die("read the answer from the eventfd", n < 0 ? errno : EIO);
	if (answers != 1) {
		fprintf(stderr, "relay: %llu answers to one request\n", (unsigned long long)answers);
		exit(1);
	}
	return now_ns() - start;
}

/* wait_for_go - "round K" on stdout, then a line on stdin; false when stdin ended first */
static bool wait_for_go(unsigned long round)
{
	int c;

	printf("round %lu\n", round);
	fflush(stdout);
	while ((c = getchar()) != EOF && c != '\n')
		;
	return c == '\n';
}

/* sleep_until - sleep until @t_ns, CLOCK_MONOTONIC */
static void sleep_until(uint64_t t_ns)
{
	struct timespec t = { .tv_sec = t_ns / 1000000000, .tv_nsec = t_ns % 1000000000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
		;
}

static void *client(void *arg)
{
	struct relay *r = arg;
	uint64_t *rtt, interval_ns = r->opt.interval_us * 1000, due, now;
	struct request req = { 0 };
	unsigned long k, i;

	pthread_setname_np(pthread_self(), "relay-client");
	rtt = calloc(r->opt.per_round, sizeof(*rtt));
	if (!rtt)
		die("the round trips' memory", ENOMEM);
	for (k = 0; k < r->opt.rounds; k++) {
		if (r->opt.pause && !wait_for_go(k)) {
			fprintf(stderr, "relay: stdin ended before round %lu\n", k);
			r->client_status = 1;
			break;
		}
		due = now_ns();
		for (i = 0; i < r->opt.per_round; i++) {
			if (interval_ns)
				sleep_until(due);
			req.seq++;
			req.round = (uint32_t)k;
			rtt[i] = ask(r, &req);
			/* a request due while the last one was out is skipped, not sent late in a burst */
			now = now_ns();
			do
				due += interval_ns;
			while (interval_ns && due < now);
		}
		qsort(rtt, r->opt.per_round, sizeof(*rtt), cmp_u64);
		r->rounds[k].p50_ns = rtt[(r->opt.per_round - 1) / 2];
		r->rounds[k].max_ns = rtt[r->opt.per_round - 1];
		r->rounds_done++;
		r->requests += r->opt.per_round;
	}
	free(rtt);
	/* the dispatcher reads the end of the pipe, closes the queue, and the worker ends with it */
	close(r->req_write);
	r->req_write = -1;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t work_thread, disp_thread, client_thread;
	struct relay r = { .req_read = -1, .req_write = -1, .answer_fd = -1 };
	bool have_disp = false, have_client = false;
	int fds[2], err;
	unsigned long k;

	parse_options(&r.opt, argc, argv);
	r.rounds = calloc(r.opt.rounds, sizeof(*r.rounds));
	if (!r.rounds)
		die("the rounds' memory", ENOMEM);
	if (pipe2(fds, O_CLOEXEC))
		die("pipe2", errno);
	r.req_read = fds[0];
	r.req_write = fds[1];
	r.answer_fd = eventfd(0, EFD_CLOEXEC);
	if (r.answer_fd < 0)
		die("eventfd", errno);
	queue_init(&r.queue);

	/*
	 * the client and the dispatcher inherit this thread's CPU; the worker
	 * is moved to its own before there is a request it could take
	 */
	if (r.opt.worker_cpu >= 0) {
		err = pin(pthread_self(), r.opt.front_cpu);
		if (err)
			die("pin the client and the dispatcher", err);
	}
	err = pthread_create(&work_thread, NULL, worker, &r);
	if (err)
		die("start the worker", err);
	if (r.opt.worker_cpu >= 0) {
		err = pin(work_thread, r.opt.worker_cpu);
		if (err) {
			fprintf(stderr, "relay: pin the worker to CPU %d: %s\n", r.opt.worker_cpu, strerror(err));
			goto stop;
		}
	}
	err = pthread_create(&disp_thread, NULL, dispatcher, &r);
	if (err) {
		fprintf(stderr, "relay: start the dispatcher: %s\n", strerror(err));
		goto stop;
	}
	have_disp = true;
	err = pthread_create(&client_thread, NULL, client, &r);
	if (err) {
		fprintf(stderr, "relay: start the client: %s\n", strerror(err));
		goto stop;
	}
	have_client = true;

stop:
	/* what was started ends as a run's end ends it: the client's pipe, the dispatcher's queue */
	if (have_client)
		pthread_join(client_thread, NULL);
	else
		close(r.req_write);
	if (have_disp)
		pthread_join(disp_thread, NULL);
	else
		queue_close(&r.queue);
	pthread_join(work_thread, NULL);
	if (err)
		return 1;

	printf("done rounds=%lu requests=%llu\n", r.rounds_done, (unsigned long long)r.requests);
	for (k = 0; k < r.rounds_done; k++)
		printf("round %lu p50_us=%.1f max_us=%.1f\n", k, r.rounds[k].p50_ns / 1e3, r.rounds[k].max_ns / 1e3);
	close(r.req_read);
	close(r.answer_fd);
	free(r.rounds);
	return r.client_status;
}
