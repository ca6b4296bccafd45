// SPDX-License-Identifier: GPL-2.0
/* outfile.c - output files that appear whole or not at all */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>
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

/* the mode of a file made where none was, or in place of another user's */
static mode_t new_mode = OUTFILE_NEW_MODE;

int outfile__set_new_mode(mode_t mode)
{
	if (mode & ~(mode_t)0777 || mode & S_IWOTH)
		return -EINVAL;
	new_mode = mode;
	return 0;
}

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

int outfile__error(const struct outfile *o, int err)
{
	return o->err ? o->err : err;
}

/* stream_write - the stream's writes: all of @n bytes, or the first error kept in @cookie */
static ssize_t stream_write(void *cookie, const char *buf, size_t n)
{
	struct outfile *o = cookie;
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(o->fd, buf + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!o->err)
				o->err = w < 0 ? -errno : -EIO;
			break;
		}
		done += (size_t)w;
	}
	/* short: the stream marks itself failed */
	return (ssize_t)done;
}

static int stream_close(void *cookie)
{
	struct outfile *o = cookie;

	return close(o->fd);
}

/* standard output, as a stream that keeps its first failed write's errno */
static struct outfile std_out = { .what = "standard output", .path = "-", .fd = STDOUT_FILENO };

int outfile__wrap_stdout(void)
{
	cookie_io_functions_t io = { .write = stream_write, .close = stream_close };
	FILE *f = fopencookie(&std_out, "w", io);

	if (!f)
		return -errno;
	/* as glibc buffers a terminal's output: a line at a time */
	if (isatty(STDOUT_FILENO))
		setvbuf(f, NULL, _IOLBF, 0);
	std_out.f = f;
	stdout = f;
	return 0;
}

int outfile__stdout_error(void)
{
	return std_out.err;
}

/*
 * open_unnamed - a file of no name in @path's directory (open(2),
 * O_TMPFILE): a run killed before its end, by SIGKILL too, leaves nothing
 * behind. -1 where the filesystem or the kernel has none (EOPNOTSUPP,
 * EISDIR before 3.11), or where /proc cannot name it at the end: a named
 * temporary file then.
 */
static int open_unnamed(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (access("/proc/self/fd", X_OK))
		return -1;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
}

/*
 * name_unnamed - @o's unnamed file, complete, linked to a free name beside
 * its destination (into o->tmp) for rename(2) to put in place: the file
 * has a name for that moment alone (open(2), "O_TMPFILE")
 */
