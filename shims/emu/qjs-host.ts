// The modules `std` and `os` of a QuickJS program run on Node: host functions with the return values
// and errno conventions of quickjs-libc.c, backed by the real filesystem and processes, and the
// module sources that wrap them in the subset shims/qjs/quickjs.d.ts declares. The wasm engine
// (wasm-runner.ts) hands them to its VM; node-runner.ts runs a program on Node itself with them.
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  readSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeSync,
  constants as fsConstants,
} from 'node:fs';
import { spawn, spawnSync, type StdioOptions } from 'node:child_process';
import { constants as osConstants } from 'node:os';

const EIO = 5;
const EINVAL = 22;

// glibc's strerror() texts, which the native qjs built on this machine prints.
const errorTexts = [
  'Success', 'Operation not permitted', 'No such file or directory', 'No such process', 'Interrupted system call',
  'Input/output error', 'No such device or address', 'Argument list too long', 'Exec format error',
  'Bad file descriptor', 'No child processes', 'Resource temporarily unavailable', 'Cannot allocate memory',
  'Permission denied', 'Bad address', 'Block device required', 'Device or resource busy', 'File exists',
  'Invalid cross-device link', 'No such device', 'Not a directory', 'Is a directory', 'Invalid argument',
  'Too many open files in system', 'Too many open files', 'Inappropriate ioctl for device', 'Text file busy',
  'File too large', 'No space left on device', 'Illegal seek', 'Read-only file system', 'Too many links',
  'Broken pipe', 'Numerical argument out of domain', 'Numerical result out of range', 'Resource deadlock avoided',
  'File name too long', 'No locks available', 'Function not implemented', 'Directory not empty',
  'Too many levels of symbolic links',
];

/** The positive errno of a failed Node system call. */
export function errnoOf(error: unknown): number {
  const errno = (error as NodeJS.ErrnoException).errno;
  return typeof errno === 'number' ? Math.abs(errno) : EIO;
}

/** Runs a system call the way quickjs-libc reports it: its result, or -errno. */
function negativeErrno(call: () => number | void): number {
  try {
    return call() ?? 0;
  } catch (error) {
    return -errnoOf(error);
  }
}

const utf8 = new TextEncoder();

// Bytes cross between the VM and the host as a string, a character a byte, offset past U+00FF:
// quickjs-emscripten hands a string from the VM to the host as a C string, which a byte 0 (a gzip
// has several) would end. Both ways use the one encoding.
const BYTE_OFFSET = 0x100;
function byteText(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...Array.from(bytes.subarray(i, i + 8192), (byte) => byte + BYTE_OFFSET));
  return text;
}

export function writeAll(fd: number, text: string | Uint8Array) {
  const bytes = typeof text === 'string' ? utf8.encode(text) : text;
  for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
}

/** Bytes up to maxSize, end of file or the first read error, which fgetc() reports as end of file too. */
function readAsString(fd: number, maxSize?: number): string {
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(65536);
  for (let remaining = maxSize ?? Infinity; remaining > 0; ) {
    const count = readOrEnd(fd, buffer, Math.min(buffer.length, remaining));
    if (count === 0) break;
    chunks.push(buffer.slice(0, count));
    remaining -= count;
  }
  return Buffer.concat(chunks).toString('utf8');
}

function readOrEnd(fd: number, buffer: Uint8Array, length: number): number {
  try {
    return readSync(fd, buffer, 0, length, null);
  } catch {
    return 0;
  }
}

/** fopen() modes as Node open flags: the first letter, and `+` anywhere after it. */
function fopenFlags(mode: string): string | undefined {
  if (!'rwa'.includes(mode[0] ?? '-')) return undefined;
  return mode[0] + (mode.includes('+') ? '+' : '');
}

