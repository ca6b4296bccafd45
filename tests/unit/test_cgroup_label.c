// SPDX-License-Identifier: GPL-2.0
/*
 * test_cgroup_label.c - the labels of cgroup v2 paths, by the rules
 * user/core/cgroup_label.h lists: one table of paths a rule, the layouts
 * each runtime and cgroup driver makes, the near misses that must fall
 * through, the control bytes a cgroup's maker may put in its name, and
 * the cut of a label too long.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdbool.h>
#include <string.h>

#include "cgroup_label.h"

/* a container id, its 12 shown, and a second one for paths with two containers */
#define ID	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define SHORT	"0123456789ab"
#define ID2	"fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
#define SHORT2	"fedcba987654"
/* near misses: one digit short, one too many, uppercase */
#define ID63	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde"
#define ID65	ID "0"
#define IDUP	"0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF"
/* a pod uid as the label and the cgroupfs driver write it, and as the systemd driver does */
#define UID	"1a2b3c4d-5e6f-7a8b-9c0d-112233445566"
#define UID_	"1a2b3c4d_5e6f_7a8b_9c0d_112233445566"
#define UID2	"99887766-5544-3322-1100-aabbccddeeff"
/* a static pod's: the hash of its manifest, without dashes */
#define STATIC_UID "3b5c5d0b8e6c1fd0e4a2e6b2f5e7a2a1"

#define SD_BURSTABLE "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_ ".slice"

TestSuite(cgroup_label);

/* Arrays, not pointers: Criterion copies parameters into each test's process */
struct label_case {
	char path[400];
	char want[CGROUP_LABEL_LEN];
	enum cgroup_runtime runtime;
};

static void assert_label(const struct label_case *c)
{
	char label[CGROUP_LABEL_LEN];
	enum cgroup_runtime r;

	memset(label, 'X', sizeof(label));
	r = cgroup_label__of(c->path, label, sizeof(label));
	cr_assert_str_eq(label, c->want, "%s", c->path);
	cr_assert_eq(r, c->runtime, "%s: %s, not %s", c->path, cgroup_label__runtime_name(r),
		     cgroup_label__runtime_name(c->runtime));
}

#define CASES(cases) cr_make_param_array(struct label_case, cases, sizeof(cases) / sizeof(cases[0]))

ParameterizedTestParameters(cgroup_label, the_root_cgroup_is_a_slash)
{
	static struct label_case cases[] = {
		{ "/", "/", CGROUP_RUNTIME_ROOT },
		{ "//", "/", CGROUP_RUNTIME_ROOT },
		{ "", "/", CGROUP_RUNTIME_ROOT },
	};

	return CASES(cases);
}

ParameterizedTest(struct label_case *c, cgroup_label, the_root_cgroup_is_a_slash)
{
	assert_label(c);
}

