/* SPDX-License-Identifier: GPL-2.0 */
/* tsc.h - serialized time-stamp counter reads shared by the workloads and wakeprobe */
#ifndef WAKEPROBE_TSC_H
#define WAKEPROBE_TSC_H

#include <stdint.h>

/*
 * tsc_read - serialized TSC read.
 *
 * rdtscp waits until every earlier instruction has executed; the lfence after
 * it keeps later instructions (the notify syscall, the next store) from
 * starting before the counter was read (Intel SDM vol. 2B, RDTSCP). The
 * IA32_TSC_AUX value that rdtscp returns holds the CPU number in its low 12
 * bits on Linux, which tells where the timestamp was taken at no extra cost.
 */
static inline uint64_t tsc_read(uint32_t *cpu)
{
	uint32_t lo, hi, aux;

	__asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	if (cpu)
		*cpu = aux & 0xfff;
	return ((uint64_t)hi << 32) | lo;
}

static inline void cpu_relax(void)
{
	__asm__ __volatile__("pause" : : : "memory");
}

#endif /* WAKEPROBE_TSC_H */
