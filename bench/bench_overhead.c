// SPDX-License-Identifier: GPL-2.0
/*
 * bench_overhead - what tracing costs the workload it measures.
 *
 * Runs the eventfd workload paced and back to back, each round on four
 * sides next to each other, so that the drifts of a shared machine hit them
 * alike:
 *
 *   untraced  no BPF at all (--no-trace);
 *   again     the same once more: what the measure gives when nothing
 *             changes, i.e. how small a difference this machine can show;
 *   nop       a program that does nothing on every tracepoint wakeprobe
 *             uses: what the kernel's dispatch alone costs here;
 *   full      wakeprobe --engine full;
 *   lean      wakeprobe --engine lean.
 *
 * The order of the sides rotates from round to round. Each side is compared
 * with the untraced run of its own round, and the verdicts rest on the
 * medians of those per-round comparisons. The host's steal time during each
 * round is shown, since on a shared VM it moves the figures more than
 * anything wakeprobe does. Then one run each, paced and back to back, whose
 * programs (wakeprobe's, then the do-nothing ones) go off and on every
 * 50 ms (a flood's every 100 ms) compares stretches of a single run
 * (interleave() below). Last, timed runs of the full engine, the floor and
 * the lean engine in turn, the kernel's BPF run-time statistics on, say what
 * the programs themselves cost per wakeup, tracepoint by tracepoint, and
 * where the full engine's time goes beyond the floor's (cost() below).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collector.h"
#include "parse.h"
#include "program_set.h"
#include "session.h"
#include "floor.skel.h"
#include "nop.skel.h"
#include "wakeprobe.skel.h"

#define MAX_ROUNDS	51
#define MAX_NOPS	64
#define PACED_US	1000
#define MAX_VALUES	1100	/* rounds, or the stretches of an interleaved run */

/*
 * the sides of a round; FLOOR and FULL_FLOOR only run interleaved, the
 * latter the full engine in the stretches of one run and the floor between
 */
enum side { UNTRACED, AGAIN, NOP, TRACED, LEAN, SIDES, FLOOR = SIDES, FULL_FLOOR };

static const char *const side_name[] = { "untraced", "again", "nop", "full", "lean", "floor", "full:floor" };

/* what one round measured, per side */
struct round {
	double value[SIDES];	/* p50 us for paced runs, wakeups/s for floods */
	double p99_us[SIDES];
	double steal_pct;	/* share of CPU time the host took away during the round */
};

/* the do-nothing programs of the nop side, one per tracepoint of wakeprobe's */
struct nop_set {
	struct nop_bpf *skel[MAX_NOPS];
	int n;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* quantile - of @n values (at most MAX_VALUES), linear between order statistics */
static double quantile(const double *v, int n, double q)
{
	static double sorted[MAX_VALUES];
	double pos;
	int lo;

	memcpy(sorted, v, n * sizeof(*v));
	qsort(sorted, n, sizeof(*v), cmp_double);
	pos = q * (n - 1);
	lo = (int)pos;
	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + (pos - lo) * (sorted[lo + 1] - sorted[lo]);
}

/* cpu_ticks - all CPU time and the stolen part, from /proc/stat */
static void cpu_ticks(unsigned long long *total, unsigned long long *steal)
{
	unsigned long long v[8] = {};
	FILE *f = fopen("/proc/stat", "r");
	int i;

	*total = *steal = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
		   &v[5], &v[6], &v[7]) == 8) {
		for (i = 0; i < 8; i++)
			*total += v[i];
		*steal = v[7];
	}
	fclose(f);
}

static void nops_unload(struct nop_set *set)
{
	while (set->n > 0)
		nop_bpf__destroy(set->skel[--set->n]);
}

/*
 * nops_load - a do-nothing program for each tracepoint that wakeprobe's own
 * object attaches to in workload mode, read from that object so that the
 * two lists cannot part. Loaded once; each nop run only attaches and
 * detaches them.
 */
static int nops_load(struct nop_set *set)
{
	struct wakeprobe_bpf *wp = wakeprobe_bpf__open();
	struct bpf_program *prog;
	const char *sec;
	struct nop_bpf *s;
	int err = 0;

	if (!wp)
		return -errno;
	program_set__mode(wp, false, false);
	bpf_object__for_each_program(prog, wp->obj) {
		if (!bpf_program__autoload(prog))
			continue;
		sec = bpf_program__section_name(prog);
		if (strncmp(sec, "tp_btf/", 7) || set->n == MAX_NOPS) {
			fprintf(stderr, "bench: no nop for %s\n", sec);
			err = -EINVAL;
			break;
		}
		s = nop_bpf__open();
		if (!s) {
			err = -errno;
			break;
		}
		set->skel[set->n++] = s;
		err = bpf_program__set_attach_target(s->progs.nop, 0, sec + 7);
		if (!err)
			err = nop_bpf__load(s);
		if (err) {
			fprintf(stderr, "bench: cannot load a nop for %s: %s\n", sec + 7, strerror(-err));
			break;
		}
	}
	wakeprobe_bpf__destroy(wp);
	if (err)
		nops_unload(set);
	return err;
}

static void nops_detach(struct nop_set *set)
{
	int i;

	for (i = 0; i < set->n; i++)
		nop_bpf__detach(set->skel[i]);
}

static int nops_attach(struct nop_set *set)
{
	int i, err;

	for (i = 0; i < set->n; i++) {
		err = nop_bpf__attach(set->skel[i]);
		if (err) {
			fprintf(stderr, "bench: cannot attach a nop: %s\n", strerror(-err));
			nops_detach(set);
			return err;
		}
	}
	return 0;
}

static struct nop_set nops;

/*
 * The floor side: bench/floor.bpf.c, the least a tracer of wakeprobe's design
 * does, following the workload's tgid as wakeprobe does. Its ring is
 * drained (and its records counted) at every switch of an interleaved run.
 */