ParameterizedTestParameters(cgroup_label, kubernetes_paths_name_the_qos_the_pod_and_the_container)
{
	static struct label_case cases[] = {
		/* systemd driver: every runtime */
		{ SD_BURSTABLE "/cri-containerd-" ID ".scope", "k8s/burstable/" UID "/containerd:" SHORT,
		  CGROUP_RUNTIME_KUBERNETES },
		{ "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_ ".slice/crio-" ID ".scope",
		  "k8s/besteffort/" UID "/crio:" SHORT, CGROUP_RUNTIME_KUBERNETES },
		{ SD_BURSTABLE "/crio-conmon-" ID ".scope", "k8s/burstable/" UID "/crio-conmon:" SHORT,
		  CGROUP_RUNTIME_KUBERNETES },
		{ SD_BURSTABLE "/docker-" ID ".scope", "k8s/burstable/" UID "/docker:" SHORT,
		  CGROUP_RUNTIME_KUBERNETES },
		/* a guaranteed pod has no QoS slice */
		{ "/kubepods.slice/kubepods-pod" UID_ ".slice/cri-containerd-" ID ".scope",
		  "k8s/guaranteed/" UID "/containerd:" SHORT, CGROUP_RUNTIME_KUBERNETES },
		/* cgroupfs driver: a bare id, or CRI-O's own names */
		{ "/kubepods/burstable/pod" UID "/" ID, "k8s/burstable/" UID "/container:" SHORT,
		  CGROUP_RUNTIME_KUBERNETES },
		{ "/kubepods/pod" UID "/" ID, "k8s/guaranteed/" UID "/container:" SHORT, CGROUP_RUNTIME_KUBERNETES },
		{ "/kubepods/besteffort/pod" UID "/crio-" ID, "k8s/besteffort/" UID "/crio:" SHORT,
		  CGROUP_RUNTIME_KUBERNETES },
		/* the cgroups above the containers */
		{ "/kubepods.slice", "k8s", CGROUP_RUNTIME_KUBERNETES },
		{ "/kubepods", "k8s", CGROUP_RUNTIME_KUBERNETES },
		{ "/kubepods.slice/kubepods-burstable.slice", "k8s/burstable", CGROUP_RUNTIME_KUBERNETES },
		{ "/kubepods/besteffort", "k8s/besteffort", CGROUP_RUNTIME_KUBERNETES },
		{ SD_BURSTABLE, "k8s/burstable/" UID, CGROUP_RUNTIME_KUBERNETES },
		{ "/kubepods/burstable/pod" UID, "k8s/burstable/" UID, CGROUP_RUNTIME_KUBERNETES },
		{ "/kubepods.slice/kubepods-pod" UID_ ".slice", "k8s/guaranteed/" UID, CGROUP_RUNTIME_KUBERNETES },
		/* a static pod's uid has no dashes */
		{ "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" STATIC_UID ".slice",
		  "k8s/besteffort/" STATIC_UID, CGROUP_RUNTIME_KUBERNETES },
		/* a cgroup nested in a container keeps its path */
		{ SD_BURSTABLE "/cri-containerd-" ID ".scope/rest/of/path",
		  "k8s/burstable/" UID "/containerd:" SHORT "/rest/of/path", CGROUP_RUNTIME_KUBERNETES },
		/* a kubelet --cgroup-root, and a node in a container: the label starts at kubepods */
		{ "/system.slice/docker-" ID2 ".scope/kubepods/burstable/pod" UID "/" ID,
		  "k8s/burstable/" UID "/container:" SHORT, CGROUP_RUNTIME_KUBERNETES },
		{ "/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-burstable.slice"
		  "/kubelet-kubepods-burstable-pod" UID_ ".slice/cri-containerd-" ID ".scope",
		  "k8s/burstable/" UID "/containerd:" SHORT, CGROUP_RUNTIME_KUBERNETES },
		{ "/system.slice/docker-" ID2 ".scope/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-pod" UID_
		  ".slice", "k8s/guaranteed/" UID, CGROUP_RUNTIME_KUBERNETES },
		/* a node in a pod's container (kind in CI): the innermost kubepods */
		{ "/kubepods/burstable/pod" UID2 "/" ID2 "/kubepods/besteffort/pod" UID "/" ID,
		  "k8s/besteffort/" UID "/container:" SHORT, CGROUP_RUNTIME_KUBERNETES },
	};

	return CASES(cases);
}

ParameterizedTest(struct label_case *c, cgroup_label, kubernetes_paths_name_the_qos_the_pod_and_the_container)
{
	assert_label(c);
}

ParameterizedTestParameters(cgroup_label, paths_off_the_kubernetes_layout_are_not_kubernetes)
{
	static struct label_case cases[] = {
		{ "/kubepods/burstable/pod" UID "/" ID63, "/kubepods/burstable/pod" UID "/" ID63, CGROUP_RUNTIME_PATH },
		{ "/kubepods/foo", "/kubepods/foo", CGROUP_RUNTIME_PATH },
		{ "/kubepods/burstable/foo", "/kubepods/burstable/foo", CGROUP_RUNTIME_PATH },
		{ "/kubepods/pod" UID "/" IDUP, "/kubepods/pod" UID "/" IDUP, CGROUP_RUNTIME_PATH },
		/* a pod slice not named after its QoS slice: only slices, so systemd's */
		{ "/kubepods.slice/kubepods-burstable.slice/kubepods-besteffort-pod" UID_ ".slice",
		  "kubepods-besteffort-pod" UID_ ".slice", CGROUP_RUNTIME_SYSTEMD },
		/* the systemd driver's uid has no dashes: they separate a slice's parents */
		{ "/kubepods.slice/kubepods-pod" UID ".slice", "kubepods-pod" UID ".slice", CGROUP_RUNTIME_SYSTEMD },
		/* off the layout in a container: the container's rules name it */
		{ "/system.slice/docker-" ID ".scope/kubepods/foo", "docker:" SHORT "/kubepods/foo",
		  CGROUP_RUNTIME_DOCKER },
	};

	return CASES(cases);
}

