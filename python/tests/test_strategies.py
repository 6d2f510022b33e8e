"""Strategies from outside C and from outside the tree, benched like the
C planners: a Python strategy beside size_first_fit in the CSV and the
plots, a broken one recorded invalid with its overlap named, and a C
planner file kept in a folder outside the repository."""

import os
import shutil
import subprocess

import pytest

from conftest import BIN, BUILD, PKG, REPO, run_cli

EXAMPLE = os.path.join(PKG, "examples", "longest_first_fit.py")
TWO_BRANCH = os.path.join(REPO, "graphs", "starter", "two_branch.graph")
STARTER = os.path.join(REPO, "graphs", "starter")

# longest_first_fit on two_branch, by hand (python/examples' docstring):
# order a2, in, a1, cat, b1, im2col, out; offsets in buffer (tensor) order
# in, a1, a2, b1, im2col, cat, out
EXAMPLE_OFFSETS = [2000, 3000, 0, 4500, 6000, 2000, 0]

BROKEN = '''
def plan(problem):
    """every buffer at offset 0"""
    return [0] * problem.buffers
'''


def test_example_strategy_by_hand(ab, tmp_path):
    p = ab.Problem.from_file(TWO_BRANCH)
    plan = ab.plan(p, "py:" + EXAMPLE)
    assert plan.offsets.tolist() == EXAMPLE_OFFSETS
    assert plan.peak == 10500 and ab.check(p, plan).valid
    # the command line's child process plans the same
    out = tmp_path / "plan.csv"
    r = run_cli("plan", TWO_BRANCH, "--planner", "py:" + EXAMPLE, "--emit-plan", str(out))
    assert r.returncode == 0, r.stderr
    assert [int(l.split(",")[-1]) for l in out.read_text().splitlines()[1:]] == EXAMPLE_OFFSETS


