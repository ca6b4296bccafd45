/* SPDX-License-Identifier: GPL-2.0 */
/* cpus.h - which CPUs the waker and the wakee run on, shared by wakeprobe and the workloads */
#ifndef WAKEPROBE_CPUS_H
#define WAKEPROBE_CPUS_H

/* cpu_set_t: the includer defines _GNU_SOURCE before its first libc header */
#include <sched.h>

/*
 * cpus__first_two - the two lowest CPUs in @allowed, the default waker and
 * wakee CPUs. Returns -ENODEV, and sets neither, when @allowed holds fewer.
 */
int cpus__first_two(const cpu_set_t *allowed, int *waker_cpu, int *wakee_cpu);

#endif /* WAKEPROBE_CPUS_H */
