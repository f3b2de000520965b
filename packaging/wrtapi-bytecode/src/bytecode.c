/*
 * wrtapi-bytecode: a QuickJS module that keeps the bytecode of every module wrtapi loads in a
 * cache in RAM, so that a request loads what an earlier one compiled instead of compiling it again.
 *
 * `use(dir)` puts a module loader on the runtime. For a `.js` module it reads the source, and loads
 * the cache's entry when the entry was written by this engine for this very source; otherwise it
 * compiles the source as qjs does and writes the entry. Any other module, or one imported as JSON,
 * goes to qjs's own loader.
 * Anything unexpected means the source is compiled as without this module.
 *
 * It also exports `sha256hex(text)` (sha256.c) and `hash64(text)` (hash64.c), which wrtapi uses in
 * place of its own, and `recall` and `remember` (objects.c), the values wrtapi makes from a text.
 *
 * QuickJS trusts bytecode, so the cache holds only what this user wrote: `dir` and its parent are
 * made with mode 0700, and are used only while each is a real directory owned by the running user
 * and writable by no one else; every entry must be a regular file owned by that user, read through
 * descriptors opened without following a symbolic link.
 *
 * An entry is a text header, then the bytecode:
 *   wrtapi-bytecode 1\n
 *   engine <quickjs version> <device>:<inode>:<size>:<mtime> of the running qjs\n
 *   source <hash> <length>\n
 *   module <module name>\n
 *   code <hash> <length>\n
 */
#define _GNU_SOURCE
/* A 32-bit glibc's stat() fails (EOVERFLOW) on an inode number or a time past 32 bits, unless
 * built for 64-bit ones (musl's always are): the cache would be refused after 2038. */
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "quickjs.h"
#include "quickjs-libc.h"

#include "entry.h"
#include "files.h"

#ifndef WRTAPI_QJS_VERSION
#error "build with -DWRTAPI_QJS_VERSION=\"<the QuickJS release the headers are from>\""
#endif

/* QuickJS 2025-09-13 gave module loaders the import attributes: the build defines
 * WRTAPI_LOADER_ATTRIBUTES when quickjs.h declares JS_SetModuleLoaderFunc2. */
#ifdef WRTAPI_LOADER_ATTRIBUTES
#define LOADER_ATTRIBUTES , JSValueConst attributes
#define LOADER_PASS_ATTRIBUTES , attributes
/* qjs parses a module imported `with { type: "json" }` as JSON, whatever its name. */
#define LOADER_JSON(ctx) (js_module_test_json(ctx, attributes) > 0)
#else
#define LOADER_ATTRIBUTES
#define LOADER_PASS_ATTRIBUTES
#define LOADER_JSON(ctx) 0
#endif

#define MAGIC "wrtapi-bytecode 1\n"

/* The entry's file name: the module's path with its slashes made dots. */
static int entry_name(char *entry, size_t size, const char *module_name)
{
    size_t i, n = strlen(module_name);
    if (n + 1 > size || n > NAME_MAX - 32)
        return -1;
    for (i = 0; module_name[i] == '/'; i++)
        ;
    n = 0;
    for (; module_name[i]; i++)
        entry[n++] = module_name[i] == '/' ? '.' : module_name[i];
    entry[n] = 0;
    return 0;
}

/* The header's first four lines, as an entry of this module's current source must begin. */
static int header(char *out, size_t size, const uint8_t *source, size_t source_length, const char *module_name)
{
    char *end = out;
    if (strlen(MAGIC) + strlen(engine_line) + strlen(module_name) + 64 > size)
        return -1;
    end = put_text(end, MAGIC);
    end = put_text(end, engine_line);
    end = put_text(end, "source ");
    end = put_hex(end, hash_bytes(source, source_length));
    *end++ = ' ';
    end = put_decimal(end, source_length);
    end = put_text(end, "\nmodule ");
    end = put_text(end, module_name);
    *end++ = '\n';
    return end - out;
}

static JSValue read_entry(JSContext *ctx, const char *entry, const char *expected, size_t expected_length)
{
    size_t length;
    JSValue module = JS_UNDEFINED;
    uint8_t *bytes = load(cache_fd, entry, O_NOFOLLOW, &length, 1);
    if (!bytes)
        return module;
    if (length > expected_length && memcmp(bytes, expected, expected_length) == 0)
        module = read_value(ctx, bytes, length, expected_length, JS_READ_OBJ_BYTECODE);
    if (!JS_IsUndefined(module) && JS_VALUE_GET_TAG(module) != JS_TAG_MODULE) {
        JS_FreeValue(ctx, module);
        module = JS_UNDEFINED;
    }
    free(bytes);
    return module;
}

