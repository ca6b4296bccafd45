/* SPDX-License-Identifier: GPL-2.0 */
/* output_paths.h - the files a run or a report names: what the command line hands the outputs */
#ifndef WAKEPROBE_OUTPUT_PATHS_H
#define WAKEPROBE_OUTPUT_PATHS_H

#include <stddef.h>

/* the files a run or a report writes, and the recording a report reads; NULL: not asked for, "-": stdin/stdout */
struct output_paths {
	const char *recording;		/* wakeprobe report FILE */
	const char *record;		/* record -o */
	const char *json, *csv, *perfetto, *prometheus, *plot, *folded;
};

/* a file a run reads or writes, and the option that names it, for messages */
struct output_file {
	const char *path;	/* "-": standard input for the recording, standard output for an output */
	const char *name;	/* "the recording", "-o", "--json", ... */
};

#define OUTPUT_MAX_FILES 8

/* output_paths__files - the files @p names, report's recording first (when there is one); how many */
size_t output_paths__files(const struct output_paths *p, struct output_file files[OUTPUT_MAX_FILES]);

#endif /* WAKEPROBE_OUTPUT_PATHS_H */
