// The subset of Bellard QuickJS's `std` and `os` modules the router shim uses. The emulator's wasm
// engine provides exactly this subset, so anything added here must be added there too.
/** qjs's global: the script path, then its arguments. */
declare const scriptArgs: string[];

declare module 'std' {
  export interface FILE {
    puts(text: string): void;
    getByte(): number;
    readAsString(maxSize?: number): string;
    /** Up to `length` bytes into `buffer` at `position`; the count read, 0 at end of file. */
    read(buffer: ArrayBuffer, position: number, length: number): number;
    /** `length` bytes of `buffer` from `position`; the count written. */
    write(buffer: ArrayBuffer, position: number, length: number): number;
    flush(): void;
    close(): number;
  }
  const stdin: FILE;
  export { stdin as in };
  export const out: FILE;
  export const err: FILE;
  export function open(path: string, mode: string, errorObj?: { errno?: number }): FILE | null;
  export function loadFile(path: string): string | null;
  export function getenv(name: string): string | undefined;
  export function exit(code: number): never;
  export function strerror(errno: number): string;
}

declare module 'os' {
  export const O_RDONLY: number;
  export const O_WRONLY: number;
  export const O_CREAT: number;
  export const O_EXCL: number;
  export const O_TRUNC: number;
  export const S_IFMT: number;
  export const S_IFDIR: number;
  export function open(path: string, flags: number, mode?: number): number;
  export function close(fd: number): number;
  export function remove(path: string): number;
  export function rename(from: string, to: string): number;
  export function mkdir(path: string, mode?: number): number;
  export function readdir(path: string): [string[], number];
  export function stat(path: string): [{ mode: number; size: number; mtime: number }, number];
  export function readlink(path: string): [string, number];
  export function symlink(target: string, linkpath: string): number;
  export function kill(pid: number, signal: number): number;
  export function sleep(ms: number): void;
  export function exec(
    argv: string[],
    options: { block?: boolean; usePath?: boolean; stdin?: number; stdout?: number; stderr?: number },
  ): number;
}
