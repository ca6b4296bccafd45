// SPDX-License-Identifier: GPL-2.0
/* design_run.c - one mode of a throughput workload, untraced and traced, and what its documents say */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "collector.h"
#include "design_run.h"
#include "launch.h"
#include "parse.h"
#include "runner.h"

/* how long a workload gets to end after SIGTERM before SIGKILL */
#define GRACE_MS		500
/* a document larger than this is not one of the workloads' */
#define MAX_OUTPUT_BYTES	(64u << 20)
#define THROUGHPUT_SCHEMA	"wakeprobe-throughput"

/* push - one more word of the workload's command line; false when there is no room */
static bool push(struct design_run *r, size_t *n, const char *word)
{
	size_t used = strlen(r->command);

	if (*n + 1 >= DESIGN_MAX_ARGV)
		return false;
	r->argv[(*n)++] = (char *)word;
	r->argv[*n] = NULL;
	snprintf(r->command + used, sizeof(r->command) - used, "%s%s", used ? " " : "", word);
	return true;
}

static int build_argv(const struct design_run_opts *o, struct design_run *r, char *msg, size_t len)
{
	const char *const *args = o->all ? o->design->all_args : o->design->args;
	size_t n = 0;
	bool ok;

	if (runner__find_workload(o->design->name, r->path, sizeof(r->path))) {
		snprintf(msg, len, "the workload '%s' is not built: run make (or set WAKEPROBE_WORKLOAD_DIR)",
			 o->design->name);
		return -ENOENT;
	}
	ok = push(r, &n, r->path);
	for (size_t i = 0; ok && i < DESIGN_MAX_ARGS && args[i]; i++)
		ok = push(r, &n, args[i]);
	for (size_t i = 0; ok && o->user_args && o->user_args[i]; i++)
		ok = push(r, &n, o->user_args[i]);
	ok = ok && push(r, &n, "--mode") && push(r, &n, o->mode);
	if (ok && o->cpus[0] >= 0) {
		snprintf(r->cpus_arg, sizeof(r->cpus_arg), "%d,%d", o->cpus[0], o->cpus[1]);
		ok = push(r, &n, "--cpus") && push(r, &n, r->cpus_arg);
	}
	ok = ok && push(r, &n, "--json");
	if (!ok) {
		snprintf(msg, len, "too many arguments for the workload: at most %d", DESIGN_MAX_ARGV - 8);
		return -E2BIG;
	}
	return 0;
}

/* read_output - what the run wrote into @fd, NUL-terminated, into *@buf (the caller frees) */
static int read_output(int fd, char **buf, size_t *len)
{
	struct stat st;
	size_t got = 0;
	char *b;

	if (fstat(fd, &st))
		return -errno;
	if ((uint64_t)st.st_size > MAX_OUTPUT_BYTES)
		return -EFBIG;
	b = malloc((size_t)st.st_size + 1);
	if (!b)
		return -ENOMEM;
	while (got < (size_t)st.st_size) {
		ssize_t n = pread(fd, b + got, (size_t)st.st_size - got, (off_t)got);

		if (n <= 0) {
			free(b);
			return n < 0 ? -errno : -EIO;
		}
		got += (size_t)n;
	}
	b[got] = '\0';
	*buf = b;
	*len = got;
	return 0;
}

/* take_document - parse what the run printed; a reason in @s->doc_error when it is not a document of ours */
static void take_document(struct design_side *s, int fd, const struct design_desc *d)
{
	char err[128], *text = NULL;
	const char *schema, *workload;
	size_t len = 0;
	int e = read_output(fd, &text, &len);

	if (e) {
		snprintf(s->doc_error, sizeof(s->doc_error), "its output could not be read back: %s", strerror(-e));
		return;
	}
	if (!len) {
		snprintf(s->doc_error, sizeof(s->doc_error), "it printed nothing");
		free(text);
		return;
	}
	s->doc = json_reader__parse(text, len, err, sizeof(err));
	free(text);
	if (!s->doc) {
		snprintf(s->doc_error, sizeof(s->doc_error), "its output is not JSON: %s", err);
		return;
	}
	schema = json_reader__get_string(json_reader__root(s->doc), "schema");
	workload = json_reader__get_string(json_reader__root(s->doc), "workload");
	if (!schema || strcmp(schema, THROUGHPUT_SCHEMA) || !workload || strcmp(workload, d->name)) {
		snprintf(s->doc_error, sizeof(s->doc_error), "its output is not a %s document of %s",
			 THROUGHPUT_SCHEMA, d->name);
		json_reader__free(s->doc);
		s->doc = NULL;
	}
}

