// SPDX-License-Identifier: GPL-2.0
/*
 * The bash completion, completions/wakeprobe, driven as bash drives it:
 * the script sourced, COMP_WORDS and COMP_CWORD set, the function that
 * `complete -p wakeprobe` names called, COMPREPLY read back.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "helpers.h"
#include "readback.h"

#define BASH "/bin/bash"

/*
 * What bash does on a TAB, as a script: $1 the completion script, $2 the
 * directory to complete in, the rest the words of the line, the last one
 * the word under the cursor. COMPREPLY comes out one word a line.
 */
static const char driver[] =
	"source \"$1\" || exit 3\n"
	"spec=$(complete -p wakeprobe) || exit 4\n"
	"fn=${spec#*-F }; fn=${fn%% *}\n"
	"cd \"$2\" || exit 5\n"
	"shift 2\n"
	"COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1))\n"
	"COMP_LINE=\"$*\"; COMP_POINT=${#COMP_LINE}\n"
	"COMPREPLY=()\n"
	"\"$fn\" \"$1\" \"${COMP_WORDS[COMP_CWORD]}\" \"${COMP_WORDS[COMP_CWORD - 1]}\" || exit 6\n"
	"((${#COMPREPLY[@]} == 0)) || printf '%s\\n' \"${COMPREPLY[@]}\"\n";

static char dir[] = "/tmp/wakeprobe-completion-XXXXXX";

/* a directory to complete file names in: two outputs, a recording, a text file and a directory */
static void make_files(void)
{
	static const char *const files[] = { "run.json", "old.wpr", "notes.txt", NULL };
	char path[128];

	cr_assert_not_null(mkdtemp(dir));
	for (const char *const *f = files; *f; f++) {
		int fd;

		snprintf(path, sizeof(path), "%s/%s", dir, *f);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		cr_assert_geq(fd, 0, "%s", path);
		close(fd);
	}
	snprintf(path, sizeof(path), "%s/sub", dir);
	cr_assert_eq(mkdir(path, 0755), 0);
}

static void remove_files(void)
{
	static const char *const names[] = { "run.json", "old.wpr", "notes.txt", NULL };
	char path[128];

	for (const char *const *f = names; *f; f++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *f);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/sub", dir);
	rmdir(path);
	rmdir(dir);
}

TestSuite(completion, .init = make_files, .fini = remove_files);

/* complete - what the completion offers for the NULL-terminated @words after "wakeprobe" */
static void complete(struct names *offered, const char *const words[])
{
	static struct wakeprobe_ran r;
	char script[4096];
	char *argv[40] = { BASH, "-c", (char *)driver, BASH, script, dir, (char *)wakeprobe_path() };
	size_t n = 7;
	const char *line;

	tests_file("../completions/wakeprobe", script, sizeof(script));
	for (; *words; words++) {
		cr_assert_lt(n + 1, sizeof(argv) / sizeof(argv[0]));
		argv[n++] = (char *)*words;
	}
	argv[n] = NULL;
	program_run(&r, argv);
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0, "the completion failed: status 0x%x, %s",
		  r.status, r.err);
	cr_assert_str_empty(r.err, "the completion complained: %s", r.err);
	offered->n = 0;
	for (line = r.out; *line; line += strcspn(line, "\n") + 1)
		names_add(offered, line, strcspn(line, "\n"));
}

/* expect_exactly - @offered holds the NULL-terminated @want, and nothing else */
static void expect_exactly(const struct names *offered, const char *const want[])
{
	size_t n = 0;

	for (; want[n]; n++)
		cr_expect(names_has(offered, want[n]), "%s is not offered", want[n]);
	for (size_t i = 0; i < offered->n; i++) {
		bool wanted = false;

		for (size_t k = 0; k < n; k++)
			wanted |= !strcmp(offered->name[i], want[k]);
		cr_expect(wanted, "%s is offered, and should not be", offered->name[i]);
	}
	cr_assert_eq(offered->n, n, "%zu words offered, %zu wanted", offered->n, n);
}

Test(completion, the_first_word_completes_to_the_subcommands)
{
	struct names offered;

	complete(&offered, (const char *const[]){ "re", NULL });
	expect_exactly(&offered, (const char *const[]){ "record", "report", NULL });
	complete(&offered, (const char *const[]){ "rep", NULL });
	expect_exactly(&offered, (const char *const[]){ "report", NULL });
	complete(&offered, (const char *const[]){ "k", NULL });
	expect_exactly(&offered, (const char *const[]){ "kernel", NULL });
	/* kernel takes -v and nothing else */
	complete(&offered, (const char *const[]){ "kernel", "--", NULL });
	expect_exactly(&offered, (const char *const[]){ "--verbose", NULL });
	complete(&offered, (const char *const[]){ "kernel", "", NULL });
	expect_exactly(&offered, (const char *const[]){ NULL });
}

