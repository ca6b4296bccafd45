// SPDX-License-Identifier: GPL-2.0
/*
 * symbol_fixture.c - a program with known functions and data for the
 * symbolizer's unit tests (tests/unit/test_symbolizer.c). It prints
 * "NAME VALUE" lines, then "end", then lives until its standard input
 * ends: its two functions' addresses and a static one's (which no build
 * exports), a global queue and its mutex, a word deep in .bss, a heap
 * block, a word on the main thread's stack, and a second thread's id and
 * a word on its stack, that thread blocked on the queue's mutex (a futex
 * wait) the while. Built with debug information and frame pointers,
 * stripped of every symbol as a second copy, optimized without frame
 * pointers or debug information as a third, and exporting its functions
 * and globals (-rdynamic), then stripped, as a fourth.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* a queue as a program would hand work off through: the futex word is the mutex's, 8 bytes in */
struct {
	int waiters;
	pthread_mutex_t lock;
} handoff_queue = { 0, PTHREAD_MUTEX_INITIALIZER };

/* zeroed and larger than a page: its tail lies past the file, in the anonymous part of .bss */
struct {
	char slots[64 << 10];
	int tail;
} bulk_queue;

/* what the waiting thread says of itself, 0 until it has */
static pid_t waiter_tid;
static volatile int *waiter_word;

__attribute__((noinline)) void producer_release(volatile int *word)
{
	*word = 1;
}

__attribute__((noinline)) int consumer_wait(volatile int *word)
{
	while (!*word)
		;
	return *word;
}

/* waiter - wait for the queue's mutex, which main holds until its input ends */
static void *waiter(void *unused)
{
	volatile int word = 0;

	(void)unused;
	__atomic_fetch_add(&handoff_queue.waiters, 1, __ATOMIC_RELAXED);
	waiter_word = &word;
	__atomic_store_n(&waiter_tid, gettid(), __ATOMIC_RELEASE);
	pthread_mutex_lock(&handoff_queue.lock);
	pthread_mutex_unlock(&handoff_queue.lock);
	return NULL;
}

int main(void)
{
	volatile int word = 0;
	pthread_t thread;
	char *block = malloc(64), c;

	if (!block || pthread_mutex_lock(&handoff_queue.lock) || pthread_create(&thread, NULL, waiter, NULL))
		return 1;
	while (!__atomic_load_n(&waiter_tid, __ATOMIC_ACQUIRE))
		usleep(1000);
	producer_release(&word);
	printf("producer_release %p\nconsumer_wait %p\nwaiter_code %p\n", (void *)producer_release,
	       (void *)consumer_wait, (void *)waiter);
	printf("handoff_queue %p\nhandoff_queue.lock %p\nbulk_queue.tail %p\n", (void *)&handoff_queue,
	       (void *)&handoff_queue.lock, (void *)&bulk_queue.tail);
	printf("heap %p\nmain_stack %p\nwaiter %d\nwaiter_stack %p\nend\n", (void *)block, (void *)&word,
	       (int)waiter_tid, (void *)waiter_word);
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	pthread_mutex_unlock(&handoff_queue.lock);
	pthread_join(thread, NULL);
	free(block);
	return consumer_wait(&word) == 1 ? 0 : 1;
}