static int run_untraced(const struct design_run_opts *o, struct design_run *r, int fd, char *msg, size_t len)
{
	struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };
	struct runner run = {
		.pid = -1,
		.drop_privileges = o->drop_privileges,
		.uid = o->uid,
		.gid = o->gid,
		.capture_stdout = true,
		.stdout_fd = fd,
	};
	struct design_side *s = &r->untraced;
	uint64_t start = collector__now_ns();
	int err;

	err = runner__start(&run, r->path, r->argv, -1, NULL, NULL);
	if (err) {
		launch__describe_failure(&run, NULL, r->path, err, msg, len);
		return err;
	}
	s->ran = true;
	while (!runner__poll(&run)) {
		if (launch_stop_requested) {
			r->interrupted = true;
			break;
		}
		if (o->timeout_ms && collector__now_ns() - start >= o->timeout_ms * 1000000) {
			s->timed_out = true;
			break;
		}
		nanosleep(&tick, NULL);
	}
	runner__stop(&run, GRACE_MS);
	s->wall_ns = collector__now_ns() - start;
	s->status = run.status;
	runner__describe_exit(&run, s->exit, sizeof(s->exit));
	return 0;
}

static void on_command(pid_t pid, void *ctx)
{
	struct design_run *r = ctx;

	census__process(r->census, (uint32_t)pid);
}

static void census_event(const struct wp_event *e, void *ctx)
{
	census__event(ctx, e);
}

static void census_result(const struct attach_result *res, void *ctx)
{
	census__result(ctx, res);
}