ParameterizedTest(struct label_case *c, cgroup_label, paths_off_the_kubernetes_layout_are_not_kubernetes)
{
	assert_label(c);
}

ParameterizedTestParameters(cgroup_label, containers_are_named_by_their_runtime_and_12_hex)
{
	static struct label_case cases[] = {
		/* docker: systemd and cgroupfs drivers */
		{ "/system.slice/docker-" ID ".scope", "docker:" SHORT, CGROUP_RUNTIME_DOCKER },
		{ "/docker/" ID, "docker:" SHORT, CGROUP_RUNTIME_DOCKER },
		/* containerd: nerdctl's systemd driver; its cgroupfs driver's bare id keeps the namespace */
		{ "/system.slice/nerdctl-" ID ".scope", "containerd:" SHORT, CGROUP_RUNTIME_CONTAINERD },
		{ "/system.slice/cri-containerd-" ID ".scope", "containerd:" SHORT, CGROUP_RUNTIME_CONTAINERD },
		{ "/default/" ID, "default/container:" SHORT, CGROUP_RUNTIME_CONTAINER },
		{ "/" ID, "container:" SHORT, CGROUP_RUNTIME_CONTAINER },
		/* CRI-O */
		{ "/machine.slice/crio-" ID ".scope", "crio:" SHORT, CGROUP_RUNTIME_CRIO },
		{ "/machine.slice/crio-conmon-" ID ".scope", "crio-conmon:" SHORT, CGROUP_RUNTIME_CRIO },
		/* podman: rootful, rootless, its monitor, cgroupfs, and the container cgroup in the scope */
		{ "/machine.slice/libpod-" ID ".scope", "podman:" SHORT, CGROUP_RUNTIME_PODMAN },
		{ "/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" ID ".scope", "podman:" SHORT,
		  CGROUP_RUNTIME_PODMAN },
		{ "/machine.slice/libpod-conmon-" ID ".scope", "podman-conmon:" SHORT, CGROUP_RUNTIME_PODMAN },
		{ "/libpod_parent/libpod-" ID, "podman:" SHORT, CGROUP_RUNTIME_PODMAN },
		{ "/machine.slice/libpod-" ID ".scope/container", "podman:" SHORT, CGROUP_RUNTIME_PODMAN },
		{ "/machine.slice/libpod-" ID ".scope/container/init.scope", "podman:" SHORT "/init.scope",
		  CGROUP_RUNTIME_PODMAN },
		/* nested: the cgroups in the container keep their path, another container's too */
		{ "/system.slice/docker-" ID ".scope/system.slice/nginx.service",
		  "docker:" SHORT "/system.slice/nginx.service", CGROUP_RUNTIME_DOCKER },
		{ "/system.slice/docker-" ID ".scope/docker/" ID2, "docker:" SHORT "/docker/" ID2,
		  CGROUP_RUNTIME_DOCKER },
	};

	return CASES(cases);
}

ParameterizedTest(struct label_case *c, cgroup_label, containers_are_named_by_their_runtime_and_12_hex)
{
	assert_label(c);
}

ParameterizedTestParameters(cgroup_label, ids_that_are_not_64_lowercase_hex_are_no_containers)
{
	static struct label_case cases[] = {
		{ "/system.slice/docker-" ID63 ".scope", "docker-" ID63 ".scope", CGROUP_RUNTIME_SYSTEMD },
		{ "/system.slice/docker-" IDUP ".scope", "docker-" IDUP ".scope", CGROUP_RUNTIME_SYSTEMD },
		{ "/system.slice/docker-" ID65 ".scope", "docker-" ID65 ".scope", CGROUP_RUNTIME_SYSTEMD },
		{ "/docker/" ID63, "/docker/" ID63, CGROUP_RUNTIME_PATH },
		{ "/docker/" IDUP, "/docker/" IDUP, CGROUP_RUNTIME_PATH },
		{ "/machine.slice/libpod-" ID63 ".scope", "libpod-" ID63 ".scope", CGROUP_RUNTIME_SYSTEMD },
		/* an id is the whole component: nothing before or after it */
		{ "/default/x" ID, "/default/x" ID, CGROUP_RUNTIME_PATH },
		{ "/system.slice/docker-" ID ".service", "docker-" ID ".service", CGROUP_RUNTIME_SYSTEMD },
	};

	return CASES(cases);
}

