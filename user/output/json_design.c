// SPDX-License-Identifier: GPL-2.0
/*
 * json_design.c - a throughput workload's runs as one JSON document. The
 * traced run's kernel side (events, phases, causes, futex words) is attach
 * mode's analysis, written by json_analysis.c into the object "attach"; what
 * only a design has (the two runs, the figures, the workload's own documents,
 * the census per unit, CPU time by thread name) is written here.
 *
 * As in the other documents every key is always written: a value that does
 * not apply (the traced parts with --no-trace) is null, and 0, "" and []
 * mean measured, and none.
 */
#include <sys/wait.h>
#include "json_analysis.h"
#include "json_common.h"
#include "json_design.h"
#include "json_writer.h"
#include "mechanism.h"

/* put_per_unit - "@key": @count per unit the run handed over; null when it handed over none */
static void put_per_unit(struct json_writer *w, const char *key, const struct design_run *r, uint64_t count)
{
	if (r->units)
		json_writer__put_double(w, key, (double)count / (double)r->units);
	else
		json_writer__put_null(w, key);
}

/* write_side - "@key": how one run of the workload ended; null when it did not run */
static void write_side(struct json_writer *w, const char *key, const struct design_side *s)
{
	json_writer__key(w, key);
	if (!s->ran) {
		json_writer__null(w);
		return;
	}
	json_writer__begin_object(w);
	json_writer__put_str(w, "exit", s->exit);
	/* the status waitpid() gave: an exit code, or the signal that ended it */
	json_writer__put_int_if(w, "exit_code", WIFEXITED(s->status), WEXITSTATUS(s->status));
	json_writer__put_int_if(w, "signal", WIFSIGNALED(s->status), WTERMSIG(s->status));
	json_writer__put_uint(w, "wall_ns", s->wall_ns);
	json_writer__put_bool(w, "timed_out", s->timed_out);
	json_writer__end_object(w);
}

/* result_member - member @key of result @i of @doc's "results"; NULL if @doc has none */
static const struct json_node *result_member(const struct json_doc *doc, size_t i, const char *key)
{
	return json_reader__get(json_reader__at(json_reader__get(json_reader__root(doc), "results"), i), key);
}

static void write_figures(struct json_writer *w, const struct design_run *r)
{
	const struct json_doc *counted = r->traced.doc ? r->traced.doc : r->untraced.doc;

	json_writer__key(w, "figures");
	json_writer__begin_array(w);
	for (size_t i = 0; i < r->nr_figures; i++) {
		const struct design_figure *f = &r->figures[i];
		bool traced = f->traced_ns >= 0;

		json_writer__begin_object(w);
		json_writer__put_str(w, "label", f->label);
		json_writer__put_str(w, "unit", f->unit);
		json_writer__put_uint(w, "runs", f->runs);
		json_writer__put_double(w, "untraced_ns", f->untraced_ns);
		if (traced)
			json_writer__put_double(w, "traced_ns", f->traced_ns);
		else
			json_writer__put_null(w, "traced_ns");
		if (traced && f->untraced_ns > 0)
			json_writer__put_double(w, "ratio", f->traced_ns / f->untraced_ns);
		else
			json_writer__put_null(w, "ratio");
		/* the counts the text shows, as the workload wrote them: the traced run's, else the untraced one's */
		json_writer__key(w, "counts");
		json_reader__write(w, result_member(counted, i, "counts"));
		json_writer__end_object(w);
	}
	json_writer__end_array(w);
}

/* write_documents - each run's own document, member for member as the workload printed it */
static void write_documents(struct json_writer *w, const struct design_run *r)
{
	json_writer__key(w, "documents");
	json_writer__begin_object(w);
	json_writer__key(w, "untraced");
	json_reader__write(w, json_reader__root(r->untraced.doc));
	json_writer__key(w, "traced");
	json_reader__write(w, json_reader__root(r->traced.doc));
	json_writer__end_object(w);
}

static void write_census(struct json_writer *w, const struct design_run *r)
{
	const struct census *c = r->census;
	const struct census_kind *rows[CENSUS_MAX_KINDS];
	size_t n = census__kinds(c, rows, CENSUS_MAX_KINDS);

	json_writer__key(w, "census");
	json_writer__begin_object(w);
	json_writer__put_uint(w, "wakeups", c->wakeups);
	put_per_unit(w, "per_unit", r, c->wakeups);
	json_writer__key(w, "kinds");
	json_writer__begin_array(w);
	for (size_t i = 0; i < n; i++) {
		const struct census_kind *k = rows[i];

		json_writer__begin_object(w);
		json_writer__put_str(w, "waker", k->waker);
		/* a wakee never seen switching in has no name */
		if (k->wakee[0])
			json_writer__put_strn(w, "wakee", k->wakee, sizeof(k->wakee));
		else
			json_writer__put_null(w, "wakee");
		json_writer__put_str(w, "mechanism", k->mechanism);
		json_writer__put_str(w, "family", mechanism__family_name(k->family));
		json_writer__put_uint(w, "wakeups", k->wakeups);
		put_per_unit(w, "per_unit", r, k->wakeups);
		json_writer__put_uint(w, "complete", k->complete);
		json_common__write_distribution(w, "wake_to_run", &k->wake_to_run, true);
		json_writer__end_object(w);
	}
	json_writer__end_array(w);
	json_writer__put_uint(w, "kinds_untabled", c->kinds_untabled);
	json_writer__end_object(w);
}

