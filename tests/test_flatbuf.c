/*
 * Tests of the bounds-checked FlatBuffers reader (harness/import/flatbuf.h).
 *
 * One 104-byte buffer written byte by byte below, with the arithmetic of
 * every offset in a comment: a root table with a u8, a u32, a u64, an int32
 * vector, a string and a vector of one child table.  Each check of the
 * reader is then hit by patching a copy at one place; the messages are
 * pinned whole where the numbers in them are worked out by hand, and the
 * boundary cases (a vector that ends exactly at the end of the file, depth
 * exactly AB_FB_MAX_DEPTH) must pass.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "import/flatbuf.h"

#define U16(v) (uint8_t)((v) & 0xff), (uint8_t)(((v) >> 8) & 0xff)
#define U32(v) (uint8_t)((uint32_t)(v)), (uint8_t)((uint32_t)(v) >> 8), \
	       (uint8_t)((uint32_t)(v) >> 16), (uint8_t)((uint32_t)(v) >> 24)

static const uint8_t good[] = {
	/*   0 */ U32(28),                  /* root: 0 + 28 = the table */
	/*   4 */ 'T', 'E', 'S', 'T',
	/*   8 root vtable: 4 + 2 x 7 = 18 bytes (ids 0..6), table 32 bytes */
	/*   8 */ U16(18), U16(32),
	/*  12 */ U16(4), U16(8), U16(12), U16(16), U16(20), U16(28),
	/*  24 */ U16(0),                   /* id 6: absent */
	/*  26 */ 0, 0,
	/*  28 root table (28..60) */
	/*  28 */ U32(20),                  /* soffset: vtable at 28 - 20 = 8 */
	/*  32 */ 0xab, 0, 0, 0,            /* id 0: u8 0xab at +4 */
	/*  36 */ U32(0x11223344),          /* id 1: u32 at +8 */
	/*  40 */ U32(20),                  /* id 2: ints at 40 + 20 = 60 */
	/*  44 */ U32(28),                  /* id 3: name at 44 + 28 = 72 */
	/*  48 */ U32(0x05060708), U32(0x01020304), /* id 4: u64 at +20 */
	/*  56 */ U32(24),                  /* id 5: kids at 56 + 24 = 80 */
	/*  60 ints: 2 x int32 */
	/*  60 */ U32(2), U32(7), U32(-1),
	/*  72 name: "abc" */
	/*  72 */ U32(3), 'a', 'b', 'c', 0,
	/*  80 kids: one table */
	/*  80 */ U32(1), U32(12),          /* element at 84: 84 + 12 = 96 */
	/*  88 child vtable: 6 bytes (id 0), table 8 bytes */
	/*  88 */ U16(6), U16(8), U16(4), 0, 0,
	/*  96 child table (96..104) */
	/*  96 */ U32(8),                   /* soffset: vtable at 96 - 8 = 88 */
	/* 100 */ U32(0x55),                /* id 0: u32 at +4 */
};

static uint8_t buf[sizeof(good)];
static struct ab_error err;

/* A fresh copy of `good` (n bytes of it) for the reader. */
static struct ab_fb fresh(size_t n)
{
	struct ab_fb fb = { .p = buf, .n = n, .path = "t.bin", .err = &err };

	memcpy(buf, good, sizeof(good));
	err.msg[0] = 0;
	return fb;
}

static void put16(size_t at, uint16_t v)
{
	buf[at] = (uint8_t)v;
	buf[at + 1] = (uint8_t)(v >> 8);
}

static void put32(size_t at, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		buf[at + i] = (uint8_t)(v >> (8 * i));
}

static void root(const struct ab_fb *fb, struct ab_fb_table *t)
{
	int rc = ab_fb_table_at(fb, 28, 0, "Root", t);

	cr_assert_eq(rc, 0, "%s", err.msg);
}

