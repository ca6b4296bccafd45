// SPDX-License-Identifier: GPL-2.0
/*
 * ipc-stream - one process streams 10,000 rounds of messages of 1..155
 * bytes (1,550,000 messages, 120,900,000 bytes = 115.30 MiB) to another,
 * unpaced; how long until the producer is done, and until the last message
 * is received and checked? Seed 004's comparison of a UNIX domain socket
 * with a shared-memory ring guarded by process-shared POSIX semaphores, the
 * receiver busy or sleeping 1 us per batch (docs/seeds.md).
 *
 * The modes:
 * - unix: a SOCK_STREAM socketpair; one send() per message, a 4-byte length
 *   before each; the receiver reads up to IS_READ_SIZE bytes at a time and
 *   splits the byte stream back into records, a partial one carried over,
 *   all of it inside the end-to-end time (the seed left the splitting out).
 * - shm-bounded: a ring of --ring-size bytes in an anonymous MAP_SHARED
 *   mapping made before fork(); records are a 4-byte length, the message
 *   and padding to 4 bytes; a record that would cross the ring's end leaves
 *   a wrap marker and starts again at offset 0. Three semaphores live in
 *   the same shared control block, initialised with pshared 1 (sem_init(3)):
 *   `lock` guards head, tail and the flags, as the seed's sem_wait/sem_post
 *   pair did; `data` is where the consumer sleeps while the ring is empty,
 *   `room` where the producer sleeps while it is full. The producer copies
 *   each message in under the lock (the seed's push); the consumer takes
 *   every record there is as one batch under the lock, checks them in place
 *   with the lock released, then frees them under the lock again.
 * - shm-growable: the same records, but the buffer grows instead of
 *   blocking the producer, as the seed's ipc_vector grew its file with
 *   ftruncate(2). It is a memfd (anonymous: no name in any file system, gone
 *   when both processes are) mapped MAP_SHARED | MAP_NORESERVE over a range
 *   large enough for a whole run, before fork(): both processes map the
 *   same range of the same file, so when the producer ftruncate()s the file
 *   larger (doubling it), the new pages are there in both at once, with no
 *   message through the ring and no mremap(). The buffer is a log, not a
 *   ring: the producer appends at the tail, and when the consumer has taken
 *   everything, head and tail go back to 0 (a reset); the file never
 *   shrinks. A consumer that never catches up makes it grow to the whole
 *   run, which is the seed's unbounded buffer.
 *
 * The receiver is "busy" (it goes back for the next batch at once, and
 * sleeps in the ring's semaphore or in read() only when there is nothing)
 * or "sleep" (a 1 us nanosleep after each batch, the seed's usleep(1); the
 * timer slack makes it longer, and the time it really took is counted).
 *
 * The clock starts when both sides are ready: the consumer, a child made by
 * fork() and pinned to its CPU, has announced itself and sleeps in its
 * receive (state S in /proc/PID/stat). It stops twice in every run: when
 * the producer's last send returned ("producer", the seed's figure: the
 * time to fill a buffer, not to deliver) and when the consumer has received
 * and checked the last message ("end-to-end"); CLOCK_MONOTONIC is the same
 * clock in both processes. Every message's length and bytes are derived
 * from its index and checked on receipt; the counts of both ends must
 * match: a mismatch is one line and exit status 1.
 *
 * No child is left behind: it asks for SIGKILL when the thread that forked
 * it dies (prctl(2), PR_SET_PDEATHSIG; the producer thread, which always
 * reaps it before it returns) and leaves at once if that already happened;
 * on every failure the producer kills and reaps it, and its own waits on
 * the semaphores are timed so that a consumer that died is noticed.
 *
 * For a tracer: the producer thread is named is-producer, the consumer
 * process is-consumer (a new one per run), and --json counts the messages
 * and bytes each mode handed over, so wakeups per message is a division.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "parse.h"
#include "throughput.h"

#define IS_NAME			"ipc-stream"
#define IS_MAX_LEN		155	/* the seed's message lengths: 1 .. strlen(6 x "a..z") - 1 */
#define IS_PER_ROUND		IS_MAX_LEN
#define IS_ROUND_BYTES		(IS_MAX_LEN * (IS_MAX_LEN + 1) / 2)	/* 12090 */
#define IS_ALPHABET		26
#define IS_DEFAULT_ROUNDS	10000ull
#define IS_MAX_ROUNDS		100000ull
#define IS_DEFAULT_REPEAT	10
#define IS_DEFAULT_RING		65536ull
#define IS_MIN_RING		4096ull
#define IS_MAX_RING		(1ull << 30)
#define IS_READ_SIZE		65536	/* the unix receiver's read() */
#define IS_HDR			4	/* the length before each record */
#define IS_WRAP			0xffffffffu	/* a length that says: go back to offset 0 */
#define IS_POLL_NS		(100ull * 1000000ull)	/* how often a waiting producer looks at its child */
#define IS_READY_NS		(10ull * 1000000000ull)
#define IS_GRACE_NS		(1000ull * 1000000ull)	/* a consumer whose socket closed: time to die */
#define IS_SLEEP_NS		1000

enum is_mode {
	IS_UNIX,
	IS_SHM_BOUNDED,
	IS_SHM_GROWABLE,
	IS_NR_MODES,
};

static const char *const is_mode_names[IS_NR_MODES] = {
	[IS_UNIX] = "unix",
	[IS_SHM_BOUNDED] = "shm-bounded",
	[IS_SHM_GROWABLE] = "shm-growable",
};

enum is_receiver {
	IS_BUSY,
	IS_SLEEP,
	IS_NR_RECEIVERS,
};

static const char *const is_receiver_names[IS_NR_RECEIVERS] = { "busy", "sleep" };

enum is_stop {
	IS_STOP_PRODUCER,
	IS_STOP_END,
	IS_NR_STOPS,
};

static const char *const is_stop_names[IS_NR_STOPS] = { "producer", "end-to-end" };

struct is_options {
	struct tp_options tp;
	bool modes[IS_NR_MODES];
	bool receivers[IS_NR_RECEIVERS];
	uint64_t rounds;
	uint64_t ring_size;
	int sock_sndbuf;	/* what a socketpair of this run has, SO_SNDBUF and SO_RCVBUF */
	int sock_rcvbuf;
	int timer_slack_ns;	/* the consumer's, inherited: how long a 1 us sleep may become */
};

enum is_child_state {
	IS_CHILD_STARTING = 0,
	IS_CHILD_READY,		/* about to wait in its first receive */
	IS_CHILD_FAILED,	/* error says why; the child exits 1 */
};

/*
 * struct is_shared - what both processes see, in one anonymous MAP_SHARED
 * mapping made before fork(). The first block is the ring's, under `lock`;
 * the consumer's own block, on its own cache lines, is written by the
 * child only and read by the parent after it reaped the child.
 */
