// SPDX-License-Identifier: GPL-2.0
/*
 * The man page, docs/wakeprobe.8: man reads it without a warning, and it
 * cannot drift from the binary: its OPTIONS are the long options --help
 * prints, no more and no fewer, its version is the binary's, and its exit
 * statuses are those docs/failures.md gives.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "helpers.h"
#include "readback.h"

#define MAN "/usr/bin/man"

TestSuite(man);

/* man_page - docs/wakeprobe.8, whole; free() it */
static char *man_page(void)
{
	char path[4096];
	size_t len;

	return read_file(tests_file("../docs/wakeprobe.8", path, sizeof(path)), &len);
}

/* section - the text of the man page's section @name, from its .SH line to the next; NULL when it has none */
static char *section(const char *page, const char *name)
{
	char heading[64];
	const char *start, *end;

	snprintf(heading, sizeof(heading), "\n.SH %s\n", name);
	start = strstr(page, heading);
	if (!start)
		return NULL;
	start += strlen(heading);
	end = strstr(start, "\n.SH ");
	return strndup(start, end ? (size_t)(end - start) : strlen(start));
}

/*
 * tagged_long_options - the long options in the tags of @text's .TP entries
 * (the line after each .TP), roff's "\-\-no\-trace" read as "--no-trace"
 */
static void tagged_long_options(const char *text, struct names *n)
{
	const char *tp;

	n->n = 0;
	for (tp = strstr(text, ".TP\n"); tp; tp = strstr(tp + 1, ".TP\n")) {
		const char *tag = tp + strlen(".TP\n"), *end = tag + strcspn(tag, "\n");

		for (const char *p = strstr(tag, "\\-\\-"); p && p < end; p = strstr(p, "\\-\\-")) {
			char name[48] = "--";
			size_t len = 2;

			for (p += 4; len + 1 < sizeof(name);) {
				if (!strncmp(p, "\\-", 2)) {
					name[len++] = '-';
					p += 2;
				} else if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')) {
					name[len++] = *p++;
				} else {
					break;
				}
			}
			names_add(n, name, len);
		}
	}
}

Test(man, man_reads_the_page_without_a_warning)
{
	struct wakeprobe_ran r;
	char path[4096];

	if (access(MAN, X_OK))
		cr_skip_test("needs man (man-db and groff-base: scripts/setup-deps.sh test installs them)");
	tests_file("../docs/wakeprobe.8", path, sizeof(path));
	program_run(&r, (char *[]){ "/usr/bin/env", "MANWIDTH=80", MAN, "--warnings", "-l", path, NULL });
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0, "man -l %s: status 0x%x", path, r.status);
	cr_assert_str_empty(r.err, "man --warnings -l %s warned:\n%s", path, r.err);
	/* and it is the page, formatted: its sections are there */
	cr_assert(strstr(r.out, "WAKEPROBE(8)"), "%s", r.out);
	for (const char *const *s = (const char *const[]){ "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS",
							  "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES",
							  "SEE ALSO", NULL };
	     *s; s++) {
		char heading[32];

		snprintf(heading, sizeof(heading), "\n%s\n", *s);
		cr_assert(strstr(r.out, heading), "no %s section in the formatted page", *s);
	}
}

Test(man, its_options_are_the_long_options_help_prints_no_more_no_fewer)
{
	static struct names help, page;
	char *text = man_page(), *options = section(text, "OPTIONS");

	cr_assert_not_null(options, "docs/wakeprobe.8 has no .SH OPTIONS");
	help_long_options(&help);
	tagged_long_options(options, &page);
	/* both readers found the whole table, not a part of it */
	cr_assert_geq(help.n, 20, "--help lists only %zu long options", help.n);
	cr_assert_geq(page.n, 20, "the man page's OPTIONS has only %zu .TP entries with a long option", page.n);
	for (size_t i = 0; i < help.n; i++)
		cr_expect(names_has(&page, help.name[i]),
			  "--help prints %s, the man page's OPTIONS does not: add a .TP entry to docs/wakeprobe.8",
			  help.name[i]);
	for (size_t i = 0; i < page.n; i++)
		cr_expect(names_has(&help, page.name[i]),
			  "docs/wakeprobe.8's OPTIONS has %s, which --help does not print: wakeprobe has no such option",
			  page.name[i]);
	free(options);
	free(text);
}

Test(man, its_version_is_the_binarys)
{
	struct wakeprobe_ran r;
	char *text = man_page(), *th = strstr(text, "\n.TH "), want[64];

	wakeprobe_run(&r, (char *[]){ "--version", NULL });
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
	/* "wakeprobe 0.1.0\n" -> "\"wakeprobe 0.1.0\"", the .TH line's fourth argument */
	r.out[strcspn(r.out, "\n")] = '\0';
	snprintf(want, sizeof(want), "\"%.48s\"", r.out);
	cr_assert_not_null(th);
	th[strcspn(th + 1, "\n") + 1] = '\0';
	cr_assert(strstr(th, want), "the man page's title line%s does not name %s: update it with the version",
		  th, want);
	free(text);
}

Test(man, its_exit_statuses_are_those_of_docs_failures_md)
{
	char path[4096], *text = man_page(), *exits = section(text, "EXIT STATUS"), *failures;
	const char *line;
	size_t len;
	int n = 0;

	cr_assert_not_null(exits, "docs/wakeprobe.8 has no .SH EXIT STATUS");
	failures = read_file(tests_file("../docs/failures.md", path, sizeof(path)), &len);
	/* the table's rows: "| 0 | the run ... |", and "| 128 + N | signal N ... |" */
	for (line = failures; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		char status[16], tag[32];
		int used = 0;

		if (!strncmp(line, "| 128 + N |", 11)) {
			snprintf(status, sizeof(status), "128+N");
			snprintf(tag, sizeof(tag), ".TP\n.BI 128+ N\n");
		} else if (sscanf(line, "| %15[0-9] |%n", status, &used) != 1 || !used) {
			continue;
		} else {
			snprintf(tag, sizeof(tag), ".TP\n.B %s\n", status);
		}
		cr_expect(strstr(exits, tag), "docs/failures.md gives exit status %s; the man page's EXIT STATUS "
			  "does not", status);
		n++;
	}
	cr_assert_geq(n, 4, "docs/failures.md's table of exit statuses has %d rows", n);
	free(failures);
	free(exits);
	free(text);
}
