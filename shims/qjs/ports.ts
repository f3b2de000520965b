// Named imports: qjs builds a namespace object of every export (std and os hold about 110) for
// `import * as`, about 0.1M instructions a request.
import { err as stderrFile, getenv, in as stdinFile, loadFile, open as openFile, out as stdoutFile, strerror, type FILE } from 'std';
import { O_CREAT, O_EXCL, O_RDONLY, O_TRUNC, O_WRONLY, S_IFDIR, S_IFMT, close, exec, kill, mkdir, open as openFd, readdir, readlink, remove, rename, sleep, stat, symlink } from 'os';
import type { FileInfo, Ports, RunResult } from '../../src/platform/ports.js';
import { BUILD } from '../../src/platform/version.js';

const ENOENT = 2;
const EEXIST = 17;
const ESRCH = 3;

/** wrtapi-bytecode's module (packaging/wrtapi-bytecode/src); an older one may lack all but `use`. */
export interface NativeModule {
  use(dir: string): boolean;
  sha256hex?(text: string): string;
  hash64?(text: string): string;
  recall?(name: string, text: string): unknown;
  remember?(name: string, text: string, value: unknown): void;
  /** os.exec of a path with these three descriptors as its stdio, every other closed, without copying the process (spawn.c). */
  exec?(argv: string[], stdin: number, stdout: number, stderr: number, block: boolean): number;
}

declare global {
  /** wrtapi-bytecode's module, when the launcher (launch.ts) loaded it. */
  var wrtapiNative: NativeModule | undefined;
}

/**
 * The router implementation of the ports over QuickJS `std`/`os`. `WRTAPI_ROOT` (default `/`)
 * prefixes every router path, so the same bundle serves a real router and the emulator's sandbox.
 */
