// SPDX-License-Identifier: GPL-2.0
/*
 * test_prometheus_common.c - the families of wakeprobe's metrics
 * (prometheus_common.c): every name wakeprobe_ and unique, a counter's
 * ending in _total and no other's, HELP and TYPE lines as the text format
 * wants them, and the samples by cause and by label both kinds of run
 * write, one for each cause and label, in their order.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "memout.h"
#include "prom_text.h"
#include "prometheus_common.h"

TestSuite(prometheus_common, .init = memout__open, .fini = memout__close);

Test(prometheus_common, every_family_has_a_wakeprobe_name_of_its_own_and_a_counter_ends_in_total)
{
	for (int f = 0; f < NR_FAMILIES; f++) {
		const char *name = prometheus_common__name(f);
		size_t n = strlen(name);
		char type[16];
		const char *line;

		cr_assert(!strncmp(name, "wakeprobe_", 10), "%s", name);
		for (int g = 0; g < f; g++)
			cr_assert_str_neq(prometheus_common__name(g), name, "two families named %s", name);
		/* the TYPE line says which it is */
		memout__close();
		memout__open();
		prometheus_common__begin(out, f);
		line = strstr(written(), "\n# TYPE ");
		cr_assert_not_null(line, "%s", written());
		cr_assert_eq(sscanf(line + 8 + n, " %15s", type), 1, "%s", written());
		cr_assert_eq(!strcmp(type, "counter"), n > 6 && !strcmp(name + n - 6, "_total"),
			     "%s is a %s", name, type);
	}
}

Test(prometheus_common, a_family_begins_with_its_help_then_its_type)
{
	char want[256];

	prometheus_common__begin(out, FAMILY_DROPPED);
	snprintf(want, sizeof(want), "# HELP %s Kernel events the BPF side could not hand over (ring buffer full).\n"
		 "# TYPE %s counter\n", prometheus_common__name(FAMILY_DROPPED), prometheus_common__name(FAMILY_DROPPED));
	cr_assert_str_eq(written(), want);
	cr_assert_str_eq(prometheus_common__name(FAMILY_DROPPED), "wakeprobe_dropped_events_total");
}

Test(prometheus_common, a_family_of_one_sample_is_its_lines_and_the_sample)
{
	struct prom_labels ls = { .n = 0 };
	char buf[32];

	prom__label(&ls, "host", "h1");
	prometheus_common__only_uint(out, FAMILY_SCRAPES, &ls, 12);
	cr_assert(!strncmp(written(), "# HELP wakeprobe_scrapes_total ", 31), "%s", written());
	cr_assert_str_eq(prom_value_of(written(), "wakeprobe_scrapes_total{host=\"h1\"}", buf, sizeof(buf)), "12");
	cr_assert_null(strstr(strstr(written(), "{host"), "\n#"), "the sample is last: %s", written());
}

Test(prometheus_common, every_cause_has_its_sample_in_seconds_none_below_zero)
{
	struct cause_totals ct;
	struct prom_labels ls = { .n = 0 };
	char sample[128], buf[32];

	memset(&ct, 0, sizeof(ct));
	ct.cause_ns[CAUSE_IDLE] = 1500;
	ct.cause_ns[CAUSE_OTHER_TASK] = 2000000000;
	ct.cause_ns[CAUSE_UNEXPLAINED] = -30;	/* rounding over many wakeups: a counter cannot fall */
	prom__label(&ls, "host", "h1");
	prometheus_common__causes(out, &ls, &ct);
	for (int c = 0; c < NR_CAUSES; c++) {
		snprintf(sample, sizeof(sample), "wakeprobe_cause_seconds_total{host=\"h1\",cause=\"%s\"}",
			 wakeup__cause_name(c));
		prom_value_of(written(), sample, buf, sizeof(buf));
		if (c == CAUSE_IDLE)
			cr_assert_str_eq(buf, "0.0000015");
		else if (c == CAUSE_OTHER_TASK)
			cr_assert_str_eq(buf, "2");
		else
			cr_assert_str_eq(buf, "0", "%s", sample);
	}
	cr_assert_null(strstr(written(), "# "), "the samples alone: their family begun by the caller");
}

Test(prometheus_common, every_label_has_its_sample_in_the_labels_order)
{
	uint64_t by_label[NR_LABELS] = { 0 };
	struct prom_labels ls = { .n = 0 };
	const char *line = NULL;
	char sample[128], buf[32];

	by_label[LABEL_COMPLETE] = 7;
	by_label[LABEL_LOST_EVENTS] = 2;
	prom__label(&ls, "target", "pid 1");
	prometheus_common__labels(out, &ls, by_label);
	for (int l = 0; l < NR_LABELS; l++) {
		const char *at;

		snprintf(sample, sizeof(sample), "wakeprobe_wakeups_total{target=\"pid 1\",label=\"%s\"}",
			 wakeup__label_name(l));
		prom_value_of(written(), sample, buf, sizeof(buf));
		cr_assert_eq(strtoull(buf, NULL, 10), by_label[l], "%s", sample);
		at = strstr(written(), sample);
		cr_assert(!line || at > line, "%s out of order", sample);
		line = at;
	}
}
