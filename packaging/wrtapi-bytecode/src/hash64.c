/*
 * hash64(text): the 16 hex digits src/engine/etag.ts's hash64 gives the same string, two 32-bit
 * multiply-xor lanes over its UTF-16 code units.
 *
 * Every write answers with its resource's ETag, and one item's read too: QuickJS's interpreter
 * spends about 2,000 instructions on each character it hashes, 0.8M for a firewall rule, where this
 * spends a few. wrtapi uses this one when the module is installed and its own otherwise; both give
 * the same digits for the same string.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "quickjs.h"

static void unit(uint32_t lane[2], uint32_t code)
{
    lane[0] = (lane[0] ^ code) * 2654435761u;
    lane[1] = (lane[1] ^ code) * 1597334677u;
}

JSValue js_hash64(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    (void)this_val;
    (void)argc;
    size_t length, i = 0;
    char digits[17];
    /* QuickJS spells a string in UTF-8, a surrogate pair as one 4-byte sequence and an unpaired
     * surrogate as its own 3-byte one: read back, each gives the code units the string holds. */
    const unsigned char *s = (const unsigned char *)JS_ToCStringLen(ctx, &length, argv[0]);
    if (!s)
        return JS_EXCEPTION;
    uint32_t lane[2] = {0xdeadbeefu, 0x41c6ce57u}, a, b;
    while (i < length) {
        uint32_t c = s[i];
        if (c < 0x80) {
            i += 1;
        } else if (c < 0xe0 && i + 1 < length) {
            c = ((c & 0x1f) << 6) | (s[i + 1] & 0x3f);
            i += 2;
        } else if (c < 0xf0 && i + 2 < length) {
            c = ((c & 0x0f) << 12) | ((s[i + 1] & 0x3f) << 6) | (s[i + 2] & 0x3f);
            i += 3;
        } else if (i + 3 < length) {
            c = (((c & 0x07) << 18) | ((s[i + 1] & 0x3f) << 12) | ((s[i + 2] & 0x3f) << 6) | (s[i + 3] & 0x3f)) - 0x10000;
            unit(lane, 0xd800 | (c >> 10));
            c = 0xdc00 | (c & 0x3ff);
            i += 4;
        } else {
            /* Not a sequence QuickJS writes: an error rather than digits etag.ts would not give. */
            JS_FreeCString(ctx, (const char *)s);
            return JS_ThrowTypeError(ctx, "hash64: the string's UTF-8 ends inside a character");
        }
        unit(lane, c);
    }
    JS_FreeCString(ctx, (const char *)s);
    a = ((lane[0] ^ (lane[0] >> 16)) * 2246822507u) ^ ((lane[1] ^ (lane[1] >> 13)) * 3266489909u);
    b = ((lane[1] ^ (lane[1] >> 16)) * 2246822507u) ^ ((a ^ (a >> 13)) * 3266489909u);
    snprintf(digits, sizeof digits, "%08x%08x", (unsigned)a, (unsigned)b);
    return JS_NewStringLen(ctx, digits, 16);
}
