// SPDX-License-Identifier: GPL-2.0
/* designs.c - the throughput workloads, their modes, and the sizes wakeprobe runs them at */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "designs.h"
#include "parse.h"

static const struct design_desc designs[] = {
	{
		.name = "burst-queue",
		.summary = "a producer hands N tasks unpaced to a consumer thread: queues, pipes, a thread each",
		.seed = "000",
		.modes = { "cond", "pipe-notify", "pipe-record", "pipe-batch", "thread-per-event" },
		.units_key = "handed_over",
		.unit = "task",
		.args = { "--tasks", "1000", "--repeat", "20" },
		.all_mode = "pipe-notify",
		.all_args = { "--tasks", "1000", "--repeat", "5" },
	},
	{
		.name = "spawn",
		.summary = "creating n threads or coroutines, and one switch between two of them",
		.seed = "001",
		.modes = { "thread-32k", "thread-default", "coroutine", "switch-coroutine", "switch-thread",
			   "switch-cross-cpu" },
		.units_key = "totals",
		.args = { "--count", "100", "--switches", "20000", "--repeat", "10" },
		.all_mode = "thread-32k",
		.all_args = { "--count", "100", "--repeat", "5" },
	},
	{
		.name = "executor",
		.summary = "Boost.Asio's io_service models in C: one thread, a shared pool, a queue per thread",
		.seed = "003",
		.modes = { "single", "pool", "per-thread" },
		.units_key = "handlers_run",
		.unit = "handler",
		.args = { "--handlers", "100000", "--loops", "1000", "--threads", "2", "--repeat", "3" },
		.all_mode = "pool",
		.all_args = { "--handlers", "100000", "--loops", "1000", "--threads", "2", "--repeat", "1" },
	},
	{
		.name = "ipc-stream",
		.summary = "a process streams messages to another: a unix socket, or a ring in shared memory",
		.seed = "004",
		.modes = { "unix", "shm-bounded", "shm-growable" },
		.units_key = "handed_over",
		.unit = "message",
		.args = { "--rounds", "1000", "--repeat", "3" },
		.all_mode = "shm-bounded",
		.all_args = { "--receiver", "busy", "--rounds", "1000", "--repeat", "2" },
	},
};

#define NR_DESIGNS (sizeof(designs) / sizeof(designs[0]))

const struct design_desc *designs__find(const char *name)
{
	for (size_t i = 0; i < NR_DESIGNS; i++)
		if (!strcmp(designs[i].name, name))
			return &designs[i];
	return NULL;
}

const struct design_desc *designs__at(size_t index)
{
	return index < NR_DESIGNS ? &designs[index] : NULL;
}

size_t designs__count(void)
{
	return NR_DESIGNS;
}

bool designs__has_mode(const struct design_desc *d, const char *mode)
{
	for (size_t i = 0; i < DESIGN_MAX_MODES && d->modes[i]; i++)
		if (!strcmp(d->modes[i], mode))
			return true;
	return false;
}

/* word_is - is the @n bytes at @p the word @word? */
static bool word_is(const char *p, size_t n, const char *word)
{
	return strlen(word) == n && !strncmp(p, word, n);
}

bool designs__mode_listed(const char *modes, const char *mode)
{
	const char *p = modes;

	if (!modes)
		return true;
	while (p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);

		if (word_is(p, n, mode) || word_is(p, n, "all"))
			return true;
		p = comma ? comma + 1 : NULL;
	}
	return false;
}

int designs__check_modes(const struct design_desc *d, const char *modes, char *msg, size_t len)
{
	const char *p = modes;

	while (p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		bool known = word_is(p, n, "all");
		char names[256] = "", word[PARSE_QUOTE_LEN];

		for (size_t i = 0; i < DESIGN_MAX_MODES && d->modes[i] && !known; i++)
			known = word_is(p, n, d->modes[i]);
		if (!known) {
			for (size_t i = 0; i < DESIGN_MAX_MODES && d->modes[i]; i++)
				snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", i ? ", " : "",
					 d->modes[i]);
			/* what the user typed: quoted, so that the message stays one line */
			parse__quote(p, n, word);
			snprintf(msg, len, "--mode: %s has no mode '%s': give %s (comma-separated), or all", d->name, word,
				 names);
			return -EINVAL;
		}
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

/* the options wakeprobe gives the workload itself: the user names them to wakeprobe, not after -- */
static const struct {
	const char *long_name;
	const char *short_name;
	const char *instead;
} own_options[] = {
	{ "--mode", "-m", "give wakeprobe --mode M" },
	{ "--cpus", "-c", "give wakeprobe --cpus A,B" },
	{ "--json", "-j", "wakeprobe asks for the JSON itself and reads it" },
	{ "--help", "-h", "run build/workloads/NAME --help for the workload's options" },
};

#define NR_OWN_OPTIONS (sizeof(own_options) / sizeof(own_options[0]))

int designs__check_args(char *const *args, char *msg, size_t len)
{
	for (size_t i = 0; args && args[i]; i++) {
		const char *a = args[i];

		if (!strcmp(a, "--"))
			break;
		for (size_t k = 0; k < NR_OWN_OPTIONS; k++) {
			size_t n = strlen(own_options[k].long_name);
			bool is_long = !strncmp(a, own_options[k].long_name, n) && (!a[n] || a[n] == '=');
			/* a short option, alone or with its value or other letters after it: "-mcond", "-jr3" */
			bool is_short = a[0] == '-' && a[1] == own_options[k].short_name[1];

			if (is_long || is_short) {
				snprintf(msg, len, "%s after -- is set by wakeprobe: %s", own_options[k].long_name,
					 own_options[k].instead);
				return -EINVAL;
			}
		}
	}
	return 0;
}
