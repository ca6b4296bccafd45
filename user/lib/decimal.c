// SPDX-License-Identifier: GPL-2.0
/* decimal.c - integers in decimal, without printf */
#include "decimal.h"

size_t decimal__format(char *end, uint64_t magnitude, bool negative)
{
	char *p = end;

	do {
		*--p = (char)('0' + magnitude % 10);
		magnitude /= 10;
	} while (magnitude);
	if (negative)
		*--p = '-';
	return (size_t)(end - p);
}

void decimal__put(FILE *out, char prefix, uint64_t magnitude, bool negative)
{
	char buf[DECIMAL_MAX], *end = buf + sizeof(buf);
	size_t n = decimal__format(end, magnitude, negative);

	if (prefix)
		buf[sizeof(buf) - ++n] = prefix;
	fwrite(end - n, 1, n, out);
}
