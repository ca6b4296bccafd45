// SPDX-License-Identifier: GPL-2.0
/*
 * test_fd_names.c - attach mode names each kind of fd a wakeup goes
 * through as the kernel found it while the syscall ran: a child wakes a
 * thread of its own through a pipe, a FIFO, an eventfd, unix stream,
 * datagram and seqpacket sockets, TCP and UDP on loopback, a signalfd, a
 * timerfd, inotify, a POSIX message queue and a pseudo-terminal, and then
 * closes each fd, long before wakeprobe reports. Needs root and BTF.
 * (An fd a sleeper's close() already took out of its table is "fd N
 * (closed)": closing the pseudo-terminal waits for a kernel worker.)
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/inotify.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include "helpers.h"
#include "readback.h"

#define ROUNDS		6	/* wakeups per kind */
#define GAP_US		3000	/* between them: the reader is asleep when each comes */

enum kind { PIPE, FIFO, EVENTFD, UNIX_STREAM, UNIX_DGRAM, UNIX_SEQPACKET, TCP, UDP, SIGNALFD, TIMERFD, INOTIFY,
	    MQUEUE, TTY, NR_KINDS };

/* the paths the child makes: the test names them after its own pid, and removes them */
static char fifo_path[64], watch_dir[64], mq_name[64];

/* one kind's two ends: the reader blocks on rd, the writer's call on wr wakes it */
struct ends {
	enum kind kind;
	int rd, wr;
	mqd_t mq;
	struct sockaddr_in udp_to;
};

static void *reader(void *arg)
{
	struct ends *e = arg;
	char buf[256];

	for (int i = 0; i < ROUNDS; i++) {
		if (e->kind == MQUEUE) {
			if (mq_receive(e->mq, buf, sizeof(buf), NULL) < 0)
				_exit(81);
		} else if (read(e->rd, buf, sizeof(buf)) <= 0) {
			_exit(80);
		}
	}
	return NULL;
}

/* tcp_pair - a connected TCP pair on loopback: @rd the accepted end */
static void tcp_pair(struct ends *e)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM, 0);

	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&a, &len))
		_exit(82);
	e->wr = socket(AF_INET, SOCK_STREAM, 0);
	if (e->wr < 0 || connect(e->wr, (struct sockaddr *)&a, sizeof(a)))
		_exit(82);
	e->rd = accept(l, NULL, NULL);
	close(l);
}

static void open_ends(struct ends *e)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct mq_attr attr = { .mq_maxmsg = 8, .mq_msgsize = 64 };
	struct itimerspec every = { .it_interval.tv_nsec = GAP_US * 1000, .it_value.tv_nsec = GAP_US * 1000 };
	socklen_t len = sizeof(a);
	sigset_t usr1;
	int p[2] = { -1, -1 };

	e->rd = e->wr = -1;
	switch (e->kind) {
	case PIPE:
		if (pipe(p))
			_exit(83);
		break;
	case FIFO:
		if (mkfifo(fifo_path, 0600))
			_exit(83);
		p[0] = open(fifo_path, O_RDWR);
		p[1] = open(fifo_path, O_WRONLY);
		break;
	case EVENTFD:
		p[0] = p[1] = eventfd(0, 0);
		break;
	case UNIX_STREAM:
	case UNIX_DGRAM:
	case UNIX_SEQPACKET:
		if (socketpair(AF_UNIX, e->kind == UNIX_STREAM ? SOCK_STREAM : e->kind == UNIX_DGRAM ? SOCK_DGRAM :
			       SOCK_SEQPACKET, 0, p))
			_exit(83);
		break;
	case TCP:
		tcp_pair(e);
		return;
	case UDP:
		p[0] = socket(AF_INET, SOCK_DGRAM, 0);
		p[1] = socket(AF_INET, SOCK_DGRAM, 0);
		if (bind(p[0], (struct sockaddr *)&a, sizeof(a)) || getsockname(p[0], (struct sockaddr *)&a, &len))
			_exit(83);
		e->udp_to = a;
		break;
	case SIGNALFD:
		/* every thread blocks it (the mask is inherited): only the signalfd takes it */
		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		pthread_sigmask(SIG_BLOCK, &usr1, NULL);
		p[0] = signalfd(-1, &usr1, 0);
		break;
	case TIMERFD:
		p[0] = timerfd_create(CLOCK_MONOTONIC, 0);
		if (timerfd_settime(p[0], 0, &every, NULL))
			_exit(83);
		break;
	case INOTIFY:
		p[0] = inotify_init();
		if (mkdir(watch_dir, 0700) || inotify_add_watch(p[0], watch_dir, IN_CREATE) < 0)
			_exit(83);
		break;
	case MQUEUE:
		e->mq = mq_open(mq_name, O_CREAT | O_RDWR, 0600, &attr);
		if (e->mq == (mqd_t)-1)
			_exit(83);
		return;
	case TTY:
		p[1] = posix_openpt(O_RDWR | O_NOCTTY);
		if (p[1] < 0 || grantpt(p[1]) || unlockpt(p[1]))
			_exit(83);
		p[0] = open(ptsname(p[1]), O_RDWR | O_NOCTTY);
		break;
	default:
		break;
	}
	e->rd = p[0];
	e->wr = p[1];
}

