/* The bounds-checked FlatBuffers reader; layout and contract in flatbuf.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "import/flatbuf.h"

int ab_fb_fail(const struct ab_fb *fb, int code, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (fb->ctx[0])
		return ab_fail(fb->err, code, "%s: %s: %s", fb->path, fb->ctx,
			       msg);
	return ab_fail(fb->err, code, "%s: %s", fb->path, msg);
}

void ab_fb_set_ctx(struct ab_fb *fb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fb->ctx, sizeof(fb->ctx), fmt, ap);
	va_end(ap);
}

int ab_fb_table_at(const struct ab_fb *fb, uint64_t pos, int depth,
		   const char *what, struct ab_fb_table *t)
{
	int64_t vt;

	if (depth > AB_FB_MAX_DEPTH)
		return ab_fb_fail(fb, -ELOOP, "%s table nested deeper than %d levels (cyclic or hostile file)",
				  what, AB_FB_MAX_DEPTH);
	if (!ab_fb_fits(fb, pos, 4))
		return ab_fb_fail(fb, -EBADMSG, "%s table at offset %" PRIu64 " runs past the end of the file (%" PRIu64 " bytes; truncated?)",
				  what, pos, fb->n);
	if (pos % 4)
		return ab_fb_fail(fb, -EBADMSG, "%s table at offset %" PRIu64 " is not 4-byte aligned (expected a multiple of 4: a table starts with its 4-byte vtable offset)",
				  what, pos);
	if (ab_fb_ld32(fb->p + pos) == 0)
		return ab_fb_fail(fb, -EBADMSG, "%s table at offset %" PRIu64 " is self-referencing: its vtable offset is 0, so the table would be its own vtable",
				  what, pos);
	/* pos is inside the file (< 2^63), the soffset 32-bit: no overflow. */
	vt = (int64_t)pos - (int32_t)ab_fb_ld32(fb->p + pos);
	if (vt < 0 || !ab_fb_fits(fb, (uint64_t)vt, 4))
		return ab_fb_fail(fb, -EBADMSG, "%s table at offset %" PRIu64 ": its vtable offset points to %" PRId64 ", outside the file (%" PRIu64 " bytes)",
				  what, pos, vt, fb->n);
	t->pos = pos;
	t->vt = (uint64_t)vt;
	t->vt_len = ab_fb_ld16(fb->p + t->vt);
	t->len = ab_fb_ld16(fb->p + t->vt + 2);
	if (t->vt_len < 4 || (t->vt_len & 1) ||
	    !ab_fb_fits(fb, t->vt, t->vt_len))
		return ab_fb_fail(fb, -EBADMSG, "%s table at offset %" PRIu64 ": vtable at %" PRIu64 " has size %" PRIu32 " (expected an even size >= 4 inside the file)",
				  what, pos, t->vt, t->vt_len);
	if (t->len < 4) {
		char where[64] = "";

		if (t->vt > pos) /* where the table's fields would be */
			snprintf(where, sizeof(where), "; the vtable lies %" PRIu64 " bytes into the table",
				 t->vt - pos);
		return ab_fb_fail(fb, -EBADMSG, "%s table at offset %" PRIu64 ": its vtable at %" PRIu64 " gives the table an inline size of %" PRIu32 " bytes (expected at least 4, the table's own vtable offset%s)",
				  what, pos, t->vt, t->len, where);
	}
	if (!ab_fb_fits(fb, pos, t->len))
		return ab_fb_fail(fb, -EBADMSG, "%s table at offset %" PRIu64 ": inline size %" PRIu32 " runs past the end of the file (%" PRIu64 " bytes; truncated?)",
				  what, pos, t->len, fb->n);
	if (t->vt < pos + t->len && pos < t->vt + t->vt_len)
		return ab_fb_fail(fb, -EBADMSG, "%s table at offset %" PRIu64 " is self-referencing: its vtable (bytes %" PRIu64 "..%" PRIu64 ") overlaps the table (bytes %" PRIu64 "..%" PRIu64 ", its inline size %" PRIu32 ") (expected the vtable outside the table)",
				  what, pos, t->vt, t->vt + t->vt_len, pos, pos + t->len, t->len);
	return 0;
}

int ab_fb_field(const struct ab_fb *fb, const struct ab_fb_table *t,
		unsigned id, unsigned size, const char *name, uint64_t *at)
{
	uint64_t slot = 4 + 2 * (uint64_t)id;
	uint16_t off;

	*at = 0;
	if (slot + 2 > t->vt_len)
		return 0;
	off = ab_fb_ld16(fb->p + t->vt + slot);
	if (!off)
		return 0;
	if (off < 4 || (uint64_t)off + size > t->len)
		return ab_fb_fail(fb, -EBADMSG, "field '%s' at offset %u of its table does not fit in the table's %" PRIu32 " bytes",
				  name, off, t->len);
	*at = t->pos + off;
	return 0;
}

