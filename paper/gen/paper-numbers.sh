#!/bin/sh
# paper/gen/paper-numbers.sh: writes paper/generated/*.tex (table bodies and
# \newcommand macros) from the results CSVs, so that every number in the
# paper comes from them.  Same source rule as plots/plots.sh: the local
# run results/results.csv, else results/reference/.
# Environment: RESULTS_DIR (instead of results/), PAPER_ALIGN (alignment of
# the tables; default: the smallest in the CSV, as in figures 1 and 3).
set -eu
cd "$(dirname "$0")/../.."
res=${RESULTS_DIR:-results}
gen=paper/generated

say() { printf 'paper: %s\n' "$*" >&2; }

if [ -f "$res/results.csv" ]; then
	dir=$res; origin="local run"
elif [ -f "$res/reference/results.csv" ]; then
	dir=$res/reference; origin="reference results"
else
	say "no $res/results.csv and no $res/reference/results.csv: run 'make bench' first"
	exit 1
fi
say "numbers from the $origin: $dir/results.csv"

awk -F, -v need="graph,family,buffers,ops,sum_bytes,lower_bound_bytes,planner,cost_class,align,valid,peak_bytes,plan_ns" \
	-v uint="buffers,ops,sum_bytes,lower_bound_bytes,align,peak_bytes" -v uopt="plan_ns" -v enums="valid=yes|no" \
	-f scripts/lib/csvcheck.awk "$dir/results.csv"

rm -rf "$gen.tmp"
mkdir -p "$gen.tmp"
known=$(sed -n 's/^planner_names *= *"\(.*\)"$/\1/p' plots/style.gp)
awk -F, -v dir="$gen.tmp" -v known="$known" -v align="${PAPER_ALIGN:-}" \
	-f scripts/lib/common.awk -f paper/gen/paper-numbers.awk "$dir/results.csv"

