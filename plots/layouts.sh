#!/bin/sh
# plots/layouts.sh DATADIR OUTDIR "FORMATS": one plan-layout figure per
# planner for the same graph (plots/layout.gp), for side-by-side comparison.
# Called by plots/plots.sh.  Needs build/arenabench (plan --emit-plan
# --emit-live).  The graph is $LAYOUT_GRAPH, else a mid-sized zoo graph of
# the results (see below), else graphs/starter/chain_24k.graph; the
# alignment is $LAYOUT_ALIGN (default 64).  The planners are those of the
# results (DATADIR/results.gp).  Writes OUTDIR/layout_<planner>.<fmt> and
# OUTDIR/data/layout.gp (graph, align, planners) for the paper.
set -eu
data=$1
out=$2
formats=$3
align=${LAYOUT_ALIGN:-64}
bin=build/arenabench

say() { printf 'plots: %s\n' "$*" >&2; }

# A graph name -> its .graph file (the `graph NAME` line).
graph_file() {
	grep -rlE "^graph[[:space:]]+$1([[:space:]]|#|\$)" graphs --include='*.graph' 2>/dev/null | head -n 1
}

gfile=${LAYOUT_GRAPH:-}
if [ -z "$gfile" ] && [ -n "${RESULTS_CSV:-}" ]; then
	# A mid-sized real model: mobilenet_v2_1.0_224_u8 if present, else the
	# zoo graph with the most buffers among those with 20..150 buffers and
	# at most 16 MiB in all (the execution check stays quick).
	for g in $(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["family"] == "zoo" && !seen[$c["graph"]]++ && $c["buffers"] >= 20 &&
		$c["buffers"] <= 150 && $c["sum_bytes"] <= 16777216 {
			print ($c["graph"] == "mobilenet_v2_1.0_224_u8" ? 100000 : $c["buffers"]), $c["graph"]
		}' "$RESULTS_CSV" | sort -k1,1nr -k2 | awk '{ print $2 }'); do
		gfile=$(graph_file "$g")
		[ -n "$gfile" ] && break
	done
fi
[ -n "$gfile" ] || gfile=graphs/starter/chain_24k.graph
if [ ! -f "$gfile" ]; then
	say "layout graph $gfile not found"
	exit 1
fi
gname=$(sed -n 's/^graph[[:space:]]*\([^[:space:]#]*\).*/\1/p' "$gfile" | head -n 1)

planners=$(sed -n 's/^planners = "\(.*\)"$/\1/p' "$data/results.gp")
done_list=""
for p in $planners; do
	plan=$data/plan_$p.csv
	live=$data/live_$p.csv
	if ! "$bin" plan "$gfile" --planner "$p" --align "$align" \
		--emit-plan "$plan" --emit-live "$live" >"$data/plan_$p.log" 2>&1; then
		say "'$bin plan $gfile --planner $p --align $align --emit-plan ... --emit-live ...' failed:"
		sed 's/^/    /' "$data/plan_$p.log" >&2
		exit 1
	fi
	for f in $formats; do
		# PDF at half width so that two fit side by side in the paper.
		size=""
		[ "$f" = pdf ] && size="fig_w=0.55; fig_h=0.75;"
		( gnuplot -e "$size datadir='$data'; plan='$plan'; live='$live'; out='$out/layout_$p.$f'; planner='$p'; title='$gname, $p, align $align'" \
			plots/layout.gp || : > "$data/layout_$p.$f.failed" ) &
	done
	wait
	for f in $formats; do
		[ ! -f "$data/layout_$p.$f.failed" ] || { say "plots/layout.gp failed for $p ($f)"; exit 1; }
	done
	done_list="$done_list $p"
done
{
	echo "layout_graph = \"$gname\""
	echo "layout_align = $align"
	echo "layout_planners = \"${done_list# }\""
} > "$data/layout.gp"
say "plan layouts of $gname (align $align):$done_list"
