#!/bin/sh
# plots/hard.sh: the two figures of `make hard` (issue 18), from
# results/hard.csv and results/hard_profile.csv (scripts/study/hard.sh):
#   hard-ratio    peak / best proved bound against buffers, per planner
#                 (the bound is the largest best_bound_bytes any planner
#                 proved for that problem; on the tilings it is the
#                 optimum by construction);
#   hard-profile  the anytime profile: exact's best peak / bound against
#                 seconds, one line per profiled instance.
# Writes SVG, PDF and PNG into plots/out/ (PLOTS_OUT).  Skips with a
# message when results/hard.csv is absent.
set -eu
cd "$(dirname "$0")/.."
res=${RESULTS_DIR:-results}
out=${PLOTS_OUT:-plots/out}
formats=${FORMATS:-svg pdf png}
data=$out/data/hard
# HARD_CSV: the CSV plots/plots.sh chose (scripts/lib/sources.sh).
csv=${HARD_CSV:-$res/hard.csv}
prof=${csv%hard.csv}hard_profile.csv
[ -f "$csv" ] || { echo "plots: no $csv (run make hard): hard figures skipped" >&2; exit 0; }
command -v gnuplot >/dev/null 2>&1 || { echo "plots: gnuplot not found (sh scripts/deps.sh plots)" >&2; exit 1; }
rm -rf "$data"
mkdir -p "$data" "$out"
say() { printf 'plots: %s\n' "$*" >&2; }
. scripts/lib/sources.sh
src_res=$res
printf 'meta_caption = "%s"\n' "$(caption_of "$csv")" > "$data/meta.gp"
# the run's colours of planners style.gp does not list (plots/plots.sh)
[ ! -f "$out/data/palette.gp" ] || cp "$out/data/palette.gp" "$data/palette.gp"

# ratio rows per planner: buffers,ratio,set (set = family prefix)
awk -F, -v dir="$data" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["valid"] != "yes" { bad++; next }
	{
		k = $c["graph"] SUBSEP $c["align"]
		b = $c["best_bound_bytes"] + 0
		if (b > bound[k]) bound[k] = b
		n++; g[n] = k; pl[n] = $c["planner"]; peak[n] = $c["peak_bytes"]
		buf[n] = $c["buffers"]; fam[n] = $c["family"]; name[n] = $c["graph"]
	}
	END {
		for (i = 1; i <= n; i++) {
			set = name[i] ~ /^(guillotine|pinwheel)_/ ? "tiling" : \
			      name[i] ~ /^(iopddl|somas)_/ ? "idealloc" : "minimalloc"
			f = dir "/ratio_" pl[i] ".csv"
			if (!(f in seen)) { print "buffers,ratio,set" > f; seen[f] = 1; list = list " " pl[i] }
			printf "%s,%.6f,%s\n", buf[i], peak[i] / bound[g[i]], set > f
		}
		print substr(list, 2) > (dir "/planners.txt")
		if (bad) printf "plots: hard.csv: %d invalid rows left out\n", bad > "/dev/stderr"
	}' "$csv"
planners=$(cat "$data/planners.txt")

if [ -f "$prof" ]; then
	awk -F, -v dir="$data" '
		NR == 1 { next }
		{
			f = dir "/profile_" $1 ".csv"
			if (!(f in seen)) { print "seconds,ratio,nodes" > f; seen[f] = 1; list = list " " $1 }
			printf "%s,%.6f,%s\n", $5, $6 / $7, $4 > f
		}
		END { print substr(list, 2) > (dir "/instances.txt") }' "$prof"
fi

for f in $formats; do
	gnuplot -e "datadir='$data'; out='$out/hard-ratio.$f'; hard_planners='$planners'" plots/hard-ratio.gp
	if [ -s "$data/instances.txt" ]; then
		gnuplot -e "datadir='$data'; out='$out/hard-profile.$f'; hard_instances='$(cat "$data/instances.txt")'" plots/hard-profile.gp
	fi
done
echo "plots: wrote $out/hard-ratio.* and $out/hard-profile.*" >&2
