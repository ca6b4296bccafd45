/* SPDX-License-Identifier: GPL-2.0 */
/* hash.h - FNV-1a, 64 bits, over bytes: the hash of the small tables keyed by what they hold */
#ifndef WAKEPROBE_HASH_H
#define WAKEPROBE_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_FNV_BASIS	0xcbf29ce484222325ull

/* hash__fnv1a - @h, a hash so far (HASH_FNV_BASIS to begin), with the @n bytes at @p */
static inline uint64_t hash__fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * 0x100000001b3ull;
	return h;
}

#endif /* WAKEPROBE_HASH_H */
