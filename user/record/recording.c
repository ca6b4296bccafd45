// SPDX-License-Identifier: GPL-2.0
/* recording.c - the record file's format: the layouts it fixes, its record types */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include "recording.h"

_Static_assert(sizeof(struct rec_file_header) == REC_FILE_HEADER_SIZE, "file header size");
_Static_assert(sizeof(REC_MAGIC) - 1 == sizeof(((struct rec_file_header *)0)->magic), "magic size");
_Static_assert(sizeof(struct rec_header) == 8, "record header size");
/* the layouts are the format: a change here is a new REC_VERSION */
_Static_assert(sizeof(struct rec_run_begin) == 432, "RUN_BEGIN layout");
_Static_assert(sizeof(struct rec_clock_pair) == 24, "CLOCK_PAIR layout");
_Static_assert(sizeof(struct wp_event) == 64, "EVENT layout");
_Static_assert(sizeof(struct rec_sample) == 88, "SAMPLE layout");
_Static_assert(sizeof(struct rec_fds) == 8, "FDS layout");
_Static_assert(sizeof(struct rec_advance) == 16, "ADVANCE layout");
_Static_assert(WP_EV_TYPE_MAX <= WP_EV_TYPE_ROOM, "RUN_END carries one drop counter per event type");
_Static_assert(sizeof(struct rec_steal) == 152, "the steal's layout in RUN_END and ATTACH_END");
_Static_assert(sizeof(struct rec_cost) == 128, "the cost's layout in RUN_END and ATTACH_END");
_Static_assert(sizeof(struct rec_run_end) == 824, "RUN_END layout");
_Static_assert(sizeof(struct rec_attach_begin) == 3592, "ATTACH_BEGIN layout");
_Static_assert(sizeof(struct rec_fd_kind) == 12, "FD_KIND layout");
_Static_assert(sizeof(struct rec_attach_end) == 616, "ATTACH_END layout");
_Static_assert(sizeof(struct rec_lean) == 48, "the lean tail of RUN_END and ATTACH_END");
_Static_assert(offsetof(struct rec_run_end, stop_signal) == 202 && offsetof(struct rec_attach_end, stop_signal) == 552,
	       "the stop signal where docs/recording.md says");
_Static_assert(sizeof(struct rec_attach_begin) <= REC_MAX_PAYLOAD, "ATTACH_BEGIN fits the reader's bound");
/*
 * version 5 kept the layouts of 4: the cost's timed share took two bytes of
 * its padding; version 6 took a byte of RUN_END's for the signal that
 * interrupted the run, and ended ATTACH_END with it and the processes
 * stopped with the command; version 7 kept the layouts of 6: the flags of
 * the WAKER and BLOCK events and ATTACH_BEGIN's untimed syscalls took
 * bytes of their padding; version 8 gave that byte of ATTACH_BEGIN two
 * more flags, ended ATTACH_END with the lean counters, and let EVENT be
 * the lean engine's (WP_EV_LEAN); version 9 did the same for a workload run: a
 * byte of RUN_BEGIN's padding for its flags, the lean counters at the end
 * of RUN_END; and ended ATTACH_END with the targets' descendants
 */
_Static_assert(offsetof(struct rec_attach_begin, flags) == 519, "ATTACH_BEGIN's flags where docs/recording.md says");
_Static_assert(offsetof(struct rec_attach_end, lean) == 560 && offsetof(struct rec_attach_end, descendants) == 608,
	       "ATTACH_END's lean tail and descendants where docs/recording.md says");
_Static_assert(offsetof(struct rec_run_begin, flags) == 412, "RUN_BEGIN's flags where docs/recording.md says");
_Static_assert(offsetof(struct rec_run_end, lean) == 776 && offsetof(struct rec_run_end, lean_adaptive) == 203,
	       "RUN_END's lean tail and flag where docs/recording.md says");
/*
 * version 10 has version 9's layouts: it adds an ATTACH_BEGIN flag
 * (REC_ATTACH_SOFTIRQS); version 11 has them too, and EVENTs that say
 * what an fd is (rec_reader.c's fd_kind_ok()); version 12 has them too,
 * and an ATTACH_BEGIN flag (REC_ATTACH_CHAINS) whose run's EVENTs carry
 * the links of each wakeup's chain (WP_LEAN_LINK)
 */
