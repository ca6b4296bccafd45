/* SPDX-License-Identifier: GPL-2.0 */
/* test_journal.c - the analysis inputs kept during a run come out whole and in order */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include "journal.h"
#include "readback.h"

/* what a sink was handed: each input as one line of numbers, in order */
#define SEEN_MAX	400000

struct seen {
	uint64_t v[SEEN_MAX][4];
	size_t n;
};

static void seen_event(const struct wp_event *e, void *ctx)
{
	struct seen *s = ctx;

	s->v[s->n][0] = 1;
	s->v[s->n][1] = e->ts_ns;
	s->v[s->n][2] = e->type;
	s->v[s->n++][3] = e->sw.next_tid;
}

static void seen_sample(const struct wp_sample *smp, uint64_t t_notify_ns, uint64_t t_woken_ns,
			uint64_t t_wait_start_ns, void *ctx)
{
	struct seen *s = ctx;

	s->v[s->n][0] = 2;
	s->v[s->n][1] = smp->seq;
	s->v[s->n][2] = t_notify_ns;
	s->v[s->n++][3] = t_woken_ns + t_wait_start_ns;
}

static void seen_fds(int notify_fd, int wait_fd, void *ctx)
{
	struct seen *s = ctx;

	s->v[s->n][0] = 3;
	s->v[s->n][1] = (uint64_t)notify_fd;
	s->v[s->n][2] = (uint64_t)wait_fd;
	s->v[s->n++][3] = 0;
}

static void seen_advance(uint64_t complete_ns, uint64_t drops, void *ctx)
{
	struct seen *s = ctx;

	s->v[s->n][0] = 4;
	s->v[s->n][1] = complete_ns;
	s->v[s->n][2] = drops;
	s->v[s->n++][3] = 0;
}

/* fill - @n inputs of every kind in turn, numbered from @from; the same lines into @want */
static void fill(struct journal *j, uint64_t from, size_t n, struct seen *want)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t k = from + i;

		switch (k % 4) {
		case 0: {
			struct wp_event e = { .ts_ns = 1000 + k, .type = WP_EV_SWITCH, .sw.next_tid = (uint32_t)k };

			cr_assert_eq(journal__event(j, &e), 0);
			memcpy(want->v[want->n++], (uint64_t[4]){ 1, 1000 + k, WP_EV_SWITCH, k }, sizeof(want->v[0]));
			break;
		}
		case 1: {
			struct wp_sample smp = { .seq = k };

			cr_assert_eq(journal__sample(j, &smp, 2 * k, 3 * k, 5), 0);
			memcpy(want->v[want->n++], (uint64_t[4]){ 2, k, 2 * k, 3 * k + 5 }, sizeof(want->v[0]));
			break;
		}
		case 2:
			cr_assert_eq(journal__fds(j, (int)k, -1), 0);
			memcpy(want->v[want->n++], (uint64_t[4]){ 3, k, (uint64_t)-1, 0 }, sizeof(want->v[0]));
			break;
		default:
			cr_assert_eq(journal__advance(j, 7 * k, k / 4), 0);
			memcpy(want->v[want->n++], (uint64_t[4]){ 4, 7 * k, k / 4, 0 }, sizeof(want->v[0]));
			break;
		}
	}
}

static struct journal_sink sink_into(struct seen *s)
{
	return (struct journal_sink){ .event = seen_event, .sample = seen_sample, .fds = seen_fds,
				      .advance = seen_advance, .ctx = s };
}

/* each test's journal, what its sink got, and what it should have got */
static struct journal *j;
static struct seen *got, *want;
static struct journal_sink sink;

static void setup(void)
{
	j = journal__new(0);
	got = calloc(1, sizeof(*got));
	want = calloc(1, sizeof(*want));
	cr_assert(j && got && want);
	sink = sink_into(got);
}

static void teardown(void)
{
	journal__free(j);
	free(got);
	free(want);
}

TestSuite(journal, .init = setup, .fini = teardown);

/* the sink got what went in, all of it, in order */
static void assert_all_in_order(void)
{
	cr_assert_eq(got->n, want->n, "%zu inputs handed over of %zu", got->n, want->n);
	cr_assert_arr_eq(got->v, want->v, want->n * sizeof(want->v[0]));
}

Test(journal, every_input_comes_out_once_and_in_the_order_it_went_in)
{
	fill(j, 0, 1000, want);
	cr_assert_gt(journal__bytes(j), 0);
	journal__feed(j, &sink, UINT64_MAX);
	assert_all_in_order();
	cr_assert_eq(journal__bytes(j), 0, "nothing is left once all is handed over");
}

Test(journal, handed_over_in_slices_while_it_grows_the_order_holds_across_chunks)
{
	uint64_t before, most = 0;
	size_t k;

	/* 120,000 inputs of 16 to 96 bytes, handed over 100,000 bytes at a time: over 4 MiB held at once */
	for (k = 0; k < 120000; k += 20000) {
		fill(j, k, 20000, want);
		before = journal__bytes(j);
		most = before > most ? before : most;
		journal__feed(j, &sink, 100000);
		cr_assert_geq(before - journal__bytes(j), 100000, "a slice is at least what was asked");
		cr_assert_lt(before - journal__bytes(j), 100000 + 104, "and at most one input over it");
	}
	cr_assert_gt(most, 4u << 20, "the inputs outgrew one chunk");
	journal__feed(j, &sink, UINT64_MAX);
	cr_assert_eq(got->n, 120000);
	assert_all_in_order();
}

