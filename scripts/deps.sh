#!/bin/sh
# Installs the Debian packages a make target needs.
# Usage: scripts/deps.sh GROUP...   (groups: build test onnx plots paper cli fuzz fresh
#   campaign campaign-ssh slurm campaign-test report report-test python python-test)
# As root it runs apt-get; otherwise it prints the exact command and fails.
set -eu

pkgs_for() {
	case "$1" in
	build) echo "make gcc g++ libbenchmark-dev" ;;
	test)  echo "libcriterion-dev" ;;
	# the ONNX importer (libonnx + protobuf headers), its tests' node
	# models and the independent size check (Debian's python3-onnx)
	onnx)  echo "libonnx-dev libprotobuf-dev python3-onnx libonnx-testdata" ;;
	plots) echo "gnuplot-nox" ;;
	paper) echo "gnuplot-nox texlive-latex-base texlive-latex-recommended texlive-latex-extra lmodern" ;;
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
	python-test) echo "python3 python3-numpy python3-pytest gnuplot-nox" ;;
	*) echo "scripts/deps.sh: unknown group '$1' (expected build, test, onnx, plots, paper, cli, fuzz, fresh, campaign, campaign-ssh, slurm, campaign-test, report, report-test, python or python-test)" >&2; exit 2 ;;
	esac
}

missing=""
for group in "$@"; do
	for p in $(pkgs_for "$group"); do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
			case " $missing " in *" $p "*) ;; *) missing="$missing $p" ;; esac
		fi
	done
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ]; then
	echo "scripts/deps.sh: installing:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >&2
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing >&2
else
	echo "scripts/deps.sh: missing Debian packages:$missing" >&2
	echo "Install them with:" >&2
	echo "  sudo apt-get install -y$missing" >&2
	exit 1
fi
