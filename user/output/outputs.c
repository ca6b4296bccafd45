// SPDX-License-Identifier: GPL-2.0
/* outputs.c - the files besides the text report, each format's through its sink, written whole or not at all */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include "attach_recording.h"
#include "outputs.h"
#include "parse.h"
#include "recorder.h"
#include "run_recording.h"

/* the formats, in the order of their files (made, written, put in place), and where each file is named */
static const struct format {
	const struct sink *sink;
	size_t path;		/* offsetof the member of struct output_paths that names its file */
} formats[OUTPUTS_SINKS] = {
	{ &json_sink, offsetof(struct output_paths, json) },
	{ &csv_sink, offsetof(struct output_paths, csv) },
	{ &perfetto_sink, offsetof(struct output_paths, perfetto) },
	{ &prometheus_sink, offsetof(struct output_paths, prometheus) },
	{ &plot_sink, offsetof(struct output_paths, plot) },
	{ &folded_sink, offsetof(struct output_paths, folded) },
};

/* path_of - where @p asks for format @f's file; NULL: not asked for */
static const char *path_of(const struct output_paths *p, const struct format *f)
{
	return *(const char *const *)((const char *)p + f->path);
}

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

	err = open_one(&out->record, "record -o", p->record, msg, len);
	for (size_t i = 0; i < OUTPUTS_SINKS && !err; i++)
		err = open_one(&out->sinks[i].file, formats[i].sink->option, path_of(p, &formats[i]), msg, len);
	if (err) {
		outputs__abandon(out);
		return err;
	}
	out->text = !outfile__is_stdout(&out->record);
	for (size_t i = 0; i < OUTPUTS_SINKS; i++)
		out->text = out->text && !outfile__is_stdout(&out->sinks[i].file);
	return 0;
}

int outputs__open(struct outputs *out, const struct output_paths *p, enum run_kind kind, char *msg, size_t len)
{
	int err;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < OUTPUTS_SINKS; i++)
		out->sinks[i].sink = formats[i].sink;
	err = open_files(out, p, msg, len);
	if (err)
		return err;
	if (out->record.f && !(out->recorder = recorder__new(out->record.f)))
		err = -ENOMEM;
	for (size_t i = 0; i < OUTPUTS_SINKS && !err; i++) {
		struct output_sink *s = &out->sinks[i];

		if (s->file.f && s->sink->open)
			err = s->sink->open(&s->w, s->file.f, kind);
	}
	if (err) {
		snprintf(msg, len, "out of memory");
		outputs__abandon(out);
	}
	return err;
}

/* on_sample, on_wakeup, on_event - what a run's analysis hands over, to every format that takes it as it comes */
static void on_sample(const struct sample_result *r, void *ctx)
{
	struct outputs *out = ctx;

	for (size_t i = 0; i < OUTPUTS_SINKS; i++)
		if (out->sinks[i].w && out->sinks[i].sink->sample)
			out->sinks[i].sink->sample(out->sinks[i].w, r);
}

static void on_wakeup(const struct attach_result *r, void *ctx)
{
	struct outputs *out = ctx;

	for (size_t i = 0; i < OUTPUTS_SINKS; i++)
		if (out->sinks[i].w && out->sinks[i].sink->wakeup)
			out->sinks[i].sink->wakeup(out->sinks[i].w, r);
}

static void on_event(const struct wp_event *e, void *ctx)
{
	struct outputs *out = ctx;

	for (size_t i = 0; i < OUTPUTS_SINKS; i++)
		if (out->sinks[i].w && out->sinks[i].sink->event)
			out->sinks[i].sink->event(out->sinks[i].w, e);
}

/* streams_want - does a format that writes as the run goes take @hook's kind of input? */
#define streams_want(out, hook)								\
	({										\
		bool __want = false;							\
		for (size_t __i = 0; __i < OUTPUTS_SINKS; __i++)			\
			__want = __want || ((out)->sinks[__i].w && (out)->sinks[__i].sink->hook); \
		__want;									\
	})

/* begin - a run of @name begins in every format that writes as it goes; on failure none is left */
static int begin(struct outputs *out, const char *name, bool traced, char *msg, size_t len)
{
	int err = 0;

	for (size_t i = 0; i < OUTPUTS_SINKS && !err; i++)
		if (out->sinks[i].w && out->sinks[i].sink->begin)
			err = out->sinks[i].sink->begin(out->sinks[i].w, name, traced);
	if (err) {
		snprintf(msg, len, "out of memory");
		outputs__abandon(out);
		return err;
	}
	out->running = true;
	return 0;
}

int outputs__begin_run(struct outputs *out, const struct run_config *cfg, struct analysis_opts *ao, char *msg,
		       size_t len)
{
	ao->tap = out->recorder ? &run_recording_tap : NULL;
	ao->tap_ctx = out->recorder;
	if (streams_want(out, sample)) {
		ao->on_sample = on_sample;
		ao->on_sample_ctx = out;
	}
	if (streams_want(out, event)) {
		ao->on_event = on_event;
		ao->on_event_ctx = out;
	}
	return begin(out, cfg->workload->name, cfg->traced, msg, len);
}

int outputs__begin_attach(struct outputs *out, const char *target, struct attach_analysis_opts *ao, char *msg,
			  size_t len)
{
	int err = begin(out, target, true, msg, len);

	if (err)
		return err;
	snprintf(out->target, sizeof(out->target), "%s", target);
	ao->tap = out->recorder ? &attach_recording_tap : NULL;
	ao->tap_ctx = out->recorder;
	if (streams_want(out, event)) {
		ao->on_event = on_event;
		ao->on_event_ctx = out;
	}
	if (streams_want(out, wakeup)) {
		ao->on_result = on_wakeup;
		ao->on_result_ctx = out;
	}
	return 0;
}

