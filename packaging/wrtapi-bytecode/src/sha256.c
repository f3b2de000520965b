/*
 * sha256hex(text): the SHA-256 digest (FIPS 180-4) of a string's UTF-8, as 64 lowercase hex digits.
 *
 * Every authenticated request hashes its bearer with its token's salt, and QuickJS's interpreter
 * runs wrtapi's own SHA-256 (src/auth/hash.ts) at about a million instructions for those two
 * blocks, and 0.19M more to make the bytes and the digits, a fifth of a small read: here it is a few
 * thousand. wrtapi uses this one when the module is installed and its own otherwise; both give the
 * same digits for the same string.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "quickjs.h"

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

/* Words are read and written a byte at a time, big-endian, so the digest is the same on every
 * router's byte order. */
static void block(uint32_t state[8], const uint8_t *p)
{
    uint32_t w[64], v[8], t1, t2;
    int i;
    for (i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (; i < 64; i++)
        w[i] = w[i - 16] + (ROTR(w[i - 15], 7) ^ ROTR(w[i - 15], 18) ^ (w[i - 15] >> 3)) + w[i - 7] +
               (ROTR(w[i - 2], 17) ^ ROTR(w[i - 2], 19) ^ (w[i - 2] >> 10));
    memcpy(v, state, sizeof v);
    for (i = 0; i < 64; i++) {
        t1 = v[7] + (ROTR(v[4], 6) ^ ROTR(v[4], 11) ^ ROTR(v[4], 25)) + ((v[4] & v[5]) ^ (~v[4] & v[6])) + K[i] + w[i];
        t2 = (ROTR(v[0], 2) ^ ROTR(v[0], 13) ^ ROTR(v[0], 22)) + ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
        memmove(v + 1, v, 7 * sizeof *v);
        v[4] += t1;
        v[0] = t1 + t2;
    }
    for (i = 0; i < 8; i++)
        state[i] += v[i];
}

static void digest(const uint8_t *message, size_t length, uint8_t out[32])
{
    uint32_t state[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    uint8_t last[128] = {0};
    size_t whole = length & ~(size_t)63, rest = length - whole, tail = rest < 56 ? 64 : 128;
    uint64_t bits = (uint64_t)length << 3;
    size_t i;
    for (i = 0; i < whole; i += 64)
        block(state, message + i);
    memcpy(last, message + whole, rest);
    last[rest] = 0x80;
    for (i = 0; i < 8; i++)
        last[tail - 1 - i] = (uint8_t)(bits >> (8 * i));
    for (i = 0; i < tail; i += 64)
        block(state, last + i);
    for (i = 0; i < 32; i++)
        out[i] = (uint8_t)(state[i / 4] >> (24 - 8 * (i % 4)));
}

/* An unpaired surrogate is hashed as U+FFFD, as src/auth/hash.ts's utf8Bytes has it. */
JSValue js_sha256_hex(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    (void)this_val;
    (void)argc;
    static const char hex[] = "0123456789abcdef";
    size_t length, i;
    uint8_t out[32], *bytes;
    char digits[64];
    const char *text = JS_ToCStringLen(ctx, &length, argv[0]);
    if (!text)
        return JS_EXCEPTION;
    bytes = js_malloc(ctx, length + 1);
    if (!bytes) {
        JS_FreeCString(ctx, text);
        return JS_EXCEPTION;
    }
    memcpy(bytes, text, length);
    JS_FreeCString(ctx, text);
    /* QuickJS spells an unpaired surrogate as its own 3-byte sequence, ED A0-BF xx, which is no
     * UTF-8 (a pair is one 4-byte sequence). 0xED is never a continuation byte. */
    for (i = 0; i + 2 < length; i++) {
        if (bytes[i] == 0xed && bytes[i + 1] >= 0xa0) {
            bytes[i] = 0xef;
            bytes[i + 1] = 0xbf;
            bytes[i + 2] = 0xbd;
            i += 2;
        }
    }
    digest(bytes, length, out);
    js_free(ctx, bytes);
    for (i = 0; i < 32; i++) {
        digits[2 * i] = hex[out[i] >> 4];
        digits[2 * i + 1] = hex[out[i] & 15];
    }
    return JS_NewStringLen(ctx, digits, sizeof digits);
}
