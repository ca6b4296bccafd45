// SPDX-License-Identifier: GPL-2.0
/* sandbox.c - a function served from a child process without privileges (sandbox.h) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "proc_maps.h"
#include "sandbox.h"

/* how often a wait for an answer looks at the interrupt flag */
#define SLICE_MS 50
/* how long a child killed is waited for before it is left to be reaped later */
#define REAP_MS 2000

enum request_op {
	OP_SERVE = 1,
	OP_IDENTITY,
};

/* what every request begins with */
struct request_head {
	uint32_t op;
};

/* what every answer begins with: the bytes after it number @length */
struct answer_head {
	int32_t status;
	uint32_t length;
};

struct sandbox {
	struct sandbox_opts opts;
	const volatile sig_atomic_t *interrupt;
	pid_t pid;		/* the child, 0 for none */
	int sock;		/* the parent's end, -1 for none */
	unsigned int generation;	/* children started */
	int last_end;		/* the wait status of the last child that ended while asked */
	pid_t *unreaped;	/* children killed that had not ended when last waited for */
	size_t nunreaped;
	uid_t uid;		/* what the child becomes, when it may */
	gid_t gid;
	char *message;		/* a request or an answer, with its head */
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* overflow_id - the kernel's uid or gid for one it cannot map, "nobody" (proc(5)): 65534 unless said */
static unsigned int overflow_id(const char *file)
{
	unsigned int id = 65534;
	FILE *f = fopen(file, "re");

	if (f) {
		if (fscanf(f, "%u", &id) != 1)
			id = 65534;
		fclose(f);
	}
	return id;
}

struct sandbox *sandbox__new(const struct sandbox_opts *opts)
{
	struct sandbox *sb;
	size_t size;

	if (!opts || !opts->serve)
		return NULL;
	sb = calloc(1, sizeof(*sb));
	if (!sb)
		return NULL;
	sb->opts = *opts;
	if (!sb->opts.cpu_seconds)
		sb->opts.cpu_seconds = SANDBOX_CPU_SECONDS;
	if (!sb->opts.memory_bytes)
		sb->opts.memory_bytes = SANDBOX_MEMORY_BYTES;
	sb->sock = -1;
	sb->last_end = -1;
	sb->uid = overflow_id("/proc/sys/kernel/overflowuid");
	sb->gid = overflow_id("/proc/sys/kernel/overflowgid");
	size = opts->request_max > opts->answer_max ? opts->request_max : opts->answer_max;
	if (size < sizeof(struct sandbox_identity))
		size = sizeof(struct sandbox_identity);
	sb->message = malloc(sizeof(struct answer_head) + size);
	if (!sb->message) {
		free(sb);
		return NULL;
	}
	return sb;
}

void sandbox__interrupt_on(struct sandbox *sb, const volatile sig_atomic_t *flag)
{
	sb->interrupt = flag;
}

void sandbox__child_ids(const struct sandbox *sb, uid_t *uid, gid_t *gid)
{
	*uid = sb->uid;
	*gid = sb->gid;
}

unsigned int sandbox__generation(const struct sandbox *sb)
{
	return sb->generation;
}

pid_t sandbox__pid(const struct sandbox *sb)
{
	return sb->pid;
}

int sandbox__last_end(const struct sandbox *sb)
{
	return sb->last_end;
}

/* ---- the child ---- */

/* child_files - the socket as descriptor 3, /dev/null as 0, 1 and 2, and nothing else open */
static int child_files(int sock)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	/* above what the moves below overwrite */
	sock = fcntl(sock, F_DUPFD_CLOEXEC, 10);
	if (sock < 0)
		return -errno;
	for (int fd = 0; fd < 3; fd++)
		if (null >= 0 ? dup2(null, fd) < 0 : close(fd) && errno != EBADF)
			return -errno;
	if (dup2(sock, 3) < 0)
		return -errno;
	/* close_range(2), Linux 5.9; before it, one by one up to the limit */
	if (close_range(4, ~0U, 0)) {
		struct rlimit lim = { 1024, 1024 };

		getrlimit(RLIMIT_NOFILE, &lim);
		for (rlim_t fd = 4; fd < lim.rlim_cur && fd < 65536; fd++)
			close((int)fd);
	}
	return 0;
}

