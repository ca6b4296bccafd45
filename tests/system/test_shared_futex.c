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

/* traced - @body run as a child held until wakeprobe --pid is attached to it; the JSON in @json */
static pid_t traced(void (*body)(void), char json[64])
{
	char pid_arg[16];
	char *tracer_args[] = { (char *)wakeprobe_path(), "--pid", pid_arg, "--json", json, "--outliers", "0", NULL };
	int go, t_out, t_err, status;
	pid_t child, tracer;

	fclose(temp_output("shared-futex", json));
	child = spawn_held(NULL, body, -1, &go);
	snprintf(pid_arg, sizeof(pid_arg), "%d", (int)child);
	tracer = spawn_piped(tracer_args, NULL, &t_out, &t_err);
	wait_attached(tracer, "wakeprobe");
	cr_assert_eq(write(go, "g", 1), 1);
	close(go);
	status = wait_exit(child, "the semaphore's poster", 60);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the poster: status 0x%x", status);
	status = wait_exit(tracer, "wakeprobe", 30);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "wakeprobe: status 0x%x", status);
	close(t_out);
	close(t_err);
	return child;
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
	parent = traced(anonymous_semaphore, json);
	assert_one_lock(json, parent);
	unlink(json);
}

Test(shared_futex, a_named_semaphore_is_one_lock_of_both_processes, .timeout = 120)
{
	char json[64];
	pid_t parent;

	skip_unless_traceable();
	snprintf(sem_name, sizeof(sem_name), "/wakeprobe-test-%d", (int)getpid());
	parent = traced(named_semaphore, json);
	assert_one_lock(json, parent);
	unlink(json);
}
