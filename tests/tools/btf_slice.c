// SPDX-License-Identifier: GPL-2.0
/*
 * btf_slice.c - a kernel's BTF cut down to some of its per-CPU variables,
 * for the unit tests' fixtures (tests/fixtures/btf/, made by
 * scripts/capture-percpu-btf.sh).
 *
 *   btf-slice IN OUT VAR...
 *
 * reads the raw BTF IN (as /sys/kernel/btf/vmlinux is) and writes to OUT a
 * raw BTF holding the .data..percpu DATASEC, of its own size, with only the
 * variables VAR... at their offsets and sizes, and the types of those
 * variables copied whole: every struct and union with all its members
 * (names, bit offsets, bitfield sizes, anonymous members), every array,
 * typedef, qualifier and enum they are made of. A pointer is the one thing
 * not followed: each becomes a void *, so that a struct rq does not bring
 * the rest of the kernel along, and the layout of what is copied stays as
 * it was. A VAR the section lacks is left out with a note: one list of
 * names serves kernels that differ in which they have.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#define SECTION	".data..percpu"

static const char *prog = "btf-slice";

struct slicer {
	const struct btf *in;
	struct btf *out;
	__u32 *map;		/* IN's type id -> OUT's; 0: not copied yet */
	unsigned char *busy;	/* being copied: met again below itself, a loop */
	int void_ptr;		/* OUT's one void *, every pointer's copy */
	const char *err;	/* what went wrong, for the one line */
	__u32 err_id;
};

static int fail(struct slicer *s, __u32 id, const char *what)
{
	if (!s->err) {
		s->err = what;
		s->err_id = id;
	}
	return -1;
}

static const char *name_of(const struct btf *btf, __u32 name_off)
{
	const char *name = btf__name_by_offset(btf, name_off);

	return name && name[0] ? name : NULL;
}

static int copy_type(struct slicer *s, __u32 id);

/* copy_composite - struct or union @t: its members' types first, as OUT takes the fields right after it */
static int copy_composite(struct slicer *s, const struct btf_type *t)
{
	const struct btf_member *m = btf_members(t);
	int n = btf_vlen(t), *types, id, i;

	types = calloc(n ? n : 1, sizeof(*types));
	if (!types)
		return -1;
	for (i = 0; i < n; i++) {
		types[i] = copy_type(s, m[i].type);
		if (types[i] < 0)
			goto out;
	}
	id = btf_is_struct(t) ? btf__add_struct(s->out, name_of(s->in, t->name_off), t->size)
			      : btf__add_union(s->out, name_of(s->in, t->name_off), t->size);
	for (i = 0; id > 0 && i < n; i++) {
		if (btf__add_field(s->out, name_of(s->in, m[i].name_off), types[i],
				   btf_member_bit_offset(t, i), btf_member_bitfield_size(t, i)))
			id = -1;
	}
	free(types);
	return id;
out:
	free(types);
	return -1;
}

/* copy_func_proto - the return and parameter types first, then the prototype and its parameters */
static int copy_func_proto(struct slicer *s, const struct btf_type *t)
{
	const struct btf_param *p = btf_params(t);
	int n = btf_vlen(t), *types, ret, id = -1, i;

	types = calloc(n ? n : 1, sizeof(*types));
	if (!types)
		return -1;
	ret = copy_type(s, t->type);
	for (i = 0; ret >= 0 && i < n; i++) {
		types[i] = copy_type(s, p[i].type);
		if (types[i] < 0)
			goto out;
	}
	if (ret < 0)
		goto out;
	id = btf__add_func_proto(s->out, ret);
	for (i = 0; id > 0 && i < n; i++) {
		if (btf__add_func_param(s->out, name_of(s->in, p[i].name_off), types[i]))
			id = -1;
	}
out:
	free(types);
	return id;
}

