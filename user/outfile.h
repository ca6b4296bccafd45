/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outfile.h - an output file that appears whole or not at all.
 *
 * Written to a private temporary file (mkostemp, mode 0600) beside the
 * destination and renamed over it once complete, so a failed or killed run
 * leaves no half-written output and nobody can read or swap the file while
 * it is written. "-" means standard output, written as it goes.
 */
#ifndef WAKEPROBE_OUTFILE_H
#define WAKEPROBE_OUTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct outfile {
	const char *what;		/* "--json", "record -o": for messages */
	char path[PATH_MAX];		/* the destination; empty until opened */
	char tmp[PATH_MAX];		/* the file being written; empty for stdout or once done */
	FILE *f;			/* NULL until opened */
};

/* outfile__open - start writing @path ("-": stdout) for option @what; @msg says why not */
int outfile__open(struct outfile *o, const char *what, const char *path, char *msg, size_t len);
bool outfile__is_stdout(const struct outfile *o);
/* outfile__commit - flush it to disk and put it in place; on failure it is removed */
int outfile__commit(struct outfile *o, char *msg, size_t len);
/* outfile__abandon - remove what was written; nothing happens to a closed or unopened file */
void outfile__abandon(struct outfile *o);
/*
 * outfile__abandon_all_now - from a signal handler about to _exit(): unlink
 * every temporary file still open. Async-signal-safe.
 */
void outfile__abandon_all_now(void);

#endif /* WAKEPROBE_OUTFILE_H */
