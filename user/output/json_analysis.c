// SPDX-License-Identifier: GPL-2.0
/*
 * json_analysis.c - a traced program's analysis (struct attach_report) as
 * the JSON documents hold it: the members trace to outliers of attach
 * mode's document, which a design's document holds as its "attach" object
 * too, so that both are read with the same code (docs/json.md). The parts
 * every document shares (meta, distributions, labels, causes, tasks,
 * outliers' phases) are json_common.c's writers.
 *
 * As in every document, every key is always written: a value that does
 * not apply is null, and 0, "" and [] mean measured, and none.
 */
#include "json_analysis.h"
#include "json_cgroups.h"
#include "json_chains.h"
#include "json_common.h"
#include "json_stacks.h"
#include "json_writer.h"
#include "lean_adapt.h"
#include "mechanism.h"

static void write_run(struct json_writer *w, const struct attach_report *r)
{
	const struct attach_session_result *run = r->run;

	json_writer__key(w, "trace");
	json_writer__begin_object(w);
	json_writer__put_uint(w, "start_ns", run->trace_start_ns);
	json_writer__put_uint(w, "end_ns", run->trace_end_ns);
	json_writer__put_uint(w, "duration_ns",
			      run->trace_end_ns > run->trace_start_ns ? run->trace_end_ns - run->trace_start_ns : 0);
	json_writer__end_object(w);

	json_writer__key(w, "ended");
	json_writer__begin_object(w);
	json_common__write_interruption(w, run->interrupted, run->stop_signal);
	json_writer__put_bool(w, "timed_out", run->timed_out);
	json_writer__put_bool(w, "duration_reached", run->duration_reached);
	json_writer__put_bool(w, "command_exited", run->command_exited);
	json_writer__put_uint(w, "targets_exited", run->targets_exited);
	json_writer__end_object(w);
}

static void write_counters(struct json_writer *w, const struct attach_report *r)
{
	const struct attach_counters *c = r->counters;

	json_writer__key(w, "events");
	json_writer__begin_object(w);
	json_writer__put_uint(w, "recorded", c->events);
	json_writer__put_uint(w, "dropped", r->run->drops_total);
	json_common__write_dropped_by_type(w, &r->run->counters);
	json_writer__put_uint(w, "tracked_full", r->run->counters.tracked_full);
	/* when the drops were found, from the start of tracing: a burst, a stall, or all along */
	json_writer__put_uint_if(w, "dropped_found_from_ns", r->run->drops_first_ns >= r->run->trace_start_ns &&
				 r->run->drops_first_ns, r->run->drops_first_ns - r->run->trace_start_ns);
	json_writer__put_uint_if(w, "dropped_found_until_ns", r->run->drops_last_ns >= r->run->trace_start_ns &&
				 r->run->drops_last_ns, r->run->drops_last_ns - r->run->trace_start_ns);
	json_writer__put_uint(w, "missed_runs", r->run->missed_runs);
	json_writer__put_uint(w, "late", c->late_events);
	json_writer__put_uint(w, "evicted", c->evicted_events);
	json_writer__put_uint(w, "unpaired_wakers", c->unpaired_wakers);
	json_writer__put_uint(w, "stray_wakeups", c->stray_wakeups);
	json_writer__put_uint(w, "cpu_out_of_range", c->cpu_out_of_range);
	/* the lean engine: the wakes that wrote no record, found awake or without the task's state */
	json_writer__put_uint_if(w, "lean_woke_running", r->targets->lean, r->run->lean.woke_running);
	json_writer__put_uint_if(w, "lean_no_storage", r->targets->lean, r->run->lean.no_storage);
	json_writer__put_uint_if(w, "lean_wakeup_unpaired", r->targets->lean, r->run->lean.wakeup_unpaired);
	/* the lean engine's: slow wakeups explained from the flight records they brought, and not for want of memory */
	json_writer__put_uint_if(w, "lean_flight_explained", r->targets->lean, c->flight_explained);
	json_writer__put_uint_if(w, "lean_flight_lost", r->targets->lean, c->flight_lost);
	json_common__write_lean_flight(w, r->targets->lean, r->run->lean_flight_ns, r->targets->lean_flight_adaptive);
	json_writer__end_object(w);

	json_writer__key(w, "threads");
	json_writer__begin_object(w);
	json_writer__put_uint(w, "peak", c->threads_peak);
	json_writer__put_uint(w, "new", c->new_threads);
	json_writer__put_uint(w, "exited", c->exited_threads);
	json_writer__put_uint(w, "forgotten", c->forgotten_threads);
	json_writer__end_object(w);

	json_writer__key(w, "migrations");
	json_writer__begin_object(w);
	json_writer__put_uint_if(w, "all", !r->targets->lean, c->migrations);
	json_writer__put_uint(w, "inside_wakeups", r->agg->causes.migrations);
	json_writer__end_object(w);
	json_writer__put_uint(w, "explained_cut", c->explained_cut);
}