ParameterizedTest(struct label_case *c, cgroup_label, ids_that_are_not_64_lowercase_hex_are_no_containers)
{
	assert_label(c);
}

ParameterizedTestParameters(cgroup_label, systemd_units_are_named_without_their_slices)
{
	static struct label_case cases[] = {
		{ "/system.slice/nginx.service", "nginx.service", CGROUP_RUNTIME_SYSTEMD },
		{ "/system.slice/nginx.service/worker", "nginx.service/worker", CGROUP_RUNTIME_SYSTEMD },
		{ "/init.scope", "init.scope", CGROUP_RUNTIME_SYSTEMD },
		{ "/system.slice", "system.slice", CGROUP_RUNTIME_SYSTEMD },
		{ "/system.slice/system-getty.slice/getty@tty1.service", "getty@tty1.service", CGROUP_RUNTIME_SYSTEMD },
		{ "/system.slice/system-systemd\\x2dfsck.slice/systemd-fsck@dev-disk-by\\x2duuid-12ab.service",
		  "systemd-fsck@dev-disk-by\\x2duuid-12ab.service", CGROUP_RUNTIME_SYSTEMD },
		{ "/system.slice/var-lib-docker.mount", "var-lib-docker.mount", CGROUP_RUNTIME_SYSTEMD },
		{ "/machine.slice/systemd-nspawn@x.service", "systemd-nspawn@x.service", CGROUP_RUNTIME_SYSTEMD },
		{ "/machine.slice/systemd-nspawn@x.service/payload/system.slice/foo.service",
		  "systemd-nspawn@x.service/payload/system.slice/foo.service", CGROUP_RUNTIME_SYSTEMD },
		/* a user's: the user, then the unit; the user's systemd passed like a slice */
		{ "/user.slice/user-1000.slice/session-3.scope", "user-1000/session-3.scope", CGROUP_RUNTIME_SYSTEMD },
		{ "/user.slice/user-1000.slice/user@1000.service/app.slice/foo.service", "user-1000/foo.service",
		  CGROUP_RUNTIME_SYSTEMD },
		{ "/user.slice/user-1000.slice/user@1000.service/init.scope", "user-1000/init.scope",
		  CGROUP_RUNTIME_SYSTEMD },
		{ "/user.slice/user-1000.slice/user@1000.service/app.slice", "user-1000/app.slice",
		  CGROUP_RUNTIME_SYSTEMD },
		{ "/user.slice/user-1000.slice/user@1000.service", "user-1000/user@1000.service",
		  CGROUP_RUNTIME_SYSTEMD },
		{ "/user.slice/user-1000.slice", "user-1000.slice", CGROUP_RUNTIME_SYSTEMD },
		{ "/user.slice", "user.slice", CGROUP_RUNTIME_SYSTEMD },
	};

	return CASES(cases);
}

ParameterizedTest(struct label_case *c, cgroup_label, systemd_units_are_named_without_their_slices)
{
	assert_label(c);
}

ParameterizedTestParameters(cgroup_label, an_unknown_layout_keeps_its_path)
{
	static struct label_case cases[] = {
		{ "/custom/group", "/custom/group", CGROUP_RUNTIME_PATH },
		{ "/system.slice/foo", "/system.slice/foo", CGROUP_RUNTIME_PATH },
		{ "/user.slice/user-1000.slice/user@1000.service/foo",
		  "/user.slice/user-1000.slice/user@1000.service/foo", CGROUP_RUNTIME_PATH },
		{ "/caf\xc3\xa9/\xe2\x82\xac", "/caf\xc3\xa9/\xe2\x82\xac", CGROUP_RUNTIME_PATH },
	};

	return CASES(cases);
}

ParameterizedTest(struct label_case *c, cgroup_label, an_unknown_layout_keeps_its_path)
{
	assert_label(c);
}

