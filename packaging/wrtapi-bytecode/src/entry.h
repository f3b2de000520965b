/* What the cache's two kinds of entry share (entry.c): bytecode.c's modules and objects.c's values. */
#ifndef WRTAPI_BYTECODE_ENTRY_H
#define WRTAPI_BYTECODE_ENTRY_H

#include <stddef.h>
#include <stdint.h>

#include "quickjs.h"

/* Hidden, as files.h's. */
#define ENTRY_API __attribute__((visibility("hidden")))

/* The cache's folder and its parent (where temporaries are made), -1 until use() accepts them. */
ENTRY_API extern int cache_fd, parent_fd;
/* `engine <quickjs version> <device>:<inode>:<size>:<mtime>\n` of the running qjs. */
ENTRY_API extern char engine_line[160];

ENTRY_API uint64_t hash_bytes(const uint8_t *bytes, size_t length);
/* Each writes at `out` and returns where it stopped. */
ENTRY_API char *put_text(char *out, const char *text);
ENTRY_API char *put_hex(char *out, uint64_t value);
ENTRY_API char *put_decimal(char *out, size_t value);
/* What bytes[at..length] holds, `code <hash> <length>\n` then JS_WriteObject's bytes, read with
 * JS_ReadObject's `flags`; JS_UNDEFINED when it does not check out or does not read. */
ENTRY_API JSValue read_value(JSContext *ctx, const uint8_t *bytes, size_t length, size_t at, int flags);
/* The entry `head`, then `text` (of `text_length` bytes, maybe none), then the code line and
 * `value` as JS_WriteObject writes it with `flags`. */
ENTRY_API void write_value(JSContext *ctx, const char *entry, const char *head, size_t head_length, const char *text,
                           size_t text_length, JSValueConst value, int flags);

#endif
