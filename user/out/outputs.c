// SPDX-License-Identifier: GPL-2.0
/* outputs.c - the files besides the text report, written whole or not at all */
#include <errno.h>
#include <string.h>
#include "attach_analysis.h"
#include "csv_attach.h"
#include "csv_workload.h"
#include "json_attach.h"
#include "json_design.h"
#include "json_workload.h"
#include "outputs.h"
#include "parse.h"
#include "plot_attach.h"
#include "plot_workload.h"
#include "prom_metrics.h"
#include "run_recording.h"
#include "timeline.h"

int outputs__check_files(const struct output_paths *p, char *msg, size_t len)
{
	struct output_file f[OUTPUT_MAX_FILES];
	size_t i, j, n = output_paths__files(p, f);

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			if (!strcmp(f[i].path, "-") || !strcmp(f[j].path, "-") || !outfile__same(f[i].path, f[j].path))
				continue;
			if (!i && p->recording)
				snprintf(msg, len, "%s '%s' is the recording '%s' itself: give the output a file of its own",
					 f[j].name, parse__shown(f[j].path), parse__shown(f[i].path));
			else
				snprintf(msg, len, "%s '%s' and %s '%s' are the same file: give each output its own file",
					 f[i].name, parse__shown(f[i].path), f[j].name, parse__shown(f[j].path));
			return -EINVAL;
		}
	return 0;
}

static int open_one(struct outfile *f, const char *what, const char *path, char *msg, size_t len)
{
	if (!path)
		return 0;
	return outfile__open(f, what, path, msg, len);
}

/* open_files - create every file @p names, no writer yet; on failure none is left */
static int open_files(struct outputs *out, const struct output_paths *p, char *msg, size_t len)
{
	int err;

	memset(out, 0, sizeof(*out));
	err = open_one(&out->record, "record -o", p->record, msg, len);
	if (!err)
		err = open_one(&out->json, "--json", p->json, msg, len);
	if (!err)
		err = open_one(&out->csv, "--csv", p->csv, msg, len);
	if (!err)
		err = open_one(&out->perfetto, "--perfetto", p->perfetto, msg, len);
	if (!err)
		err = open_one(&out->prometheus, "--prometheus", p->prometheus, msg, len);
	if (!err)
		err = open_one(&out->plot, "--plot", p->plot, msg, len);
	if (err) {
		outputs__abandon(out);
		return err;
	}
	out->text = !outfile__is_stdout(&out->record) && !outfile__is_stdout(&out->json) &&
		    !outfile__is_stdout(&out->csv) && !outfile__is_stdout(&out->perfetto) &&
		    !outfile__is_stdout(&out->prometheus) && !outfile__is_stdout(&out->plot);
	return 0;
}

/* open_all - the files @p asks for and their writers: attach mode's when @attach, the workload's if not */
static int open_all(struct outputs *out, const struct output_paths *p, bool attach, char *msg, size_t len)
{
	int err = open_files(out, p, msg, len);

	if (err)
		return err;
	if (out->record.f && !(out->recorder = recorder__new(out->record.f)))
		err = -ENOMEM;
	if (!err && out->csv.f && !attach && !(out->csv_writer = csv_workload__open(out->csv.f)))
		err = -ENOMEM;
	if (!err && out->csv.f && attach && !(out->attach_csv = csv_attach__open(out->csv.f)))
		err = -ENOMEM;
	if (!err && out->perfetto.f && !(out->timeline = timeline__open(out->perfetto.f)))
		err = -ENOMEM;
	if (err) {
		snprintf(msg, len, "out of memory");
		outputs__abandon(out);
	}
	return err;
}

int outputs__open(struct outputs *out, const struct output_paths *p, char *msg, size_t len)
{
	return open_all(out, p, false, msg, len);
}

