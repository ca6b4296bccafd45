// SPDX-License-Identifier: GPL-2.0
/* json_reader.c - a strict JSON (RFC 8259) reader into a tree held in one arena */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hash.h"
#include "json_reader.h"
#include "json_writer.h"

/* arena chunks start small, for the common small document, and double up to this */
#define CHUNK_MIN	4096
#define CHUNK_MAX	(1024 * 1024)
#define ARENA_ALIGN	16
/* how much of a key a duplicate-key error quotes */
#define KEY_QUOTE_MAX	40

struct json_member {
	const char *key;		/* NULL in an array */
	const struct json_node *value;
};

struct json_node {
	enum json_type type;
	bool is_u64;			/* a number written as a whole number that fits a uint64_t: u64 holds it */
	size_t len;			/* a string's bytes; a container's members */
	union {
		double number;
		const char *string;
		const struct json_member *members;
	};
	uint64_t u64;
};

struct arena_chunk {
	struct arena_chunk *next;
	size_t size, used;
	_Alignas(ARENA_ALIGN) unsigned char data[];
};

struct json_doc {
	struct arena_chunk *chunks;	/* newest first */
	const struct json_node *root;
};

/* the literals carry nothing of their own, so every occurrence is the same node */
static const struct json_node null_node = { .type = JSON_NULL };
static const struct json_node false_node = { .type = JSON_FALSE };
static const struct json_node true_node = { .type = JSON_TRUE };

/* a key seen in an object still open or already closed: object tells them apart */
struct key_slot {
	uint64_t hash;
	uint64_t object;	/* serial number of the object, from 1 */
	const char *key;	/* NULL: the slot is free */
	size_t len;
};

struct parser {
	const unsigned char *text;
	size_t len, pos;
	struct json_doc *doc;
	size_t budget;			/* bytes that may still be allocated */
	/* the members of every container being read, innermost last; a container takes its own on closing */
	struct json_member *stack;
	size_t stack_top, stack_cap;
	/* every key read so far, to find a duplicate in constant time however large the object */
	struct key_slot *keys;
	size_t nr_keys, keys_cap;
	uint64_t objects;		/* objects begun */
	char *scratch;			/* a number's text, NUL-terminated for strtod */
	size_t scratch_cap;
	char *err;
	size_t errlen;
};

/* ---------------------------------------------------------------- memory */

static void *budget_alloc(struct parser *p, size_t size)
{
	void *ptr;

	if (size > p->budget)
		return NULL;
	ptr = malloc(size);
	if (ptr)
		p->budget -= size;
	return ptr;
}

static void budget_free(struct parser *p, void *ptr, size_t size)
{
	if (!ptr)
		return;
	free(ptr);
	p->budget += size;
}

/* arena_alloc - @size bytes that live as long as the document, aligned for any node */
static void *arena_alloc(struct parser *p, size_t size)
{
	struct arena_chunk *c = p->doc->chunks;
	void *ptr;

	size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (!c || c->size - c->used < size) {
		size_t want = c ? c->size * 2 : CHUNK_MIN;

		if (want > CHUNK_MAX)
			want = CHUNK_MAX;
		if (want < size)
			want = size;
		c = budget_alloc(p, sizeof(*c) + want);
		if (!c)
			return NULL;
		c->size = want;
		c->used = 0;
		c->next = p->doc->chunks;
		p->doc->chunks = c;
	}
	ptr = c->data + c->used;
	c->used += size;
	return ptr;
}

/* ---------------------------------------------------------------- errors */

/* line_column - the 1-based line and byte column of @pos: lines end at LF (a CR before it is the line's last byte) */
static void line_column(const struct parser *p, size_t pos, size_t *line, size_t *column)
{
	size_t i, line_start = 0;

	*line = 1;
	for (i = 0; i < pos && i < p->len; i++)
		if (p->text[i] == '\n') {
			(*line)++;
			line_start = i + 1;
		}
	*column = pos - line_start + 1;
}