Test(flatbuf, reads_every_kind_of_field)
{
	struct ab_fb fb = fresh(sizeof(good));
	struct ab_fb_table t, kid;
	struct ab_fb_vec ints, kids;
	const char *s;
	uint64_t u64, at;
	uint32_t u32, len;
	uint8_t u8;

	cr_assert_eq(sizeof(good), 104);
	cr_assert_eq(ab_fb_follow(&fb, 0, "root offset", &at), 0, "%s",
		     err.msg);
	cr_expect_eq(at, 28);
	root(&fb, &t);
	cr_expect_eq(t.pos, 28);
	cr_expect_eq(t.vt, 8);
	cr_expect_eq(t.vt_len, 18);
	cr_expect_eq(t.len, 32);

	cr_assert_eq(ab_fb_get_u8(&fb, &t, 0, "u8", 1, &u8), 0);
	cr_expect_eq(u8, 0xab);
	cr_assert_eq(ab_fb_get_u32(&fb, &t, 1, "u32", 1, &u32), 0);
	cr_expect_eq(u32, 0x11223344u);
	cr_assert_eq(ab_fb_get_u64(&fb, &t, 4, "u64", &u64), 0);
	cr_expect_eq(u64, 0x0102030405060708ull);
	/* id 6: a zero slot; id 7: slot 4 + 2 x 7 = 18 is past the 18-byte
	 * vtable.  Both absent: the default. */
	cr_assert_eq(ab_fb_get_u32(&fb, &t, 6, "absent", 9, &u32), 0);
	cr_expect_eq(u32, 9);
	cr_assert_eq(ab_fb_get_u32(&fb, &t, 7, "beyond", 9, &u32), 0);
	cr_expect_eq(u32, 9);
	cr_assert_eq(ab_fb_field(&fb, &t, 7, 4, "beyond", &at), 0);
	cr_expect_eq(at, 0);

	cr_assert_eq(ab_fb_get_vec(&fb, &t, 2, 4, "ints", &ints), 0);
	cr_expect_eq(ints.pos, 64);
	cr_expect_eq(ints.len, 2);
	cr_expect_eq(ab_fb_vec_i32(&fb, &ints, 0), 7);
	cr_expect_eq(ab_fb_vec_i32(&fb, &ints, 1), -1);
	cr_expect_eq(ab_fb_vec_u8(&fb, &ints, 0), 7);
	/* An absent vector is empty, an absent string NULL. */
	cr_assert_eq(ab_fb_get_vec(&fb, &t, 6, 4, "absent", &ints), 0);
	cr_expect(ints.pos == 0 && ints.len == 0);
	cr_assert_eq(ab_fb_get_str(&fb, &t, 6, "absent", &s, &len), 0);
	cr_expect(s == NULL && len == 0);

	cr_assert_eq(ab_fb_get_str(&fb, &t, 3, "name", &s, &len), 0);
	cr_expect_eq(len, 3);
	cr_expect_str_eq(s, "abc");
	cr_expect_eq(s, (const char *)buf + 76);

	cr_assert_eq(ab_fb_get_vec(&fb, &t, 5, 4, "kids", &kids), 0);
	cr_expect_eq(kids.len, 1);
	cr_assert_eq(ab_fb_vec_table(&fb, &kids, 0, 1, "Kid", &kid), 0, "%s",
		     err.msg);
	cr_expect_eq(kid.pos, 96);
	cr_expect_eq(kid.vt, 88);
	cr_assert_eq(ab_fb_get_u32(&fb, &kid, 0, "Kid.x", 0, &u32), 0);
	cr_expect_eq(u32, 0x55);
	cr_expect_eq(err.msg[0], 0, "no message on success: %s", err.msg);
}

