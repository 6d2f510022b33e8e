#!/bin/sh
# README's two commands on fresh Debian machines, proved: builds a minimal
# Debian bookworm root from Debian's packages (mmdebstrap, variant minbase,
# plus make and git, which a user who cloned the repository has) and runs,
# as root inside it, README's two commands
#   make test
#   make bench CORPUS_DIRS=graphs/starter    (a reduced corpus, to save time)
# in two clean clones of HEAD, one after the other:
#   1. /root/public/arenabench with no ../shared at all, as a clone from a
#      public host is (the tests that need it skip, by name);
#   2. /root/arenabench with ../shared copied beside it, dereferenced (a
#      symlinked ../shared is copied as the folder it points to).
# The first installs every package it needs through the project's own make
# rules (scripts/deps.sh): nothing else is there.  mmdebstrap's progress
# and each step's time are shown.
#
# Usage: scripts/fresh-check.sh            (as root; `make fresh-check`)
# Environment: FRESH_MIRROR (default http://deb.debian.org/debian),
#   FRESH_KEEP=1 keeps the root for inspection (its path is printed),
#   FRESH_VARIANTS ("public shared", the default; either alone).
# Exit status: that of the failing command, 0 when every variant passes.
set -eu
cd "$(dirname "$0")/.."
repo=$(pwd)
mirror=${FRESH_MIRROR:-http://deb.debian.org/debian}
start=$(date +%s)
say() { printf 'fresh-check [%ss]: %s\n' "$(( $(date +%s) - start ))" "$*" >&2; }

if [ "$(id -u)" != 0 ]; then
	echo "fresh-check: needs root (it builds a Debian root and chroots into it)" >&2
	exit 2
fi
for t in mmdebstrap git chroot mount umount; do
	command -v "$t" >/dev/null 2>&1 || {
		echo "fresh-check: $t not found (install with: sh scripts/deps.sh fresh)" >&2
		exit 2
	}
done

work=$(mktemp -d "${TMPDIR:-/var/tmp}/arenabench-fresh.XXXXXX")
root=$work/root
mounted=""
cleanup() {
	status=$?
	trap - EXIT INT TERM HUP
	for m in $mounted; do umount -l "$m" 2>/dev/null || true; done
	# Remove the root only once nothing of the host is mounted in it.
	if [ "${FRESH_KEEP:-0}" = 1 ]; then
		say "kept the root in $root"
	elif ! grep -q " $work/" /proc/mounts; then
		rm -rf --one-file-system "$work"
	else
		echo "fresh-check: $work still has mounts; not removed" >&2
	fi
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

say "building a minimal bookworm root in $root (mmdebstrap's progress follows)"
# mmdebstrap's own lines, prefixed, as they come; its status, not tee's.
{ mmdebstrap --verbose --variant=minbase --include=make,git,ca-certificates \
	bookworm "$root" "$mirror" 2>&1; echo "$?" >"$work/mmdebstrap.status"; } |
	tee "$work/mmdebstrap.log" | grep --line-buffered -E '^I: |^E: |^W: ' |
	sed -u 's/^/fresh-check: mmdebstrap: /' >&2
if [ "$(cat "$work/mmdebstrap.status")" != 0 ]; then
	tail -20 "$work/mmdebstrap.log" >&2
	echo "fresh-check: mmdebstrap failed (log above)" >&2
	exit 1
fi
for t in gcc cc criterion; do
	if chroot "$root" sh -c "command -v $t" >/dev/null 2>&1; then
		echo "fresh-check: the new root already has $t: not a fresh machine" >&2
		exit 1
	fi
done

variants=${FRESH_VARIANTS:-public shared}
rev=$(git rev-parse --short HEAD)
for v in $variants; do
	case $v in
	public)
		say "a clean clone of HEAD ($rev) at /root/public/arenabench, no ../shared beside it"
		mkdir -p "$root/root/public"
		git clone --quiet --no-local "$repo" "$root/root/public/arenabench" ;;
	shared)
		say "a clean clone of HEAD ($rev) at /root/arenabench, ../shared copied beside it"
		git clone --quiet --no-local "$repo" "$root/root/arenabench"
		if [ -d ../shared ]; then
			# -L: a symlinked ../shared (or links inside it) is copied
			# as what it points to, not as a dangling link.
			cp -RL --preserve=mode,timestamps ../shared "$root/root/shared"
		else
			say "no ../shared beside this repository: the 'shared' variant runs without it"
		fi ;;
	*) echo "fresh-check: unknown variant '$v' (expected public or shared)" >&2; exit 2 ;;
	esac
done
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
for m in proc sys dev dev/pts; do
	mkdir -p "$root/$m"
	case $m in
	proc) mount -t proc proc "$root/proc" ;;
	sys) mount --bind /sys "$root/sys" ;;
	dev) mount --bind /dev "$root/dev" ;;
	dev/pts) mount --bind /dev/pts "$root/dev/pts" ;;
	esac
	mounted="$root/$m $mounted"
done

run() { # DIR COMMAND...
	dir=$1
	shift
	say "inside the root, in $dir: $*"
	t0=$(date +%s)
	chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		sh -c "cd $dir && $*"
	say "done in $(( $(date +%s) - t0 )) s: $*"
}
for v in $variants; do
	case $v in
	public) dir=/root/public/arenabench ;;
	shared) dir=/root/arenabench ;;
	esac
	run "$dir" make test
	run "$dir" make bench CORPUS_DIRS=graphs/starter
	run "$dir" test -s results/results.csv
	say "passed ($v): make test and make bench on a fresh bookworm root"
done
say "passed: every variant ($variants)"
echo "fresh-check: $(echo $variants | wc -w) passed, 0 failed"
