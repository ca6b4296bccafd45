// SPDX-License-Identifier: GPL-2.0
/* cgroup_label.c - short readable labels for cgroup v2 paths, by the rules cgroup_label.h lists */
#include <stdbool.h>
#include <string.h>
#include "cgroup_label.h"

#define ID_LEN		64	/* a container id's hex digits */
#define ID_SHOWN	12	/* those a label keeps: docker ps's short id */

/* one component of a path: it points into the caller's path, without a NUL */
struct comp {
	const char *s;
	size_t len;
};

/* a path's components, the empty ones left out */
struct comps {
	struct comp c[CGROUP_LABEL_MAX_DEPTH];
	size_t n;
};

/* a label being written into @cap bytes with its NUL; @cut once something did not fit */
struct out {
	char *buf;
	size_t cap;
	size_t len;
	bool cut;
};

/* a container's cgroup, "<prefix><id>" or "<prefix><id>.scope", and the name a label gives it */
struct container_form {
	const char *prefix;
	const char *name;
	enum cgroup_runtime runtime;
	bool payload_child;	/* podman may put the container in a "container" cgroup of the scope */
};

/* crio-conmon- before crio-, libpod-conmon- before libpod-: the first prefix that fits is taken */
static const struct container_form forms[] = {
	{ "cri-containerd-", "containerd", CGROUP_RUNTIME_CONTAINERD, false },
	{ "nerdctl-", "containerd", CGROUP_RUNTIME_CONTAINERD, false },
	{ "crio-conmon-", "crio-conmon", CGROUP_RUNTIME_CRIO, false },
	{ "crio-", "crio", CGROUP_RUNTIME_CRIO, false },
	{ "docker-", "docker", CGROUP_RUNTIME_DOCKER, false },
	{ "libpod-conmon-", "podman-conmon", CGROUP_RUNTIME_PODMAN, false },
	{ "libpod-", "podman", CGROUP_RUNTIME_PODMAN, true },
};

/* a bare id: its runtime unknown, but for the cgroupfs driver's of docker, in a cgroup named "docker" */
static const struct container_form bare_form = { "", "container", CGROUP_RUNTIME_CONTAINER, false };
static const struct container_form docker_bare_form = { "", "docker", CGROUP_RUNTIME_DOCKER, false };

static const char *const runtime_names[NR_CGROUP_RUNTIMES] = {
	[CGROUP_RUNTIME_PATH] = "path",
	[CGROUP_RUNTIME_ROOT] = "root",
	[CGROUP_RUNTIME_SYSTEMD] = "systemd",
	[CGROUP_RUNTIME_DOCKER] = "docker",
	[CGROUP_RUNTIME_CONTAINERD] = "containerd",
	[CGROUP_RUNTIME_CRIO] = "crio",
	[CGROUP_RUNTIME_PODMAN] = "podman",
	[CGROUP_RUNTIME_KUBERNETES] = "kubernetes",
	[CGROUP_RUNTIME_CONTAINER] = "container",
};

_Static_assert(NR_CGROUP_RUNTIMES == CGROUP_RUNTIME_CONTAINER + 1, "a new runtime needs its name in runtime_names[]");

const char *cgroup_label__runtime_name(enum cgroup_runtime r)
{
	return (unsigned int)r < NR_CGROUP_RUNTIMES ? runtime_names[r] : "path";
}

static bool comp_is(struct comp c, const char *s)
{
	return c.len == strlen(s) && !memcmp(c.s, s, c.len);
}

static bool comp_starts(struct comp c, const char *prefix)
{
	size_t n = strlen(prefix);

	return c.len >= n && !memcmp(c.s, prefix, n);
}

static bool comp_ends(struct comp c, const char *suffix)
{
	size_t n = strlen(suffix);

	return c.len >= n && !memcmp(c.s + c.len - n, suffix, n);
}

/* comp_cut - @c without @n bytes at its start and @m at its end */
static struct comp comp_cut(struct comp c, size_t n, size_t m)
{
	return (struct comp){ c.s + n, c.len - n - m };
}

/* only_of - whether @c is one or more of the bytes of @set */
static bool only_of(struct comp c, const char *set)
{
	size_t i;

	for (i = 0; i < c.len; i++)
		if (!c.s[i] || !strchr(set, c.s[i]))
			return false;
	return c.len > 0;
}

/* is_id - whether @c is a container id: 64 lowercase hex, nothing looser */
static bool is_id(struct comp c)
{
	return c.len == ID_LEN && only_of(c, "0123456789abcdef");
}

/* split - the components of @path, "//" and a trailing "/" left out; false past CGROUP_LABEL_MAX_DEPTH */
static bool split(const char *path, struct comps *p)
{
	size_t len;

	p->n = 0;
	for (; *path; path += len) {
		len = strcspn(path, "/");
		if (!len) {
			len = 1;
			continue;
		}
		if (p->n == CGROUP_LABEL_MAX_DEPTH)
			return false;
		p->c[p->n++] = (struct comp){ path, len };
	}
	return true;
}

