#!/bin/sh
# The rules the layout states, checked on the sources (run by make test):
#  - the architecture as allowed edges: the "may include" column of
#    harness/README.md's table says which folders a folder's files may
#    include (`lib` = planners/lib/, a row for planners/ itself); an include
#    names its folder ("check/check.h"), and one of a folder the row does
#    not name is refused, a sideways edge as much as an upstream one;
#    "everything" allows all (cli/); the generated registry list
#    (planners.def) is the one include without a folder, core's and a
#    planner's;
#  - only harness/cli prints to stdout or stderr, exits or starts a process
#    (one exception, named below: harness/core/isolate.c forks a child for
#    a call that may crash, and only that child calls _exit);
#  - no tracked file holds a merge's conflict markers (one slipped into
#    .gitignore once and went unnoticed).
# Comments and string literals are ignored.  Prints one line per violation
# (FILE:LINE: what) and exits 1 if there is any.  Usage: check-deps.sh [ROOT]
set -u
root=${1:-$(dirname "$0")/..}
cd "$root" || exit 2
markers=$(git ls-files -z 2>/dev/null | xargs -0 grep -nE '^(<<<<<<<|>>>>>>>) ' -- 2>/dev/null || true)
if [ -n "$markers" ]; then
	printf '%s\n' "$markers" | sed 's/$/   <- a merge conflict marker/'
	echo "check-deps: conflict markers in tracked files"
	exit 1
fi
files=$(find harness planners -name '*.c' -o -name '*.h' -o -name '*.cc' | sort)
table=harness/README.md
[ -f "$table" ] || { echo "check-deps: $table (the allowed-edges table) is missing"; exit 2; }
# shellcheck disable=SC2086
perl -e '
my $table = shift @ARGV;
# The table: | `FOLDER/` | stage | owns | may include |
my %allow;
open(my $th, "<", $table) or die "$table: $!";
while (my $l = <$th>) {
	next unless $l =~ /^\|\s*`([a-z_\/]+)\/`\s*\|/;
	my $folder = $1;
	my @cells = split /\|/, $l;
	my $may = $cells[-2] // "";
	my $key = $folder eq "planners/lib" ? "lib" : $folder eq "planners" ? "planner" : $folder;
	if ($may =~ /\beverything\b/) { $allow{$key} = { "*" => 1 }; next; }
	# what the cell names before any parenthesis (a remark)
	(my $names = $may) =~ s/\(.*//;
	$allow{$key} = { map { $_ => 1 } ($names =~ /`([^`]+)`/g) };
}
close $th;
for my $need ("core", "transform", "lib", "planner", "import", "check", "bench", "report", "cli") {
	die "check-deps: $table has no row for $need\n" unless $allow{$need};
}
my $bad = 0;
sub say_bad { my ($f, $n, $m) = @_; print "$f:$n: $m\n"; $bad++; }
for my $f (@ARGV) {
	open(my $fh, "<", $f) or die "$f: $!";
	local $/; my $src = <$fh>; close $fh;
	# blank comments and string literals, keeping the line breaks
	my $code = $src;
	$code =~ s{/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\x27(?:\\.|[^\x27\\\n])*\x27}{
		my $m = $&; my $keep = ($m =~ /^"/ ? "\"\"" : ""); (my $nl = $m) =~ s/[^\n]//g; $keep . $nl }gse;
	my $stage;
	if ($f =~ m{^harness/([^/]+)/}) { $stage = $1; }
	elsif ($f =~ m{^planners/lib/}) { $stage = "lib"; }
	elsif ($f =~ m{^planners/}) { $stage = "planner"; }
	my @lines = split /\n/, $src, -1;
	my @clines = split /\n/, $code, -1;
	for my $i (0 .. $#lines) {
		my $n = $i + 1;
		if (defined $stage && $lines[$i] =~ /^\s*#\s*include\s*"([^"]+)"/) {
			my $h = $1; my ($dir) = $h =~ m{^([^/]+)/};
			my $ok = $allow{$stage};
			if (!$ok) {
				say_bad($f, $n, "the folder $stage has no row in $table");
			} elsif ($ok->{"*"}) {
			} elsif (!defined $dir) {
				say_bad($f, $n, "includes \"$h\", which names no folder")
					unless $h eq "planners.def" && ($stage eq "core" || $stage eq "planner");
			} elsif (!$ok->{$dir} && !$ok->{$h}) {
				my $what = $stage eq "planner" ? "a planner" : $stage eq "lib" ? "planners/lib" : $stage;
				say_bad($f, $n, "$what includes \"$h\": $what may include only " .
					join(", ", sort keys %$ok) . " ($table)");
			}
		}
		next if defined $stage && $stage eq "cli";
		my $c = $clines[$i] // "";
		if ($c =~ /\b(printf|vprintf|puts|putchar|perror)\s*\(/ ||
		    $c =~ /\b(fprintf|vfprintf|fputs|fputc|putc|fwrite|fflush)\s*\([^;]*\b(stdout|stderr)\b/ ||
		    $c =~ /\b(std::cout|std::cerr)\b/) {
			say_bad($f, $n, "prints to stdout or stderr (only harness/cli prints)");
		}
		# the one exception: core/isolate.c forks a child for a call that
		# may crash (third-party code on a malformed input), and the
		# child alone leaves by _exit
		my $isolate = $f eq "harness/core/isolate.c";
		if ($c =~ /(?<![\w.>])(exit|_exit|_Exit|quick_exit|abort)\s*\(/ &&
		    !($isolate && $1 eq "_exit")) {
			say_bad($f, $n, "calls $1 (only harness/cli exits)");
		}
		if ($c =~ /(?<![\w.>])(system|popen|fork|vfork|execl|execlp|execle|execv|execvp|execvpe|posix_spawn|posix_spawnp)\s*\(/ &&
		    !($isolate && $1 eq "fork")) {
			say_bad($f, $n, "starts a process with $1 (only harness/cli does)");
		}
	}
}
if ($bad) { print "check-deps: $bad violation(s)\n"; exit 1; }
print "check-deps: every include is an edge of the table in $table; only harness/cli prints, exits or starts a process\n";
' "$table" $files
