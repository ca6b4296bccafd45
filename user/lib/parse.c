// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parse.h"

int parse__u64(const char *str, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	/* strtoull accepts leading blanks and a minus sign: both are typos here */
	if (!str || !isdigit((unsigned char)str[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(str, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse__cpu_pair(const char *str, int nr_cpus, int *cpu_a, int *cpu_b)
{
	char buf[64], *comma;
	uint64_t a, b;
	int err;

	if (!str || strlen(str) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, str);
	comma = strchr(buf, ',');
	if (!comma)
		return -EINVAL;
	*comma = '\0';
	err = parse__u64(buf, 0, INT32_MAX, &a);
	if (!err)
		err = parse__u64(comma + 1, 0, INT32_MAX, &b);
	if (err)
		return err == -ERANGE ? -EINVAL : err;
	if (a >= (uint64_t)nr_cpus || b >= (uint64_t)nr_cpus)
		return -ERANGE;
	if (a == b)
		return -EEXIST;
	*cpu_a = (int)a;
	*cpu_b = (int)b;
	return 0;
}

int parse__id_list(const char *str, uint64_t max_id, int32_t *ids, size_t room, size_t *n)
{
	const char *p = str;
	size_t count = 0;

	if (!str || !*str)
		return -EINVAL;
	for (;;) {
		char buf[24];
		size_t len = strcspn(p, ",");
		uint64_t v;
		int err;

		if (!len || len >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, p, len);
		buf[len] = '\0';
		err = parse__u64(buf, 1, max_id, &v);
		if (err)
			return err;
		for (size_t i = 0; i < count; i++)
			if (ids[i] == (int32_t)v)
				return -EEXIST;
		if (count == room)
			return -E2BIG;
		ids[count++] = (int32_t)v;
		if (!p[len])
			break;
		p += len + 1;
	}
	*n = count;
	return 0;
}

/* quote_byte - @c as a quote shows it: itself when printable ASCII, else \xNN; into @buf, its length */
static size_t quote_byte(unsigned char c, char buf[5])
{
	if (c >= 0x20 && c < 0x7f) {
		buf[0] = (char)c;
		buf[1] = '\0';
		return 1;
	}
	return (size_t)snprintf(buf, 5, "\\x%02x", c);
}

void parse__quote(const char *s, size_t n, char out[PARSE_QUOTE_LEN])
{
	size_t o = 0, i;

	for (i = 0; i < n && s[i] && i < PARSE_QUOTE_MAX; i++)
		o += quote_byte((unsigned char)s[i], out + o);
	if (i < n && s[i])
		o += (size_t)snprintf(out + o, PARSE_QUOTE_LEN - o, "...");
	out[o] = '\0';
}

void parse__quote_to(FILE *f, const char *s, size_t max)
{
	char buf[5];
	size_t i;

	for (i = 0; s[i] && i < max; i++) {
		quote_byte((unsigned char)s[i], buf);
		fputs(buf, f);
	}
}

const char *parse__shown(const char *s)
{
	static char bufs[4][PARSE_QUOTE_LEN];
	static unsigned int which;
	char *out = bufs[which++ % 4];

	parse__quote(s, SIZE_MAX, out);
	return out;
}