struct is_shared {
	sem_t lock;
	sem_t data;
	sem_t room;
	uint64_t head;		/* the first byte not yet taken */
	uint64_t tail;		/* the first byte not yet written */
	bool producer_waiting;	/* asleep in `room`: the consumer posts it when it frees bytes */
	bool consumer_waiting;	/* asleep in `data`: the producer posts it with its next record */
	bool producer_done;	/* no more records: an empty ring ends the consumer */

	_Alignas(64) int32_t state;	/* enum is_child_state */
	uint64_t done_ns;	/* the consumer's clock when the last message was checked */
	uint64_t received;
	uint64_t bytes_received;
	uint64_t wire_bytes;	/* every byte taken: lengths, padding, wrap markers */
	uint64_t batches;	/* receives that returned records: a read() or a ring batch */
	uint64_t reads;		/* unix: read() calls that returned bytes */
	uint64_t carries;	/* unix: reads that ended inside a record */
	uint64_t consumer_waits;	/* shm: sleeps in `data` on an empty ring */
	uint64_t lock_waits;	/* shm: takes of `lock` that found it held */
	uint64_t resets;	/* shm-growable: head and tail back to 0 */
	uint64_t sleeps;
	uint64_t sleep_ns;
	char error[160];
};

/* struct is_trial - one run: one mode, one receiver, the child made for it */
struct is_trial {
	enum is_mode mode;
	enum is_receiver receiver;
	uint64_t messages;
	uint64_t bytes;
	uint64_t ring_size;	/* shm-bounded: the ring; shm-growable: the file's first size */
	uint64_t reserve;	/* shm-growable: the mapped range, the most the file may grow to */
	int cpu;		/* the consumer's */
	struct is_shared *sh;
	char *data;		/* shm: the records */
	size_t data_len;	/* the mapping's length */
	int memfd;		/* shm-growable */
	int sock[2];		/* unix: [0] the producer's end, [1] the consumer's */
	uint64_t size;		/* shm: the ring's, or the file's now */

	pid_t child;
	bool reaped;
	bool killed;		/* by us, after a failure of our own: its status says nothing new */
	int status;
	struct rusage child_ru;

	/* the producer's */
	uint64_t start_ns;
	uint64_t producer_ns;	/* its clock when the last send returned */
	uint64_t sent;
	uint64_t bytes_sent;
	uint64_t wire_bytes;
	uint64_t writes;	/* unix: send() calls that took the rest of a record */
	uint64_t full_writes;	/* unix: sends that found no room and waited in poll() */
	uint64_t partial_writes;	/* unix: sends that took part of a record */
	uint64_t producer_waits;	/* shm-bounded: sleeps in `room` on a full ring */
	uint64_t lock_waits;
	uint64_t grows;		/* shm-growable: ftruncate()s */
	uint64_t peak_used;	/* shm: the most bytes the ring held */
	uint64_t cpu_ns;	/* the producer thread's CPU time in the window */
	uint64_t switches;	/* its voluntary context switches in the window */
	uint64_t preempted;	/* its involuntary ones */
	const char *failed;
	int failed_err;
};

/* what the producer thread is given and gives back */
struct is_run {
	const struct is_options *opt;
	/* [mode][receiver][stop] */
	struct tp_result results[IS_NR_MODES][IS_NR_RECEIVERS][IS_NR_STOPS];
	char error[320];
	int status;
};

/* the bytes every message is cut from: message k is IS_MAX_LEN... from offset k % 26 */
static char is_pattern[IS_ALPHABET + IS_MAX_LEN];

static void is_usage(FILE *out)
{
	fprintf(out,
		"Usage: %s [--mode M[,M...]] [--receiver R[,R...]] [--rounds N] [--ring-size B]\n"
		"          [--repeat R] [--cpus P,C] [--json]\n"
		"\n"
		"%s - one process streams N rounds of messages of 1..155 bytes (155 messages,\n"
		"12090 bytes a round; the default 10000 rounds are 1550000 messages, 120900000 bytes,\n"
		"115.30 MiB) to a second process made with fork(), unpaced; the time until the\n"
		"producer is done and until the last message is received and checked, per mode and\n"
		"receiver, over repeated runs (seed 004).\n"
		"\n"
		"Modes:\n"
		"  unix          a SOCK_STREAM socketpair, one send() per length-prefixed message; the\n"
		"                receiver reads %d bytes at a time and splits the stream into records\n"
		"  shm-bounded   a ring of --ring-size bytes in shared memory under process-shared\n"
		"                semaphores; the producer sleeps while it is full\n"
		"  shm-growable  the same, but a memfd that the producer grows with ftruncate() instead\n"
		"                of waiting (the seed's ipc_vector); reset to 0 when the consumer drained it\n"
		"  shm           both shm modes\n"
		"Receivers:\n"
		"  busy          back for the next batch at once; it sleeps only when there is nothing\n"
		"  sleep         a 1 us nanosleep after each batch (the seed's usleep(1))\n"
		"\n"
		"  -m, --mode M         modes, comma-separated, or all (default all)\n"
		"  -R, --receiver R     busy, sleep, comma-separated, or all (default all)\n"
		"  -n, --rounds N       rounds of 155 messages per run, 1 to %llu (default %llu)\n"
		"  -s, --ring-size B    the bounded ring's bytes, and the growable one's first size:\n"
		"                       a power of two from %llu to %llu (default %llu)\n"
		"  -r, --repeat R       runs of each mode and receiver (default %d)\n"
		"  -c, --cpus P,C       producer CPU P, consumer CPU C (default: the first two allowed)\n"
		"  -j, --json           one JSON document on stdout instead of the table\n"
		"  -h, --help           this text\n"
		"\n"
		"Each repeat runs every mode and receiver once, in turn, so that they share the\n"
		"machine's conditions. The clock starts once the consumer sleeps in its first receive;\n"
		"it stops when the producer's last send returned (stop \"producer\", the seed's figure)\n"
		"and when the consumer checked the last message (stop \"end-to-end\"). The defaults run\n"
		"6 x 10 runs of 115 MiB each and take minutes: about 70 s on a shared two-vCPU guest,\n"
		"most of it the unix runs (about 3 s each), more when its neighbours are busy.\n"
		"\n"
		"Examples:\n"
		"  %s --repeat 10\n"
		"  %s --mode unix,shm-bounded --receiver busy --rounds 1000 --json > is.json\n"
		"  %s --mode shm-bounded --ring-size 4096 --cpus 0,1 --repeat 3\n",
		IS_NAME, IS_NAME, IS_READ_SIZE, IS_MAX_ROUNDS, IS_DEFAULT_ROUNDS, IS_MIN_RING, IS_MAX_RING,
		IS_DEFAULT_RING, IS_DEFAULT_REPEAT, IS_NAME, IS_NAME, IS_NAME);
}