static void on_sample(const struct sample_result *r, void *ctx)
{
	struct outputs *out = ctx;

	if (out->csv_writer)
		csv_workload__add(out->csv_writer, r);
	if (out->timeline)
		timeline__sample(out->timeline, r);
}

static void on_event(const struct wp_event *e, void *ctx)
{
	struct outputs *out = ctx;

	timeline__event(out->timeline, e);
}

void outputs__begin_run(struct outputs *out, const struct run_config *cfg, struct analysis_opts *ao)
{
	ao->tap = out->recorder ? &run_recording_tap : NULL;
	ao->tap_ctx = out->recorder;
	if (out->csv_writer || out->timeline) {
		ao->on_sample = on_sample;
		ao->on_sample_ctx = out;
	}
	if (out->timeline) {
		ao->on_event = on_event;
		ao->on_event_ctx = out;
	}
	if (out->csv_writer)
		csv_workload__begin_run(out->csv_writer, cfg->workload->name, cfg->traced);
	if (out->timeline)
		timeline__begin_run(out->timeline, cfg->workload->name, cfg->traced);
}

void outputs__end_run(struct outputs *out)
{
	if (out->timeline)
		timeline__end_run(out->timeline);
}

static int commit_one(struct outfile *f, int err, char *msg, size_t len)
{
	if (err) {
		outfile__abandon(f);
		return err;
	}
	return outfile__commit(f, msg, len);
}

/*
 * writer_failed - the writer of @f failed with @err: say so in @msg, with
 * the errno of the write that failed where the file kept one (a writer
 * that only sees ferror() says -EIO). Standard output failing is not the
 * files' failure: wakeprobe says so as it exits, and the files go in place.
 */
static int writer_failed(int err, const struct outfile *f, char *msg, size_t len)
{
	if (err && outfile__is_stdout(f) && ferror(stdout))
		return 0;
	if (err) {
		err = outfile__error(f, err);
		snprintf(msg, len, "%s %s: writing it failed: %s", f->what, parse__shown(f->path), strerror(-err));
	}
	return err;
}

/*
 * finish_files - the JSON is written, or @err says why not: end every
 * writer, then put every file in place; on any failure none is left
 */
static int finish_files(struct outputs *out, int err, char *msg, size_t len)
{
	/* a writer that was ended is gone, however it went: outputs__abandon() must not end it again */
	if (!err && out->recorder) {
		err = writer_failed(recorder__finish(out->recorder), &out->record, msg, len);
		out->recorder = NULL;
	}
	if (!err && out->csv_writer) {
		err = writer_failed(csv_workload__close(out->csv_writer), &out->csv, msg, len);
		out->csv_writer = NULL;
	}
	if (!err && out->attach_csv) {
		err = writer_failed(csv_attach__close(out->attach_csv), &out->csv, msg, len);
		out->attach_csv = NULL;
	}
	if (!err && out->timeline) {
		err = writer_failed(timeline__close(out->timeline), &out->perfetto, msg, len);
		out->timeline = NULL;
	}
	if (!err)
		err = commit_one(&out->record, err, msg, len);
	if (!err)
		err = commit_one(&out->json, err, msg, len);
	if (!err)
		err = commit_one(&out->csv, err, msg, len);
	if (!err)
		err = commit_one(&out->perfetto, err, msg, len);
	if (!err)
		err = commit_one(&out->prometheus, err, msg, len);
	if (!err)
		err = commit_one(&out->plot, err, msg, len);
	if (err)
		outputs__abandon(out);
	return err;
}

int outputs__finish(struct outputs *out, const struct run_config *cfg, const struct workload_desc *const *wl,
		    const struct run_result *const *res, size_t n, char *msg, size_t len)
{
	int err = 0;

	if (out->json.f && json_workload__print(out->json.f, cfg, wl, res, n))
		err = writer_failed(-EIO, &out->json, msg, len);
	if (!err && out->prometheus.f)
		err = writer_failed(prom_metrics__print_runs(out->prometheus.f, wl, res, n), &out->prometheus, msg,
				    len);
	if (!err && out->plot.f)
		err = writer_failed(plot_workload__runs(out->plot.f, cfg, wl, res, n), &out->plot, msg, len);
	return finish_files(out, err, msg, len);
}

