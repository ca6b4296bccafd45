// SPDX-License-Identifier: GPL-2.0
/*
 * test_designs.c - the throughput workloads wakeprobe runs: each design
 * found by name with its modes, units and sizes; the sizes wakeprobe
 * passes pass its own check; a --mode list read word by word; and the
 * options wakeprobe sets itself refused after the separator, long, short
 * or glued to their values, with one line naming the fix.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "designs.h"

TestSuite(designs);

Test(designs, the_options_wakeprobe_sets_are_refused_after_the_separator)
{
	char msg[160];
	char *ok[] = { "--tasks", "100", "-r3", "--receiver", "busy", "-H", "10", NULL };
	char *mode[] = { "--tasks", "1", "--mode=cond", NULL };
	char *json[] = { "-jr3", NULL };
	char *cpus[] = { "-c", "0,1", NULL };
	char *help[] = { "--help", NULL };
	char *after[] = { "--", "--json", NULL };

	cr_assert_eq(designs__check_args(ok, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(designs__check_args(NULL, msg, sizeof(msg)), 0);
	cr_assert_eq(designs__check_args(mode, msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "--mode after -- is set by wakeprobe"), "%s", msg);
	cr_assert_eq(designs__check_args(json, msg, sizeof(msg)), -EINVAL);
	cr_assert_eq(designs__check_args(cpus, msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "give wakeprobe --cpus A,B"), "%s", msg);
	cr_assert_eq(designs__check_args(help, msg, sizeof(msg)), -EINVAL);
	/* past a -- of its own the workload takes what it takes */
	cr_assert_eq(designs__check_args(after, msg, sizeof(msg)), 0);
}

Test(designs, every_design_has_modes_units_and_a_mode_for_all)
{
	cr_assert_eq(designs__count(), 4);
	for (size_t i = 0; i < designs__count(); i++) {
		const struct design_desc *d = designs__at(i);

		cr_assert(d->modes[0] && d->units_key && d->seed, "%s", d->name);
		cr_assert(designs__has_mode(d, d->all_mode), "%s: %s", d->name, d->all_mode);
		cr_assert_eq(designs__find(d->name), d);
	}
	cr_assert_null(designs__find("eventfd"));
	cr_assert_null(designs__at(designs__count()));
}