/* is_probe - what a socketpair of this run holds, and the timer slack the consumer inherits */
static int is_probe(struct is_options *opt)
{
	socklen_t len = sizeof(int);
	int sv[2], err = 0;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	if (getsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &opt->sock_sndbuf, &len) ||
	    getsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &opt->sock_rcvbuf, &len))
		err = -errno;
	close(sv[0]);
	close(sv[1]);
	opt->timer_slack_ns = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	return err;
}

static void is_parse_options(struct is_options *opt, int argc, char **argv)
{
	static const struct option longopts[] = {
		TP_LONGOPTS,
		{ "mode", required_argument, NULL, 'm' },
		{ "receiver", required_argument, NULL, 'R' },
		{ "rounds", required_argument, NULL, 'n' },
		{ "ring-size", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	static const bool shm_modes[IS_NR_MODES] = { [IS_SHM_BOUNDED] = true, [IS_SHM_GROWABLE] = true };
	int o, i, err;

	memset(opt, 0, sizeof(*opt));
	tp_options__init(&opt->tp, IS_NAME);
	/* a run is 115 MiB, not a burst of tasks: fewer repeats than the harness's default */
	opt->tp.repeat = IS_DEFAULT_REPEAT;
	for (i = 0; i < IS_NR_MODES; i++)
		opt->modes[i] = true;
	for (i = 0; i < IS_NR_RECEIVERS; i++)
		opt->receivers[i] = true;
	opt->rounds = IS_DEFAULT_ROUNDS;
	opt->ring_size = IS_DEFAULT_RING;

	opterr = 0;	/* one line per mistake: ours, naming the option */
	while ((o = getopt_long(argc, argv, ":" TP_SHORTOPTS "m:R:n:s:", longopts, NULL)) != -1) {
		if (tp_options__parse(&opt->tp, o, optarg, argc, argv))
			continue;
		switch (o) {
		case 'm':
			if (tp_parse_names(optarg, is_mode_names, IS_NR_MODES, "shm", shm_modes, opt->modes))
				tp_usage_error(IS_NAME, "--mode wants unix, shm-bounded, shm-growable, shm or all, "
					       "comma-separated, not '%s'", parse__shown(optarg));
			break;
		case 'R':
			if (tp_parse_names(optarg, is_receiver_names, IS_NR_RECEIVERS, NULL, NULL, opt->receivers))
				tp_usage_error(IS_NAME, "--receiver wants busy, sleep or all, comma-separated, "
					       "not '%s'", parse__shown(optarg));
			break;
		case 'n':
			if (parse__u64(optarg, 1, IS_MAX_ROUNDS, &opt->rounds))
				tp_usage_error(IS_NAME, "--rounds wants a whole number from 1 to %llu, not '%s'",
					       IS_MAX_ROUNDS, parse__shown(optarg));
			break;
		case 's':
			if (parse__u64(optarg, IS_MIN_RING, IS_MAX_RING, &opt->ring_size) ||
			    (opt->ring_size & (opt->ring_size - 1)))
				tp_usage_error(IS_NAME, "--ring-size wants a power of two from %llu to %llu bytes, "
					       "not '%s'", IS_MIN_RING, IS_MAX_RING, parse__shown(optarg));
			break;
		}
	}
	tp_options__finish(&opt->tp, argc, argv, is_usage);
	err = is_probe(opt);
	if (err) {
		fprintf(stderr, "%s: cannot make a socketpair: %s\n", IS_NAME, strerror(-err));
		exit(1);
	}
}

/* is_record_size - a record's bytes in the shm buffer: its length, the message, padding to 4 */
static inline uint64_t is_record_size(uint32_t len)
{
	return IS_HDR + ((len + 3u) & ~3u);
}

/* is_reserve - the most a growable buffer can hold: every record of the run, none taken */
static uint64_t is_reserve(uint64_t rounds, uint64_t first)
{
	uint64_t per_round = 0, page = (uint64_t)sysconf(_SC_PAGESIZE), total;
	uint32_t len;

	for (len = 1; len <= IS_MAX_LEN; len++)
		per_round += is_record_size(len);
	total = (rounds * per_round + page - 1) / page * page;
	return total > first ? total : first;
}

static void is_fail(struct is_trial *t, const char *what, int err)
{
	if (!t->failed) {
		t->failed = what;
		t->failed_err = err;
	}
}

/* ---------------------------------------------------------------- the consumer, in the child */

static void __attribute__((noreturn, format(printf, 2, 3)))
is_child_fail(struct is_shared *sh, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sh->error, sizeof(sh->error), fmt, ap);
	va_end(ap);
	__atomic_store_n(&sh->state, IS_CHILD_FAILED, __ATOMIC_RELEASE);
	_exit(1);
}

/*
 * is_take - the consumer has message @len bytes at @p: it must be the next
 * one, its length and every byte what its index says. The clock stops at
 * the last one.
 */
static inline void is_take(const struct is_trial *t, struct is_shared *sh, const char *p, uint32_t len)
{
	uint64_t k = sh->received;

	if (k >= t->messages)
		is_child_fail(sh, "the consumer received more than the %llu messages sent",
			      (unsigned long long)t->messages);
	if (len != k % IS_PER_ROUND + 1)
		is_child_fail(sh, "message %llu is %u bytes long, not %llu", (unsigned long long)k, len,
			      (unsigned long long)(k % IS_PER_ROUND + 1));
	if (memcmp(p, is_pattern + k % IS_ALPHABET, len))
		is_child_fail(sh, "message %llu (%u bytes) arrived with other bytes than were sent",
			      (unsigned long long)k, len);
	sh->received = k + 1;
	sh->bytes_received += len;
	if (k + 1 == t->messages)
		sh->done_ns = tp_now_ns();
}

/* is_receiver_pause - the "sleep" receiver's 1 us after a batch, and how long it really took */
static void is_receiver_pause(const struct is_trial *t, struct is_shared *sh)
{
	struct timespec ts = { 0, IS_SLEEP_NS };
	uint64_t t0;

	if (t->receiver != IS_SLEEP)
		return;
	t0 = tp_now_ns();
	nanosleep(&ts, NULL);
	sh->sleep_ns += tp_now_ns() - t0;
	sh->sleeps++;
}

static void is_consume_unix(const struct is_trial *t, struct is_shared *sh)
{
	static char buf[IS_READ_SIZE];
	size_t carry = 0, have, off;
	uint32_t len;
	ssize_t n;

	for (;;) {
		n = read(t->sock[1], buf + carry, sizeof(buf) - carry);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			is_child_fail(sh, "the consumer's read from the socket failed: %s", strerror(errno));
		if (n == 0)
			break;
		sh->reads++;
		sh->batches++;
		sh->wire_bytes += n;
		have = carry + n;
		for (off = 0; have - off >= IS_HDR; off += IS_HDR + len) {
			memcpy(&len, buf + off, IS_HDR);
			if (len == 0 || len > IS_MAX_LEN)
				is_child_fail(sh, "a record of %u bytes in the stream after message %llu", len,
					      (unsigned long long)sh->received);
			if (have - off < IS_HDR + len)
				break;
			is_take(t, sh, buf + off + IS_HDR, len);
		}
		/* the partial record left: source and destination may overlap, hence memmove */
		carry = have - off;
		if (carry) {
			sh->carries++;
			memmove(buf, buf + off, carry);
		}
		is_receiver_pause(t, sh);
	}
	if (carry)
		is_child_fail(sh, "the stream ended inside a record, after message %llu",
			      (unsigned long long)sh->received);
}

static void is_consumer_lock(struct is_shared *sh)
{
	if (!sem_trywait(&sh->lock))
		return;
	sh->lock_waits++;
	while (sem_wait(&sh->lock))
		if (errno != EINTR)
			is_child_fail(sh, "the consumer's sem_wait: %s", strerror(errno));
}

static void is_consumer_unlock(struct is_shared *sh, sem_t *sem)
{
	if (sem_post(sem))
		is_child_fail(sh, "the consumer's sem_post: %s", strerror(errno));
}

static void is_consume_shm(const struct is_trial *t, struct is_shared *sh)
{
	bool ring = t->mode == IS_SHM_BOUNDED;
	uint64_t mask = t->ring_size - 1, pos, end, off;
	uint32_t len;

	for (;;) {
		is_consumer_lock(sh);
		if (sh->head == sh->tail) {
			if (sh->producer_done) {
				is_consumer_unlock(sh, &sh->lock);
				return;
			}
			sh->consumer_waiting = true;
			is_consumer_unlock(sh, &sh->lock);
			sh->consumer_waits++;
			while (sem_wait(&sh->data))
				if (errno != EINTR)
					is_child_fail(sh, "the consumer's sem_wait: %s", strerror(errno));
			continue;
		}
		pos = sh->head;
		end = sh->tail;
		is_consumer_unlock(sh, &sh->lock);

		/* the batch: the producer writes only outside [head, tail), so it is read in place */
		sh->batches++;
		sh->wire_bytes += end - pos;
		while (pos < end) {
			off = ring ? pos & mask : pos;
			memcpy(&len, t->data + off, IS_HDR);
			if (ring && len == IS_WRAP) {
				pos += t->ring_size - off;
				continue;
			}
			if (len == 0 || len > IS_MAX_LEN)
				is_child_fail(sh, "a record of %u bytes in the ring after message %llu", len,
					      (unsigned long long)sh->received);
			is_take(t, sh, t->data + off + IS_HDR, len);
			pos += is_record_size(len);
		}
		if (pos != end)
			is_child_fail(sh, "the last record of a batch ran %llu bytes past its tail",
				      (unsigned long long)(pos - end));

		is_consumer_lock(sh);
		sh->head = end;
		if (!ring && sh->head == sh->tail) {
			/* drained: the log starts again at 0, and the pages written so far are reused */
			sh->head = 0;
			sh->tail = 0;
			sh->resets++;
		}
		if (sh->producer_waiting) {
			sh->producer_waiting = false;
			is_consumer_unlock(sh, &sh->room);
		}
		is_consumer_unlock(sh, &sh->lock);
		is_receiver_pause(t, sh);
	}
}

static void __attribute__((noreturn)) is_consumer_main(struct is_trial *t, pid_t parent)
{
	struct is_shared *sh = t->sh;
	int err;

	prctl(PR_SET_NAME, "is-consumer", 0, 0, 0);
	/* the signal comes when the forking thread (is-producer) ends, whatever ends it */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL))
		is_child_fail(sh, "prctl(PR_SET_PDEATHSIG): %s", strerror(errno));
	/* the parent died before we asked: nobody would ever feed or reap us */
	if (getppid() != parent)
		_exit(1);
	err = tp_pin_self(t->cpu);
	if (err)
		is_child_fail(sh, "cannot pin the consumer to CPU %d: %s", t->cpu, strerror(-err));
	if (t->mode == IS_UNIX) {
		close(t->sock[0]);
		t->sock[0] = -1;
	}
	__atomic_store_n(&sh->state, IS_CHILD_READY, __ATOMIC_RELEASE);
	if (t->mode == IS_UNIX)
		is_consume_unix(t, sh);
	else
		is_consume_shm(t, sh);
	_exit(0);
}