static int fail(struct parser *p, size_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* fail - the error at @pos, as one line in the caller's buffer: -EINVAL */
static int fail(struct parser *p, size_t pos, const char *fmt, ...)
{
	size_t line, column;
	char msg[160];
	va_list ap;

	if (!p->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	line_column(p, pos, &line, &column);
	snprintf(p->err, p->errlen, "line %zu, column %zu: %s", line, column, msg);
	return -EINVAL;
}

/* fail_found - "@what, found X" at the parser's position, X what is there: the message stays one printable line */
static int fail_found(struct parser *p, const char *what)
{
	unsigned char c;

	if (p->pos >= p->len)
		return fail(p, p->pos, "%s, found the end of the input", what);
	c = p->text[p->pos];
	if (c > ' ' && c < 0x7f)
		return fail(p, p->pos, "%s, found '%c'", what, c);
	return fail(p, p->pos, "%s, found byte 0x%02x", what, c);
}

static int out_of_memory(struct parser *p)
{
	if (p->errlen)
		snprintf(p->err, p->errlen, "out of memory");
	return -ENOMEM;
}

/*
 * quote_key - @key (valid UTF-8, @n bytes) for a message: quote, backslash
 * and control characters escaped so the message stays one line, cut at
 * KEY_QUOTE_MAX bytes on a character's boundary
 */
static void quote_key(char *buf, size_t cap, const char *key, size_t n)
{
	size_t i, o = 0;

	for (i = 0; i < n && o + 8 < cap; i++) {
		unsigned char c = (unsigned char)key[i];

		if (i == KEY_QUOTE_MAX) {
			size_t lead = i;

			/* drop the start of a character cut in two (copied byte for byte), then say the key goes on */
			while (lead > 0 && ((unsigned char)key[lead] & 0xc0) == 0x80)
				lead--;
			o -= i - lead;
			o += snprintf(buf + o, cap - o, "...");
			break;
		}
		if (c == '"' || c == '\\')
			o += snprintf(buf + o, cap - o, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			o += snprintf(buf + o, cap - o, "\\u%04x", c);
		else
			buf[o++] = (char)c;
	}
	buf[o] = '\0';
}

/* ---------------------------------------------------------------- lexing */

static void skip_whitespace(struct parser *p)
{
	while (p->pos < p->len) {
		unsigned char c = p->text[p->pos];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			return;
		p->pos++;
	}
}

static bool is_digit(const struct parser *p, size_t i)
{
	return i < p->len && p->text[i] >= '0' && p->text[i] <= '9';
}

static size_t utf8_encode(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* hex4 - the four hex digits at @i, into *@cp; false if there are not four */
static bool hex4(const struct parser *p, size_t i, uint32_t *cp)
{
	size_t k;

	if (i > p->len || p->len - i < 4)
		return false;
	*cp = 0;
	for (k = 0; k < 4; k++) {
		unsigned char c = p->text[i + k];

		*cp <<= 4;
		if (c >= '0' && c <= '9')
			*cp |= c - '0';
		else if (c >= 'a' && c <= 'f')
			*cp |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			*cp |= c - 'A' + 10;
		else
			return false;
	}
	return true;
}

/*
 * unicode_escape - the \uXXXX (and the low half of a surrogate pair after
 * it) at @i, the backslash's offset: the code point in *@cp and the bytes
 * it took in *@taken
 */
static int unicode_escape(struct parser *p, size_t i, uint32_t *cp, size_t *taken)
{
	uint32_t low;

	*taken = 6;
	if (!hex4(p, i + 2, cp))
		return fail(p, i, "expected four hex digits after \\u");
	if (*cp >= 0xdc00 && *cp <= 0xdfff)
		return fail(p, i, "lone surrogate \\u%04x: a low surrogate needs a high one before it", *cp);
	if (*cp >= 0xd800 && *cp <= 0xdbff) {
		if (p->len - i < 8 || p->text[i + 6] != '\\' || p->text[i + 7] != 'u')
			return fail(p, i, "lone surrogate \\u%04x: expected a low surrogate \\uDC00..\\uDFFF after it",
				    *cp);
		if (!hex4(p, i + 8, &low))
			return fail(p, i + 6, "expected four hex digits after \\u");
		if (low < 0xdc00 || low > 0xdfff)
			return fail(p, i, "lone surrogate \\u%04x: expected a low surrogate \\uDC00..\\uDFFF after it",
				    *cp);
		*cp = 0x10000 + ((*cp - 0xd800) << 10) + (low - 0xdc00);
		*taken = 12;
	}
	if (!*cp)
		return fail(p, i, "\\u0000 is not allowed in a string");
	return 0;
}

/*
 * parse_string - the string whose opening quote is at the parser's
 * position: decoded, NUL-terminated, in the arena. Decoding never makes a
 * string longer (an escape's UTF-8 is shorter than the escape), so its
 * buffer is sized by the bytes up to the closing quote.
 */
static int parse_string(struct parser *p, const char **out, size_t *out_len)
{
	const unsigned char *t = p->text;
	size_t start = p->pos + 1, end = start, i, o = 0, n;
	uint32_t cp;
	char *buf;
	int err;

	while (end < p->len && t[end] != '"')
		end += t[end] == '\\' ? 2 : 1;
	if (end > p->len)
		end = p->len;
	buf = arena_alloc(p, end - start + 1);
	if (!buf)
		return out_of_memory(p);
	i = start;
	for (;;) {
		unsigned char c;

		if (i >= p->len)
			return fail(p, p->len, "expected '\"' to end the string, found the end of the input");
		c = t[i];
		if (c == '"')
			break;
		if (c < 0x20)
			return fail(p, i, "control character 0x%02x in a string: it must be escaped", c);
		if (c < 0x80 && c != '\\') {
			buf[o++] = (char)c;
			i++;
			continue;
		}
		if (c >= 0x80) {
			n = json_writer__utf8_len(t + i, p->len - i);
			if (!n)
				return fail(p, i, "invalid UTF-8 byte 0x%02x in a string", c);
			memcpy(buf + o, t + i, n);
			o += n;
			i += n;
			continue;
		}
		if (i + 1 >= p->len)
			return fail(p, p->len, "expected an escape after '\\', found the end of the input");
		switch (t[i + 1]) {
		case '"':
		case '\\':
		case '/':
			buf[o++] = (char)t[i + 1];
			break;
		case 'b':
			buf[o++] = '\b';
			break;
		case 'f':
			buf[o++] = '\f';
			break;
		case 'n':
			buf[o++] = '\n';
			break;
		case 'r':
			buf[o++] = '\r';
			break;
		case 't':
			buf[o++] = '\t';
			break;
		case 'u':
			err = unicode_escape(p, i, &cp, &n);
			if (err)
				return err;
			o += utf8_encode(buf + o, cp);
			i += n;
			continue;
		default:
			if (t[i + 1] > ' ' && t[i + 1] < 0x7f)
				return fail(p, i, "invalid escape '\\%c' in a string", t[i + 1]);
			return fail(p, i, "invalid escape '\\' then byte 0x%02x in a string", t[i + 1]);
		}
		i += 2;
	}
	buf[o] = '\0';
	p->pos = i + 1;
	*out = buf;
	*out_len = o;
	return 0;
}

static struct json_node *new_node(struct parser *p, enum json_type type)
{
	struct json_node *n = arena_alloc(p, sizeof(*n));

	if (n) {
		memset(n, 0, sizeof(*n));
		n->type = type;
	}
	return n;
}

/*
 * parse_number - RFC 8259's number at the parser's position: its double,
 * and, when written as a whole number that fits, its exact uint64_t
 */
static int parse_number(struct parser *p, const struct json_node **out)
{
	size_t start = p->pos, i = p->pos, len;
	bool negative = false, whole = true;
	struct json_node *n;
	uint64_t v = 0;
	char *end;

	if (p->text[i] == '-') {
		negative = true;
		i++;
		if (!is_digit(p, i))
			return fail(p, i, "expected a digit after '-'");
	}
	if (p->text[i] == '0') {
		i++;
		if (is_digit(p, i))
			return fail(p, start, "leading zeros are not allowed in a number");
	} else {
		while (is_digit(p, i))
			i++;
	}
	if (i < p->len && p->text[i] == '.') {
		whole = false;
		i++;
		if (!is_digit(p, i))
			return fail(p, i, "expected a digit after the decimal point");
		while (is_digit(p, i))
			i++;
	}
	if (i < p->len && (p->text[i] == 'e' || p->text[i] == 'E')) {
		whole = false;
		i++;
		if (i < p->len && (p->text[i] == '+' || p->text[i] == '-'))
			i++;
		if (!is_digit(p, i))
			return fail(p, i, "expected a digit in the exponent");
		while (is_digit(p, i))
			i++;
	}
	len = i - start;
	n = new_node(p, JSON_NUMBER);
	if (!n)
		return out_of_memory(p);
	if (len + 1 > p->scratch_cap) {
		budget_free(p, p->scratch, p->scratch_cap);
		p->scratch_cap = 0;
		p->scratch = budget_alloc(p, len + 1);
		if (!p->scratch)
			return out_of_memory(p);
		p->scratch_cap = len + 1;
	}
	memcpy(p->scratch, p->text + start, len);
	p->scratch[len] = '\0';
	/* glibc's strtod rounds correctly; wakeprobe never sets LC_NUMERIC, so the point is '.' */
	n->number = strtod(p->scratch, &end);
	if (end != p->scratch + len)
		return fail(p, start, "number not read whole (is LC_NUMERIC set?)");
	if (isinf(n->number))
		return fail(p, start, "number out of the range of a double");
	if (whole && !negative) {
		/* exact from the text: a double holds only 53 bits */
		n->is_u64 = true;
		for (i = start; i < start + len; i++) {
			unsigned int d = p->text[i] - '0';

			if (v > (UINT64_MAX - d) / 10) {
				n->is_u64 = false;
				break;
			}
			v = v * 10 + d;
		}
		n->u64 = v;
	}
	p->pos = start + len;
	*out = n;
	return 0;
}

static int parse_literal(struct parser *p, const struct json_node **out)
{
	static const struct {
		const char *word;
		const struct json_node *node;
	} literals[] = { { "true", &true_node }, { "false", &false_node }, { "null", &null_node } };
	size_t k, n;

	for (k = 0; k < sizeof(literals) / sizeof(literals[0]); k++) {
		if (p->text[p->pos] != literals[k].word[0])
			continue;
		n = strlen(literals[k].word);
		if (p->len - p->pos < n || memcmp(p->text + p->pos, literals[k].word, n))
			return fail(p, p->pos, "invalid literal: expected '%s'", literals[k].word);
		p->pos += n;
		*out = literals[k].node;
		return 0;
	}
	return fail_found(p, "expected a value");
}

/* ---------------------------------------------------------------- containers */

static int push_member(struct parser *p, const char *key, const struct json_node *value)
{
	if (p->stack_top == p->stack_cap) {
		size_t cap = p->stack_cap ? p->stack_cap * 2 : 64;
		struct json_member *stack = budget_alloc(p, cap * sizeof(*stack));

		if (!stack)
			return out_of_memory(p);
		if (p->stack_top)
			memcpy(stack, p->stack, p->stack_top * sizeof(*stack));
		budget_free(p, p->stack, p->stack_cap * sizeof(*p->stack));
		p->stack = stack;
		p->stack_cap = cap;
	}
	p->stack[p->stack_top].key = key;
	p->stack[p->stack_top].value = value;
	p->stack_top++;
	return 0;
}

/* close_container - @n takes the members pushed since @base, into the arena */
static int close_container(struct parser *p, struct json_node *n, size_t base)
{
	struct json_member *members = NULL;

	n->len = p->stack_top - base;
	if (n->len) {
		members = arena_alloc(p, n->len * sizeof(*members));
		if (!members)
			return out_of_memory(p);
		memcpy(members, p->stack + base, n->len * sizeof(*members));
	}
	n->members = members;
	p->stack_top = base;
	return 0;
}

static uint64_t key_hash(uint64_t object, const char *key, size_t len)
{
	/* FNV-1a, seeded by the object */
	uint64_t h = hash__fnv1a(HASH_FNV_BASIS ^ (object * 0x9e3779b97f4a7c15ULL), key, len);

	return h ^ (h >> 29);
}

/* key_slot_find - where @key of @object is in @slots, or the free slot where it would go */
static struct key_slot *key_slot_find(struct key_slot *slots, size_t cap, uint64_t hash, uint64_t object,
				      const char *key, size_t len)
{
	size_t i = hash & (cap - 1);

	while (slots[i].key && !(slots[i].hash == hash && slots[i].object == object && slots[i].len == len &&
				 !memcmp(slots[i].key, key, len)))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

/*
 * add_key - remember @key of @object, read at @pos; an error naming it if
 * the object has it already. One table for the whole document, kept at
 * most half full, so a document with 100000 keys in one object costs no
 * more than one with 100000 small objects.
 */
static int add_key(struct parser *p, uint64_t object, const char *key, size_t len, size_t pos)
{
	uint64_t hash = key_hash(object, key, len);
	struct key_slot *slot;

	if ((p->nr_keys + 1) * 2 > p->keys_cap) {
		size_t cap = p->keys_cap ? p->keys_cap * 2 : 64, i;
		struct key_slot *slots = budget_alloc(p, cap * sizeof(*slots));

		if (!slots)
			return out_of_memory(p);
		memset(slots, 0, cap * sizeof(*slots));
		for (i = 0; i < p->keys_cap; i++)
			if (p->keys[i].key)
				*key_slot_find(slots, cap, p->keys[i].hash, p->keys[i].object, p->keys[i].key,
					       p->keys[i].len) = p->keys[i];
		budget_free(p, p->keys, p->keys_cap * sizeof(*p->keys));
		p->keys = slots;
		p->keys_cap = cap;
	}
	slot = key_slot_find(p->keys, p->keys_cap, hash, object, key, len);
	if (slot->key) {
		char quoted[KEY_QUOTE_MAX * 6 + 16];

		quote_key(quoted, sizeof(quoted), key, len);
		return fail(p, pos, "duplicate key \"%s\" in an object", quoted);
	}
	slot->hash = hash;
	slot->object = object;
	slot->key = key;
	slot->len = len;
	p->nr_keys++;
	return 0;
}

static int parse_value(struct parser *p, unsigned int depth, const struct json_node **out);

/* parse_array - the array whose '[' is at the parser's position, @depth containers deep counting itself */
static int parse_array(struct parser *p, unsigned int depth, const struct json_node **out)
{
	size_t base = p->stack_top;
	const struct json_node *item;
	struct json_node *n;
	int err;

	n = new_node(p, JSON_ARRAY);
	if (!n)
		return out_of_memory(p);
	p->pos++;
	skip_whitespace(p);
	if (p->pos < p->len && p->text[p->pos] == ']') {
		p->pos++;
		*out = n;
		return 0;
	}
	for (;;) {
		err = parse_value(p, depth, &item);
		if (err)
			return err;
		err = push_member(p, NULL, item);
		if (err)
			return err;
		skip_whitespace(p);
		if (p->pos < p->len && p->text[p->pos] == ']')
			break;
		if (p->pos >= p->len || p->text[p->pos] != ',')
			return fail_found(p, "expected ',' or ']' after an array element");
		p->pos++;
	}
	p->pos++;
	err = close_container(p, n, base);
	if (err)
		return err;
	*out = n;
	return 0;
}

/* parse_object - the object whose '{' is at the parser's position, @depth containers deep counting itself */
static int parse_object(struct parser *p, unsigned int depth, const struct json_node **out)
{
	size_t base = p->stack_top, key_len, key_pos;
	uint64_t object = ++p->objects;
	const struct json_node *value;
	struct json_node *n;
	const char *key;
	int err;

	n = new_node(p, JSON_OBJECT);
	if (!n)
		return out_of_memory(p);
	p->pos++;
	skip_whitespace(p);
	if (p->pos < p->len && p->text[p->pos] == '}') {
		p->pos++;
		*out = n;
		return 0;
	}
	for (;;) {
		if (p->pos >= p->len || p->text[p->pos] != '"')
			return fail_found(p, p->stack_top == base ? "expected a string key or '}'"
								  : "expected a string key after ','");
		key_pos = p->pos;
		err = parse_string(p, &key, &key_len);
		if (err)
			return err;
		err = add_key(p, object, key, key_len, key_pos);
		if (err)
			return err;
		skip_whitespace(p);
		if (p->pos >= p->len || p->text[p->pos] != ':')
			return fail_found(p, "expected ':' after an object key");
		p->pos++;
		err = parse_value(p, depth, &value);
		if (err)
			return err;
		err = push_member(p, key, value);
		if (err)
			return err;
		skip_whitespace(p);
		if (p->pos < p->len && p->text[p->pos] == '}')
			break;
		if (p->pos >= p->len || p->text[p->pos] != ',')
			return fail_found(p, "expected ',' or '}' after an object member");
		p->pos++;
		skip_whitespace(p);
	}
	p->pos++;
	err = close_container(p, n, base);
	if (err)
		return err;
	*out = n;
	return 0;
}

/* parse_value - the value after any whitespace at the parser's position, inside @depth containers */
static int parse_value(struct parser *p, unsigned int depth, const struct json_node **out)
{
	const char *s;
	struct json_node *n;
	size_t len;
	int err;

	skip_whitespace(p);
	if (p->pos >= p->len)
		return fail_found(p, "expected a value");
	switch (p->text[p->pos]) {
	case '[':
	case '{':
		if (depth == JSON_READER_MAX_DEPTH)
			return fail(p, p->pos, "arrays and objects nested deeper than %d levels",
				    JSON_READER_MAX_DEPTH);
		if (p->text[p->pos] == '[')
			return parse_array(p, depth + 1, out);
		return parse_object(p, depth + 1, out);
	case '"':
		err = parse_string(p, &s, &len);
		if (err)
			return err;
		n = new_node(p, JSON_STRING);
		if (!n)
			return out_of_memory(p);
		n->string = s;
		n->len = len;
		*out = n;
		return 0;
	case '-':
	case '0' ... '9':
		return parse_number(p, out);
	default:
		return parse_literal(p, out);
	}
}

/* ---------------------------------------------------------------- the document */

struct json_doc *json_reader__parse_bounded(const char *text, size_t len, size_t max_bytes, char *err,
					    size_t errlen)
{
	struct parser p = {
		.text = (const unsigned char *)text,
		.len = len,
		.budget = max_bytes,
		.err = err,
		.errlen = err ? errlen : 0,
	};
	const struct json_node *root = NULL;
	int ret;

	p.doc = budget_alloc(&p, sizeof(*p.doc));
	if (!p.doc) {
		out_of_memory(&p);
		return NULL;
	}
	p.doc->chunks = NULL;
	p.doc->root = NULL;
	if (!len) {
		ret = fail(&p, 0, "empty input: expected a JSON value");
		goto out;
	}
	ret = parse_value(&p, 0, &root);
	if (ret)
		goto out;
	skip_whitespace(&p);
	if (p.pos < p.len) {
		ret = fail_found(&p, "expected the end of the input after the value");
		goto out;
	}
	p.doc->root = root;
out:
	free(p.stack);
	free(p.keys);
	free(p.scratch);
	if (ret) {
		json_reader__free(p.doc);
		return NULL;
	}
	return p.doc;
}

struct json_doc *json_reader__parse(const char *text, size_t len, char *err, size_t errlen)
{
	return json_reader__parse_bounded(text, len, SIZE_MAX, err, errlen);
}

void json_reader__free(struct json_doc *d)
{
	struct arena_chunk *c, *next;

	if (!d)
		return;
	for (c = d->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	free(d);
}

const struct json_node *json_reader__root(const struct json_doc *d)
{
	return d ? d->root : NULL;
}

enum json_type json_reader__type(const struct json_node *n)
{
	return n ? n->type : JSON_NULL;
}

const struct json_node *json_reader__get(const struct json_node *n, const char *key)
{
	size_t i;

	if (!n || n->type != JSON_OBJECT || !key)
		return NULL;
	for (i = 0; i < n->len; i++)
		if (!strcmp(n->members[i].key, key))
			return n->members[i].value;
	return NULL;
}

size_t json_reader__len(const struct json_node *n)
{
	if (!n || (n->type != JSON_ARRAY && n->type != JSON_OBJECT))
		return 0;
	return n->len;
}

const struct json_node *json_reader__at(const struct json_node *n, size_t i)
{
	if (i >= json_reader__len(n))
		return NULL;
	return n->members[i].value;
}

const char *json_reader__key_at(const struct json_node *n, size_t i)
{
	if (!n || n->type != JSON_OBJECT || i >= n->len)
		return NULL;
	return n->members[i].key;
}

const char *json_reader__string(const struct json_node *n)
{
	return n && n->type == JSON_STRING ? n->string : NULL;
}

bool json_reader__double(const struct json_node *n, double *out)
{
	if (!n || n->type != JSON_NUMBER)
		return false;
	*out = n->number;
	return true;
}

bool json_reader__u64(const struct json_node *n, uint64_t *out)
{
	if (!n || n->type != JSON_NUMBER || !n->is_u64)
		return false;
	*out = n->u64;
	return true;
}

bool json_reader__get_u64(const struct json_node *n, const char *key, uint64_t *out)
{
	return json_reader__u64(json_reader__get(n, key), out);
}

bool json_reader__get_double(const struct json_node *n, const char *key, double *out)
{
	return json_reader__double(json_reader__get(n, key), out);
}

const char *json_reader__get_string(const struct json_node *n, const char *key)
{
	return json_reader__string(json_reader__get(n, key));
}

void json_reader__write(struct json_writer *w, const struct json_node *n)
{
	uint64_t u;
	double d;
	size_t i;

	switch (json_reader__type(n)) {
	case JSON_NULL:
		json_writer__null(w);
		break;
	case JSON_FALSE:
	case JSON_TRUE:
		json_writer__bool(w, json_reader__type(n) == JSON_TRUE);
		break;
	case JSON_NUMBER:
		/* a count stays exact past 2^53; the reader keeps a whole number's digits */
		if (json_reader__u64(n, &u))
			json_writer__uint(w, u);
		else if (json_reader__double(n, &d))
			json_writer__double(w, d);
		break;
	case JSON_STRING:
		json_writer__string(w, json_reader__string(n));
		break;
	case JSON_ARRAY:
		json_writer__begin_array(w);
		for (i = 0; i < json_reader__len(n); i++)
			json_reader__write(w, json_reader__at(n, i));
		json_writer__end_array(w);
		break;
	case JSON_OBJECT:
		json_writer__begin_object(w);
		for (i = 0; i < json_reader__len(n); i++) {
			json_writer__key(w, json_reader__key_at(n, i));
			json_reader__write(w, json_reader__at(n, i));
		}
		json_writer__end_object(w);
		break;
	}
}
