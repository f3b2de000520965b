/* The cache's files (files.c). */
#ifndef WRTAPI_BYTECODE_FILES_H
#define WRTAPI_BYTECODE_FILES_H

#include <stddef.h>
#include <stdint.h>

/* Hidden: qjs is linked with -rdynamic, and a symbol of its own by the same name would otherwise
 * take the module's calls. */
#define FILES_API __attribute__((visibility("hidden")))

/* Opens `name` in `at`, made 0700 when missing, or returns -1 when it is not a private directory:
 * a real directory of this user that no one else may write to. */
FILES_API int open_private_directory(int at, const char *name);
/* 0 when all `length` bytes were written, -1 otherwise. */
FILES_API int write_all(int fd, const uint8_t *buffer, size_t length);
/* The whole of a regular file (of this user and writable by no one else, with `owned`),
 * NUL-terminated as JS_Eval wants it, or NULL. */
FILES_API uint8_t *load(int at, const char *name, int flags, size_t *length, int owned);

#endif