/* ---------------------------------------------------------------- the producer, in the parent */

/* is_child_exited - reap the child if it has exited; never blocks */
static bool is_child_exited(struct is_trial *t)
{
	pid_t r;

	if (t->reaped)
		return true;
	do {
		r = wait4(t->child, &t->status, WNOHANG, &t->child_ru);
	} while (r < 0 && errno == EINTR);
	if (r == 0)
		return false;
	t->reaped = true;
	if (r < 0)
		t->status = -1;	/* not ours to wait for any more: never signal it again */
	return true;
}

static void is_child_reap(struct is_trial *t)
{
	pid_t r;

	if (t->reaped || t->child <= 0)
		return;
	do {
		r = wait4(t->child, &t->status, 0, &t->child_ru);
	} while (r < 0 && errno == EINTR);
	t->reaped = true;
	if (r < 0)
		t->status = -1;
}

/*
 * is_child_kill - end the child and reap it. @grace_ns: how long to let it
 * exit by itself first, when the failure says it is on its way out (its
 * socket closed as it died, before it became a zombie), so that its own
 * cause of death is reported, not our SIGKILL.
 */
static void is_child_kill(struct is_trial *t, uint64_t grace_ns)
{
	struct timespec nap = { 0, 1000000 };
	uint64_t until = tp_now_ns() + grace_ns;

	if (t->child <= 0 || t->reaped)
		return;
	while (grace_ns && !is_child_exited(t) && tp_now_ns() < until)
		nanosleep(&nap, NULL);
	if (!is_child_exited(t)) {
		kill(t->child, SIGKILL);
		t->killed = true;
	}
	is_child_reap(t);
}

/*
 * is_sem_wait - the producer takes @sem, waking every IS_POLL_NS to see
 * whether the consumer died (it may hold the lock, or never free room).
 * 0, -ECHILD if the consumer is gone, or -errno.
 */
