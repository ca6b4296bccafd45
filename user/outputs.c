// SPDX-License-Identifier: GPL-2.0
/* outputs.c - the files besides the text report, written whole or not at all */
#include <errno.h>
#include <string.h>
#include "outputs.h"
#include "recording.h"
#include "report_json.h"

static int open_one(struct outfile *f, const char *what, const char *path, char *msg, size_t len)
{
	if (!path)
		return 0;
	return outfile__open(f, what, path, msg, len);
}

int outputs__open(struct outputs *out, const struct wp_options *o, char *msg, size_t len)
{
	int err;

	memset(out, 0, sizeof(*out));
	err = open_one(&out->record, "record -o", o->record_path, msg, len);
	if (!err)
		err = open_one(&out->json, "--json", o->json_path, msg, len);
	if (!err)
		err = open_one(&out->csv, "--csv", o->csv_path, msg, len);
	if (!err)
		err = open_one(&out->perfetto, "--perfetto", o->perfetto_path, msg, len);
	if (!err && out->record.f) {
		out->recorder = recorder__new(out->record.f);
		if (!out->recorder) {
			snprintf(msg, len, "out of memory");
			err = -ENOMEM;
		}
	}
	if (err) {
		outputs__abandon(out);
		return err;
	}
	out->text = !outfile__is_stdout(&out->record) && !outfile__is_stdout(&out->json) &&
		    !outfile__is_stdout(&out->csv) && !outfile__is_stdout(&out->perfetto);
	return 0;
}

void outputs__begin_run(struct outputs *out, struct session_opts *so)
{
	so->recorder = out->recorder;
}

void outputs__end_run(struct outputs *out)
{
	(void)out;
}

static int commit_one(struct outfile *f, int err, char *msg, size_t len)
{
	if (err) {
		outfile__abandon(f);
		return err;
	}
	return outfile__commit(f, msg, len);
}

int outputs__finish(struct outputs *out, const struct session_opts *so, const struct workload_desc *const *wl,
		    const struct session_result *const *res, size_t n, char *msg, size_t len)
{
	int err = 0;

	if (out->json.f && report__print_json(out->json.f, so, wl, res, n)) {
		snprintf(msg, len, "--json %s: writing it failed", out->json.path);
		outputs__abandon(out);
		return -EIO;
	}
	if (out->recorder) {
		err = recorder__finish(out->recorder);
		out->recorder = NULL;
		if (err)
			snprintf(msg, len, "record -o %s: writing it failed: %s", out->record.path, strerror(-err));
	}
	err = commit_one(&out->record, err, msg, len);
	if (!err)
		err = commit_one(&out->json, err, msg, len);
	if (!err)
		err = commit_one(&out->csv, err, msg, len);
	if (!err)
		err = commit_one(&out->perfetto, err, msg, len);
	if (err)
		outputs__abandon(out);
	return err;
}

void outputs__abandon(struct outputs *out)
{
	recorder__finish(out->recorder);
	out->recorder = NULL;
	outfile__abandon(&out->record);
	outfile__abandon(&out->json);
	outfile__abandon(&out->csv);
	outfile__abandon(&out->perfetto);
}
