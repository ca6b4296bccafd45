// SPDX-License-Identifier: GPL-2.0
/*
 * json_attach.c - attach mode's report a program reads: what was traced
 * and how, then the run's analysis (json_analysis.c), which a design's
 * document holds too; the key names are the contract docs/json.md
 * describes. As in every document, every key is always written: a value
 * that does not apply is null, and 0, "" and [] mean measured, and none.
 */
#include <sys/wait.h>
#include "json_analysis.h"
#include "json_attach.h"
#include "json_common.h"
#include "json_writer.h"

static void write_command(struct json_writer *w, const struct attach_report *r)
{
	const struct attach_session_result *run = r->run;
	int st = run->command_status;
	int i;

	json_writer__key(w, "command");
	if (!r->targets->argv) {
		json_writer__null(w);
		return;
	}
	json_writer__begin_object(w);
	json_writer__key(w, "argv");
	json_writer__begin_array(w);
	for (i = 0; r->targets->argv[i]; i++)
		json_writer__string(w, r->targets->argv[i]);
	json_writer__end_array(w);
	json_writer__put_uint_if(w, "pid", run->command_pid, (uint64_t)run->command_pid);
	/* the status waitpid() gave: an exit code, or the signal that ended it */
	json_writer__put_int_if(w, "exit_code", run->command_pid && WIFEXITED(st), WEXITSTATUS(st));
	json_writer__put_int_if(w, "signal", run->command_pid && WIFSIGNALED(st), WTERMSIG(st));
	if (run->command_exit[0])
		json_writer__put_strn(w, "exit", run->command_exit, sizeof(run->command_exit));
	else
		json_writer__put_null(w, "exit");
	/* what it started and left running, ended by wakeprobe with it */
	json_writer__put_uint(w, "others_stopped", run->others_stopped);
	json_writer__end_object(w);
}

static void write_targets(struct json_writer *w, const struct attach_report *r)
{
	uint32_t i;

	json_writer__key(w, "targets");
	json_writer__begin_object(w);
	json_writer__key(w, "pids");
	json_writer__begin_array(w);
	for (i = 0; i < r->targets->nr_pids; i++)
		json_writer__int(w, r->targets->pids[i]);
	json_writer__end_array(w);
	/* --pid: the processes they had forked before the attach, traced with them */
	json_writer__put_uint(w, "descendants", r->run->descendants);
	write_command(w, r);
	json_writer__key(w, "tids");
	json_writer__begin_array(w);
	for (i = 0; i < r->nr_tids; i++)
		json_writer__int(w, r->tids[i]);
	json_writer__end_array(w);
	json_writer__put_bool(w, "all", r->targets->all);
	if (r->targets->cgroups_given)
		json_writer__put_str(w, "cgroups", r->targets->cgroups_given);
	else
		json_writer__put_null(w, "cgroups");
	json_writer__end_object(w);
}

static void write_options(struct json_writer *w, const struct attach_report *r)
{
	const struct attach_session_opts *t = r->targets;

	json_writer__key(w, "options");
	json_writer__begin_object(w);
	json_writer__put_uint_if(w, "duration_ns", t->duration_ms, t->duration_ms * 1000000);
	json_writer__put_uint_if(w, "timeout_ns", t->timeout_ms, t->timeout_ms * 1000000);
	json_writer__put_uint(w, "ringbuf_bytes", t->ringbuf_bytes);
	json_writer__put_uint(w, "pairs", r->pairs);
	json_writer__put_str(w, "order", r->order == ATTACH_ORDER_COST ? "cost" : "count");
	json_writer__put_bool(w, "lean", r->targets->lean);
	json_writer__put_bool(w, "syscall_phases", r->targets->syscall_phases);
	json_writer__put_bool(w, "softirqs", !r->targets->lean || r->targets->lean_softirqs);
	json_writer__put_bool(w, "chains", r->targets->chains);
	json_writer__put_uint(w, "outliers", r->agg->outliers_wanted);
	json_writer__put_uint(w, "outlier_threshold_ns", r->agg->outlier_threshold_ns);
	json_writer__end_object(w);
}

int json_attach__print(FILE *out, const struct attach_report *r)
{
	struct json_writer w;

	json_writer__init(&w, out);
	json_writer__begin_object(&w);
	json_writer__put_str(&w, "schema", ATTACH_JSON_SCHEMA);
	json_writer__put_uint(&w, "schema_version", ATTACH_JSON_SCHEMA_VERSION);
	json_writer__put_str(&w, "kind", "attach");
	json_common__write_meta(&w, &r->run->meta);
	write_targets(&w, r);
	write_options(&w, r);
	json_analysis__write(&w, r);
	json_writer__end_object(&w);
	/* the calls above are balanced, so a write error is the one failure left */
	return json_writer__finish(&w);
}