static void write_wakeups(struct json_writer *w, const struct attach_report *r)
{
	const struct attach_aggregate *g = r->agg;
	unsigned int cls;
	int f;

	json_writer__key(w, "wakeups");
	json_writer__begin_object(w);
	json_writer__put_uint(w, "total", g->wakeups);
	json_writer__put_uint_if(w, "tids_left_out", r->nr_tids, r->tids_left_out);
	/* --pid: the targets' own, apart from their descendants' */
	json_writer__put_uint_if(w, "of_targets", r->targets->nr_pids, r->target_wakeups);
	json_writer__key(w, "by_class");
	json_writer__begin_object(w);
	for (cls = 0; cls < WP_WAKER_CLASS_MAX; cls++)
		json_writer__put_uint(w, mechanism__waker_class_name(cls), g->by_class[cls]);
	json_writer__end_object(w);
	json_writer__put_uint(w, "softirq_raised_by_task", g->softirq_raised);
	json_writer__put_uint(w, "complete", g->complete);
	json_writer__put_uint(w, "not_in_table", g->wakeups - g->complete);
	/* a service's: summed in the kernel, in no table of pairs, futex words or tasks */
	json_writer__put_uint(w, "summed", g->summed);
	json_writer__put_uint(w, "summed_complete", g->summed_complete);
	json_writer__put_uint(w, "sums_refused", g->sums_refused);
	json_common__write_labels(w, g->by_label, g->missing_by_mark);
	json_writer__key(w, "complete_by_family");
	json_writer__begin_object(w);
	for (f = 0; f < NR_MECH_FAMILIES; f++)
		json_writer__put_uint(w, mechanism__family_name(f), g->by_family[f]);
	json_writer__end_object(w);
	json_writer__end_object(w);
}

/* write_phases - the distributions of the complete wakeups, and why each phase was absent where it was */
static void write_phases(struct json_writer *w, const struct attach_report *r)
{
	const struct attach_aggregate *g = r->agg;
	int k, why;

	json_writer__key(w, "stats");
	json_writer__begin_object(w);
	for (k = 0; k < NR_PHASES; k++)
		json_common__write_distribution(w, wakeup__phase_name(k), &g->phase[k], true);
	json_common__write_distribution(w, "wake_to_run", &g->wake_to_run, true);
	json_common__write_distribution(w, "notify_to_return", &g->notify_to_return, true);
	json_common__write_distribution(w, "idle_exit", &g->idle_exit, true);
	json_common__write_distribution(w, "total", &g->total, true);
	json_writer__end_object(w);

	json_writer__key(w, "absent");
	json_writer__begin_object(w);
	for (k = 0; k < NR_PHASES; k++) {
		json_writer__key(w, wakeup__phase_name(k));
		json_writer__begin_object(w);
		for (why = 0; why < NR_ATTACH_ABSENCES; why++)
			json_writer__put_uint(w, attach__absence_name(why), g->absent[k][why]);
		json_writer__end_object(w);
	}
	json_writer__end_object(w);

	json_writer__key(w, "sub_phases");
	json_writer__begin_object(w);
	/* a lean run sees idle CPUs with its flight recorder alone */
	json_writer__put_uint_if(w, "target_idle", !r->targets->lean || lean_adapt__recorder_on(r->run->lean_flight_ns),
				 g->target_idle);
	json_writer__put_uint(w, "remote_wakeups", g->remote_wakeups);
	json_writer__end_object(w);
}

/*
 * write_waker - "waker": its class, name and id; the thread and process
 * where a thread woke it (an interrupt's tid is only the task it came in on)
 */