static JSModuleDef *cached_loader(JSContext *ctx, const char *module_name, void *opaque LOADER_ATTRIBUTES)
{
    size_t name_length = strlen(module_name), source_length;
    char entry[NAME_MAX + 1], head[PATH_MAX + 256];
    int head_length;
    uint8_t *source;
    JSValue module;
    JSModuleDef *m;

    if (name_length < 3 || strcmp(module_name + name_length - 3, ".js") != 0 || LOADER_JSON(ctx))
        return js_module_loader(ctx, module_name, opaque LOADER_PASS_ATTRIBUTES);
    source = load(AT_FDCWD, module_name, 0, &source_length, 0);
    if (!source) {
        JS_ThrowReferenceError(ctx, "could not load module filename '%s'", module_name);
        return NULL;
    }
    head_length = entry_name(entry, sizeof entry, module_name) == 0
        ? header(head, sizeof head, source, source_length, module_name) : -1;
    module = head_length > 0 ? read_entry(ctx, entry, head, head_length) : JS_UNDEFINED;
    if (JS_IsUndefined(module)) {
        module = JS_Eval(ctx, (char *)source, source_length, module_name, JS_EVAL_TYPE_MODULE | JS_EVAL_FLAG_COMPILE_ONLY);
        if (!JS_IsException(module) && head_length > 0)
            write_value(ctx, entry, head, head_length, NULL, 0, module, JS_WRITE_OBJ_BYTECODE);
    }
    free(source);
    if (JS_IsException(module))
        return NULL;
    /* qjs's loader gives import.meta.url the real path, at a realpath() of some 19,000
     * instructions a module; the bundle's names are real paths already, and it never reads it. */
    js_module_set_import_meta(ctx, module, 0, 0);
    m = JS_VALUE_GET_PTR(module);
    JS_FreeValue(ctx, module);
    return m;
}

/* The running qjs, so that an entry another build of QuickJS wrote is never read. */
static int describe_engine(void)
{
    struct stat st;
    char exe[PATH_MAX];
    /* By its name rather than stat("/proc/self/exe"): valgrind, which counts a request's
     * instructions, answers readlink() with the program it runs and stat() with itself. */
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = 0;
    if (stat(exe, &st) != 0)
        return -1;
    n = snprintf(engine_line, sizeof engine_line, "engine %s %ju:%ju:%jd:%jd\n", WRTAPI_QJS_VERSION,
                 (uintmax_t)st.st_dev, (uintmax_t)st.st_ino, (intmax_t)st.st_size, (intmax_t)st.st_mtime);
    return n > 0 && (size_t)n < sizeof engine_line ? 0 : -1;
}

/* use(dir): true when the cache in `dir` (an absolute path of at least two levels) is in use. */
static JSValue js_use(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    (void)this_val;
    (void)argc;
    char path[PATH_MAX], *leaf, *parent;
    int base;
    const char *dir = JS_ToCString(ctx, argv[0]);
    if (!dir)
        return JS_EXCEPTION;
    snprintf(path, sizeof path, "%s", dir);
    JS_FreeCString(ctx, dir);
    if (cache_fd >= 0)
        return JS_TRUE;
    leaf = strrchr(path, '/');
    if (!leaf || leaf == path || describe_engine() != 0)
        return JS_FALSE;
    *leaf++ = 0;
    parent = strrchr(path, '/');
    if (!parent)
        return JS_FALSE;
    *parent++ = 0;
    base = open(path[0] ? path : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (base < 0)
        return JS_FALSE;
    parent_fd = open_private_directory(base, parent);
    close(base);
    if (parent_fd < 0)
        return JS_FALSE;
    cache_fd = open_private_directory(parent_fd, leaf);
    if (cache_fd < 0) {
        close(parent_fd);
        return JS_FALSE;
    }
    /* QuickJS collects cycles first at 256 KB of live memory, then at each half more. A request
     * passes that with the bytecode it loads, and each pass walks every live object to free the
     * few cycles a request leaves: a write paid 0.6M instructions for it, a batch 2.4M. From
     * 1 MB, requests that stay under it are never walked, and larger ones still are. */
    JS_SetGCThreshold(JS_GetRuntime(ctx), 1024 * 1024);
#ifdef JS_STRIP_SOURCE
    /* QuickJS 2025 keeps every function's source text in its bytecode, for
     * Function.prototype.toString, which wrtapi never calls: the cache of the bench's requests
     * was 313,615 bytes with it and 213,792 without. */
    JS_SetStripInfo(JS_GetRuntime(ctx), JS_STRIP_SOURCE);
#endif
#ifdef WRTAPI_LOADER_ATTRIBUTES
    JS_SetModuleLoaderFunc2(JS_GetRuntime(ctx), NULL, cached_loader, js_module_check_attributes, NULL);
#else
    JS_SetModuleLoaderFunc(JS_GetRuntime(ctx), NULL, cached_loader, NULL);
#endif
    return JS_TRUE;
}

JSValue js_sha256_hex(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv); /* sha256.c */
JSValue js_hash64(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv); /* hash64.c */
JSValue js_recall(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv); /* objects.c */
JSValue js_remember(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv); /* objects.c */
JSValue js_exec(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv); /* spawn.c */

static const JSCFunctionListEntry exports[] = {
    JS_CFUNC_DEF("use", 1, js_use),
    JS_CFUNC_DEF("sha256hex", 1, js_sha256_hex),
    JS_CFUNC_DEF("hash64", 1, js_hash64),
    JS_CFUNC_DEF("recall", 2, js_recall),
    JS_CFUNC_DEF("remember", 3, js_remember),
    JS_CFUNC_DEF("exec", 5, js_exec),
};

static int init(JSContext *ctx, JSModuleDef *m)
{
    return JS_SetModuleExportList(ctx, m, exports, (int)(sizeof exports / sizeof exports[0]));
}

JSModuleDef *js_init_module(JSContext *ctx, const char *module_name)
{
    JSModuleDef *m = JS_NewCModule(ctx, module_name, init);
    if (m)
        JS_AddModuleExportList(ctx, m, exports, (int)(sizeof exports / sizeof exports[0]));
    return m;
}
