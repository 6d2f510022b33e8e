"""Shared helpers of the package's tests: the source tree, the CLI binary
and its build folder ($AB_BUILD_DIR, else ../../build), and the package
imported from this tree (python/)."""

import csv
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.dirname(HERE)
REPO = os.path.dirname(PKG)
BUILD = os.environ.get("AB_BUILD_DIR") or os.path.join(REPO, "build")
BIN = os.path.join(BUILD, "arenabench")
SHARED = os.path.join(os.path.dirname(REPO), "shared")
STARTER = sorted(os.path.join(REPO, "graphs", "starter", f)
                 for f in os.listdir(os.path.join(REPO, "graphs", "starter"))
                 if f.endswith(".graph"))

sys.path.insert(0, PKG)
os.environ.setdefault("AB_BUILD_DIR", BUILD)


def run_cli(*args, check=True, env=None):
    """The CLI's exit status, stdout and stderr."""
    r = subprocess.run([BIN, *args], capture_output=True, text=True, cwd=REPO,
                       env=env)
    if check and r.returncode not in (0, 1):
        raise AssertionError(f"arenabench {' '.join(args)}: exit {r.returncode}\n{r.stderr}")
    return r


def cli_offsets(path, planner, align, tmp_path):
    """The offsets the CLI's plan --emit-plan writes, by buffer in problem
    order."""
    out = tmp_path / f"plan_{planner}_{align}.csv"
    r = run_cli("plan", path, "--planner", planner, "--align", str(align),
                "--emit-plan", str(out))
    assert r.returncode == 0, r.stderr
    with open(out, newline="") as f:
        return [int(row["offset"]) for row in csv.DictReader(f)]


@pytest.fixture(scope="session")
def ab():
    import arenabench
    return arenabench
