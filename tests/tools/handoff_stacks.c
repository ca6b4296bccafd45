// SPDX-License-Identifier: GPL-2.0
/*
 * handoff_stacks.c - two threads handing a token back and forth through a
 * global mutex and condition variable, for the stack tests
 * (tests/system/test_stacks.c): producer_release() wakes the consumer
 * through the condition variable while holding the mutex, and holds it a
 * moment more, so the consumer's wake ends on the mutex too: its futex
 * word is handoff.lock. consumer_wait() sleeps on the condition variable.
 * Built with frame pointers and debug information. Usage: handoff-stacks
 * [ROUNDS] (default 2000).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct handoff {
	int token;		/* 1: the consumer's to take */
	pthread_mutex_t lock;
	pthread_cond_t ready;
};

struct handoff handoff = { 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER };

static void pause_us(long us)
{
	struct timespec ts = { 0, us * 1000 };

	nanosleep(&ts, NULL);
}

/* producer_release - hand the token over: the consumer is woken here, and waits for the lock after */
__attribute__((noinline)) void producer_release(struct handoff *h)
{
	pthread_mutex_lock(&h->lock);
	h->token = 1;
	pthread_cond_signal(&h->ready);
	pause_us(20);
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
}

static long rounds = 2000;

static void *consumer(void *arg)
{
	for (long i = 0; i < rounds; i++)
		consumer_wait(arg);
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
	for (long i = 0; i < rounds; i++) {
		producer_release(&handoff);
		/* the consumer takes it before the next: a wake for each round */
		while (__atomic_load_n(&handoff.token, __ATOMIC_ACQUIRE))
			pause_us(50);
		pause_us(100);
	}
	pthread_join(t, NULL);
	return 0;
}
