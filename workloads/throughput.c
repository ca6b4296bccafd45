// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "cpus.h"
#include "parse.h"
#include "throughput.h"

void tp_options__init(struct tp_options *o, const char *name)
{
	memset(o, 0, sizeof(*o));
	o->name = name;
	o->repeat = TP_DEFAULT_REPEAT;
	o->cpu[0] = -1;
	o->cpu[1] = -1;
}

void tp_usage_error(const char *name, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see --help)\n");
	exit(2);
}

bool tp_options__parse(struct tp_options *o, int opt, const char *arg, int argc, char **argv)
{
	int nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	/* getopt leaves optind past the word it complained about; clamp it for a last option */
	const char *word = optind > 0 && optind - 1 < argc ? argv[optind - 1] : "?";

	switch (opt) {
	case 'r':
		if (parse__u64(arg, 1, TP_MAX_REPEAT, &o->repeat))
			tp_usage_error(o->name, "--repeat wants a whole number from 1 to %d, not '%s'",
				       TP_MAX_REPEAT, parse__shown(arg));
		return true;
	case 'c':
		if (o->list_cpus) {
			if (tp_parse_cpu_list(arg, nr_cpus, o->cpu_list, TP_MAX_CPUS, &o->nr_cpu_list))
				tp_usage_error(o->name, "--cpus wants up to %d different CPUs below %d as A[,B...], "
					       "not '%s'", TP_MAX_CPUS, nr_cpus, parse__shown(arg));
			o->cpus_given = true;
			return true;
		}
		if (parse__cpu_pair(arg, nr_cpus, &o->cpu[0], &o->cpu[1]))
			tp_usage_error(o->name, "--cpus wants two different CPUs below %d as A,B, not '%s'",
				       nr_cpus, parse__shown(arg));
		o->cpus_given = true;
		return true;
	case 'j':
		o->json = true;
		return true;
	case 'h':
		o->help = true;
		return true;
	case ':':
		tp_usage_error(o->name, "%s needs a value", parse__shown(word));
	case '?':
		tp_usage_error(o->name, "unknown option '%s'", parse__shown(word));
	default:
		return false;
	}
}

void tp_options__finish(struct tp_options *o, int argc, char **argv, void (*usage)(FILE *out))
{
	cpu_set_t allowed;

	if (o->help) {
		usage(stdout);
		exit(0);
	}
	if (optind < argc)
		tp_usage_error(o->name, "unexpected argument '%s'", parse__shown(argv[optind]));
	if (o->cpus_given)
		return;
	if (o->list_cpus) {
		int cpu;

		if (sched_getaffinity(0, sizeof(allowed), &allowed))
			tp_usage_error(o->name, "cannot tell which CPUs this process may use: give them with --cpus");
		for (cpu = 0; cpu < CPU_SETSIZE && o->nr_cpu_list < TP_MAX_CPUS; cpu++)
			if (CPU_ISSET(cpu, &allowed))
				o->cpu_list[o->nr_cpu_list++] = cpu;
		if (!o->nr_cpu_list)
			tp_usage_error(o->name, "this process may use no CPU: give them with --cpus");
		return;
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed) ||
	    cpus__first_two(&allowed, &o->cpu[0], &o->cpu[1]))
		tp_usage_error(o->name, "needs two CPUs it may run on; this process may use fewer");
}

/* tp_parse_item - one number of a list (@len bytes at @p), in [@min, @max], appended to @vals: 0 or -errno */
static int tp_parse_item(const char *p, size_t len, uint64_t min, uint64_t max, uint64_t *vals, size_t room,
			 size_t *count)
{
	char item[32];
	int err;

	if (!len || len >= sizeof(item))
		return -EINVAL;
	if (*count == room)
		return -E2BIG;
	memcpy(item, p, len);
	item[len] = '\0';
	err = parse__u64(item, min, max, &vals[*count]);
	if (!err)
		(*count)++;
	return err;
}

int tp_parse_u64_list(const char *str, uint64_t min, uint64_t max, uint64_t *vals, size_t room, size_t *n)
{
	const char *p = str;
	size_t count = 0;
	int err;

	if (!str || !*str)
		return -EINVAL;
	for (;;) {
		size_t len = strcspn(p, ",");

		err = tp_parse_item(p, len, min, max, vals, room, &count);
		if (err)
			return err;
		if (!p[len])
			break;
		p += len + 1;
	}
	*n = count;
	return 0;
}