static int run_traced(const struct design_run_opts *o, struct design_run *r, int fd, char *msg, size_t len)
{
	struct design_side *s = &r->traced;
	/* the lean engine records no switch of a thread that blocks: no CPU time to count from them */
	struct attach_analysis_opts ao = {
		.on_result = census_result,
		.on_event = o->lean ? NULL : census_event,
		.lean = o->lean,
		.chains = o->chains,
	};
	const struct attach_session_opts targets = {
		.argv = r->argv,
		.command_path = r->path,
		.lean = o->lean,
		.chains = o->chains,
		.timeout_ms = o->timeout_ms,
		.ringbuf_bytes = o->ringbuf_bytes,
		.verbose = o->verbose,
		.drop_privileges = o->drop_privileges,
		.uid = o->uid,
		.gid = o->gid,
		.capture_stdout = true,
		.stdout_fd = fd,
	};
	const struct attach_run_hooks hooks = { .command = on_command, .ctx = r };
	const struct attach_session_result *res = &r->run.res;
	int err;

	r->census = census__new();
	if (!r->census) {
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	ao.on_result_ctx = r->census;
	ao.on_event_ctx = r->census;
	if (attach_run__init(&r->run, &targets, &ao, &hooks)) {
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	err = attach_run__trace(&r->run, msg, len);
	if (err == -EINTR)
		r->interrupted = true;
	if (err)
		return err;
	census__end(r->census, res->trace_end_ns);
	s->ran = res->command_pid != 0;
	s->status = res->command_status;
	s->timed_out = res->timed_out;
	s->wall_ns = res->trace_end_ns - res->trace_start_ns;
	snprintf(s->exit, sizeof(s->exit), "%s", res->command_exit);
	if (res->interrupted)
		r->interrupted = true;
	return 0;
}

/* command_shown - @r's command line as a message may quote it: each word as parse__shown() shows it */
static const char *command_shown(const struct design_run *r, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; r->argv[i] && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", parse__shown(r->argv[i]));
	return buf;
}

/* side_failed - did @s not run to a clean end with its document? One line in @msg saying which and why */
static bool side_failed(const struct design_run *r, const struct design_side *s, const char *which, char *msg,
			size_t len)
{
	char command[sizeof(r->command)];

	if (r->interrupted) {
		snprintf(msg, len, "interrupted during the %s run", which);
		return true;
	}
	if (s->timed_out) {
		snprintf(msg, len, "the %s run of %s was stopped by --timeout", which,
			 command_shown(r, command, sizeof(command)));
		return true;
	}
	if (!WIFEXITED(s->status) || WEXITSTATUS(s->status)) {
		snprintf(msg, len, "the %s run %s: %.200s", which, s->exit, command_shown(r, command, sizeof(command)));
		return true;
	}
	if (!s->doc) {
		snprintf(msg, len, "the %s run of %s: %s", which, r->design_name, s->doc_error);
		return true;
	}
	return false;
}

/* append - "key=value" for a result's identity; numbers as the document wrote them when whole */
static void append(char *buf, size_t size, const char *key, const struct json_node *v)
{
	size_t used = strlen(buf);
	uint64_t u;
	double d;

	if (used >= size)
		return;
	if (json_reader__type(v) == JSON_STRING)
		snprintf(buf + used, size - used, "%s%s=%s", used ? " " : "", key, json_reader__string(v));
	else if (json_reader__u64(v, &u))
		snprintf(buf + used, size - used, "%s%s=%" PRIu64, used ? " " : "", key, u);
	else if (json_reader__double(v, &d))
		snprintf(buf + used, size - used, "%s%s=%g", used ? " " : "", key, d);
}

/*
 * figure_of - a result's identity (every string or number member but the
 * mode and the run count, in the document's order) and its median ns per
 * unit; false if it has no "ns_per_UNIT"
 */
static bool figure_of(const struct json_node *res, struct design_figure *f, double *median)
{
	bool have = false;

	f->label[0] = '\0';
	for (size_t i = 0; i < json_reader__len(res); i++) {
		const char *key = json_reader__key_at(res, i);
		const struct json_node *v = json_reader__at(res, i);
		enum json_type t = json_reader__type(v);

		if (!strncmp(key, "ns_per_", 7) && t == JSON_OBJECT) {
			snprintf(f->unit, sizeof(f->unit), "%s", key + 7);
			have = json_reader__get_double(v, "median", median);
		} else if (!strcmp(key, "runs")) {
			json_reader__u64(v, &f->runs);
		} else if (strcmp(key, "mode") && (t == JSON_STRING || t == JSON_NUMBER)) {
			append(f->label, sizeof(f->label), key, v);
		}
	}
	return have;
}

static int take_figures(struct design_run *r, char *msg, size_t len)
{
	const struct json_node *u = json_reader__get(json_reader__root(r->untraced.doc), "results");
	const struct json_node *t = r->traced.doc ? json_reader__get(json_reader__root(r->traced.doc), "results")
						  : NULL;
	size_t n = json_reader__len(u);

	if (!n || n > DESIGN_MAX_FIGURES || (t && json_reader__len(t) != n)) {
		snprintf(msg, len, "%s: the documents hold %zu results untraced and %zu traced (1 to %d, the same)",
			 r->design_name, n, json_reader__len(t), DESIGN_MAX_FIGURES);
		return -EPROTO;
	}
	for (size_t i = 0; i < n; i++) {
		struct design_figure *f = &r->figures[i], tf = { 0 };
		const struct json_node *counts = json_reader__get(json_reader__at(t ? t : u, i), "counts");

		for (size_t k = 0; k < json_reader__len(counts); k++)
			append(f->counts, sizeof(f->counts), json_reader__key_at(counts, k),
			       json_reader__at(counts, k));

		f->traced_ns = -1;
		if (!figure_of(json_reader__at(u, i), f, &f->untraced_ns) ||
		    (t && (!figure_of(json_reader__at(t, i), &tf, &f->traced_ns) || strcmp(tf.label, f->label)))) {
			snprintf(msg, len, "%s: result %zu has no ns_per_UNIT, or differs between the runs",
				 r->design_name, i + 1);
			return -EPROTO;
		}
	}
	r->nr_figures = n;
	return 0;
}

/* take_units - what the traced run (else the untraced one) handed over in this mode, and in what unit */
static int take_units(const struct design_run_opts *o, struct design_run *r, char *msg, size_t len)
{
	const struct json_doc *doc = r->traced.doc ? r->traced.doc : r->untraced.doc;
	const struct json_node *v = json_reader__get(json_reader__get(json_reader__root(doc),
								      o->design->units_key), o->mode);
	const char *unit = o->design->unit;
	bool ok;

	if (unit) {
		ok = json_reader__u64(v, &r->units);
	} else {
		unit = json_reader__get_string(v, "unit");
		ok = unit && json_reader__get_u64(v, "count", &r->units);
	}
	if (!ok) {
		snprintf(msg, len, "%s: the document does not say how much mode %s handed over (\"%s\")",
			 o->design->name, o->mode, o->design->units_key);
		return -EPROTO;
	}
	snprintf(r->unit, sizeof(r->unit), "%s", unit);
	return 0;
}

int design_run__run(const struct design_run_opts *o, struct design_run *r, char *msg, size_t len)
{
	int fd = -1, err;

	memset(r, 0, sizeof(*r));
	r->design_name = o->design->name;
	r->mode = o->mode;
	run_meta__now(&r->meta);
	err = build_argv(o, r, msg, len);
	if (err)
		return err;
	fd = memfd_create("wakeprobe-design-output", MFD_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		snprintf(msg, len, "cannot make a memfd for the workload's output: %s", strerror(errno));
		return err;
	}
	err = run_untraced(o, r, fd, msg, len);
	if (err)
		goto out;
	take_document(&r->untraced, fd, o->design);
	if (side_failed(r, &r->untraced, "untraced", msg, len)) {
		err = -ECANCELED;
		goto out;
	}
	if (o->traced) {
		/* the untraced run left the shared file offset at its end: the traced one writes from 0 */
		if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET)) {
			err = -errno;
			snprintf(msg, len, "cannot empty the memfd of the workload's output: %s", strerror(errno));
			goto out;
		}
		err = run_traced(o, r, fd, msg, len);
		if (err)
			goto out;
		take_document(&r->traced, fd, o->design);
		if (side_failed(r, &r->traced, "traced", msg, len)) {
			err = -ECANCELED;
			goto out;
		}
	}
	err = take_figures(r, msg, len);
	if (!err)
		err = take_units(o, r, msg, len);
out:
	close(fd);
	return err;
}

void design_run__free(struct design_run *r)
{
	json_reader__free(r->untraced.doc);
	json_reader__free(r->traced.doc);
	attach_run__free(&r->run);
	census__free(r->census);
	r->untraced.doc = NULL;
	r->traced.doc = NULL;
	r->census = NULL;
}
