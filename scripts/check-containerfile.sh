#!/usr/bin/env bash
# check-containerfile.sh - build dist/Containerfile without a container engine: each stage's
# base image stands in as a Debian bookworm debootstrapped into a directory (minbase, the
# variant Debian's images are made from), and the file's own WORKDIR, COPY and RUN lines are
# run there in order with chroot. Then, in the run stage's tree: ldd of the entrypoint, where
# every library must resolve, and the entrypoint's --help.
#
# A check for a developer, not part of make test: it needs root and Debian's mirror, and takes
# some minutes. The trees are /tmp/ctr-build and /tmp/ctr-run, removed at the end (KEEP=1
# keeps them). It reads only the instructions the file uses, and stops at any other.
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=$PWD
FILE=dist/Containerfile
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
TREES=(/tmp/ctr-build /tmp/ctr-run)

[[ $(id -u) -eq 0 ]] || { echo "check-containerfile.sh: run it as root (debootstrap, chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null

unmount() { # every mount under $1, deepest first
	findmnt -rn -o TARGET | { grep -E "^$1(/|$)" || true; } | sort -r | while read -r m; do umount "$m"; done
}
cleanup() {
	for t in "${TREES[@]}"; do
		unmount "$t" || true
		# never remove a tree with anything still mounted in it (a bound /dev, say)
		if [[ "${KEEP:-}" != 1 ]] && ! findmnt -rn -o TARGET | grep -qE "^$t(/|$)"; then
			rm -rf --one-file-system "$t"
		fi
	done
}
trap cleanup EXIT

# new_stage N IMAGE: tree N holds a bookworm as the image has it, /proc and /dev mounted as RUN has
new_stage() {
	local t=${TREES[$1]}
	case "$2" in
	debian:bookworm | debian:bookworm-slim) ;;
	*) echo "check-containerfile.sh: no stand-in for the image $2" >&2; exit 1 ;;
	esac
	unmount "$t"; rm -rf --one-file-system "$t"
	echo "== FROM $2: debootstrap --variant=minbase bookworm $t"
	debootstrap --variant=minbase bookworm "$t" "$MIRROR" >"$t.log" 2>&1 </dev/null || { tail "$t.log"; exit 1; }
	rm -f "$t.log" "$t/etc/apt/sources.list"
	# the images' sources: the release, its updates and its security updates
	printf 'Types: deb\nURIs: %s\nSuites: bookworm bookworm-updates\nComponents: main\n\nTypes: deb\nURIs: %s\nSuites: bookworm-security\nComponents: main\n' \
		"$MIRROR" "${MIRROR%/debian}/debian-security" >"$t/etc/apt/sources.list.d/debian.sources"
	cp /etc/resolv.conf "$t/etc/resolv.conf"
	mount -t proc proc "$t/proc"
	mount --bind /dev "$t/dev"
}

# in_tree CMD: CMD as a RUN line runs it: sh -c in the working directory, the images' PATH
in_tree() {
	chroot "$tree" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		/bin/sh -c "cd '$workdir' && $1" </dev/null
}

stage=-1 tree= workdir=/ entrypoint=
declare -A stage_of
# the instructions, continuation lines joined, comments and blank lines left out
while read -r op args <&3; do
	case "$op" in
	FROM)
		stage=$((stage + 1)); tree=${TREES[$stage]:?only two stages are handled}; workdir=/
		new_stage "$stage" "${args%% *}"
		[[ "$args" =~ [[:space:]][Aa][Ss][[:space:]]+([^[:space:]]+) ]] && stage_of[${BASH_REMATCH[1]}]=$tree
		;;
	WORKDIR) workdir=$args; mkdir -p "$tree$workdir" ;;
	COPY)
		echo "== COPY $args"
		from=$SRC
		if [[ "$args" == --from=* ]]; then
			from=${args%% *}; from=${stage_of[${from#--from=}]:?unknown stage in COPY $args}; args=${args#* }
		fi
		read -ra parts <<<"$args"
		dst=${parts[-1]}; [[ "$dst" == /* ]] || dst=$workdir/$dst
		for s in "${parts[@]:0:${#parts[@]}-1}"; do
			if [[ -d "$from/$s" ]]; then # a directory's contents, as COPY does
				mkdir -p "$tree$dst" && cp -a "$from/$s/." "$tree$dst/"
			elif [[ "$dst" == */ ]]; then
				mkdir -p "$tree$dst" && cp -a "$from/$s" "$tree$dst"
			else
				mkdir -p "$(dirname "$tree$dst")" && cp -a "$from/$s" "$tree$dst"
			fi
		done
		;;
	RUN) echo "== RUN $args"; in_tree "$args" ;;
	ENTRYPOINT) entrypoint=$(sed -E 's/^\[ *"([^"]+)".*/\1/' <<<"$args") ;;
	EXPOSE | STOPSIGNAL | CMD) ;;
	*) echo "check-containerfile.sh: $op is not handled" >&2; exit 1 ;;
	esac
done 3< <(sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$FILE" | sed -e ':a' -e '/\\$/N; s/\\\n//; ta')

echo "== ldd $entrypoint (in $tree)"
out=$(in_tree "ldd $entrypoint")
echo "$out"
! grep -q 'not found' <<<"$out" || { echo "check-containerfile.sh: a library does not resolve" >&2; exit 1; }
echo "== $entrypoint --help (in $tree)"
out=$(in_tree "$entrypoint --help")
head -3 <<<"$out"
echo "check-containerfile.sh: the image's binary runs, every library found"
