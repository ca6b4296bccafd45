/* SPDX-License-Identifier: GPL-2.0 */
/*
 * journal.h - a workload run's analysis inputs, kept in the order they came
 *
 * The analysis of a traced run (analysis.h) costs about 100 ns a kernel
 * record: in a back-to-back flood, a tenth of a CPU on the two the
 * workload runs on, taken in bursts the workload feels (bench/NOTES.md). So
 * while the workload runs, wakeprobe only appends what the analysis would
 * take in to this journal, and hands it all over, in the same order, once
 * the workload is done: the analysis, which depends on its inputs and their
 * order alone, comes out the same. Past a memory budget the journal goes
 * on in a file (journal__spill()), written a chunk of 4 MiB at a time and
 * read back in order: its memory stays bounded whatever the run's length.
 * A run too long for the journal's whole budget hands it over in slices,
 * oldest first, until it has caught up, and is analysed as it goes from
 * then on.
 *
 * The kernel's records need not pass through it: a session can leave them
 * in the ring buffer, and journal each drain as an advance alone, which
 * takes the records up to that drain from the ring when it is handed over
 * (session.c, records_wait).
 */
#ifndef WAKEPROBE_JOURNAL_H
#define WAKEPROBE_JOURNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include "sample_ring.h"
#include "wakeprobe.h"

/* where a journal's entries go, one callback per kind, in the order they were appended */
struct journal_sink {
	void (*event)(const struct wp_event *e, void *ctx);
	void (*sample)(const struct wp_sample *s, uint64_t t_notify_ns, uint64_t t_woken_ns, uint64_t t_wait_start_ns,
		       void *ctx);
	void (*fds)(int notify_fd, int wait_fd, void *ctx);
	void (*advance)(uint64_t complete_ns, uint64_t drops, void *ctx);
	void *ctx;
};

struct journal;

/*
 * journal__new - an empty journal, with about @ready_bytes of memory made
 * ready now: a run's page faults taken before it starts rather than on
 * the workload's CPUs as the entries come (a flood's journal grows by some
 * 60 MB a second). NULL when out of memory.
 */
struct journal *journal__new(uint64_t ready_bytes);
void journal__free(struct journal *j);

/*
 * journal__spill - past about @memory_bytes (8 MiB at least), keep the
 * entries in an unnamed file in directory @dir instead (O_TMPFILE, or a
 * file unlinked at once where the file system has none): nothing is left
 * behind however wakeprobe ends. 0, or -errno with the journal in memory
 * alone. A write to the file that fails (a full disk) ends the spilling:
 * the journal goes on in memory, and what the file holds is read back.
 */
int journal__spill(struct journal *j, const char *dir, uint64_t memory_bytes);

/* each returns 0, or -ENOMEM with the entry not kept */
int journal__event(struct journal *j, const struct wp_event *e);
int journal__sample(struct journal *j, const struct wp_sample *s, uint64_t t_notify_ns, uint64_t t_woken_ns,
		    uint64_t t_wait_start_ns);
int journal__fds(struct journal *j, int notify_fd, int wait_fd);
int journal__advance(struct journal *j, uint64_t complete_ns, uint64_t drops);

/* does the journal go on in a file past its memory (one that has not failed)? */
bool journal__spilling(const struct journal *j);
/* the bytes the entries not yet handed over take, in memory and in the file */
uint64_t journal__bytes(const struct journal *j);
/* the bytes written to the spill file so far */
uint64_t journal__spilled(const struct journal *j);

/*
 * journal__feed - hand the oldest entries to @sink, in order, until about
 * @max_bytes of them went (at least one entry), or all did; their memory is
 * given back as they go. 0, or -errno when a spilled chunk could not be
 * read back: the entries from it on are not handed over.
 */
int journal__feed(struct journal *j, const struct journal_sink *sink, uint64_t max_bytes);

#endif /* WAKEPROBE_JOURNAL_H */