/*
 * child_unshare_memory - every shared mapping the fork left the child
 * unmapped: a shared mapping stays the parent's own memory after fork()
 * (fork(2)), the BPF ring's consumer page and a workload's sample ring
 * among them, which a child taken over could write into
 */
static int child_unshare_memory(void)
{
	struct range {
		uint64_t start, end;
	} *ranges = NULL, *more;
	size_t n = 0, cap = 0, room = 0;
	char *line = NULL;
	int err = 0;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return -errno;
	while (getline(&line, &room, f) > 0) {
		struct proc_maps_line m;

		line[strcspn(line, "\n")] = '\0';
		if (proc_maps__parse(line, &m) || m.perms[3] != 's')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			more = realloc(ranges, cap * sizeof(*ranges));
			if (!more) {
				err = -ENOMEM;
				break;
			}
			ranges = more;
		}
		ranges[n++] = (struct range){ m.start, m.end };
	}
	free(line);
	fclose(f);
	/* unmapped once the file is read: its text is made from the mappings as it goes */
	for (size_t i = 0; !err && i < n; i++)
		if (munmap((void *)(uintptr_t)ranges[i].start, ranges[i].end - ranges[i].start))
			err = -errno;
	free(ranges);
	return err;
}

#ifdef __SANITIZE_ADDRESS__
/* AddressSanitizer reserves terabytes of shadow address space at start: no limit fits it */
static int limit_address_space(const struct sandbox *sb)
{
	(void)sb;
	return 0;
}
#else
/* address_space - how many bytes of address space the process holds now (/proc/self/statm's first field) */
static uint64_t address_space(void)
{
	unsigned long long pages = 0;
	FILE *f = fopen("/proc/self/statm", "re");

	if (f) {
		if (fscanf(f, "%llu", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	return (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* limit_address_space - what the child has at its fork, and sb->opts.memory_bytes more (RLIMIT_AS) */
static int limit_address_space(const struct sandbox *sb)
{
	uint64_t room = address_space() + sb->opts.memory_bytes;
	struct rlimit as = { room, room };

	return setrlimit(RLIMIT_AS, &as) ? -errno : 0;
}
#endif

/* child_limits - what the child may take: setrlimit(2) */
static int child_limits(const struct sandbox *sb)
{
	struct rlimit none = { 0, 0 }, cpu = { sb->opts.cpu_seconds, sb->opts.cpu_seconds + 1 };

	if (setrlimit(RLIMIT_CORE, &none) || setrlimit(RLIMIT_CPU, &cpu))
		return -errno;
	if (!sb->opts.may_write_files && setrlimit(RLIMIT_FSIZE, &none))
		return -errno;
	return limit_address_space(sb);
}

/*
 * child_drop_privileges - everything but what serving takes. The
 * bounding set goes first, which takes CAP_SETPCAP; the uid and gid then,
 * which take CAP_SETUID and CAP_SETGID (a process without them, as under a
 * unit's CapabilityBoundingSet=, keeps its uid but none of its
 * capabilities); a uid changed from 0 clears the permitted and effective
 * sets itself (capabilities(7), "Effect of user ID changes on
 * capabilities"), and capset() clears what is left. PR_SET_PDEATHSIG
 * comes last: a change of credentials clears it (prctl(2)).
 */
static int child_drop_privileges(const struct sandbox *sb, pid_t parent)
{
	struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct none[2] = { { 0 } };
	struct rlimit no_process = { 0, 0 };
	bool switched = false;

	for (int cap = 0; cap <= 63; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno == EINVAL)
			break;
	if ((getuid() == 0 || geteuid() == 0) && !setgroups(0, NULL) && !setresgid(sb->gid, sb->gid, sb->gid) &&
	    !setresuid(sb->uid, sb->uid, sb->uid))
		switched = true;
	if (syscall(SYS_capset, &head, none))
		return -errno;
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		return -errno;
	/* root's uid given up is not to be had back */
	if (switched && (setuid(0) == 0 || seteuid(0) == 0))
		return -EPERM;
	if (setrlimit(RLIMIT_NPROC, &no_process))
		return -errno;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0))
		return -errno;
	/* the parent may have ended before the line above: then nothing would tell */
	return getppid() == parent ? 0 : -ESRCH;
}

/* shared_mappings - how many mappings of this process's /proc/self/maps are shared ('s'), -1 unread */
static int shared_mappings(void)
{
	char *line = NULL;
	size_t room = 0;
	int n = 0;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return -1;
	while (getline(&line, &room, f) > 0) {
		struct proc_maps_line m;

		line[strcspn(line, "\n")] = '\0';
		n += !proc_maps__parse(line, &m) && m.perms[3] == 's';
	}
	free(line);
	fclose(f);
	return n;
}

static void child_identity(struct sandbox_identity *id)
{
	struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct caps[2] = { { 0 } };
	uid_t uid, euid, suid;
	gid_t gid, egid, sgid;
	struct rlimit lim;

	memset(id, 0, sizeof(*id));
	getresuid(&uid, &euid, &suid);
	getresgid(&gid, &egid, &sgid);
	*id = (struct sandbox_identity){ .uid = uid, .euid = euid, .suid = suid, .gid = gid, .egid = egid, .sgid = sgid };
	id->groups = (uint32_t)getgroups(0, NULL);
	if (!syscall(SYS_capget, &head, caps)) {
		id->cap_effective = caps[0].effective | (uint64_t)caps[1].effective << 32;
		id->cap_permitted = caps[0].permitted | (uint64_t)caps[1].permitted << 32;
		id->cap_inheritable = caps[0].inheritable | (uint64_t)caps[1].inheritable << 32;
	}
	id->no_new_privs = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
	id->dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
	for (int fd = 0; fd < 1024; fd++)
		id->open_fds += fcntl(fd, F_GETFD) >= 0;
	id->shared_mappings = shared_mappings();
	id->rlimit_cpu = getrlimit(RLIMIT_CPU, &lim) ? 0 : lim.rlim_cur;
	id->rlimit_as = getrlimit(RLIMIT_AS, &lim) ? 0 : lim.rlim_cur;
	id->rlimit_core = getrlimit(RLIMIT_CORE, &lim) ? 0 : lim.rlim_cur;
	id->rlimit_nproc = getrlimit(RLIMIT_NPROC, &lim) ? 0 : lim.rlim_cur;
	id->rlimit_fsize = getrlimit(RLIMIT_FSIZE, &lim) ? 0 : lim.rlim_cur;
}

/* child_serve - requests in, answers out, until the parent closes its end */
static void child_serve(const struct sandbox *sb, char *message, size_t room)
{
	char control[CMSG_SPACE(sizeof(int))];

	for (;;) {
		struct iovec iov = { message, sizeof(struct request_head) + sb->opts.request_max };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
				      .msg_controllen = sizeof(control) };
		struct answer_head *answer = (struct answer_head *)message;
		struct request_head head;
		struct cmsghdr *c;
		ssize_t n = recvmsg(3, &msg, MSG_CMSG_CLOEXEC);
		int fd = -1, status;

		if (n == 0)
			_exit(0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int)))
				memcpy(&fd, CMSG_DATA(c), sizeof(int));
		memcpy(&head, message, sizeof(head));
		if ((size_t)n < sizeof(head) || (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
			status = -EMSGSIZE;
		} else if (head.op == OP_IDENTITY) {
			child_identity((struct sandbox_identity *)(answer + 1));
			status = sizeof(struct sandbox_identity);
		} else if (head.op == OP_SERVE) {
			/* the request is moved aside: the answer is written where it lay */
			char *request = message + sizeof(struct answer_head) + room;

			memmove(request, message + sizeof(head), (size_t)n - sizeof(head));
			status = sb->opts.serve(sb->opts.ctx, request, (size_t)n - sizeof(head), fd, answer + 1,
						sb->opts.answer_max);
			fd = -1;
			/* a status that reads as the parent's own would mislead it */
			if (status > (int)sb->opts.answer_max || status == -ETIMEDOUT || status == -EINTR ||
			    status == -ECHILD || status == -EPROTO || status == -EAGAIN)
				status = -EIO;
		} else {
			status = -EINVAL;
		}
		if (fd >= 0)
			close(fd);
		answer->status = status;
		answer->length = status > 0 ? (uint32_t)status : 0;
		if (send(3, message, sizeof(*answer) + answer->length, MSG_NOSIGNAL) < 0)
			_exit(1);
	}
}

/* child_main - the child's life, from the fork: it never returns */
__attribute__((noreturn)) static void child_main(const struct sandbox *sb, int sock, pid_t parent)
{
	size_t room = sb->opts.request_max > sb->opts.answer_max ? sb->opts.request_max : sb->opts.answer_max;
	sigset_t all;
	char *message;

	/* the parent's handlers would act on a copy of its state: a signal does what it does by default here */
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	if (sb->opts.name)
		prctl(PR_SET_NAME, sb->opts.name, 0, 0, 0);
	if (child_files(sock) || child_unshare_memory() || child_limits(sb) || child_drop_privileges(sb, parent))
		_exit(127);
	if (sb->opts.child_init)
		sb->opts.child_init(sb->opts.ctx);
	/* room for the largest answer, then a request moved out of its way */
	if (room < sizeof(struct sandbox_identity))
		room = sizeof(struct sandbox_identity);
	message = malloc(sizeof(struct answer_head) + 2 * room + sizeof(struct request_head));
	if (!message)
		_exit(127);
	child_serve(sb, message, room);
	_exit(0);
}

/* ---- the parent ---- */

/* reap - wait for child @pid to end, up to REAP_MS; one that does not is waited for again at the end */
static int reap(struct sandbox *sb, pid_t pid)
{
	uint64_t until = now_ms() + REAP_MS;
	int status = -1;
	pid_t *more;

	for (;;) {
		pid_t got = waitpid(pid, &status, WNOHANG);

		if (got == pid || (got < 0 && errno != EINTR))
			return got == pid ? status : -1;
		if (now_ms() >= until)
			break;
		usleep(1000);
	}
	more = realloc(sb->unreaped, (sb->nunreaped + 1) * sizeof(*more));
	if (more) {
		sb->unreaped = more;
		sb->unreaped[sb->nunreaped++] = pid;
	}
	return -1;
}

/* stop_child - the child killed (it may be ended already) and reaped, its socket closed */
static void stop_child(struct sandbox *sb, bool killed)
{
	int status;

	if (!sb->pid)
		return;
	if (killed)
		kill(sb->pid, SIGKILL);
	close(sb->sock);
	sb->sock = -1;
	status = reap(sb, sb->pid);
	if (!killed)
		sb->last_end = status;
	sb->pid = 0;
}

/* start_child - a child forked and its socket ready, unless one runs already: 0, or -EAGAIN */
static int start_child(struct sandbox *sb)
{
	pid_t parent = getpid();
	int sv[2];

	if (sb->pid)
		return 0;
	if (sb->generation >= SANDBOX_STARTS)
		return -EAGAIN;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -EAGAIN;
	sb->generation++;
	sb->pid = fork();
	if (sb->pid < 0) {
		sb->pid = 0;
		close(sv[0]);
		close(sv[1]);
		return -EAGAIN;
	}
	if (!sb->pid) {
		close(sv[0]);
		child_main(sb, sv[1], parent);
	}
	close(sv[1]);
	sb->sock = sv[0];
	return 0;
}

/* send_request - @op with @len bytes of @request and descriptor @fd: 0, or -ECHILD when the child is gone */
static int send_request(struct sandbox *sb, uint32_t op, const void *request, size_t len, int fd)
{
	struct request_head head = { op };
	struct iovec iov[2] = { { &head, sizeof(head) }, { (void *)request, len } };
	char control[CMSG_SPACE(sizeof(int))] = { 0 };
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = len ? 2 : 1 };
	struct cmsghdr *c;

	if (fd >= 0) {
		msg.msg_control = control;
		msg.msg_controllen = sizeof(control);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	while (sendmsg(sb->sock, &msg, MSG_NOSIGNAL) < 0)
		if (errno != EINTR)
			return errno == EMSGSIZE ? -EMSGSIZE : -ECHILD;
	return 0;
}

/* interrupted - has the flag risen? */
static bool interrupted(const struct sandbox *sb)
{
	return sb->interrupt && *sb->interrupt;
}

/*
 * wait_answer - the answer to the request sent, into @answer of @room
 * bytes, within @timeout_ms: its length or status, or -ETIMEDOUT,
 * -EINTR, -ECHILD, -EPROTO with the child stopped
 */
static int wait_answer(struct sandbox *sb, void *answer, size_t room, int timeout_ms)
{
	uint64_t until = now_ms() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0);
	struct answer_head head;
	ssize_t n;

	for (;;) {
		struct pollfd p = { sb->sock, POLLIN, 0 };
		uint64_t now = now_ms();
		int ready;

		if (interrupted(sb)) {
			stop_child(sb, true);
			return -EINTR;
		}
		if (now >= until) {
			stop_child(sb, true);
			return -ETIMEDOUT;
		}
		ready = poll(&p, 1, (int)(until - now < SLICE_MS ? until - now : SLICE_MS));
		if (ready > 0)
			break;
		if (ready < 0 && errno != EINTR) {
			stop_child(sb, true);
			return -EPROTO;
		}
	}
	n = recv(sb->sock, sb->message, sizeof(head) + room, MSG_TRUNC);
	if (n <= 0) {
		/* the end of the child's socket: the child has ended */
		stop_child(sb, false);
		return -ECHILD;
	}
	if ((size_t)n >= sizeof(head))
		memcpy(&head, sb->message, sizeof(head));
	if ((size_t)n < sizeof(head) || head.length > room || (size_t)n != sizeof(head) + head.length ||
	    (head.status >= 0 && head.status != (int32_t)head.length) || (head.status < 0 && head.length)) {
		stop_child(sb, true);
		return -EPROTO;
	}
	if (head.length)
		memcpy(answer, sb->message + sizeof(head), head.length);
	return head.status;
}