struct floor {
	struct floor_bpf *skel;
	struct ring_buffer *rb;
	uint64_t records;
	__u32 tgid;		/* the workload it follows, 0: none yet */
};

static struct floor floor_side;

static int floor_record(void *ctx, void *data, size_t len)
{
	(void)data;
	(void)len;
	((struct floor *)ctx)->records++;
	return 0;
}

static void floor_unload(struct floor *f)
{
	ring_buffer__free(f->rb);
	floor_bpf__destroy(f->skel);
	*f = (struct floor){};
}

/* floor_load - the floor's programs, filtering the syscalls that bound @wl's phases */
static int floor_load(struct floor *f, const struct workload_desc *wl)
{
	int err;

	f->skel = floor_bpf__open_and_load();
	if (!f->skel) {
		err = -errno;
		fprintf(stderr, "bench: cannot load bench/floor.bpf.c: %s\n", strerror(-err));
		return err;
	}
	program_set__want_syscalls(f->skel->bss->floor_syscalls, &wl->notify_syscalls, WP_SYSCALL_ENTER);
	program_set__want_syscalls(f->skel->bss->floor_syscalls, &wl->wait_syscalls, WP_SYSCALL_EXIT);
	f->rb = ring_buffer__new(bpf_map__fd(f->skel->maps.floor_events), floor_record, f, NULL);
	if (!f->rb) {
		err = -errno;
		fprintf(stderr, "bench: cannot map the floor's ring buffer: %s\n", strerror(-err));
		floor_unload(f);
		return err;
	}
	return 0;
}

static int floor_toggle(bool on, void *ctx)
{
	struct floor *f = ctx;

	ring_buffer__consume(f->rb);
	if (on)
		return floor_bpf__attach(f->skel);
	floor_bpf__detach(f->skel);
	return 0;
}

/* floor_begin - a run of the floor: counts from zero, programs on unless @off */
static int floor_begin(struct floor *f, bool off)
{
	int err;

	f->records = 0;
	f->skel->bss->floor_drops = 0;
	if (off)
		return 0;
	err = floor_bpf__attach(f->skel);
	if (err)
		fprintf(stderr, "bench: cannot attach bench/floor.bpf.c: %s\n", strerror(-err));
	return err;
}

/* floor_end - programs off, every record counted, the workload no longer followed */
static void floor_end(struct floor *f)
{
	floor_bpf__detach(f->skel);
	ring_buffer__consume(f->rb);
	if (f->tgid)
		bpf_map__delete_elem(f->skel->maps.floor_tgids, &f->tgid, sizeof(f->tgid), 0);
	f->tgid = 0;
}

static int floor_track(pid_t pid, void *ctx)
{
	struct floor *f = ctx;
	__u8 one = 1;

	f->tgid = pid;
	return bpf_map__update_elem(f->skel->maps.floor_tgids, &f->tgid, sizeof(f->tgid), &one, sizeof(one),
				    BPF_ANY);
}

/* eventfd_run - every run here: eventfd, waker on CPU 0, wakee on CPU 1 */
static struct run_config eventfd_run(uint64_t samples, uint64_t interval_us, enum side side)
{
	return (struct run_config){
		.workload = catalog__find("eventfd"),
		.samples = samples,
		.interval_us = interval_us,
		.waker_cpu = 0,
		.wakee_cpu = 1,
		.traced = side == TRACED || side == LEAN || side == FULL_FLOOR,
		.lean = side == LEAN,
		.ringbuf_bytes = 8 << 20,
	};
}

/* run - one run of @side; its figure and p99 into @value and @p99_us */
static int run(enum side side, bool stats, uint64_t samples, uint64_t interval_us, struct run_result *r,
	       double *value, double *p99_us)
{
	struct run_config cfg = eventfd_run(samples, interval_us, side);
	struct session_bench bench = { .bpf_run_stats = stats };
	struct session_opts o = { .bench = &bench };
	char msg[256];
	int err;

	if (side == NOP && nops_attach(&nops))
		return -1;
	err = session__run(&cfg, &o, r, msg, sizeof(msg));
	if (side == NOP)
		nops_detach(&nops);
	if (err) {
		fprintf(stderr, "bench: %s\n", msg);
		return -1;
	}
	if (r->workload_failed || r->agg.samples != samples) {
		fprintf(stderr, "bench: run incomplete: %s\n", r->workload_error);
		return -1;
	}
	if (cfg.traced && (r->drops_total || r->missed_runs)) {
		fprintf(stderr, "bench: %" PRIu64 " events dropped, %" PRIu64 " runs skipped\n", r->drops_total,
			r->missed_runs);
		return -1;
	}
	if (interval_us)
		*value = histogram__percentile(&r->agg.all_total, 50) / 1000.0;
	else
		*value = samples / ((r->agg.last_woken_ns - r->agg.first_notify_ns) / 1e9);
	*p99_us = histogram__percentile(&r->agg.all_total, 99) / 1000.0;
	return 0;
}

/* run_round - the five sides, starting one further along each round */
static int run_round(int i, uint64_t samples, uint64_t interval_us, struct run_result *r, struct round *rd)
{
	unsigned long long total0, steal0, total1, steal1;
	enum side side;
	int k;

	cpu_ticks(&total0, &steal0);
	for (k = 0; k < SIDES; k++) {
		side = (i + k) % SIDES;
		if (run(side, false, samples, interval_us, r, &rd->value[side], &rd->p99_us[side]))
			return -1;
	}
	cpu_ticks(&total1, &steal1);
	rd->steal_pct = total1 > total0 ? 100.0 * (steal1 - steal0) / (total1 - total0) : 0;
	return 0;
}

