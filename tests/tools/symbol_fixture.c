// SPDX-License-Identifier: GPL-2.0
/*
 * symbol_fixture.c - a program with two known functions for the
 * symbolizer's unit tests (tests/unit/test_symbolizer.c): it prints their
 * addresses, one a line, then lives until its standard input ends. Built
 * with debug information, and stripped of every symbol as a second copy.
 */
#include <stdio.h>
#include <unistd.h>

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

int main(void)
{
	volatile int word = 0;
	char c;

	producer_release(&word);
	printf("%p\n%p\n", (void *)producer_release, (void *)consumer_wait);
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	return consumer_wait(&word) == 1 ? 0 : 1;
}