static void write_waker(struct json_writer *w, uint8_t cls, bool raised, const char *name, uint32_t id,
			uint32_t tid, uint32_t tgid)
{
	struct waker_info wi = { .cls = cls, .raised = raised };
	bool task = mechanism__waker_has_task(&wi);

	json_writer__key(w, "waker");
	json_writer__begin_object(w);
	json_writer__put_str(w, "class", mechanism__waker_class_name(cls));
	json_writer__put_str(w, "name", name);
	json_writer__put_uint(w, "id", id);
	json_writer__put_uint_if(w, "tid", task, tid);
	json_writer__put_uint_if(w, "tgid", task && tgid, tgid);
	json_writer__put_bool(w, "raised_by_task", raised);
	json_writer__end_object(w);
}

static void write_wakee(struct json_writer *w, uint32_t tid, uint32_t tgid, const char *comm, size_t comm_len)
{
	json_writer__key(w, "wakee");
	json_writer__begin_object(w);
	json_writer__put_uint(w, "tid", tid);
	/* a wakee never seen switching in has no process known */
	json_writer__put_uint_if(w, "tgid", tgid, tgid);
	json_writer__put_strn(w, "comm", comm, comm_len);
	json_writer__end_object(w);
}

static void write_pairs(struct json_writer *w, const struct attach_report *r, const struct attach_aggregate *g,
			enum attach_order order)
{
	const struct attach_pair *rows[ATTACH_AGG_MAX_PAIRS];
	size_t n = attach_aggregate__pairs(g, order, rows, ATTACH_AGG_MAX_PAIRS), i;

	json_writer__key(w, "pairs");
	json_writer__begin_array(w);
	for (i = 0; i < n; i++) {
		const struct attach_pair *p = rows[i];

		json_writer__begin_object(w);
		write_waker(w, p->waker_class, p->waker_raised, p->waker, p->waker_id, p->waker_tid, p->waker_tgid);
		write_wakee(w, p->wakee_tid, p->wakee_tgid, p->wakee_comm, sizeof(p->wakee_comm));
		json_writer__put_str(w, "mechanism", p->mechanism);
		json_writer__put_str(w, "family", mechanism__family_name(p->family));
		/* the Space-Saving count, and how much of it can be other pairs': the distributions are its own */
		json_writer__put_uint(w, "count", p->count);
		json_writer__put_uint(w, "error", p->error);
		json_common__write_distribution(w, "wake_to_run", &p->wake_to_run, true);
		json_common__write_distribution(w, "notify_to_return", &p->notify_to_return, true);
		json_stacks__pair(w, r, p);
		json_chains__pair(w, r, p);
		json_writer__end_object(w);
	}
	json_writer__end_array(w);
	/* the name it had when the pairs past the table were its wakeups: still those in no pair */
	json_writer__put_uint(w, "pairs_untabled", g->pairs_evicted);
	json_writer__put_uint(w, "pairs_replaced", g->pairs_replaced);
	json_writer__put_uint(w, "pairs_capacity", ATTACH_AGG_MAX_PAIRS);
}

/* put_ids - @key: the array of the @n thread or process ids @ids */
static void put_ids(struct json_writer *w, const char *key, const uint32_t *ids, uint32_t n)
{
	json_writer__key(w, key);
	json_writer__begin_array(w);
	for (uint32_t i = 0; i < n; i++)
		json_writer__uint(w, ids[i]);
	json_writer__end_array(w);
}

static void write_futexes(struct json_writer *w, const struct attach_report *r, const struct attach_aggregate *g,
			  enum attach_order order)
{
	const struct attach_futex *rows[ATTACH_AGG_MAX_FUTEXES];
	size_t n = attach_aggregate__futexes(g, order, rows, ATTACH_AGG_MAX_FUTEXES), i;