void outputs__label_target(struct outputs *out, const char *label)
{
	snprintf(out->target, sizeof(out->target), "%s", label);
}

void outputs__end_run(struct outputs *out)
{
	if (!out->running)
		return;
	for (size_t i = 0; i < OUTPUTS_SINKS; i++)
		if (out->sinks[i].w && out->sinks[i].sink->end)
			out->sinks[i].sink->end(out->sinks[i].w);
	out->running = false;
}

bool outputs__wants_results(const struct outputs *out)
{
	for (size_t i = 0; i < OUTPUTS_SINKS; i++)
		if (out->sinks[i].file.f && out->sinks[i].sink->write)
			return true;
	return false;
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

/* failed - @why, the failure of one file, into @msg after those said before it: each is named */
static void failed(char *msg, size_t len, const char *why)
{
	size_t used = strlen(msg);

	if (used + 2 < len)
		snprintf(msg + used, len - used, "%s%s", used ? "; " : "", why);
}

/*
 * write_sink - @s's content, whole: what needs the results written, its
 * stream ended. Its file is not put in place yet; on a failure of its own,
 * @why says what failed.
 */
static int write_sink(struct output_sink *s, const struct results *r, char *why, size_t len)
{
	int err = 0, closed;

	if (s->file.f && s->sink->write)
		err = writer_failed(s->sink->write(s->file.f, r), &s->file, why, len);
	/* a writer that was ended is gone, however it went: outputs__abandon() must not end it again */
	if (s->w) {
		closed = s->sink->close(s->w);
		s->w = NULL;
		if (!err)
			err = writer_failed(closed, &s->file, why, len);
	}
	return err;
}

/* put_in_place - @f, written whole (@err 0), put in place; or, failed, removed alone, @why saying why */
static int put_in_place(struct outfile *f, int err, char *why, size_t len)
{
	if (err) {
		outfile__abandon(f);
		return err;
	}
	return outfile__commit(f, why, len);
}

/*
 * outputs__finish writes every output before it puts any file in place:
 * a report blocked on standard output (a reader that stopped reading) that
 * a second signal ends leaves no file behind, the recording's neither
 */
int outputs__finish(struct outputs *out, const struct results *r, char *msg, size_t len)
{
	struct results with_target = *r;
	char why[OUTPUTS_SINKS + 1][PATH_MAX + 128];
	int err[OUTPUTS_SINKS + 1] = { 0 }, first = 0;

	/* an attach run has one run, which ends with it */
	outputs__end_run(out);
	if (r->kind == RUN_ATTACH)
		with_target.attach.target = out->target;
	msg[0] = '\0';
	for (size_t i = 0; i < OUTPUTS_SINKS; i++)
		err[i + 1] = write_sink(&out->sinks[i], &with_target, why[i + 1], sizeof(why[i + 1]));
	if (out->recorder) {
		err[0] = writer_failed(recorder__finish(out->recorder), &out->record, why[0], sizeof(why[0]));
		out->recorder = NULL;
	}
	/* a file that fails costs itself alone: the others are put in place all the same */
	err[0] = put_in_place(&out->record, err[0], why[0], sizeof(why[0]));
	for (size_t i = 0; i < OUTPUTS_SINKS; i++)
		err[i + 1] = put_in_place(&out->sinks[i].file, err[i + 1], why[i + 1], sizeof(why[i + 1]));
	for (size_t i = 0; i < OUTPUTS_SINKS + 1; i++) {
		if (err[i]) {
			first = first ? first : err[i];
			failed(msg, len, why[i]);
		}
	}
	return first;
}

/* file_of - the file of @sink's format that @out keeps, not standard output; NULL: none */
static const struct outfile *file_of(const struct outputs *out, const struct sink *sink)
{
	for (size_t i = 0; i < OUTPUTS_SINKS; i++) {
		const struct output_sink *s = &out->sinks[i];

		if (s->sink == sink)
			return s->file.f && !outfile__is_stdout(&s->file) && sink->write ? &s->file : NULL;
	}
	return NULL;
}

bool outputs__keeps_file(const struct outputs *out, const struct sink *sink)
{
	return file_of(out, sink) != NULL;
}

int outputs__render(const struct outputs *out, const struct sink *sink, FILE *f, const struct results *r)
{
	struct results with_target = *r;

	if (r->kind == RUN_ATTACH)
		with_target.attach.target = out->target;
	return sink->write(f, &with_target);
}

int outputs__rewrite(const struct outputs *out, const struct sink *sink, const struct results *r, char *msg,
		     size_t len)
{
	const struct outfile *file = file_of(out, sink);
	struct outfile f;
	int err;

	if (!file)
		return 0;
	err = outfile__open(&f, sink->option, file->path, msg, len);
	if (err)
		return err;
	err = writer_failed(outputs__render(out, sink, f.f, r), &f, msg, len);
	if (err) {
		outfile__abandon(&f);
		return err;
	}
	return outfile__commit(&f, msg, len);
}

void outputs__abandon(struct outputs *out)
{
	recorder__finish(out->recorder);
	out->recorder = NULL;
	for (size_t i = 0; i < OUTPUTS_SINKS; i++) {
		if (out->sinks[i].w)
			out->sinks[i].sink->close(out->sinks[i].w);
		out->sinks[i].w = NULL;
	}
	out->running = false;
	outfile__abandon(&out->record);
	for (size_t i = 0; i < OUTPUTS_SINKS; i++)
		outfile__abandon(&out->sinks[i].file);
}