/* tp_parse_range - "FIRST-LAST[/STEP]" (@len bytes at @p) into its three numbers: 0 or -errno */
static int tp_parse_range(const char *p, size_t len, uint64_t min, uint64_t max, uint64_t *first, uint64_t *last,
			  uint64_t *step)
{
	char item[64], *dash, *slash;
	int err;

	if (len >= sizeof(item))
		return -EINVAL;
	memcpy(item, p, len);
	item[len] = '\0';
	dash = strchr(item, '-');
	if (!dash)
		return -EINVAL;
	*dash = '\0';
	slash = strchr(dash + 1, '/');
	if (slash)
		*slash = '\0';
	err = parse__u64(item, min, max, first);
	if (!err)
		err = parse__u64(dash + 1, min, max, last);
	if (!err && slash)
		err = parse__u64(slash + 1, 1, UINT64_MAX, step);
	else if (!err)
		*step = 1;
	if (!err && *last < *first)
		err = -EINVAL;
	return err;
}

int tp_parse_u64_steps(const char *str, uint64_t min, uint64_t max, uint64_t *vals, size_t room, size_t *n)
{
	const char *p = str;
	uint64_t first, last, step, v;
	size_t count = 0;
	int err;

	if (!str || !*str)
		return -EINVAL;
	for (;;) {
		size_t len = strcspn(p, ",");

		if (!len)
			return -EINVAL;
		if (memchr(p, '-', len)) {
			err = tp_parse_range(p, len, min, max, &first, &last, &step);
			if (err)
				return err;
			for (v = first;; v += step) {
				if (count == room)
					return -E2BIG;
				vals[count++] = v;
				if (v == last)
					break;
				/* the last step may jump past LAST: end on LAST itself, without overflow */
				if (last - v <= step) {
					if (count == room)
						return -E2BIG;
					vals[count++] = last;
					break;
				}
			}
		} else {
			err = tp_parse_item(p, len, min, max, vals, room, &count);
			if (err)
				return err;
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	*n = count;
	return 0;
}

int tp_parse_names(const char *str, const char *const *names, size_t nr, const char *alias, const bool *alias_set,
		   bool *set)
{
	char buf[TP_MAX_NAMES_ARG + 1], *save = NULL, *word;
	bool chosen[TP_MAX_NAMES] = { false };
	size_t len, i;

	if (!str || nr > TP_MAX_NAMES)
		return -EINVAL;
	len = strlen(str);
	if (!len || len > TP_MAX_NAMES_ARG)
		return -EINVAL;
	/* strtok_r skips empty items: refuse them before it can */
	if (str[0] == ',' || str[len - 1] == ',' || strstr(str, ",,"))
		return -EINVAL;
	memcpy(buf, str, len + 1);
	for (word = strtok_r(buf, ",", &save); word; word = strtok_r(NULL, ",", &save)) {
		bool all = !strcmp(word, "all");

		if (all || (alias && !strcmp(word, alias))) {
			for (i = 0; i < nr; i++)
				chosen[i] |= all || alias_set[i];
			continue;
		}
		for (i = 0; i < nr; i++)
			if (!strcmp(word, names[i]))
				break;
		if (i == nr)
			return -EINVAL;
		chosen[i] = true;
	}
	memcpy(set, chosen, nr * sizeof(*set));
	return 0;
}

int tp_parse_cpu_list(const char *str, int nr_cpus, int *cpus, size_t room, size_t *n)
{
	uint64_t vals[TP_MAX_CPUS];
	size_t count = 0, i, j;
	int err;

	if (nr_cpus < 1)
		return -ERANGE;
	err = tp_parse_u64_list(str, 0, (uint64_t)nr_cpus - 1, vals, room < TP_MAX_CPUS ? room : TP_MAX_CPUS,
				&count);
	if (err)
		return err;
	for (i = 0; i < count; i++)
		for (j = 0; j < i; j++)
			if (vals[i] == vals[j])
				return -EEXIST;
	for (i = 0; i < count; i++)
		cpus[i] = (int)vals[i];
	*n = count;
	return 0;
}

int tp_pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

int tp_attr_pin(pthread_attr_t *attr, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return -pthread_attr_setaffinity_np(attr, sizeof(set), &set);
}

int tp_run_thread(int cpu, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	pthread_t thread;
	int err;

	err = -pthread_attr_init(&attr);
	if (err)
		return err;
	if (cpu >= 0)
		err = tp_attr_pin(&attr, cpu);
	if (!err)
		err = -pthread_create(&thread, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	if (!err)
		err = -pthread_join(thread, NULL);
	return err;
}

int tp_proc_asleep(const char *stat_path)
{
	char buf[512], *paren;
	ssize_t n;
	int fd;

	fd = open(stat_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	/* "pid (comm) S ...": the comm may hold spaces and parentheses, the last ')' ends it (proc(5)) */
	paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' && (paren[2] == 'S' || paren[2] == 'D');
}

static int tp_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct tp_stats *tp_stats__of(double *vals, size_t n, struct tp_stats *s)
{
	double sum = 0, sq = 0;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (!n)
		return s;
	qsort(vals, n, sizeof(*vals), tp_cmp_double);
	for (i = 0; i < n; i++)
		sum += vals[i];
	s->n = n;
	s->mean = sum / n;
	/* two passes: the squares of the deviations, not sum(x^2) - n mean^2, which cancels */
	for (i = 0; i < n; i++)
		sq += (vals[i] - s->mean) * (vals[i] - s->mean);
	s->sd = n > 1 ? sqrt(sq / (n - 1)) : 0;
	s->min = vals[0];
	s->max = vals[n - 1];
	s->median = n % 2 ? vals[n / 2] : (vals[n / 2 - 1] + vals[n / 2]) / 2;
	return s;
}

double tp_percentile(const double *sorted, size_t n, double q)
{
	size_t rank;

	if (!n)
		return 0;
	/* nearest rank: ceil(q n), from 1; the small slack keeps 0.99 * 100 from becoming 100 */
	rank = (size_t)ceil(q * n - 1e-9);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

struct tp_stats tp_stats__scaled(const struct tp_stats *s, double factor)
{
	struct tp_stats r = *s;

	r.mean *= factor;
	r.sd *= factor;
	r.min *= factor;
	r.median *= factor;
	r.max *= factor;
	return r;
}

/* tp_result__slot - the counter @name, created at 0 if it is new; NULL when the result is full */
static struct tp_counter *tp_result__slot(struct tp_result *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nr_counters; i++)
		if (!strcmp(r->counters[i].name, name))
			return &r->counters[i];
	if (r->nr_counters == TP_MAX_COUNTERS)
		return NULL;
	r->counters[r->nr_counters].name = name;
	r->counters[r->nr_counters].value = 0;
	return &r->counters[r->nr_counters++];
}

int tp_result__count(struct tp_result *r, const char *name, uint64_t value)
{
	struct tp_counter *c = tp_result__slot(r, name);

	if (!c)
		return -E2BIG;
	c->value += value;
	return 0;
}

int tp_result__count_max(struct tp_result *r, const char *name, uint64_t value)
{
	struct tp_counter *c = tp_result__slot(r, name);

	if (!c)
		return -E2BIG;
	if (value > c->value)
		c->value = value;
	return 0;
}

int tp_result__rate(struct tp_result *r, const char *key, const char *title, double amount, const double *ns,
		    size_t n)
{
	struct tp_rate *rate;
	double *per_s;
	size_t i;

	if (r->nr_rates == TP_MAX_RATES)
		return -E2BIG;
	for (i = 0; i < n; i++)
		if (!(ns[i] > 0))
			return -EINVAL;
	per_s = calloc(n ? n : 1, sizeof(*per_s));
	if (!per_s)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		per_s[i] = amount / (ns[i] * 1e-9);
	rate = &r->rates[r->nr_rates++];
	rate->key = key;
	rate->title = title;
	tp_stats__of(per_s, n, &rate->per_s);
	free(per_s);
	return 0;
}

int tp_result__param(struct tp_result *r, const char *name, uint64_t value)
{
	size_t i;

	for (i = 0; i < r->nr_params; i++) {
		if (!strcmp(r->params[i].name, name)) {
			r->params[i].value = value;
			return 0;
		}
	}
	if (r->nr_params == TP_MAX_PARAMS)
		return -E2BIG;
	r->params[r->nr_params].name = name;
	r->params[r->nr_params].value = value;
	r->nr_params++;
	return 0;
}

uint64_t tp_result__counter(const struct tp_result *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nr_counters; i++)
		if (!strcmp(r->counters[i].name, name))
			return r->counters[i].value;
	return 0;
}

void tp_table__header(FILE *out, const char *size_name, const char *unit)
{
	tp_table__header_params(out, size_name, NULL, 0, unit);
}

void tp_table__header_params(FILE *out, const char *size_name, const char *const *params, size_t nr,
			     const char *unit)
{
	char per_unit[32];
	size_t i;

	snprintf(per_unit, sizeof(per_unit), "ns/%s", unit);
	fprintf(out, "%-16s %7s", "mode", size_name);
	for (i = 0; i < nr; i++)
		fprintf(out, " %7s", params[i]);
	fprintf(out, " %-6s %12s %10s %9s %10s %10s %10s  %s\n", "start", "mean s", per_unit, "sd", "min",
		"median", "max", "per run");
}

void tp_table__row(FILE *out, const struct tp_result *r, const char *note)
{
	struct tp_stats per = tp_stats__scaled(&r->ns, r->units ? 1.0 / r->units : 0);
	size_t i;

	fprintf(out, "%-16s %7llu", r->mode, (unsigned long long)r->units);
	for (i = 0; i < r->nr_params; i++)
		fprintf(out, " %7llu", (unsigned long long)r->params[i].value);
	fprintf(out, " %-6s %12.6f %10.1f %9.1f %10.1f %10.1f %10.1f  %s\n", r->start, r->ns.mean / 1e9, per.mean,
		per.sd, per.min, per.median, per.max, note ? note : "");
}

void tp_table__rates_header(FILE *out, const char *label_title, const struct tp_result *r, const char *unit)
{
	char per_unit[32];
	size_t i;

	snprintf(per_unit, sizeof(per_unit), "ns/%s", unit);
	fprintf(out, "%-*s %10s", TP_LABEL_WIDTH, label_title, "median s");
	for (i = 0; i < r->nr_rates; i++)
		fprintf(out, " %10s", r->rates[i].title);
	fprintf(out, " %10s %9s %10s %10s %10s  %s\n", per_unit, "sd", "min", "median", "max", "per run");
}

void tp_table__rates_row(FILE *out, const char *label, const struct tp_result *r, const char *note)
{
	struct tp_stats per = tp_stats__scaled(&r->ns, r->units ? 1.0 / r->units : 0);
	size_t i;

	fprintf(out, "%-*s %10.4f", TP_LABEL_WIDTH, label, r->ns.median / 1e9);
	for (i = 0; i < r->nr_rates; i++)
		fprintf(out, " %10.1f", r->rates[i].per_s.median);
	fprintf(out, " %10.1f %9.1f %10.1f %10.1f %10.1f  %s\n", per.mean, per.sd, per.min, per.median, per.max,
		note ? note : "");
}

void tp_json__begin(struct json_writer *w, const struct tp_options *o, const char *role0, const char *role1)
{
	struct utsname uts;
	bool have_uts = !uname(&uts);

	json_writer__begin_object(w);
	json_writer__key(w, "schema");
	json_writer__string(w, "wakeprobe-throughput");
	json_writer__key(w, "schema_version");
	json_writer__uint(w, 1);
	json_writer__key(w, "workload");
	json_writer__string(w, o->name);
	json_writer__key(w, "clock");
	json_writer__string(w, "CLOCK_MONOTONIC");
	json_writer__key(w, "machine");
	json_writer__begin_object(w);
	json_writer__key(w, "kernel");
	if (have_uts)
		json_writer__string(w, uts.release);
	else
		json_writer__null(w);
	json_writer__key(w, "machine");
	if (have_uts)
		json_writer__string(w, uts.machine);
	else
		json_writer__null(w);
	json_writer__key(w, "nr_cpus");
	json_writer__int(w, sysconf(_SC_NPROCESSORS_ONLN));
	json_writer__end_object(w);
	json_writer__key(w, "options");
	json_writer__begin_object(w);
	json_writer__key(w, "repeat");
	json_writer__uint(w, o->repeat);
	json_writer__key(w, "cpus");
	if (o->list_cpus) {
		size_t i;

		json_writer__begin_array(w);
		for (i = 0; i < o->nr_cpu_list; i++)
			json_writer__int(w, o->cpu_list[i]);
		json_writer__end_array(w);
		return;
	}
	json_writer__begin_object(w);
	json_writer__key(w, role0);
	json_writer__int(w, o->cpu[0]);
	json_writer__key(w, role1);
	json_writer__int(w, o->cpu[1]);
	json_writer__end_object(w);
}

int tp_results_out(const char *name, int err)
{
	if (err || fflush(stdout)) {
		fprintf(stderr, "%s: cannot write the results to stdout\n", name);
		return 1;
	}
	return 0;
}

void tp_json__stats(struct json_writer *w, const char *key, const struct tp_stats *s)
{
	json_writer__key(w, key);
	json_writer__begin_object(w);
	json_writer__key(w, "mean");
	json_writer__double(w, s->mean);
	json_writer__key(w, "sd");
	json_writer__double(w, s->sd);
	json_writer__key(w, "min");
	json_writer__double(w, s->min);
	json_writer__key(w, "median");
	json_writer__double(w, s->median);
	json_writer__key(w, "max");
	json_writer__double(w, s->max);
	json_writer__end_object(w);
}

void tp_json__names(struct json_writer *w, const char *key, const char *const *names, const bool *set, size_t nr)
{
	size_t i;

	json_writer__key(w, key);
	json_writer__begin_array(w);
	for (i = 0; i < nr; i++)
		if (set[i])
			json_writer__string(w, names[i]);
	json_writer__end_array(w);
}

void tp_json__u64s(struct json_writer *w, const char *key, const uint64_t *vals, size_t n)
{
	size_t i;

	json_writer__key(w, key);
	json_writer__begin_array(w);
	for (i = 0; i < n; i++)
		json_writer__uint(w, vals[i]);
	json_writer__end_array(w);
}

void tp_json__per_name(struct json_writer *w, const char *key, const char *const *names, const bool *set,
		       const uint64_t *vals, size_t nr)
{
	size_t i;

	json_writer__key(w, key);
	json_writer__begin_object(w);
	for (i = 0; i < nr; i++)
		if (set[i])
			json_writer__put_uint(w, names[i], vals[i]);
	json_writer__end_object(w);
}

void tp_json__results(struct json_writer *w, const struct tp_result *results, size_t n, const char *size_name,
		      const char *unit)
{
	tp_json__results_with(w, results, n, size_name, unit, NULL, NULL);
}

void tp_json__results_with(struct json_writer *w, const struct tp_result *results, size_t n,
			   const char *size_name, const char *unit, tp_json_extra_fn extra, void *ctx)
{
	char per_unit[48];
	size_t i, j;

	json_writer__end_object(w);	/* the options */
	json_writer__key(w, "results");
	json_writer__begin_array(w);
	for (i = 0; i < n; i++) {
		const struct tp_result *r = &results[i];
		struct tp_stats seconds = tp_stats__scaled(&r->ns, 1e-9);
		struct tp_stats per = tp_stats__scaled(&r->ns, r->units ? 1.0 / r->units : 0);

		snprintf(per_unit, sizeof(per_unit), "ns_per_%s", r->unit ? r->unit : unit);
		json_writer__begin_object(w);
		json_writer__key(w, "mode");
		json_writer__string(w, r->mode);
		json_writer__key(w, r->size_name ? r->size_name : size_name);
		json_writer__uint(w, r->units);
		for (j = 0; j < r->nr_params; j++) {
			json_writer__key(w, r->params[j].name);
			json_writer__uint(w, r->params[j].value);
		}
		json_writer__key(w, "start");
		json_writer__string(w, r->start);
		if (r->variant_key && r->variant) {
			json_writer__key(w, r->variant_key);
			json_writer__string(w, r->variant);
		}
		if (r->stop) {
			json_writer__key(w, "stop");
			json_writer__string(w, r->stop);
		}
		json_writer__key(w, "runs");
		json_writer__uint(w, r->ns.n);
		tp_json__stats(w, "seconds", &seconds);
		tp_json__stats(w, per_unit, &per);
		for (j = 0; j < r->nr_rates; j++)
			tp_json__stats(w, r->rates[j].key, &r->rates[j].per_s);
		json_writer__key(w, "counts");
		json_writer__begin_object(w);
		for (j = 0; j < r->nr_counters; j++) {
			json_writer__key(w, r->counters[j].name);
			json_writer__uint(w, r->counters[j].value);
		}
		json_writer__end_object(w);
		if (extra)
			extra(w, r, ctx);
		json_writer__end_object(w);
	}
	json_writer__end_array(w);
}
