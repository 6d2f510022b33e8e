# The output rules of docs/io.md for the scripts (sourced): plots, paper,
# report, reference and the campaign write their files the way
# `arenabench` does.  A file is written complete beside its destination
# (in the destination's folder, so the rename cannot cross a file system),
# each write checked (cp and sync exit non-zero on a full disk), synced,
# then renamed over the destination: on any failure the old file stays.
# A destination that is a directory, FIFO, socket or device is refused
# (a script never writes in place), a symlink is followed to its target
# (the link stays a link), and a destination that is one of the inputs,
# compared by device and inode, is refused.  Functions return non-zero
# with the message on stderr; callers stop.

# out_identity PATH: device:inode of PATH (symlinks followed), or nothing
out_identity() { stat -L -c '%d:%i' -- "$1" 2>/dev/null || true; }

# out_target PATH: the file a write to PATH replaces (symlinks followed)
out_target() { readlink -f -- "$1" 2>/dev/null || printf '%s\n' "$1"; }

# out_check PATH [INPUT...]: 0 when PATH may be replaced by a regular file
out_check() {
	_oc_p=$1
	shift
	if [ -e "$_oc_p" ] || [ -L "$_oc_p" ]; then
		if [ -d "$_oc_p" ]; then _oc_k="a directory"
		elif [ -p "$_oc_p" ]; then _oc_k="a FIFO (its reader may never come)"
		elif [ -S "$_oc_p" ]; then _oc_k="a socket"
		elif [ -c "$_oc_p" ] || [ -b "$_oc_p" ]; then _oc_k="a device"
		elif [ -L "$_oc_p" ] && [ ! -e "$_oc_p" ]; then _oc_k=
		elif [ ! -f "$_oc_p" ]; then _oc_k="not a regular file"
		else _oc_k=; fi
		if [ -n "$_oc_k" ]; then
			echo "$_oc_p: is $_oc_k (expected a regular file or a new name; nothing written)" >&2
			return 2
		fi
		_oc_id=$(out_identity "$_oc_p")
		for _oc_in in "$@"; do
			[ -z "$_oc_id" ] || [ "$(out_identity "$_oc_in")" != "$_oc_id" ] || {
				echo "$_oc_p is the input $_oc_in: refusing to overwrite an input (nothing written)" >&2
				return 2
			}
		done
	fi
	_oc_d=$(dirname -- "$(out_target "$_oc_p")")
	[ -d "$_oc_d" ] || { echo "$_oc_p: folder $_oc_d does not exist (nothing written)" >&2; return 2; }
	return 0
}

# out_install SRC DEST [INPUT...]: DEST replaced by a copy of SRC, or left
# as it was (exit non-zero naming the cause)
out_install() {
	_oi_s=$1 _oi_d=$2
	shift 2
	out_check "$_oi_d" "$@" || return 2
	_oi_t=$(out_target "$_oi_d")
	_oi_tmp=$(dirname -- "$_oi_t")/.$(basename -- "$_oi_t").tmp.$$
	rm -f -- "$_oi_tmp"
	if ! cp -- "$_oi_s" "$_oi_tmp" 2>"$_oi_tmp.err" || ! sync -- "$_oi_tmp" 2>>"$_oi_tmp.err" ||
		! cmp -s -- "$_oi_s" "$_oi_tmp"; then
		echo "$_oi_d: cannot write: $(tr '\n' ' ' < "$_oi_tmp.err" 2>/dev/null)(the previous file is kept)" >&2
		rm -f -- "$_oi_tmp" "$_oi_tmp.err"
		return 2
	fi
	rm -f -- "$_oi_tmp.err"
	mv -f -- "$_oi_tmp" "$_oi_t" || { rm -f -- "$_oi_tmp"; echo "$_oi_d: cannot replace (the previous file is kept)" >&2; return 2; }
}

# out_install_dir SRCDIR DESTDIR: DESTDIR's files replaced by SRCDIR's as
# a whole (a copy beside it, checked, then two renames; the old folder is
# put back when the second fails), or left as it was
out_install_dir() {
	_od_s=$1 _od_d=$2
	if [ -e "$_od_d" ] && [ ! -d "$_od_d" ]; then
		echo "$_od_d: is not a directory (nothing written)" >&2
		return 2
	fi
	_od_t=$(out_target "$_od_d")
	_od_p=$(dirname -- "$_od_t")
	mkdir -p -- "$_od_p" || return 2
	_od_new=$_od_p/.$(basename -- "$_od_t").new.$$
	_od_old=$_od_p/.$(basename -- "$_od_t").old.$$
	rm -rf -- "$_od_new" "$_od_old"
	if ! cp -R -- "$_od_s" "$_od_new" 2>"$_od_p/.outputs-err.$$" || ! sync -f -- "$_od_new" 2>>"$_od_p/.outputs-err.$$" ||
		! diff -r -- "$_od_s" "$_od_new" >/dev/null 2>&1; then
		echo "$_od_d: cannot write: $(tr '\n' ' ' < "$_od_p/.outputs-err.$$" 2>/dev/null)(the previous files are kept)" >&2
		rm -rf -- "$_od_new" "$_od_p/.outputs-err.$$"
		return 2
	fi
	rm -f -- "$_od_p/.outputs-err.$$"
	if [ -d "$_od_t" ]; then
		mv -- "$_od_t" "$_od_old" || { rm -rf -- "$_od_new"; echo "$_od_d: cannot replace (the previous files are kept)" >&2; return 2; }
	fi
	if ! mv -- "$_od_new" "$_od_t"; then
		[ ! -d "$_od_old" ] || mv -- "$_od_old" "$_od_t"
		rm -rf -- "$_od_new"
		echo "$_od_d: cannot replace (the previous files are kept)" >&2
		return 2
	fi
	rm -rf -- "$_od_old"
}

# out_complete FILE: the file's format ends as it must (gnuplot and
# pdflatex do not all report a short write): </svg>, %%EOF, PNG's IEND,
# </html>; other kinds: non-empty
out_complete() {
	[ -s "$1" ] || return 1
	case $1 in
	*.svg) tail -c 64 -- "$1" | grep -q '</svg>' ;;
	*.pdf) tail -c 64 -- "$1" | grep -q '%%EOF' ;;
	*.png) [ "$(tail -c 8 -- "$1" | od -An -c | tr -d ' \n')" = 'IEND256B`202' ] ;;
	*.html) tail -c 64 -- "$1" | grep -q '</html>' ;;
	*) return 0 ;;
	esac
}
