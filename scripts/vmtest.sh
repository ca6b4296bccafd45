#!/usr/bin/env bash
# vmtest.sh [KERNEL...] - wakeprobe's smoke suite on the kernels its users run,
# each booted under QEMU with this machine's root file system shared in
# (virtme-ng), and on this machine's own kernel. The tests count, they do not
# time: a kernel under software emulation runs some 50 times slower.
#
#   6.1    Debian 12's kernel (bookworm), the newest linux-image-6.1.0-N-amd64
#   6.12   Debian's 6.12 (bookworm-security), the newest 6.12.N+deb12-amd64
#   5.10   Debian 11's (bullseye-security): below wakeprobe's floor, where every
#          traced mode must say in one line what is missing
#   host   the running kernel, without a VM
#
# Default: 6.1 6.12 5.10 host. Each guest runs the system tests of the suites
# kernel, floor and counts (tests/system/test_kernel.c, test_counts.c); 6.1 and
# 6.12 run the unit tests too. The binaries are the build's ($VMTEST_BUILD,
# default build/; `make vmtest` builds them first). What it installs: QEMU,
# kmod and busybox (for the initramfs) from Debian, virtme-ng from PyPI in a
# venv, and the kernel packages, unpacked into $WAKEPROBE_VMTEST_CACHE
# (default /var/cache/wakeprobe/vmtest): nothing lands in /boot or /lib/modules. Each guest's output and
# results are in build/vmtest/KERNEL/. Exit status: 0 when every kernel passed.
#
# Inside a guest it runs itself as: vmtest.sh --guest BUILD OUTDIR FILTER UNIT
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${VMTEST_BUILD:-$root/build}
cache=${WAKEPROBE_VMTEST_CACHE:-/var/cache/wakeprobe/vmtest}
VIRTME_NG=virtme-ng==1.42
# a guest that runs longer than this is stopped and fails: the slowest, with the unit tests, takes 30 min
GUEST_MINUTES=${VMTEST_GUEST_MINUTES:-60}
SMOKE='@(kernel|floor|counts)/*'

test_env() {
	export WAKEPROBE=$build/wakeprobe WAKEPROBE_WORKLOAD_DIR=$build/workloads
	export WAKEPROBE_FIXTURES=$root/tests/fixtures WAKE_COUNT=$build/bench/wake-count
}

# --guest BUILD OUTDIR FILTER UNIT: in the booted kernel, as root; the results into OUTDIR
if [[ ${1:-} == --guest ]]; then
	build=$2 out=$3 filter=$4 unit=$5
	test_env
	# the tests whose load would outrun a reader under emulation take a smaller one (tests/system/helpers.h)
	export WAKEPROBE_TEST_EMULATED=1
	uname -r >"$out/release"
	rc=0
	"$build/wakeprobe" kernel >"$out/kernel.txt" 2>&1 || echo "wakeprobe kernel: exit $?" >>"$out/kernel.txt"
	if [[ $unit == 1 ]]; then
		# two at once keep the emulated CPUs busy while the other waits on the shared file system
		"$build/tests/unit-tests" --verbose=0 -j2 >"$out/unit.log" 2>&1 || rc=1
	fi
	"$build/tests/system-tests" --verbose=0 -j1 --filter "$filter" >"$out/system.log" 2>&1 || rc=1
	echo "$rc" >"$out/status"
	exit 0
fi

say() { echo "vmtest: $*" >&2; }

kernels=("$@")
[[ ${#kernels[@]} -gt 0 ]] || kernels=(6.1 6.12 5.10 host)
for k in "${kernels[@]}"; do
	case $k in
	6.1 | 6.12 | 5.10 | host) ;;
	*) echo "vmtest.sh: unknown kernel '$k': give 6.1, 6.12, 5.10 or host" >&2; exit 2 ;;
	esac
done
for f in wakeprobe tests/unit-tests tests/system-tests bench/wake-count; do
	[[ -x $build/$f ]] || { echo "vmtest.sh: $build/$f is not built: run make vmtest" >&2; exit 2; }
done
[[ $(id -u) -eq 0 ]] || { echo "vmtest.sh: booting kernels and tracing in them needs root: sudo make vmtest" >&2; exit 2; }

scripts/setup-deps.sh vmtest
mkdir -p "$cache"
if [[ ! -x $cache/venv/bin/vng ]] || ! "$cache/venv/bin/pip" show virtme-ng 2>/dev/null | grep -x "Version: ${VIRTME_NG#*==}" >/dev/null; then
	say "installing $VIRTME_NG from PyPI into $cache/venv"
	python3 -m venv "$cache/venv"
	"$cache/venv/bin/pip" install -q "$VIRTME_NG"
fi
export PATH=$cache/venv/bin:$PATH

# apt with lists of its own: bullseye's security archive is no source of this machine's
apt_private() {
	local a="$cache/apt"
	mkdir -p "$a/lists/partial" "$a/archives/partial"
	cat >"$a/sources.list" <<-EOF
	deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main
	deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security bookworm-security main
	deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security bullseye-security main
	EOF
	"$@" -o Dir::Etc::SourceList="$a/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
		-o Dir::State::Lists="$a/lists" -o Dir::Cache="$a" -o Dir::Cache::Archives="$a/archives" \
		-o APT::Get::List-Cleanup=false -o APT::Sandbox::User=root
}

# kernel_package SERIES - the newest unsigned amd64 image of SERIES the archives hold
kernel_package() {
	local pattern
	case $1 in
	6.1) pattern='^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$' ;;
	6.12) pattern='^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$' ;;
	5.10) pattern='^linux-image-5\.10\.0-[0-9]+-amd64-unsigned$' ;;
	esac
	apt_private apt-cache pkgnames linux-image- | grep -E "$pattern" | sort -V | tail -1
}

