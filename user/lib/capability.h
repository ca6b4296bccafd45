/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capability.h - which capabilities(7) this process holds in its effective
 * set, asked of the kernel (capget(2)) rather than guessed from its uid: a
 * service runs as a user of its own with a few ambient capabilities, and
 * root under a unit's CapabilityBoundingSet= holds only some.
 */
#ifndef WAKEPROBE_CAPABILITY_H
#define WAKEPROBE_CAPABILITY_H

#include <stdbool.h>
#include <stddef.h>

/*
 * include/uapi/linux/capability.h's numbers, kept here so that a build on
 * older headers knows CAP_PERFMON and CAP_BPF (both Linux 5.8)
 */
#define CAPABILITY_DAC_READ_SEARCH	2
#define CAPABILITY_KILL			5
#define CAPABILITY_SETGID		6
#define CAPABILITY_SETUID		7
#define CAPABILITY_SYS_PTRACE		19
#define CAPABILITY_SYS_ADMIN		21
#define CAPABILITY_SYSLOG		34
#define CAPABILITY_PERFMON		38
#define CAPABILITY_BPF			39

/* capability__has - is @cap in this process's effective set? false when capget(2) fails */
bool capability__has(int cap);

/*
 * capability__none_to_pass_on - empty this process's inheritable and
 * ambient sets, so that a program it executes gets none of its
 * capabilities (a service's ambient ones would otherwise pass to every
 * command it starts). What it holds itself until then is unchanged. 0, or
 * a negative errno.
 */
int capability__none_to_pass_on(void);

/* capability__name - "CAP_BPF" and so on, for the capabilities above; "CAP_?" for another */
const char *capability__name(int cap);

/*
 * capability__missing - which of the @n capabilities @caps this process
 * lacks, written "CAP_BPF", "CAP_BPF and CAP_PERFMON", "CAP_A, CAP_B and
 * CAP_C" into @buf (@len bytes): how many it lacks, 0 leaving @buf empty
 */
int capability__missing(const int *caps, size_t n, char *buf, size_t len);

#endif /* WAKEPROBE_CAPABILITY_H */