Test(flatbuf, table_checks)
{
	struct ab_fb fb = fresh(sizeof(good));
	struct ab_fb_table t;

	cr_expect_eq(ab_fb_table_at(&fb, 30, 0, "Root", &t), -EBADMSG);
	cr_expect_str_eq(err.msg, "t.bin: Root table at offset 30 is not 4-byte aligned (expected a multiple of 4: a table starts with its 4-byte vtable offset)");
	cr_expect_eq(ab_fb_table_at(&fb, 104, 0, "Root", &t), -EBADMSG);
	cr_expect_str_eq(err.msg, "t.bin: Root table at offset 104 runs past the end of the file (104 bytes; truncated?)");

	/* Depth: 8 is the deepest allowed. */
	cr_expect_eq(ab_fb_table_at(&fb, 28, AB_FB_MAX_DEPTH, "Root", &t), 0);
	cr_expect_eq(ab_fb_table_at(&fb, 28, AB_FB_MAX_DEPTH + 1, "Root", &t),
		     -ELOOP);
	cr_expect_str_eq(err.msg, "t.bin: Root table nested deeper than 8 levels (cyclic or hostile file)");

	fb = fresh(sizeof(good));
	put32(28, 0);
	cr_expect_eq(ab_fb_table_at(&fb, 28, 0, "Root", &t), -EBADMSG);
	cr_expect_str_eq(err.msg, "t.bin: Root table at offset 28 is self-referencing: its vtable offset is 0, so the table would be its own vtable");

	/* soffset 100: vtable at 28 - 100 = -72; soffset -80: 28 + 80 = 108,
	 * past the 104 bytes. */
	fb = fresh(sizeof(good));
	put32(28, 100);
	cr_expect_eq(ab_fb_table_at(&fb, 28, 0, "Root", &t), -EBADMSG);
	cr_expect_str_eq(err.msg, "t.bin: Root table at offset 28: its vtable offset points to -72, outside the file (104 bytes)");
	put32(28, (uint32_t)-80);
	cr_expect_eq(ab_fb_table_at(&fb, 28, 0, "Root", &t), -EBADMSG);
	cr_expect(strstr(err.msg, "points to 108, outside the file"), "%s",
		  err.msg);

	/* Vtable sizes: odd, under 4, or past the end (8 + 98 = 106). */
	const uint16_t bad_sizes[] = { 17, 2, 98 };

	for (size_t i = 0; i < 3; i++) {
		char want[160];

		fb = fresh(sizeof(good));
		put16(8, bad_sizes[i]);
		cr_expect_eq(ab_fb_table_at(&fb, 28, 0, "Root", &t), -EBADMSG);
		snprintf(want, sizeof(want), "t.bin: Root table at offset 28: vtable at 8 has size %u (expected an even size >= 4 inside the file)",
			 bad_sizes[i]);
		cr_expect_str_eq(err.msg, want);
	}

	/* Inline size: 28 + 80 = 108 > 104; 28 + 76 = 104 fits; under 4. */
	fb = fresh(sizeof(good));
	put16(10, 80);
	cr_expect_eq(ab_fb_table_at(&fb, 28, 0, "Root", &t), -EBADMSG);
	cr_expect_str_eq(err.msg, "t.bin: Root table at offset 28: inline size 80 runs past the end of the file (104 bytes; truncated?)");
	put16(10, 76);
	cr_expect_eq(ab_fb_table_at(&fb, 28, 0, "Root", &t), 0, "%s",
		     err.msg);
	put16(10, 2);
	cr_expect_eq(ab_fb_table_at(&fb, 28, 0, "Root", &t), -EBADMSG);
	/* the vtable at 8 comes before the table: no "into the table" */
	cr_expect_str_eq(err.msg, "t.bin: Root table at offset 28: its vtable at 8 gives the table an inline size of 2 bytes (expected at least 4, the table's own vtable offset)");

	/* A 22-byte vtable at 8 runs to 30, into the table at 28..60 (28 + 32). */
	fb = fresh(sizeof(good));
	put16(8, 22);
	cr_expect_eq(ab_fb_table_at(&fb, 28, 0, "Root", &t), -EBADMSG);
	cr_expect_str_eq(err.msg, "t.bin: Root table at offset 28 is self-referencing: its vtable (bytes 8..30) overlaps the table (bytes 28..60, its inline size 32) (expected the vtable outside the table)");
}

Test(flatbuf, field_checks)
{
	struct ab_fb fb = fresh(sizeof(good));
	struct ab_fb_table t;
	uint64_t v;

	/* id 4 moved to +28: 28 + 8 = 36 bytes > the table's 32. */
	put16(20, 28);
	root(&fb, &t);
	cr_expect_eq(ab_fb_get_u64(&fb, &t, 4, "Root.u64", &v), -EBADMSG);
	cr_expect_str_eq(err.msg, "t.bin: field 'Root.u64' at offset 28 of its table does not fit in the table's 32 bytes");
	/* ... at +24: 24 + 8 = 32 fits exactly. */
	put16(20, 24);
	root(&fb, &t);
	cr_expect_eq(ab_fb_get_u64(&fb, &t, 4, "Root.u64", &v), 0, "%s",
		     err.msg);
	/* An offset inside the soffset. */
	put16(20, 2);
	root(&fb, &t);
	cr_expect_eq(ab_fb_get_u64(&fb, &t, 4, "Root.u64", &v), -EBADMSG);
	cr_expect(strstr(err.msg, "field 'Root.u64' at offset 2"), "%s",
		  err.msg);
}

Test(flatbuf, offset_checks)
{
	struct ab_fb fb = fresh(sizeof(good));
	struct ab_fb_table t;
	struct ab_fb_vec v;
	uint64_t at;

	root(&fb, &t);
	put32(40, 0);
	cr_expect_eq(ab_fb_get_vec(&fb, &t, 2, 4, "Root.ints", &v), -EBADMSG);
	cr_expect_str_eq(err.msg, "t.bin: 'Root.ints': offset at 40 is 0 and refers to itself (self-referencing or cyclic table)");
	/* 40 + 64 = 104: the first byte past the end. */
	put32(40, 64);
	cr_expect_eq(ab_fb_get_vec(&fb, &t, 2, 4, "Root.ints", &v), -EBADMSG);
	cr_expect_str_eq(err.msg, "t.bin: 'Root.ints': offset 64 at 40 points past the end of the file (104 bytes; truncated?)");
	cr_expect_eq(ab_fb_follow(&fb, 101, "x", &at), -EBADMSG);
	cr_expect_str_eq(err.msg, "t.bin: 'x': offset at 101 runs past the end of the file (104 bytes; truncated?)");

	/* The element of `kids` at 84: 84 + 20 = 104. */
	fb = fresh(sizeof(good));
	put32(84, 20);
	cr_assert_eq(ab_fb_get_vec(&fb, &t, 5, 4, "kids", &v), 0);
	cr_expect_eq(ab_fb_vec_table(&fb, &v, 0, 1, "Kid", &t), -EBADMSG);
	cr_expect_str_eq(err.msg, "t.bin: 'Kid': offset 20 at 84 points past the end of the file (104 bytes; truncated?)");

	/* The root offset of a 3-byte file. */
	fb = fresh(3);
	cr_expect_eq(ab_fb_follow(&fb, 0, "root offset", &at), -EBADMSG);
	cr_expect_str_eq(err.msg, "t.bin: 'root offset': offset at 0 runs past the end of the file (3 bytes; truncated?)");
}