int ab_fb_get_u8(const struct ab_fb *fb, const struct ab_fb_table *t,
		 unsigned id, const char *name, uint8_t def, uint8_t *v)
{
	uint64_t at;
	int rc = ab_fb_field(fb, t, id, 1, name, &at);

	*v = rc || !at ? def : fb->p[at];
	return rc;
}

int ab_fb_get_u32(const struct ab_fb *fb, const struct ab_fb_table *t,
		  unsigned id, const char *name, uint32_t def, uint32_t *v)
{
	uint64_t at;
	int rc = ab_fb_field(fb, t, id, 4, name, &at);

	*v = rc || !at ? def : ab_fb_ld32(fb->p + at);
	return rc;
}

int ab_fb_get_u64(const struct ab_fb *fb, const struct ab_fb_table *t,
		  unsigned id, const char *name, uint64_t *v)
{
	uint64_t at;
	int rc = ab_fb_field(fb, t, id, 8, name, &at);

	*v = rc || !at ? 0 : ab_fb_ld64(fb->p + at);
	return rc;
}

int ab_fb_follow(const struct ab_fb *fb, uint64_t at, const char *name,
		 uint64_t *target)
{
	uint32_t off;

	if (!ab_fb_fits(fb, at, 4))
		return ab_fb_fail(fb, -EBADMSG, "'%s': offset at %" PRIu64 " runs past the end of the file (%" PRIu64 " bytes; truncated?)",
				  name, at, fb->n);
	off = ab_fb_ld32(fb->p + at);
	if (off == 0)
		return ab_fb_fail(fb, -EBADMSG, "'%s': offset at %" PRIu64 " is 0 and refers to itself (self-referencing or cyclic table)",
				  name, at);
	if (at + off >= fb->n)
		return ab_fb_fail(fb, -EBADMSG, "'%s': offset %" PRIu32 " at %" PRIu64 " points past the end of the file (%" PRIu64 " bytes; truncated?)",
				  name, off, at, fb->n);
	*target = at + off;
	return 0;
}

int ab_fb_vec_from(const struct ab_fb *fb, uint64_t at, unsigned esize,
		   const char *name, struct ab_fb_vec *v)
{
	uint64_t tg;
	uint32_t len;
	int rc = ab_fb_follow(fb, at, name, &tg);

	if (rc)
		return rc;
	if (!ab_fb_fits(fb, tg, 4))
		return ab_fb_fail(fb, -EBADMSG, "'%s': vector length at %" PRIu64 " runs past the end of the file (%" PRIu64 " bytes; truncated?)",
				  name, tg, fb->n);
	len = ab_fb_ld32(fb->p + tg);
	if (!ab_fb_fits(fb, tg + 4, (uint64_t)len * esize))
		return ab_fb_fail(fb, -EBADMSG, "'%s': vector of %" PRIu32 " elements of %u bytes at offset %" PRIu64 " is longer than the file (%" PRIu64 " bytes; truncated?)",
				  name, len, esize, tg, fb->n);
	v->pos = tg + 4;
	v->len = len;
	return 0;
}

int ab_fb_get_vec(const struct ab_fb *fb, const struct ab_fb_table *t,
		  unsigned id, unsigned esize, const char *name,
		  struct ab_fb_vec *v)
{
	uint64_t at;
	int rc = ab_fb_field(fb, t, id, 4, name, &at);

	v->pos = 0;
	v->len = 0;
	if (rc || !at)
		return rc;
	return ab_fb_vec_from(fb, at, esize, name, v);
}

int ab_fb_get_str(const struct ab_fb *fb, const struct ab_fb_table *t,
		  unsigned id, const char *name, const char **s,
		  uint32_t *len)
{
	struct ab_fb_vec v;
	int rc = ab_fb_get_vec(fb, t, id, 1, name, &v);

	*s = NULL;
	*len = 0;
	if (rc || !v.pos)
		return rc;
	if (!ab_fb_fits(fb, v.pos, (uint64_t)v.len + 1) ||
	    fb->p[v.pos + v.len] != 0)
		return ab_fb_fail(fb, -EBADMSG, "string '%s' at offset %" PRIu64 " is not NUL-terminated inside the file",
				  name, v.pos - 4);
	*s = (const char *)fb->p + v.pos;
	*len = v.len;
	return 0;
}

int ab_fb_vec_table(const struct ab_fb *fb, const struct ab_fb_vec *v,
		    uint32_t i, int depth, const char *what,
		    struct ab_fb_table *t)
{
	uint64_t tg;
	int rc = ab_fb_follow(fb, v->pos + 4ull * i, what, &tg);

	return rc ? rc : ab_fb_table_at(fb, tg, depth, what, t);
}
