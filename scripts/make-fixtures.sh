#!/usr/bin/env bash
# make-fixtures.sh - record the small runs under tests/fixtures/ again (root),
# then write their golden reports (scripts/update-golden.sh).
#
# The recordings are real runs on the machine at hand, so their figures
# change with every recording: review the new golden texts before committing.
set -euo pipefail
cd "$(dirname "$0")/.."
wp=${WAKEPROBE:-./wakeprobe}
dir=tests/fixtures

record() {
	local name=$1; shift
	echo "make-fixtures.sh: $name: $*"
	"$wp" record -o "$dir/$name.wpr" "$@" >/dev/null
}

# a paced path in full: phases, idle targets, outliers
record eventfd --workload eventfd --samples 150 --interval-us 500 --cpus 0,1
# the second wait inside resume_user (mutex_reacquire), notify decided in user space
record cond --workload cond --samples 150 --interval-us 500 --cpus 0,1
# no kernel in the path: totals, preemption, waiter CPU time
record spin --workload spin --samples 100 --interval-us 500 --cpus 0,1
# tracing off: totals only
record untraced --workload pipe --samples 100 --interval-us 300 --cpus 0,1 --no-trace
# a ring buffer too small for a back-to-back run: drops, and the samples they touch
record lost --workload eventfd --samples 300 --interval-us 0 --cpus 0,1 --ringbuf-kb 4
scripts/update-golden.sh