export function routerPorts(): Ports {
  const root = (getenv('WRTAPI_ROOT') ?? '').replace(/\/+$/, '');
  const spawn = globalThis.wrtapiNative?.exec;
  const real = (path: string) => root + path;
  let temporaryCounter = 0;

  function fail(what: string, path: string, errno: number): never {
    throw new Error(`${what} ${path}: ${strerror(-errno)}`);
  }

  function readFile(path: string): string | undefined {
    // std.loadFile reads in one fread; readAsString reads a byte per getc, which costs a router
    // tens of instructions a byte. loadFile sizes a file by seeking, so /proc files (size 0) and
    // errors take the slow way, which also tells a missing file from another failure.
    if (!path.startsWith('/proc/')) {
      const text = loadFile(real(path));
      if (text !== null) return text;
    }
    return readOpened(path, (file) => file.readAsString());
  }

  /** What `read` makes of the file, or undefined when it does not exist. Other failures throw. */
  function readOpened<T>(path: string, read: (file: FILE) => T): T | undefined {
    const error: { errno?: number } = {};
    const file = openFile(real(path), 'rb', error);
    if (!file) {
      if (error.errno === ENOENT) return undefined;
      fail('cannot read', path, -(error.errno ?? 0));
    }
    try {
      return read(file);
    } finally {
      file.close();
    }
  }

  function writeFile(realPath: string, text: string, mode: string) {
    const error: { errno?: number } = {};
    const file = openFile(realPath, mode, error);
    if (!file) fail('cannot write', realPath, -(error.errno ?? 0));
    file.puts(text);
    file.flush();
    if (file.close() !== 0) fail('cannot write', realPath, -5);
  }

  function temporaryBeside(path: string): string {
    const slash = path.lastIndexOf('/');
    return `${path.slice(0, slash + 1)}.${path.slice(slash + 1)}.${pid()}.${temporaryCounter++}.tmp`;
  }

  // The leaf first: state directories nearly always exist, and then one mkdir() settles it.
  function makeDirectory(path: string) {
    const errno = mkdir(real(path), 0o755);
    if (errno === 0 || errno === -EEXIST) return;
    const slash = path.lastIndexOf('/');
    if (errno !== -ENOENT || slash <= 0) fail('cannot create directory', path, errno);
    makeDirectory(path.slice(0, slash));
    const retried = mkdir(real(path), 0o755);
    if (retried !== 0 && retried !== -EEXIST) fail('cannot create directory', path, retried);
  }

  /**
   * Runs an argv with `stdin` as its input; with `wait`, waits and collects its output, else sends
   * its output to /dev/null and leaves it running. Temporary files, not pipes, which would deadlock
   * on large outputs without an event loop. Straight in /tmp, so a command (the logger above all)
   * still runs when wrtapi's own state is broken.
   */
  function execute(argv: string[], stdin: string, wait: boolean): RunResult {
    const base = `/tmp/.wrtapi-run.${pid()}.${temporaryCounter++}`;
    const input = real(base + '.in');
    const outputs = wait ? [real(base + '.out'), real(base + '.err')] : ['/dev/null', '/dev/null'];
    writeFile(input, stdin, 'w');
    const fds = [openFd(input, O_RDONLY), ...outputs.map((path) => openFd(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600))];
    // The child reads its input through the descriptor, so the name can go before it runs.
    remove(input);
    try {
      if (fds.some((fd) => fd < 0)) fail('cannot open', base, fds.find((fd) => fd < 0)!);
      const command = [real(argv[0]), ...argv.slice(1)];
      const code = spawn ? spawn(command, fds[0], fds[1], fds[2], wait) : exec(command, { block: wait, usePath: false, stdin: fds[0], stdout: fds[1], stderr: fds[2] });
      return wait ? { code, stdout: loadFile(outputs[0]) ?? '', stderr: loadFile(outputs[1]) ?? '' } : { code, stdout: '', stderr: '' };
    } finally {
      for (const fd of fds) if (fd >= 0) close(fd);
      if (wait) for (const path of outputs) remove(path);
    }
  }

  let cachedPid = 0;
  let identity: string | undefined;
  function pid(): number {
    if (!cachedPid) {
      const [target] = readlink('/proc/self');
      cachedPid = Number(target);
    }
    return cachedPid;
  }

  /**
   * Field 22 of /proc/<pid>/stat, the start time in clock ticks since boot, counted after the
   * command name, which may hold spaces. Read to its end: loadFile sizes a file by seeking,
   * and /proc files have no size.
   */
  function startTime(of: number): string | undefined {
    const file = openFile(`/proc/${of}/stat`, 'r');
    if (!file) return undefined;
    const line = file.readAsString();
    file.close();
    return line.slice(line.lastIndexOf(')') + 2).split(' ')[19];
  }

  return {
    sha256Hex: globalThis.wrtapiNative?.sha256hex,
    hash64: globalThis.wrtapiNative?.hash64,
    derived: globalThis.wrtapiNative?.recall && derived,
    env: getenv,
    readBody(bytes) {
      // FILE.read is fread(): it returns short only at the end of input.
      const buffer = new ArrayBuffer(bytes);
      return new Uint8Array(buffer, 0, bytes > 0 ? stdinFile.read(buffer, 0, bytes) : 0);
    },
    writeStdout(text) {
      stdoutFile.puts(text);
      stdoutFile.flush();
    },
    writeStdoutBytes(bytes) {
      stdoutFile.write(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
      stdoutFile.flush();
    },
    writeStderr(text) {
      stderrFile.puts(text);
      stderrFile.flush();
    },

    readFile,
    readFileBytes(path) {
      return readOpened(path, (file) => {
        const [info, errno] = stat(real(path));
        if (errno) fail('cannot read', path, errno);
        // FILE.read is fread(): short only at the end of the file.
        const buffer = new ArrayBuffer(info.size);
        return new Uint8Array(buffer, 0, info.size > 0 ? file.read(buffer, 0, info.size) : 0);
      });
    },
    writeFileAtomic(path, text, mode) {
      const temporary = real(temporaryBeside(path));
      if (mode !== undefined) {
        // A temporary of this name can only be a dead process's, and fopen keeps the mode of a file it truncates.
        remove(temporary);
        const fd = openFd(temporary, O_WRONLY | O_CREAT | O_EXCL, mode);
        if (fd < 0) fail('cannot write', path, fd);
        close(fd);
      }
      writeFile(temporary, text, 'w');
      const errno = rename(temporary, real(path));
      if (errno !== 0) {
        remove(temporary);
        fail('cannot replace', path, errno);
      }
    },
    appendFile(path, text) {
      writeFile(real(path), text, 'a');
    },
    createExclusive(path, text) {
      const fd = openFd(real(path), O_WRONLY | O_CREAT | O_EXCL, 0o644);
      if (fd === -EEXIST) return false;
      if (fd < 0) fail('cannot create', path, fd);
      close(fd);
      if (text) writeFile(real(path), text, 'w');
      return true;
    },
    createLink(path, target) {
      const errno = symlink(target, real(path));
      if (errno === -EEXIST) return false;
      if (errno !== 0) fail('cannot create', path, errno);
      return true;
    },
    readLink(path) {
      const [target, errno] = readlink(real(path));
      return errno === 0 ? target : undefined;
    },
    rename(from, to) {
      const errno = rename(real(from), real(to));
      if (errno !== 0) fail('cannot rename', from, errno);
    },
    remove(path) {
      const errno = remove(real(path));
      if (errno !== 0 && errno !== -ENOENT) fail('cannot remove', path, errno);
    },
    list(dir) {
      const [names, errno] = readdir(real(dir));
      if (errno === ENOENT) return [];
      if (errno !== 0) fail('cannot list', dir, -errno);
      return names.filter((name) => name !== '.' && name !== '..').sort();
    },
    stat(path): FileInfo | undefined {
      const [info, errno] = stat(real(path));
      if (errno === ENOENT) return undefined;
      if (errno !== 0) fail('cannot stat', path, -errno);
      return { size: info.size, mtimeMs: info.mtime, isDirectory: (info.mode & S_IFMT) === S_IFDIR, mode: info.mode & 0o7777 };
    },
    makeDirectory,

    run: (argv, stdin = '') => execute(argv, stdin, true),
    start: (argv, stdin) => execute(argv, stdin, false).code,
    pid,
    identity: () => (identity ??= `${pid()}:${startTime(pid())}`),
    isRunning(owner) {
      const [id, started] = owner.split(':');
      const other = Number(id);
      if (!(other > 0) || kill(other, 0) === -ESRCH) return false;
      return started === undefined || startTime(other) === started;
    },

    now: () => Date.now(),
    sleep,
    randomBytes(count) {
      const file = openFile('/dev/urandom', 'rb');
      if (!file) throw new Error('cannot open /dev/urandom');
      const bytes = new Uint8Array(count);
      for (let i = 0; i < count; i++) bytes[i] = file.getByte();
      file.close();
      return bytes;
    },
  };
}

/** Ports.derived over wrtapi-bytecode's `recall` and `remember`, the build named in the text. */
function derived<T>(name: string, text: string, make: (text: string) => T | undefined): T | undefined {
  const native = globalThis.wrtapiNative!;
  const madeFrom = `${BUILD}\n${text}`;
  const known = native.recall!(name, madeFrom) as T | undefined;
  if (known !== undefined) return known;
  const value = make(text);
  if (value !== undefined) native.remember!(name, madeFrom, value);
  return value;
}
