#!/bin/sh
# The rules the layout states, checked on the sources (run by make test):
#  - dependencies run one way: a file in harness/STAGE includes headers of
#    its own stage or an earlier one, in the pipeline's order
#      core < transform < planners (lib/) < import < check < bench < report < cli
#  - a planner (planners/*.c) includes only core/arenabench.h and lib/;
#    planners/lib only core/ and lib/;
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
# shellcheck disable=SC2086
perl -e '
my %rank = (core => 0, transform => 1, lib => 2, import => 3, check => 4,
	    bench => 5, report => 6, cli => 7);
my $bad = 0;
sub say_bad { my ($f, $n, $m) = @_; print "$f:$n: $m\n"; $bad++; }
for my $f (@ARGV) {
	open(my $fh, "<", $f) or die "$f: $!";
	local $/; my $src = <$fh>; close $fh;
	# blank comments and string literals, keeping the line breaks
	my $code = $src;
	$code =~ s{/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\x27(?:\\.|[^\x27\\\n])*\x27}{
		my $m = $&; my $keep = ($m =~ /^"/ ? "\"\"" : ""); (my $nl = $m) =~ s/[^\n]//g; $keep . $nl }gse;
	my ($stage, $kind);
	if ($f =~ m{^harness/([^/]+)/}) { $stage = $1; $kind = "harness"; }
	elsif ($f =~ m{^planners/lib/}) { $stage = "lib"; $kind = "planlib"; }
	elsif ($f =~ m{^planners/}) { $stage = "planner"; $kind = "planner"; }
	my @lines = split /\n/, $src, -1;
	my @clines = split /\n/, $code, -1;
	for my $i (0 .. $#lines) {
		my $n = $i + 1;
		if ($lines[$i] =~ /^\s*#\s*include\s*"([^"]+)"/) {
			my $h = $1; my ($dir) = $h =~ m{^([^/]+)/};
			if ($kind eq "planner") {
				say_bad($f, $n, "a planner includes \"$h\" (only core/arenabench.h and lib/)")
					unless $h eq "core/arenabench.h" || $h =~ m{^lib/} || $h eq "planners.def";
			} elsif ($kind eq "planlib") {
				say_bad($f, $n, "planners/lib includes \"$h\" (only core/ and lib/)")
					unless defined $dir && ($dir eq "core" || $dir eq "lib");
			} elsif (defined $dir && exists $rank{$dir} && exists $rank{$stage} &&
				 $rank{$dir} > $rank{$stage}) {
				say_bad($f, $n, "$stage includes \"$h\" from the later stage $dir");
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
print "check-deps: the includes run one way; only harness/cli prints, exits or starts a process\n";
' $files
