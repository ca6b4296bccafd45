// SPDX-License-Identifier: GPL-2.0
/* decimal.c - integers in decimal, without printf */
#include "decimal.h"

void decimal__put(FILE *out, char prefix, uint64_t magnitude, bool negative)
{
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = (char)('0' + magnitude % 10);
		magnitude /= 10;
	} while (magnitude);
	if (negative)
		*--p = '-';
	if (prefix)
		*--p = prefix;
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), out);
}
