# scripts/lib/sources.sh: which CSV every figure and table is drawn from,
# and how it is labelled (sourced by plots/plots.sh, plots/hard.sh and
# paper/gen/paper-numbers.sh, so that they choose alike).
#
# sources_init RES: the main CSV is RES/results.csv (a local run), else the
#   committed RES/reference/results.csv.  Sets src_dir and src_origin.
# source_csv NAME: the path of an optional NAME.csv, or nothing.  The local
#   run's own, else the committed reference's only when the local run
#   covers the same graphs as the reference (our default corpus): a user's
#   own corpus is never described with our reference's baselines, scaling
#   or transforms.  REFERENCE_FALLBACK=1 forces the fallback, =0 forbids it.
#   Says (stderr) what it chose.
# origin_of PATH: "committed reference" for a file in a folder named
#   reference (results/reference/), else "local run".
# caption_of CSV: one line: origin, CSV path, revision (+dirty), machine,
#   date, from CSV's own .meta sidecar (the .csv replaced by .meta).
# Needs: say MESSAGE (the caller's).

sources_init() {
	src_res=$1
	if [ -f "$src_res/results.csv" ]; then
		src_dir=$src_res
		src_origin="local run"
	elif [ -f "$src_res/reference/results.csv" ]; then
		src_dir=$src_res/reference
		src_origin="committed reference"
	else
		src_dir=""
		src_origin=""
		return 1
	fi
	src_same_corpus=""
}

# The sorted graph names of a results CSV.
graphs_of() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["graph"] }' "$1" | sort -u
}

source_csv() {
	if [ -f "$src_dir/$1.csv" ]; then
		echo "$src_dir/$1.csv"
		return 0
	fi
	ref=$src_res/reference/$1.csv
	[ "$src_dir" != "$src_res/reference" ] && [ -f "$ref" ] || return 0
	if [ -z "$src_same_corpus" ]; then
		case ${REFERENCE_FALLBACK:-auto} in
		1) src_same_corpus=yes ;;
		0) src_same_corpus=no ;;
		*)
			if [ -f "$src_res/reference/results.csv" ] &&
				[ "$(graphs_of "$src_dir/results.csv" | cksum)" = "$(graphs_of "$src_res/reference/results.csv" | cksum)" ]; then
				src_same_corpus=yes
			else
				src_same_corpus=no
			fi ;;
		esac
	fi
	if [ "$src_same_corpus" = yes ]; then
		say "no $src_dir/$1.csv: using the committed reference's $ref (labelled so)"
		echo "$ref"
	else
		say "no $src_dir/$1.csv, and the local run's corpus is not the reference's: its part is left out (REFERENCE_FALLBACK=1 would use $ref)"
	fi
}

origin_of() {
	case /$1 in
	*/reference/*) echo "committed reference" ;;
	*) echo "local run" ;;
	esac
}

caption_of() {
	meta=${1%.csv}.meta
	if [ -f "$meta" ]; then
		awk -F= -v origin="$(origin_of "$1")" -v csv="$1" '
			{ sub(/\r$/, ""); k = $1; sub(/^[^=]*=/, ""); m[k] = $0 }
			END {
				rev = (m["git_revision"] != "") ? substr(m["git_revision"], 1, 10) : "unknown"
				if (m["git_dirty"] == "yes" || m["git_dirty"] == "1" || m["git_dirty"] == "true") rev = rev "+dirty"
				if (m["forced_dirty"] != "") rev = rev " (forced)"
				s = origin ": " csv ", rev " rev
				if (m["cpu_model"] != "") s = s ", " m["cpu_model"]
				if (m["cores"] != "") s = s " (" m["cores"] " cores)"
				if (m["date_utc"] != "") s = s ", " substr(m["date_utc"], 1, 10)
				gsub(/["\\]/, "'\''", s)
				print s
			}' "$meta"
	else
		echo "$(origin_of "$1"): $1, revision and machine unknown (no ${meta##*/})"
	fi
}

# The working tree's revision, "+dirty" when it has uncommitted changes
# (for what is computed now, like the plan layouts).
tree_revision() {
	r=$(git rev-parse --short=10 HEAD 2>/dev/null || echo unknown)
	# the code's state: results/ (figures being redrawn there) does not count
	[ -z "$(git status --porcelain -- . ':(exclude)results' 2>/dev/null | head -n 1)" ] || r="$r+dirty"
	echo "$r"
}
