/* SPDX-License-Identifier: GPL-2.0 */
/*
 * options_internal.h - options.c's own: the checks it hands what its walk
 * of the table took (option_checks.c). Each says in one line into @err
 * what cannot go together, and settles what it owns (the engine, --top)
 */
#ifndef WAKEPROBE_OPTIONS_INTERNAL_H
#define WAKEPROBE_OPTIONS_INTERNAL_H

#include <stddef.h>
#include "options.h"

/* the files the outputs name, as typed: OPTIONS_BAD with @err, or OPTIONS_RUN */
enum options_result option_checks__outputs(const struct wp_options *o, char *err, size_t errlen);
/* the engine settled (@given: as typed, "" if not given); nonzero with @err */
int option_checks__engine(struct wp_options *o, const char *given, char *err, size_t errlen);
/* --stacks, --folded, --debuginfod, @engine naming the engine as given; nonzero with @err */
int option_checks__stacks(const struct wp_options *o, const char *engine, char *err, size_t errlen);
/* --all, --cgroup, --listen, --top, --allow-host; settles --top; nonzero with @err */
int option_checks__by_cgroup(struct wp_options *o, const char *engine, char *err, size_t errlen);
/* a throughput workload's run: OPTIONS_BAD with @err, or OPTIONS_RUN */
enum options_result option_checks__design(const struct wp_options *o, const char *paced_option, char *err,
					  size_t errlen);

#endif /* WAKEPROBE_OPTIONS_INTERNAL_H */