ParameterizedTestParameters(cgroup_label, empty_components_change_no_label)
{
	static struct label_case cases[] = {
		{ "/system.slice/nginx.service/", "nginx.service", CGROUP_RUNTIME_SYSTEMD },
		{ "//system.slice//docker-" ID ".scope/", "docker:" SHORT, CGROUP_RUNTIME_DOCKER },
		{ "/kubepods//burstable/pod" UID "//" ID "///", "k8s/burstable/" UID "/container:" SHORT,
		  CGROUP_RUNTIME_KUBERNETES },
		{ "/custom//group/", "/custom/group", CGROUP_RUNTIME_PATH },
		{ "/docker/" ID "/nested//", "docker:" SHORT "/nested", CGROUP_RUNTIME_DOCKER },
	};

	return CASES(cases);
}

ParameterizedTest(struct label_case *c, cgroup_label, empty_components_change_no_label)
{
	assert_label(c);
}

/* is_utf8 - whether @s is whole UTF-8 sequences (their lead and continuation bytes; no more is asked here) */
static bool is_utf8(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	int more = 0;

	for (; *u; u++) {
		if (more) {
			if ((*u & 0xc0) != 0x80)
				return false;
			more--;
		} else if (*u >= 0xf0) {
			more = 3;
		} else if (*u >= 0xe0) {
			more = 2;
		} else if (*u >= 0xc0) {
			more = 1;
		} else if (*u >= 0x80) {
			return false;
		}
	}
	return !more;
}

Test(cgroup_label, a_label_too_long_is_cut_to_end_in_three_dots)
{
	char path[300], label[CGROUP_LABEL_LEN];

	path[0] = '/';
	memset(path + 1, 'a', 199);
	path[200] = '\0';
	cr_assert_eq(cgroup_label__of(path, label, sizeof(label)), CGROUP_RUNTIME_PATH);
	cr_assert_eq(strlen(label), CGROUP_LABEL_LEN - 1);
	cr_assert_eq(strncmp(label, path, CGROUP_LABEL_LEN - 4), 0);
	cr_assert_str_eq(label + CGROUP_LABEL_LEN - 4, "...");

	/* one that just fits is whole */
	path[CGROUP_LABEL_LEN - 1] = '\0';
	cgroup_label__of(path, label, sizeof(label));
	cr_assert_str_eq(label, path);
}

Test(cgroup_label, a_long_nested_path_under_a_container_is_cut_after_its_label)
{
	const char *whole = "k8s/burstable/" UID "/containerd:" SHORT "/" ID2 "/" ID2;
	char label[CGROUP_LABEL_LEN];

	cgroup_label__of(SD_BURSTABLE "/cri-containerd-" ID ".scope/" ID2 "/" ID2, label, sizeof(label));
	cr_assert_eq(strlen(label), CGROUP_LABEL_LEN - 1);
	cr_assert_eq(strncmp(label, whole, CGROUP_LABEL_LEN - 4), 0, "%s", label);
	cr_assert_str_eq(label + CGROUP_LABEL_LEN - 4, "...");
}