/* run_rounds - @n rounds, a line each: @unit, then each side's figure in @fmt */
static int run_rounds(const char *what, const char *unit, const char *fmt, int n, uint64_t samples,
		      uint64_t interval_us, struct run_result *r, struct round rd[])
{
	enum side s;
	int i;

	for (i = 0; i < n; i++) {
		if (run_round(i, samples, interval_us, r, &rd[i]))
			return -1;
		printf("%s %2d: %s", what, i + 1, unit);
		for (s = UNTRACED; s < SIDES; s++) {
			printf("  %s ", side_name[s]);
			printf(fmt, rd[i].value[s]);
		}
		printf("   steal %4.1f %%\n", rd[i].steal_pct);
		fflush(stdout);
	}
	return 0;
}

/* change - side @s against the untraced run of each round: a difference, or a ratio */
static void change(const struct round *rd, int n, enum side s, bool ratio, double out[MAX_ROUNDS])
{
	int i;

	for (i = 0; i < n; i++)
		out[i] = ratio ? rd[i].value[s] / rd[i].value[UNTRACED] : rd[i].value[s] - rd[i].value[UNTRACED];
}

/* print_changes - median and quartiles of each side's per-round change */
static void print_changes(const char *what, const struct round *rd, int n, bool ratio)
{
	const char *fmt = ratio ? "   %s %.3f (%.3f .. %.3f)" : "   %s %+.2f (%+.2f .. %+.2f)";
	double v[MAX_ROUNDS];
	enum side s;

	printf("%-15s", what);
	for (s = AGAIN; s < SIDES; s++) {
		change(rd, n, s, ratio, v);
		printf(fmt, side_name[s], quantile(v, n, 0.5), quantile(v, n, 0.25), quantile(v, n, 0.75));
	}
	printf("\n");
}

/* lower - a throughput ratio in words: "12.3% lower" or "4.5% higher" (static buffer, two in turn) */
static const char *lower(double ratio)
{
	static char buf[2][24];
	static int k;

	k = !k;
	snprintf(buf[k], sizeof(buf[k]), "%.1f%% %s", 100.0 * (ratio <= 1 ? 1 - ratio : ratio - 1),
		 ratio <= 1 ? "lower" : "higher");
	return buf[k];
}

static double side_median(const struct round *rd, int n, enum side s, bool p99)
{
	double v[MAX_ROUNDS];
	int i;

	for (i = 0; i < n; i++)
		v[i] = p99 ? rd[i].p99_us[s] : rd[i].value[s];
	return quantile(v, n, 0.5);
}

/* print_medians - a row of the table of medians: each side's in @fmt */
static void print_medians(const char *what, const char *fmt, const struct round *rd, int n, bool p99)
{
	enum side s;

	printf("\n%-24s", what);
	for (s = UNTRACED; s < SIDES; s++)
		printf(fmt, side_median(rd, n, s, p99));
}

static double side_change(const struct round *rd, int n, enum side s, bool ratio)
{
	double v[MAX_ROUNDS];

	change(rd, n, s, ratio, v);
	return quantile(v, n, 0.5);
}

/*
 * Interleaved: one traced run whose programs (wakeprobe's, or the
 * do-nothing ones) are taken off their tracepoints and put back every
 * TOGGLE_MS (a flood, which runs a few seconds, every FLOOD_TOGGLE_MS, for
 * enough stretches to give an interval), so that traced and untraced
 * stretches alternate within one process, one pair of threads and a few
 * tens of milliseconds: the drifts that separate two runs (a second apart,
 * with new threads and a new sample ring) fall away. Each traced stretch is
 * compared with the mean of the untraced stretches on either side of it;
 * each untraced stretch with the untraced ones two stretches away gives
 * what the measure shows when nothing changes.
 */
#define TOGGLE_MS	50
#define FLOOD_TOGGLE_MS	100
#define SETTLE_NS	(5ull * 1000000)	/* samples this close to a switch are left out */
#define MIN_STRETCH	20			/* fewer samples: the stretch is left out */
#define MAX_STRETCHES	(2 * SESSION_MAX_TOGGLES + 1)
_Static_assert(MAX_STRETCHES <= MAX_VALUES, "quantile() sorts at most MAX_VALUES");

struct kept_samples {
	uint64_t (*t)[2];	/* notify, woken */
	uint64_t n, cap;
	bool no_memory;
};

static void keep_sample(const struct sample_result *r, void *ctx)
{
	struct kept_samples *k = ctx;

	if (k->n == k->cap) {
		uint64_t cap = k->cap ? 2 * k->cap : 65536;
		void *t = realloc(k->t, cap * sizeof(*k->t));

		if (!t) {
			k->no_memory = true;
			return;
		}
		k->t = t;
		k->cap = cap;
	}
	k->t[k->n][0] = r->t_notify_ns;
	k->t[k->n][1] = r->t_woken_ns;
	k->n++;
}

struct stretch {
	uint64_t from_ns, to_ns;
	bool traced;
	bool valid;		/* held MIN_STRETCH samples */
	double value;		/* p50 us when paced, wakeups/s when back to back */
};

/*
 * stretches - the traced and untraced stretches of @r, switched as @b says,
 * in time order, each inside its settle margins
 */
static int stretches(const struct run_result *r, const struct session_bench *b,
		     struct stretch out[MAX_STRETCHES])
{
	uint64_t on = r->trace_start_ns;
	uint32_t i;
	int n = 0;

