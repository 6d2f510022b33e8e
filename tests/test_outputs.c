/*
 * Results that survive any fault (issue 28): the one checked writer behind
 * `bench --out` and `merge --out`, docs/io.md's output rules against both
 * writers, the lock that follows the file and not its spelling, and a full
 * disk (a small tmpfs, root only).  Hashes are checked with sha256sum and
 * the published FIPS 180-4 examples, never with the code under test.
 * Runs build/arenabench from the repository root.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/sha256.h"
#include "testutil.h"

#ifndef AB_BUILD_DIR
#define AB_BUILD_DIR "build"
#endif
#define BIN AB_BUILD_DIR "/arenabench"

static char dir[256];

static void setup(void) { tu_tmpdir_make(dir, sizeof(dir), "arenabench-outputs"); }
static void teardown(void)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "umount '%s/fs' 2>/dev/null; rm -rf '%s'", dir, dir);
	cr_assert_eq(system(cmd), 0);
}
TestSuite(outputs, .init = setup, .fini = teardown);

/* Runs a shell command in dir with $AB the binary; stdout and stderr
 * into *out (may be NULL); returns the exit status. */
static int sh(const char *script, char **out)
{
	char cmd[4096], *o = NULL;
	int rc;

	snprintf(cmd, sizeof(cmd), "cd '%s' && export AB='%s/%s' && timeout 20 sh -c '%s' 2>&1", dir,
		 getenv("PWD") ? getenv("PWD") : ".", BIN, script);
	rc = tu_run(cmd, &o);
	if (out)
		*out = o;
	else
		free(o);
	return rc;
}

static void file(const char *name, const char *text) { tu_write_file(dir, name, text); }

static char *slurp(const char *name)
{
	char p[512];
	size_t n;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return tu_slurp(p, &n);
}

/* The sha256 of a file by sha256sum (64 hex digits), malloc'd. */
static char *sha256sum(const char *name)
{
	char cmd[300], *out = NULL;

	snprintf(cmd, sizeof(cmd), "sha256sum %s | cut -c1-64", name);
	cr_assert_eq(sh(cmd, &out), 0, "%s", out);
	out[strcspn(out, "\n")] = 0;
	return out;
}

/* A shard: NAME.csv with text, NAME.meta naming its sha256 (by sha256sum)
 * and its row count, plus extra .meta lines. */
static void shard(const char *name, const char *text, const char *extra)
{
	char p[300], *h, meta[1024];
	size_t rows = 0;

	snprintf(p, sizeof(p), "%s.csv", name);
	file(p, text);
	for (const char *c = strchr(text, '\n'); c && c[1]; c = strchr(c + 1, '\n'))
		rows++;
	h = sha256sum(p);
	snprintf(meta, sizeof(meta), "%srows=%zu\ncsv_sha256=%s\n", extra ? extra : "", rows, h);
	snprintf(p, sizeof(p), "%s.meta", name);
	file(p, meta);
	free(h);
}

static void expect_sh(const char *script, int code, const char *message)
{
	char *out = NULL;
	int rc = sh(script, &out);

	cr_expect_eq(rc, code, "%s: exit %d, expected %d (%s)", script, rc, code, out);
	cr_expect(strstr(out, message) != NULL, "%s: '%s' lacks '%s'", script, out, message);
	free(out);
}

static void expect_file(const char *name, const char *text)
{
	char *got = slurp(name);

	cr_expect(got && !strcmp(got, text), "%s holds '%s', expected '%s'", name, got ? got : "(missing)", text);
	free(got);
}

