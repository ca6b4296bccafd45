// SPDX-License-Identifier: GPL-2.0
/*
 * crafted_fixture.c - a program whose DWARF is crafted
 * (tests/tools/crafted_dwarf.S), as a hostile process's could be, for the
 * symbolizer's tests: naming a byte of crafted_stride divided by zero
 * in root's process before the walk's arithmetic was checked, and naming
 * one of crafted_deep takes seconds, in root's process before the
 * symbolizer had a child of its own.
 *
 *   crafted-fixture              print "NAME VALUE" lines and "end", then
 *                                live until standard input ends (the unit
 *                                tests, as symbol_fixture.c does)
 *   crafted-fixture futex N      two threads hand a token to each other N
 *                                times through a futex on crafted_deep[1], so
 *                                that a trace's busiest pair names that word
 *                                (tests/system/test_stacks_trust.c)
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

/* sized as the ELF symbols say: the DWARF says otherwise */
char crafted_stride[64];
int crafted_deep[4];

static long rounds;

static void futex_wait(int *word, int value)
{
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, value, NULL, NULL, 0);
}

static void futex_wake(int *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* other_side - take the token (1) and give it back (0), rounds times */
static void *other_side(void *unused)
{
	(void)unused;
	for (long i = 0; i < rounds; i++) {
		while (__atomic_load_n(&crafted_deep[1], __ATOMIC_ACQUIRE) != 1)
			futex_wait(&crafted_deep[1], 0);
		__atomic_store_n(&crafted_deep[1], 0, __ATOMIC_RELEASE);
		futex_wake(&crafted_deep[1]);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t thread;
	char buf[64];

	if (argc == 3 && !strcmp(argv[1], "futex")) {
		rounds = atol(argv[2]);
		if (pthread_create(&thread, NULL, other_side, NULL))
			return 1;
		for (long i = 0; i < rounds; i++) {
			__atomic_store_n(&crafted_deep[1], 1, __ATOMIC_RELEASE);
			futex_wake(&crafted_deep[1]);
			while (__atomic_load_n(&crafted_deep[1], __ATOMIC_ACQUIRE) != 0)
				futex_wait(&crafted_deep[1], 1);
		}
		pthread_join(thread, NULL);
		return 0;
	}
	printf("crafted_stride %p\ncrafted_deep %p\nend\n", (void *)crafted_stride, (void *)crafted_deep);
	fflush(stdout);
	while (read(0, buf, sizeof(buf)) > 0)
		;
	return 0;
}