/*
 * write_futex_waits - the futex waits summed, per unit: every word's, those
 * attach.futexes replaced too; the busiest words are in attach.futexes
 */
static void write_futex_waits(struct json_writer *w, const struct design_run *r)
{
	const struct attach_aggregate *g = r->run.analysis->agg;

	json_writer__key(w, "futex_waits");
	json_writer__begin_object(w);
	json_writer__put_uint(w, "waits", g->futex_waits);
	/* the rows: every word while none was replaced, fewer than came after */
	json_writer__put_uint(w, "words", g->nr_futexes);
	put_per_unit(w, "per_unit", r, g->futex_waits);
	/* null: the waits were named from registers, and no program timed them */
	json_writer__put_uint(w, "waits_timed", g->futex_waits_timed);
	json_writer__put_uint_if(w, "wait_total_ns", g->futex_waits_timed, g->futex_wait_total_ns);
	json_writer__end_object(w);
}

static void write_cpu(struct json_writer *w, const struct design_run *r)
{
	const struct census *c = r->census;
	const struct census_name *rows[CENSUS_MAX_NAMES];
	size_t n = census__names(c, rows, CENSUS_MAX_NAMES);
	uint64_t total = census__cpu_ns(c);

	json_writer__key(w, "cpu");
	json_writer__begin_object(w);
	json_writer__key(w, "names");
	json_writer__begin_array(w);
	for (size_t i = 0; i < n; i++) {
		json_writer__begin_object(w);
		json_writer__put_strn(w, "comm", rows[i]->comm, sizeof(rows[i]->comm));
		json_writer__put_uint(w, "ended", rows[i]->ended);
		json_writer__put_uint(w, "slices", rows[i]->slices);
		json_writer__put_uint(w, "cpu_ns", rows[i]->cpu_ns);
		put_per_unit(w, "cpu_ns_per_unit", r, rows[i]->cpu_ns);
		json_writer__end_object(w);
	}
	json_writer__end_array(w);
	json_writer__put_uint(w, "other_names_ns", c->names_untabled_ns);
	json_writer__put_uint(w, "total_ns", total);
	put_per_unit(w, "total_ns_per_unit", r, total);
	json_writer__put_uint(w, "unseen_slices", c->unseen_slices);
	json_writer__put_uint(w, "procs_untabled", c->procs_untabled);
	json_writer__end_object(w);
}

/* write_attach - "attach": the traced run's kernel side, as attach mode's document has it */
static void write_attach(struct json_writer *w, const struct design_run *r)
{
	const struct attach_view view = { .order = ATTACH_ORDER_COUNT };
	struct attach_report report;

	attach_run__report(&r->run, &view, &report);
	json_writer__key(w, "attach");
	json_writer__begin_object(w);
	json_analysis__write(w, &report);
	json_writer__end_object(w);
}

/* write_traced_null - the members only a traced run has, null: --no-trace */
static void write_traced_null(struct json_writer *w)
{
	json_writer__put_null(w, "census");
	json_writer__put_null(w, "futex_waits");
	json_writer__put_null(w, "cpu");
	json_writer__put_null(w, "attach");
}

static void write_run(struct json_writer *w, const struct design_run *r)
{
	bool traced = r->traced.ran && r->run.analysis && r->census;

	json_writer__begin_object(w);
	json_writer__put_str(w, "mode", r->mode);
	json_writer__put_str(w, "command", r->command);
	json_writer__key(w, "argv");
	json_writer__begin_array(w);
	for (size_t i = 0; r->argv[i]; i++)
		json_writer__string(w, r->argv[i]);
	json_writer__end_array(w);
	json_common__write_meta(w, &r->meta);
	json_writer__put_bool(w, "interrupted", r->interrupted);
	write_side(w, "untraced", &r->untraced);
	write_side(w, "traced", &r->traced);
	json_writer__key(w, "handed_over");
	json_writer__begin_object(w);
	json_writer__put_uint(w, "count", r->units);
	json_writer__put_str(w, "unit", r->unit);
	json_writer__end_object(w);
	write_figures(w, r);
	write_documents(w, r);
	if (traced) {
		write_census(w, r);
		write_futex_waits(w, r);
		/* the lean engine records no switch of a thread that blocks */
		if (r->run.targets.lean)
			json_writer__put_null(w, "cpu");
		else
			write_cpu(w, r);
		write_attach(w, r);
	} else {
		write_traced_null(w);
	}
	json_writer__end_object(w);
}

int json_design__print(FILE *out, const char *workload, const struct design_run *const *runs, size_t n)
{
	struct json_writer w;

	json_writer__init(&w, out);
	json_writer__begin_object(&w);
	json_writer__put_str(&w, "schema", DESIGN_JSON_SCHEMA);
	json_writer__put_uint(&w, "schema_version", DESIGN_JSON_SCHEMA_VERSION);
	json_writer__put_str(&w, "kind", "design");
	json_writer__put_str(&w, "workload", workload);
	json_writer__key(&w, "runs");
	json_writer__begin_array(&w);
	for (size_t i = 0; i < n; i++)
		write_run(&w, runs[i]);
	json_writer__end_array(&w);
	json_writer__end_object(&w);
	/* the calls above are balanced, so a write error is the one failure left */
	return json_writer__finish(&w);
}
