// SPDX-License-Identifier: GPL-2.0
/* capability.c - this process's effective capabilities, by capget(2) (capability.h) */
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "capability.h"

bool capability__has(int cap)
{
	struct __user_cap_header_struct head = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};

	if (cap < 0 || cap >= 32 * _LINUX_CAPABILITY_U32S_3 || syscall(SYS_capget, &head, data))
		return false;
	return data[cap / 32].effective & (1u << (cap % 32));
}

int capability__none_to_pass_on(void)
{
	struct __user_cap_header_struct head = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
	bool inheritable = false;

	if (syscall(SYS_capget, &head, data))
		return -errno;
	for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) {
		inheritable |= data[i].inheritable != 0;
		data[i].inheritable = 0;
	}
	/*
	 * the kernel drops from the ambient set what is no longer inheritable:
	 * this alone empties it (and with none inheritable, none is ambient)
	 */
	if (inheritable && syscall(SYS_capset, &head, data))
		return -errno;
	/* ... and says so here (EINVAL: a kernel before 4.3, with no ambient set to empty) */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) && errno != EINVAL)
		return -errno;
	return 0;
}

const char *capability__name(int cap)
{
	switch (cap) {
	case CAPABILITY_DAC_READ_SEARCH:
		return "CAP_DAC_READ_SEARCH";
	case CAPABILITY_KILL:
		return "CAP_KILL";
	case CAPABILITY_SETGID:
		return "CAP_SETGID";
	case CAPABILITY_SETUID:
		return "CAP_SETUID";
	case CAPABILITY_SYS_PTRACE:
		return "CAP_SYS_PTRACE";
	case CAPABILITY_SYS_ADMIN:
		return "CAP_SYS_ADMIN";
	case CAPABILITY_SYSLOG:
		return "CAP_SYSLOG";
	case CAPABILITY_PERFMON:
		return "CAP_PERFMON";
	case CAPABILITY_BPF:
		return "CAP_BPF";
	}
	return "CAP_?";
}

int capability__missing(const int *caps, size_t n, char *buf, size_t len)
{
	int lacking[16], count = 0;
	size_t at = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < n && count < 16; i++)
		if (!capability__has(caps[i]))
			lacking[count++] = caps[i];
	for (int i = 0; i < count && at < len; i++) {
		const char *sep = !i ? "" : i == count - 1 ? " and " : ", ";
		int w = snprintf(buf + at, len - at, "%s%s", sep, capability__name(lacking[i]));

		if (w < 0)
			break;
		at += (size_t)w;
	}
	return count;
}
