// SPDX-License-Identifier: GPL-2.0
/*
 * handoff_stacks.c - two threads handing a token over through a global
 * mutex and condition variable, for the stack tests
 * (tests/system/test_stacks.c). producer_release() takes the lock, holds
 * it a while, puts the token down and signals; consumer_wait() comes for
 * the token while the lock is held, so most rounds it sleeps on the
 * mutex, handoff.lock, and producer_release()'s unlock wakes it; when it
 * comes first, it sleeps on the condition variable.
 *
 * Built with frame pointers and debug information, and written as a
 * program would be: each side calls the lock and the condition variable
 * itself. Debian's libc has no frame pointers, so a walk by them loses
 * the frame that called into it, producer_release()'s and
 * consumer_wait()'s own; the copies wakeprobe unwinds by call frame
 * information (--unwind) reach them. It spins where it waits for time, so
 * that its only sleeps are on the lock and the condition, and keeps its
 * two threads on CPUs 0 and 1. Usage: handoff-stacks [ROUNDS] (default
 * 2000).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct handoff {
	int token;		/* 1: the consumer's to take */
	long taken;		/* tokens the consumer took and let go of the lock after */
	pthread_mutex_t lock;
	pthread_cond_t ready;
};

struct handoff handoff = { 0, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER };

/* spin_us - keep the CPU for @us: a sleep would be a wakeup of its own, a timer's */
static void spin_us(long us)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000 + (t.tv_nsec - t0.tv_nsec) / 1000 < us);
}

/* producer_release - hand the token over: the consumer, asleep on the lock or the condition, is woken here */
__attribute__((noinline)) void producer_release(struct handoff *h)
{
	pthread_mutex_lock(&h->lock);
	spin_us(100);
	h->token = 1;
	pthread_cond_signal(&h->ready);
	pthread_mutex_unlock(&h->lock);
}

/* consumer_wait - sleep until the token comes, and take it */
__attribute__((noinline)) void consumer_wait(struct handoff *h)
{
	pthread_mutex_lock(&h->lock);
	while (!h->token)
		pthread_cond_wait(&h->ready, &h->lock);
	h->token = 0;
	pthread_mutex_unlock(&h->lock);
	__atomic_add_fetch(&h->taken, 1, __ATOMIC_RELEASE);
}

static long rounds = 2000;

/* on_cpu - the calling thread on CPU @cpu, when there is one: two spinning threads on one CPU wait for each other */
static void on_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *consumer(void *arg)
{
	on_cpu(1);
	for (long i = 0; i < rounds; i++) {
		consumer_wait(arg);
		/* back while the producer holds the lock for the next */
		spin_us(50);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc > 1)
		rounds = strtol(argv[1], NULL, 10);
	if (rounds <= 0 || pthread_create(&t, NULL, consumer, &handoff)) {
		fprintf(stderr, "usage: handoff-stacks [ROUNDS]\n");
		return 2;
	}
	on_cpu(0);
	for (long i = 0; i < rounds; i++) {
		producer_release(&handoff);
		/* the consumer takes it and lets the lock go before the next: a wake for each round */
		while (__atomic_load_n(&handoff.taken, __ATOMIC_ACQUIRE) <= i)
			;
	}
	pthread_join(t, NULL);
	return 0;
}
