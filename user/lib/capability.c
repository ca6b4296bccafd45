// SPDX-License-Identifier: GPL-2.0
/* capability.c - this process's effective capabilities, by capget(2) (capability.h) */
#include <linux/capability.h>
#include <stdio.h>
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
