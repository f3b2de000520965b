/*
 * Values wrtapi makes from a text, kept in the cache so that a request meeting the same text again
 * reads the value rather than making it: `remember(name, text, value)` and `recall(name, text)`,
 * which answers the value only when the entry of that name was made from exactly this text by this
 * engine, else undefined. wrtapi names the build that made the value in the text, so an entry
 * another build made is never answered.
 *
 * A name has one entry, `<name>.object`: a new text replaces the last, so the cache holds one per
 * name whatever the number of texts seen. The value is read without bytecode (JS_ReadObject's
 * flags 0): an entry holds data, never code. It lives beside the modules' entries, under the same
 * checks of the folder and of each file.
 *
 * An entry:
 *   wrtapi-object 1\n
 *   engine <quickjs version> <device>:<inode>:<size>:<mtime> of the running qjs\n
 *   text <length>\n
 *   <the text's bytes>code <hash> <length>\n
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "entry.h"
#include "files.h"

#define MAGIC "wrtapi-object 1\n"
#define NAME_LIMIT 160

/* The entry's file name and the header before the text; -1 for a name that is not a plain file
 * name of letters, digits, `.`, `_` and `-` not starting with a `.`, -2 when it cannot be read as
 * a string (an exception is pending). */
static int object_header(JSContext *ctx, JSValueConst name_value, size_t text_length, char *entry, char *head,
                         size_t *head_length)
{
    size_t name_length, i;
    char *end;
    const char *name = JS_ToCStringLen(ctx, &name_length, name_value);
    int ok;
    if (!name)
        return -2;
    ok = name_length > 0 && name_length <= NAME_LIMIT && name[0] != '.';
    for (i = 0; ok && i < name_length; i++)
        ok = (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') || (name[i] >= '0' && name[i] <= '9')
            || name[i] == '.' || name[i] == '_' || name[i] == '-';
    if (ok) {
        end = put_text(entry, name);
        put_text(end, ".object")[0] = 0;
        end = put_text(head, MAGIC);
        end = put_text(end, engine_line);
        end = put_text(end, "text ");
        end = put_decimal(end, text_length);
        *end++ = '\n';
        *head_length = end - head;
    }
    JS_FreeCString(ctx, name);
    return ok ? 0 : -1;
}

/* recall() when `value` is NULL, else remember(): what both do before the entry is read or written. */
static JSValue object_call(JSContext *ctx, JSValueConst *argv, JSValueConst *value)
{
    char entry[NAME_LIMIT + 8], head[sizeof MAGIC + sizeof engine_line + 32];
    size_t text_length, head_length, length;
    uint8_t *bytes;
    JSValue known = JS_UNDEFINED;
    const char *text;
    int result;
    if (cache_fd < 0)
        return known;
    text = JS_ToCStringLen(ctx, &text_length, argv[1]);
    if (!text)
        return JS_EXCEPTION;
    result = object_header(ctx, argv[0], text_length, entry, head, &head_length);
    if (result == -2)
        known = JS_EXCEPTION;
    else if (result != 0)
        ;
    else if (value)
        write_value(ctx, entry, head, head_length, text, text_length, *value, 0);
    else if ((bytes = load(cache_fd, entry, O_NOFOLLOW, &length, 1)) != NULL) {
        if (length > head_length + text_length && memcmp(bytes, head, head_length) == 0
            && memcmp(bytes + head_length, text, text_length) == 0)
            known = read_value(ctx, bytes, length, head_length + text_length, 0);
        free(bytes);
    }
    JS_FreeCString(ctx, text);
    return known;
}

/* recall(name, text): the value remembered under `name` from this very text, or undefined. */
JSValue js_recall(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    (void)this_val;
    (void)argc;
    return object_call(ctx, argv, NULL);
}

/* remember(name, text, value): keeps `value` (data: objects, arrays, strings, numbers, booleans,
 * null) as made from `text`. A value that cannot be written is not kept. */
JSValue js_remember(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    (void)this_val;
    (void)argc;
    return object_call(ctx, argv, &argv[2]);
}
