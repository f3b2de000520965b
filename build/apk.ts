// An apk-tools 3 package (ADB format, apk-v3(5)), written as `apk mkpkg` writes one from a staged
// tree under OpenWrt's fakeroot: the same values in the same order, so the same tree gives the same
// bytes as mkpkg (test/api/package-apk.test.ts holds the two together when apk-tools 3 is at hand).
import { createHash } from 'node:crypto';

/** The package info fields `apk mkpkg --info` takes, as OpenWrt's include/package-pack.mk sets them. */
export interface ApkInfo {
  name: string;
  version: string;
  description: string;
  /** `noarch`, or OpenWrt's name of the target architecture. */
  arch: string;
  license: string;
  origin: string;
  depends: string[];
}

/** Script types by their slot in the `scripts` object (ADBI_SCRPT_*). */
export const APK_SCRIPTS = ['trigger', 'pre-install', 'post-install', 'pre-deinstall', 'post-deinstall', 'pre-upgrade', 'post-upgrade'] as const;
export type ApkScript = (typeof APK_SCRIPTS)[number];

/** A regular file of the package, by its router path. Every entry is owned by root:root. */
export interface ApkFile {
  mode: number;
  data: Buffer;
}

// Value tags (the high four bits of a value) and block types.
const INT = 0x10000000;
const INT_32 = 0x20000000;
const BLOB_8 = 0x80000000;
const BLOB_16 = 0x90000000;
const BLOB_32 = 0xa0000000;
const OBJECT = 0xe0000000;
const BLOCK_ADB = 0;
const BLOCK_DATA = 2;
export const SCHEMA_PACKAGE = 0x676b6370; // "pckg"
const DIRECTORY_MODE = 0o755;

/**
 * The ADB block's payload as adb.c writes it: an 8-byte header (versions 0, the root value), then
 * values appended with their alignment. A value already written (same bytes, aligned as asked) is
 * referred to again rather than written twice.
 */
class AdbWriter {
  private chunks: Buffer[] = [Buffer.alloc(8)];
  private length = 8;
  private written = new Map<string, number>();

  private raw(bytes: Buffer, alignment: number): number {
    const padding = (alignment - (this.length % alignment)) % alignment;
    if (padding) this.chunks.push(Buffer.alloc(padding));
    const offset = this.length + padding;
    this.chunks.push(bytes);
    this.length = offset + bytes.length;
    return offset;
  }

  private data(bytes: Buffer, alignment: number): number {
    const key = bytes.toString('latin1');
    const offset = this.written.get(key);
    if (offset !== undefined && offset % alignment === 0) return offset;
    const at = this.raw(bytes, alignment);
    this.written.set(key, at);
    return at;
  }

  /** A byte string with its length before it; an empty one is null (0). */
  blob(value: string | Buffer): number {
    const bytes = Buffer.from(value);
    if (bytes.length === 0) return 0;
    const [tag, size] = bytes.length > 0xffff ? [BLOB_32, 4] : bytes.length > 0xff ? [BLOB_16, 2] : [BLOB_8, 1];
    const prefix = Buffer.alloc(size);
    prefix.writeUIntLE(bytes.length, 0, size);
    return (tag | this.data(Buffer.concat([prefix, bytes]), size)) >>> 0;
  }

  /** The package's unique id: a blob never shared with another, filled in once the whole block is written. */
  placeholder(length: number): { value: number; offset: number } {
    const offset = this.raw(Buffer.concat([Buffer.from([length]), Buffer.alloc(length)]), 1);
    return { value: (BLOB_8 | offset) >>> 0, offset: offset + 1 };
  }

  int(value: number): number {
    if (value < 0x10000000) return (INT | value) >>> 0;
    if (value >= 2 ** 32) throw new Error(`ADB integer over 32 bits: ${value}`);
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32LE(value);
    return (INT_32 | this.data(bytes, 4)) >>> 0;
  }

  /**
   * An object or array: its slot count, then its values from slot 1, trailing nulls dropped; null
   * when nothing is left. `apk mkpkg` stores its arrays with the object tag too, and apk reads both.
   */
  object(values: number[]): number {
    let count = values.length;
    while (count > 0 && values[count - 1] === 0) count--;
    if (count === 0) return 0;
    const bytes = Buffer.alloc(4 * (count + 1));
    bytes.writeUInt32LE(count + 1);
    values.slice(0, count).forEach((value, i) => bytes.writeUInt32LE(value, 4 * (i + 1)));
    return (OBJECT | this.data(bytes, 4)) >>> 0;
  }

  finish(root: number): Buffer {
    const adb = Buffer.concat(this.chunks);
    adb.writeUInt32LE(root, 4);
    return adb;
  }
}

