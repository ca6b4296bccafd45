#!/usr/bin/env bash
# run-tests.sh LOG COMMAND... [:: COMMAND...] - run each test binary in turn,
# every one whatever the ones before it did, with their output kept in LOG;
# when any fails, repeat the failed tests and their assertions after the
# last Criterion closing line: the end of a long log then says what failed.
# The exit status is the first failing command's, 0 when none failed.
set -o pipefail
log=$1
shift
mkdir -p "$(dirname "$log")"
: >"$log"
status=0
while [[ $# -gt 0 ]]; do
	cmd=()
	while [[ $# -gt 0 && $1 != :: ]]; do
		cmd+=("$1")
		shift
	done
	[[ $# -gt 0 ]] && shift
	"${cmd[@]}" 2>&1 | tee -a "$log"
	rc=$?
	[[ $status -eq 0 ]] && status=$rc
done
if [[ $status -ne 0 ]]; then
	echo "--- what failed (the whole run is in $log):"
	grep -E '^\[(----|FAIL)\]' "$log" | grep -v '^\[----\] Criterion v'
fi
exit $status