/* FIPS 180-4's examples (and NIST's one-million-a message). */
Test(outputs, sha256_matches_the_published_digests)
{
	static const struct { const char *msg; size_t repeat; const char *hex; } v[] = {
		{ "", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
		{ "a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct ab_sha256 s;
		char hex[65];

		ab_sha256_init(&s);
		for (size_t k = 0; k < v[i].repeat; k++)
			ab_sha256_update(&s, v[i].msg, strlen(v[i].msg));
		ab_sha256_hex(&s, hex);
		cr_expect_str_eq(hex, v[i].hex, "message %zu", i);
	}
}

/* bench's .meta names its CSV's sha256 and row count: a reader tells a
 * matched pair from a torn one. */
Test(outputs, bench_meta_names_the_csv_sha256)
{
	char *h, *meta, want[100];

	file("g.csv", "id,lower,upper,size\n0,0,2,8\n1,1,3,8\n");
	expect_sh("$AB bench g.csv --no-timing --quiet --planners linear,size_first_fit --align 1 --out r.csv", 0, "");
	h = sha256sum("r.csv");
	meta = slurp("r.meta");
	snprintf(want, sizeof(want), "\nrows=2\ncsv_sha256=%s\n", h);
	cr_expect(meta && strstr(meta, want), "r.meta lacks '%s': %s", want, meta);
	free(h);
	free(meta);
	/* nothing left beside the pair: no temporary file, no lock */
	expect_sh("ls -A | sort | tr \"\\n\" \" \"", 0, "g.csv r.csv r.meta ");
}

Test(outputs, merge_writes_the_shards_rows_in_order_with_a_matching_meta)
{
	char *h, *meta, want[200];

	shard("b", "schema_version,graph,peak\n7,x,10\n7,y,12\n", "shard_input=x.graph\n");
	shard("a", "schema_version,graph,peak\n7,z,3\n", NULL);
	shard("e", "schema_version,graph,peak\n", NULL); /* a skipped input: header only */
	file("m.txt", "campaign=c1\nrows=99\ncsv_sha256=stale\nhosts=h:2\n");
	expect_sh("$AB merge --out m.csv --meta-from m.txt b.csv e.csv a.csv", 0,
		  "merge: wrote 3 rows from 3 shards to m.csv");
	expect_file("m.csv", "schema_version,graph,peak\n7,x,10\n7,y,12\n7,z,3\n");
	h = sha256sum("m.csv");
	snprintf(want, sizeof(want), "campaign=c1\nhosts=h:2\nrows=3\ncsv_sha256=%s\n", h);
	meta = slurp("m.meta");
	cr_expect(meta && !strcmp(meta, want), "m.meta is '%s', expected '%s'", meta, want);
	free(h);
	free(meta);
}

Test(outputs, merge_refuses_a_bad_shard_naming_it_and_keeps_the_old_pair)
{
	file("m.csv", "old csv\n");
	file("m.meta", "old meta\n");
	shard("a", "schema_version,graph,peak\n7,x,10\n", NULL);
	shard("hdr", "schema_version,graph,peak_bytes\n7,y,1\n", NULL);
	shard("ver", "schema_version,graph,peak\n7,y,1\n8,z,2\n", NULL);
	shard("cut", "schema_version,graph,peak\n7,y,1\n7,z", NULL);
	shard("bad", "schema_version,graph,peak\n7,y,1\n", NULL);
	file("bad.csv", "schema_version,graph,peak\n7,y,2\n"); /* changed after its .meta */
	file("nometa.csv", "schema_version,graph,peak\n7,y,1\n");
	expect_sh("$AB merge --out m.csv a.csv hdr.csv", 2, "shard hdr.csv:1: its header differs from the first shard's");
	expect_sh("$AB merge --out m.csv a.csv ver.csv", 2, "shard ver.csv:3: schema_version '8' differs from the first row's '7'");
	expect_sh("$AB merge --out m.csv a.csv cut.csv", 2, "shard cut.csv:3: the last row has no line end");
	expect_sh("$AB merge --out m.csv a.csv bad.csv", 2, "shard bad.csv: its sha256 is ");
	expect_sh("$AB merge --out m.csv a.csv nometa.csv", 2, "nometa.meta: cannot open");
	expect_sh("$AB merge --out m.csv", 2, "usage: arenabench merge --out OUT.csv");
	expect_file("m.csv", "old csv\n");
	expect_file("m.meta", "old meta\n");
	expect_sh("ls -A | grep -c \"tmp\\|lock\\|old\"", 1, "0");
}

/* docs/io.md's output rules, against both writers of a results pair. */
static const char *const writers[2] = {
	"$AB bench g.csv --no-timing --quiet --planners linear --align 1 --out",
	"$AB merge a.csv --out",
};

static void two_inputs(void)
{
	file("g.csv", "id,lower,upper,size\n0,0,2,8\n");
	shard("a", "schema_version,graph,peak\n7,x,10\n", "shard_input=g.csv\n");
}

Test(outputs, a_symlinked_output_writes_its_target_and_stays_a_link)
{
	two_inputs();
	for (int w = 0; w < 2; w++) {
		char cmd[400];
		struct stat st;
		char p[512];

		snprintf(cmd, sizeof(cmd), "mkdir -p t && rm -f t/r.csv link.csv && ln -s t/r.csv link.csv && %s link.csv && test -L link.csv && test -f t/r.csv && head -c 15 t/r.csv", writers[w]);
		expect_sh(cmd, 0, "schema_version,");
		snprintf(p, sizeof(p), "%s/link.csv", dir);
		cr_expect(lstat(p, &st) == 0 && S_ISLNK(st.st_mode), "writer %d replaced the link", w);
	}
}

Test(outputs, a_fifo_output_or_meta_is_refused_at_once)
{
	two_inputs();
	cr_assert_eq(sh("mkfifo f.csv && mkfifo p.meta", NULL), 0);
	for (int w = 0; w < 2; w++) {
		char cmd[400];

		snprintf(cmd, sizeof(cmd), "%s f.csv", writers[w]);
		expect_sh(cmd, 2, "--out f.csv is a FIFO (its reader may never come: refused rather than hang)");
		snprintf(cmd, sizeof(cmd), "%s p.csv", writers[w]);
		expect_sh(cmd, 2, "--out's .meta p.meta is a FIFO");
	}
	expect_sh("test -p f.csv && test -p p.meta && test ! -e p.csv && echo kept", 0, "kept");
}

Test(outputs, a_device_is_written_in_place_never_replaced)
{
	two_inputs();
	for (int w = 0; w < 2; w++) {
		char cmd[400];

		snprintf(cmd, sizeof(cmd), "%s /dev/null && test -c /dev/null && test ! -e /dev/null.meta && echo device", writers[w]);
		expect_sh(cmd, 0, "device");
		/* /dev/full: the write error is the exit */
		snprintf(cmd, sizeof(cmd), "%s /dev/full", writers[w]);
		expect_sh(cmd, 2, "No space left on device");
	}
}

Test(outputs, a_folder_output_or_meta_is_refused)
{
	two_inputs();
	cr_assert_eq(sh("mkdir d.csv e.meta", NULL), 0);
	for (int w = 0; w < 2; w++) {
		char cmd[400];

		snprintf(cmd, sizeof(cmd), "%s d.csv", writers[w]);
		expect_sh(cmd, 2, "--out d.csv is a directory");
		snprintf(cmd, sizeof(cmd), "%s e.csv", writers[w]);
		expect_sh(cmd, 2, "--out's .meta e.meta is a directory");
	}
}

Test(outputs, an_input_by_another_spelling_is_refused)
{
	two_inputs();
	cr_assert_eq(sh("mkdir sub && ln -s . same", NULL), 0);
	/* bench's input g.csv; merge's shard a.csv and its input g.csv */
	expect_sh("$AB bench g.csv --no-timing --quiet --out sub/../g.csv", 2,
		  "--out sub/../g.csv is the input g.csv: refusing to overwrite an input");
	expect_sh("$AB bench . --no-timing --quiet --out same/g.csv", 2,
		  "--out same/g.csv is the input ./g.csv");
	expect_sh("$AB merge a.csv --out ./same/a.csv", 2, "--out ./same/a.csv is the input a.csv");
	expect_sh("$AB merge a.csv --out \"$PWD/g.csv\"", 2, "is the input g.csv");
	expect_file("g.csv", "id,lower,upper,size\n0,0,2,8\n");
}

Test(outputs, a_meta_that_is_an_input_is_refused)
{
	two_inputs();
	cr_assert_eq(sh("ln -s g.csv r.meta && ln -s a.meta s.meta", NULL), 0);
	expect_sh("$AB bench g.csv --no-timing --quiet --out r.csv", 2,
		  "--out's .meta r.meta is the input g.csv: refusing to overwrite an input");
	/* the merge's inputs: the shards, their .meta files, their inputs */
	expect_sh("$AB merge a.csv --out r.csv", 2, "--out's .meta r.meta is the input g.csv");
	expect_sh("$AB merge a.csv --out s.csv", 2, "--out's .meta s.meta is the input a.meta");
	expect_file("g.csv", "id,lower,upper,size\n0,0,2,8\n");
	expect_sh("test -L r.meta && test -L s.meta && test ! -e r.csv && test ! -e s.csv && echo kept", 0, "kept");
}

/* One run per output file: the second spelling is refused naming the
 * first run's pid; a lock left by a killed run is taken over, saying so. */
Test(outputs, two_spellings_of_one_output_one_runs_one_is_refused)
{
	char *out = NULL, want[64];
	int rc;

	file("g.csv", "id,lower,upper,size\n0,0,2,8\n");
	cr_assert_eq(sh("mkdir bin sub && ln -s . alias", NULL), 0);
	/* a git that holds the first run (bench asks it for the .meta) */
	file("bin/git", "#!/bin/sh\necho $$ > held.tmp; mv held.tmp held\nexec sleep 1 </dev/null >/dev/null 2>&1\n");
	rc = sh("chmod +x bin/git; PATH=\"$PWD/bin:$PATH\" $AB bench g.csv --no-timing --quiet --out r.csv > first.log 2>&1 & "
		"pid=$!; for k in $(seq 200); do [ -e held ] && break; sleep 0.05; done; "
		"echo first=$pid; $AB bench g.csv --no-timing --quiet --out \"$PWD/alias/sub/../r.csv\"; echo second=$?; "
		"wait $pid; echo first_rc=$?",
		&out);
	cr_expect_eq(rc, 0, "%s", out);
	{
		const char *f = strstr(out, "first=");
		long pid = f ? strtol(f + 6, NULL, 10) : -1;

		snprintf(want, sizeof(want), "is in use by pid=%ld host=", pid);
	}
	cr_expect(strstr(out, want) && strstr(out, "second=2") && strstr(out, "first_rc=0"),
		  "expected '%s', second=2, first_rc=0: %s", want, out);
	free(out);
	expect_sh("head -c 15 r.csv; ls -A | grep -c lock", 1, "schema_version,0");
}

Test(outputs, a_stale_lock_of_a_killed_run_is_taken_over_and_named)
{
	file("g.csv", "id,lower,upper,size\n0,0,2,8\n");
	file(".r.csv.lock", "pid=999999 host=gone started=2026-01-01T00:00:00Z command=arenabench bench\n");
	expect_sh("$AB bench g.csv --no-timing --quiet --out r.csv", 0,
		  "took over the stale lock");
	expect_sh("$AB bench g.csv --no-timing --quiet --out r.csv; test ! -e .r.csv.lock && echo gone", 0, "gone");
	/* a Slurm campaign's reservation is refused like a held lock */
	file(".r.csv.lock", "pid=5 host=h started=2026-01-01T00:00:00Z command=campaign.sh slurm slurm_jobs=41,42\n");
	expect_sh("$AB bench g.csv --no-timing --quiet --out r.csv", 2, "is reserved for pid=5 host=h");
}

/*
 * A full disk: a 64 KiB tmpfs filled to leave 0 to 15 pages.  Every run
 * either writes a matched pair (the .meta's csv_sha256 is the CSV's) or
 * exits non-zero with the previous pair byte for byte and nothing else
 * left; at least one run must fail.  Root only (mount).
 */
Test(outputs, a_full_disk_keeps_the_previous_pair)
{
	char cmd[1200], *out = NULL;
	int failed[2] = { 0, 0 };

	if (getuid() != 0) {
		cr_skip_test("needs root to mount a tmpfs (run the tests as root, as CI does)");
		return;
	}
	if (sh("mkdir fs && mount -t tmpfs -o size=64k tmpfs fs", &out)) {
		cr_skip_test("cannot mount a tmpfs here: %s", out);
		free(out);
		return;
	}
	free(out);
	/* one graph: a CSV of about 15 KiB, four tmpfs pages */
	snprintf(cmd, sizeof(cmd), "cp \"%s/graphs/starter/residual_block.graph\" g.graph", getenv("PWD"));
	cr_assert_eq(sh(cmd, NULL), 0);
	/* a shard of 4,000 rows: about 28 KiB, seven pages */
	cr_assert_eq(sh("awk \"BEGIN { print \\\"schema_version,graph,peak\\\"; for (i = 0; i < 4000; i++) print \\\"7,x,10\\\" }\" > big.csv && "
			"printf \"rows=4000\\ncsv_sha256=%s\\n\" $(sha256sum big.csv | cut -c1-64) > big.meta", &out), 0, "%s", out);
	free(out);
	for (int w = 0; w < 2; w++)
		for (int free_pages = 0; free_pages < 16; free_pages++) {
			int rc;

			snprintf(cmd, sizeof(cmd),
				 "rm -f fs/* fs/.??*; printf \"old csv\\n\" > fs/r.csv && printf \"old meta\\n\" > fs/r.meta && "
				 "dd if=/dev/zero of=fs/fill bs=4096 count=%d 2>/dev/null; "
				 "%s",
				 14 - free_pages < 0 ? 0 : 14 - free_pages,
				 w ? "$AB merge big.csv --out fs/r.csv"
				   : "$AB bench g.graph --no-timing --quiet --out fs/r.csv");
			rc = sh(cmd, &out);
			if (rc == 0) {
				char *h;

				free(out);
				h = sha256sum("fs/r.csv");
				snprintf(cmd, sizeof(cmd), "grep -c \"^csv_sha256=%s$\" fs/r.meta", h);
				expect_sh(cmd, 0, "1");
				free(h);
			} else {
				failed[w]++;
				cr_expect(strstr(out, "No space left on device") || strstr(out, "write error"),
					  "writer %d, %d pages free: exit %d without naming the cause: %s", w, free_pages, rc, out);
				free(out);
				expect_file("fs/r.csv", "old csv\n");
				expect_file("fs/r.meta", "old meta\n");
				expect_sh("ls -A fs | tr \"\\n\" \" \"", 0, "fill r.csv r.meta ");
			}
		}
	cr_expect(failed[0] >= 1 && failed[1] >= 1, "the disk was never full enough to fail (bench %d, merge %d failures)",
		  failed[0], failed[1]);
}
