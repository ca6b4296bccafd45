// SPDX-License-Identifier: GPL-2.0
/* targets.c - the processes and commands attach mode traces, checked up front */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "targets.h"

/*
 * status_field - the value of "@key:" in /proc/@pid/status, as text; false
 * when the process or the line is not there
 */
static bool status_field(pid_t pid, const char *key, char *val, size_t len)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) || line[klen] != ':')
			continue;
		snprintf(val, len, "%s", line + klen + 1 + strspn(line + klen + 1, " \t"));
		val[strcspn(val, "\n")] = '\0';
		found = true;
		break;
	}
	fclose(f);
	return found;
}

#define PF_KTHREAD	0x00200000	/* include/linux/sched.h: I am a kernel thread */

/*
 * kernel_thread - is @pid a kernel thread? Its name into @comm. Field 9 of
 * /proc/@pid/stat holds the task's flags; the name, field 2, may hold
 * spaces and parentheses of its own, so the fields after it are counted
 * from the last ')'.
 */
static bool kernel_thread(pid_t pid, char *comm, size_t len)
{
	char path[64], line[512], *name, *end;
	unsigned int flags;
	FILE *f;
	bool got;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	got = fgets(line, sizeof(line), f) != NULL;
	fclose(f);
	name = got ? strchr(line, '(') : NULL;
	end = got ? strrchr(line, ')') : NULL;
	if (!name || !end || end < name)
		return false;
	snprintf(comm, len, "%.*s", (int)(end - name - 1), name + 1);
	/* state, ppid, pgrp, session, tty_nr, tpgid, then flags */
	if (sscanf(end + 1, " %*c %*d %*d %*d %*d %*d %u", &flags) != 1)
		return false;
	return flags & PF_KTHREAD;
}

int targets__check_pid(pid_t pid, char *msg, size_t len)
{
	char tgid[32], state[32], comm[64];

	if (!status_field(pid, "Tgid", tgid, sizeof(tgid))) {
		snprintf(msg, len, "--pid %d: no such process (ps -e lists the running ones)", (int)pid);
		return -ESRCH;
	}
	if (atoi(tgid) != pid) {
		snprintf(msg, len, "--pid %d is a thread of process %s: give --pid %s --tid %d", (int)pid, tgid, tgid,
			 (int)pid);
		return -EINVAL;
	}
	if (status_field(pid, "State", state, sizeof(state)) && (state[0] == 'Z' || state[0] == 'X')) {
		snprintf(msg, len, "--pid %d has exited: there is nothing left to trace", (int)pid);
		return -ESRCH;
	}
	if (kernel_thread(pid, comm, sizeof(comm))) {
		snprintf(msg, len, "--pid %d is a kernel thread (%s): wakeprobe traces user processes, where kernel "
			 "threads show up as wakers; give a user process's pid", (int)pid, comm);
		return -EINVAL;
	}
	if (kill(pid, 0) && errno == EPERM) {
		snprintf(msg, len, "--pid %d belongs to another user, and signalling it takes CAP_KILL, which this "
			 "process lacks: run wakeprobe as root (sudo)", (int)pid);
		return -EPERM;
	}
	return 0;
}

static int executable(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return -ENOENT;
	if (!S_ISREG(st.st_mode) || access(path, X_OK))
		return -EACCES;
	return 0;
}

int targets__find_command(const char *name, char *path, size_t len)
{
	const char *dirs = getenv("PATH"), *p;
	int err = -ENOENT;

	if (!*name)
		return -ENOENT;
	if (strchr(name, '/')) {
		snprintf(path, len, "%s", name);
		return executable(path);
	}
	/* execvp's default search path when PATH is unset */
	for (p = dirs ? dirs : "/bin:/usr/bin"; ; p += strcspn(p, ":") + 1) {
		size_t dlen = strcspn(p, ":");
		int e;

		/* an empty entry is the current directory */
		snprintf(path, len, "%.*s/%s", dlen ? (int)dlen : 1, dlen ? p : ".", name);
		e = executable(path);
		if (!e)
			return 0;
		if (e == -EACCES)
			err = e;
		if (!p[dlen])
			break;
	}
	return err;
}

bool targets__alive(pid_t pid)
{
	char state[32];

	return status_field(pid, "State", state, sizeof(state)) && state[0] != 'Z' && state[0] != 'X';
}