/* out_whole - @n bytes that go in whole or not at all: once they do not fit, the label is cut there */
static void out_whole(struct out *o, const char *s, size_t n)
{
	size_t room = o->cap ? o->cap - 1 - o->len : 0;

	if (o->cut || n > room) {
		o->cut = true;
		return;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

/* is_control - a byte a label writes as \xNN: C0 controls and DEL */
static bool is_control(unsigned char b)
{
	return b < 0x20 || b == 0x7f;
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * reads_as_escape - whether the @n bytes at @s begin as an escape that
 * out_bytes() writes: "\x" and two lowercase hex digits naming a control
 * byte or the backslash
 */
static bool reads_as_escape(const char *s, size_t n)
{
	int hi, lo;

	if (n < 4 || s[0] != '\\' || s[1] != 'x')
		return false;
	hi = hex_digit(s[2]);
	lo = hex_digit(s[3]);
	return hi >= 0 && lo >= 0 && (is_control(hi * 16 + lo) || hi * 16 + lo == '\\');
}

/*
 * out_bytes - @n bytes of a path into the label, each control byte as
 * "\xNN" (lowercase hex, as systemd escapes a unit's name), and a backslash
 * as "\x5c" where it would read as such an escape: the mapping is one to
 * one, and a label has no control byte. A cgroup's name is anyone's who
 * may make one (a delegated subtree): 0x1f would split a series key into
 * labels of its maker's choosing (cgroup_stats.h), an ESC act on the
 * terminal that shows the report. Any other byte is kept, systemd's own
 * escapes ("\x2d") with it. An escape goes in whole or not at all.
 */
static void out_bytes(struct out *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n && !o->cut; i++) {
		unsigned char b = (unsigned char)s[i];

		if (is_control(b) || (b == '\\' && reads_as_escape(s + i, n - i))) {
			const char escape[4] = { '\\', 'x', "0123456789abcdef"[b >> 4], "0123456789abcdef"[b & 15] };

			out_whole(o, escape, 4);
		} else {
			out_whole(o, s + i, 1);
		}
	}
}

static void out_str(struct out *o, const char *s)
{
	out_bytes(o, s, strlen(s));
}

static void out_comp(struct out *o, struct comp c)
{
	out_bytes(o, c.s, c.len);
}

/* out_rest - components @from on, each after a "/": a cgroup nested in what the label named */
static void out_rest(struct out *o, const struct comps *p, size_t from)
{
	for (; from < p->n; from++) {
		out_str(o, "/");
		out_comp(o, p->c[from]);
	}
}

/* out_container - "<name>:<12 hex>", and the path of any cgroup nested in the container */
static void out_container(struct out *o, const struct comps *p, const struct container_form *f, struct comp id,
			  size_t rest)
{
	out_str(o, f->name);
	out_str(o, ":");
	out_bytes(o, id.s, ID_SHOWN);
	out_rest(o, p, rest);
}

/*
 * out_finish - the NUL, and a cut label's "..." (as much of it as fits):
 * written over the bytes that end it, from a character's first byte, so
 * that no UTF-8 sequence is left half, and from an escape's backslash, so
 * that none is left half either.
 */
static void out_finish(struct out *o)
{
	size_t dots, at;

	if (!o->cap)
		return;
	if (o->cut) {
		dots = o->cap - 1 < 3 ? o->cap - 1 : 3;
		/* an escape that did not fit may have left fewer bytes than the dots take */
		at = o->len > dots ? o->len - dots : 0;
		while (at > 0 && ((unsigned char)o->buf[at] & 0xc0) == 0x80)
			at--;
		for (size_t k = 1; k <= 3 && k <= at; k++)
			if (o->buf[at - k] == '\\' && at - k + 1 < o->len && o->buf[at - k + 1] == 'x') {
				at -= k;
				break;
			}
		memset(o->buf + at, '.', dots);
		o->len = at + dots;
	}
	o->buf[o->len] = '\0';
}

/*
 * container_at - the form of the container whose cgroup is component @i of
 * @p, with its id and the first component nested in it (past podman's
 * "container" cgroup); NULL if @i is no container's.
 */
static const struct container_form *container_at(const struct comps *p, size_t i, struct comp *id, size_t *rest)
{
	struct comp c = p->c[i];
	const struct container_form *f = NULL;
	size_t k;

	if (comp_ends(c, ".scope"))
		c = comp_cut(c, 0, strlen(".scope"));
	for (k = 0; k < sizeof(forms) / sizeof(forms[0]) && !f; k++)
		if (comp_starts(c, forms[k].prefix) && is_id(comp_cut(c, strlen(forms[k].prefix), 0)))
			f = &forms[k];
	if (f) {
		*id = comp_cut(c, strlen(f->prefix), 0);
	} else if (is_id(p->c[i])) {
		f = &bare_form;
		*id = p->c[i];
	} else {
		return NULL;
	}
	*rest = i + 1;
	if (f->payload_child && *rest < p->n && comp_is(p->c[*rest], "container"))
		(*rest)++;
	return f;
}

/* a Kubernetes path, as far as it goes: NULL or an empty uid where it ends */
struct k8s_match {
	const char *qos;
	struct comp uid;	/* the systemd driver's has '_' for '-' */
	const struct container_form *form;
	struct comp id;
	size_t rest;		/* the first component nested in the container */
};

/*
 * kubepods_stem - whether @c is the kubepods cgroup: the cgroupfs driver's
 * "kubepods" (@stem empty), or the systemd driver's "kubepods.slice" or,
 * under a --cgroup-root, "<root>-kubepods.slice" (@stem the name without
 * ".slice", which every slice under it begins with).
 */
static bool kubepods_stem(struct comp c, struct comp *stem)
{
	if (comp_is(c, "kubepods")) {
		*stem = comp_cut(c, c.len, 0);
		return true;
	}
	if (!comp_ends(c, ".slice"))
		return false;
	*stem = comp_cut(c, 0, strlen(".slice"));
	return comp_is(*stem, "kubepods") || comp_ends(*stem, "-kubepods");
}

/*
 * k8s_name - the part of component @c that names a QoS class or a pod: all
 * of it (cgroupfs driver, @stem empty), or of a slice what follows
 * "<stem>-" (systemd driver); false if @c is no slice under @stem.
 */
static bool k8s_name(struct comp c, struct comp stem, struct comp *name)
{
	if (!stem.len) {
		*name = c;
		return true;
	}
	if (!comp_ends(c, ".slice") || c.len < stem.len + 1 + strlen(".slice") || memcmp(c.s, stem.s, stem.len) ||
	    c.s[stem.len] != '-')
		return false;
	*name = comp_cut(c, stem.len + 1, strlen(".slice"));
	return true;
}

static const char *k8s_qos(struct comp name)
{
	if (comp_is(name, "burstable"))
		return "burstable";
	if (comp_is(name, "besteffort"))
		return "besteffort";
	return NULL;
}

/* k8s_uid - the uid of pod cgroup @name, "pod<uid>": lowercase hex and the driver's separator */
static bool k8s_uid(struct comp name, bool systemd, struct comp *uid)
{
	if (!comp_starts(name, "pod"))
		return false;
	*uid = comp_cut(name, strlen("pod"), 0);
	return only_of(*uid, systemd ? "0123456789abcdef_" : "0123456789abcdef-");
}

/*
 * k8s_parse - the Kubernetes layout from kubepods cgroup @k of @p down:
 * a QoS cgroup (none for guaranteed pods), a pod, a container. A slice
 * below a QoS slice is named after it, "<stem>-burstable-pod<uid>.slice".
 * False if the path leaves the layout before its container.
 */
static bool k8s_parse(const struct comps *p, size_t k, struct k8s_match *m)
{
	struct comp stem, name;
	size_t i = k + 1;

	memset(m, 0, sizeof(*m));
	m->rest = p->n;
	if (!kubepods_stem(p->c[k], &stem))
		return false;
	if (i == p->n)
		return true;
	if (!k8s_name(p->c[i], stem, &name))
		return false;
	m->qos = k8s_qos(name);
	if (m->qos) {
		if (stem.len)
			stem = comp_cut(p->c[i], 0, strlen(".slice"));
		if (++i == p->n)
			return true;
		if (!k8s_name(p->c[i], stem, &name))
			return false;
	}
	if (!k8s_uid(name, stem.len > 0, &m->uid))
		return false;
	if (!m->qos)
		m->qos = "guaranteed";
	if (++i == p->n)
		return true;
	m->form = container_at(p, i, &m->id, &m->rest);
	return m->form != NULL;
}

/* out_k8s - "k8s[/<qos>[/<uid>[/<runtime>:<12 hex>[/<nested>]]]]", the uid with dashes */
static void out_k8s(struct out *o, const struct comps *p, const struct k8s_match *m)
{
	size_t i;

	out_str(o, "k8s");
	if (m->qos) {
		out_str(o, "/");
		out_str(o, m->qos);
	}
	if (m->uid.len)
		out_str(o, "/");
	for (i = 0; i < m->uid.len; i++)
		out_bytes(o, m->uid.s[i] == '_' ? "-" : &m->uid.s[i], 1);
	if (m->form) {
		out_str(o, "/");
		out_container(o, p, m->form, m->id, m->rest);
	}
}

/* label_k8s - rule 2: from the innermost kubepods cgroup whose path follows the layout */
static bool label_k8s(struct out *o, const struct comps *p)
{
	struct k8s_match m;
	size_t k;

	for (k = p->n; k-- > 0;) {
		if (k8s_parse(p, k, &m)) {
			out_k8s(o, p, &m);
			return true;
		}
	}
	return false;
}

/*
 * label_container - rules 3 to 6: the outermost container. A bare id keeps
 * the path above it, but in a cgroup named "docker", docker's cgroupfs
 * driver's: that says whose it is.
 */
static enum cgroup_runtime label_container(struct out *o, const struct comps *p)
{
	const struct container_form *f = NULL;
	struct comp id;
	size_t i, rest;

	for (i = 0; i < p->n; i++) {
		f = container_at(p, i, &id, &rest);
		if (f)
			break;
	}
	if (!f)
		return CGROUP_RUNTIME_PATH;
	if (f == &bare_form && i > 0 && comp_is(p->c[i - 1], "docker")) {
		f = &docker_bare_form;
	} else if (f == &bare_form) {
		/* "default/", nerdctl's namespace */
		for (size_t j = 0; j < i; j++) {
			out_comp(o, p->c[j]);
			out_str(o, "/");
		}
	}
	out_container(o, p, f, id, rest);
	return f->runtime;
}

static bool is_slice(struct comp c)
{
	return c.len > strlen(".slice") && comp_ends(c, ".slice");
}

/* is_unit - whether @c is a unit that can have a cgroup, other than a slice */
static bool is_unit(struct comp c)
{
	static const char *const kinds[] = { ".service", ".scope", ".socket", ".mount", ".swap" };
	size_t k;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (c.len > strlen(kinds[k]) && comp_ends(c, kinds[k]))
			return true;
	return false;
}

/* is_user_unit - whether @c is "<prefix><digits><suffix>", as "user-1000.slice" or "user@1000.service" */
static bool is_user_unit(struct comp c, const char *prefix, const char *suffix)
{
	size_t n = strlen(prefix), m = strlen(suffix);

	return comp_starts(c, prefix) && comp_ends(c, suffix) && c.len > n + m &&
	       only_of(comp_cut(c, n, m), "0123456789");
}

/*
 * label_systemd - rule 7: slices, then a unit and what is nested in it, or
 * only slices. In a user's slice the user's systemd is passed like a slice,
 * and the label begins "user-<uid>/".
 */
static bool label_systemd(struct out *o, const struct comps *p)
{
	size_t base = 0, i, at;
	bool user;

	user = p->n >= 2 && comp_is(p->c[0], "user.slice") && is_user_unit(p->c[1], "user-", ".slice");
	if (user)
		base = p->n >= 3 && is_user_unit(p->c[2], "user@", ".service") ? 3 : 2;
	i = base;
	while (i < p->n && is_slice(p->c[i]))
		i++;
	if (i == p->n)
		at = p->n - 1;
	else if (is_unit(p->c[i]))
		at = i;
	else
		return false;
	if (user && at >= 2) {
		/* "user-1000", from "user-1000.slice" */
		out_comp(o, comp_cut(p->c[1], 0, strlen(".slice")));
		out_str(o, "/");
	}
	out_comp(o, p->c[at]);
	out_rest(o, p, at + 1);
	return true;
}

/* out_path - rule 8: the path as it is, but for its empty components; from the string, whatever its depth */
static void out_path(struct out *o, const char *path)
{
	size_t len;

	for (; *path; path += len) {
		len = strcspn(path, "/");
		if (!len) {
			len = 1;
			continue;
		}
		out_str(o, "/");
		out_bytes(o, path, len);
	}
}

/* label - the rules in their order, into @o; the runtime of the one that matched */
static enum cgroup_runtime label(struct out *o, const char *path, const struct comps *p)
{
	enum cgroup_runtime r;

	if (!p->n) {
		out_str(o, "/");
		return CGROUP_RUNTIME_ROOT;
	}
	if (label_k8s(o, p))
		return CGROUP_RUNTIME_KUBERNETES;
	r = label_container(o, p);
	if (r != CGROUP_RUNTIME_PATH)
		return r;
	if (label_systemd(o, p))
		return CGROUP_RUNTIME_SYSTEMD;
	out_path(o, path);
	return CGROUP_RUNTIME_PATH;
}

enum cgroup_runtime cgroup_label__of(const char *path, char *buf, size_t len)
{
	struct out o = { buf, len < CGROUP_LABEL_LEN ? len : CGROUP_LABEL_LEN, 0, false };
	enum cgroup_runtime r = CGROUP_RUNTIME_PATH;
	struct comps p;

	if (split(path, &p))
		r = label(&o, path, &p);
	else
		out_path(&o, path);
	out_finish(&o);
	return r;
}
