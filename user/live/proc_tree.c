// SPDX-License-Identifier: GPL-2.0
/* proc_tree.c - what a command left running, from /proc, signal-safe */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "proc_tree.h"

/* a scan adds the children of what it holds; a chain deeper than this is taken in the next look */
#define MAX_SCANS	16

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* what /proc/PID/stat says of a process */
struct proc_stat {
	pid_t ppid;
	char state;
	unsigned long long start_ticks;
};

/* put_uint - @v in decimal at @p; the end. snprintf() is not async-signal-safe. */
static char *put_uint(char *p, unsigned long v)
{
	char digits[24];
	int n = 0;

	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (n)
		*p++ = digits[--n];
	return p;
}

/* field - the @n-th space-separated field after @p (0: the one at @p); NULL past the end */
static const char *field(const char *p, int n)
{
	while (n-- > 0) {
		p = strchr(p, ' ');
		if (!p)
			return NULL;
		p++;
	}
	return p;
}

static unsigned long long parse_ull(const char *p)
{
	unsigned long long v = 0;

	while (*p >= '0' && *p <= '9')
		v = v * 10 + (unsigned long long)(*p++ - '0');
	return v;
}

/*
 * read_stat - @pid's parent, state and start; false if it is gone. The
 * command name may hold spaces and parentheses: the fields count from the
 * last ')'.
 */
static bool read_stat(pid_t pid, struct proc_stat *st)
{
	char path[32] = "/proc/", buf[1024];
	const char *p, *ppid, *start;
	ssize_t n;
	int fd;

	memcpy(put_uint(path + 6, (unsigned long)pid), "/stat", 6);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	/* after ") ": state (field 3), ppid (4), ..., starttime (22) */
	if (!p || p[1] != ' ')
		return false;
	p += 2;
	ppid = field(p, 1);
	start = field(p, 19);
	if (!ppid || !start)
		return false;
	st->state = p[0];
	st->ppid = (pid_t)parse_ull(ppid);
	st->start_ticks = parse_ull(start);
	return true;
}

unsigned long long proc_tree__start_ticks(pid_t pid)
{
	struct proc_stat st;

	return read_stat(pid, &st) ? st.start_ticks : 0;
}

pid_t proc_tree__parent(pid_t pid)
{
	struct proc_stat st;

	return read_stat(pid, &st) ? st.ppid : 0;
}

static bool holds(const struct proc_tree *t, pid_t pid)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->pids[i] == pid)
			return true;
	return false;
}

static void add(struct proc_tree *t, pid_t pid, const struct proc_stat *st)
{
	if (t->n < PROC_TREE_MAX && !holds(t, pid)) {
		t->zombie[t->n] = st->state == 'Z' || st->state == 'X';
		t->pids[t->n++] = pid;
	}
}

/* scan - one pass over /proc: add what descends from @t's processes, or was adopted since @since_ticks */
static bool scan(struct proc_tree *t, pid_t self, pid_t root, unsigned long long since_ticks)
{
	char buf[4096];
	size_t before = t->n;
	long n;
	int fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return false;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			const struct linux_dirent64 *d = (const void *)(buf + off);
			struct proc_stat st;
			pid_t pid;

			off += d->d_reclen;
			if (d->d_name[0] < '1' || d->d_name[0] > '9')
				continue;
			pid = (pid_t)parse_ull(d->d_name);
			if (pid == self || holds(t, pid) || !read_stat(pid, &st))
				continue;
			if (holds(t, st.ppid) || (st.ppid == self && pid != root && st.start_ticks >= since_ticks))
				add(t, pid, &st);
		}
	}
	close(fd);
	return t->n > before;
}

void proc_tree__find(struct proc_tree *t, pid_t root, unsigned long long since_ticks)
{
	pid_t self = getpid();
	struct proc_stat st;

	t->n = 0;
	if (root > 0 && root != self && read_stat(root, &st))
		add(t, root, &st);
	for (int i = 0; i < MAX_SCANS && t->n < PROC_TREE_MAX && scan(t, self, root, since_ticks); i++)
		;
}
