// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <sys/syscall.h>
#include "catalog.h"

static const struct workload_desc workloads[] = {
	{
		.name = "eventfd",
		.summary = "write() to an eventfd wakes a thread blocked in read()",
		.notify_syscalls = { SYS_write, -1 },
		.wait_syscalls = { SYS_read, -1 },
		.match_fd = 1,
	},
};

const struct workload_desc *catalog__find(const char *name)
{
	size_t i;

	for (i = 0; i < catalog__count(); i++)
		if (!strcmp(workloads[i].name, name))
			return &workloads[i];
	return NULL;
}

const struct workload_desc *catalog__at(size_t index)
{
	return index < catalog__count() ? &workloads[index] : NULL;
}

size_t catalog__count(void)
{
	return sizeof(workloads) / sizeof(workloads[0]);
}
