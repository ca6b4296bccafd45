// SPDX-License-Identifier: GPL-2.0
/*
 * test_stacks.c - --stacks and --folded on programs built here
 * (tests/tools/handoff_stacks.c): producer_release() wakes
 * consumer_wait() through a global mutex and condition variable. Its
 * busiest pair must show those functions in the waker's and the wakee's
 * stacks, unwound through Debian's libc, which has no frame pointers,
 * the kernel's futex calls under them, and --folded must be read
 * by a real consumer of the format (inferno-flamegraph, which make test
 * installs). A C++ program's templated channel (tests/tools/channel.cc)
 * must show its send and recv, demangled; a Go program's stacks
 * (tests/tools/gochan.go) its goroutines' functions, whole down to where
 * Go stacks end, and not called cut short. Needs root and BTF; the
 * refusals need neither.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "helpers.h"
#include "json_reader.h"
#include "readback.h"
#include "text_stacks.h"

#define ROUNDS	"1500"

static const char *handoff_path(void)
{
	const char *p = getenv("HANDOFF_STACKS");

	if (!p)
		cr_skip_test("set HANDOFF_STACKS to build/tests/handoff-stacks (make test does)");
	return p;
}

static const char *gochan_path(void)
{
	const char *p = getenv("GOCHAN");

	if (!p)
		cr_skip_test("set GOCHAN to build/tests/gochan (make test does)");
	return p;
}

/* has_function - does stack @frames (a JSON array of frames, or null) name @function? */
static bool has_function(const struct json_node *frames, const char *function)
{
	for (size_t i = 0; frames && i < json_reader__len(frames); i++) {
		const char *f = json_reader__get_string(json_reader__at(frames, i), "function");

		if (f && strstr(f, function))
			return true;
	}
	return false;
}


TestSuite(stacks, .timeout = 120);

Test(stacks, the_busiest_pair_shows_where_the_producer_woke_and_the_consumer_slept)
{
	static struct wakeprobe_ran r;
	const struct json_node *root, *pair, *top = NULL;
	struct json_doc *doc;

	skip_unless_traceable();
	doc = wakeprobe_run_json(&r, (char *[]){ "--stacks", "--pairs", "1", "--", (char *)handoff_path(), ROUNDS, NULL });
	root = json_reader__root(doc);
	pair = json_reader__at(json_reader__get(root, "pairs"), 0);
	cr_assert(pair, "a pair");
	cr_assert(strstr(json_reader__get_string(pair, "mechanism"), "futex"), "the busiest pair is the lock's: %s",
		  json_reader__get_string(pair, "mechanism"));
	/*
	 * a combination that has both, unwound from copies: Debian's libc has
	 * no frame pointers, and a walk by them loses the frame that called
	 * into it, producer_release()'s and consumer_wait()'s own
	 */
	for (size_t i = 0; !top && i < json_reader__len(json_reader__get(pair, "stacks")); i++) {
		const struct json_node *c = json_reader__at(json_reader__get(pair, "stacks"), i);

		if (has_function(json_reader__get(c, "waker_user"), "producer_release") &&
		    has_function(json_reader__get(c, "wakee_user"), "consumer_wait"))
			top = c;
	}
	cr_assert(top, "the busiest pair has stacks with producer_release() waking and consumer_wait() asleep\n%s",
		  r.out);
	cr_assert_eq(json_reader__type(json_reader__get(top, "unwound")), JSON_TRUE, "they were unwound from copies");
	cr_assert(has_function(json_reader__get(top, "waker_user"), "_start") &&
			  has_function(json_reader__get(top, "wakee_user"), "start_thread"),
		  "both reach their thread's start");
	cr_assert(has_function(json_reader__get(top, "waker_kernel"), "futex_wake"),
		  "the waker's kernel stack is its futex wake");
	cr_assert(has_function(json_reader__get(top, "wakee_kernel"), "schedule"),
		  "the wakee's kernel stack is where it left its CPU");
	cr_assert(!has_function(json_reader__get(top, "wakee_kernel"), "bpf_"),
		  "the BPF side's own frames are cut");
	cr_assert(json_reader__get(json_reader__get(root, "stacks"), "distinct"), "the run says what it kept");
	json_reader__free(doc);
	/* the text report: the same, where a person reads it */
	cr_assert(strstr(r.out, "Stacks of the 1 busiest pairs"), "%s", r.out);
	cr_assert(strstr(r.out, "producer_release+0x") && strstr(r.out, "consumer_wait+0x"), "%s", r.out);
	cr_assert(strstr(r.out, "handoff_stacks.c:"), "frames with debug information show their line\n%s", r.out);
	cr_assert(strstr(r.out, "  stacks     "), "the cost line says what the stacks held\n%s", r.out);
	cr_assert(strstr(r.out, "  unwound    ") && strstr(r.out, "user stacks unwound from copies in "),
		  "the cost line and the pair say how many were unwound\n%s", r.out);
	/* the lock's futex word, by the global it is */
	cr_assert(strstr(r.out, "is handoff.lock in handoff-stacks+0x"), "%s", r.out);
}