static int is_sem_wait(struct is_trial *t, sem_t *sem)
{
	struct timespec ts;
	uint64_t until;

	for (;;) {
		until = tp_now_ns() + IS_POLL_NS;
		ts.tv_sec = until / 1000000000ull;
		ts.tv_nsec = until % 1000000000ull;
		if (!sem_clockwait(sem, CLOCK_MONOTONIC, &ts))
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != ETIMEDOUT)
			return -errno;
		if (is_child_exited(t))
			return -ECHILD;
	}
}

static int is_lock(struct is_trial *t)
{
	if (!sem_trywait(&t->sh->lock))
		return 0;
	t->lock_waits++;
	return is_sem_wait(t, &t->sh->lock);
}

static int is_post(sem_t *sem)
{
	return sem_post(sem) ? -errno : 0;
}

/* is_grow - shm-growable: the file at least @want bytes, by doubling; 0 or -errno */
static int is_grow(struct is_trial *t, uint64_t want)
{
	uint64_t size = t->size;

	while (size < want)
		size *= 2;
	if (size > t->reserve)
		size = t->reserve;
	if (size < want)
		return -ENOSPC;	/* cannot happen: the reserve holds a whole run */
	if (ftruncate(t->memfd, (off_t)size))
		return -errno;
	t->size = size;
	t->grows++;
	return 0;
}

/* is_push - one message into the shm buffer, under the lock: the seed's push(); 0 or -errno */
static int is_push(struct is_trial *t, const char *msg, uint32_t len)
{
	struct is_shared *sh = t->sh;
	bool ring = t->mode == IS_SHM_BOUNDED;
	uint64_t need = is_record_size(len), pad = 0, off, used;
	int err;

	err = is_lock(t);
	if (err)
		return err;
	for (;;) {
		if (!ring) {
			off = sh->tail;
			if (off + need <= t->size)
				break;
			err = is_grow(t, off + need);
			if (err)
				goto unlock;
			break;
		}
		off = sh->tail & (t->ring_size - 1);
		pad = off + need > t->ring_size ? t->ring_size - off : 0;
		if (t->ring_size - (sh->tail - sh->head) >= pad + need)
			break;
		sh->producer_waiting = true;
		t->producer_waits++;
		err = is_post(&sh->lock);
		if (!err)
			err = is_sem_wait(t, &sh->room);
		if (!err)
			err = is_lock(t);
		if (err)
			return err;
	}
	if (pad) {
		/* off is a multiple of 4 below the ring's size: the marker fits before the end */
		uint32_t wrap = IS_WRAP;

		memcpy(t->data + off, &wrap, IS_HDR);
		sh->tail += pad;
		off = 0;
	}
	memcpy(t->data + off, &len, IS_HDR);
	memcpy(t->data + off + IS_HDR, msg, len);
	sh->tail += need;
	t->wire_bytes += pad + need;
	used = sh->tail - sh->head;
	if (used > t->peak_used)
		t->peak_used = used;
	if (sh->consumer_waiting) {
		sh->consumer_waiting = false;
		err = is_post(&sh->data);
	}
unlock:
	/* released on a failure too: the consumer is killed next, but not while we hold its lock */
	if (is_post(&sh->lock) && !err)
		err = -errno;
	return err;
}

/* is_produce_shm - every message into the ring; the end told under the lock */
static void is_produce_shm(struct is_trial *t)
{
	uint64_t k;
	uint32_t len;
	int err;

	for (k = 0; k < t->messages; k++) {
		len = (uint32_t)(k % IS_PER_ROUND) + 1;
		err = is_push(t, is_pattern + k % IS_ALPHABET, len);
		if (err) {
			is_fail(t, err == -ECHILD ? "the consumer died, so feeding it" : "a push into the ring", -err);
			return;
		}
		t->sent++;
		t->bytes_sent += len;
	}
	t->producer_ns = tp_now_ns();
	err = is_lock(t);
	if (!err) {
		t->sh->producer_done = true;
		if (t->sh->consumer_waiting) {
			t->sh->consumer_waiting = false;
			err = is_post(&t->sh->data);
		}
		if (!err)
			err = is_post(&t->sh->lock);
	}
	if (err)
		is_fail(t, "telling the consumer the end", -err);
}

/*
 * is_send - one record into the socket. MSG_DONTWAIT so that a send that
 * finds no room is counted before it waits in poll(), the blocking send
 * the seed did made visible; MSG_NOSIGNAL so that a consumer that died is
 * an EPIPE, not a SIGPIPE. 0 or -errno.
 */
static int is_send(struct is_trial *t, const char *rec, size_t size)
{
	struct pollfd pfd = { .fd = t->sock[0], .events = POLLOUT };
	size_t off = 0;
	ssize_t n;

	for (;;) {
		n = send(t->sock[0], rec + off, size - off, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n == (ssize_t)(size - off)) {
			t->writes++;
			t->wire_bytes += size;
			return 0;
		}
		if (n > 0) {
			t->partial_writes++;
			off += n;
			continue;
		}
		if (n == 0)
			return -EIO;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return -errno;
		t->full_writes++;
		/* POLLHUP or POLLERR when the consumer is gone: the next send says EPIPE */
		while (poll(&pfd, 1, -1) < 0)
			if (errno != EINTR)
				return -errno;
	}
}

static void is_produce_unix(struct is_trial *t)
{
	char rec[IS_HDR + IS_MAX_LEN];
	uint64_t k;
	uint32_t len;
	int err;

	for (k = 0; k < t->messages; k++) {
		len = (uint32_t)(k % IS_PER_ROUND) + 1;
		memcpy(rec, &len, IS_HDR);
		memcpy(rec + IS_HDR, is_pattern + k % IS_ALPHABET, len);
		err = is_send(t, rec, IS_HDR + len);
		if (err) {
			is_fail(t, "a send into the socket", -err);
			return;
		}
		t->sent++;
		t->bytes_sent += len;
	}
	t->producer_ns = tp_now_ns();
	/* the end of the stream: a consumer still short of messages sees EOF rather than waiting */
	if (shutdown(t->sock[0], SHUT_WR))
		is_fail(t, "shutdown of the socket", errno);
}

/*
 * is_wait_asleep - the start: the consumer announced itself and sleeps
 * (state S in /proc/PID/stat), so it waits in its first receive. 0,
 * -ECHILD if it ended, -ETIMEDOUT if it never slept.
 */
static int is_wait_asleep(struct is_trial *t)
{
	uint64_t deadline = tp_now_ns() + IS_READY_NS;
	char path[64];
	int asleep;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)t->child);
	while (tp_now_ns() <= deadline) {
		if (is_child_exited(t))
			return -ECHILD;
		if (__atomic_load_n(&t->sh->state, __ATOMIC_ACQUIRE) == IS_CHILD_READY) {
			asleep = tp_proc_asleep(path);
			if (asleep)
				return asleep < 0 ? asleep : 0;
		}
		sched_yield();
	}
	return -ETIMEDOUT;
}

