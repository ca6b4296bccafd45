// SPDX-License-Identifier: GPL-2.0
/*
 * What a run holds in memory does not grow with its length: a workload run
 * keeps its analysis's inputs in a journal that goes on in an unnamed file
 * past 16 MiB, and its records wait in a ring of at most 16 MiB. Needs root
 * and BTF; elsewhere these tests skip and say why.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "helpers.h"
#include "readback.h"

TestSuite(memory, .timeout = 240);

/* the bound: 64 MB for a million samples, the binary, libbpf and the BPF object included */
#define PEAK_RSS_KB	(64 * 1024)

/*
 * assert_peak_rss - @r's peak RSS within the bound; an ASan build's shadow
 * memory and quarantine are in its RSS, so there the plain build's run of
 * the same test holds the bound, and this one the rest
 */
static void assert_peak_rss(const struct wakeprobe_ran *r)
{
	const char *sanitized = getenv("WAKEPROBE_SANITIZED");

	if (sanitized && sanitized[0]) {
		cr_log_info("peak RSS %ld KiB under ASan: the bound is held by the plain build", r->usage.ru_maxrss);
		return;
	}
	cr_assert_leq(r->usage.ru_maxrss, PEAK_RSS_KB, "peak RSS %ld KiB, over %d", r->usage.ru_maxrss, PEAK_RSS_KB);
}

Test(memory, a_million_back_to_back_wakeups_stay_under_64_mb_and_leave_no_file)
{
	char tmp[] = "/tmp/wakeprobe-memory.XXXXXX";
	char *args[] = { "--workload", "eventfd", "--interval-us", "0", "--samples", "1000000", "--outliers", "1", NULL };
	static struct wakeprobe_ran r;

	skip_unless_traceable();
	/* the journal's file goes where TMPDIR says: here, to be looked at */
	cr_assert_not_null(mkdtemp(tmp));
	cr_assert_eq(setenv("TMPDIR", tmp, 1), 0);
	wakeprobe_run_ok(&r, args);
	cr_log_info("peak RSS %ld KiB, CPU %ld.%03ld s user %ld.%03ld s system", r.usage.ru_maxrss,
		    (long)r.usage.ru_utime.tv_sec, (long)r.usage.ru_utime.tv_usec / 1000,
		    (long)r.usage.ru_stime.tv_sec, (long)r.usage.ru_stime.tv_usec / 1000);
	cr_assert(strstr(r.out, "samples    1000000 sent, "), "every sample arrived:\n%s", r.out);
	cr_assert(strstr(r.out, " 0 dropped (BPF ring buffer full)"), "no record was dropped:\n%s", r.out);
	assert_peak_rss(&r);
	cr_assert_eq(dir_entries(tmp), 0, "the journal's file has no name, and is gone");
	rmdir(tmp);
}

Test(memory, a_journal_with_nowhere_to_spill_stays_in_memory_and_the_run_is_whole)
{
	char *args[] = { "--workload", "eventfd", "--interval-us", "0", "--samples", "100000", "--outliers", "1", NULL };
	static struct wakeprobe_ran r;

	skip_unless_traceable();
	cr_assert_eq(setenv("TMPDIR", "/nonexistent/wakeprobe", 1), 0);
	wakeprobe_run_ok(&r, args);
	cr_assert(strstr(r.out, "samples    100000 sent, "), "%s", r.out);
	cr_assert(strstr(r.out, " 0 dropped (BPF ring buffer full)"), "%s", r.out);
	assert_peak_rss(&r);
}