	for (i = 0; i < b->nr_toggles; i++) {
		const struct trace_toggle *t = &b->toggles[i];

		out[n++] = (struct stretch){ .from_ns = on, .to_ns = t->detach_ns, .traced = true };
		out[n++] = (struct stretch){ .from_ns = t->off_ns, .to_ns = t->on_ns ? t->attach_ns : r->trace_end_ns };
		on = t->on_ns;
		if (!on)
			break;
	}
	if (on)
		out[n++] = (struct stretch){ .from_ns = on, .to_ns = r->trace_end_ns, .traced = true };
	for (i = 0; i < (uint32_t)n; i++) {
		out[i].from_ns += SETTLE_NS;
		out[i].to_ns = out[i].to_ns > out[i].from_ns + SETTLE_NS ? out[i].to_ns - SETTLE_NS : out[i].from_ns;
	}
	return n;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * stretch_value - the p50 (paced) or the throughput (back to back) of the
 * samples inside @st; @lat has room for all of them. The samples are in
 * sequence order, so in notify order: the stretch's first is searched for.
 */
static void stretch_value(struct stretch *st, const struct kept_samples *k, uint64_t *lat, bool paced)
{
	uint64_t i, lo = 0, hi = k->n, n = 0, first = 0, last = 0;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (k->t[mid][0] < st->from_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < k->n && k->t[i][1] <= st->to_ns; i++) {
		if (!n)
			first = k->t[i][0];
		last = k->t[i][1];
		lat[n++] = k->t[i][1] - k->t[i][0];
	}
	if (n < MIN_STRETCH || last <= first)
		return;
	st->valid = true;
	if (paced) {
		qsort(lat, n, sizeof(*lat), cmp_u64);
		st->value = (n % 2 ? lat[n / 2] : (lat[n / 2 - 1] + lat[n / 2]) / 2.0) / 1000.0;
	} else {
		st->value = n / ((last - first) / 1e9);
	}
}

/*
 * against_neighbours - each stretch of kind @traced against the mean of
 * the untraced stretches @gap away on both sides: a difference, or a ratio
 */
static int against_neighbours(const struct stretch *st, int n, bool traced, int gap, bool ratio,
			      double out[MAX_STRETCHES])
{
	int i, m = 0;

	for (i = gap; i + gap < n; i++) {
		const struct stretch *a = &st[i - gap], *b = &st[i + gap];
		double base;

		if (st[i].traced != traced || !st[i].valid || a->traced || b->traced || !a->valid || !b->valid)
			continue;
		base = (a->value + b->value) / 2;
		out[m++] = ratio ? st[i].value / base : st[i].value - base;
	}
	return m;
}

/* the interleaved runs, in order: wakeprobe, then what it is measured against */
enum { IV_TRACED, IV_LEAN, IV_NOP, IV_FLOOR, IV_FULL_FLOOR, IV_SIDES };
static const enum side iv_side[IV_SIDES] = { TRACED, LEAN, NOP, FLOOR, FULL_FLOOR };

/* an interleaved run's comparisons: its stretches with programs on, and the untraced against themselves */
struct interleaved {
	double on, on_lo, on_hi;	/* median and quartiles */
	double again, again_lo, again_hi;
	int pairs, again_pairs;
	double records_per_wakeup;	/* the floor's, per wakeup notified while it was on */
};

/* quantiles - median and quartiles of @n values (n >= 1) */
static void quantiles(const double *v, int n, double *med, double *lo, double *hi)
{
	*med = quantile(v, n, 0.5);
	*lo = quantile(v, n, 0.25);
	*hi = quantile(v, n, 0.75);
}

/* traced_samples - how many of @k's samples were notified while the programs were on, as @b switched them */
static uint64_t traced_samples(const struct session_bench *b, const struct kept_samples *k)
{
	uint64_t i, n = 0;
	uint32_t t = 0;

	for (i = 0; i < k->n; i++) {
		uint64_t ts = k->t[i][0];

		/* pass the stretches off that ended before it */
		while (t < b->nr_toggles && b->toggles[t].on_ns && b->toggles[t].on_ns <= ts)
			t++;
		if (t == b->nr_toggles || ts < b->toggles[t].detach_ns)
			n++;
	}
	return n;
}

/* nops_toggle - what an interleaved nop run switches: the do-nothing programs */
static int nops_toggle(bool on, void *ctx)
{
	struct nop_set *set = ctx;

	if (on)
		return nops_attach(set);
	nops_detach(set);
	return 0;
}

/*
 * interleave - one toggling run of @samples wakeups; its comparisons into
 * @iv. @side TRACED or LEAN switches wakeprobe's programs, NOP the
 * do-nothing ones in an otherwise untraced run, FLOOR the floor tracer's,
 * FULL_FLOOR wakeprobe's with the floor tracer's on in the stretches between.
 */
static int interleave(enum side side, uint64_t samples, uint64_t interval_us, struct run_result *r,
		      struct interleaved *iv)
{
	static struct stretch st[MAX_STRETCHES];
	static double v[MAX_STRETCHES];
	static struct session_bench bench;
	struct run_config cfg = eventfd_run(samples, interval_us, side);
	struct session_opts o = { .bench = &bench };
	struct kept_samples k = {};
	uint64_t *lat = NULL;
	bool ratio = !interval_us, run_failed;
	char msg[256];
	int i, n, err = -1;