/** A block: its type and length in one word, the payload, zeros to the next multiple of 8. */
function block(type: number, payload: Buffer[]): Buffer[] {
  const length = 4 + payload.reduce((total, part) => total + part.length, 0);
  if (length > 0x3fffffff) throw new Error(`ADB block of ${length} bytes: past what a block's word can say`);
  const head = Buffer.alloc(4);
  head.writeUInt32LE(((type << 30) | length) >>> 0);
  return [head, ...payload, Buffer.alloc((8 - (length % 8)) % 8)];
}

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * The uncompressed package: `ADB.`, the schema, the ADB block, then one DATA block per non-empty
 * file in the order of the paths. Paths are every directory of the tree, the root first, each 0755
 * and listing its files (mkpkg's default, which keeps even the empty ones); every file's mtime is
 * `mtime`, as mkpkg gives every file SOURCE_DATE_EPOCH.
 */
export function adbPackage(
  info: ApkInfo,
  files: Map<string, ApkFile>,
  scripts: Partial<Record<ApkScript, Buffer>>,
  mtime: number,
): { stream: Buffer; installedSize: number } {
  const adb = new AdbWriter();
  // mkpkg writes the info fields in slot order, each dependency's name and object as it is parsed,
  // then the list sorted by name without repeats.
  const infoSlots = [adb.blob(info.name), adb.blob(info.version), 0, adb.blob(info.description), adb.blob(info.arch), adb.blob(info.license), adb.blob(info.origin)];
  const dependencies = info.depends.map((name) => ({ name, value: adb.object([adb.blob(name)]) }));
  const depends = [...new Map(dependencies.sort((a, b) => byBytes(a.name, b.name)).map((dep) => [dep.name, dep.value])).values()];
  // maintainer, url, repo-commit, build-time, installed-size (below), file-size, provider-priority: unset.
  infoSlots.push(0, 0, 0, 0, 0, 0, 0, adb.object(depends));

  const directories = new Map<string, string[]>([['', []]]);
  for (const path of [...files.keys()].sort(byBytes)) {
    const parts = path.split('/').filter(Boolean);
    for (let i = 1; i < parts.length; i++) if (!directories.has(parts.slice(0, i).join('/'))) directories.set(parts.slice(0, i).join('/'), []);
    directories.get(parts.slice(0, -1).join('/'))!.push(path);
  }
  const order = [...directories.keys()].sort(byBytes);
  const paths: number[] = [];
  let installedSize = 0;
  for (const dir of order) {
    const entries = directories.get(dir)!.map((path) => {
      const { mode, data } = files.get(path)!;
      installedSize += data.length;
      const name = adb.blob(path.slice(path.lastIndexOf('/') + 1));
      const hash = adb.blob(createHash('sha256').update(data).digest());
      const [mtimeValue, size] = [adb.int(mtime), adb.int(data.length)];
      const acl = adb.object([adb.int(mode), adb.blob('root'), adb.blob('root')]);
      return adb.object([name, acl, size, mtimeValue, hash]);
    });
    const name = adb.blob(dir);
    const acl = adb.object([adb.int(DIRECTORY_MODE), adb.blob('root'), adb.blob('root')]);
    paths.push(adb.object([name, acl, adb.object(entries)]));
  }
  // mkpkg never records an installed size of 0.
  infoSlots[11] = adb.int(Math.max(installedSize, 1));
  const uniqueId = adb.placeholder(20);
  infoSlots[2] = uniqueId.value;
  // Written in this order, the scripts last, as mkpkg writes them.
  const pkg = adb.object([adb.object(infoSlots), adb.object(paths), adb.object(APK_SCRIPTS.map((type) => (scripts[type] ? adb.blob(scripts[type]!) : 0)))]);
  const block0 = adb.finish(pkg);
  // As mkpkg: the unique id is the start of the block's SHA-256 taken with the id still zero.
  createHash('sha256').update(block0).digest().copy(block0, uniqueId.offset, 0, 20);

  const header = Buffer.alloc(8);
  header.write('ADB.', 0, 'latin1');
  header.writeUInt32LE(SCHEMA_PACKAGE, 4);
  const parts = [header, ...block(BLOCK_ADB, [block0])];
  order.forEach((dir, i) =>
    directories.get(dir)!.forEach((path, j) => {
      const { data } = files.get(path)!;
      if (data.length === 0) return;
      const at = Buffer.alloc(8);
      at.writeUInt32LE(i + 1);
      at.writeUInt32LE(j + 1, 4);
      parts.push(...block(BLOCK_DATA, [at, data]));
    }),
  );
  return { stream: Buffer.concat(parts), installedSize: Math.max(installedSize, 1) };
}