/* the cut never leaves half a character: "é" would have lost its second byte */
Test(cgroup_label, a_cut_label_ends_on_a_whole_utf8_character)
{
	char path[300], label[CGROUP_LABEL_LEN];
	size_t n = CGROUP_LABEL_LEN - 5;	/* "/" and the a's: "é" straddles the 124th byte */

	path[0] = '/';
	memset(path + 1, 'a', n - 1);
	strcpy(path + n, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
	cgroup_label__of(path, label, sizeof(label));
	cr_assert(is_utf8(label), "%s", label);
	cr_assert_eq(strlen(label), n + 3);
	cr_assert_eq(strncmp(label, path, n), 0);
	cr_assert_str_eq(label + n, "...");
}

Test(cgroup_label, a_small_buffer_gets_the_label_cut_and_none_gets_nothing)
{
	char label[16];

	cgroup_label__of("/system.slice/nginx.service", label, 8);
	cr_assert_str_eq(label, "ngin...");
	cgroup_label__of("/system.slice/nginx.service", label, 14);
	cr_assert_str_eq(label, "nginx.service");
	cgroup_label__of("/system.slice/nginx.service", label, 3);
	cr_assert_str_eq(label, "..");
	cgroup_label__of("/system.slice/nginx.service", label, 1);
	cr_assert_str_eq(label, "");
	memset(label, 'X', sizeof(label));
	cr_assert_eq(cgroup_label__of("/system.slice/nginx.service", label, 0), CGROUP_RUNTIME_SYSTEMD);
	cr_assert_eq(label[0], 'X');
	cr_assert_eq(cgroup_label__of("/", NULL, 0), CGROUP_RUNTIME_ROOT);
}

Test(cgroup_label, no_label_is_longer_than_cgroup_label_len_whatever_the_buffer)
{
	char path[300], label[512];

	path[0] = '/';
	memset(path + 1, 'b', 249);
	path[250] = '\0';
	cgroup_label__of(path, label, sizeof(label));
	cr_assert_eq(strlen(label), CGROUP_LABEL_LEN - 1);
	cr_assert_str_eq(label + CGROUP_LABEL_LEN - 4, "...");
}

/* past CGROUP_LABEL_MAX_DEPTH components, no rule looks: the path, even one a rule would take */
Test(cgroup_label, a_path_deeper_than_the_rules_look_is_kept)
{
	char path[CGROUP_LABEL_MAX_DEPTH * 8 + 32] = "", label[CGROUP_LABEL_LEN];
	size_t i;

	for (i = 0; i < CGROUP_LABEL_MAX_DEPTH - 1; i++)
		strcat(path, "/a.slice");
	strcat(path, "/x.service");
	cr_assert_eq(cgroup_label__of(path, label, sizeof(label)), CGROUP_RUNTIME_SYSTEMD);
	cr_assert_str_eq(label, "x.service");

	memmove(path, path + strlen("/a.slice"), strlen(path) + 1 - strlen("/a.slice"));
	strcat(path, "/y.service");
	strcat(path, "/z");
	cr_assert_eq(cgroup_label__of(path, label, sizeof(label)), CGROUP_RUNTIME_PATH);
	cr_assert_eq(strncmp(label, "/a.slice/a.slice/", 17), 0, "%s", label);
}

ParameterizedTestParameters(cgroup_label, control_bytes_are_escaped_a_backslash_only_where_it_reads_as_one)
{
	static struct label_case cases[] = {
		/* 0x1f, the series keys' separator, and the rest of C0 and DEL */
		{ "/evil\x1fnginx.service", "evil\\x1fnginx.service", CGROUP_RUNTIME_SYSTEMD },
		{ "/custom/evil\x1fidle", "/custom/evil\\x1fidle", CGROUP_RUNTIME_PATH },
		{ "/system.slice/a\x1f" "b.service", "a\\x1f" "b.service", CGROUP_RUNTIME_SYSTEMD },
		{ "/a\tb\nc\rd\x1b[2Je\x7f\x01", "/a\\x09b\\x0ac\\x0dd\\x1b[2Je\\x7f\\x01", CGROUP_RUNTIME_PATH },
		/* in a container's nested path, and in a user's unit */
		{ "/system.slice/docker-" ID ".scope/x\x1fy", "docker:" SHORT "/x\\x1fy", CGROUP_RUNTIME_DOCKER },
		{ "/user.slice/user-1000.slice/user@1000.service/app.slice/\x1f.service", "user-1000/\\x1f.service",
		  CGROUP_RUNTIME_SYSTEMD },
		/* systemd's own escapes are kept as they are */
		{ "/system.slice/system-systemd\\x2dfsck.slice/systemd-fsck@dev-disk-by\\x2duuid-1.service",
		  "systemd-fsck@dev-disk-by\\x2duuid-1.service", CGROUP_RUNTIME_SYSTEMD },
		{ "/a\\x1F\\x20\\x\\x1\\", "/a\\x1F\\x20\\x\\x1\\", CGROUP_RUNTIME_PATH },
		/* a backslash that would read as an escape of a control byte or of itself: \x5c */
		{ "/a\\x1fb", "/a\\x5cx1fb", CGROUP_RUNTIME_PATH },
		{ "/a\\x5c\\x7f", "/a\\x5cx5c\\x5cx7f", CGROUP_RUNTIME_PATH },
		{ "/a\\\x1f", "/a\\\\x1f", CGROUP_RUNTIME_PATH },
	};

	return CASES(cases);
}

ParameterizedTest(struct label_case *c, cgroup_label, control_bytes_are_escaped_a_backslash_only_where_it_reads_as_one)
{
	assert_label(c);
}

static int hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* unescape - @label read back: each escape cgroup_label.h writes as its byte, into @out */
static void unescape(const char *label, char *out)
{
	while (*label) {
		int b = label[0] == '\\' && label[1] == 'x' && hex(label[2]) >= 0 && hex(label[3]) >= 0 ?
			hex(label[2]) * 16 + hex(label[3]) : -1;

		if (b >= 0 && (b < 0x20 || b == 0x7f || b == '\\')) {
			*out++ = (char)b;
			label += 4;
		} else {
			*out++ = *label++;
		}
	}
	*out = '\0';
}

/*
 * Every name of up to five bytes drawn from those an escape is made of,
 * and the control bytes: its label has no control byte, and reads back
 * as the name, so that no two names share a label through the escapes.
 */
Test(cgroup_label, the_escapes_are_one_to_one_and_leave_no_control_byte)
{
	static const char alphabet[] = { '\\', 'x', '1', 'f', '5', 'c', '7', '\x1f', '\x7f', '\n' };
	const size_t k = sizeof(alphabet);
	char path[16], label[CGROUP_LABEL_LEN], back[CGROUP_LABEL_LEN];
	size_t tried = 0;

	for (size_t len = 1; len <= 5; len++) {
		size_t total = 1;

		for (size_t i = 0; i < len; i++)
			total *= k;
		for (size_t n = 0; n < total; n++, tried++) {
			size_t v = n;

			strcpy(path, "/p/");
			for (size_t i = 0; i < len; i++, v /= k)
				path[3 + i] = alphabet[v % k];
			path[3 + len] = '\0';
			cr_assert_eq(cgroup_label__of(path, label, sizeof(label)), CGROUP_RUNTIME_PATH);
			for (const char *b = label; *b; b++)
				cr_assert((unsigned char)*b >= 0x20 && *b != 0x7f, "a control byte in the label of %s",
					  path);
			unescape(label, back);
			cr_assert_str_eq(back, path, "the label %s reads back as another name", label);
		}
	}
	cr_assert_gt(tried, 100000);
}

/* a cut label ends in whole escapes, then the dots, whatever the buffer */
Test(cgroup_label, a_cut_label_leaves_no_half_escape)
{
	char path[300], label[CGROUP_LABEL_LEN];

	path[0] = '/';
	memset(path + 1, '\x1f', 200);
	path[201] = '\0';
	for (size_t len = 1; len <= sizeof(label); len++) {
		size_t n;

		memset(label, 'X', sizeof(label));
		cgroup_label__of(path, label, len);
		n = strlen(label);
		cr_assert_lt(n, len, "past the buffer of %zu", len);
		if (len <= 4 || n == 3) {
			cr_assert_eq(strspn(label, "."), n, "%zu: %s", len, label);
			continue;
		}
		/* "/", whole escapes, "..." */
		cr_assert_str_eq(label + n - 3, "...", "%zu: %s", len, label);
		cr_assert_eq(label[0], '/', "%zu: %s", len, label);
		cr_assert_eq((n - 4) % 4, 0, "%zu: half an escape in %s", len, label);
		for (size_t i = 1; i + 3 < n; i += 4)
			cr_assert_eq(strncmp(label + i, "\\x1f", 4), 0, "%zu: half an escape in %s", len, label);
	}
}

Test(cgroup_label, every_runtime_has_its_name)
{
	cr_assert_str_eq(cgroup_label__runtime_name(CGROUP_RUNTIME_SYSTEMD), "systemd");
	cr_assert_str_eq(cgroup_label__runtime_name(CGROUP_RUNTIME_DOCKER), "docker");
	cr_assert_str_eq(cgroup_label__runtime_name(CGROUP_RUNTIME_CONTAINERD), "containerd");
	cr_assert_str_eq(cgroup_label__runtime_name(CGROUP_RUNTIME_CRIO), "crio");
	cr_assert_str_eq(cgroup_label__runtime_name(CGROUP_RUNTIME_PODMAN), "podman");
	cr_assert_str_eq(cgroup_label__runtime_name(CGROUP_RUNTIME_KUBERNETES), "kubernetes");
	cr_assert_str_eq(cgroup_label__runtime_name(CGROUP_RUNTIME_ROOT), "root");
	cr_assert_str_eq(cgroup_label__runtime_name(CGROUP_RUNTIME_PATH), "path");
	cr_assert_str_eq(cgroup_label__runtime_name(CGROUP_RUNTIME_CONTAINER), "container");
	cr_assert_str_eq(cgroup_label__runtime_name(NR_CGROUP_RUNTIMES), "path");
}