	bench = (struct session_bench){ .toggle_trace_ms = interval_us ? TOGGLE_MS : FLOOD_TOGGLE_MS };
	o.analysis.on_sample = keep_sample;
	o.analysis.on_sample_ctx = &k;
	if (side == NOP) {
		bench.toggle = nops_toggle;
		bench.toggle_ctx = &nops;
		if (nops_attach(&nops))
			goto out;
	} else if (side == FLOOR || side == FULL_FLOOR) {
		if (side == FLOOR) {
			bench.toggle = floor_toggle;
			bench.toggle_ctx = &floor_side;
		} else {
			bench.between = floor_toggle;
			bench.between_ctx = &floor_side;
		}
		bench.on_start = floor_track;
		bench.on_start_ctx = &floor_side;
		if (floor_begin(&floor_side, side == FULL_FLOOR))
			goto out;
	}
	run_failed = session__run(&cfg, &o, r, msg, sizeof(msg)) != 0;
	if (side == NOP)
		nops_detach(&nops);
	if (side == FLOOR || side == FULL_FLOOR)
		floor_end(&floor_side);
	if (run_failed) {
		fprintf(stderr, "bench: %s\n", msg);
		goto out;
	}
	if ((side == FLOOR || side == FULL_FLOOR) && (floor_side.skel->bss->floor_drops || !floor_side.records)) {
		fprintf(stderr, "bench: the floor tracer %s\n", floor_side.records ?
			"dropped records: its ring (bench/floor.bpf.c) is too small for this run" :
			"recorded nothing: it did not follow the workload");
		goto out;
	}
	if (r->workload_failed || k.no_memory || k.n != samples) {
		fprintf(stderr, "bench: interleaved run incomplete: %s\n",
			k.no_memory ? "out of memory" : r->workload_error);
		goto out;
	}
	if (r->drops_total || r->missed_runs) {
		fprintf(stderr, "bench: %" PRIu64 " events dropped, %" PRIu64 " runs skipped\n", r->drops_total,
			r->missed_runs);
		goto out;
	}
	if (side == FLOOR) {
		uint64_t on = traced_samples(&bench, &k);

		iv->records_per_wakeup = on ? (double)floor_side.records / on : 0;
	}
	lat = malloc(k.n * sizeof(*lat));
	if (!lat) {
		fprintf(stderr, "bench: out of memory\n");
		goto out;
	}
	n = stretches(r, &bench, st);
	for (i = 0; i < n; i++)
		stretch_value(&st[i], &k, lat, !ratio);
	iv->pairs = against_neighbours(st, n, true, 1, ratio, v);
	if (iv->pairs)
		quantiles(v, iv->pairs, &iv->on, &iv->on_lo, &iv->on_hi);
	iv->again_pairs = against_neighbours(st, n, false, 2, ratio, v);
	if (iv->again_pairs)
		quantiles(v, iv->again_pairs, &iv->again, &iv->again_lo, &iv->again_hi);
	if (!iv->pairs || !iv->again_pairs) {
		fprintf(stderr, "bench: the interleaved %s run is too short to compare: %d stretches of %d ms; "
			"give it more rounds or samples (BENCH_ARGS)\n", ratio ? "back-to-back" : "paced", n,
			(int)bench.toggle_trace_ms);
		goto out;
	}
	err = 0;
out:
	free(lat);
	free(k.t);
	return err;
}

/*
 * notch - half the width of a 95% interval for the median of the traced
 * comparisons: 1.58 IQR / sqrt(n), the rule of a box plot's notches
 * (McGill, Tukey and Larsen, 1978), widened for what neighbouring
 * comparisons share. Two traced stretches in a row are each compared with
 * the untraced stretch between them, which (the stretches alike in spread)
 * correlates their comparisons by 1/6: n of them are worth 3n/4
 * independent ones.
 */
static double notch(const struct interleaved *iv)
{
	return 1.58 * (iv->on_hi - iv->on_lo) / sqrt(0.75 * iv->pairs);
}

/*
 * verdict - on an aim, from a 95% interval: met when all of it meets the
 * aim, not met when none of it does. An interval wholly on the side where
 * tracing would have made the workload faster says the machine moved under
 * the measure (a host's burst of steal, say), not that tracing helped.
 */
static const char *verdict(bool faster, bool met, bool not_met)
{
	if (faster)
		return "cannot tell: the traced stretches came out faster, the machine moved under the measure";
	return met ? "met" : not_met ? "NOT met" : "cannot tell";
}

#define MIN_PAIRS	8	/* fewer comparisons give no interval: quartiles of a handful say little */

/*
 * print_target - @iv's median against the stretches between with its 95%
 * interval (or why there is none), and with @aim (NAN: none) the verdict on
 * it: a flood ratio of at least @aim, or a paced difference of at most @aim
 * us. Against untraced stretches an interval wholly on the faster side says
 * the machine moved; against another tracer (@two_tracers: the full engine
 * against the floor, FULL_FLOOR) either side can be the faster one.
 */
static void print_target(const char *what, const struct interleaved *iv, bool ratio, double aim, bool two_tracers)
{
	double lo = iv->on - notch(iv), hi = iv->on + notch(iv);
	bool enough = iv->pairs >= MIN_PAIRS;

	printf("               %-20s ", what);
	printf(ratio ? "%.3f" : "%+.2f us", iv->on);
	if (enough)
		printf(ratio ? ", 95%% interval %.3f .. %.3f" : ", 95%% interval %+.2f .. %+.2f", lo, hi);
	else
		printf(", %d comparisons: too few for an interval", iv->pairs);
	if (!isnan(aim)) {
		printf(ratio ? " (aim >= %.3f): " : " (aim <= %+.2f us): ", aim);
		if (!enough)
			printf("cannot tell");
		else if (ratio)
			printf("%s", verdict(!two_tracers && lo > 1.0, lo >= aim, hi < aim));
		else
			printf("%s", verdict(!two_tracers && hi < 0, hi <= aim, lo > aim));
	}
	printf("\n");
}

static void print_interleaved(const char *what, enum side side, const struct interleaved *iv, bool ratio)
{
	const char *fmt = ratio ? "%s %.3f (%.3f .. %.3f), %d stretches" : "%s %+.2f (%+.2f .. %+.2f), %d stretches";

	printf("%-15s   ", what);
	printf(fmt, side_name[side], iv->on, iv->on_lo, iv->on_hi, iv->pairs);
	printf("   ");
	/* the stretches between: untraced, or the floor's when it runs there */
	printf(fmt, side == FULL_FLOOR ? "floor" : "untraced", iv->again, iv->again_lo, iv->again_hi, iv->again_pairs);
	printf("\n");
}

/* the timed runs of each tracer, paced and flood, taken in turn: the figures are their medians */
#define COST_RUNS	5

struct cost_runs {
	struct collector_prog_totals progs[COST_RUNS];	/* the programs' totals in each run */
	uint64_t records[COST_RUNS];			/* the records each run wrote */
	int n;
};

/*
 * timed_run - one run of the full or the lean engine, the kernel's run-time
 * statistics on throughout. Every program run of the run is counted, also
 * those off the wake's path (the paced waker's own sleeps, say): an upper
 * bound of what lies on it.
 */
static int timed_run(enum side side, uint64_t samples, uint64_t interval_us, struct run_result *r,
		     struct cost_runs *c)
{
	double value, p99;

