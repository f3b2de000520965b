/*
 * exec(argv, stdin, stdout, stderr, block): os.exec as wrtapi's ports call it (shims/qjs/ports.ts):
 * argv[0] a path, never searched; the three descriptors the program's stdin, stdout and stderr,
 * every other one closed; with block, its exit status (the signal's number negated when one killed
 * it), else its pid.
 *
 * quickjs-libc forks, and its child closes descriptors one call each up to the open-file limit:
 * 1,024 under uhttpd, so every program wrtapi runs (ubus, logger, an init script) cost a copy of
 * the process's page tables and 1,021 close() calls, 0.5 ms of the 1.3 ms a child costs on the
 * bench's machine. Here the child borrows the parent's memory until it execs (vfork) and closes
 * them in one close_range() where the kernel has it (Linux 5.9; OpenWrt 22.03 and later).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "quickjs.h"

/* Runs in the vfork child, on the parent's memory: it writes nothing the parent reads, and calls
 * only what is safe there. wrtapi sets no signal handler, so none of the parent's can run in it. */
__attribute__((noreturn)) static void run_child(const int32_t fds[3], char *const args[], long fd_max)
{
    for (int fd = 0; fd < 3; fd++)
        if (fds[fd] != fd && dup2(fds[fd], fd) < 0)
            _exit(127);
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3u, ~0u, 0u) != 0)
#endif
        for (long fd = 3; fd < fd_max; fd++)
            close((int)fd);
    execv(args[0], args);
    _exit(127);
}

JSValue js_exec(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    (void)this_val;
    (void)argc;
    int32_t fds[3];
    uint32_t count = 0, filled = 0;
    char **args = NULL;
    JSValue result = JS_EXCEPTION, length;
    long fd_max = sysconf(_SC_OPEN_MAX);
    int block, status;
    pid_t pid;

    for (int i = 0; i < 3; i++)
        if (JS_ToInt32(ctx, &fds[i], argv[1 + i]))
            return JS_EXCEPTION;
    block = JS_ToBool(ctx, argv[4]);
    length = JS_GetPropertyStr(ctx, argv[0], "length");
    if (JS_ToUint32(ctx, &count, length)) {
        JS_FreeValue(ctx, length);
        return JS_EXCEPTION;
    }
    JS_FreeValue(ctx, length);
    if (count < 1 || count > 65535)
        return JS_ThrowRangeError(ctx, "invalid exec argument list");
    if (!(args = js_mallocz(ctx, sizeof *args * (count + 1))))
        return JS_EXCEPTION;
    for (; filled < count; filled++) {
        JSValue item = JS_GetPropertyUint32(ctx, argv[0], filled);
        args[filled] = (char *)JS_ToCString(ctx, item);
        JS_FreeValue(ctx, item);
        if (!args[filled])
            goto done;
    }

    pid = vfork();
    if (pid == 0)
        run_child(fds, args, fd_max);
    if (pid < 0) {
        JS_ThrowTypeError(ctx, "fork error");
        goto done;
    }
    if (!block) {
        result = JS_NewInt32(ctx, pid);
        goto done;
    }
    /* quickjs-libc waits as long as waitpid fails; only an interruption is worth another wait. */
    while (waitpid(pid, &status, 0) != pid)
        if (errno != EINTR) {
            status = 127 << 8;
            break;
        }
    result = JS_NewInt32(ctx, WIFSIGNALED(status) ? -WTERMSIG(status) : WEXITSTATUS(status));
done:
    for (uint32_t i = 0; i < filled; i++)
        JS_FreeCString(ctx, args[i]);
    js_free(ctx, args);
    return result;
}