/* wake - the writer's turn @i: the one call that wakes the reader */
static void wake(struct ends *e, int i)
{
	char path[96];

	switch (e->kind) {
	case UDP:
		sendto(e->wr, "u", 1, 0, (struct sockaddr *)&e->udp_to, sizeof(e->udp_to));
		break;
	case SIGNALFD:
		kill(getpid(), SIGUSR1);
		break;
	case TIMERFD:
		break;
	case INOTIFY:
		snprintf(path, sizeof(path), "%s/%d", watch_dir, i);
		close(open(path, O_CREAT | O_WRONLY, 0600));
		unlink(path);
		break;
	case MQUEUE:
		mq_send(e->mq, "m", 1, 0);
		break;
	case TTY:
		if (write(e->wr, "t\n", 2) != 2)
			_exit(84);
		break;
	default:
		if (write(e->wr, "\1\0\0\0\0\0\0\0", 8) != 8)
			_exit(84);
		break;
	}
}

static void close_ends(struct ends *e)
{
	if (e->kind == MQUEUE) {
		mq_close(e->mq);
		mq_unlink(mq_name);
	}
	if (e->rd >= 0)
		close(e->rd);
	if (e->wr >= 0 && e->wr != e->rd)
		close(e->wr);
	if (e->kind == FIFO)
		unlink(fifo_path);
	if (e->kind == INOTIFY)
		rmdir(watch_dir);
}

/* every_kind - the traced child: each kind in turn, a reader thread woken ROUNDS times through it */
static void every_kind(void)
{
	for (int k = 0; k < NR_KINDS; k++) {
		struct ends e = { .kind = k };
		pthread_t t;

		open_ends(&e);
		if (pthread_create(&t, NULL, reader, &e))
			_exit(85);
		for (int i = 0; i < ROUNDS; i++) {
			usleep(GAP_US);
			wake(&e, i);
		}
		pthread_join(t, NULL);
		close_ends(&e);
	}
}

/*
 * Each kind's wakeups have a pair whose mechanism names the kind, at the
 * waker's end or the wait's; an fd is never left as a number: all were
 * closed by the time wakeprobe named them, and none was open at the attach.
 */
Test(fd_names, every_kind_of_fd_a_wakeup_goes_through_is_named_as_the_kernel_found_it, .timeout = 120)
{
	char json[64];

	skip_unless_traceable();
	snprintf(fifo_path, sizeof(fifo_path), "/tmp/wakeprobe-test-fifo-%d", (int)getpid());
	snprintf(watch_dir, sizeof(watch_dir), "/tmp/wakeprobe-test-watch-%d", (int)getpid());
	snprintf(mq_name, sizeof(mq_name), "/wakeprobe-test-%d", (int)getpid());
	trace_body(every_kind, "the child", json);
	cr_assert(json_check(json,
			     "mechs = {}\n"
			     "for p in d['pairs']:\n"
			     "    mechs[p['mechanism']] = mechs.get(p['mechanism'], 0) + p['count']\n"
			     "want = ['pipe write -> read', 'fifo write -> read', 'eventfd write -> read',\n"
			     "        'unix stream socket write -> read', 'unix dgram socket write -> read',\n"
			     "        'unix seqpacket socket write -> read', 'tcp socket read', 'udp socket read',\n"
			     "        'signalfd read', 'timerfd read', 'inotify read', 'mqueue send -> receive',\n"
			     "        'tty read']\n"
			     "for w in want:\n"
			     "    n = sum(c for m, c in mechs.items() if m.endswith(w))\n"
			     "    assert n >= %d, (w, mechs)\n"
			     /* an fd by number only where the syscall found it closed: the pty's close() does */
			     "import re\n"
			     "bare = [m for m in mechs if re.search(r'(^| )fd [0-9]+(?! \\(closed\\))', m)]\n"
			     "assert not bare, mechs\n"
			     "closed = [m for m in mechs if '(closed)' in m]\n"
			     "assert all(m.endswith('(closed) close') for m in closed), closed\n",
			     ROUNDS - 1),
		  "a kind of fd went unnamed");
	unlink(json);
}