	if (run(side, true, samples, interval_us, r, &value, &p99))
		return -1;
	c->progs[c->n] = r->progs;
	c->records[c->n++] = r->merge.events;
	return 0;
}

/*
 * floor_timed_run - timed_run() for the floor: an untraced run that the
 * floor's programs follow from start to end, the kernel's run-time
 * statistics on for it, so that the two tracers' programs compare run for run
 */
static int floor_timed_run(uint64_t samples, uint64_t interval_us, struct run_result *r, struct cost_runs *c)
{
	struct run_config cfg = eventfd_run(samples, interval_us, UNTRACED);
	struct session_bench bench = { .on_start = floor_track, .on_start_ctx = &floor_side };
	struct session_opts o = { .bench = &bench };
	struct collector_prog_totals before, *after = &c->progs[c->n];
	char msg[256];
	uint32_t k;
	int stats, err;

	stats = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats < 0) {
		fprintf(stderr, "bench: the kernel would not time BPF programs: %s\n", strerror(-stats));
		return -1;
	}
	collector__object_totals(floor_side.skel->obj, &before);
	err = floor_begin(&floor_side, false) ? -1 : session__run(&cfg, &o, r, msg, sizeof(msg));
	floor_end(&floor_side);
	collector__object_totals(floor_side.skel->obj, after);
	close(stats);
	if (err || r->workload_failed || floor_side.skel->bss->floor_drops) {
		fprintf(stderr, "bench: the floor's timed run failed: %s\n", err ? msg : r->workload_failed ?
			r->workload_error : "it dropped records");
		return -1;
	}
	if (before.nr_progs != after->nr_progs) {
		fprintf(stderr, "bench: the floor's programs could not all be read before and after its timed run\n");
		return -1;
	}
	/* the same programs in the same order: the differences are this run's */
	after->runs -= before.runs;
	after->run_ns -= before.run_ns;
	for (k = 0; k < after->nr_progs; k++) {
		after->progs[k].runs -= before.progs[k].runs;
		after->progs[k].run_ns -= before.progs[k].run_ns;
	}
	c->records[c->n++] = floor_side.records;
	return 0;
}

/* median_per_wakeup - the median of @n counts, each of a run of @samples wakeups, per wakeup */
static double median_per_wakeup(const uint64_t *v, int n, uint64_t samples)
{
	double d[COST_RUNS];

	for (int i = 0; i < n; i++)
		d[i] = (double)v[i] / samples;
	return quantile(d, n, 0.5);
}

/*
 * prog_median - the median over @c's runs of program @k's runs (@ns false)
 * or time (@ns true) per wakeup; the runs load the same object, so a
 * program has the same place in each
 */
static double prog_median(const struct cost_runs *c, uint32_t k, bool ns, uint64_t samples)
{
	uint64_t v[COST_RUNS];

	for (int i = 0; i < c->n; i++)
		v[i] = ns ? c->progs[i].progs[k].run_ns : c->progs[i].progs[k].runs;
	return median_per_wakeup(v, c->n, samples);
}

/* print_cost_runs - a tracer's programs, in all and one by one: medians of @c's runs of @samples wakeups */
static void print_cost_runs(const char *who, const char *what, const struct cost_runs *c, uint64_t samples)
{
	uint64_t runs[COST_RUNS], ns[COST_RUNS];
	double per_run[COST_RUNS];

	for (int i = 0; i < c->n; i++) {
		runs[i] = c->progs[i].runs;
		ns[i] = c->progs[i].run_ns;
		per_run[i] = runs[i] ? (double)ns[i] / runs[i] : 0;
	}
	printf("  %s %s: %.2f runs and %.0f ns per wakeup, %.0f ns per run, %.2f records per wakeup\n", who, what,
	       median_per_wakeup(runs, c->n, samples), median_per_wakeup(ns, c->n, samples),
	       quantile(per_run, c->n, 0.5), median_per_wakeup(c->records, c->n, samples));
	for (uint32_t k = 0; k < c->progs[0].nr_progs; k++) {
		double r = prog_median(c, k, false, samples), t = prog_median(c, k, true, samples);

		if (r > 0)
			printf("      %-32s %6.2f runs %6.0f ns per wakeup, %4.0f ns a run\n", c->progs[0].progs[k].name,
			       r, t, t / r);
	}
}

static bool floor_traces(const struct collector_prog_totals *floor, const char *tracepoint)
{
	for (uint32_t k = 0; k < floor->nr_progs; k++)
		if (!strcmp(floor->progs[k].tracepoint, tracepoint))
			return true;
	return false;
}

struct prog_share {
	const char *tracepoint;
	double ns;	/* per wakeup */
};