	json_writer__key(w, "futexes");
	json_writer__begin_array(w);
	for (i = 0; i < n; i++) {
		const struct attach_futex *f = rows[i];

		json_writer__begin_object(w);
		json_writer__put_uint(w, "tgid", f->tgid);
		json_writer__put_uint(w, "addr", f->addr);
		json_writer__put_uint(w, "count", f->count);
		json_writer__put_uint(w, "error", f->error);
		json_writer__put_uint(w, "waits", f->waits);
		json_writer__put_uint(w, "wakes", f->wakes);
		json_writer__put_uint(w, "waits_timed", f->waits_timed);
		json_writer__put_uint(w, "wait_total_ns", f->wait_total_ns);
		json_writer__put_uint_if(w, "wait_max_ns", f->waits_timed, f->wait_max_ns);
		put_ids(w, "tids", f->tids, f->nr_tids);
		json_writer__put_uint(w, "tids_untabled", f->tids_untabled);
		put_ids(w, "tgids", f->tgids, f->nr_tgids);
		json_writer__put_bool(w, "tgids_untabled", f->tgids_untabled);
		json_stacks__futex(w, r, f->tgid, f->addr);
		/* a shared word: the file and offset it is keyed by, whatever its address in each process */
		json_writer__key(w, "shared");
		if (f->key.shared) {
			json_writer__begin_object(w);
			json_writer__put_uint(w, "dev", f->key.dev);
			json_writer__put_uint(w, "inode", f->key.ino);
			json_writer__put_uint(w, "offset", f->key.offset);
			json_writer__end_object(w);
		} else {
			json_writer__null(w);
		}
		json_writer__end_object(w);
	}
	json_writer__end_array(w);
	json_writer__put_uint(w, "futexes_untabled", g->futexes_evicted);
	json_writer__put_uint(w, "futexes_replaced", g->futexes_replaced);
	json_writer__put_uint(w, "futexes_capacity", ATTACH_AGG_MAX_FUTEXES);
}

/* write_outlier - the members the workload's outliers have, then who woke whom and why phases were absent */
static void write_outlier(struct json_writer *w, const struct attach_report *r, const struct attach_result *o,
			  uint32_t rank)
{
	char waker[MECHANISM_NAME_LEN];
	int k;

	json_writer__begin_object(w);
	const struct attach_aggregate *g = r->agg;

	json_common__write_outlier_members(w, g->phase, &g->total, &o->sr, rank);
	json_writer__put_uint(w, "t_ns", o->sr.t_notify_ns);
	mechanism__waker_name(&o->waker, waker, sizeof(waker));
	write_waker(w, o->waker.cls, o->waker.raised, waker, mechanism__waker_id(&o->waker), o->waker.tid,
		    o->waker.tgid);
	write_wakee(w, o->sr.sample.wakee_tid, o->wakee_tgid, o->wakee_comm, sizeof(o->wakee_comm));
	json_writer__put_str(w, "mechanism", o->mechanism);
	json_writer__put_str(w, "family", mechanism__family_name(o->family));
	json_writer__key(w, "absent");
	json_writer__begin_object(w);
	for (k = 0; k < NR_PHASES; k++)
		json_writer__put_str(w, wakeup__phase_name(k), attach__absence_name(o->absent[k]));
	json_writer__end_object(w);
	json_chains__wakeup(w, r, o);
	json_writer__end_object(w);
}

static void write_outliers(struct json_writer *w, const struct attach_report *r)
{
	const struct attach_aggregate *g = r->agg;
	uint32_t i;

	json_writer__key(w, "outliers");
	json_writer__begin_object(w);
	json_writer__put_uint(w, "wanted", g->outliers_wanted);
	json_writer__put_uint(w, "threshold_ns", g->outlier_threshold_ns);
	json_writer__put_uint(w, "candidates", g->outlier_candidates);
	json_writer__key(w, "samples");
	json_writer__begin_array(w);
	for (i = 0; i < g->nr_outliers; i++)
		write_outlier(w, r, &g->outliers[i], i + 1);
	json_writer__end_array(w);
	json_writer__end_object(w);
}

void json_analysis__write(struct json_writer *w, const struct attach_report *r)
{
	const struct attach_aggregate *g = r->agg;
	bool causes;

	write_run(w, r);
	write_counters(w, r);
	json_common__write_host(w, &r->run->steal, g->causes.cause_ns[CAUSE_HOST], true);
	json_common__write_cost(w, &r->run->cost, r->counters->events, r->run->drops_total, g->wakeups,
				r->run->trace_end_ns > r->run->trace_start_ns ? r->run->trace_end_ns - r->run->trace_start_ns : 0,
				true);
	write_wakeups(w, r);
	write_phases(w, r);
	write_pairs(w, r, g, r->order);
	json_cgroups__write(w, r->cgroups);
	write_futexes(w, r, g, r->order);
	json_stacks__run(w, r);
	/* a lean run explains its slow wakeups alone, and none without the flight recorder */
	causes = !r->targets->lean || g->causes.wakeups;
	json_common__write_causes(w, &g->causes, causes);
	json_common__write_tasks(w, &g->causes, causes);
	write_outliers(w, r);
	json_chains__run(w, r);
}
