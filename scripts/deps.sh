#!/bin/sh
# Installs the Debian packages a make target needs.
# Usage: scripts/deps.sh [--check] GROUP...   (groups: build test onnx plots paper cli
#   fuzz fresh campaign campaign-ssh slurm campaign-test report report-test python
#   python-test)
# As root it runs apt-get; otherwise it prints the exact command and fails.
# --check installs nothing: it names what is missing and the command that
# installs it (`make deps`), and fails; plain `make` checks this way.
# Another apt-get or dpkg holding the lock (unattended upgrades on a new
# machine) is waited for, up to DEPS_LOCK_WAIT seconds (600), with a line
# every 30 s.
set -eu
check_only=0
if [ "${1:-}" = --check ]; then
	check_only=1
	shift
fi
lock_wait=${DEPS_LOCK_WAIT:-600}
# For tests/test-deps-lock.sh: DEPS_ASSUME_MISSING=1 takes every package as
# missing, DEPS_DRY_RUN=1 prints the apt-get commands instead of running them.
assume_missing=${DEPS_ASSUME_MISSING:-0}
dry_run=${DEPS_DRY_RUN:-0}

pkgs_for() {
	case "$1" in
	build) echo "make gcc g++ libbenchmark-dev" ;;
	test)  echo "libcriterion-dev" ;;
	# the ONNX importer (libonnx + protobuf headers), its tests' node
	# models and the independent size check (Debian's python3-onnx)
	onnx)  echo "libonnx-dev libprotobuf-dev python3-onnx libonnx-testdata" ;;
	plots) echo "gnuplot-nox" ;;
	# (poppler-utils: pdftotext, with which the own-corpus test reads the built paper)
	paper) echo "gnuplot-nox texlive-latex-base texlive-latex-recommended texlive-latex-extra lmodern poppler-utils" ;;
	cli)   echo "hyperfine" ;;
	fuzz)  echo "clang libclang-rt-dev" ;;
	fresh) echo "mmdebstrap debian-archive-keyring git" ;;
	campaign) echo "parallel" ;;
	campaign-ssh) echo "parallel openssh-client rsync" ;;
	slurm) echo "parallel slurm-client" ;;
	campaign-test) echo "parallel openssh-client openssh-server rsync slurm-wlm munge" ;;
	# make report (the figures as SVG), and its test in a real browser
	report) echo "gnuplot-nox" ;;
	report-test) echo "gnuplot-nox chromium" ;;
	# the Python package (ctypes over build/libarenabench.so; docs/python.md):
	# Debian's interpreter, numpy, and pip/setuptools for an offline install
	python) echo "python3 python3-numpy python3-pip python3-setuptools python3-venv" ;;
	# its tests, and the install that README's and docs/python.md's blocks run
	python-test) echo "python3 python3-numpy python3-pytest python3-pip python3-setuptools python3-venv gnuplot-nox" ;;
	*) echo "scripts/deps.sh: unknown group '$1' (expected build, test, onnx, plots, paper, cli, fuzz, fresh, campaign, campaign-ssh, slurm, campaign-test, report, report-test, python or python-test)" >&2; exit 2 ;;
	esac
}

missing=""
for group in "$@"; do
	for p in $(pkgs_for "$group"); do
		if [ "$assume_missing" = 1 ] ||
			! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
			case " $missing " in *" $p "*) ;; *) missing="$missing $p" ;; esac
		fi
	done
done
[ -z "$missing" ] && exit 0

if [ "$check_only" = 1 ]; then
	echo "scripts/deps.sh: missing Debian packages:$missing" >&2
	echo "Install them with:  make deps" >&2
	exit 1
fi

# apt_locked FILE: another process holds dpkg's or apt's lock on FILE
# (dpkg and apt take fcntl locks; flock cannot see them, python3's
# fcntl.lockf can, and a new Debian root without python3 waits on apt's own
# Lock::Timeout below instead).
apt_locked() {
	[ -e "$1" ] && command -v python3 >/dev/null 2>&1 || return 1
	python3 -c 'import fcntl, sys
f = open(sys.argv[1], "r+")
try:
    fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
except OSError:
    sys.exit(0)
sys.exit(1)' "$1" 2>/dev/null
}
wait_for_apt() {
	waited=0
	while apt_locked /var/lib/dpkg/lock-frontend || apt_locked /var/lib/apt/lists/lock ||
		apt_locked /var/lib/dpkg/lock; do
		if [ "$waited" -ge "$lock_wait" ]; then
			echo "scripts/deps.sh: another apt-get or dpkg still holds its lock after ${lock_wait} s; not installing:$missing" >&2
			exit 1
		fi
		[ $((waited % 30)) = 0 ] &&
			echo "scripts/deps.sh: waiting for another apt-get or dpkg to finish (its lock is held; ${waited} s of at most ${lock_wait} s)" >&2
		sleep 2
		waited=$((waited + 2))
	done
}

if [ "$(id -u)" = 0 ]; then
	echo "scripts/deps.sh: installing:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt=apt-get
	[ "$dry_run" = 1 ] && apt="echo would run: apt-get"
	wait_for_apt
	$apt -o DPkg::Lock::Timeout="$lock_wait" update -q >&2
	wait_for_apt
	# shellcheck disable=SC2086
	$apt -o DPkg::Lock::Timeout="$lock_wait" install -y -q --no-install-recommends $missing >&2
else
	echo "scripts/deps.sh: missing Debian packages:$missing" >&2
	echo "Install them with:" >&2
	echo "  sudo apt-get install -y$missing" >&2
	exit 1
fi