static int cmp_share_desc(const void *a, const void *b)
{
	const struct prog_share *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

/*
 * print_against_floor - where the full engine's program time goes beyond the
 * floor's: on the tracepoints both trace, and on those only the full engine
 * does (its evidence for the explanations: idle, interrupts, migrations,
 * forks). Medians of the runs, each part on its own: the parts of a line
 * need not add up to its whole.
 */
static void print_against_floor(const char *what, const struct cost_runs *full, const struct cost_runs *floor,
				uint64_t samples)
{
	const struct collector_prog_totals *fp = &full->progs[0], *lp = &floor->progs[0];
	uint64_t full_ns[COST_RUNS], floor_ns[COST_RUNS], shared_ns[COST_RUNS] = {}, others_ns[COST_RUNS] = {};
	struct prog_share others[COLLECTOR_MAX_PROGS];
	bool shared[COLLECTOR_MAX_PROGS];
	double a, b, sh;
	uint32_t k, n = 0;
	int i;

	for (k = 0; k < fp->nr_progs; k++) {
		double ns;

		shared[k] = floor_traces(lp, fp->progs[k].tracepoint);
		if (!shared[k] && (ns = prog_median(full, k, true, samples)) >= 1)
			others[n++] = (struct prog_share){ fp->progs[k].tracepoint, ns };
	}
	for (i = 0; i < full->n; i++) {
		full_ns[i] = full->progs[i].run_ns;
		for (k = 0; k < fp->nr_progs; k++) {
			if (shared[k])
				shared_ns[i] += full->progs[i].progs[k].run_ns;
			else
				others_ns[i] += full->progs[i].progs[k].run_ns;
		}
	}
	for (i = 0; i < floor->n; i++)
		floor_ns[i] = floor->progs[i].run_ns;
	qsort(others, n, sizeof(*others), cmp_share_desc);
	a = median_per_wakeup(full_ns, full->n, samples);
	b = median_per_wakeup(floor_ns, floor->n, samples);
	sh = median_per_wakeup(shared_ns, full->n, samples);
	printf("  %s: full %.0f, floor %.0f (%+.0f)\n", what, a, b, a - b);
	printf("      on the floor's %u tracepoints: full %.0f, floor %.0f (%+.0f)\n", lp->nr_progs, sh, b, sh - b);
	printf("      on the others: %.0f;", median_per_wakeup(others_ns, full->n, samples));
	for (k = 0; k < n; k++)
		printf(" %s %.0f", others[k].tracepoint, others[k].ns);
	printf("\n");
}

/*
 * cost - the programs' cost by the kernel's own count: COST_RUNS timed runs
 * of each tracer, full, floor and lean in turn, paced and then flood
 */
static int cost(uint64_t paced_samples, uint64_t flood_samples, struct run_result *r)
{
	static struct cost_runs full[2], floor[2], lean[2];
	const char *what[2] = { "paced", "flood" };
	uint64_t samples[2] = { paced_samples, flood_samples }, interval_us[2] = { PACED_US, 0 };
	int m, i;

	for (m = 0; m < 2; m++)
		for (i = 0; i < COST_RUNS; i++)
			if (timed_run(TRACED, samples[m], interval_us[m], r, &full[m]) ||
			    floor_timed_run(samples[m], interval_us[m], r, &floor[m]) ||
			    timed_run(LEAN, samples[m], interval_us[m], r, &lean[m]))
				return -1;
	printf("\nBPF programs, runs with the kernel's run-time statistics on (their own clock reads are counted in);\n"
	       "medians of %d runs of each, full, floor and lean in turn:\n", COST_RUNS);
	for (m = 0; m < 2; m++)
		print_cost_runs("full", what[m], &full[m], samples[m]);
	for (m = 0; m < 2; m++)
		print_cost_runs("floor", what[m], &floor[m], samples[m]);
	for (m = 0; m < 2; m++)
		print_cost_runs("lean", what[m], &lean[m], samples[m]);
	printf("\nthe full engine's programs against the floor's, ns per wakeup, by tracepoint (medians of the runs "
	       "above):\n");
	for (m = 0; m < 2; m++)
		print_against_floor(what[m], &full[m], &floor[m], samples[m]);
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t paced_rounds = 15, flood_rounds = 21, paced_samples = 1000, flood_samples = 30000;
	static struct round paced[MAX_ROUNDS], flood[MAX_ROUNDS];
	struct interleaved paced_iv[IV_SIDES], flood_iv[IV_SIDES];
	double again;
	int err, i;
	struct run_result *r;
	struct utsname u;
	char why[256];
	enum side s;

	if ((argc > 1 && parse__u64(argv[1], 1, MAX_ROUNDS, &paced_rounds)) ||
	    (argc > 2 && parse__u64(argv[2], 1, MAX_ROUNDS, &flood_rounds)) ||
	    (argc > 3 && parse__u64(argv[3], 100, 1000000, &paced_samples)) ||
	    (argc > 4 && parse__u64(argv[4], 1000, 100000000, &flood_samples)) || argc > 5) {
		fprintf(stderr, "usage: %s [PACED_ROUNDS] [FLOOD_ROUNDS] [PACED_SAMPLES] [FLOOD_SAMPLES]\n"
			"  rounds 1-%d; defaults 15 21 1000 30000\n", argv[0], MAX_ROUNDS);
		return 2;
	}
	err = collector__check_access(why, sizeof(why));
	if (err == -EPERM) {
		/* not wakeprobe's hint of --no-trace: the benchmark needs the BPF side */
		fprintf(stderr, "bench: loading BPF needs root (CAP_BPF and CAP_PERFMON): run it as root; "
			"make bench goes through sudo\n");
		return 1;
	}
	if (err) {
		fprintf(stderr, "bench: %s\n", why);
		return 1;
	}
	r = malloc(sizeof(*r));
	if (!r)
		return 1;
	uname(&u);
	printf("wakeprobe %s overhead benchmark, eventfd, waker CPU 0 -> wakee CPU 1\n", WAKEPROBE_VERSION);
	printf("machine: %s %s, %ld CPUs online\n", u.machine, u.release, sysconf(_SC_NPROCESSORS_ONLN));
	printf("paced: %" PRIu64 " rounds of %" PRIu64 " wakeups at %d us; flood: %" PRIu64 " rounds of %" PRIu64
	       " back to back\n", paced_rounds, paced_samples, PACED_US, flood_rounds, flood_samples);
	printf("each round runs five sides in turn, the order rotating: untraced (no BPF), again (the same),\n"
	       "nop (a do-nothing BPF program on each of wakeprobe's tracepoints), full (wakeprobe --engine full),\n"
	       "lean (wakeprobe --engine lean); steal = the host's share of CPU time during the round;\n"
	       "full and lean run as a user's run does, the kernel timing their programs %d ms of each %d s\n\n",
	       COLLECTOR_TIMED_MS, COLLECTOR_TIMED_EVERY_MS / 1000);

	if (nops_load(&nops) || floor_load(&floor_side, catalog__find("eventfd")) ||
	    run_rounds("paced", "p50 us", "%7.2f", paced_rounds, paced_samples, PACED_US, r, paced) ||
	    run_rounds("flood", "wakeups/s", "%6.0f", flood_rounds, flood_samples, 0, r, flood))
		goto fail;

	printf("\n%-24s", "median of the rounds");
	for (s = UNTRACED; s < SIDES; s++)
		printf(" %10s", side_name[s]);
	print_medians("paced p50 (us)", " %10.2f", paced, paced_rounds, false);
	print_medians("paced p99 (us)", " %10.1f", paced, paced_rounds, true);
	print_medians("flood (wakeups/s)", " %10.0f", flood, flood_rounds, false);
	printf("\n\nagainst the untraced run of the same round: median (quartiles) of the rounds\n");
	print_changes("paced p50, us", paced, paced_rounds, false);
	print_changes("flood, ratio", flood, flood_rounds, true);

	printf("\ninterleaved: one run each (%" PRIu64 " wakeups paced, %" PRIu64 " back to back) traced by wakeprobe,\n"
	       "by wakeprobe --engine lean, by the do-nothing programs, and by the least tracer of the full engine's design\n"
	       "(floor: bench/floor.bpf.c),\n"
	       "its programs taken off their tracepoints and put back every %d ms (back to back: %d ms); each stretch\n"
	       "against the mean of the untraced stretches beside it (untraced: against those two stretches away);\n"
	       "and one traced by wakeprobe with the floor's programs on in the stretches between (full:floor);\n"
	       "median (quartiles)\n",
	       paced_rounds * paced_samples, flood_rounds * flood_samples, TOGGLE_MS, FLOOD_TOGGLE_MS);
	for (i = 0; i < IV_SIDES; i++)
		if (interleave(iv_side[i], paced_rounds * paced_samples, PACED_US, r, &paced_iv[i]))
			goto fail;
	for (i = 0; i < IV_SIDES; i++)
		if (interleave(iv_side[i], flood_rounds * flood_samples, 0, r, &flood_iv[i]))
			goto fail;
	for (i = 0; i < IV_SIDES; i++)
		print_interleaved(i ? "" : "paced p50, us", iv_side[i], &paced_iv[i], false);
	for (i = 0; i < IV_SIDES; i++)
		print_interleaved(i ? "" : "flood, ratio", iv_side[i], &flood_iv[i], true);
	printf("floor: %.2f records per traced wakeup paced, %.2f back to back\n", paced_iv[IV_FLOOR].records_per_wakeup,
	       flood_iv[IV_FLOOR].records_per_wakeup);

	if (cost(paced_samples, flood_samples, r))
		goto fail;

	printf("\nthe rounds (medians of the per-round comparisons):\n");
	again = side_change(paced, paced_rounds, AGAIN, false);
	printf("  paced p50: full %+.2f us, lean %+.2f us, do-nothing programs %+.2f us; untraced against itself "
	       "%+.2f us\n", side_change(paced, paced_rounds, TRACED, false), side_change(paced, paced_rounds, LEAN, false),
	       side_change(paced, paced_rounds, NOP, false), again);
	/* lower() keeps two answers at a time */
	printf("  flood throughput: full %s, lean %s", lower(side_change(flood, flood_rounds, TRACED, true)),
	       lower(side_change(flood, flood_rounds, LEAN, true)));
	printf(", do-nothing programs %s; untraced against itself %s\n",
	       lower(side_change(flood, flood_rounds, NOP, true)), lower(side_change(flood, flood_rounds, AGAIN, true)));

	/* issue 18's aims, on the interleaved runs: lean against untraced, full against the floor */
	printf("\naims (interleaved; met or not by the 95%% interval):\n");
	printf("  paced p50:\n");
	print_target("lean", &paced_iv[IV_LEAN], false, 2.0, false);
	print_target("full", &paced_iv[IV_TRACED], false, NAN, false);
	print_target("floor tracer", &paced_iv[IV_FLOOR], false, NAN, false);
	print_target("do-nothing programs", &paced_iv[IV_NOP], false, NAN, false);
	printf("               %-20s %+.2f us\n", "untraced vs itself", paced_iv[IV_TRACED].again);
	print_target("full against floor", &paced_iv[IV_FULL_FLOOR], false, 1.0, true);
	printf("  flood throughput ratio:\n");
	print_target("lean", &flood_iv[IV_LEAN], true, 0.8, false);
	print_target("full", &flood_iv[IV_TRACED], true, NAN, false);
	print_target("floor tracer", &flood_iv[IV_FLOOR], true, NAN, false);
	print_target("do-nothing programs", &flood_iv[IV_NOP], true, NAN, false);
	printf("               %-20s %.3f\n", "untraced vs itself", flood_iv[IV_TRACED].again);
	print_target("full against floor", &flood_iv[IV_FULL_FLOOR], true, 1.0, true);
	nops_unload(&nops);
	floor_unload(&floor_side);
	free(r);
	return 0;
fail:
	nops_unload(&nops);
	floor_unload(&floor_side);
	free(r);
	return 1;
}
