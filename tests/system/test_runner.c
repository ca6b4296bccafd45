// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/run-tests.sh, the runner make test goes through: a command that
 * fails after a closing line that counts no failure is named at the end,
 * with how it ended, and the whole run's status is its.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "helpers.h"
#include "readback.h"

static struct wakeprobe_ran ran;

/* script - the runner beside these tests, or the test skipped */
static char *script(void)
{
	static char path[PATH_MAX];

	if (access(tests_file("../scripts/run-tests.sh", path, sizeof(path)), X_OK))
		cr_skip_test("needs the source tree beside the tests: %s is not there", path);
	return path;
}

/* runner_run - the runner on @cmds (commands split by "::", at most 16 words), its log a file of its own */
static void runner_run(char *const cmds[], int want_status)
{
	char log[] = "/tmp/wakeprobe-runner-XXXXXX";
	char *argv[20] = { script(), log };
	int fd = mkstemp(log), n = 2;

	cr_assert_geq(fd, 0);
	close(fd);
	for (int i = 0; cmds[i]; i++) {
		cr_assert_lt(n, 19);
		argv[n++] = cmds[i];
	}
	program_run(&ran, argv);
	unlink(log);
	cr_assert(WIFEXITED(ran.status) && WEXITSTATUS(ran.status) == want_status, "status 0x%x:\n%s%s", ran.status,
		  ran.out, ran.err);
}

Test(runner, a_command_failing_after_a_clean_closing_line_is_named_with_its_status)
{
	runner_run((char *[]){ "/bin/true", "::", "/bin/sh", "-c",
			       "echo '[====] Synthesis: Tested: 1 | Passing: 1 | Failing: 0'; exit 3", "::",
			       "/bin/sh", "-c", "kill -9 $$", NULL }, 3);
	cr_assert(strstr(ran.out, "--- what failed"), "%s", ran.out);
	cr_assert(strstr(ran.out, "\n/bin/sh -c echo '[====] Synthesis: Tested: 1 | Passing: 1 | Failing: 0'; exit 3: "
				  "exit 3, tee 0\n"), "the first failure is not named:\n%s", ran.out);
	cr_assert(strstr(ran.out, "\n/bin/sh -c kill -9 $$: exit 137 (signal 9), tee 0\n"),
		  "the killed one is not named:\n%s", ran.out);
	cr_assert_null(strstr(ran.out, "/bin/true:"), "a command that passed is named:\n%s", ran.out);
}

Test(runner, commands_that_all_pass_end_with_status_0_and_no_summary)
{
	runner_run((char *[]){ "/bin/true", "::", "/bin/echo", "ran", NULL }, 0);
	cr_assert(strstr(ran.out, "ran\n"), "%s", ran.out);
	cr_assert_null(strstr(ran.out, "--- what failed"), "%s", ran.out);
}