Test(flatbuf, vector_and_string_checks)
{
	struct ab_fb fb = fresh(sizeof(good));
	struct ab_fb_table t;
	struct ab_fb_vec v = { 5, 5 };
	const char *s;
	uint32_t len;

	/* ints start at 64: 10 x 4 bytes end at 104 exactly, 11 do not. */
	root(&fb, &t);
	put32(60, 10);
	cr_expect_eq(ab_fb_get_vec(&fb, &t, 2, 4, "Root.ints", &v), 0, "%s",
		     err.msg);
	cr_expect_eq(v.len, 10);
	put32(60, 11);
	v.pos = v.len = 5;
	cr_expect_eq(ab_fb_get_vec(&fb, &t, 2, 4, "Root.ints", &v), -EBADMSG);
	cr_expect_str_eq(err.msg, "t.bin: 'Root.ints': vector of 11 elements of 4 bytes at offset 60 is longer than the file (104 bytes; truncated?)");
	cr_expect(v.pos == 0 && v.len == 0, "a failed read leaves it empty");
	/* 2^32 - 1 elements of 8 bytes: no wrap in the size. */
	put32(60, 0xffffffffu);
	cr_expect_eq(ab_fb_get_vec(&fb, &t, 2, 8, "Root.ints", &v), -EBADMSG);

	/* A 62-byte file: the table (28..60) fits, the count at 60 not. */
	fb = fresh(62);
	root(&fb, &t);
	cr_expect_eq(ab_fb_get_vec(&fb, &t, 2, 4, "Root.ints", &v), -EBADMSG);
	cr_expect_str_eq(err.msg, "t.bin: 'Root.ints': vector length at 60 runs past the end of the file (62 bytes; truncated?)");

	/* The NUL at 79 replaced, or cut off (a 79-byte file). */
	fb = fresh(sizeof(good));
	buf[79] = 'd';
	cr_expect_eq(ab_fb_get_str(&fb, &t, 3, "Root.name", &s, &len),
		     -EBADMSG);
	cr_expect_str_eq(err.msg, "t.bin: string 'Root.name' at offset 72 is not NUL-terminated inside the file");
	fb = fresh(79);
	cr_expect_eq(ab_fb_get_str(&fb, &t, 3, "Root.name", &s, &len),
		     -EBADMSG);
	cr_expect(strstr(err.msg, "is not NUL-terminated"), "%s", err.msg);
	cr_expect(s == NULL && len == 0);
}

Test(flatbuf, messages_carry_the_context)
{
	struct ab_fb fb = fresh(sizeof(good));
	struct ab_fb_table t;

	ab_fb_set_ctx(&fb, "subgraph %d tensor %d", 0, 12);
	cr_expect_eq(ab_fb_table_at(&fb, 30, 2, "Tensor", &t), -EBADMSG);
	cr_expect_str_eq(err.msg, "t.bin: subgraph 0 tensor 12: Tensor table at offset 30 is not 4-byte aligned (expected a multiple of 4: a table starts with its 4-byte vtable offset)");
	cr_expect_eq(ab_fb_fail(&fb, -E2BIG, "%d of %d", 3, 2), -E2BIG);
	cr_expect_str_eq(err.msg, "t.bin: subgraph 0 tensor 12: 3 of 2");
	ab_fb_set_ctx(&fb, "%s", "");
	cr_expect_eq(ab_fb_fail(&fb, -EINVAL, "plain"), -EINVAL);
	cr_expect_str_eq(err.msg, "t.bin: plain");
}

Test(flatbuf, little_endian_loads)
{
	static const uint8_t b[] = { 0x08, 0x07, 0x06, 0x05,
				     0x04, 0x03, 0x02, 0x81 };

	cr_expect_eq(ab_fb_ld16(b), 0x0708);
	cr_expect_eq(ab_fb_ld32(b), 0x05060708u);
	cr_expect_eq(ab_fb_ld64(b), 0x8102030405060708ull);
}
