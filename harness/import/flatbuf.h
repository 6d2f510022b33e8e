/*
 * A bounds-checked FlatBuffers reader: the one place where bytes of a
 * FlatBuffer are turned into tables, fields, vectors and strings.  The
 * TFLite importer (tflite.c) and the exporter (export_format.c) use it;
 * what a Model, SubGraph or Tensor means stays with them.
 *
 * The binary layout (public FlatBuffers "internals" documentation), all
 * little endian:
 *   - byte 0 of the file: uoffset (u32) to the root table;
 *   - a table starts with an soffset (i32); its vtable is at table - soffset
 *     and holds u16 vtable size, u16 table size, then one u16 per field id:
 *     the field's offset inside the table, 0 = absent (default value);
 *   - a reference field holds a uoffset relative to the field itself;
 *     uoffsets point forward, so only a zero offset can loop;
 *   - a vector or string is a u32 element count, then the elements; a
 *     string ends with a NUL that is not counted; a vector of tables holds
 *     one uoffset per element, relative to the element.
 *
 * What is checked, before any byte is read:
 *   - every position and length against the file, in 64-bit arithmetic
 *     (a position plus a u32 offset, or a u32 count times an element
 *     size, cannot wrap);
 *   - a table: nesting depth <= AB_FB_MAX_DEPTH, 4-byte alignment, a
 *     non-zero soffset, a vtable inside the file of an even size >= 4, an
 *     inline size >= 4 inside the file, and no overlap of the vtable with
 *     its table (self-reference);
 *   - a field: its offset is >= 4 and its bytes lie inside the table;
 *   - a uoffset: non-zero and pointing inside the file;
 *   - a vector: its count and count x element size inside the file;
 *   - a string: its NUL terminator inside the file.
 * Loads are byte by byte (no unaligned access).
 *
 * Contract: every function that can fail returns 0 or a negative errno
 * (-EBADMSG for a malformed file, -ELOOP for nesting too deep) and puts
 * "PATH: CONTEXT: what was found (what was expected)" into the caller's
 * struct ab_error (": CONTEXT" only when set with ab_fb_set_ctx).  Absent
 * fields are not errors: they read as the default, an empty vector or a
 * NULL string.  The ab_fb_vec_* element reads and ab_fb_ld* are unchecked:
 * their callers index a vector that this reader has checked, with i < len
 * and the element size given when it was read.
 */
#ifndef AB_FLATBUF_H
#define AB_FLATBUF_H

#include <stdbool.h>
#include <stdint.h>

#include "core/arenabench.h"

/* The deepest table accepted (root = 0).  Readers walk a fixed schema, so
 * this only guards against a caller that follows links it did not plan. */
#define AB_FB_MAX_DEPTH 8

/* The file being read, and where errors go. */
struct ab_fb {
	const uint8_t *p;
	uint64_t n;             /* bytes in p */
	const char *path;       /* names the file in messages */
	struct ab_error *err;
	char ctx[128];          /* what is being read, for messages; "" = none */
};

struct ab_fb_table {
	uint64_t pos;           /* the table's soffset */
	uint64_t vt;            /* its vtable */
	uint32_t vt_len;        /* vtable bytes */
	uint32_t len;           /* inline table bytes */
};

struct ab_fb_vec {
	uint64_t pos;           /* first element (0 for an absent field) */
	uint32_t len;           /* elements */
};

/* "PATH: CONTEXT: message" (or "PATH: message") into fb->err; returns code. */
int ab_fb_fail(const struct ab_fb *fb, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Sets the context that later messages carry; "" clears it. */
void ab_fb_set_ctx(struct ab_fb *fb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Raw little-endian loads: the caller has checked the bounds. */
static inline uint16_t ab_fb_ld16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t ab_fb_ld32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t ab_fb_ld64(const uint8_t *p)
{
	return (uint64_t)ab_fb_ld32(p) | (uint64_t)ab_fb_ld32(p + 4) << 32;
}

/* Whether bytes [pos, pos + size) lie inside the file. */
static inline bool ab_fb_fits(const struct ab_fb *fb, uint64_t pos,
			      uint64_t size)
{
	return pos <= fb->n && size <= fb->n - pos;
}

/* The table at pos, `depth` links below the root; `what` names its type
 * ("Model", "Tensor") in messages. */
int ab_fb_table_at(const struct ab_fb *fb, uint64_t pos, int depth,
		   const char *what, struct ab_fb_table *t);

/* Where field id (of `size` inline bytes) is, or 0 in *at when absent;
 * `name` ("Tensor.shape") names it in messages, as in all calls below. */
int ab_fb_field(const struct ab_fb *fb, const struct ab_fb_table *t,
		unsigned id, unsigned size, const char *name, uint64_t *at);

/* Scalar fields; an absent field reads as def (0 for u64). */
int ab_fb_get_u8(const struct ab_fb *fb, const struct ab_fb_table *t,
		 unsigned id, const char *name, uint8_t def, uint8_t *v);
int ab_fb_get_u32(const struct ab_fb *fb, const struct ab_fb_table *t,
		  unsigned id, const char *name, uint32_t def, uint32_t *v);
int ab_fb_get_u64(const struct ab_fb *fb, const struct ab_fb_table *t,
		  unsigned id, const char *name, uint64_t *v);

/* Follows the uoffset stored at `at` (the root offset is at 0). */
int ab_fb_follow(const struct ab_fb *fb, uint64_t at, const char *name,
		 uint64_t *target);

/* The vector that the uoffset at `at` points to, of esize-byte elements. */
int ab_fb_vec_from(const struct ab_fb *fb, uint64_t at, unsigned esize,
		   const char *name, struct ab_fb_vec *v);

/* A vector field; an absent field is an empty vector. */
int ab_fb_get_vec(const struct ab_fb *fb, const struct ab_fb_table *t,
		  unsigned id, unsigned esize, const char *name,
		  struct ab_fb_vec *v);

/* A string field: a pointer into the file (NUL-terminated there) and its
 * length; an absent field gives NULL and 0. */
int ab_fb_get_str(const struct ab_fb *fb, const struct ab_fb_table *t,
		  unsigned id, const char *name, const char **s,
		  uint32_t *len);

/* Element i of a vector of tables (esize 4), at `depth`. */
int ab_fb_vec_table(const struct ab_fb *fb, const struct ab_fb_vec *v,
		    uint32_t i, int depth, const char *what,
		    struct ab_fb_table *t);

/* Element i of a checked vector of bytes (esize 1) or of int32 (esize 4). */
static inline uint8_t ab_fb_vec_u8(const struct ab_fb *fb,
				   const struct ab_fb_vec *v, uint32_t i)
{
	return fb->p[v->pos + i];
}

static inline int32_t ab_fb_vec_i32(const struct ab_fb *fb,
				    const struct ab_fb_vec *v, uint32_t i)
{
	return (int32_t)ab_fb_ld32(fb->p + v->pos + 4ull * i);
}

#endif
