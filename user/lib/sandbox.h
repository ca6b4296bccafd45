/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sandbox.h - a function served from a child process without privileges,
 * for work on what a process wakeprobe traces could have crafted: an
 * object's ELF and DWARF (symbolizer.c). A crafted input that crashes the
 * code reading it, loops it or holds it up ends the child, never root's
 * process, and costs no more than the time each answer is given.
 *
 * The child is forked when first asked, and forked again after one ended
 * (at most SANDBOX_STARTS times). Before its first request it holds none
 * of the parent's files but its end of the socket (stdin, stdout and
 * stderr are /dev/null) and none of its shared memory (a shared mapping
 * stays the parent's after fork(2)), runs signals' default actions, and
 * gives up every privilege it can: root's uid for the kernel's overflow
 * uid and gid ("nobody", /proc/sys/kernel/overflowuid, proc(5)) with no
 * supplementary groups, when it has CAP_SETUID and CAP_SETGID to do so,
 * and every capability whether or not (capabilities(7)); no_new_privs;
 * not dumpable, so that no other process of that uid may ptrace it or
 * read its /proc files (ptrace(2), "Ptrace access mode checking"); no
 * core file, no new process (RLIMIT_NPROC 0), no file written, CPU time
 * and address space bounded (setrlimit(2)); and it dies with its parent
 * (PR_SET_PDEATHSIG).
 *
 * A request goes over a SOCK_SEQPACKET socket pair, one message a request
 * with at most one descriptor riding along (SCM_RIGHTS, unix(7)), and an
 * answer comes back as one message: a status and a length, then that many
 * bytes. The parent waits for each answer no longer than it is given, in
 * slices, watching a flag a signal handler raises; on a timeout, the flag,
 * an answer that does not parse, or the child's end, the child is killed
 * and reaped, and the request fails with what happened.
 */
#ifndef WAKEPROBE_SANDBOX_H
#define WAKEPROBE_SANDBOX_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* children started at most: one that keeps dying is not started for ever */
#define SANDBOX_STARTS		8
/* a child's CPU time, in seconds (RLIMIT_CPU), when the options do not say */
#define SANDBOX_CPU_SECONDS	300
/* the address space a child may add to what it has at its fork (RLIMIT_AS), when the options do not say */
#define SANDBOX_MEMORY_BYTES	(4ULL << 30)

struct sandbox_opts {
	/*
	 * serve - in the child: answer @request of @len bytes, @fd the
	 * descriptor that came with it or -1 (serve takes it over), into
	 * @answer of @room bytes: how many bytes it holds, or a negative
	 * errno, which is the answer's status
	 */
	int (*serve)(void *ctx, const void *request, size_t len, int fd, void *answer, size_t room);
	void *ctx;
	/* child_init - in the child, privileges given up, before its first request; may be NULL */
	void (*child_init)(void *ctx);
	size_t request_max;	/* the longest request, in bytes */
	size_t answer_max;	/* the longest answer */
	unsigned int cpu_seconds;	/* 0: SANDBOX_CPU_SECONDS */
	uint64_t memory_bytes;		/* 0: SANDBOX_MEMORY_BYTES */
	bool may_write_files;	/* no RLIMIT_FSIZE of 0: the child keeps a cache (debuginfod's) */
	const char *name;	/* the child's name (its comm, 15 characters): what ps shows */
};

/* what a child is and holds, as it says itself (the tests') */
struct sandbox_identity {
	uint32_t uid, euid, suid, gid, egid, sgid;
	uint32_t groups;		/* supplementary groups */
	uint64_t cap_effective, cap_permitted, cap_inheritable;
	int32_t no_new_privs, dumpable;
	int32_t open_fds;		/* descriptors open below 1024 */
	int32_t shared_mappings;	/* mappings of memory shared with another process */
	uint64_t rlimit_cpu, rlimit_as, rlimit_core, rlimit_nproc, rlimit_fsize;	/* the soft limits */
};

struct sandbox;

/* sandbox__new - ready to start a child when first asked: NULL without memory, or without @opts->serve */
struct sandbox *sandbox__new(const struct sandbox_opts *opts);
/* sandbox__free - the child told to end (its socket closed), killed if it does not, and reaped */
void sandbox__free(struct sandbox *sb);

/*
 * sandbox__interrupt_on - from now on, a call fails with -EINTR, killing
 * the child it was waiting for, as soon as *@flag is not 0 (a signal
 * handler's); NULL: never
 */
void sandbox__interrupt_on(struct sandbox *sb, const volatile sig_atomic_t *flag);

/*
 * sandbox__call - @request of @len bytes, with descriptor @fd (-1 for none;
 * the caller keeps its own), answered within @timeout_ms into @answer of
 * @room bytes: the answer's length, or a negative errno: the child's own
 * (serve's), or -ETIMEDOUT (no answer in time), -EINTR (the flag rose),
 * -ECHILD (the child ended: sandbox__last_end() says how), -EPROTO (an
 * answer that does not parse), each with the child killed; -EAGAIN when no
 * child could be started, or SANDBOX_STARTS were.
 */
int sandbox__call(struct sandbox *sb, const void *request, size_t len, int fd, void *answer, size_t room,
		  int timeout_ms);

/* sandbox__identity - what the child is and holds, started if need be: 0 or sandbox__call()'s errors */
int sandbox__identity(struct sandbox *sb, struct sandbox_identity *out, int timeout_ms);

/* sandbox__child_ids - the uid and gid a child takes when it may change them */
void sandbox__child_ids(const struct sandbox *sb, uid_t *uid, gid_t *gid);
/* sandbox__generation - how many children were started: what a child was given is gone with it */
unsigned int sandbox__generation(const struct sandbox *sb);
/* sandbox__pid - the child now running, 0 for none (the tests') */
pid_t sandbox__pid(const struct sandbox *sb);
/* sandbox__last_end - the wait status of the last child that ended on its own while asked, -1 for none */
int sandbox__last_end(const struct sandbox *sb);

#endif /* WAKEPROBE_SANDBOX_H */