/* ---------------------------------------------------------------- attach mode */

int outputs__open_attach(struct outputs *out, const struct output_paths *p, char *msg, size_t len)
{
	return open_all(out, p, true, msg, len);
}

static void attach_on_event(const struct wp_event *e, void *ctx)
{
	struct outputs *out = ctx;

	timeline__attach_event(out->timeline, e);
}

static void attach_on_result(const struct attach_result *r, void *ctx)
{
	struct outputs *out = ctx;

	if (out->attach_csv)
		csv_attach__add(out->attach_csv, r);
	if (out->timeline)
		timeline__attach_result(out->timeline, r);
}

int outputs__begin_attach(struct outputs *out, const char *target, struct attach_analysis_opts *ao, char *msg,
			  size_t len)
{
	if (out->timeline && timeline__begin_attach(out->timeline, target)) {
		snprintf(msg, len, "out of memory");
		outputs__abandon(out);
		return -ENOMEM;
	}
	snprintf(out->target, sizeof(out->target), "%s", target);
	if (out->timeline) {
		ao->on_event = attach_on_event;
		ao->on_event_ctx = out;
	}
	if (out->attach_csv || out->timeline) {
		ao->on_result = attach_on_result;
		ao->on_result_ctx = out;
	}
	return 0;
}

int outputs__finish_attach(struct outputs *out, const struct attach_report *r, char *msg, size_t len)
{
	int err = 0;

	if (out->json.f && json_attach__print(out->json.f, r))
		err = writer_failed(-EIO, &out->json, msg, len);
	if (out->timeline)
		timeline__end_run(out->timeline);
	if (out->prometheus.f && r) {
		const struct attach_session_result *run = r->run;
		char host[sizeof(run->meta.hostname) + 1];
		struct prom_attach pa = {
			.host = host,
			.target = out->target,
			.started_unix_ns = run->meta.started_unix_ns,
			.traced_ns = run->trace_end_ns > run->trace_start_ns ? run->trace_end_ns - run->trace_start_ns : 0,
			.agg = r->agg,
			.counters = r->counters,
			.drops = run->drops_total,
			.missed_runs_known = true,
			.missed_runs = run->missed_runs,
			.cost = &run->cost,
		};

		snprintf(host, sizeof(host), "%.*s", (int)sizeof(run->meta.hostname), run->meta.hostname);
		prom_metrics__print_attach(out->prometheus.f, &pa);
	}
	if (!err && out->plot.f && r)
		err = writer_failed(plot_attach__print(out->plot.f, r), &out->plot, msg, len);
	return finish_files(out, err, msg, len);
}

/* ---------------------------------------------------------------- throughput workloads */

int outputs__finish_design(struct outputs *out, const char *workload, const struct design_run *const *runs,
			   size_t n, char *msg, size_t len)
{
	int err = 0;

	if (out->json.f)
		err = writer_failed(json_design__print(out->json.f, workload, runs, n), &out->json, msg, len);
	return finish_files(out, err, msg, len);
}

void outputs__abandon(struct outputs *out)
{
	recorder__finish(out->recorder);
	out->recorder = NULL;
	if (out->csv_writer)
		csv_workload__close(out->csv_writer);
	out->csv_writer = NULL;
	if (out->timeline)
		timeline__close(out->timeline);
	out->timeline = NULL;
	csv_attach__close(out->attach_csv);
	out->attach_csv = NULL;
	outfile__abandon(&out->record);
	outfile__abandon(&out->json);
	outfile__abandon(&out->csv);
	outfile__abandon(&out->perfetto);
	outfile__abandon(&out->prometheus);
	outfile__abandon(&out->plot);
}
