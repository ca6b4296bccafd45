#!/usr/bin/env bash
# capture-percpu-btf.sh - cut a kernel's BTF down to the per-CPU variables the
# steal clock's layout is found from (user/live/steal_clock.c), as the unit
# tests' fixture tests/fixtures/btf/percpu-NAME.btf:
#
#   scripts/capture-percpu-btf.sh BTF NAME
#
# BTF is a kernel's raw BTF. This kernel's is /sys/kernel/btf/vmlinux; to
# capture another kernel's, boot it (or a VM of it) and, inside it, run
# `cp /sys/kernel/btf/vmlinux btf-NAME` and `uname -r > release-NAME`, then
# bring both here. The full BTF stays out of the repository (4-6 MB); say
# in tests/fixtures/btf/README which release the fixture came from.
set -euo pipefail
if [ $# -ne 2 ]; then
	echo "usage: $0 BTF NAME   (e.g. $0 /sys/kernel/btf/vmlinux 6.18)" >&2
	exit 2
fi
btf=$(realpath "$1")
name=$2
cd "$(dirname "$0")/.."
make -s "$PWD/build/tests/btf-slice"
# every kernel's distances are from runqueues; cpu_number and __preempt_count
# are variables of their own on v6.1 and v6.15+, pcpu_hot's members on
# v6.2-v6.14; steal_time is there on kernels built as KVM guests
build/tests/btf-slice "$btf" "tests/fixtures/btf/percpu-$name.btf" \
	runqueues steal_time cpu_number __preempt_count pcpu_hot
