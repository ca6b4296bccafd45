/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup_label.h - a short readable label for a cgroup v2 path: the wakee's
 * cgroup, as the per-cgroup metrics name it. The path is the cgroup's
 * relative to the cgroup2 mount's root ("/system.slice/nginx.service");
 * empty components ("//", a trailing "/") are left out before any rule.
 *
 * In the examples, <id> is a container id, 64 lowercase hex digits
 * (0123456789abcdef four times), <uid> the pod uid
 * 1a2b3c4d-5e6f-7a8b-9c0d-112233445566, and <uid_> the same as the
 * systemd driver writes it, 1a2b3c4d_5e6f_7a8b_9c0d_112233445566.
 *
 * A container's cgroup is one component: cri-containerd-<id> or
 * nerdctl-<id> (named containerd), crio-<id> (crio), crio-conmon-<id>
 * (crio-conmon), docker-<id> (docker), libpod-<id> (podman),
 * libpod-conmon-<id> (podman-conmon), each with or without ".scope", or a
 * bare <id>. A label names it <name>:<first 12 hex of the id>, as
 * "containerd:0123456789ab". The id is exactly 64 lowercase hex digits: a
 * component with 63, or with an uppercase one, is no container and goes on
 * to the later rules. A cgroup nested in a container keeps its path after
 * the container's label.
 *
 * The rules, tried in this order; the first that matches gives the label:
 *
 * 1. The root cgroup (kernel threads, processes in no other cgroup) is "/".
 *        /  ->  /
 *
 * 2. Kubernetes, either cgroup driver. From the kubepods cgroup ("kubepods",
 *    "kubepods.slice", or a slice ending in "-kubepods.slice" under a kubelet
 *    --cgroup-root), at any depth: "k8s", the QoS class (guaranteed pods have
 *    no QoS cgroup), the pod's uid with dashes (a uid is lowercase hex and
 *    the driver's separator: "-", or "_" in a slice), then the container, a
 *    bare id named "container". The kubepods cgroup itself is "k8s", a QoS
 *    cgroup "k8s/burstable", a pod's own "k8s/<qos>/<uid>". A path that
 *    leaves this layout before its container is not Kubernetes'. Where
 *    kubepods appears more than once (a node inside a pod's container), the
 *    innermost one that follows the layout is taken.
 *        /kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid_>.slice/cri-containerd-<id>.scope
 *          ->  k8s/burstable/<uid>/containerd:0123456789ab
 *
 * Rules 3 to 6 are one search: the outermost component that is a container
 * gives the label, and the components above it are left out, but for a
 * bare id's outside "docker" (rule 4).
 *
 * 3. Docker: docker-<id>.scope (systemd driver), or a bare <id> in a cgroup
 *    named "docker" (cgroupfs driver).
 *        /system.slice/docker-<id>.scope  ->  docker:0123456789ab
 *
 * 4. containerd outside Kubernetes: nerdctl-<id>.scope, or
 *    cri-containerd-<id>.scope. A bare <id> in any cgroup but "docker" (as
 *    nerdctl's cgroupfs driver makes under its namespace) does not tell its
 *    runtime: it is "container:<12 hex>", after the path above it, so that
 *    the namespace stays.
 *        /system.slice/nerdctl-<id>.scope  ->  containerd:0123456789ab
 *        /default/<id>  ->  default/container:0123456789ab
 *
 * 5. CRI-O outside Kubernetes: crio-<id>.scope, and its monitor
 *    crio-conmon-<id>.scope as crio-conmon:<12 hex>.
 *        /machine.slice/crio-<id>.scope  ->  crio:0123456789ab
 *
 * 6. Podman: libpod-<id>.scope, rootful or rootless, and its monitor
 *    libpod-conmon-<id>.scope as podman-conmon:<12 hex>. The "container"
 *    cgroup podman may make in the scope is the container itself: it is left
 *    out of the label.
 *        /user.slice/user-1000.slice/user@1000.service/user.slice/libpod-<id>.scope  ->  podman:0123456789ab
 *
 * 7. systemd: slices from the root, then a unit (.service, .scope, .socket,
 *    .mount, .swap): the unit's name, and the path of any cgroup nested in
 *    it; only slices: the deepest slice. A unit's name is unique in its
 *    systemd, so the slices above it add nothing. Under a user's slice
 *    (user.slice/user-<uid>.slice) the label begins "user-<uid>/", as two
 *    users' systemds may each run a foo.service; the user's systemd
 *    (user@<uid>.service) is passed through like a slice, so that its
 *    units are named by the user and the unit alone, whatever their
 *    slices. Anything but a slice or a unit under the slices is rule 8's.
 *    Escaped names ("\x2d") are kept as they are.
 *        /system.slice/nginx.service/worker  ->  nginx.service/worker
 *        /user.slice/user-1000.slice/user@1000.service/app.slice/foo.service  ->  user-1000/foo.service
 *
 * 8. Anything else: the path, with its empty components left out. So is a
 *    path of more than CGROUP_LABEL_MAX_DEPTH components.
 *        /custom/group  ->  /custom/group
 *
 * A label holds no control byte: each (0x00-0x1f, 0x7f) is written \xNN in
 * lowercase hex, as systemd escapes a unit's name, and a backslash as \x5c
 * where it would read as such an escape, so that no two names share a
 * label through it. A cgroup's name is its maker's (anyone with a
 * delegated subtree): a 0x1f in it would split the keys of cgroup_stats.h
 * into labels of their choosing, an ESC act on the terminal showing the
 * report. Other bytes are kept, systemd's own escapes ("\x2d") among them;
 * quoting a label for a format (Prometheus, JSON) is its writer's.
 *
 * A label longer than CGROUP_LABEL_LEN - 1 bytes is cut to end in "...", at
 * a character's start, never inside a UTF-8 sequence or an escape.
 *
 * Pure code: no I/O, no allocation.
 */
#ifndef WAKEPROBE_CGROUP_LABEL_H
#define WAKEPROBE_CGROUP_LABEL_H

#include <stddef.h>

/* longest label with its NUL; a longer result is cut, ending in "..." */
#define CGROUP_LABEL_LEN	128
/* the most components a path's rules look at; a deeper path is labelled by its path (rule 8) */
#define CGROUP_LABEL_MAX_DEPTH	64

/* what made a cgroup, as far as its path tells: the rule that labelled it */
enum cgroup_runtime {
	CGROUP_RUNTIME_PATH,		/* no rule: the label is the path */
	CGROUP_RUNTIME_ROOT,
	CGROUP_RUNTIME_SYSTEMD,
	CGROUP_RUNTIME_DOCKER,
	CGROUP_RUNTIME_CONTAINERD,
	CGROUP_RUNTIME_CRIO,
	CGROUP_RUNTIME_PODMAN,
	CGROUP_RUNTIME_KUBERNETES,
	CGROUP_RUNTIME_CONTAINER,	/* a bare container id: some runtime's, the path does not say whose */
	NR_CGROUP_RUNTIMES,
};

/*
 * cgroup_label__of - the label of cgroup @path ("/system.slice/nginx.service")
 * into @buf of @len bytes, at most CGROUP_LABEL_LEN with its NUL whatever
 * @len. A @buf too small for the label gets it cut as a long one is.
 * Returns the runtime it recognised, the rule's: root (1), kubernetes (2),
 * docker (3), containerd (4; a bare id outside "docker" is "container"),
 * crio (5), podman (6), systemd (7), path (8).
 */
enum cgroup_runtime cgroup_label__of(const char *path, char *buf, size_t len);

/* cgroup_label__runtime_name - "systemd", "docker", ..., "root", "path"; "path" for an unknown value */
const char *cgroup_label__runtime_name(enum cgroup_runtime r);

#endif /* WAKEPROBE_CGROUP_LABEL_H */