static void is_trial__free(struct is_trial *t)
{
	is_child_kill(t, 0);
	if (t->sh) {
		sem_destroy(&t->sh->lock);
		sem_destroy(&t->sh->data);
		sem_destroy(&t->sh->room);
		munmap(t->sh, sizeof(*t->sh));
	}
	if (t->data)
		munmap(t->data, t->data_len);
	if (t->memfd >= 0)
		close(t->memfd);
	if (t->sock[0] >= 0)
		close(t->sock[0]);
	if (t->sock[1] >= 0)
		close(t->sock[1]);
}

/* is_trial__init - everything one run needs, made before the fork and the clock: 0 or -errno */
static int is_trial__init(struct is_trial *t, const struct is_options *opt, enum is_mode mode,
			  enum is_receiver receiver)
{
	void *mem;

	memset(t, 0, sizeof(*t));
	t->memfd = -1;
	t->sock[0] = -1;
	t->sock[1] = -1;
	t->child = -1;
	t->mode = mode;
	t->receiver = receiver;
	t->messages = opt->rounds * IS_PER_ROUND;
	t->bytes = opt->rounds * IS_ROUND_BYTES;
	t->ring_size = opt->ring_size;
	t->cpu = opt->tp.cpu[1];

	mem = mmap(NULL, sizeof(*t->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return -errno;
	t->sh = mem;
	if (sem_init(&t->sh->lock, 1, 1) || sem_init(&t->sh->data, 1, 0) || sem_init(&t->sh->room, 1, 0))
		return -errno;

	switch (mode) {
	case IS_UNIX:
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, t->sock))
			return -errno;
		return 0;
	case IS_SHM_BOUNDED:
		t->size = t->ring_size;
		t->data_len = t->ring_size;
		mem = mmap(NULL, t->data_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		break;
	default:
		t->reserve = is_reserve(opt->rounds, t->ring_size);
		t->size = t->ring_size;
		t->data_len = t->reserve;
		t->memfd = memfd_create("ipc-stream", MFD_CLOEXEC);
		if (t->memfd < 0)
			return -errno;
		if (ftruncate(t->memfd, (off_t)t->size))
			return -errno;
		/* the whole range now, the file grows under it: both processes see each new page */
		mem = mmap(NULL, t->data_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, t->memfd, 0);
		break;
	}
	if (mem == MAP_FAILED)
		return -errno;
	t->data = mem;
	return 0;
}

/*
 * is_trial__run - one run: fork the consumer, wait until it sleeps, stream,
 * reap it. Failures are in t->failed; the child is reaped on every path.
 */
static void is_trial__run(struct is_trial *t)
{
	struct rusage before, after;
	uint64_t cpu0;
	pid_t parent = getpid();
	int err;

	fflush(NULL);
	t->child = fork();
	if (t->child < 0) {
		is_fail(t, "fork", errno);
		return;
	}
	if (t->child == 0)
		is_consumer_main(t, parent);
	if (t->mode == IS_UNIX) {
		close(t->sock[1]);
		t->sock[1] = -1;
	}
	err = is_wait_asleep(t);
	if (err) {
		is_fail(t, err == -ECHILD ? "the consumer's start" : "waiting for the consumer to sleep",
			err == -ECHILD ? 0 : -err);
		is_child_kill(t, 0);
		return;
	}
	getrusage(RUSAGE_THREAD, &before);
	cpu0 = tp_thread_cpu_ns();
	t->start_ns = tp_now_ns();
	if (t->mode == IS_UNIX)
		is_produce_unix(t);
	else
		is_produce_shm(t);
	t->cpu_ns = tp_thread_cpu_ns() - cpu0;
	getrusage(RUSAGE_THREAD, &after);
	t->switches = (uint64_t)(after.ru_nvcsw - before.ru_nvcsw);
	t->preempted = (uint64_t)(after.ru_nivcsw - before.ru_nivcsw);
	if (t->failed) {
		bool peer_gone = t->failed_err == EPIPE || t->failed_err == ECONNRESET;

		is_child_kill(t, peer_gone ? IS_GRACE_NS : 0);
		return;
	}
	is_child_reap(t);
}

/*
 * is_trial__check - the counts of both ends, checked rather than trusted:
 * one line in @msg and -EPROTO when one is off, -EIO when a call failed.
 */
static int is_trial__check(const struct is_trial *t, char *msg, size_t len)
{
	const struct is_shared *sh = t->sh;
	int n = snprintf(msg, len, "%s, %s receiver: ", is_mode_names[t->mode], is_receiver_names[t->receiver]);

	msg += n;
	len -= n;
	if (__atomic_load_n(&sh->state, __ATOMIC_ACQUIRE) == IS_CHILD_FAILED) {
		snprintf(msg, len, "%s", sh->error);
		return -EPROTO;
	}
	/* a consumer that died by itself explains the producer's failure better than the failure does */
	if (t->reaped && !t->killed && (t->status < 0 || !WIFEXITED(t->status) || WEXITSTATUS(t->status))) {
		if (t->status >= 0 && WIFSIGNALED(t->status))
			snprintf(msg, len, "the consumer was killed by signal %d (%s)", WTERMSIG(t->status),
				 strsignal(WTERMSIG(t->status)));
		else
			snprintf(msg, len, "the consumer ended with status 0x%x", (unsigned int)t->status);
		return -EIO;
	}
	if (t->failed) {
		snprintf(msg, len, "%s failed%s%s", t->failed, t->failed_err ? ": " : "",
			 t->failed_err ? strerror(t->failed_err) : "");
		return -EIO;
	}
	if (t->sent != t->messages || t->bytes_sent != t->bytes) {
		snprintf(msg, len, "the producer sent %llu messages of %llu bytes, not %llu of %llu",
			 (unsigned long long)t->sent, (unsigned long long)t->bytes_sent,
			 (unsigned long long)t->messages, (unsigned long long)t->bytes);
		return -EPROTO;
	}
	if (sh->received != t->sent || sh->bytes_received != t->bytes_sent) {
		snprintf(msg, len, "the consumer received %llu messages of %llu bytes, the producer sent %llu of %llu",
			 (unsigned long long)sh->received, (unsigned long long)sh->bytes_received,
			 (unsigned long long)t->sent, (unsigned long long)t->bytes_sent);
		return -EPROTO;
	}
	if (sh->wire_bytes != t->wire_bytes) {
		snprintf(msg, len, "%llu bytes went in with their lengths and padding, %llu came out",
			 (unsigned long long)t->wire_bytes, (unsigned long long)sh->wire_bytes);
		return -EPROTO;
	}
	if (sh->done_ns < t->start_ns || t->producer_ns < t->start_ns) {
		snprintf(msg, len, "a clock went backwards: start %llu, producer %llu, consumer %llu ns",
			 (unsigned long long)t->start_ns, (unsigned long long)t->producer_ns,
			 (unsigned long long)sh->done_ns);
		return -EPROTO;
	}
	return 0;
}

static uint64_t is_timeval_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull + (uint64_t)tv->tv_usec * 1000ull;
}

