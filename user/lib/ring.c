// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ring.h"

int ring__grow(void **buf, size_t *cap, size_t *head, size_t len, size_t elem)
{
	size_t new_cap = *cap * 2, first;
	char *nb;

	/* a size that does not fit a size_t would wrap to a small one, and the copy overrun it */
	if (!elem || *cap > SIZE_MAX / 2 / elem)
		return -ENOMEM;
	nb = malloc(new_cap * elem);
	if (!nb)
		return -ENOMEM;
	first = *cap - *head < len ? *cap - *head : len;
	memcpy(nb, (char *)*buf + *head * elem, first * elem);
	memcpy(nb + first * elem, *buf, (len - first) * elem);
	free(*buf);
	*buf = nb;
	*cap = new_cap;
	*head = 0;
	return 0;
}