/*
 * a C++ program's own template, demangled, on both sides: libstdc++ and
 * libc, which its mutex and condition variable are, have no frame pointers
 */
Test(stacks, a_cxx_channels_send_and_recv_are_in_the_stacks_demangled)
{
	static struct wakeprobe_ran r;
	const char *channel = getenv("CHANNEL");
	const struct json_node *pairs;
	struct json_doc *doc;
	bool send = false, recv = false, mangled = false;

	skip_unless_traceable();
	if (!channel)
		cr_skip_test("set CHANNEL to build/tests/channel (make test does)");
	doc = wakeprobe_run_json(&r, (char *[]){ "--stacks", "--pairs", "2", "--", (char *)channel, "3000", NULL });
	pairs = json_reader__get(json_reader__root(doc), "pairs");
	for (size_t p = 0; p < json_reader__len(pairs); p++) {
		const struct json_node *stacks = json_reader__get(json_reader__at(pairs, p), "stacks");

		for (size_t i = 0; i < json_reader__len(stacks); i++) {
			const struct json_node *c = json_reader__at(stacks, i);

			for (int k = 0; k < 2; k++) {
				const struct json_node *user = json_reader__get(c, k ? "wakee_user" : "waker_user");

				send = send || has_function(user, "Channel<long>::send");
				recv = recv || has_function(user, "Channel<long>::recv");
				mangled = mangled || has_function(user, "_ZN7Channel");
			}
		}
	}
	json_reader__free(doc);
	cr_assert(send && recv, "Channel<long>::send and ::recv are in the stacks\n%s", r.out);
	cr_assert(!mangled, "and demangled");
	cr_assert(strstr(r.out, "Channel<long>::recv+0x") && strstr(r.out, "channel.cc:"), "%s", r.out);
}

/* without the copies, the walk by frame pointers loses the frame that called into libc: what --unwind is for */
Test(stacks, frame_pointers_alone_lose_the_callers_of_libc)
{
	static struct wakeprobe_ran r;
	const struct json_node *pair, *stacks;
	struct json_doc *doc;
	size_t producer = 0;

	skip_unless_traceable();
	doc = wakeprobe_run_json(&r, (char *[]){ "--stacks", "--unwind", "off", "--pairs", "1", "--", (char *)handoff_path(),
					 ROUNDS, NULL });
	pair = json_reader__at(json_reader__get(json_reader__root(doc), "pairs"), 0);
	stacks = json_reader__get(pair, "stacks");
	cr_assert_gt(json_reader__len(stacks), 0);
	for (size_t i = 0; i < json_reader__len(stacks); i++) {
		const struct json_node *c = json_reader__at(stacks, i);

		cr_assert_eq(json_reader__type(json_reader__get(c, "unwound")), JSON_FALSE);
		producer += has_function(json_reader__get(c, "waker_user"), "producer_release");
	}
	cr_assert_eq(producer, 0, "a walk by frame pointers never reaches producer_release(): it calls into libc");
	cr_assert_null(strstr(r.out, "  unwound    "), "no copies, no line\n%s", r.out);
	json_reader__free(doc);
}

