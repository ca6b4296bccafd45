// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_options.c - libFuzzer harness for the command line: the input is an
 * argv, its words separated by NUL bytes. Whatever it holds, the parser
 * runs, stops, or rejects it in one line.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"

#define MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	char *argv[MAX_ARGS + 2], err[256] = "";
	char *copy = malloc(size + 1);
	struct wp_options o;
	int argc = 1;
	size_t i, start = 0;

	if (!sink)
		sink = fopen("/dev/null", "w");
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	argv[0] = "wakeprobe";
	for (i = 0; i <= size && argc <= MAX_ARGS; i++)
		if (copy[i] == '\0') {
			argv[argc++] = copy + start;
			start = i + 1;
		}
	argv[argc] = NULL;
	if (options__parse(&o, argc, argv, 4, sink, err, sizeof(err)) == OPTIONS_BAD &&
	    (!err[0] || strchr(err, '\n')))
		abort();	/* a rejection is one line that names the problem */
	free(copy);
	return 0;
}
