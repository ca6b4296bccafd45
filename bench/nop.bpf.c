// SPDX-License-Identifier: GPL-2.0
/*
 * nop.bpf.c - a program that does nothing.
 *
 * The overhead benchmark (bench/bench_overhead.c) attaches a copy of it to
 * every tracepoint that wakeprobe attaches to. What the workload loses then
 * is what merely having a BPF program at those places costs on the machine
 * (the kernel's dispatch into it), before any work of wakeprobe's own.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

/* the benchmark retargets it to each of wakeprobe's tracepoints before load */
SEC("tp_btf/sched_switch")
int nop(void *ctx)
{
	return 0;
}
