// SPDX-License-Identifier: GPL-2.0
/* outfile.c - output files that appear whole or not at all */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "outfile.h"
#include "parse.h"

/*
 * The files being written, for outfile__abandon_all_now(). A slot holds a
 * pointer to the caller's struct, whose tmp[] is only cleared once the
 * file is renamed or removed, with signals blocked around the change.
 */
#define MAX_OPEN 8
static struct outfile *volatile open_files[MAX_OPEN];

static void block_signals(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, old);
}

static void forget(struct outfile *o)
{
	sigset_t old;

	block_signals(&old);
	for (int i = 0; i < MAX_OPEN; i++)
		if (open_files[i] == o)
			open_files[i] = NULL;
	o->tmp[0] = '\0';
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static int remember(struct outfile *o)
{
	sigset_t old;
	int i, err = -EMFILE;

	block_signals(&old);
	for (i = 0; i < MAX_OPEN; i++)
		if (!open_files[i]) {
			open_files[i] = o;
			err = 0;
			break;
		}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return err;
}

bool outfile__is_stdout(const struct outfile *o)
{
	return o->f == stdout;
}

int outfile__open(struct outfile *o, const char *what, const char *path, char *msg, size_t len)
{
	struct stat st;
	int fd, err;

	memset(o, 0, sizeof(*o));
	o->what = what;
	if (!strcmp(path, "-")) {
		snprintf(o->path, sizeof(o->path), "-");
		o->f = stdout;
		return 0;
	}
	if (!path[0] || strlen(path) + sizeof(".XXXXXX") > sizeof(o->tmp)) {
		snprintf(msg, len, "%s wants a file name (or - for standard output)", what);
		return -EINVAL;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(msg, len, "%s %s: not a regular file: name a file to create or replace", what,
			 parse__shown(path));
		return -EINVAL;
	}
	snprintf(o->path, sizeof(o->path), "%s", path);
	snprintf(o->tmp, sizeof(o->tmp), "%s.XXXXXX", path);
	err = remember(o);
	if (err) {
		snprintf(msg, len, "%s %s: too many output files at once", what, parse__shown(path));
		o->tmp[0] = '\0';
		return err;
	}
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		forget(o);
		snprintf(msg, len, "%s %s: cannot create it: %s", what, parse__shown(path), strerror(-err));
		return err;
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		err = -errno;
		close(fd);
		outfile__abandon(o);
		snprintf(msg, len, "%s %s: %s", what, parse__shown(path), strerror(-err));
		return err;
	}
	return 0;
}

int outfile__commit(struct outfile *o, char *msg, size_t len)
{
	mode_t mask;
	int err = 0;

	if (!o->f)
		return 0;
	if (outfile__is_stdout(o)) {
		o->f = NULL;
		if (fflush(stdout) || ferror(stdout)) {
			snprintf(msg, len, "%s: writing to standard output failed", o->what);
			return -EIO;
		}
		return 0;
	}
	/* as a plain open(0666) would, with the umask, but never writable by others */
	mask = umask(0);
	umask(mask);
	if (fflush(o->f) || ferror(o->f) || fchmod(fileno(o->f), 0644 & ~mask) || fsync(fileno(o->f)))
		err = errno ? -errno : -EIO;
	if (fclose(o->f) && !err)
		err = errno ? -errno : -EIO;
	o->f = NULL;
	if (!err && rename(o->tmp, o->path))
		err = -errno;
	if (err) {
		snprintf(msg, len, "%s %s: writing it failed: %s", o->what, parse__shown(o->path),
			 strerror(-err));
		unlink(o->tmp);
	}
	forget(o);
	return err;
}

void outfile__abandon(struct outfile *o)
{
	if (o->f && !outfile__is_stdout(o))
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0])
		unlink(o->tmp);
	forget(o);
}

void outfile__abandon_all_now(void)
{
	for (int i = 0; i < MAX_OPEN; i++) {
		struct outfile *o = open_files[i];

		if (o && o->tmp[0])
			unlink(o->tmp);
	}
}
