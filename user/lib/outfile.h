/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outfile.h - an output file that appears whole or not at all.
 *
 * Written to a private temporary file (mkostemp, mode 0600) beside the
 * destination and renamed over it once complete, so a failed or killed run
 * leaves no half-written output and nobody can read or swap the file while
 * it is written. "-" means standard output, written as it goes.
 *
 * Who may read it: a file it replaces keeps its owner and mode when it is
 * root's or the invoking user's (the real uid; under sudo, SUDO_UID), so a
 * private file stays private and one made readable for its reader stays
 * readable. Another user's file does not: planted where root writes, it
 * would get root's report and keep it, theirs. It is replaced as a file is
 * made where none was: owned by wakeprobe's effective user (root; the user
 * SUDO_UID names is trusted to keep a file of theirs, never to be given
 * one), mode OUTFILE_NEW_MODE (0600, whatever the umask) or what
 * outfile__set_new_mode() said.
 *
 * The stream keeps the first write error's errno, so that a writer which
 * only sees ferror() still says why: "No space left on device", not "I/O
 * error".
 */
#ifndef WAKEPROBE_OUTFILE_H
#define WAKEPROBE_OUTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* the stream buffer of a file (not stdout): what one write() hands the kernel */
#define OUTFILE_BUFFER_BYTES	(1u << 20)
/* the mode of a file made where none was, unless outfile__set_new_mode() says otherwise */
#define OUTFILE_NEW_MODE	0600

struct outfile {
	const char *what;		/* "--json", "record -o": for messages */
	char path[PATH_MAX];		/* the destination; empty until opened */
	char tmp[PATH_MAX];		/* the file being written; empty for stdout or once done */
	FILE *f;			/* NULL until opened */
	char *buf;			/* f's buffer, OUTFILE_BUFFER_BYTES; NULL: stdio's own */
	int fd;				/* the temporary file's, under f */
	bool unnamed;			/* it has no name until it is complete (O_TMPFILE): tmp is empty till then */
	int err;			/* the first failed write's -errno, 0 if none */
};

/*
 * outfile__set_new_mode - the mode of every file made from now on where
 * none was, or in place of another user's: @mode as given, the umask not
 * applied; once, before any is opened. 0, or -EINVAL for bits past 0777
 * or others' write (a root tool's output is never writable by everyone).
 */
int outfile__set_new_mode(mode_t mode);
/* outfile__open - start writing @path ("-": stdout) for option @what; @msg says why not */
int outfile__open(struct outfile *o, const char *what, const char *path, char *msg, size_t len);
bool outfile__is_stdout(const struct outfile *o);
/* outfile__error - why writing @o failed: the first failed write's -errno, else @err */
int outfile__error(const struct outfile *o, int err);
/*
 * outfile__same - do @a and @b name the same file? The same device and
 * inode where both exist, the same resolved directory and name where not.
 */
bool outfile__same(const char *a, const char *b);
/* outfile__commit - flush it to disk and put it in place; on failure it is removed */
int outfile__commit(struct outfile *o, char *msg, size_t len);
/* outfile__abandon - remove what was written; nothing happens to a closed or unopened file */
void outfile__abandon(struct outfile *o);
/*
 * outfile__wrap_stdout - make stdout a stream that keeps the first failed
 * write's errno, for outfile__stdout_error(): glibc drops what a failed
 * write held, so that a later fflush() may succeed and ferror() alone
 * cannot say why. Before anything is written to stdout.
 */
int outfile__wrap_stdout(void);
/* outfile__stdout_error - the first failed write to standard output's -errno, 0 if none */
int outfile__stdout_error(void);
/*
 * outfile__abandon_all_now - from a signal handler about to _exit(): unlink
 * every temporary file still open. Async-signal-safe.
 */
void outfile__abandon_all_now(void);

#endif /* WAKEPROBE_OUTFILE_H */