Test(designs, a_mode_list_names_whole_words_and_all_names_every_mode)
{
	const struct design_desc *bq = designs__find("burst-queue");
	char msg[200];

	cr_assert(designs__mode_listed(NULL, "cond"));
	cr_assert(designs__mode_listed("pipe-notify,cond", "cond"));
	cr_assert(designs__mode_listed("all", "pipe-batch"));
	/* a word that begins another is not it */
	cr_assert_not(designs__mode_listed("pipe-notify", "pipe"));
	cr_assert_not(designs__mode_listed("condx", "cond"));
	cr_assert_eq(designs__check_modes(bq, "cond,all,thread-per-event", msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(designs__check_modes(bq, "cond,pipe", msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "burst-queue has no mode 'pipe': give cond, pipe-notify,"), "%s", msg);
	cr_assert_eq(designs__check_modes(bq, "cond,", msg, sizeof(msg)), -EINVAL, "an empty word is a typo");
	/* what the user typed is quoted: the message stays one line (found by the options fuzzer) */
	cr_assert_eq(designs__check_modes(bq, "co\nnd\xe9,cond", msg, sizeof(msg)), -EINVAL);
	cr_assert_null(strchr(msg, '\n'), "%s", msg);
	cr_assert(strstr(msg, "no mode 'co\\x0and\\xe9'"), "%s", msg);
}

struct design_case {
	char name[16];
	char seed[4];
	char modes[DESIGN_MAX_MODES][20];
	char units_key[16];
	char unit[12];		/* empty: the document says its unit itself */
	char all_mode[16];
};

ParameterizedTestParameters(designs, each_design_is_found_with_its_seed_modes_and_units)
{
	static struct design_case cases[] = {
		{ "burst-queue", "000", { "cond", "pipe-notify", "pipe-record", "pipe-batch", "thread-per-event" },
		  "handed_over", "task", "pipe-notify" },
		{ "spawn", "001", { "thread-32k", "thread-default", "coroutine", "switch-coroutine", "switch-thread",
				    "switch-cross-cpu" },
		  "totals", "", "thread-32k" },
		{ "executor", "003", { "single", "pool", "per-thread" }, "handlers_run", "handler", "pool" },
		{ "ipc-stream", "004", { "unix", "shm-bounded", "shm-growable" }, "handed_over", "message",
		  "shm-bounded" },
	};

	return cr_make_param_array(struct design_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct design_case *c, designs, each_design_is_found_with_its_seed_modes_and_units)
{
	const struct design_desc *d = designs__find(c->name);
	size_t i;

	cr_assert_not_null(d, "%s", c->name);
	cr_assert_str_eq(d->name, c->name);
	cr_assert_str_eq(d->seed, c->seed);
	for (i = 0; i < DESIGN_MAX_MODES && c->modes[i][0]; i++) {
		cr_assert(d->modes[i] && !strcmp(d->modes[i], c->modes[i]), "%s mode %zu: %s, want %s", c->name, i,
			  d->modes[i] ? d->modes[i] : "(none)", c->modes[i]);
		cr_assert(designs__has_mode(d, c->modes[i]));
	}
	if (i < DESIGN_MAX_MODES)
		cr_assert_null(d->modes[i], "%s has a mode past %s", c->name, c->modes[i - 1]);
	cr_assert_str_eq(d->units_key, c->units_key);
	if (c->unit[0])
		cr_assert(d->unit && !strcmp(d->unit, c->unit), "%s: unit %s", c->name, d->unit ? d->unit : "(none)");
	else
		cr_assert_null(d->unit, "%s counts in objects of their own", c->name);
	cr_assert_str_eq(d->all_mode, c->all_mode);
	/* a mode of another design, or a word that begins a mode, is not one of its modes */
	cr_assert_not(designs__has_mode(d, "all"));
	cr_assert_not(designs__has_mode(d, ""));
	cr_assert_not(designs__has_mode(d, strcmp(c->name, "executor") ? "pool" : "unix"));
}

/* the sizes wakeprobe passes: option and value pairs, none of them one wakeprobe sets itself */
Test(designs, the_sizes_wakeprobe_passes_pass_its_own_check)
{
	for (size_t i = 0; i < designs__count(); i++) {
		const struct design_desc *d = designs__at(i);
		const char *const *lists[] = { d->args, d->all_args };
		char msg[160] = "";

		for (size_t l = 0; l < 2; l++) {
			size_t n = 0;

			cr_assert_eq(designs__check_args((char *const *)lists[l], msg, sizeof(msg)), 0, "%s: %s",
				     d->name, msg);
			while (n < DESIGN_MAX_ARGS && lists[l][n])
				n++;
			cr_assert_lt(n, DESIGN_MAX_ARGS, "%s: no room for the end of the list", d->name);
			cr_assert_eq(n % 2, 0, "%s: %zu words, not option and value pairs", d->name, n);
			for (size_t k = 0; k < n; k += 2) {
				cr_assert_eq(strncmp(lists[l][k], "--", 2), 0, "%s: %s", d->name, lists[l][k]);
				cr_assert_neq(lists[l][k + 1][0], '-', "%s %s: a value", d->name, lists[l][k]);
			}
		}
		/* names and modes are words, each once */
		for (size_t k = 0; k < i; k++)
			cr_assert_str_neq(d->name, designs__at(k)->name);
		for (size_t m = 0; m < DESIGN_MAX_MODES && d->modes[m]; m++)
			for (size_t k = 0; k < m; k++)
				cr_assert_str_neq(d->modes[m], d->modes[k], "%s", d->name);
	}
}

struct arg_case {
	char arg[24];
	char refused[12];	/* the long option named in the message; empty: taken */
};

ParameterizedTestParameters(designs, an_option_wakeprobe_sets_is_refused_in_every_spelling)
{
	static struct arg_case cases[] = {
		{ "--mode", "--mode" },
		{ "--mode=cond", "--mode" },
		{ "-m", "--mode" },
		{ "-mcond", "--mode" },
		{ "--cpus", "--cpus" },
		{ "--cpus=0,1", "--cpus" },
		{ "-c0,1", "--cpus" },
		{ "--json", "--json" },
		{ "-j", "--json" },
		{ "--help", "--help" },
		{ "-h", "--help" },
		{ "-hv", "--help" },
		/* options of the workload's own that merely begin alike */
		{ "--modes", "" },
		{ "--json-file", "" },
		{ "--cpus-per-task", "" },
		{ "--tasks", "" },
		{ "-r3", "" },
		{ "-H", "" },
		{ "-", "" },
		{ "mode", "" },
		{ "", "" },
	};

	return cr_make_param_array(struct arg_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct arg_case *c, designs, an_option_wakeprobe_sets_is_refused_in_every_spelling)
{
	char *args[] = { "--repeat", "3", c->arg, "1", NULL };
	char msg[160] = "", want[64];
	int err = designs__check_args(args, msg, sizeof(msg));

	if (!c->refused[0]) {
		cr_assert_eq(err, 0, "'%s' is the workload's: %s", c->arg, msg);
		return;
	}
	cr_assert_eq(err, -EINVAL, "'%s' is wakeprobe's", c->arg);
	snprintf(want, sizeof(want), "%s after -- is set by wakeprobe: ", c->refused);
	cr_assert_eq(strncmp(msg, want, strlen(want)), 0, "'%s': %s", c->arg, msg);
	cr_assert_null(strchr(msg, '\n'), "one line: %s", msg);
}

Test(designs, a_refusal_says_what_to_do_instead)
{
	static const struct {
		const char *arg;
		const char *msg;
	} cases[] = {
		{ "--mode", "--mode after -- is set by wakeprobe: give wakeprobe --mode M" },
		{ "-c", "--cpus after -- is set by wakeprobe: give wakeprobe --cpus A,B" },
		{ "--json", "--json after -- is set by wakeprobe: wakeprobe asks for the JSON itself and reads it" },
		{ "-h", "--help after -- is set by wakeprobe: run build/workloads/NAME --help for the workload's options" },
	};
	char msg[160], small[16];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *args[] = { (char *)cases[i].arg, NULL };

		cr_assert_eq(designs__check_args(args, msg, sizeof(msg)), -EINVAL);
		cr_assert_str_eq(msg, cases[i].msg);
	}
	/* cut to the room given */
	cr_assert_eq(designs__check_args((char *[]){ "-m", NULL }, small, sizeof(small)), -EINVAL);
	cr_assert_str_eq(small, "--mode after --");
}

Test(designs, a_mode_list_names_every_bad_word_and_the_modes_there_are)
{
	const struct design_desc *ex = designs__find("executor");
	char msg[200];

	cr_assert_eq(designs__check_modes(ex, "pool", msg, sizeof(msg)), 0);
	cr_assert_eq(designs__check_modes(ex, "all", msg, sizeof(msg)), 0);
	cr_assert_eq(designs__check_modes(ex, "single,pool,per-thread", msg, sizeof(msg)), 0);
	/* a mode of another design */
	cr_assert_eq(designs__check_modes(ex, "pool,unix", msg, sizeof(msg)), -EINVAL);
	cr_assert_str_eq(msg, "--mode: executor has no mode 'unix': give single, pool, per-thread (comma-separated), "
			      "or all");
	/* the first bad word is the one named */
	cr_assert_eq(designs__check_modes(ex, "Pool,x", msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "no mode 'Pool'"), "%s", msg);
	cr_assert_eq(designs__check_modes(ex, "", msg, sizeof(msg)), -EINVAL, "an empty list names nothing");
	cr_assert(strstr(msg, "no mode ''"), "%s", msg);
	cr_assert_eq(designs__check_modes(ex, ",pool", msg, sizeof(msg)), -EINVAL);
	/* what is listed, word by word */
	cr_assert(designs__mode_listed("single,all", "per-thread"));
	cr_assert(designs__mode_listed("single,per-thread", "per-thread"));
	cr_assert_not(designs__mode_listed("single,per", "per-thread"));
	cr_assert_not(designs__mode_listed("", "single"));
	cr_assert_not(designs__mode_listed("allx", "single"));
}
