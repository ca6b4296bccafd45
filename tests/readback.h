/* SPDX-License-Identifier: GPL-2.0 */
/*
 * readback.h - what the unit and the system tests share: a file to write an
 * output into, the files of the tests/ directory and the recorded fixtures,
 * and python3 to read back what a test wrote: the JSON report strictly, the
 * timeline through tests/check_timeline.py, the plot through
 * tests/check_svg.py.
 */
#ifndef WAKEPROBE_TEST_READBACK_H
#define WAKEPROBE_TEST_READBACK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * run_python - python3 -c @script, with the NULL-terminated @args as
 * sys.argv[1:]: its exit status, -1 if it could not run. The output tests
 * parse what they wrote with python's own csv and json modules.
 */
int run_python(const char *script, const char *const args[]);

/*
 * csv_check - python's csv module reads the CSV file at @path strictly and
 * holds it to each of the NULL-terminated @want: "rows=N", "header=a,b,...",
 * or "ROW:column=value" (ROW from 0 after the header; an empty value is an
 * empty cell). Every record must end in CRLF and have as many cells as the
 * header. True when all hold; what did not is printed.
 */
bool csv_check(const char *path, const char *const want[]);

/* temp_output - a new /tmp/wakeprobe-@stem-XXXXXX open for writing; its name in @path */
FILE *temp_output(const char *stem, char path[64]);

/* tests_file - where @name of the tests/ directory is: from the working directory or the test binary */
const char *tests_file(const char *name, char *buf, size_t len);

/* fixtures_dir - where the recorded fixtures are: $WAKEPROBE_FIXTURES, else tests/fixtures */
const char *fixtures_dir(void);

/* read_file - all of @path, NUL-terminated, its length in @len; fails the test if it cannot be read */
char *read_file(const char *path, size_t *len);
/* dir_entries - how many entries directory @dir holds besides . and ..; fails the test if it cannot be read */
int dir_entries(const char *dir);

/*
 * json_vcheck - python3 loads the JSON document at @path into d, strictly
 * (no NaN, no duplicate keys, UTF-8 only), then runs the python @fmt with
 * @ap: true when all its asserts hold. has(o, keys) asserts that object o
 * has each of the space-separated keys; hist_ok(name, s) that the
 * histogram rows of distribution s add up and follow each other.
 */
bool json_vcheck(const char *path, const char *fmt, va_list ap);

/* json_check - json_vcheck() with its arguments in the call: true when all the asserts of @fmt... hold */
bool json_check(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* json_report_keys - python for json_vcheck(): every key docs/json.md promises at the top and in each run */
extern const char json_report_keys[];

/*
 * check_timeline - fail the test unless the trace-event timeline at
 * @file_path passes tests/check_timeline.py and then the python @fmt...:
 * there ct is that module, tl the loaded timeline, summary what its check
 * counted; want(ok, what) fails with what was not so, spans(xs, base)
 * lists slices as (name, start, end) in ns from base, pid_of(name) is the
 * one process of that name, runs[n] the timeline's run n, and T0 the
 * origin of the synthetic streams of unit/perfetto_streams.h.
 */
void check_timeline(const char *file_path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * check_svg - fail the test unless the plot at @file_path passes
 * tests/check_svg.py and then the python @fmt...: there cs is that module,
 * root the SVG's root element, want(ok, what) fails with what was not so,
 * by_class(root, cls, tag), num(e, attr) and text_of(e) are cs's, texts
 * every text drawn, and panel(name, run) the one distribution panel of
 * that name (and run).
 */
void check_svg(const char *file_path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* WAKEPROBE_TEST_READBACK_H */
