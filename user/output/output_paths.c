// SPDX-License-Identifier: GPL-2.0
/* output_paths.c - the files a run or a report names, in one list for the checks over all of them */
#include "output_paths.h"

size_t output_paths__files(const struct output_paths *p, struct output_file files[OUTPUT_MAX_FILES])
{
	const struct output_file all[OUTPUT_MAX_FILES] = {
		{ p->recording, "the recording" }, { p->record, "-o" }, { p->json, "--json" }, { p->csv, "--csv" },
		{ p->perfetto, "--perfetto" }, { p->prometheus, "--prometheus" }, { p->plot, "--plot" },
		{ p->folded, "--folded" },
	};
	size_t n = 0;

	for (size_t i = 0; i < OUTPUT_MAX_FILES; i++)
		if (all[i].path)
			files[n++] = all[i];
	return n;
}
