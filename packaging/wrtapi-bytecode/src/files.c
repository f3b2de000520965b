/*
 * The cache's files: its private folders, and files read and written whole through descriptors
 * (bytecode.c). Nothing here knows QuickJS.
 */
#define _GNU_SOURCE
/* A 32-bit glibc's stat() fails (EOVERFLOW) on an inode number or a time past 32 bits, unless
 * built for 64-bit ones (musl's always are): the cache would be refused after 2038. */
#define _FILE_OFFSET_BITS 64
#define _TIME_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"

static int private_directory(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() && !(st.st_mode & 022);
}

int open_private_directory(int at, const char *name)
{
    int fd;
    if (mkdirat(at, name, 0700) != 0 && errno != EEXIST)
        return -1;
    fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0 && !private_directory(fd)) {
        close(fd);
        return -1;
    }
    return fd;
}

static int read_all(int fd, uint8_t *buffer, size_t length)
{
    while (length > 0) {
        ssize_t got = read(fd, buffer, length);
        if (got <= 0) {
            if (got < 0 && errno == EINTR)
                continue;
            return -1;
        }
        buffer += got;
        length -= got;
    }
    return 0;
}

int write_all(int fd, const uint8_t *buffer, size_t length)
{
    while (length > 0) {
        ssize_t put = write(fd, buffer, length);
        if (put < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        buffer += put;
        length -= put;
    }
    return 0;
}

uint8_t *load(int at, const char *name, int flags, size_t *length, int owned)
{
    struct stat st;
    uint8_t *bytes = NULL;
    int fd = openat(at, name, O_RDONLY | O_CLOEXEC | flags);
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)
        && (!owned || (st.st_uid == geteuid() && !(st.st_mode & 022)))
        && (bytes = malloc(st.st_size + 1)) != NULL) {
        if (read_all(fd, bytes, st.st_size) == 0) {
            bytes[st.st_size] = 0;
            *length = st.st_size;
        } else {
            free(bytes);
            bytes = NULL;
        }
    }
    close(fd);
    return bytes;
}