static int name_unnamed(struct outfile *o)
{
	/* outfile__open() took a path with room for the suffix in tmp */
	char fd_path[64], name[sizeof(o->tmp) + 16];
	uint32_t suffix;
	sigset_t old;
	int err = -EEXIST;

	snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%d", o->fd);
	for (int i = 0; i < 32 && err == -EEXIST; i++) {
		if (getrandom(&suffix, sizeof(suffix), GRND_NONBLOCK) != sizeof(suffix))
			suffix = (uint32_t)getpid() * 2654435761u + (uint32_t)i;
		if ((size_t)snprintf(name, sizeof(name), "%s.%06x", o->path, suffix & 0xffffff) >= sizeof(o->tmp))
			return -ENAMETOOLONG;
		block_signals(&old);
		err = linkat(AT_FDCWD, fd_path, AT_FDCWD, name, AT_SYMLINK_FOLLOW) ? -errno : 0;
		if (!err)
			memcpy(o->tmp, name, strlen(name) + 1);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	return err;
}

int outfile__open(struct outfile *o, const char *what, const char *path, char *msg, size_t len)
{
	cookie_io_functions_t io = { .write = stream_write, .close = stream_close };
	struct stat st;
	int err;

	memset(o, 0, sizeof(*o));
	o->what = what;
	o->fd = -1;
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
	err = remember(o);
	if (err) {
		snprintf(msg, len, "%s %s: too many output files at once", what, parse__shown(path));
		return err;
	}
	o->fd = open_unnamed(path);
	o->unnamed = o->fd >= 0;
	if (!o->unnamed) {
		snprintf(o->tmp, sizeof(o->tmp), "%s.XXXXXX", path);
		o->fd = mkostemp(o->tmp, O_CLOEXEC);
	}
	if (o->fd < 0) {
		err = -errno;
		forget(o);
		snprintf(msg, len, "%s %s: cannot create it: %s", what, parse__shown(path), strerror(-err));
		return err;
	}
	o->f = fopencookie(o, "w", io);
	if (!o->f) {
		err = -errno;
		close(o->fd);
		outfile__abandon(o);
		snprintf(msg, len, "%s %s: %s", what, parse__shown(path), strerror(-err));
		return err;
	}
	/*
	 * in large writes: a timeline or a CSV written as the run goes is tens of
	 * MB, which stdio's default buffer would hand the kernel 8 KiB at a time
	 * (a write() every few wakeups); a failed one is still kept and said at
	 * the commit. glibc sizes a buffer only when given one. Without it the
	 * stream works as before, only in smaller writes.
	 */
	o->buf = malloc(OUTFILE_BUFFER_BYTES);
	if (o->buf)
		setvbuf(o->f, o->buf, _IOFBF, OUTFILE_BUFFER_BYTES);
	return 0;
}

/*
 * invoking_uid - the user who ran wakeprobe: the real uid, or under sudo
 * (a real uid of root) the SUDO_UID that sudo(8) sets. Trusted only to
 * keep a file that user already owns, never to give one away.
 */
static uid_t invoking_uid(void)
{
	const char *sudo_uid = getenv("SUDO_UID");
	uint64_t uid;

	if (getuid() == 0 && sudo_uid && !parse__u64(sudo_uid, 0, (uid_t)-2, &uid))
		return (uid_t)uid;
	return getuid();
}

/*
 * set_mode - the owner and mode of the file @o replaces, when that is
 * root's or the invoking user's: a private file stays private, one made
 * readable for its reader (node_exporter's textfile) stays readable. Any
 * other user's file is no one's to keep: planted where root writes (/tmp),
 * it would get root's report and keep it, theirs. The file is then made
 * as a new one is: the temporary file's owner, wakeprobe's effective user,
 * and new_mode, whatever the umask.
 */
static int set_mode(const struct outfile *o)
{
	struct stat st;

	if (!lstat(o->path, &st) && S_ISREG(st.st_mode) && (st.st_uid == 0 || st.st_uid == invoking_uid())) {
		/* root replacing the invoking user's file gives it back; a user cannot give files away */
		if ((st.st_uid != geteuid() || st.st_gid != getegid()) && fchown(o->fd, st.st_uid, st.st_gid) &&
		    errno != EPERM)
			return -errno;
		return fchmod(o->fd, st.st_mode & 0777) ? -errno : 0;
	}
	return fchmod(o->fd, new_mode) ? -errno : 0;
}

int outfile__commit(struct outfile *o, char *msg, size_t len)
{
	int err = 0;

	if (!o->f)
		return 0;
	if (outfile__is_stdout(o)) {
		/* standard output's failure is the process's: wakeprobe checks it once, as it exits */
		o->f = NULL;
		return 0;
	}
	if (fflush(o->f) || ferror(o->f))
		err = outfile__error(o, -EIO);
	if (!err)
		err = set_mode(o);
	if (!err && fsync(o->fd))
		err = -errno;
	/* before the stream closes its descriptor, which names it */
	if (!err && o->unnamed)
		err = name_unnamed(o);
	if (fclose(o->f) && !err)
		err = outfile__error(o, -EIO);
	o->f = NULL;
	free(o->buf);
	o->buf = NULL;
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
	free(o->buf);
	o->buf = NULL;
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

/* a file's identity: its device and inode where it exists, its resolved directory and name where not */
struct file_id {
	bool exists;
	dev_t dev;
	ino_t ino;
	char path[PATH_MAX * 2];
};

static void file_id(const char *path, struct file_id *id)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], resolved[PATH_MAX];
	struct stat st;

	memset(id, 0, sizeof(*id));
	if (!stat(path, &st)) {
		id->exists = true;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		return;
	}
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (!realpath(dir, resolved))
		snprintf(resolved, sizeof(resolved), "%s", dir);
	snprintf(id->path, sizeof(id->path), "%s/%s", resolved, slash ? slash + 1 : path);
}

bool outfile__same(const char *a, const char *b)
{
	struct file_id ia, ib;

	file_id(a, &ia);
	file_id(b, &ib);
	if (ia.exists != ib.exists)
		return false;
	return ia.exists ? ia.dev == ib.dev && ia.ino == ib.ino : !strcmp(ia.path, ib.path);
}
