// SPDX-License-Identifier: GPL-2.0
/*
 * test_service.c - a long attach run's work between two takes of the ring.
 * The small run of attach_fixture.h is fed wakeup by wakeup into a run the
 * service hooks, with the outputs of a live run: --prometheus-every's file
 * comes once a period has passed, each rewrite replaces it whole (a new file
 * renamed over it, nothing else left beside it) with the metrics of the run
 * so far, and a rewrite that fails says so once and lets the run go on; a
 * SIGHUP writes --prometheus and --json of the run so far through their
 * sinks; the cgroups' series are settled between two takes.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "attach_fixture.h"
#include "launch.h"
#include "prom_text.h"
#include "readback.h"
#include "service.h"

#define PERIOD_NS	2000000ull	/* 2 ms */
#define LABELS		"host=\"testhost\",target=\"pid 5000\""

static struct attach_fixture fixture;
static struct attach_run run;
static struct outputs out;
static struct service *svc;
static struct attach_run_hooks hooks;
static char dir[] = "/tmp/wakeprobe-service-XXXXXX";
static char file_path[PATH_MAX], json_path[PATH_MAX];

/* the run as attach_fixture__make() begins it, no wakeup in yet */
static void setup(void)
{
	struct attach_config cfg = { .fd_kind = attach_fixture__fd_kind };

	memset(&fixture, 0, sizeof(fixture));
	memset(&run, 0, sizeof(run));
	fixture.agg = attach_aggregate__new();
	fixture.engine = attach__new(&cfg, attach_fixture__take, &fixture);
	run.analysis = calloc(1, sizeof(*run.analysis));
	cr_assert(fixture.agg && fixture.engine && run.analysis);
	run.analysis->engine = fixture.engine;
	run.analysis->agg = fixture.agg;
	attach_fixture__add(&fixture, with_next_tgid(with_next_comm(ev_switch(RUN_T0 - 1000, 0, 0, RUN_WAKER, 0, 0),
								    "producer"), RUN_PROC));
	snprintf(run.res.meta.hostname, sizeof(run.res.meta.hostname), "testhost");
	run.res.meta.started_unix_ns = 1700000000500000000ull;
	run.res.trace_start_ns = RUN_T0 - 5000;
	strcpy(dir, "/tmp/wakeprobe-service-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(file_path, sizeof(file_path), "%s/wakeprobe.prom", dir);
	snprintf(json_path, sizeof(json_path), "%s/wakeprobe.json", dir);
	svc = NULL;
	memset(&out, 0, sizeof(out));
	launch_reopen_requested = 0;
}

static void teardown(void)
{
	service__close(svc);
	outputs__abandon(&out);
	unlink(file_path);
	unlink(json_path);
	rmdir(dir);
	free(run.analysis);
	attach_fixture__free(&fixture);
}

TestSuite(service, .init = setup, .fini = teardown);

/*
 * serve - the outputs of an attach run of "pid 5000" into @prometheus and
 * @json (NULL: none), and a service as @o asks, hooked into the run, begun
 */
static void serve(const char *prometheus, const char *json, const struct service_opts *o)
{
	struct output_paths paths = { .prometheus = prometheus, .json = json };
	struct attach_analysis_opts ao = { 0 };
	char msg[PATH_MAX + 128];

	cr_assert_eq(outputs__open(&out, &paths, RUN_ATTACH, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(outputs__begin_attach(&out, "pid 5000", &ao, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(service__open(&svc, o, &out, msg, sizeof(msg)), 0, "%s", msg);
	service__hooks(svc, &hooks);
	hooks.begun(&run, hooks.ctx);
}

/* eventfd_wakeups - wakeups @from to @to - 1, each an eventfd write -> read, handed over as the engine ends them */
static void eventfd_wakeups(int from, int to)
{
	for (int i = from; i < to; i++)
		attach_fixture__wakeup(&fixture, i, ev_waker_syscall(0, 0, RUN_WAKER, RUN_PROC, RUN_WAKEE, SYS_write,
								    RUN_EFD, 8, RUN_T0 + (uint64_t)i * RUN_STEP + 1000),
				       SYS_read, RUN_EFD, 0);
	attach__advance(fixture.engine, RUN_T0 + (uint64_t)to * RUN_STEP);
}

/* advance - the run has taken in every record before @complete_ns, @drops dropped: the service sees it */
static void advance(uint64_t complete_ns, uint64_t drops)
{
	run.complete_ns = complete_ns;
	run.drops = drops;
	hooks.advanced(&run, hooks.ctx);
}

/* a_period - let more than a period pass */
static void a_period(void)
{
	usleep((PERIOD_NS + 1000000) / 1000);
}

static ino_t inode_of(const char *p)
{
	struct stat st;

	cr_assert_eq(stat(p, &st), 0, "%s: %s", p, strerror(errno));
	return st.st_ino;
}

/* files_in_dir - the entries of the directory but . and .., and the temporary files of the run's end */
static int files_in_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d))) {
		bool own = false;

		for (size_t i = 0; i < OUTPUTS_SINKS; i++) {
			char tmp[PATH_MAX];

			snprintf(tmp, sizeof(tmp), "%s", out.sinks[i].file.tmp);
			own = own || (tmp[0] && !strcmp(basename(tmp), e->d_name));
		}
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && !own;
	}
	closedir(d);
	return n;
}

/* read_stream - what is left to read of @f, whole */
static char *read_stream(FILE *f)
{
	char *buf = calloc(1, 1 << 16);
	size_t n;

	cr_assert_not_null(buf);
	n = fread(buf, 1, (1 << 16) - 1, f);
	cr_assert_lt(n, (size_t)(1 << 16) - 1, "the file fits the buffer");
	buf[n] = '\0';
	return buf;
}

/* expect_metrics - @doc is a whole metrics file of @complete wakeups, @traced_s traced and @drops dropped */
static void expect_metrics(const char *doc, const char *complete, const char *traced_s, const char *drops)
{
	char buf[64];
	size_t n = strlen(doc);

	cr_assert_gt(n, 0);
	cr_assert_eq(doc[n - 1], '\n', "the file ends with its last line");
	cr_assert(strstr(doc, "# TYPE wakeprobe_wakeups_total counter\n"), "%s", doc);
	cr_assert_str_eq(prom_value_of(doc, "wakeprobe_wakeups_total{" LABELS ",label=\"complete\"}", buf, sizeof(buf)),
			 complete);
	cr_assert_str_eq(prom_value_of(doc, "wakeprobe_traced_seconds_total{" LABELS "}", buf, sizeof(buf)), traced_s);
	cr_assert_str_eq(prom_value_of(doc, "wakeprobe_dropped_events_total{" LABELS "}", buf, sizeof(buf)), drops);
	cr_assert_str_eq(prom_value_of(doc, "wakeprobe_run_start_timestamp_seconds{" LABELS "}", buf, sizeof(buf)),
			 "1700000000.5");
	/* what only the run's end knows is not said during it */
	cr_assert_not(prom_has_sample(doc, "wakeprobe_bpf_missed_runs_total"), "%s", doc);
}

Test(service, each_period_replaces_the_file_whole_with_the_metrics_of_the_run_so_far)
{
	FILE *first;
	char *before, *after;
	ino_t ino;

	serve(file_path, NULL, &(struct service_opts){ .prometheus_every_ns = PERIOD_NS });

	/* a period on: the one wakeup, 105 us traced */
	eventfd_wakeups(0, 1);
	a_period();
	advance(RUN_T0 + RUN_STEP, 0);
	cr_assert_eq(svc->prometheus_writes, 1);
	cr_assert_eq(files_in_dir(), 1, "the file, and no temporary one beside it");
	first = fopen(file_path, "r");
	cr_assert_not_null(first);
	ino = inode_of(file_path);

	/* two more wakeups and two drops, a period later */
	eventfd_wakeups(1, 3);
	a_period();
	advance(RUN_T0 + 3 * RUN_STEP, 2);
	cr_assert_eq(svc->prometheus_writes, 2);
	cr_assert_eq(files_in_dir(), 1, "the file, and no temporary one beside it");
	cr_assert_neq(inode_of(file_path), ino, "a new file was put in place, not the old one written over");

	/* a reader of the first file still reads it whole, as it was; the counters only grew */
	before = read_stream(first);
	fclose(first);
	expect_metrics(before, "1", "0.000105", "0");
	first = fopen(file_path, "r");
	cr_assert_not_null(first);
	after = read_stream(first);
	fclose(first);
	expect_metrics(after, "3", "0.000305", "2");
	free(before);
	free(after);
}

Test(service, nothing_is_written_before_a_period_has_passed)
{
	ino_t ino;

	/* a period of a second: the calls below come well within it */
	serve(file_path, NULL, &(struct service_opts){ .prometheus_every_ns = 1000000000ull });
	eventfd_wakeups(0, 1);
	advance(RUN_T0 + RUN_STEP, 0);
	cr_assert_eq(svc->prometheus_writes, 0);
	cr_assert_eq(access(file_path, F_OK), -1, "nothing is written before a period has passed");
	/* once it has, the file comes; and not again until the next period has passed too */
	svc->next_prometheus_ns = 1;
	advance(RUN_T0 + RUN_STEP, 0);
	cr_assert_eq(svc->prometheus_writes, 1);
	ino = inode_of(file_path);
	eventfd_wakeups(1, 2);
	advance(RUN_T0 + 2 * RUN_STEP, 0);
	cr_assert_eq(svc->prometheus_writes, 1);
	cr_assert_eq(inode_of(file_path), ino);
}

Test(service, the_next_rewrite_is_a_period_after_the_last_one)
{
	uint64_t due;

	serve(file_path, NULL, &(struct service_opts){ .prometheus_every_ns = PERIOD_NS });
	eventfd_wakeups(0, 1);
	a_period();
	advance(RUN_T0 + RUN_STEP, 0);
	cr_assert_eq(svc->prometheus_writes, 1);
	/* the next one is due a period from now, not from when this one was */
	due = svc->next_prometheus_ns;
	a_period();
	advance(RUN_T0 + RUN_STEP, 0);
	cr_assert_eq(svc->prometheus_writes, 2);
	cr_assert_geq(svc->next_prometheus_ns, due + PERIOD_NS, "%llu, %llu",
		      (unsigned long long)svc->next_prometheus_ns, (unsigned long long)due);
}

Test(service, no_period_writes_nothing_until_a_sighup_asks)
{
	serve(file_path, NULL, &(struct service_opts){ .between_takes = true });
	svc->next_prometheus_ns = 1;	/* due long ago */
	eventfd_wakeups(0, 1);
	advance(RUN_T0 + RUN_STEP, 0);
	cr_assert_eq(svc->prometheus_writes, 0);
	cr_assert_eq(access(file_path, F_OK), -1);
	/* ... but a service's SIGHUP asks for it now, at its next tick */
	cr_assert_not_null(hooks.tick);
	launch_reopen_requested = 1;
	hooks.tick(&run, NULL, hooks.ctx);
	cr_assert_eq(launch_reopen_requested, 0, "the request is taken");
	cr_assert_eq(svc->prometheus_writes, 1);
	cr_assert_eq(access(file_path, F_OK), 0);
}

Test(service, standard_output_is_the_reports_at_the_end_and_never_rewritten)
{
	/* --prometheus - is written once, at the end: a rewrite during the run would interleave with it */
	serve("-", NULL, &(struct service_opts){ .prometheus_every_ns = PERIOD_NS, .between_takes = true });
	svc->next_prometheus_ns = 1;
	eventfd_wakeups(0, 1);
	advance(RUN_T0 + RUN_STEP, 0);
	launch_reopen_requested = 1;
	hooks.tick(&run, NULL, hooks.ctx);
	cr_assert_eq(svc->prometheus_writes, 0);
	cr_assert_eq(files_in_dir(), 0);
}

Test(service, a_run_not_begun_writes_nothing)
{
	struct output_paths paths = { .prometheus = file_path };
	struct attach_analysis_opts ao = { 0 };
	char msg[256];

	cr_assert_eq(outputs__open(&out, &paths, RUN_ATTACH, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(outputs__begin_attach(&out, "pid 5000", &ao, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(service__open(&svc, &(struct service_opts){ .prometheus_every_ns = PERIOD_NS }, &out, msg,
				   sizeof(msg)), 0, "%s", msg);
	service__hooks(svc, &hooks);
	cr_assert_null(hooks.tick, "a run of processes does nothing between two takes");
	a_period();
	advance(RUN_T0 + RUN_STEP, 0);
	cr_assert_eq(svc->prometheus_writes, 0);
	cr_assert_eq(access(file_path, F_OK), -1);
}

Test(service, the_labels_are_the_hosts_and_the_targets_as_given)
{
	struct output_paths paths = { .prometheus = file_path };
	struct attach_analysis_opts ao = { 0 };
	char buf[64], msg[256], *doc;
	size_t len;

	snprintf(run.res.meta.hostname, sizeof(run.res.meta.hostname), "h\"1");
	cr_assert_eq(outputs__open(&out, &paths, RUN_ATTACH, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(outputs__begin_attach(&out, "./server --port \"80\"", &ao, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(service__open(&svc, &(struct service_opts){ .prometheus_every_ns = PERIOD_NS }, &out, msg,
				   sizeof(msg)), 0, "%s", msg);
	service__hooks(svc, &hooks);
	hooks.begun(&run, hooks.ctx);
	svc->next_prometheus_ns = 1;
	eventfd_wakeups(0, 2);
	advance(RUN_T0 + 2 * RUN_STEP, 0);
	cr_assert_eq(svc->prometheus_writes, 1);
	doc = read_file(file_path, &len);
	cr_assert_str_eq(prom_value_of(doc, "wakeprobe_wakeups_total{host=\"h\\\"1\",target=\"./server --port "
				       "\\\"80\\\"\",label=\"complete\"}", buf, sizeof(buf)), "2");
	free(doc);
}

/* a rewrite that fails is said once, with why; the run goes on, and after a success a failure is said again */
Test(service, a_failed_rewrite_is_said_once_and_the_run_goes_on, .init = cr_redirect_stderr)
{
	static const char why[] = ": cannot create it: No such file or directory (the run goes on; tried again in 1 s)\n";
	char sub[PATH_MAX + 8], away[PATH_MAX + 8], path[PATH_MAX + 32], *said, *second;
	FILE *err;

	snprintf(sub, sizeof(sub), "%s/sub", dir);
	snprintf(away, sizeof(away), "%s/away", dir);
	snprintf(path, sizeof(path), "%s/wakeprobe.prom", sub);
	cr_assert_eq(mkdir(sub, 0700), 0);
	serve(path, NULL, &(struct service_opts){ .prometheus_every_ns = 1000000000ull });
	/* the directory goes, the end's temporary file with it */
	cr_assert_eq(rename(sub, away), 0);
	eventfd_wakeups(0, 1);
	for (int i = 0; i < 3; i++) {
		svc->next_prometheus_ns = 1;	/* due */
		advance(RUN_T0 + RUN_STEP, 0);
		cr_assert(svc->prometheus_warned);
		cr_assert_gt(svc->next_prometheus_ns, 1, "tried again a period later");
	}
	cr_assert_eq(svc->prometheus_writes, 0);
	/* the directory comes back: the next rewrite succeeds */
	cr_assert_eq(rename(away, sub), 0);
	svc->next_prometheus_ns = 1;
	advance(RUN_T0 + RUN_STEP, 0);
	cr_assert_eq(svc->prometheus_writes, 1);
	cr_assert_not(svc->prometheus_warned);
	cr_assert_eq(unlink(path), 0);
	cr_assert_eq(rename(sub, away), 0);
	svc->next_prometheus_ns = 1;
	advance(RUN_T0 + RUN_STEP, 0);
	cr_assert(svc->prometheus_warned);
	cr_assert_eq(rename(away, sub), 0);

	fflush(stderr);
	err = cr_get_redirected_stderr();
	said = read_stream(err);
	/* twice: the first failure, and the first after the success */
	second = strchr(said, '\n');
	cr_assert_not_null(second, "%s", said);
	second++;
	cr_assert(!strncmp(said, "wakeprobe: --prometheus /tmp/wakeprobe-service-", 47), "%s", said);
	cr_assert_eq(second - said, (long)strlen(second), "two lines alike: %s", said);
	cr_assert(!strncmp(said, second, (size_t)(second - said)), "%s", said);
	cr_assert_str_eq(second + strlen(second) - strlen(why), why, "%s", said);
	free(said);
	outputs__abandon(&out);
	rmdir(sub);
}

Test(service, a_sighup_writes_the_json_of_the_run_so_far_through_its_sink)
{
	char *doc;
	size_t len;

	serve(NULL, json_path, &(struct service_opts){ .between_takes = true });
	eventfd_wakeups(0, 3);
	advance(RUN_T0 + 3 * RUN_STEP, 1);
	cr_assert_eq(access(json_path, F_OK), -1, "nothing before the SIGHUP");
	launch_reopen_requested = 1;
	hooks.tick(&run, NULL, hooks.ctx);
	doc = read_file(json_path, &len);
	cr_assert(strstr(doc, "\"complete\": 3"), "%s", doc);
	cr_assert(strstr(doc, "\"duration_ns\": 305000"), "traced up to the last advance: %s", doc);
	cr_assert(strstr(doc, "\"dropped\": 1"), "with the drops then: %s", doc);
	free(doc);
	cr_assert_eq(files_in_dir(), 1, "the file, and no temporary one beside it");
}

/* scrapers, however many, cost one rendering a second: the ones between are served the last one */
Test(service, scrapes_are_served_from_a_rendering_made_at_most_once_a_second)
{
	char *first = NULL, *second = NULL, *om = NULL, buf[64];
	size_t n1, n2, n3;
	FILE *a, *b, *c;

	serve(NULL, NULL, &(struct service_opts){ .between_takes = true });
	eventfd_wakeups(0, 1);
	advance(RUN_T0 + RUN_STEP, 0);
	a = open_memstream(&first, &n1);
	cr_assert_eq(service__scrape(a, false, svc), 0);
	fclose(a);
	cr_assert_eq(svc->renderings, 1);
	cr_assert_str_eq(prom_value_of(first, "wakeprobe_wakeups_total{" LABELS ",label=\"complete\"}", buf, sizeof(buf)),
			 "1");
	/* two more wakeups, scraped at once, and as OpenMetrics: the same rendering */
	eventfd_wakeups(1, 3);
	advance(RUN_T0 + 3 * RUN_STEP, 0);
	b = open_memstream(&second, &n2);
	cr_assert_eq(service__scrape(b, false, svc), 0);
	fclose(b);
	c = open_memstream(&om, &n3);
	cr_assert_eq(service__scrape(c, true, svc), 0);
	fclose(c);
	cr_assert_eq(svc->renderings, 1, "no rendering within the second");
	cr_assert_str_eq(second, first);
	cr_assert(strstr(om, "\n# EOF\n"), "the same rendering as OpenMetrics: %s", om);
	free(second);
	/* a second on, the next scrape renders the run anew */
	svc->rendered_ns -= SERVICE_RENDER_EVERY_NS;
	b = open_memstream(&second, &n2);
	cr_assert_eq(service__scrape(b, false, svc), 0);
	fclose(b);
	cr_assert_eq(svc->renderings, 2);
	cr_assert_str_eq(prom_value_of(second, "wakeprobe_wakeups_total{" LABELS ",label=\"complete\"}", buf,
				       sizeof(buf)), "3");
	free(first);
	free(second);
	free(om);
}

/* the losses are in the metrics while the run goes on, each by what it was, with the runs the kernel skipped */
Test(service, a_scrape_says_every_loss_so_far)
{
	char *doc = NULL, buf[64];
	size_t n;
	FILE *f;

	serve(NULL, NULL, &(struct service_opts){ .between_takes = true });
	eventfd_wakeups(0, 1);
	advance(RUN_T0 + RUN_STEP, 7);
	f = open_memstream(&doc, &n);
	cr_assert_eq(service__scrape(f, false, svc), 0);
	fclose(f);
	cr_assert_str_eq(prom_value_of(doc, "wakeprobe_dropped_events_total{" LABELS "}", buf, sizeof(buf)), "7");
	cr_assert_str_eq(prom_value_of(doc, "wakeprobe_lost_total{" LABELS ",what=\"other_records_dropped\"}", buf,
				       sizeof(buf)), "7", "the full engine's drops are records, not wakeups");
	cr_assert_str_eq(prom_value_of(doc, "wakeprobe_lost_total{" LABELS ",what=\"wakeup_records_dropped\"}", buf,
				       sizeof(buf)), "0");
	cr_assert(prom_has_sample(doc, "wakeprobe_lost_total{" LABELS ",what=\"processes_untracked\"}"), "%s", doc);
	cr_assert(prom_has_sample(doc, "wakeprobe_lost_total{" LABELS ",what=\"task_storage_refused\"}"), "%s", doc);
	cr_assert(prom_has_sample(doc, "wakeprobe_lost_total{" LABELS ",what=\"flight_records_lost\"}"), "%s", doc);
	/* with no BPF side read (no tick yet), the skipped runs are not known: not said */
	cr_assert_not(prom_has_sample(doc, "wakeprobe_bpf_missed_runs_total"), "%s", doc);
	free(doc);
}

/* the connections the scrape endpoint closed before they were done are counted by why, from 0 */
Test(service, a_scrape_says_the_connections_closed_early_by_why)
{
	static const char *const reasons[] = { "timed_out", "evicted", "refused" };
	char *doc = NULL, name[256], buf[64];
	size_t n;
	FILE *f;

	serve(NULL, NULL, &(struct service_opts){ .between_takes = true });
	eventfd_wakeups(0, 1);
	advance(RUN_T0 + RUN_STEP, 0);
	f = open_memstream(&doc, &n);
	cr_assert_eq(service__scrape(f, false, svc), 0);
	fclose(f);
	cr_assert(strstr(doc, "# TYPE wakeprobe_http_connections_closed_total counter\n"), "%s", doc);
	for (size_t i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++) {
		snprintf(name, sizeof(name), "wakeprobe_http_connections_closed_total{" LABELS ",reason=\"%s\"}",
			 reasons[i]);
		cr_expect_str_eq(prom_value_of(doc, name, buf, sizeof(buf)), "0", "%s", name);
	}
	free(doc);
}