Test(journal, a_journal_emptied_takes_new_inputs_and_gives_them_in_order)
{
	fill(j, 0, 10, want);
	journal__feed(j, &sink, UINT64_MAX);
	journal__feed(j, &sink, UINT64_MAX);
	cr_assert_eq(got->n, 10, "an empty journal hands over nothing");
	fill(j, 10, 10, want);
	journal__feed(j, &sink, UINT64_MAX);
	cr_assert_eq(got->n, 20);
	assert_all_in_order();
}

Test(journal, memory_made_ready_up_front_holds_inputs_in_order_and_more_is_mapped_past_it)
{
	struct journal *ready = journal__new(1u << 20);
	uint64_t k;

	cr_assert_not_null(ready);
	/* 160,000 inputs: past the one chunk made ready */
	for (k = 0; k < 160000; k += 40000)
		fill(ready, k, 40000, want);
	cr_assert_gt(journal__bytes(ready), 4u << 20, "the inputs outgrew what was made ready");
	journal__feed(ready, &sink, 1u << 20);
	journal__feed(ready, &sink, UINT64_MAX);
	cr_assert_eq(journal__bytes(ready), 0);
	assert_all_in_order();
	journal__free(ready);
}

/* ---------------------------------------------------------------- past its memory, a file */

static char spill_dir[64];

static void make_spill_dir(void)
{
	snprintf(spill_dir, sizeof(spill_dir), "/tmp/wakeprobe-journal-test.XXXXXX");
	cr_assert_not_null(mkdtemp(spill_dir));
}

Test(journal, past_its_memory_it_goes_on_in_a_file_that_has_no_name_and_comes_back_in_order)
{
	const uint64_t chunk = 4u << 20;
	size_t k;

	make_spill_dir();
	/* the least memory there is: the chunk appended to and one more */
	cr_assert_eq(journal__spill(j, spill_dir, 0), 0);
	cr_assert(journal__spilling(j));
	for (k = 0; k < 190000; k += 19000)
		fill(j, k, 19000, want);
	cr_assert_gt(journal__bytes(j), 2 * chunk, "the inputs outgrew two chunks");
	cr_assert_gt(journal__spilled(j), 0, "so some went to the file");
	cr_assert_geq(journal__spilled(j) + 2 * chunk, journal__bytes(j), "and all but two chunks did");
	cr_assert_eq(dir_entries(spill_dir), 0, "the file has no name in the directory");
	cr_assert_eq(journal__feed(j, &sink, 1u << 20), 0);
	cr_assert_eq(journal__feed(j, &sink, UINT64_MAX), 0);
	cr_assert_eq(journal__bytes(j), 0);
	assert_all_in_order();
	rmdir(spill_dir);
}

Test(journal, handed_over_in_slices_while_it_spills_the_order_holds)
{
	size_t k;

	make_spill_dir();
	cr_assert_eq(journal__spill(j, spill_dir, 0), 0);
	/* slices smaller than what comes in: the file is read back while it is still written */
	for (k = 0; k < 190000; k += 19000) {
		fill(j, k, 19000, want);
		cr_assert_eq(journal__feed(j, &sink, 300000), 0);
	}
	cr_assert_gt(journal__spilled(j), 0);
	cr_assert_eq(journal__feed(j, &sink, UINT64_MAX), 0);
	assert_all_in_order();
	rmdir(spill_dir);
}

Test(journal, without_a_directory_for_its_file_it_keeps_everything_in_memory)
{
	cr_assert_eq(journal__spill(j, "/nonexistent/wakeprobe", 0), -ENOENT);
	cr_assert_not(journal__spilling(j));
	fill(j, 0, 190000, want);
	cr_assert_eq(journal__spilled(j), 0);
	cr_assert_eq(journal__feed(j, &sink, UINT64_MAX), 0);
	assert_all_in_order();
}

Test(journal, a_file_that_cannot_take_more_stops_the_spilling_and_gives_back_what_it_has)
{
	struct rlimit small = { .rlim_cur = 6u << 20, .rlim_max = 6u << 20 };
	size_t k;

	make_spill_dir();
	cr_assert_eq(journal__spill(j, spill_dir, 0), 0);
	/* a file that takes one chunk of 4 MiB and not the next: writes past 6 MiB fail with EFBIG */
	signal(SIGXFSZ, SIG_IGN);
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
	/* about 19 MiB: the second chunk goes to the file, the third cannot */
	for (k = 0; k < 380000; k += 19000)
		fill(j, k, 19000, want);
	cr_assert_gt(journal__spilled(j), 0, "a chunk went to the file before it was full");
	cr_assert_leq(journal__spilled(j), 4u << 20, "and only one");
	cr_assert_not(journal__spilling(j), "and then no more");
	cr_assert_gt(journal__bytes(j), 12u << 20, "the rest stayed in memory");
	cr_assert_eq(journal__feed(j, &sink, UINT64_MAX), 0);
	assert_all_in_order();
	rmdir(spill_dir);
}