/* copy_kind - IN's type @id (@t) added to OUT, what it refers to first: OUT's id, or -1 */
static int copy_kind(struct slicer *s, __u32 id, const struct btf_type *t)
{
	const char *name = name_of(s->in, t->name_off);
	int ref, idx;

	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FWD:
		/* they refer to no other type: taken as they are, encoding, sign and values with them */
		return btf__add_type(s->out, s->in, t);
	case BTF_KIND_PTR:
		if (!s->void_ptr)
			s->void_ptr = btf__add_ptr(s->out, 0);
		return s->void_ptr;
	case BTF_KIND_ARRAY:
		ref = copy_type(s, btf_array(t)->type);
		idx = ref < 0 ? -1 : copy_type(s, btf_array(t)->index_type);
		return idx < 0 ? -1 : btf__add_array(s->out, idx, ref, btf_array(t)->nelems);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return copy_composite(s, t);
	case BTF_KIND_FUNC_PROTO:
		return copy_func_proto(s, t);
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_DECL_TAG:
		/* a tag with kflag set is an attribute, which this libbpf cannot add */
		if (btf_kflag(t))
			return fail(s, id, "is a tag with kflag set (an attribute), which cannot be copied");
		break;
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_VAR:
		break;
	default:
		return fail(s, id, "is of a kind not copied here (a DATASEC, or one newer than this tool)");
	}
	ref = copy_type(s, t->type);
	if (ref < 0)
		return -1;
	switch (btf_kind(t)) {
	case BTF_KIND_TYPEDEF:
		return btf__add_typedef(s->out, name, ref);
	case BTF_KIND_VOLATILE:
		return btf__add_volatile(s->out, ref);
	case BTF_KIND_CONST:
		return btf__add_const(s->out, ref);
	case BTF_KIND_RESTRICT:
		return btf__add_restrict(s->out, ref);
	case BTF_KIND_TYPE_TAG:
		return btf__add_type_tag(s->out, name, ref);
	case BTF_KIND_DECL_TAG:
		return btf__add_decl_tag(s->out, name, ref, btf_decl_tag(t)->component_idx);
	case BTF_KIND_FUNC:
		/* a FUNC keeps its linkage where other kinds keep their vlen */
		return btf__add_func(s->out, name, btf_vlen(t), ref);
	default:
		return btf__add_var(s->out, name, btf_var(t)->linkage, ref);
	}
}

/* copy_type - IN's type @id in OUT, copied once: OUT's id (0 for void), or -1 */
static int copy_type(struct slicer *s, __u32 id)
{
	const struct btf_type *t;
	int got;

	if (!id)
		return 0;
	if (id >= btf__type_cnt(s->in))
		return fail(s, id, "is out of range");
	if (s->map[id])
		return s->map[id];
	if (s->busy[id])
		return fail(s, id, "contains itself other than through a pointer");
	t = btf__type_by_id(s->in, id);
	s->busy[id] = 1;
	got = copy_kind(s, id, t);
	s->busy[id] = 0;
	if (got <= 0)
		return fail(s, id, "could not be added to the output");
	s->map[id] = got;
	return got;
}

/* copy_decl_tags - the tags IN hangs on the types copied, or on their members */
static int copy_decl_tags(struct slicer *s)
{
	__u32 n = btf__type_cnt(s->in), id;

	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(s->in, id);

		if (btf_is_decl_tag(t) && t->type < n && s->map[t->type] && copy_type(s, id) < 0)
			return -1;
	}
	return 0;
}

struct wanted {
	__u32 var;	/* OUT's VAR */
	__u32 offset, size;
};

/* slice - OUT's section: each of IN's @sec's variables named in @names, in IN's order; how many, or -1 */
static int slice(struct slicer *s, const struct btf_type *sec, char **names, int n_names)
{
	const struct btf_var_secinfo *vi = btf_var_secinfos(sec);
	struct wanted *keep;
	int n = 0, i, j, sec_id;

	keep = calloc(n_names, sizeof(*keep));
	if (!keep)
		return -1;
	for (i = 0; i < btf_vlen(sec); i++, vi++) {
		const struct btf_type *v = btf__type_by_id(s->in, vi->type);
		const char *name = v && btf_is_var(v) ? name_of(s->in, v->name_off) : NULL;
		int var;

		for (j = 0; name && j < n_names && strcmp(names[j], name); j++)
			;
		if (!name || j == n_names)
			continue;
		var = copy_type(s, vi->type);
		if (var < 0)
			goto out;
		keep[n++] = (struct wanted){ var, vi->offset, vi->size };
	}
	sec_id = btf__add_datasec(s->out, SECTION, sec->size);
	for (i = 0; sec_id > 0 && i < n; i++) {
		if (btf__add_datasec_var_info(s->out, keep[i].var, keep[i].offset, keep[i].size))
			sec_id = -1;
	}
	if (sec_id <= 0) {
		fail(s, 0, "could not be added to the output");
		goto out;
	}
	free(keep);
	return n;
out:
	free(keep);
	return -1;
}