/* is_result__add - one checked run's counts into @r; the same counts go into both stop points' rows */
static void is_result__add(struct tp_result *r, const struct is_trial *t)
{
	const struct is_shared *sh = t->sh;

	tp_result__count(r, "sent", t->sent);
	tp_result__count(r, "received", sh->received);
	tp_result__count(r, "bytes_sent", t->bytes_sent);
	tp_result__count(r, "bytes_received", sh->bytes_received);
	tp_result__count(r, "wire_bytes", t->wire_bytes);
	tp_result__count(r, "batches", sh->batches);
	tp_result__count(r, "receiver_sleeps", sh->sleeps);
	tp_result__count(r, "receiver_sleep_ns", sh->sleep_ns);
	tp_result__count(r, "producer_cpu_ns", t->cpu_ns);
	tp_result__count(r, "producer_switches", t->switches);
	tp_result__count(r, "producer_preempted", t->preempted);
	tp_result__count(r, "consumer_cpu_ns",
			 is_timeval_ns(&t->child_ru.ru_utime) + is_timeval_ns(&t->child_ru.ru_stime));
	tp_result__count(r, "consumer_switches", (uint64_t)t->child_ru.ru_nvcsw);
	tp_result__count(r, "consumer_preempted", (uint64_t)t->child_ru.ru_nivcsw);
	if (t->mode == IS_UNIX) {
		tp_result__count(r, "writes", t->writes);
		tp_result__count(r, "full_writes", t->full_writes);
		tp_result__count(r, "partial_writes", t->partial_writes);
		tp_result__count(r, "reads", sh->reads);
		tp_result__count(r, "carries", sh->carries);
		return;
	}
	tp_result__count(r, "producer_waits", t->producer_waits);
	tp_result__count(r, "consumer_waits", sh->consumer_waits);
	tp_result__count(r, "producer_lock_waits", t->lock_waits);
	tp_result__count(r, "consumer_lock_waits", sh->lock_waits);
	tp_result__count_max(r, "peak_used_max", t->peak_used);
	if (t->mode == IS_SHM_GROWABLE) {
		tp_result__count(r, "grows", t->grows);
		tp_result__count(r, "resets", sh->resets);
		tp_result__count_max(r, "peak_size_max", t->size);
	}
}

static void *is_producer_main(void *arg)
{
	struct is_run *run = arg;
	const struct is_options *opt = run->opt;
	uint64_t repeat = opt->tp.repeat, r;
	double *ns[IS_NR_MODES][IS_NR_RECEIVERS][IS_NR_STOPS] = { { { NULL } } };
	double mib = opt->rounds * IS_ROUND_BYTES / 1048576.0, msgs = opt->rounds * IS_PER_ROUND;
	struct is_trial trial;
	struct tp_result *res;
	char msg[240];
	int m, v, s, err;

	prctl(PR_SET_NAME, "is-producer", 0, 0, 0);
	for (m = 0; m < IS_NR_MODES; m++) {
		for (v = 0; v < IS_NR_RECEIVERS; v++) {
			if (!opt->modes[m] || !opt->receivers[v])
				continue;
			for (s = 0; s < IS_NR_STOPS; s++) {
				res = &run->results[m][v][s];
				res->mode = is_mode_names[m];
				res->units = opt->rounds * IS_PER_ROUND;
				res->start = "ready";
				res->variant_key = "receiver";
				res->variant = is_receiver_names[v];
				res->stop = is_stop_names[s];
				ns[m][v][s] = calloc(repeat, sizeof(double));
				if (!ns[m][v][s]) {
					snprintf(run->error, sizeof(run->error), "out of memory");
					run->status = 1;
					goto out;
				}
			}
		}
	}
	/* each repeat runs every mode and receiver once: they share the machine's moods */
	for (r = 0; r < repeat; r++) {
		for (m = 0; m < IS_NR_MODES; m++) {
			for (v = 0; v < IS_NR_RECEIVERS; v++) {
				if (!opt->modes[m] || !opt->receivers[v])
					continue;
				err = is_trial__init(&trial, opt, m, v);
				if (err) {
					snprintf(run->error, sizeof(run->error), "%s, %s receiver: cannot set up a run: %s",
						 is_mode_names[m], is_receiver_names[v], strerror(-err));
					is_trial__free(&trial);
					run->status = 1;
					goto out;
				}
				is_trial__run(&trial);
				err = is_trial__check(&trial, msg, sizeof(msg));
				if (err) {
					snprintf(run->error, sizeof(run->error), "run %llu of %s", (unsigned long long)r + 1,
						 msg);
					is_trial__free(&trial);
					run->status = 1;
					goto out;
				}
				ns[m][v][IS_STOP_PRODUCER][r] = (double)(trial.producer_ns - trial.start_ns);
				ns[m][v][IS_STOP_END][r] = (double)(trial.sh->done_ns - trial.start_ns);
				for (s = 0; s < IS_NR_STOPS; s++)
					is_result__add(&run->results[m][v][s], &trial);
				is_trial__free(&trial);
			}
		}
	}
	for (m = 0; m < IS_NR_MODES; m++) {
		for (v = 0; v < IS_NR_RECEIVERS; v++) {
			for (s = 0; s < IS_NR_STOPS; s++) {
				if (!ns[m][v][s])
					continue;
				res = &run->results[m][v][s];
				/* a run that took no time has no rate: the rates stay out rather than be wrong */
				tp_result__rate(res, "mib_per_s", "MiB/s", mib, ns[m][v][s], repeat);
				tp_result__rate(res, "messages_per_s", "msg/s", msgs, ns[m][v][s], repeat);
				tp_stats__of(ns[m][v][s], repeat, &res->ns);
			}
		}
	}
out:
	for (m = 0; m < IS_NR_MODES; m++)
		for (v = 0; v < IS_NR_RECEIVERS; v++)
			for (s = 0; s < IS_NR_STOPS; s++)
				free(ns[m][v][s]);
	return NULL;
}

