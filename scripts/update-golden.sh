#!/usr/bin/env bash
# update-golden.sh - write the golden reports of tests/fixtures/*.wpr with the
# wakeprobe at hand (no root needed). Run it when the report's text changes
# on purpose, and read the diff before committing it.
set -euo pipefail
cd "$(dirname "$0")/.."
wp=${WAKEPROBE:-./wakeprobe}
for f in tests/fixtures/*.wpr; do
	base=${f%.wpr}
	"$wp" report "$f" > "$base.txt"
	# the same recording with other report options: the analysis is rerun
	"$wp" report "$f" --outliers 2 --threshold-us 20 > "$base.outliers-2.txt"
done
echo "update-golden.sh: $(ls tests/fixtures/*.txt | wc -l) golden reports in tests/fixtures/"
