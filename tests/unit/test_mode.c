// SPDX-License-Identifier: GPL-2.0
/*
 * test_mode.c - what the modes share: which mode wants which options, in
 * the order main.c asks them; --user resolved by name or number, a name
 * that is no user refused as usage; the report at the end, whole or one
 * line and status 1
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mode.h"

/* main's order: the first mode that wants the options runs */
static const struct mode *const order[] = { &replay_mode, &attach_mode, &design_mode, &workload_mode };

static const struct mode *picked(const struct wp_options *o)
{
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (order[i]->wants(o))
			return order[i];
	return NULL;
}

Test(mode, each_way_of_running_is_picked_by_the_options_that_ask_for_it)
{
	int32_t pid = 1;
	char *argv[] = { "sleep", "1", NULL };
	struct wp_options workload = { .workload = "eventfd" };
	struct wp_options design = { .workload = "burst-queue", .design = true };
	struct wp_options by_pid = { .nr_pids = 1 };
	struct wp_options command = { .target_argv = argv };
	struct wp_options report = { .command = CMD_REPORT, .report_path = "run.wpr", .nr_pids = 0 };
	struct wp_options record = { .command = CMD_RECORD, .record_path = "run.wpr", .workload = "cond" };

	by_pid.pids[0] = pid;
	cr_assert_eq(picked(&workload), &workload_mode);
	cr_assert_eq(picked(&record), &workload_mode, "record is a workload run that also writes its inputs");
	cr_assert_eq(picked(&design), &design_mode);
	cr_assert_eq(picked(&by_pid), &attach_mode);
	cr_assert_eq(picked(&command), &attach_mode);
	cr_assert_eq(picked(&report), &replay_mode);
	cr_assert_str_eq(picked(&report)->name, "replay");
	/* --tid given to report is for an attach recording: still the replay's to say so */
	report.nr_tids = 1;
	cr_assert_eq(picked(&report), &replay_mode);
}

Test(mode, every_mode_holds_the_hooks_main_calls)
{
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const struct mode *m = order[i];

		cr_assert_not_null(m->name);
		cr_assert_not_null(m->wants, "%s", m->name);
		cr_assert_not_null(m->open, "%s: nothing is made without it", m->name);
		cr_assert_not_null(m->measure, "%s", m->name);
		cr_assert_not_null(m->report, "%s", m->name);
		cr_assert_not_null(m->close, "%s: what open made is freed", m->name);
		cr_assert_gt(m->state_size, 0, "%s", m->name);
	}
	cr_assert(workload_mode.wants(&(struct wp_options){ .workload = "pipe" }), "the last mode takes any options");
}

Test(mode, a_user_is_found_by_name_or_by_number)
{
	uid_t uid = 1;
	gid_t gid = 1;

	cr_assert_eq(mode__resolve_user("root", &uid, &gid), 0);
	cr_assert_eq(uid, 0);
	cr_assert_eq(gid, 0);
	uid = gid = 1;
	cr_assert_eq(mode__resolve_user("0", &uid, &gid), 0);
	cr_assert_eq(uid, 0);
	cr_assert_eq(gid, 0);
}

Test(mode, a_name_that_is_no_user_is_usage_and_says_where_to_look, .init = cr_redirect_stderr)
{
	uid_t uid = 7;
	gid_t gid = 7;

	cr_assert_eq(mode__resolve_user("no-such-user-of-wakeprobe", &uid, &gid), 2);
	cr_assert_eq(uid, 7, "nothing is set on failure");
	fflush(stderr);
	cr_assert_stderr_eq_str("wakeprobe: --user: no user 'no-such-user-of-wakeprobe' on this machine "
				"(see getent passwd)\n");
}

Test(mode, a_report_with_nothing_to_write_is_status_0_and_a_failure_removes_every_file,
     .init = cr_redirect_stderr)
{
	static struct outputs out;
	char dir[] = "/tmp/wakeprobe-mode-XXXXXX", path[64], msg[256], line[512] = "";
	struct wp_options o = {};
	struct mode_run m = { .o = &o, .out = &out };
	struct results r = { .kind = RUN_DESIGN, .design = { .workload = "burst-queue" } };

	/* no file, and the text report not taken (the design's is shown mode by mode) */
	cr_assert_eq(outputs__open(&out, &m.paths, RUN_DESIGN, msg, sizeof(msg)), 0, "%s", msg);
	out.text = false;
	cr_assert_eq(mode__report(&m, &r), 0);

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/design.json", dir);
	m.paths.json = path;
	cr_assert_eq(outputs__open(&out, &m.paths, RUN_DESIGN, msg, sizeof(msg)), 0, "%s", msg);
	out.text = false;
	/* the document's stream goes bad before it is written */
	cr_assert_eq(fclose(out.sinks[0].file.f), 0);
	cr_assert_not_null(out.sinks[0].file.f = fopen("/dev/full", "w"));
	setvbuf(out.sinks[0].file.f, NULL, _IONBF, 0);
	cr_assert_eq(mode__report(&m, &r), 1);
	fflush(stderr);
	snprintf(msg, sizeof(msg), "wakeprobe: --json %s: writing it failed: ", path);
	cr_assert_not_null(fgets(line, sizeof(line), cr_get_redirected_stderr()));
	cr_assert_eq(strncmp(line, msg, strlen(msg)), 0, "one line naming the option and the file: %s", line);
	cr_assert_null(fgets(line, sizeof(line), cr_get_redirected_stderr()), "and nothing more: %s", line);
	cr_assert_eq(rmdir(dir), 0, "no file is left in %s", dir);
}