# The machine and revision.
awk -v origin="$origin" -v file="$dir/results.meta" -v csv="$dir/results.csv" '
	function tex(s) {
		gsub(/\\/, "\\textbackslash{}", s); gsub(/[{}$&#%_]/, "\\\\&", s)
		gsub(/\^/, "\\textasciicircum{}", s); gsub(/~/, "\\textasciitilde{}", s)
		return s
	}
	BEGIN {
		while ((getline line < file) > 0) {
			sub(/\r$/, "", line)
			k = line; sub(/=.*/, "", k); v = line; sub(/^[^=]*=/, "", v); m[k] = v
		}
		n = split("git_revision git_dirty compiler cpu_model cores kernel date_utc benchmark_library", keys, " ")
		split("MetaRevision MetaDirty MetaCompiler MetaCPU MetaCores MetaKernel MetaDate MetaBenchLib", macs, " ")
		for (i = 1; i <= n; i++)
			printf "\\newcommand{\\%s}{%s}\n", macs[i], (keys[i] in m && m[keys[i]] != "") ? tex(m[keys[i]]) : "unknown"
		printf "\\newcommand{\\ResultsOrigin}{%s}\n", origin
		printf "\\newcommand{\\ResultsFile}{\\texttt{%s}}\n", tex(csv)
	}' > "$gen.tmp/meta.tex"
[ -f "$dir/results.meta" ] || say "no $dir/results.meta: the machine is 'unknown' in the paper"

awk -f paper/gen/planner-notes.awk planners/*.c > "$gen.tmp/planners.tex"

# Scaling slopes (optional): the local run's, else the committed
# reference's (said), as the plots do.
# optional_csv NAME WHAT: the path of an optional CSV: the local run's,
# else the committed reference's (said), else a path that does not exist.
optional_csv() {
	if [ ! -f "$dir/$1" ] && [ -f "$res/reference/$1" ]; then
		say "no $dir/$1: $2 uses the committed reference's $res/reference/$1"
		echo "$res/reference/$1"
	else
		echo "$dir/$1"
	fi
}
scaling_csv=$(optional_csv scaling.csv "the scaling table")
# Scaling slopes (optional).
if [ -f "$scaling_csv" ]; then
	awk -F, -v need="planner,buffers,plan_ns,status" -v uint="buffers" -v uopt="plan_ns" \
		-v enums="status=ok|timed_out" -f scripts/lib/csvcheck.awk "$scaling_csv"
	awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			p = $c["planner"]; n = $c["buffers"] + 0; t = $c["plan_ns"] + 0
			if (!(p in seen)) { seen[p] = 1; ord[++np] = p }
			if ($c["status"] != "ok" || $c["plan_ns"] == "") { to[p]++; if (!(p in tomin) || n < tomin[p]) tomin[p] = n; next }
			if (n > big[p]) big[p] = n
			x = log(n) / log(10); y = log(t) / log(10)
			sn[p]++; sx[p] += x; sy[p] += y; sxx[p] += x * x; sxy[p] += x * y
		}
		END {
			for (j = 1; j <= np; j++) {
				p = ord[j]; d = sn[p] * sxx[p] - sx[p] * sx[p]
				s = (sn[p] >= 2 && d > 0) ? sprintf("%.2f", (sn[p] * sxy[p] - sx[p] * sy[p]) / d) : "--"
				q = p; gsub(/_/, "\\_", q)
				printf "\\texttt{%s} & %d & %s & %d & %s \\\\\n", q, sn[p], s, big[p], \
					(to[p] ? to[p] " (from " tomin[p] ")" : "0")
			}
		}' "$scaling_csv" > "$gen.tmp/tab-scaling.tex"
else
	say "no scaling.csv (local or reference): the paper has no scaling table"
fi

# The planner table of issue 7 (optional): `make baselines`, local run
# else the committed reference's (said).
base_csv=$(optional_csv baselines.csv "the planner table")
if [ -f "$base_csv" ]; then
	awk -F, -v need="graph,family,planner,cost_class,lower_bound_bytes,valid,peak_bytes,optimal,plan_ns" \
		-v uint="lower_bound_bytes,peak_bytes" -v uopt="plan_ns" -v enums="valid=yes|no" \
		-f scripts/lib/csvcheck.awk "$base_csv"
	awk -F, -v dir="$gen.tmp" -v published=paper/data/minimalloc-published.csv \
		-f scripts/lib/common.awk -f paper/gen/baselines-table.awk "$base_csv"
else
	say "no baselines.csv (local or reference): the paper has no planner table (run 'make baselines')"
fi

# Reordering and in-place reuse (optional): `make transforms`, local run
# else the committed reference's (said).
tr_csv=$(optional_csv transforms.csv "the transforms section")
if [ -f "$tr_csv" ]; then
	awk -F, -v need="graph,family,planner,options,valid,lower_bound_bytes,lower_bound_original_bytes,peak_bytes" \
		-v uint="lower_bound_bytes,lower_bound_original_bytes,peak_bytes" -v uopt="plan_ns,reorder_ns" -v enums="valid=yes|no" \
		-f scripts/lib/csvcheck.awk "$tr_csv"
	awk -F, -v dir="$gen.tmp" -f scripts/lib/common.awk -f paper/gen/transforms-table.awk "$tr_csv"
else
	say "no transforms.csv (local or reference): the paper has no transforms section (run 'make transforms')"
fi

# Hard instances (optional): `make hard`, local run else the committed
# reference's (said).
hard_csv=$(optional_csv hard.csv "the hard-instances section")
if [ -f "$hard_csv" ]; then
	awk -F, -v need="graph,planner,valid,buffers,peak_bytes,best_bound_bytes,optimal" \
		-v uint="buffers,peak_bytes,best_bound_bytes" -v enums="valid=yes|no" \
		-f scripts/lib/csvcheck.awk "$hard_csv"
	awk -F, -v dir="$gen.tmp" -f paper/gen/hard-table.awk "$hard_csv"
else
	say "no hard.csv (local or reference): the paper has no hard-instances section (run 'make hard')"
fi

# Plan layouts drawn by plots/plots.sh (plots/layouts.sh), if any.
lay=${PLOTS_OUT:-plots/out}/data/layout.gp
if [ -f "$lay" ]; then
	awk -v outdir="${PLOTS_OUT:-plots/out}" '
		/^layout_graph/ { g = $0; sub(/^[^"]*"/, "", g); sub(/".*/, "", g) }
		/^layout_align/ { a = $3 }
		/^layout_planners/ { l = $0; sub(/^[^"]*"/, "", l); sub(/".*/, "", l) }
		END {
			n = split(l, p, " ")
			if (n == 0) exit
			q = g; gsub(/_/, "\\_", q)
			# Six panels (three rows) per page-sized figure.
			for (i = 1; i <= n; i++) {
				if (i % 6 == 1) print "\\begin{figure}[p]\n\\centering"
				printf "\\includegraphics[width=0.49\\textwidth]{layout_%s.pdf}%s\n", p[i], (i % 2 ? "\\hfill" : "\\\\[1ex]")
				if (i % 6 == 0 || i == n) {
					if (i <= 6)
						printf "\\caption{Plan layouts of \\texttt{%s} at align %s, one per planner: a rectangle per buffer " \
							"(steps across, addresses up), the live bytes (black), the lower bound (red, dashed) and the " \
							"planner'"'"'s peak (dash-dotted), drawn as one red line when the plan reaches the bound.}\\label{fig:layout}\n", q, a
					else
						printf "\\caption{Plan layouts of \\texttt{%s} (continued).}\n", q
					print "\\end{figure}"
				}
			}
		}' "$lay" > "$gen.tmp/fig-layout.tex"
else
	say "no plan layouts in ${PLOTS_OUT:-plots/out} (they need build/arenabench)"
	printf '%% no plan layouts were drawn (plots/layouts.sh needs build/arenabench)\n' > "$gen.tmp/fig-layout.tex"
fi

rm -rf "$gen"
mv "$gen.tmp" "$gen"
say "wrote $(ls "$gen" | wc -l | tr -d ' ') files in $gen/"
