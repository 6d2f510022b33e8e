#!/bin/sh
# plots/layouts.sh DATADIR OUTDIR "FORMATS": plan-layout figures for graphs
# chosen from the results (plots/plotdata.awk, DATADIR/layout_candidates.csv):
#   layout_<planner>        one per planner of the results (a Python
#                           strategy's from STRATEGY_DIRS/NAME.py), for the graph
#                           where the reuse-aware planners differ most
#                           (at most 400 buffers, so the rectangles show);
#   layout_large_<planner>  the best and the worst reuse-aware planner on
#                           the largest graph, when that is another graph.
# Called by plots/plots.sh.  Needs $ARENABENCH or build/arenabench (plan --emit-plan
# --emit-live).  A graph is found from the CSV's source column (models and
# minimalloc problems: their path), else as a .graph file whose `graph NAME`
# line matches, under graphs/ and $LAYOUT_SEARCH (space-separated folders).
# $LAYOUT_GRAPH (a file) overrides the first choice; $LAYOUT_ALIGN is the
# alignment (default 64); $LAYOUT_DIMS_FILE (plots.sh writes it from the
# results' .meta) gives each model the --dim values the bench used.  Writes OUTDIR/data/layout.gp (graphs, why, align,
# planners) for the paper.  A graph that is in no results is never drawn.
set -eu
data=$1
out=$2
formats=$3
align=${LAYOUT_ALIGN:-64}
bin=${ARENABENCH:-build/arenabench}

say() { printf 'plots: %s\n' "$*" >&2; }

# graph_file NAME SOURCE -> the input file, or nothing.
graph_file() {
	if [ -n "$2" ] && [ -f "$2" ]; then
		echo "$2"
		return
	fi
	grep -rlE "^graph[[:space:]]+$1([[:space:]]|#|\$)" graphs ${LAYOUT_SEARCH:-} --include='*.graph' 2>/dev/null | head -n 1
}

# field ROLE N: the Nth column of the candidate rows of ROLE, one a line.
cands=$data/layout_candidates.csv
[ -f "$cands" ] || { say "no $cands (plots/plotdata.awk writes it)"; exit 1; }

gfile=${LAYOUT_GRAPH:-}
why="set by LAYOUT_GRAPH"
spread=""
if [ -z "$gfile" ]; then
	# The first candidate whose file can be found.
	while IFS=, read -r role g nb sp best worst src; do
		[ "$role" = spread ] || continue
		f=$(graph_file "$g" "$src")
		if [ -n "$f" ]; then
			gfile=$f
			spread=$sp
			why="the graph of at most 400 buffers where the reuse-aware planners differ most (worst/best peak $sp, $best to $worst)"
			break
		fi
		say "layout candidate $g: no input file found (source '$src'; LAYOUT_SEARCH adds folders)"
	done < "$cands"
fi
if [ -z "$gfile" ]; then
	say "no graph of the results could be found as a file: no plan layouts"
	exit 1
fi
gname=$(sed -n 's/^graph[[:space:]]*\([^[:space:]#]*\).*/\1/p' "$gfile" 2>/dev/null | head -n 1)
[ -n "$gname" ] || { gname=${gfile##*/}; gname=${gname%.*}; }

dims=
[ ! -s "${LAYOUT_DIMS_FILE:-}" ] || dims=$LAYOUT_DIMS_FILE

# draw_set PREFIX FILE NAME "PLANNERS": the layouts of FILE, one per planner.
draw_set() {
	prefix=$1 file=$2 name=$3 list=$4
	drawn_set=""
	for p in $list; do
		plan=$data/${prefix}plan_$p.csv
		live=$data/${prefix}live_$p.csv
		# a Python strategy (the CSV's language column) is planned from its
		# file, found as NAME.py in STRATEGY_DIRS (docs/python.md)
		spec=$p
		if ! "$bin" list 2>/dev/null | grep -q "^$p[[:space:]]"; then
			spec=""
			for d in ${STRATEGY_DIRS:-python/examples}; do
				[ -f "$d/$p.py" ] && { spec="py:$d/$p.py"; break; }
			done
			if [ -z "$spec" ]; then
				say "layout of $p not drawn: not a planner of $bin and no $p.py in STRATEGY_DIRS (${STRATEGY_DIRS:-python/examples})"
				continue
			fi
		fi
		if ! "$bin" plan "$file" --planner "$spec" --align "$align" ${dims:+--dims-file} ${dims:+"$dims"} \
			--emit-plan "$plan" --emit-live "$live" >"$data/${prefix}plan_$p.log" 2>&1; then
			say "'$bin plan $file --planner $p --align $align${dims:+ --dims-file $dims} --emit-plan ... --emit-live ...' failed:"
			sed 's/^/    /' "$data/${prefix}plan_$p.log" >&2
			return 1
		fi
		for f in $formats; do
			# PDF at half width so that two fit side by side in the paper.
			size=""
			[ "$f" = pdf ] && size="fig_w=0.55; fig_h=0.75;"
			( gnuplot -e "$size datadir='$data'; meta_name='meta_layout'; plan='$plan'; live='$live'; out='$out/layout_$prefix$p.$f'; planner='$p'; title='$name, $p, align $align'" \
				plots/layout.gp || : > "$data/layout_$prefix$p.$f.failed" ) &
		done
		wait
		for f in $formats; do
			[ ! -f "$data/layout_$prefix$p.$f.failed" ] || { say "plots/layout.gp failed for $p ($f)"; return 1; }
		done
		drawn_set="$drawn_set $p"
	done
}

planners=$(sed -n 's/^planners = "\(.*\)"$/\1/p' "$data/results.gp")
draw_set "" "$gfile" "$gname" "$planners"
done_list=$drawn_set

# The largest graph of the results, when it is another: its best and worst.
large_graph="" large_list="" large_why=""
if [ -z "${LAYOUT_GRAPH:-}" ]; then
	row=$(grep '^largest,' "$cands" || :)
	if [ -n "$row" ]; then
		old_ifs=$IFS
		IFS=,
		# shellcheck disable=SC2086
		set -- $row
		IFS=$old_ifs
		g=$2 nb=$3 sp=$4 best=$5 worst=$6 src=${7:-}
		if [ "$g" != "$gname" ] && [ -n "$best" ]; then
			f=$(graph_file "$g" "$src")
			if [ -n "$f" ]; then
				pl=$best
				[ "$worst" = "$best" ] || pl="$best $worst"
				if draw_set "large_" "$f" "$g" "$pl"; then
					large_graph=$g
					large_list=${drawn_set# }
					large_why="the largest graph of the results ($nb buffers): its best and its worst reuse-aware planner (worst/best peak $sp)"
				fi
			else
				say "largest graph $g: no input file found (source '$src')"
			fi
		fi
	fi
fi
{
	echo "layout_graph = \"$gname\""
	echo "layout_why = \"$why\""
	echo "layout_align = $align"
	echo "layout_planners = \"${done_list# }\""
	echo "layout_large_graph = \"$large_graph\""
	echo "layout_large_why = \"$large_why\""
	echo "layout_large_planners = \"$large_list\""
} > "$data/layout.gp"
say "plan layouts of $gname (align $align):$done_list${large_graph:+; of $large_graph: $large_list}"