/* is_note - the table's last column: what one run did, on average */
static const char *is_note(const struct tp_result *r, char *buf, size_t len)
{
	double runs = r->ns.n ? (double)r->ns.n : 1;
	double batches = tp_result__counter(r, "batches") / runs;
	double per_batch = batches > 0 ? tp_result__counter(r, "received") / runs / batches : 0;

	if (!strcmp(r->mode, "unix"))
		snprintf(buf, len, "%.0f reads of %.1f msg, %.0f full writes", batches, per_batch,
			 tp_result__counter(r, "full_writes") / runs);
	else
		snprintf(buf, len, "%.0f batches of %.1f msg, waits P %.0f C %.0f, lock waits P %.0f C %.0f", batches,
			 per_batch, tp_result__counter(r, "producer_waits") / runs,
			 tp_result__counter(r, "consumer_waits") / runs,
			 tp_result__counter(r, "producer_lock_waits") / runs,
			 tp_result__counter(r, "consumer_lock_waits") / runs);
	return buf;
}

static void is_print_table(const struct is_options *opt, const struct is_run *run)
{
	const struct tp_result *first = NULL, *r;
	char note[160], label[64];
	int m, v, s;

	printf("%s: producer on CPU %d, consumer (a child process) on CPU %d, %llu runs per row, CLOCK_MONOTONIC\n",
	       IS_NAME, opt->tp.cpu[0], opt->tp.cpu[1], (unsigned long long)opt->tp.repeat);
	printf("a run: %llu rounds of messages of 1..%d bytes: %llu messages, %llu bytes (%.2f MiB); "
	       "bounded ring %llu bytes, socket buffers %d/%d bytes\n",
	       (unsigned long long)opt->rounds, IS_MAX_LEN, (unsigned long long)(opt->rounds * IS_PER_ROUND),
	       (unsigned long long)(opt->rounds * IS_ROUND_BYTES), opt->rounds * IS_ROUND_BYTES / 1048576.0,
	       (unsigned long long)opt->ring_size, opt->sock_sndbuf, opt->sock_rcvbuf);
	printf("the clock starts once the consumer sleeps in its first receive; it stops at the producer's last "
	       "send (producer) or the last message checked (end-to-end)\n\n");
	for (m = 0; m < IS_NR_MODES && !first; m++)
		for (v = 0; v < IS_NR_RECEIVERS && !first; v++)
			if (opt->modes[m] && opt->receivers[v])
				first = &run->results[m][v][0];
	if (!first)
		return;
	tp_table__rates_header(stdout, "mode         receiver stop", first, "msg");
	for (m = 0; m < IS_NR_MODES; m++) {
		for (v = 0; v < IS_NR_RECEIVERS; v++) {
			if (!opt->modes[m] || !opt->receivers[v])
				continue;
			for (s = 0; s < IS_NR_STOPS; s++) {
				r = &run->results[m][v][s];
				snprintf(label, sizeof(label), "%-12s %-8s %s", r->mode, r->variant, r->stop);
				tp_table__rates_row(stdout, label, r, s == IS_STOP_END ? is_note(r, note, sizeof(note)) : "");
			}
		}
	}
}

static int is_print_json(const struct is_options *opt, const struct is_run *run)
{
	struct tp_result flat[IS_NR_MODES * IS_NR_RECEIVERS * IS_NR_STOPS];
	uint64_t messages[IS_NR_MODES] = { 0 }, bytes[IS_NR_MODES] = { 0 };
	struct json_writer w;
	size_t n = 0;
	int m, v, s;

	for (m = 0; m < IS_NR_MODES; m++) {
		for (v = 0; v < IS_NR_RECEIVERS; v++) {
			if (!opt->modes[m] || !opt->receivers[v])
				continue;
			for (s = 0; s < IS_NR_STOPS; s++)
				flat[n++] = run->results[m][v][s];
			/* once per run, not once per stop point */
			messages[m] += tp_result__counter(&run->results[m][v][0], "received");
			bytes[m] += tp_result__counter(&run->results[m][v][0], "bytes_received");
		}
	}
	json_writer__init(&w, stdout);
	tp_json__begin(&w, &opt->tp, "producer", "consumer");
	tp_json__names(&w, "modes", is_mode_names, opt->modes, IS_NR_MODES);
	tp_json__names(&w, "receivers", is_receiver_names, opt->receivers, IS_NR_RECEIVERS);
	json_writer__put_uint(&w, "rounds", opt->rounds);
	json_writer__put_uint(&w, "messages_per_run", opt->rounds * IS_PER_ROUND);
	json_writer__put_uint(&w, "bytes_per_run", opt->rounds * IS_ROUND_BYTES);
	json_writer__key(&w, "mib_per_run");
	json_writer__double(&w, opt->rounds * IS_ROUND_BYTES / 1048576.0);
	json_writer__put_uint(&w, "ring_size", opt->ring_size);
	json_writer__put_uint(&w, "growable_reserve", is_reserve(opt->rounds, opt->ring_size));
	json_writer__put_int(&w, "read_size", IS_READ_SIZE);
	json_writer__put_int(&w, "socket_sndbuf", opt->sock_sndbuf);
	json_writer__put_int(&w, "socket_rcvbuf", opt->sock_rcvbuf);
	json_writer__put_int(&w, "receiver_sleep_ns", IS_SLEEP_NS);
	json_writer__put_int(&w, "timer_slack_ns", opt->timer_slack_ns);
	tp_json__results(&w, flat, n, "messages", "message");

	/* what a tracer divides by: every message and byte handed over, per mode, all runs */
	tp_json__per_name(&w, "handed_over", is_mode_names, opt->modes, messages, IS_NR_MODES);
	tp_json__per_name(&w, "handed_over_bytes", is_mode_names, opt->modes, bytes, IS_NR_MODES);
	json_writer__key(&w, "threads");
	json_writer__begin_object(&w);
	json_writer__key(&w, "producer");
	json_writer__string(&w, "is-producer");
	json_writer__key(&w, "consumer");
	json_writer__string(&w, "is-consumer");
	json_writer__end_object(&w);
	json_writer__end_object(&w);
	return json_writer__finish(&w);
}

int main(int argc, char **argv)
{
	static struct is_run run;
	struct is_options opt;
	int err, i;

	is_parse_options(&opt, argc, argv);
	for (i = 0; i < (int)sizeof(is_pattern); i++)
		is_pattern[i] = (char)('a' + i % IS_ALPHABET);
	/* an inherited SIG_IGN would have the kernel reap the consumer and hide its status */
	signal(SIGCHLD, SIG_DFL);
	run.opt = &opt;
	err = tp_run_thread(opt.tp.cpu[0], is_producer_main, &run);
	if (err) {
		fprintf(stderr, "%s: cannot run the producer on CPU %d: %s\n", IS_NAME, opt.tp.cpu[0], strerror(-err));
		return 1;
	}
	if (run.status) {
		fprintf(stderr, "%s: %s\n", IS_NAME, run.error);
		return run.status;
	}
	if (opt.tp.json)
		err = is_print_json(&opt, &run);
	else
		is_print_table(&opt, &run);
	return tp_results_out(IS_NAME, err);
}