export const stdHost = {
  open(path: string, mode: string): number {
    const flags = fopenFlags(String(mode));
    if (!flags) return -EINVAL;
    return negativeErrno(() => openSync(String(path), flags));
  },
  readAsString(fd: number, maxSize?: number): string {
    return readAsString(fd, maxSize);
  },
  /** As fread(): up to `length` bytes, short only at end of file, as a string of byte characters (byteText). */
  readBytes(fd: number, length: number): string {
    const bytes = new Uint8Array(Math.max(0, Number(length) | 0));
    let filled = 0;
    for (let count = -1; filled < bytes.length && count !== 0; filled += count) count = readOrEnd(fd, bytes.subarray(filled), bytes.length - filled);
    return byteText(bytes.subarray(0, filled));
  },
  getByte(fd: number): number {
    const byte = new Uint8Array(1);
    return readOrEnd(fd, byte, 1) === 1 ? byte[0] : -1;
  },
  write(fd: number, text: string) {
    try {
      writeAll(fd, text);
    } catch {
      // fwrite() errors are silent in quickjs-libc: FILE.puts returns nothing either way.
    }
  },
  /** As fwrite() of bytes, which reach the host as a string of byte characters (byteText). */
  writeBytes(fd: number, bytes: string): number {
    try {
      writeAll(fd, Uint8Array.from(String(bytes), (character) => character.charCodeAt(0) - BYTE_OFFSET));
      return bytes.length;
    } catch {
      return 0;
    }
  },
  close: (fd: number) => negativeErrno(() => closeSync(fd)),
  loadFile(path: string): string | null {
    try {
      return readFileSync(String(path), 'utf8');
    } catch {
      return null;
    }
  },
  getenv: (name: string) => process.env[String(name)],
  exit: (code: number) => process.exit(Number(code) | 0),
  strerror: (errno: number) => errorTexts[Number(errno) | 0] ?? `Unknown error ${Number(errno) | 0}`,
};

export const osHost = {
  open: (path: string, flags: number, mode?: number) =>
    negativeErrno(() => openSync(String(path), Number(flags) | 0, mode === undefined ? 0o666 : Number(mode) | 0)),
  close: (fd: number) => negativeErrno(() => closeSync(Number(fd) | 0)),
  remove: (path: string) =>
    negativeErrno(() => {
      // glibc's remove(): unlink, and rmdir when unlink says the path is a directory.
      try {
        unlinkSync(String(path));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EISDIR') throw error;
        rmdirSync(String(path));
      }
    }),
  rename: (from: string, to: string) => negativeErrno(() => renameSync(String(from), String(to))),
  mkdir: (path: string, mode?: number) =>
    negativeErrno(() => {
      mkdirSync(String(path), { mode: mode === undefined ? 0o777 : Number(mode) | 0 });
    }),
  readdir(path: string): [string[], number] {
    try {
      // readdir(3) lists the two dot entries, which Node leaves out.
      return [['.', '..', ...readdirSync(String(path))], 0];
    } catch (error) {
      return [[], errnoOf(error)];
    }
  },
  stat(path: string): [Record<string, number> | null, number] {
    try {
      const info = statSync(String(path), { bigint: true });
      const ms = (ns: bigint) => Number(ns / 1000000n);
      return [
        {
          dev: Number(info.dev), ino: Number(info.ino), mode: Number(info.mode), nlink: Number(info.nlink),
          uid: Number(info.uid), gid: Number(info.gid), rdev: Number(info.rdev), size: Number(info.size),
          blocks: Number(info.blocks), atime: ms(info.atimeNs), mtime: ms(info.mtimeNs), ctime: ms(info.ctimeNs),
        },
        0,
      ];
    } catch (error) {
      return [null, errnoOf(error)];
    }
  },
  symlink: (target: string, linkpath: string) => negativeErrno(() => symlinkSync(String(target), String(linkpath))),
  readlink(path: string): [string, number] {
    try {
      return [readlinkSync(String(path)), 0];
    } catch (error) {
      return ['', errnoOf(error)];
    }
  },
  kill: (pid: number, signal: number) => negativeErrno(() => void process.kill(Number(pid) | 0, Number(signal) | 0)),
  sleep(ms: number): number {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, Number(ms) || 0));
    return 0;
  },
  exec(argv: string[], options: { block?: boolean; usePath?: boolean; stdin?: number; stdout?: number; stderr?: number } = {}) {
    if (!Array.isArray(argv) || argv.length < 1) throw new TypeError('invalid number of arguments');
    const [file, ...args] = argv.map(String);
    // Without usePath, execve() takes a bare name relative to the working directory, as a path.
    const command = options.usePath === false && !file.includes('/') ? `./${file}` : file;
    const stdio: StdioOptions = [options.stdin ?? 0, options.stdout ?? 1, options.stderr ?? 2].map((fd) => Number(fd) | 0);
    if (options.block === false) {
      const child = spawn(command, args, { stdio, argv0: file });
      child.on('error', () => {});
      child.unref();
      return child.pid ?? -1;
    }
    const result = spawnSync(command, args, { stdio, argv0: file });
    // A child that cannot exec exits with 127 in quickjs-libc; a signal is reported as -signal.
    if (result.error) return 127;
    if (result.signal) return -osConstants.signals[result.signal];
    return result.status ?? 127;
  },
};

