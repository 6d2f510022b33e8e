#!/bin/sh
# README's two commands on a fresh Debian machine, proved: builds a minimal
# Debian bookworm root from Debian's packages (mmdebstrap, variant minbase,
# plus make and git, which a user who cloned the repository has), copies a
# clean clone of HEAD and ../shared into it, and runs, as root inside it,
#   make test
#   make bench CORPUS_DIRS=graphs/starter    (a reduced corpus, to save time)
# exactly as README gives them.  Every package they need must be installed
# by the project's own make rules (scripts/deps.sh): nothing else is there.
#
# Usage: scripts/fresh-check.sh            (as root; `make fresh-check`)
# Environment: FRESH_MIRROR (default http://deb.debian.org/debian),
#   FRESH_KEEP=1 keeps the root for inspection (its path is printed).
# Exit status: that of the failing command, 0 when both pass.
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

say "building a minimal bookworm root in $root"
mmdebstrap --quiet --variant=minbase --include=make,git,ca-certificates \
	bookworm "$root" "$mirror" >"$work/mmdebstrap.log" 2>&1 || {
	tail -20 "$work/mmdebstrap.log" >&2
	echo "fresh-check: mmdebstrap failed (log above)" >&2
	exit 1
}
for t in gcc cc criterion; do
	if chroot "$root" sh -c "command -v $t" >/dev/null 2>&1; then
		echo "fresh-check: the new root already has $t: not a fresh machine" >&2
		exit 1
	fi
done

say "copying a clean clone of HEAD ($(git rev-parse --short HEAD)) and ../shared"
git clone --quiet --no-local "$repo" "$root/root/arenabench"
if [ -d ../shared ]; then
	cp -a ../shared "$root/root/shared"
else
	say "no ../shared beside the repository: the tests that need it skip"
fi
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

run() {
	say "inside the root: $*"
	chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		sh -c "cd /root/arenabench && $*"
}
run make test
run make bench CORPUS_DIRS=graphs/starter
run test -s results/results.csv
say "passed: make test and make bench on a fresh bookworm root"
