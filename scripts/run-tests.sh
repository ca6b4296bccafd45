#!/usr/bin/env bash
# run-tests.sh LOG COMMAND... - run the test binary with its output kept in
# LOG, and when it fails, repeat the failed tests and their assertions after
# Criterion's closing line: the end of a long log then says what failed.
set -o pipefail
log=$1
shift
mkdir -p "$(dirname "$log")"
"$@" 2>&1 | tee "$log"
status=$?
if [[ $status -ne 0 ]]; then
	echo "--- what failed (the whole run is in $log):"
	grep -E '^\[(----|FAIL)\]' "$log" | grep -v '^\[----\] Criterion v'
fi
exit $status
