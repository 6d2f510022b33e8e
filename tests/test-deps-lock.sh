#!/bin/sh
# scripts/deps.sh waits for a dpkg lock held by another process (as
# unattended upgrades hold it on a new cloud machine) instead of dying on
# "Could not get lock", and gives up after DEPS_LOCK_WAIT seconds naming
# the cause.  Root only (the lock files are root's); skipped otherwise.
set -u
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ] || ! command -v python3 >/dev/null 2>&1 || [ ! -e /var/lib/dpkg/lock-frontend ]; then
	echo "deps-lock: skipped: needs root, python3 and /var/lib/dpkg (not a Debian root?)"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/deps-lock.XXXXXX")
holder=""
trap '[ -n "$holder" ] && kill $holder 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# hold SECONDS: takes dpkg's frontend lock the way apt does (fcntl), in the
# background, and returns once it is held.
hold() {
	rm -f "$tmp/held"
	python3 -c 'import fcntl, sys, time
f = open("/var/lib/dpkg/lock-frontend", "r+")
fcntl.lockf(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(float(sys.argv[1]))' "$1" "$tmp/held" &
	holder=$!
	i=0
	while [ ! -e "$tmp/held" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}

# 1. A lock released after 5 s is waited for, then apt-get runs.
hold 3
t0=$(date +%s)
DEPS_ASSUME_MISSING=1 DEPS_DRY_RUN=1 DEPS_LOCK_WAIT=60 sh scripts/deps.sh cli >"$tmp/out1" 2>&1
rc=$?
t1=$(date +%s)
wait $holder 2>/dev/null; holder=""
if [ $rc = 0 ] && grep -q 'waiting for another apt-get or dpkg' "$tmp/out1" &&
	grep -q 'would run: apt-get .* install .*hyperfine' "$tmp/out1" && [ $((t1 - t0)) -ge 3 ]; then
	ok "a held lock is waited for ($((t1 - t0)) s), then apt-get runs"
else
	bad "a held lock: exit $rc after $((t1 - t0)) s; output:"; sed 's/^/    /' "$tmp/out1"
fi

# 2. A lock held longer than DEPS_LOCK_WAIT: exit 1, naming the lock.
hold 20
DEPS_ASSUME_MISSING=1 DEPS_DRY_RUN=1 DEPS_LOCK_WAIT=2 sh scripts/deps.sh cli >"$tmp/out2" 2>&1
rc=$?
kill $holder 2>/dev/null; wait $holder 2>/dev/null; holder=""
if [ $rc = 1 ] && grep -q 'still holds its lock after 2 s; not installing: hyperfine' "$tmp/out2" &&
	! grep -q 'would run' "$tmp/out2"; then
	ok "a lock held past DEPS_LOCK_WAIT fails naming it"
else
	bad "a lock held too long: exit $rc; output:"; sed 's/^/    /' "$tmp/out2"
fi

# 3. --check never installs: it names the packages and `make deps`.
DEPS_ASSUME_MISSING=1 sh scripts/deps.sh --check cli >"$tmp/out3" 2>&1
rc=$?
if [ $rc = 1 ] && grep -q 'missing Debian packages: hyperfine' "$tmp/out3" && grep -q 'make deps' "$tmp/out3" &&
	! grep -q 'would run\|installing' "$tmp/out3"; then
	ok "--check names the missing packages and 'make deps', installs nothing"
else
	bad "--check: exit $rc; output:"; sed 's/^/    /' "$tmp/out3"
fi
echo "deps-lock: $pass passed, $fail failed"
[ $fail = 0 ]
