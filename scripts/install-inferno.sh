#!/usr/bin/env bash
# install-inferno.sh - make inferno-flamegraph, the inferno crate's renderer of folded stacks
# ("frame;frame;frame count" lines, as flamegraph.pl reads them) into an SVG flame graph, ready
# at $WAKEPROBE_INFERNO_CACHE/bin/inferno-flamegraph (default /var/cache/wakeprobe/inferno): the
# system tests hand wakeprobe's folded output to it, a reader of the format that is not ours.
#
# Already there at the pinned version, it does nothing else: no network, a few milliseconds, so
# `make test` runs it every time. Otherwise it builds the crate from crates.io with `cargo install
# --locked` (the crate's own Cargo.lock), with the cargo on PATH, else $HOME/.cargo/bin's
# (rustup's, where make runs with a PATH that lacks it), else Debian's cargo package, installed by
# `scripts/setup-deps.sh inferno`. Besides the cache folder, that leaves cargo's downloads in
# $CARGO_HOME (and Debian's cargo and rustc where it installed them); cargo builds in a temporary
# folder it removes. A script of its own, not a group of setup-deps.sh, which installs and checks
# Debian packages alone: this is a crate, built into a folder of its own, as scripts/vmtest.sh puts
# virtme-ng in a venv.
#
# Why 0.11.14: it is the last release that builds with Debian 12's rustc 1.63 (0.11.15 moved to
# clap 4, whose clap_lex needs rustc 1.64; from 0.11.20 on the crate asks for 1.71), and its
# lockfile builds as it is with 1.63 and with rustup's current stable alike, to the same output.
# Built: the one binary (not the collapse tools), without debug information, the crate's release
# profile's or the standard library's (13 to 23 MB instead of 1.6), with the one feature it needs,
# "cli" (clap and env_logger); the defaults add "multithreaded", which only the collapse tools
# use, and "nameattr", which only --nameattr does.
#
# What it does with a line it cannot read (no count, a count that is not a number or is negative):
# it skips the line, warns "Ignored N lines with invalid format" on stderr, and exits 0 when other
# lines were good; with no good line it says "No stack counts found", still writes a small SVG
# (its text "ERROR: No valid input provided to flamegraph") and exits 1. A fractional count is
# truncated, with a warning. So a test that holds our output to it reads stderr, not only the
# exit status.
set -euo pipefail
cd "$(dirname "$0")/.."
INFERNO=0.11.14
root=${WAKEPROBE_INFERNO_CACHE:-/var/cache/wakeprobe/inferno}
bin=$root/bin/inferno-flamegraph

# cargo writes what it installed, and at which version, to the root's .crates.toml
installed() {
	[[ -x $bin ]] && grep -q "^\"inferno $INFERNO " "$root/.crates.toml" 2>/dev/null
}
installed && exit 0

say() { echo "install-inferno.sh: $*" >&2; }

if ! mkdir -p "$root" 2>/dev/null || [[ ! -w $root ]]; then
	if [[ $(id -u) -ne 0 ]] && command -v sudo >/dev/null 2>&1; then
		exec sudo --preserve-env=WAKEPROBE_INFERNO_CACHE "$PWD/scripts/install-inferno.sh"
	fi
	say "cannot write $root: run it as root, or name a folder of yours in WAKEPROBE_INFERNO_CACHE"
	exit 1
fi

# one build at a time: two make test runs in two work trees share the folder
exec 9>"$root/.lock"
flock 9
installed && exit 0

cargo=$(command -v cargo || true)
[[ -z $cargo && -x ${HOME:-/nonexistent}/.cargo/bin/cargo ]] && cargo=$HOME/.cargo/bin/cargo
if [[ -z $cargo ]]; then
	say "no cargo on PATH nor in \$HOME/.cargo/bin: installing Debian's"
	scripts/setup-deps.sh inferno
	cargo=$(command -v cargo || true)
	[[ -n $cargo ]] || { say "Debian's cargo package did not put cargo on PATH ($PATH)"; exit 1; }
fi
# cargo runs the rustc it finds on PATH: the one beside it, rustup's proxy where it is rustup's
PATH=$(dirname "$cargo"):$PATH

# cargo before 1.68 (Debian 12's is 1.65) reads crates.io's index by cloning its git repository,
# hundreds of MB; the sparse protocol, stable from 1.68 on, fetches the few files it needs over
# HTTP, and Debian's 1.65 takes it as -Z sparse-registry
cargo_version=$("$cargo" --version | awk '{ print $2 }')
cargo_minor=${cargo_version#1.}
cargo_minor=${cargo_minor%%.*}
flags=()
[[ $cargo_minor =~ ^[0-9]+$ && $cargo_minor -lt 68 ]] && flags=(-Z sparse-registry)

say "building inferno $INFERNO with $cargo ($cargo_version) into $root; the log is $root/install.log"
start=$SECONDS
# --force: an older version, or a binary lost from a root that still lists it, is replaced
if ! CARGO_PROFILE_RELEASE_DEBUG=false CARGO_PROFILE_RELEASE_STRIP=debuginfo \
	"$cargo" "${flags[@]}" install --locked --force --root "$root" inferno --version "$INFERNO" \
	--no-default-features --features cli --bin inferno-flamegraph \
	>"$root/install.log" 2>&1; then
	tail -20 "$root/install.log" >&2
	say "cargo install of inferno $INFERNO failed (it needs rustc 1.63 or newer, and crates.io);" \
		"the whole log is $root/install.log"
	exit 1
fi
installed || { say "cargo installed inferno, but not $bin at $INFERNO"; exit 1; }
say "inferno-flamegraph $INFERNO is $bin ($((SECONDS - start)) s)"