export const stdSource = `
const host = globalThis.__wrtapiStd;
delete globalThis.__wrtapiStd;
class FILE {
  #fd;
  constructor(fd) { this.#fd = fd; }
  #handle() {
    if (this.#fd < 0) throw new TypeError('invalid file handle');
    return this.#fd;
  }
  puts(...texts) { for (const text of texts) host.write(this.#handle(), String(text)); }
  getByte() { return host.getByte(this.#handle()); }
  read(buffer, position, length) {
    if (position < 0 || length < 0 || position + length > buffer.byteLength) throw new RangeError('read/write array buffer overflow');
    const bytes = host.readBytes(this.#handle(), length);
    const view = new Uint8Array(buffer, position, bytes.length);
    for (let i = 0; i < bytes.length; i++) view[i] = bytes.charCodeAt(i) - ${BYTE_OFFSET};
    return bytes.length;
  }
  write(buffer, position, length) {
    if (position < 0 || length < 0 || position + length > buffer.byteLength) throw new RangeError('read/write array buffer overflow');
    const view = new Uint8Array(buffer, position, length);
    let bytes = '';
    for (let i = 0; i < view.length; i += 8192) bytes += String.fromCharCode(...Array.from(view.subarray(i, i + 8192), (byte) => byte + ${BYTE_OFFSET}));
    return host.writeBytes(this.#handle(), bytes);
  }
  readAsString(maxSize) {
    if (maxSize !== undefined && !(maxSize >= 0)) throw new RangeError('invalid array index');
    return host.readAsString(this.#handle(), maxSize);
  }
  flush() { this.#handle(); }
  close() {
    const result = host.close(this.#handle());
    this.#fd = -1;
    return result;
  }
}
const stdin = new FILE(0);
export { stdin as in };
export const out = new FILE(1);
export const err = new FILE(2);
export function open(path, mode, errorObj) {
  mode = String(mode);
  if (/[^rwa+b]/.test(mode)) throw new TypeError('invalid file mode');
  const fd = host.open(String(path), mode);
  if (errorObj !== undefined) errorObj.errno = fd < 0 ? -fd : 0;
  return fd < 0 ? null : new FILE(fd);
}
export const { loadFile, getenv, exit, strerror } = host;
`;

export const osSource = `
const host = globalThis.__wrtapiOs;
delete globalThis.__wrtapiOs;
export const { open, close, remove, rename, mkdir, readdir, stat, readlink, symlink, kill, sleep, exec } = host;
${['O_RDONLY', 'O_WRONLY', 'O_RDWR', 'O_CREAT', 'O_EXCL', 'O_TRUNC', 'O_APPEND', 'S_IFMT', 'S_IFDIR', 'S_IFREG']
  .map((name) => `export const ${name} = ${fsConstants[name as keyof typeof fsConstants]};`)
  .join('\n')}
`;
