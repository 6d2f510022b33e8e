"""What calling a C planner through the package costs over the command
line: the CPU time of arenabench.plan() (the whole Python call: numpy
arrays, ctypes, the plan, the result) against the planning CPU time that
`arenabench plan --timings` reports for the same planner on the same
problem, interleaved, median of --runs (CPU time: the machine is shared,
and wall time swings with the neighbours; wall times are kept beside).
Writes one CSV row per planner (docs/python.md quotes it).

    /usr/bin/python3 python/benchmarks/overhead.py [--runs 21] [--out results/reference/python-overhead.csv]
    /usr/bin/python3 python/benchmarks/overhead.py --write-doc   # docs/python.md's table from the CSV
"""

import argparse
import csv
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))

DOC = os.path.join(REPO, "docs", "python.md")
CSV = os.path.join(REPO, "results", "reference", "python-overhead.csv")
BEGIN = "<!-- generated:python-overhead begin: python/benchmarks/overhead.py --write-doc -->"
END = "<!-- generated:python-overhead end -->"


def render(csv_path=CSV):
    """docs/python.md's table: one line per planner of the CSV."""
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    out = ["| planner | buffers | CLI plan, CPU ms | Python call, CPU ms | planner inside it, CPU ms | call / CLI |",
           "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        out.append(f"| `{r['planner']}` | {int(r['buffers']):,} | {float(r['cli_plan_cpu_ms']):.1f} | "
                   f"{float(r['python_call_cpu_ms']):.1f} | {float(r['python_plan_cpu_ms']):.1f} | "
                   f"{float(r['call_over_cli_cpu']):.3f} |")
    worst = max(float(r["call_over_cli_cpu"]) for r in rows)
    out.append("")
    out.append(f"The largest ratio is {worst:.3f}: the call through Python costs "
               f"{'at most ' + format((worst - 1) * 100, '.1f') + '% more than' if worst > 1 else 'no more than'} "
               "the command line's planning time on these planners.")
    return "\n".join(out)


def doc_block(text):
    i, j = text.index(BEGIN), text.index(END)
    return text[i + len(BEGIN):j].strip("\n")


def write_doc():
    with open(DOC) as f:
        text = f.read()
    i, j = text.index(BEGIN), text.index(END)
    text = text[:i + len(BEGIN)] + "\n" + render() + "\n" + text[j:]
    with open(DOC + ".tmp", "w") as f:
        f.write(text)
    os.replace(DOC + ".tmp", DOC)


import arenabench as ab  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.environ.get("AB_BUILD_DIR", os.path.join(REPO, "build")))
    ap.add_argument("--buffers", type=int, default=100000)
    ap.add_argument("--planners", default="greedy_last_use,size_first_fit,tflite_arena,xla_best_fit")
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--out", default=CSV)
    ap.add_argument("--write-doc", action="store_true", help="only rewrite docs/python.md's table")
    a = ap.parse_args()
    if a.write_doc:
        write_doc()
        return
    binary = os.path.join(a.build, "arenabench")
    sweep = os.path.join(a.build, "py-sweep")
    problem = os.path.join(sweep, f"sweep_n{a.buffers}_s1.csv")
    if not os.path.exists(problem):
        subprocess.run([os.path.join(a.build, "gen", "sweep"), "--sizes", str(a.buffers),
                        "--seeds", "1", sweep], check=True, stdout=subprocess.DEVNULL)
    p = ab.Problem.from_file(problem)
    rows = []
    for name in a.planners.split(","):
        cli, call, inside, cli_wall, call_wall = [], [], [], [], []
        for _ in range(a.runs):
            r = subprocess.run([binary, "plan", problem, "--planner", name, "--timings"],
                               capture_output=True, text=True, check=True)
            cli.append(float(re.search(r"CPU ms: .*?plan ([0-9.]+),", r.stderr).group(1)))
            cli_wall.append(float(re.search(r"plan time: +([0-9.]+) ms", r.stdout).group(1)))
            c0, t0 = time.process_time(), time.perf_counter()
            plan = ab.plan(p, name)
            call.append((time.process_time() - c0) * 1e3)
            call_wall.append((time.perf_counter() - t0) * 1e3)
            inside.append(plan.cpu_ns / 1e6)
        c, py, ins, cw, pw = (statistics.median(x) for x in (cli, call, inside, cli_wall, call_wall))
        rows.append({"planner": name, "buffers": p.buffers, "runs": a.runs,
                     "cli_plan_cpu_ms": f"{c:.2f}", "python_call_cpu_ms": f"{py:.2f}",
                     "python_plan_cpu_ms": f"{ins:.2f}", "call_over_cli_cpu": f"{py / c:.4f}",
                     "cli_plan_wall_ms": f"{cw:.2f}", "python_call_wall_ms": f"{pw:.2f}"})
        print(rows[-1], file=sys.stderr)
    with open(a.out + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    os.replace(a.out + ".tmp", a.out)
    print(f"overhead: wrote {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
