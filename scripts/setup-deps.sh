#!/usr/bin/env bash
# setup-deps.sh - install the Debian packages wakeprobe builds, tests and runs with.
#
# Checks each package with dpkg-query first, so on a prepared machine it costs
# a fraction of a second and needs no network. Missing packages are installed
# with apt-get, which needs root; without root it names what to install.
set -euo pipefail

# libiberty-dev demangles C++ and Rust names; g++ builds the unit tests' C++ fixture; libssl-dev
# and libcrypt-dev serve --web-config's TLS and check its bcrypt passwords
packages=(
	clang llvm libbpf-dev bpftool libelf-dev libdw-dev libiberty-dev zlib1g-dev libcriterion-dev
	pkg-config make gcc g++ libc6-dev libssl-dev libcrypt-dev
)
# extra groups, asked for by name: "test" for the test runner's helpers, "fuzz" for libFuzzer,
# "bench" for the programs the benchmark traces and the tools it holds wakeprobe against,
# "vmtest" for booting other kernels (scripts/vmtest.sh), "inferno" for Debian's cargo and the
# certificates it reaches crates.io with, to build inferno-flamegraph where no other cargo is
# found (scripts/install-inferno.sh)
for group in "$@"; do
	case "$group" in
	test) packages+=(procps python3 valgrind man-db groff-base prometheus chromium linux-perf redis-server redis-tools nginx-light apache2-utils stress-ng debuginfod golang-go curl openssl) ;;
	fuzz) packages+=(libclang-rt-14-dev) ;;
	bench) packages+=(python3 linux-perf redis-server redis-tools stress-ng libbpf-tools rt-tests) ;;
	vmtest) packages+=(qemu-system-x86 kmod busybox-static python3-venv linux-perf) ;;
	inferno) packages+=(cargo ca-certificates) ;;
	*) echo "setup-deps.sh: unknown group '$group'" >&2; exit 2 ;;
	esac
done

missing=()
for pkg in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	[[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "setup-deps.sh: missing packages: ${missing[*]}; install them as root: apt-get install ${missing[*]}" >&2
		exit 1
	fi
else
	SUDO=
fi

echo "setup-deps.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