/* folded_line_ok - "frame;frame;... count": frames with no ';' in them, a space, a whole number */
static bool folded_line_ok(const char *line)
{
	const char *space = strrchr(line, ' ');

	if (!space || space == line || !space[1])
		return false;
	for (const char *p = space + 1; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return !strstr(line, ";;") && line[0] != ';';
}

Test(stacks, folded_stacks_render_as_a_flame_graph)
{
	static struct wakeprobe_ran r, fg;
	char folded[] = "/tmp/wakeprobe-folded-XXXXXX", svg[64];
	const char *inferno = getenv("INFERNO_FLAMEGRAPH");
	char *text, *line, *save = NULL;
	bool joined = false, both = false;
	size_t len, lines = 0;
	FILE *f;
	int fd;

	skip_unless_traceable();
	if (!inferno)
		cr_skip_test("set INFERNO_FLAMEGRAPH to inferno-flamegraph (make test installs it)");
	fd = mkstemp(folded);
	cr_assert(fd >= 0);
	close(fd);
	wakeprobe_run_ok(&r, (char *[]){ "--folded", folded, "--", (char *)handoff_path(), ROUNDS, NULL });
	text = read_file(folded, &len);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		cr_assert(folded_line_ok(line), "a folded line: '%s'", line);
		lines++;
		joined = joined || strstr(line, ";--;");
		both = both || (strstr(line, "consumer_wait") && strstr(line, "producer_release") &&
				strstr(line, "consumer_wait") < strstr(line, ";--;") &&
				strstr(line, ";--;") < strstr(line, "producer_release"));
	}
	cr_assert(lines > 0, "stacks were folded");
	cr_assert(joined, "wakee and waker joined by --");
	cr_assert(both, "a line has the wakee's consumer_wait() below the -- and the waker's producer_release() above");
	free(text);
	/* a real consumer of the format reads it */
	snprintf(svg, sizeof(svg), "%s.svg", folded);
	program_run(&fg, (char *[]){ (char *)inferno, "--countname", "ns", folded, NULL });
	unlink(folded);
	cr_assert(WIFEXITED(fg.status) && !WEXITSTATUS(fg.status), "inferno-flamegraph: %s", fg.err);
	/* it skips a line it cannot read with a warning, and exits 0 all the same */
	cr_assert_str_eq(fg.err, "", "inferno-flamegraph read every line");
	cr_assert(strstr(fg.out, "<svg") && strstr(fg.out, "producer_release"), "an SVG with the frames");
	f = fopen(svg, "w");
	if (f) {
		fputs(fg.out, f);
		fclose(f);
		unlink(svg);
	}
}

Test(stacks, what_stacks_cannot_go_with_is_refused_in_one_line)
{
	static struct wakeprobe_ran r;

	wakeprobe_run(&r, (char *[]){ "--stacks", "--engine", "full", "--", "true", NULL });
	cr_assert_eq(WEXITSTATUS(r.status), 2);
	cr_assert(strstr(r.err, "--stacks rides on the lean engine's records"), "%s", r.err);
	cr_assert_eq(text_count_lines(r.err), 1, "%s", r.err);
	unlink("/tmp/wakeprobe-stacks-refused.wpr");
	unlink("/tmp/wakeprobe-stacks-refused.folded");
	wakeprobe_run(&r, (char *[]){ "record", "-o", "/tmp/wakeprobe-stacks-refused.wpr", "--folded",
				      "/tmp/wakeprobe-stacks-refused.folded", "--", "true", NULL });
	cr_assert_eq(WEXITSTATUS(r.status), 2);
	cr_assert(strstr(r.err, "a recording keeps no stacks: drop --folded"), "%s", r.err);
	cr_assert(access("/tmp/wakeprobe-stacks-refused.wpr", F_OK) && access("/tmp/wakeprobe-stacks-refused.folded", F_OK),
		  "nothing written");
	wakeprobe_run(&r, (char *[]){ "--workload", "eventfd", "--stacks", "--no-trace", NULL });
	cr_assert_eq(WEXITSTATUS(r.status), 2);
	cr_assert(strstr(r.err, "--stacks needs tracing and --no-trace traces nothing"), "%s", r.err);
	wakeprobe_run(&r, (char *[]){ "--workload", "burst-queue", "--stacks", NULL });
	cr_assert_eq(WEXITSTATUS(r.status), 2);
	cr_assert(strstr(r.err, "which a throughput workload does not take: drop --stacks"), "%s", r.err);
}

Test(stacks, a_workloads_wakeups_show_the_futex_calls_on_both_sides)
{
	static struct wakeprobe_ran r;
	const struct json_node *run, *list, *top = NULL;
	struct json_doc *doc;

	skip_unless_traceable();
	doc = wakeprobe_run_json(&r, (char *[]){ "--workload", "cond", "--stacks", "-n", "300", NULL });
	run = json_reader__root(doc);
	if (json_reader__get(run, "runs"))
		run = json_reader__at(json_reader__get(run, "runs"), 0);
	list = json_reader__get(json_reader__get(run, "stacks_of_wakeups"), "stacks");
	cr_assert(json_reader__len(list) > 0, "the run lists its stacks\n%s", r.out);
	/*
	 * cond's waker signals the condition variable, its wakee waits on it:
	 * a futex wake and a futex wait (some rounds end on the mutex instead)
	 */
	for (size_t i = 0; !top && i < json_reader__len(list); i++) {
		const struct json_node *c = json_reader__at(list, i);

		if (has_function(json_reader__get(c, "waker_user"), "pthread_cond_signal"))
			top = c;
	}
	cr_assert(top, "a combination wakes in pthread_cond_signal()\n%s", r.out);
	cr_assert(has_function(json_reader__get(top, "waker_kernel"), "futex_wake"), "%s", r.out);
	cr_assert(has_function(json_reader__get(top, "wakee_kernel"), "futex_wait"), "%s", r.out);
	json_reader__free(doc);
	cr_assert(strstr(r.out, "Stacks of the cond path's complete wakeups"), "%s", r.out);
}