def test_python_strategy_benched_beside_size_first_fit_and_plotted(ab, tmp_path):
    csv = tmp_path / "results.csv"
    r = run_cli("bench", STARTER, "--planners", "size_first_fit,py:" + EXAMPLE,
                "--align", "1,64", "--out", str(csv), "--quiet",
                "--benchmark_min_time=0.0001", "--benchmark_repetitions=1")
    assert r.returncode == 0, r.stderr
    rows = ab.read_results(str(csv))
    mine = [x for x in rows if x["planner"] == "longest_first_fit"]
    theirs = [x for x in rows if x["planner"] == "size_first_fit"]
    assert len(mine) == len(theirs) == 8
    assert {x["language"] for x in mine} == {"python"} and {x["language"] for x in theirs} == {"c"}
    assert all(x["valid"] == "yes" and x["plan_ns"] > 0 for x in mine)
    tb = next(x for x in mine if x["graph"] == "two_branch" and x["align"] == 1)
    assert tb["peak_bytes"] == 10500 and tb["cost_class"] == "fast"
    if not shutil.which("gnuplot"):
        pytest.skip("gnuplot is absent (scripts/deps.sh python-test installs it)")
    env = dict(os.environ, RESULTS_DIR=str(tmp_path), PLOTS_OUT=str(tmp_path / "out"),
               FORMATS="svg", REFERENCE_FALLBACK="0", ARENABENCH=BIN)
    p = subprocess.run(["sh", "plots/plots.sh"], cwd=REPO, env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    svg = (tmp_path / "out" / "bytes.svg").read_text()
    assert "longest_first_fit" in svg and "size_first_fit" in svg
    assert (tmp_path / "out" / "layout_longest_first_fit.svg").exists(), p.stderr


def test_a_broken_strategy_is_recorded_invalid_with_the_overlap_named(ab, tmp_path):
    broken = tmp_path / "all_at_zero.py"
    broken.write_text(BROKEN)
    csv = tmp_path / "r.csv"
    r = run_cli("bench", TWO_BRANCH, "--planners", f"size_first_fit,py:{broken}",
                "--align", "1", "--no-timing", "--out", str(csv))
    assert r.returncode == 1  # an invalid plan was found and recorded
    rows = {x["planner"]: x for x in ab.read_results(str(csv))}
    assert rows["all_at_zero"]["valid"] == "no" and rows["all_at_zero"]["language"] == "python"
    assert rows["size_first_fit"]["valid"] == "yes"
    assert ("planner all_at_zero at align 1: geometric check: buffers 'in' [0,2] at bytes "
            "[0,1000) and 'a1' [0,1] at bytes [0,3000) are live together and overlap in address") in r.stderr
    # the package's bench: the same row, the same reason
    rows = ab.bench([TWO_BRANCH], planners=["size_first_fit", "py:" + str(broken)], align=1,
                    timing=False)
    assert [(x["planner"], x["valid"], x["language"]) for x in rows] == \
        [("size_first_fit", "yes", "c"), ("all_at_zero", "no", "python")]
    assert any("'in' [0,2] at bytes [0,1000) and 'a1'" in m for m in rows.messages)


def test_strategies_that_raise_or_die_are_failed_plans(ab, tmp_path):
    (tmp_path / "raises.py").write_text("def plan(problem):\n    print('noise')\n    raise ValueError('bad idea')\n")
    (tmp_path / "dies.py").write_text("import os\ndef plan(problem):\n    os._exit(3)\n")
    (tmp_path / "floats.py").write_text("def plan(problem):\n    return [0.5] * problem.buffers\n")
    csv = tmp_path / "r.csv"
    r = run_cli("bench", TWO_BRANCH, "--planners-dir", str(tmp_path), "--planners", "linear",
                "--align", "1", "--no-timing", "--out", str(csv))
    assert r.returncode == 1
    rows = {x["planner"]: x["valid"] for x in ab.read_results(str(csv))}
    assert rows == {"linear": "yes", "dies": "no", "floats": "no", "raises": "no"}
    assert "raises.py: ValueError: bad idea" in r.stderr
    assert "dies.py: the strategy's process ended (exit status 3)" in r.stderr
    assert "floats.py: ValueError: strategy floats returned offsets of type float64; expected integers" in r.stderr


OUTSIDE_C = r'''/*
 * mine_reverse_fit: first fit, buffers in order of last use, latest first.
 * Complexity: O(n log n + sum (k + 1) log n) (placement.h).
 * Source: a test of planners kept outside the tree.  Weak spots: first fit's.
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/placement.h"

static int plan_mine(const struct ab_problem *p, const struct ab_plan_options *o,
		     struct ab_plan *out)
{
	uint64_t *key = malloc((p->n + 1) * sizeof(*key));
	int rc;

	if (!key)
		return -ENOMEM;
	for (size_t i = 0; i < p->n; i++)
		key[i] = ~(uint64_t)p->buf[i].last;
	rc = ab_plan_by_key(p, o, key, false, ab_fit_first, out);
	free(key);
	return rc;
}

const struct ab_planner ab_planner_mine_reverse_fit = {
	.name = "mine_reverse_fit",
	.about = "first fit, latest last use first (outside the tree)",
	.cost = AB_COST_FAST,
	.plan = plan_mine,
};
'''


@pytest.fixture(scope="module")
def outside(tmp_path_factory):
    """A folder outside the repository with a C planner and a Python
    strategy, and a build of the tree with PLANNERS_DIR pointing at it (in
    a scratch build folder: the tree's own build is left as it is)."""
    root = tmp_path_factory.mktemp("outside")
    mine = root / "strategies"
    mine.mkdir()
    (mine / "mine_reverse_fit.c").write_text(OUTSIDE_C)
    shutil.copy(EXAMPLE, mine / "longest_first_fit.py")
    build = root / "build"
    # start from the tree's objects (their times kept): only the registry
    # and the outside planner are compiled again
    build.mkdir()
    for part in ("obj", "pic", ".deps-build", ".deps-onnx", "planners.def"):
        src = os.path.join(BUILD, part)
        if os.path.exists(src):
            subprocess.run(["cp", "-a", src, str(build)], check=True)
    # the tree's build is current (make test-python builds it first): the
    # stamps, then the objects, newer than every source
    subprocess.run(f"touch .deps-* planners.def 2>/dev/null; sleep 1; find obj pic -type f -exec touch {{}} +",
                   shell=True, cwd=build, check=True)
    r = subprocess.run(["make", "-s", "-j2", f"BUILD={build}", f"PLANNERS_DIR={mine}",
                        f"{build}/arenabench", "python"], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    return mine, build


def test_c_planner_from_outside_the_tree_benched(ab, outside, tmp_path):
    mine, build = outside
    binary = str(build / "arenabench")
    # nothing of it in the repository: the folder is all there is
    assert not os.path.exists(os.path.join(REPO, "planners", "mine_reverse_fit.c"))
    with open(os.path.join(BUILD, "planners.def")) as f:
        assert "mine_reverse_fit" not in f.read()  # the tree's own build keeps its registry
    listed = subprocess.run([binary, "list"], capture_output=True, text=True).stdout
    assert "mine_reverse_fit" in listed
    csv = tmp_path / "r.csv"
    r = subprocess.run([binary, "bench", TWO_BRANCH, "--planners", "size_first_fit,mine_reverse_fit",
                        "--planners-dir", str(mine), "--align", "1", "--no-timing", "--quiet",
                        "--out", str(csv)], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    rows = {x["planner"]: x for x in ab.read_results(str(csv))}
    assert set(rows) == {"size_first_fit", "mine_reverse_fit", "longest_first_fit"}
    assert rows["mine_reverse_fit"]["valid"] == "yes" and rows["mine_reverse_fit"]["language"] == "c"
    assert rows["longest_first_fit"]["language"] == "python"
    # make bench PLANNERS_DIR=... hands the folder's Python files to bench
    n = subprocess.run(["make", "-n", f"BUILD={build}", f"PLANNERS_DIR={mine}", "bench"],
                       cwd=REPO, capture_output=True, text=True).stdout
    assert f"--planners-dir {mine}" in n


def test_the_package_built_with_planners_dir_plans_them(outside):
    mine, build = outside
    code = ("import arenabench as ab, sys\n"
            f"ab.load_strategies({str(mine)!r})\n"
            f"p = ab.Problem.from_file({TWO_BRANCH!r})\n"
            "names = [x.name for x in ab.planners()]\n"
            "assert 'mine_reverse_fit' in names and 'longest_first_fit' in names, names\n"
            "for name in ('mine_reverse_fit', 'longest_first_fit'):\n"
            "    assert ab.check(p, ab.plan(p, name)).valid\n"
            "print(ab.plan(p, 'longest_first_fit').offsets.tolist())\n")
    env = dict(os.environ, ARENABENCH_LIB_DIR=str(build), PYTHONPATH=PKG)
    r = subprocess.run(["python3" if not os.path.exists("/usr/bin/python3") else "/usr/bin/python3",
                        "-c", code], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(EXAMPLE_OFFSETS)