/* call - @op's request sent and answered */
static int call(struct sandbox *sb, uint32_t op, const void *request, size_t len, int fd, void *answer, size_t room,
		int timeout_ms)
{
	int err;

	if (interrupted(sb))
		return -EINTR;
	if (len > sb->opts.request_max)
		return -EMSGSIZE;
	/*
	 * a child that ended while it had nothing to do (killed by a process
	 * of its uid, out of CPU time) is found so by the request it cannot
	 * take: a new one takes it, once
	 */
	for (int tries = 0; tries < 2; tries++) {
		err = start_child(sb);
		if (!err)
			err = send_request(sb, op, request, len, fd);
		if (err != -ECHILD)
			break;
		stop_child(sb, false);
	}
	return err ? err : wait_answer(sb, answer, room, timeout_ms);
}

int sandbox__call(struct sandbox *sb, const void *request, size_t len, int fd, void *answer, size_t room,
		  int timeout_ms)
{
	return call(sb, OP_SERVE, request, len, fd, answer, room < sb->opts.answer_max ? room : sb->opts.answer_max,
		    timeout_ms);
}

int sandbox__identity(struct sandbox *sb, struct sandbox_identity *out, int timeout_ms)
{
	int n = call(sb, OP_IDENTITY, NULL, 0, -1, out, sizeof(*out), timeout_ms);

	return n < 0 ? n : n == (int)sizeof(*out) ? 0 : -EPROTO;
}

void sandbox__free(struct sandbox *sb)
{
	uint64_t until;

	if (!sb)
		return;
	if (sb->pid) {
		/* its socket closed, the child reads the end and exits; one busy on a request is killed */
		close(sb->sock);
		sb->sock = -1;
		until = now_ms() + 100;
		while (waitpid(sb->pid, NULL, WNOHANG) == 0 && now_ms() < until)
			usleep(1000);
		if (waitpid(sb->pid, NULL, WNOHANG) == 0) {
			kill(sb->pid, SIGKILL);
			reap(sb, sb->pid);
		}
	}
	for (size_t i = 0; i < sb->nunreaped; i++)
		waitpid(sb->unreaped[i], NULL, WNOHANG);
	free(sb->unreaped);
	free(sb->message);
	free(sb);
}
