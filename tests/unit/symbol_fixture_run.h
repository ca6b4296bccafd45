/* SPDX-License-Identifier: GPL-2.0 */
/*
 * symbol_fixture_run.h - a symbol fixture (tests/tools/symbol_fixture.c,
 * symbol_fixture_cxx.cc, crafted_fixture.c, built next to the unit tests'
 * binary) running, and the addresses it said of itself: for the tests of
 * what names them (test_symbolizer.c, test_json_stacks.c), and of what
 * unwinds (test_unwind.c, whose fixture writes a copy of its stack).
 */
#ifndef WAKEPROBE_TEST_SYMBOL_FIXTURE_RUN_H
#define WAKEPROBE_TEST_SYMBOL_FIXTURE_RUN_H

#include <criterion/criterion.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

/* a fixture running, and what it said of itself: "NAME VALUE" lines up to "end" */
struct running {
	pid_t pid;
	int in;			/* its standard input: closing it ends it */
	int n;
	struct {
		char name[64];
		uint64_t value;
	} said[16];
};

/* fixture_path - the fixture @name built next to this test binary */
static inline void fixture_path(const char *name, char path[PATH_MAX])
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	cr_assert_gt(n, 0);
	self[n] = '\0';
	snprintf(path, PATH_MAX, "%s/%s", dirname(self), name);
	cr_assert_eq(access(path, X_OK), 0, "%s is not built (make test builds it)", path);
}

/*
 * fixture_spawn - the program at @path, or in file @fd when @path is NULL,
 * running as @r's, nothing it said read yet: its standard output, to read
 */
static inline int fixture_spawn(const char *path, int fd, struct running *r)
{
	int in[2], out[2];

	/* close-on-exec: a second fixture must not hold the first one's input open */
	cr_assert_eq(pipe2(in, O_CLOEXEC), 0);
	cr_assert_eq(pipe2(out, O_CLOEXEC), 0);
	r->pid = fork();
	cr_assert_geq(r->pid, 0);
	if (!r->pid) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		if (path)
			execl(path, path, (char *)NULL);
		else
			fexecve(fd, (char *[]){ "fixture", NULL }, environ);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	r->in = in[1];
	r->n = 0;
	return out[0];
}

/* start_file - the program at @path, or in file @fd when @path is NULL, running, what it said read into @r */
static inline void start_file(const char *path, int fd, struct running *r)
{
	char line[128];
	FILE *f;
	int out = fixture_spawn(path, fd, r);

	f = fdopen(out, "r");
	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f) && strcmp(line, "end\n")) {
		char value[32];

		cr_assert_lt(r->n, (int)(sizeof(r->said) / sizeof(r->said[0])), "the fixture says too much");
		cr_assert_eq(sscanf(line, "%63s %31s", r->said[r->n].name, value), 2, "the fixture said '%s'", line);
		r->said[r->n++].value = strtoull(value, NULL, 0);
	}
	cr_assert_gt(r->n, 0, "the fixture said nothing");
	fclose(f);
}

static inline void start_path(const char *path, struct running *r)
{
	start_file(path, -1, r);
}

/* start - the fixture @name built next to this test binary, running */
static inline void start(const char *name, struct running *r)
{
	char path[PATH_MAX];

	fixture_path(name, path);
	start_path(path, r);
}

/* said - the value the fixture printed for @name: an address in hex, a number in decimal */
static inline uint64_t said(const struct running *r, const char *name)
{
	for (int i = 0; i < r->n; i++)
		if (!strcmp(r->said[i].name, name))
			return r->said[i].value;
	cr_assert_fail("the fixture did not say its %s", name);
	return 0;
}

static inline void stop(struct running *r)
{
	int status;

	close(r->in);
	cr_assert_eq(waitpid(r->pid, &status, 0), r->pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the fixture: status 0x%x", status);
}

/*
 * build_id_of - the GNU build ID of the ELF file at @path in hex, into
 * @hex, as binutils' readelf reads its notes: not the way the code under
 * test reads it. "" for none.
 */
static inline void build_id_of(const char *path, char hex[129])
{
	char cmd[PATH_MAX + 32], line[256];
	FILE *p;

	hex[0] = '\0';
	snprintf(cmd, sizeof(cmd), "readelf -n '%s' 2>/dev/null", path);
	p = popen(cmd, "r");
	cr_assert_not_null(p, "readelf");
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, " Build ID: %128[0-9a-f]", hex) == 1)
			break;
	pclose(p);
}

#endif
