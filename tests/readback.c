// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "readback.h"

int run_python(const char *script, const char *const args[])
{
	const char *argv[16] = { "python3", "-c", script };
	size_t n = 3;
	int status;
	pid_t pid;

	while (*args && n < sizeof(argv) / sizeof(argv[0]) - 1)
		argv[n++] = *args++;
	argv[n] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execvp("python3", (char *const *)argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

const char *tests_file(const char *name, char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n;

	snprintf(buf, len, "tests/%s", name);
	if (access(buf, R_OK) == 0)
		return buf;
	/* the binary is build/tests/unit-tests or system-tests (or build-san/...): tests/ is two levels up */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		snprintf(buf, len, "%s/../../tests/%s", dirname(exe), name);
	}
	return buf;
}

FILE *temp_output(const char *stem, char path[64])
{
	FILE *f;
	int fd;

	snprintf(path, 64, "/tmp/wakeprobe-%s-XXXXXX", stem);
	fd = mkstemp(path);
	cr_assert_geq(fd, 0, "mkstemp %s: %s", path, strerror(errno));
	f = fdopen(fd, "w");
	cr_assert_not_null(f);
	return f;
}

const char *fixtures_dir(void)
{
	const char *d = getenv("WAKEPROBE_FIXTURES");

	return d ? d : "tests/fixtures";
}

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	size_t cap = 0;

	cr_assert_not_null(f, "cannot open %s: %s (run the tests from the repository, or set WAKEPROBE_FIXTURES)",
			   path, strerror(errno));
	*len = 0;
	for (;;) {
		if (*len == cap) {
			cap = cap ? cap * 2 : 65536;
			data = realloc(data, cap + 1);
			cr_assert_not_null(data);
		}
		size_t got = fread(data + *len, 1, cap - *len, f);

		if (!got)
			break;
		*len += got;
	}
	fclose(f);
	data[*len] = '\0';
	return data;
}