# kernel_dir SERIES - the unpacked kernel of SERIES: boot/vmlinuz-* and lib/modules/* under it
kernel_dir() {
	local pkg dir deb
	pkg=$(kernel_package "$1")
	[[ -n $pkg ]] || { echo "vmtest.sh: no $1 kernel package in Debian's archives" >&2; return 1; }
	dir=$cache/kernels/${pkg#linux-image-}
	dir=${dir%-unsigned}
	if [[ ! -d $dir/boot ]]; then
		say "downloading $pkg"
		(cd "$cache/apt/archives" && apt_private apt-get download -q "$pkg" >/dev/null)
		deb=$(ls -t "$cache/apt/archives/${pkg}"_*.deb | head -1)
		rm -rf "$dir.part"
		mkdir -p "$dir.part"
		dpkg-deb -x "$deb" "$dir.part"
		rm -f "$deb"
		mv "$dir.part" "$dir"
	fi
	echo "$dir"
}

say "reading Debian's kernel lists"
apt_private apt-get update -qq

declare -A kdir
for k in "${kernels[@]}"; do
	[[ $k == host ]] || kdir[$k]=$(kernel_dir "$k")
done

# boot SERIES OUTDIR FILTER UNIT - run the guest half in SERIES' kernel; its console into OUTDIR/console.log
boot() {
	local series=$1 out=$2 filter=$3 unit=$4 image
	image=$(ls "${kdir[$series]}"/boot/vmlinuz-*)
	say "booting $series: $(basename "$image")"
	# one TCG thread: with a thread per vCPU, guests froze while BPF programs were attached
	timeout --kill-after=30 "$((GUEST_MINUTES * 60))" \
		"$cache/venv/bin/vng" --run "$image" --disable-kvm --cpus 2 --memory 4G \
		--qemu-opts='-accel tcg,thread=single' --rwdir "$out" \
		--exec "$root/scripts/vmtest.sh --guest $build $out '$filter' $unit" </dev/null >"$out/console.log" 2>&1 || true
}

start=$SECONDS
for k in "${kernels[@]}"; do
	rm -rf "$build/vmtest/$k"
	mkdir -p "$build/vmtest/$k"
done
# 6.1 and 6.12 at once, each emulating its two CPUs on one of this machine's; then the rest
pids=()
for k in "${kernels[@]}"; do
	case $k in
	6.1 | 6.12)
		boot "$k" "$build/vmtest/$k" "$SMOKE" 1 &
		pids+=($!)
		;;
	esac
done
for k in "${kernels[@]}"; do
	out=$build/vmtest/$k
	case $k in
	host)
		say "the smoke suite on this machine's kernel"
		test_env
		"$build/wakeprobe" kernel >"$out/kernel.txt" 2>&1 || true
		uname -r >"$out/release"
		status=0
		"$build/tests/system-tests" --verbose=0 -j1 --filter "$SMOKE" >"$out/system.log" 2>&1 || status=1
		echo $status >"$out/status"
		;;
	esac
done
for pid in "${pids[@]}"; do
	wait "$pid" || true
done
for k in "${kernels[@]}"; do
	[[ $k == 5.10 ]] && boot 5.10 "$build/vmtest/5.10" 'floor/*' 0
done

# closing LOG - a Criterion log's closing line, shortened: "N of M passed, F failed, C crashed"
closing() {
	{ grep -a 'Synthesis' "$1" 2>/dev/null || true; } | tail -1 |
		sed 's/.*Tested: \([0-9]*\) | Passing: \([0-9]*\) | Failing: \([0-9]*\) | Crashing: \([0-9]*\).*/\2 of \1 passed, \3 failed, \4 crashed/'
}

# the table, and each failure's lines
failed=0
printf '\n%-6s %-24s %-8s %-46s %s\n' kernel release result "system tests (closing line)" "unit tests"
for k in "${kernels[@]}"; do
	out=$build/vmtest/$k
	release=$(cat "$out/release" 2>/dev/null || echo "did not boot")
	sys=$(closing "$out/system.log")
	unit=$(closing "$out/unit.log")
	if [[ $(cat "$out/status" 2>/dev/null) == 0 ]]; then
		result=passed
	else
		result=FAILED
		failed=1
	fi
	printf '%-6s %-24s %-8s %-46s %s\n' "$k" "$release" "$result" "${sys:--}" "${unit:--}"
done
for k in "${kernels[@]}"; do
	out=$build/vmtest/$k
	[[ $(cat "$out/status" 2>/dev/null) == 0 ]] && continue
	echo "--- $k: what failed"
	[[ -f $out/status ]] || { echo "the guest ended before its tests did; the end of its console:"; tail -20 "$out/console.log" 2>/dev/null; }
	grep -ahE '^\[(----|FAIL)\]' "$out/system.log" "$out/unit.log" 2>/dev/null | grep -av 'Criterion v' | head -40
done
say "$((SECONDS - start)) s; each kernel's logs are in $build/vmtest/"
exit $failed
