#!/usr/bin/env bash
# as-root.sh - run a command as root: directly when already root, else through
# sudo when it is there, else as is (tracing then stops with a message naming
# the fix, and root-only tests skip with their reason).
if [[ $(id -u) -eq 0 ]]; then
	exec "$@"
elif command -v sudo >/dev/null 2>&1; then
	exec sudo --preserve-env=WAKEPROBE,WAKEPROBE_WORKLOAD_DIR,WAKEPROBE_FIXTURES,WAKEPROBE_SANITIZED,WAKE_COUNT,INFERNO_FLAMEGRAPH,HANDOFF_STACKS,CHANNEL,RELAY,GOCHAN,VMTEST_BUILD "$@"
else
	exec "$@"
fi
