/*
 * What the cache's entries share (entry.h): the hash that tells a changed source or a damaged
 * entry, the header's spelling, and the last part of every entry, a code line and the bytes
 * JS_WriteObject wrote, written whole to a temporary renamed into place.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "entry.h"
#include "files.h"

int cache_fd = -1, parent_fd = -1;
char engine_line[160];

/* Not for an adversary (the folder is this user's alone), only to tell a changed source or a
 * damaged entry: a multiply-xorshift over 8-byte words, about an instruction a byte. */
uint64_t hash_bytes(const uint8_t *bytes, size_t length)
{
    uint64_t hash = 0x243f6a8885a308d3ULL ^ length, word;
    size_t i;
    for (i = 0; i + 8 <= length; i += 8) {
        memcpy(&word, bytes + i, 8);
        hash = (hash ^ word) * 0x9e3779b97f4a7c15ULL;
        hash ^= hash >> 29;
    }
    word = 0;
    memcpy(&word, bytes + i, length - i);
    hash = (hash ^ word) * 0x9e3779b97f4a7c15ULL;
    return hash ^ (hash >> 32);
}

/* printf and scanf cost a module about 5,000 instructions: the header is spelled by hand. */
char *put_text(char *out, const char *text)
{
    size_t n = strlen(text);
    memcpy(out, text, n);
    return out + n;
}

char *put_hex(char *out, uint64_t value)
{
    int i;
    for (i = 15; i >= 0; i--, value >>= 4)
        out[i] = "0123456789abcdef"[value & 15];
    return out + 16;
}

char *put_decimal(char *out, size_t value)
{
    char digits[24];
    int n = 0;
    do
        digits[n++] = '0' + value % 10;
    while (value /= 10);
    while (n)
        *out++ = digits[--n];
    return out;
}

/* `code <hash> <length>\n`: its length, or 0 when `line` does not start with one. */
static size_t code_line(char *line, uint64_t hash, size_t length)
{
    char *end = put_text(line, "code ");
    end = put_hex(end, hash);
    *end++ = ' ';
    end = put_decimal(end, length);
    *end++ = '\n';
    return end - line;
}

static size_t parse_code_line(const uint8_t *line, size_t available, uint64_t *hash, size_t *length)
{
    size_t i;
    if (available < 24 || memcmp(line, "code ", 5) != 0 || line[21] != ' ')
        return 0;
    for (*hash = 0, i = 5; i < 21; i++) {
        uint8_t c = line[i];
        if (c >= '0' && c <= '9')
            *hash = *hash << 4 | (c - '0');
        else if (c >= 'a' && c <= 'f')
            *hash = *hash << 4 | (c - 'a' + 10);
        else
            return 0;
    }
    for (*length = 0, i = 22; i < available && i < 42 && line[i] >= '0' && line[i] <= '9'; i++)
        *length = *length * 10 + (line[i] - '0');
    return i > 22 && i < available && line[i] == '\n' ? i + 1 : 0;
}

JSValue read_value(JSContext *ctx, const uint8_t *bytes, size_t length, size_t at, int flags)
{
    size_t code_length, line;
    uint64_t code_hash;
    JSValue value;
    if (at >= length || (line = parse_code_line(bytes + at, length - at, &code_hash, &code_length)) == 0
        || code_length != length - at - line || hash_bytes(bytes + at + line, code_length) != code_hash)
        return JS_UNDEFINED;
    value = JS_ReadObject(ctx, bytes + at + line, code_length, flags);
    if (JS_IsException(value)) {
        JS_FreeValue(ctx, JS_GetException(ctx));
        return JS_UNDEFINED;
    }
    return value;
}

/* The temporary is named as wrtapi names its own in the parent folder, so that wrtapi's sweep
 * removes one a killed process left. A failure leaves no entry. */
void write_value(JSContext *ctx, const char *entry, const char *head, size_t head_length, const char *text,
                 size_t text_length, JSValueConst value, int flags)
{
    size_t code_length, line_length;
    char line[64], temporary[NAME_MAX + 64];
    int fd, ok;
    uint8_t *code = JS_WriteObject(ctx, &code_length, value, flags);
    if (!code) {
        JS_FreeValue(ctx, JS_GetException(ctx));
        return;
    }
    line_length = code_line(line, hash_bytes(code, code_length), code_length);
    snprintf(temporary, sizeof temporary, ".%s.%ld.0.tmp", entry, (long)getpid());
    fd = openat(parent_fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) {
        ok = write_all(fd, (const uint8_t *)head, head_length) == 0
            && write_all(fd, (const uint8_t *)text, text_length) == 0
            && write_all(fd, (const uint8_t *)line, line_length) == 0
            && write_all(fd, code, code_length) == 0;
        ok = close(fd) == 0 && ok;
        if (!ok || renameat(parent_fd, temporary, cache_fd, entry) != 0)
            unlinkat(parent_fd, temporary, 0);
    }
    js_free(ctx, code);
}
