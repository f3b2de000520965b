// The only way src/ reaches the machine. Paths are router paths (`/etc/config/network`); the shim
// decides where they live (the real root on a router, a sandbox under the emulator).

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface FileInfo {
  size: number;
  mtimeMs: number;
  isDirectory: boolean;
  /** The permission bits (0o7777 of st_mode). */
  mode: number;
}

export interface Ports {
  /** A CGI variable or other environment value. */
  env(name: string): string | undefined;
  /** The request body: up to `bytes` bytes of stdin, as sent (decoding is the caller's). */
  readBody(bytes: number): Uint8Array;
  /** Writes to stdout (the CGI answer, or a command's output) and flushes. */
  writeStdout(text: string): void;
  /** Writes bytes to stdout as they are, and flushes. */
  writeStdoutBytes(bytes: Uint8Array): void;
  writeStderr(text: string): void;

  /** The file's text, or undefined when it does not exist. Other failures throw. */
  readFile(path: string): string | undefined;
  /** The file's bytes, never decoded, or undefined when it does not exist. Other failures throw. */
  readFileBytes(path: string): Uint8Array | undefined;
  /**
   * Replaces the file by writing a temporary beside it and renaming it over the old one. The
   * temporary is `.<name>.<pid>.<n>.tmp`, so what a killed writer leaves names its owner. With
   * `mode`, the temporary is created with it (less the umask), so the file never has another.
   */
  writeFileAtomic(path: string, text: string, mode?: number): void;
  /** Appends with O_APPEND, so short concurrent appends never interleave. */
  appendFile(path: string, text: string): void;
  /** Creates the file only if it does not exist yet; false when it already exists. */
  createExclusive(path: string, text: string): boolean;
  /**
   * Creates a symbolic link holding `target` in one step, so no reader ever finds it empty (a lock
   * file written after its creation can be caught empty by a kill); false when the path exists.
   */
  createLink(path: string, target: string): boolean;
  /** A symbolic link's target; undefined when the path is missing or not a link. */
  readLink(path: string): string | undefined;
  /** Renames a file over another in one step, so a reader finds the old file or the new, never neither. */
  rename(from: string, to: string): void;
  /** Removes a file; a missing file is not an error. */
  remove(path: string): void;
  /** Names in a directory (without `.` and `..`), or [] when it does not exist. */
  list(dir: string): string[];
  stat(path: string): FileInfo | undefined;
  /** Creates the directory and its parents when missing. */
  makeDirectory(path: string): void;

  /**
   * Runs an argv (never a shell) with optional stdin and waits for it. Its stdin, stdout and stderr
   * are files `/tmp/.wrtapi-run.<pid>.<n>.in|out|err`, removed when it returns.
   */
  run(argv: string[], stdin?: string): RunResult;
  /**
   * Starts an argv (never a shell) with `stdin` as its input and does not wait for it. Its output
   * goes to /dev/null: uhttpd holds the answer open while any process holds the program's stdout.
   * Its process id.
   */
  start(argv: string[], stdin: string): number;
  /** This process's id. */
  pid(): number;
  /**
   * SHA-256 of a text's UTF-8 as lowercase hex, in native code where the platform has it
   * (wrtapi-bytecode's module): every authenticated request hashes its token's salt and bearer,
   * 0.65M instructions a block in QuickJS's interpreter, and 0.19M more to make its bytes and
   * digits, where this costs a few thousand. Absent, auth/hash.ts computes the same digits itself.
   */
  sha256Hex?(text: string): string;
  /**
   * engine/etag.ts's hash64 in native code (wrtapi-bytecode's module): QuickJS's interpreter spends
   * about 2,000 instructions on each character of a body it hashes, 0.8M for a firewall rule.
   * Absent, engine/etag.ts computes the same digits itself.
   */
  hash64?(text: string): string;
  /**
   * What `make` gives for `text`, from wrtapi-bytecode's cache in RAM when an earlier request of the
   * same build made it from the same text under the same `name` (letters, digits, `.`, `_`, `-`).
   * `make` must be pure and give plain data (objects, arrays, strings, numbers, booleans, null), or
   * undefined for a value not to keep; each call gets its own copy. The entry holds `text`: a caller
   * passes a digest for a text that may hold a secret. Reading a firewall package back costs QuickJS
   * about a third of parsing it. Absent, callers call `make` themselves.
   */
  derived?<T>(name: string, text: string, make: (text: string) => T | undefined): T | undefined;
  /** This process as an owner of locks: `<pid>:<start time>`, which a process reusing the pid does not share. */
  identity(): string;
  /** Whether an owner still runs: `<pid>:<start time>` as identity() gives it, or a bare pid. */
  isRunning(owner: string): boolean;

  /** Wall clock, milliseconds since the epoch. */
  now(): number;
  /** Blocks the process; only for the few-millisecond waits on a state file's mutex. */
  sleep(ms: number): void;
  /** Bytes from /dev/urandom. */
  randomBytes(count: number): Uint8Array;
}
