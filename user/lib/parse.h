/* SPDX-License-Identifier: GPL-2.0 */
/* parse.h - strict number parsing shared by wakeprobe and the workloads */
#ifndef WAKEPROBE_PARSE_H
#define WAKEPROBE_PARSE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * parse__u64 - parse all of @str as a decimal unsigned integer in [min, max].
 * Rejects empty strings, signs, trailing characters and overflow.
 * Returns 0, -EINVAL for a malformed number or -ERANGE when out of range.
 */
int parse__u64(const char *str, uint64_t min, uint64_t max, uint64_t *out);

/* parse__cpu_pair - "A,B": two distinct CPU numbers below @nr_cpus */
int parse__cpu_pair(const char *str, int nr_cpus, int *cpu_a, int *cpu_b);

/*
 * parse__id_list - "A[,B...]": distinct ids from 1 to @max_id, at most
 * @room of them, into @ids and their count into @n. -EINVAL for a
 * malformed list, -ERANGE for an id out of range, -EEXIST for one given
 * twice, -E2BIG for more than @room.
 */
int parse__id_list(const char *str, uint64_t max_id, int32_t *ids, size_t room, size_t *n);

/* the most bytes parse__quote() takes from its argument, and the room its output needs */
#define PARSE_QUOTE_MAX		48
#define PARSE_QUOTE_LEN		(PARSE_QUOTE_MAX * 4 + 4)

/*
 * parse__quote - the first @n bytes of @s (up to a NUL) as a one-line
 * message may quote what a user typed: control and non-ASCII bytes written
 * \xNN, cut after PARSE_QUOTE_MAX bytes with "..."; into @out, of
 * PARSE_QUOTE_LEN bytes
 */
void parse__quote(const char *s, size_t n, char out[PARSE_QUOTE_LEN]);

/*
 * parse__quote_to - the first @max bytes of @s into @f, control and
 * non-ASCII bytes written \xNN as parse__quote() writes them: for a
 * report that shows what was typed, which must not act on a terminal
 */
void parse__quote_to(FILE *f, const char *s, size_t max);

/*
 * parse__shown - all of @s quoted by parse__quote(), for the message being
 * made: into one of four buffers of its own, taken in turn, so that one
 * message may quote up to four arguments. Not for threads.
 */
const char *parse__shown(const char *s);

#endif /* WAKEPROBE_PARSE_H */