/* ends_in - is @frames' last frame @function, or @function with the Go linker's ".abi0" */
static bool ends_in(const struct json_node *frames, const char *function)
{
	size_t n = frames ? json_reader__len(frames) : 0;
	const char *f = n ? json_reader__get_string(json_reader__at(frames, n - 1), "function") : NULL;
	char abi0[128];

	snprintf(abi0, sizeof(abi0), "%s.abi0", function);
	return f && (!strcmp(f, function) || !strcmp(f, abi0));
}

/*
 * go_function - does stack @frames name the Go program's function @name:
 * itself, or the wrapper of its go statement, @wrapper, into which a newer
 * Go than Debian 12's 1.19 inlines it
 */
static bool go_function(const struct json_node *frames, const char *name, const char *wrapper)
{
	return has_function(frames, name) || has_function(frames, wrapper);
}

Test(stacks, a_go_programs_goroutines_show_whole_and_are_not_called_cut_short)
{
	static struct wakeprobe_ran r;
	const struct json_node *root, *pairs, *cuts, *producer = NULL;
	bool consumer = false;
	struct json_doc *doc;

	skip_unless_traceable();
	doc = wakeprobe_run_json(&r, (char *[]){ "--stacks", "--", (char *)gochan_path(), "3000", NULL });
	root = json_reader__root(doc);
	pairs = json_reader__get(root, "pairs");
	/*
	 * the producer's send hands the value to the parked consumer, readies
	 * it and wakes an idle thread to run it, through the runtime's futex
	 * wake, on the scheduler's stack the goroutine waits in; the consumer's
	 * receive wakes one for the producer, or its thread sleeps on the
	 * scheduler's stack, walked on into its goroutine's frames by Go 1.19
	 */
	for (size_t i = 0; i < json_reader__len(pairs); i++) {
		const struct json_node *list = json_reader__get(json_reader__at(pairs, i), "stacks");

		for (size_t j = 0; j < json_reader__len(list); j++) {
			const struct json_node *c = json_reader__at(list, j);
			const struct json_node *waker = json_reader__get(c, "waker_user");

			if (!producer && go_function(waker, "main.producer", "main.main.gowrap1") &&
			    has_function(waker, "runtime.send") && has_function(waker, "runtime.futex"))
				producer = waker;
			consumer = consumer || go_function(waker, "main.consumer", "main.main.gowrap2") ||
				   go_function(json_reader__get(c, "wakee_user"), "main.consumer", "main.main.gowrap2");
		}
	}
	cr_assert(producer, "a thread woken by main.producer's send, through the runtime's futex\n%s", r.out);
	cr_assert(ends_in(producer, "runtime.goexit"), "the producer's stack is whole, down to its goroutine's bottom");
	cr_assert(consumer, "a stack of main.consumer's, waking or asleep\n%s", r.out);
	/* where Go stacks end is no cut: neither the JSON nor the text says gochan has no frame pointers */
	cuts = json_reader__get(json_reader__get(root, "stacks"), "cut_short");
	cr_assert(cuts, "the run says where stacks were cut, if anywhere");
	/*
	 * A walk by frame pointers may end early once in thousands of stacks
	 * (in CI one of 7946 did, which a run by hand never showed: a page of
	 * a goroutine's stack not there to read, say), which the report counts
	 * without saying the object lacks frame pointers; more than one in a
	 * hundred is what code without them does.
	 */
	for (size_t i = 0; i < json_reader__len(cuts); i++) {
		const struct json_node *cut = json_reader__at(cuts, i);
		const char *object = json_reader__get_string(cut, "object");
		double ending = 0, through = 0;

		cr_assert(object);
		if (strcmp(strrchr(object, '/') ? strrchr(object, '/') + 1 : object, "gochan"))
			continue;
		cr_assert(json_reader__get_double(cut, "stacks_ending_there", &ending) &&
			  json_reader__get_double(cut, "stacks_through_it", &through));
		cr_assert_lt(ending * STACK_CUTS_SAY_SHARE, through,
			     "gochan's stacks cut short: %.0f of %.0f\n%s", ending, through, r.out);
	}
	json_reader__free(doc);
	cr_assert(strstr(r.out, "Stacks of the 3 busiest pairs"), "%s", r.out);
	cr_assert_null(strstr(r.out, "gochan has no frame pointers"), "the text calls gochan's stacks cut short\n%s", r.out);
}
