// SPDX-License-Identifier: GPL-2.0
/* test_load_refusal.c - a verifier's refusal told from a blocked bpf() by libbpf's warning */
#include <criterion/criterion.h>
#include "collector.h"

Test(load_refusal, a_program_the_verifier_refused_is_named_whether_libbpf_prefixes_it_or_not)
{
	/* as libbpf 1.x hands it to its printer: its prefix, then the program */
	cr_expect(collector__names_refused_prog("libbpf: prog 'lean_sched_switch': failed to load: -13"));
	cr_expect(collector__names_refused_prog("prog 'lean_sched_switch': failed to load: -13"));
}

Test(load_refusal, other_warnings_name_no_program)
{
	/* a seccomp filter or a container stops the first map, before any program */
	cr_expect_not(collector__names_refused_prog("libbpf: map 'events': failed to create: Operation not permitted(-1)"));
	cr_expect_not(collector__names_refused_prog("libbpf: failed to load object 'wakeprobe_bpf'"));
	cr_expect_not(collector__names_refused_prog(""));
}
