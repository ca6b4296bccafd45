/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_reader.h - a small strict JSON reader: one document (RFC 8259) in a
 * buffer becomes a tree of nodes that the caller walks and looks up.
 *
 * wakeprobe reads documents that other programs print (the throughput
 * workloads' --json, schema "wakeprobe-throughput"), so it accepts exactly
 * RFC 8259 and says where anything else is wrong rather than guessing:
 *   - one value, with only space, tab, CR and LF around it; empty input is
 *     an error;
 *   - numbers in the RFC's grammar: no leading zeros, no '+', no ".5" or
 *     "1.", no NaN or Infinity; one too large for a double is an error;
 *   - strings: no raw control characters (below 0x20); the escapes \" \\ \/
 *     \b \f \n \r \t and \uXXXX, a surrogate pair combined into one UTF-8
 *     character and a lone surrogate rejected, as is \u0000 (a value is a
 *     C string); raw bytes must be valid UTF-8 (no overlong forms, no
 *     surrogates, nothing past U+10FFFF);
 *   - arrays and objects nested at most JSON_READER_MAX_DEPTH deep; a key
 *     given twice in one object is an error naming the key.
 * An error is one line: "line 3, column 14: expected ',' or '}' after an
 * object member", lines and columns from 1, a column counted in bytes, or
 * "out of memory".
 *
 * Ownership: the document (struct json_doc) owns every node and every
 * string in it, in one arena freed at once by json_reader__free(); the
 * input buffer is not referred to after parsing. Memory grows with the
 * input: 37 bytes per input byte at most in the worst case measured (a
 * long array of one-digit numbers), about 18 for an object's members;
 * json_reader__parse_bounded() caps it.
 * Nodes are read-only; a document may be read by several threads at once.
 *
 * Lookups: every accessor takes NULL for a node and answers as for a node of
 * the wrong type, so a chain (get, then get, then u64) needs one check at
 * the end. json_reader__get() is a linear scan of the object's members: the
 * objects read here have tens of members, not thousands.
 */
#ifndef WAKEPROBE_JSON_READER_H
#define WAKEPROBE_JSON_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* arrays and objects nested deeper than this are rejected: recursion stays bounded */
#define JSON_READER_MAX_DEPTH 64

enum json_type { JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };
struct json_node;	/* opaque outside json_reader.c */
struct json_doc;	/* owns every node and string */
struct json_writer;	/* json_writer.h */

/*
 * json_reader__parse - parse @len bytes of @text (need not be
 * NUL-terminated): the document, or NULL with one line in @err (at most
 * @errlen bytes with its NUL; @err may be NULL if @errlen is 0). @err is
 * not touched on success.
 */
struct json_doc *json_reader__parse(const char *text, size_t len, char *err, size_t errlen);

/*
 * json_reader__parse_bounded - json_reader__parse(), allocating at most
 * @max_bytes in all (the arena and the parser's own work space): past it
 * the parse fails with "out of memory", for input that may be hostile.
 */
struct json_doc *json_reader__parse_bounded(const char *text, size_t len, size_t max_bytes, char *err,
					    size_t errlen);

/* json_reader__free - the document and everything in it; NULL is fine */
void json_reader__free(struct json_doc *d);

/* json_reader__root - the document's one top-level value; NULL for a NULL document */
const struct json_node *json_reader__root(const struct json_doc *d);

/* json_reader__type - what @n is; JSON_NULL for NULL */
enum json_type json_reader__type(const struct json_node *n);

/* json_reader__get - the member @key of an object; NULL if @n is NULL, not an object, or has no such member */
const struct json_node *json_reader__get(const struct json_node *n, const char *key);

/* json_reader__len - members of an object or elements of an array; 0 for anything else or NULL */
size_t json_reader__len(const struct json_node *n);

/*
 * json_reader__at - the @i-th element of an array, or the value of the
 * @i-th member of an object (document order); NULL past the end or for
 * anything else
 */
const struct json_node *json_reader__at(const struct json_node *n, size_t i);

/* json_reader__key_at - the key of an object's @i-th member; NULL if not an object or past the end */
const char *json_reader__key_at(const struct json_node *n, size_t i);

/* json_reader__string - a string's value, NUL-terminated UTF-8 with its escapes decoded; NULL if not a string */
const char *json_reader__string(const struct json_node *n);

/* json_reader__double - a number as the nearest double: true and *@out, or false if @n is not a number */
bool json_reader__double(const struct json_node *n, double *out);

/*
 * json_reader__u64 - a number written as a whole number in [0,
 * UINT64_MAX] without fraction or exponent ("123"), exactly, from its text
 * rather than through a double: true and *@out; false for anything else
 * (not a number, negative, "1.0", "1e3", too large). "-0" is not one.
 */
bool json_reader__u64(const struct json_node *n, uint64_t *out);

/* json_reader__get_* - json_reader__get() then __u64, __double or __string: false or NULL if any step fails */
bool json_reader__get_u64(const struct json_node *n, const char *key, uint64_t *out);
bool json_reader__get_double(const struct json_node *n, const char *key, double *out);
const char *json_reader__get_string(const struct json_node *n, const char *key);

/*
 * json_reader__write - @n written again on @w (json_writer.h): objects keep
 * their members in the order read, strings their characters, a whole
 * number its digits; any other number is written as the double it was
 * read as, in its shortest form. Nesting past JSON_WRITER_MAX_DEPTH is the
 * writer's misuse, as for any value it is given.
 */
void json_reader__write(struct json_writer *w, const struct json_node *n);

#endif /* WAKEPROBE_JSON_READER_H */
