// SPDX-License-Identifier: GPL-2.0
/*
 * test_shared_futex.c - a process-shared semaphore is one lock: a parent
 * posts and its child waits on a POSIX semaphore, in shared anonymous
 * memory and in a named one (/dev/shm), each process with the word at an
 * address of its own. Attach mode keys the word as the kernel does and
 * shows one row, the waits and the wakes on it and both processes. Needs
 * root and BTF.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "helpers.h"
#include "readback.h"

#define POSTS		200
#define GAP_US		2000

static char sem_name[64];

/* post_to_child - the parent posts POSTS times, a child it forks waits as many */
static void post_to_child(sem_t *s)
{
	pid_t child = fork();

	if (child < 0)
		_exit(81);
	if (!child) {
		for (int i = 0; i < POSTS; i++)
			sem_wait(s);
		_exit(0);
	}
	for (int i = 0; i < POSTS; i++) {
		usleep(GAP_US);
		sem_post(s);
	}
	if (waitpid(child, NULL, 0) != child)
		_exit(82);
}

static void anonymous_semaphore(void)
{
	sem_t *s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (s == MAP_FAILED || sem_init(s, 1, 0))
		_exit(80);
	post_to_child(s);
}

static void named_semaphore(void)
{
	sem_t *s = sem_open(sem_name, O_CREAT | O_EXCL, 0600, 0);

	if (s == SEM_FAILED)
		_exit(80);
	sem_unlink(sem_name);
	post_to_child(s);
}

/* the one row: every wait of the child and every post of the parent that woke it, and both processes */
static void assert_one_lock(const char *json, pid_t parent)
{
	cr_assert(json_check(json,
			     "shared = [f for f in d['futexes'] if f['shared']]\n"
			     "assert len(shared) == 1, d['futexes']\n"
			     "f = shared[0]\n"
			     "assert f['waits'] >= %d and f['wakes'] >= %d, f\n"
			     "assert len(f['tgids']) == 2 and %d in f['tgids'], f\n"
			     "mechs = [p['mechanism'] for p in d['pairs'] if p['family'] == 'futex']\n"
			     "name = 'futex inode %%d+0x%%x wake' %% (f['shared']['inode'], f['shared']['offset'])\n"
			     "assert any(m.startswith(name) for m in mechs), (name, mechs)\n",
			     POSTS * 9 / 10, POSTS * 9 / 10, (int)parent),
		  "the semaphore is not one lock");
}

Test(shared_futex, a_semaphore_in_shared_anonymous_memory_is_one_lock_of_both_processes, .timeout = 120)
{
	char json[64];
	pid_t parent;

	skip_unless_traceable();
	parent = trace_body(anonymous_semaphore, "the semaphore's poster", json);
	assert_one_lock(json, parent);
	unlink(json);
}

Test(shared_futex, a_named_semaphore_is_one_lock_of_both_processes, .timeout = 120)
{
	char json[64];
	pid_t parent;

	skip_unless_traceable();
	snprintf(sem_name, sizeof(sem_name), "/wakeprobe-test-%d", (int)getpid());
	parent = trace_body(named_semaphore, "the semaphore's poster", json);
	assert_one_lock(json, parent);
	unlink(json);
}
