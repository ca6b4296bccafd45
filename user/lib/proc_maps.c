// SPDX-License-Identifier: GPL-2.0
/* proc_maps.c - a /proc/PID/maps line, read whole and strictly (proc_maps.h) */
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include "proc_maps.h"

/*
 * hex_field - the hexadecimal number at *@at, which must end at @end (a
 * character, '\0' for the line's end), into @out; *@at moves past @end.
 * No sign, no "0x", no overflow.
 */
static int number_field(const char **at, int base, char end, uint64_t *out)
{
	const char *p = *at;
	uint64_t value = 0;
	int digits = 0;

	for (;; p++, digits++) {
		int digit;

		if (isdigit((unsigned char)*p))
			digit = *p - '0';
		else if (base == 16 && isxdigit((unsigned char)*p))
			digit = tolower((unsigned char)*p) - 'a' + 10;
		else
			break;
		if (__builtin_mul_overflow(value, (uint64_t)base, &value) ||
		    __builtin_add_overflow(value, (uint64_t)digit, &value))
			return -EINVAL;
	}
	if (!digits || *p != end)
		return -EINVAL;
	*at = end ? p + 1 : p;
	*out = value;
	return 0;
}

int proc_maps__parse(const char *line, struct proc_maps_line *out)
{
	uint64_t major, minor;
	const char *at = line;

	memset(out, 0, sizeof(*out));
	if (number_field(&at, 16, '-', &out->start) || number_field(&at, 16, ' ', &out->end) ||
	    out->end < out->start)
		return -EINVAL;
	if (strnlen(at, 5) < 5 || at[4] != ' ')
		return -EINVAL;
	memcpy(out->perms, at, 4);
	at += 5;
	if (number_field(&at, 16, ' ', &out->offset) || number_field(&at, 16, ':', &major) ||
	    number_field(&at, 16, ' ', &minor) || major > 0xfff || minor > 0xfffff)
		return -EINVAL;
	out->dev_major = (unsigned int)major;
	out->dev_minor = (unsigned int)minor;
	/* the inode ends the line of an unnamed mapping, else a space and the padding before the path */
	if (number_field(&at, 10, strchr(at, ' ') ? ' ' : '\0', &out->inode))
		return -EINVAL;
	while (*at == ' ')
		at++;
	out->path = at;
	return 0;
}