Test(completion, a_dash_offers_every_long_option_help_prints)
{
	static struct names help, offered;

	help_long_options(&help);
	cr_assert_geq(help.n, 20);
	complete(&offered, (const char *const[]){ "--", NULL });
	cr_assert_eq(offered.n, help.n, "%zu options offered, --help prints %zu", offered.n, help.n);
	for (size_t i = 0; i < help.n; i++)
		cr_expect(names_has(&offered, help.name[i]), "%s is not offered", help.name[i]);
	complete(&offered, (const char *const[]){ "--workload", "cond", "--thr", NULL });
	expect_exactly(&offered, (const char *const[]){ "--threshold-us", NULL });
	/* after report's recording, its options */
	complete(&offered, (const char *const[]){ "report", "x.wpr", "--pe", NULL });
	expect_exactly(&offered, (const char *const[]){ "--perfetto", NULL });
	/* --engine's older spellings, which --help lists not: once nothing it lists fits what is typed */
	complete(&offered, (const char *const[]){ "--e", NULL });
	expect_exactly(&offered, (const char *const[]){ "--engine", NULL });
	complete(&offered, (const char *const[]){ "--ex", NULL });
	expect_exactly(&offered, (const char *const[]){ "--explain", NULL });
	complete(&offered, (const char *const[]){ "--le", NULL });
	expect_exactly(&offered, (const char *const[]){ "--lean", NULL });
}

Test(completion, a_workload_is_one_that_list_workloads_prints_or_all)
{
	static struct names listed, offered;

	listed_workloads(&listed, NULL);
	cr_assert_geq(listed.n, 10, "--list-workloads prints %zu workloads", listed.n);
	cr_assert(names_has(&listed, "eventfd") && names_has(&listed, "burst-queue"));
	names_add(&listed, "all", 3);
	complete(&offered, (const char *const[]){ "--workload", "", NULL });
	cr_assert_eq(offered.n, listed.n, "%zu workloads offered, --list-workloads prints %zu and all", offered.n,
		     listed.n);
	for (size_t i = 0; i < listed.n; i++)
		cr_expect(names_has(&offered, listed.name[i]), "%s is not offered", listed.name[i]);

	complete(&offered, (const char *const[]){ "-w", "ev", NULL });
	expect_exactly(&offered, (const char *const[]){ "eventfd", NULL });
	/* --workload=sp: bash splits the word at '=' */
	complete(&offered, (const char *const[]){ "record", "-o", "x.wpr", "--workload", "=", "sp", NULL });
	expect_exactly(&offered, (const char *const[]){ "spin", "spawn", NULL });
}

Test(completion, a_mode_is_one_of_the_workload_named_before_it)
{
	static struct names modes, offered;
	char given[2 * sizeof(((struct names *)0)->name[0])];

	listed_workloads(&modes, "burst-queue");
	cr_assert_geq(modes.n, 2, "--list-workloads gives burst-queue %zu modes", modes.n);
	complete(&offered, (const char *const[]){ "--workload", "burst-queue", "--mode", "", NULL });
	cr_assert_eq(offered.n, modes.n, "%zu modes offered, burst-queue has %zu", offered.n, modes.n);
	for (size_t i = 0; i < modes.n; i++)
		cr_expect(names_has(&offered, modes.name[i]), "%s is not offered", modes.name[i]);

	/* a list: the item after the last comma completes, the items before it stay */
	snprintf(given, sizeof(given), "%s,%s", modes.name[0], modes.name[1]);
	complete(&offered, (const char *const[]){ "-w", "burst-queue", "--mode", given, NULL });
	expect_exactly(&offered, (const char *const[]){ given, NULL });
	complete(&offered, (const char *const[]){ "--workload", "=", "spawn", "--mode", "thread-", NULL });
	expect_exactly(&offered, (const char *const[]){ "thread-32k", "thread-default", NULL });
}

Test(completion, outputs_complete_to_files_and_report_to_recordings)
{
	struct names offered;
	static const char *const outputs[] = { "-o", "--output", "--json", "--csv", "--perfetto", NULL };

	for (const char *const *o = outputs; *o; o++) {
		complete(&offered, (const char *const[]){ *o, "", NULL });
		expect_exactly(&offered, (const char *const[]){ "run.json", "old.wpr", "notes.txt", "sub", NULL });
	}
	complete(&offered, (const char *const[]){ "--json", "=", "r", NULL });
	expect_exactly(&offered, (const char *const[]){ "run.json", NULL });
	/* report reads a recording: *.wpr, and directories to look in */
	complete(&offered, (const char *const[]){ "report", "", NULL });
	expect_exactly(&offered, (const char *const[]){ "old.wpr", "sub", NULL });
	complete(&offered, (const char *const[]){ "report", "--outliers", "5", "", NULL });
	expect_exactly(&offered, (const char *const[]){ "old.wpr", "sub", NULL });
	/* ... only one */
	complete(&offered, (const char *const[]){ "report", "old.wpr", "", NULL });
	expect_exactly(&offered, (const char *const[]){ NULL });
}

Test(completion, values_complete_to_their_choices_and_numbers_to_nothing)
{
	struct names offered;

	complete(&offered, (const char *const[]){ "--pid", "1", "--order", "c", NULL });
	expect_exactly(&offered, (const char *const[]){ "count", "cost", NULL });
	complete(&offered, (const char *const[]){ "--pid", "1", "--engine", "", NULL });
	expect_exactly(&offered, (const char *const[]){ "lean", "full", NULL });
	/* the older spelling, which scripts still type */
	complete(&offered, (const char *const[]){ "--pid", "1", "--explain", "", NULL });
	expect_exactly(&offered, (const char *const[]){ "slow", "all", NULL });
	complete(&offered, (const char *const[]){ "--workload", "eventfd", "--samples", "", NULL });
	expect_exactly(&offered, (const char *const[]){ NULL });
	/* not a file name where a number goes */
	complete(&offered, (const char *const[]){ "--workload", "cond", "--cpus", "", NULL });
	expect_exactly(&offered, (const char *const[]){ NULL });
}