/* has_var - whether @sec of @btf has a variable @name */
static int has_var(const struct btf *btf, const struct btf_type *sec, const char *name)
{
	const struct btf_var_secinfo *vi = btf_var_secinfos(sec);
	int i;

	for (i = 0; i < btf_vlen(sec); i++, vi++) {
		const struct btf_type *v = btf__type_by_id(btf, vi->type);

		if (v && btf_is_var(v) && !strcmp(btf__name_by_offset(btf, v->name_off), name))
			return 1;
	}
	return 0;
}

static int write_raw(const char *path, const void *data, __u32 size)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return -1;
	if (fwrite(data, 1, size, f) != size) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

int main(int argc, char **argv)
{
	struct slicer s = {};
	const struct btf_type *sec;
	const void *raw;
	struct btf *check;
	__u32 size;
	int id, n, i, j, ret = 1;

	if (argc < 4) {
		fprintf(stderr, "usage: %s IN OUT VAR...  (IN: a raw BTF such as /sys/kernel/btf/vmlinux)\n", prog);
		return 2;
	}
	for (i = 3; i < argc; i++) {
		for (j = 3; j < i; j++) {
			if (!strcmp(argv[i], argv[j])) {
				fprintf(stderr, "%s: %s is named twice\n", prog, argv[i]);
				return 2;
			}
		}
	}
	/* its warnings would come as lines of their own: errors are told here, in one */
	libbpf_set_print(NULL);
	s.in = btf__parse_raw(argv[1]);
	if (!s.in) {
		fprintf(stderr, "%s: %s: cannot read it as raw BTF: %s\n", prog, argv[1],
			errno == EPROTO || errno == EINVAL || errno == EIO ? "not a valid BTF" : strerror(errno));
		return 1;
	}
	id = btf__find_by_name_kind(s.in, SECTION, BTF_KIND_DATASEC);
	sec = id > 0 ? btf__type_by_id(s.in, id) : NULL;
	if (!sec) {
		fprintf(stderr, "%s: %s: no %s section (no per-CPU variables)\n", prog, argv[1], SECTION);
		goto out;
	}
	for (i = 3; i < argc; i++) {
		if (!has_var(s.in, sec, argv[i]))
			fprintf(stderr, "%s: note: %s has no per-CPU %s: left out\n", prog, argv[1], argv[i]);
	}
	s.out = btf__new_empty();
	s.map = calloc(btf__type_cnt(s.in), sizeof(*s.map));
	s.busy = calloc(btf__type_cnt(s.in), 1);
	if (!s.out || !s.map || !s.busy) {
		fprintf(stderr, "%s: out of memory\n", prog);
		goto out;
	}
	n = slice(&s, sec, argv + 3, argc - 3);
	if (n >= 0 && copy_decl_tags(&s))
		n = -1;
	if (n < 0) {
		if (s.err)
			fprintf(stderr, "%s: %s: type [%u] %s\n", prog, argv[1], s.err_id, s.err);
		else
			fprintf(stderr, "%s: out of memory\n", prog);
		goto out;
	}
	if (!n) {
		fprintf(stderr, "%s: %s: none of the variables named is in %s\n", prog, argv[1], SECTION);
		goto out;
	}
	raw = btf__raw_data(s.out, &size);
	/* read back what is to be written, as the tests will */
	check = raw ? btf__new(raw, size) : NULL;
	if (!check) {
		fprintf(stderr, "%s: the BTF written does not read back: %s\n", prog, strerror(errno));
		goto out;
	}
	btf__free(check);
	if (write_raw(argv[2], raw, size)) {
		fprintf(stderr, "%s: %s: %s\n", prog, argv[2], strerror(errno));
		remove(argv[2]);
		goto out;
	}
	printf("%s: %s: %d variables, %u types, %u bytes\n", prog, argv[2], n, btf__type_cnt(s.out) - 1, size);
	ret = 0;
out:
	free(s.map);
	free(s.busy);
	btf__free(s.out);
	btf__free((struct btf *)s.in);
	return ret;
}
