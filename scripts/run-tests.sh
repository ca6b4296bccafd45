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
failed=()
while [[ $# -gt 0 ]]; do
	cmd=()
	while [[ $# -gt 0 && $1 != :: ]]; do
		cmd+=("$1")
		shift
	done
	[[ $# -gt 0 ]] && shift
	"${cmd[@]}" 2>&1 | tee -a "$log"
	rcs=("${PIPESTATUS[@]}")
	rc=${rcs[0]}
	[[ ${rcs[1]} -ne 0 && $rc -eq 0 ]] && rc=${rcs[1]}
	if [[ $rc -ne 0 ]]; then
		# a runner can exit non-zero after a closing line that counts no failure: say which, and how
		failed+=("${cmd[*]}: exit ${rcs[0]}$([[ ${rcs[0]} -gt 128 ]] && echo " (signal $((rcs[0] - 128)))"), tee ${rcs[1]}")
	fi
	[[ $status -eq 0 ]] && status=$rc
done
if [[ $status -ne 0 ]]; then
	echo "--- what failed (the whole run is in $log):"
	printf '%s\n' "${failed[@]}"
	# -a: tests print what they measured, and a log with a stray byte is still text
	grep -aE '^\[(----|FAIL)\]' "$log" | grep -av '^\[----\] Criterion v'
fi
exit $status