_Static_assert(REC_VERSION == 12, "a new version needs its layouts here and in rec_reader.c");
_Static_assert(offsetof(struct wp_waker, fd_kind) == offsetof(struct wp_waker, irq_kind) &&
		       offsetof(struct wp_block, fd_kind) == 36 && offsetof(struct wp_lean_names, waker_fd_kind) == 26 &&
		       offsetof(struct wp_lean_names, wait_fd_kind) == 30,
	       "version 11's fd kinds where docs/recording.md says");

/* versions 2 and 3 ended RUN_END and ATTACH_END before the steal; version 1's RUN_END had 12 drop counters */
#define REC_V8_ATTACH_END_SIZE	offsetof(struct rec_attach_end, descendants)
#define REC_V7_ATTACH_END_SIZE	(REC_V8_ATTACH_END_SIZE - sizeof(struct rec_lean))
#define REC_V6_ATTACH_TAIL	8
#define REC_V5_ATTACH_END_SIZE	(REC_V7_ATTACH_END_SIZE - REC_V6_ATTACH_TAIL)
#define REC_V4_TAIL		(sizeof(struct rec_steal) + sizeof(struct rec_cost))
#define REC_V8_RUN_END_SIZE	(sizeof(struct rec_run_end) - sizeof(struct rec_lean))
#define REC_V3_RUN_END_SIZE	(REC_V8_RUN_END_SIZE - REC_V4_TAIL)
#define REC_V3_ATTACH_END_SIZE	(REC_V5_ATTACH_END_SIZE - REC_V4_TAIL)
#define REC_V1_RUN_END_SIZE	(REC_V3_RUN_END_SIZE - (WP_EV_TYPE_ROOM - 12) * sizeof(uint64_t))

static const uint32_t payload_size[REC_TYPE_MAX] = {
	[REC_RUN_BEGIN] = sizeof(struct rec_run_begin),
	[REC_CLOCK_PAIR] = sizeof(struct rec_clock_pair),
	[REC_EVENT] = sizeof(struct wp_event),
	[REC_SAMPLE] = sizeof(struct rec_sample),
	[REC_FDS] = sizeof(struct rec_fds),
	[REC_ADVANCE] = sizeof(struct rec_advance),
	[REC_RUN_END] = sizeof(struct rec_run_end),
	[REC_ATTACH_BEGIN] = sizeof(struct rec_attach_begin),
	[REC_FD_KIND] = sizeof(struct rec_fd_kind),
	[REC_ATTACH_END] = sizeof(struct rec_attach_end),
};

const char *recording__type_name(enum rec_type t)
{
	static const char *const names[REC_TYPE_MAX] = {
		[REC_RUN_BEGIN] = "RUN_BEGIN",	 [REC_CLOCK_PAIR] = "CLOCK_PAIR", [REC_EVENT] = "EVENT",
		[REC_SAMPLE] = "SAMPLE",	 [REC_FDS] = "FDS",		  [REC_ADVANCE] = "ADVANCE",
		[REC_RUN_END] = "RUN_END",	 [REC_ATTACH_BEGIN] = "ATTACH_BEGIN", [REC_FD_KIND] = "FD_KIND",
		[REC_ATTACH_END] = "ATTACH_END",
	};

	return t > 0 && t < REC_TYPE_MAX ? names[t] : "unknown";
}

uint32_t recording__payload_size(uint32_t version, enum rec_type t)
{
	if (version == 1 && t == REC_RUN_END)
		return REC_V1_RUN_END_SIZE;
	/* attach mode's records came with version 3 */
	if (version < 3 && t >= REC_ATTACH_BEGIN)
		return 0;
	if (version < 4 && t == REC_RUN_END)
		return REC_V3_RUN_END_SIZE;
	if (version < 4 && t == REC_ATTACH_END)
		return REC_V3_ATTACH_END_SIZE;
	if (version < 6 && t == REC_ATTACH_END)
		return REC_V5_ATTACH_END_SIZE;
	if (version < 8 && t == REC_ATTACH_END)
		return REC_V7_ATTACH_END_SIZE;
	if (version < 9 && t == REC_RUN_END)
		return REC_V8_RUN_END_SIZE;
	if (version < 9 && t == REC_ATTACH_END)
		return REC_V8_ATTACH_END_SIZE;
	return t > 0 && t < REC_TYPE_MAX ? payload_size[t] : 0;
}
