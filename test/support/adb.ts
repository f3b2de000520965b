// Reads an apk-tools 3 package (apk-v3(5)) back, independently of build/apk.ts: the blocks, the
// values of the ADB block by their tags, and the package schema's slots (src/apk_adb.h of apk-tools).
import { inflateRawSync } from 'node:zlib';

export interface ApkPath {
  /** Relative to the root, without a leading slash; '' for the root. */
  name: string;
  mode: number;
  user: string;
  group: string;
  files: { name: string; mode: number; user: string; group: string; size: number; mtime: number; hash: Buffer }[];
}

export interface ReadApk {
  /** The stream after `ADBd`, inflated: `ADB.`, the schema, then the blocks. */
  stream: Buffer;
  schema: string;
  /** The ADB block's payload. */
  adb: Buffer;
  info: { name: string; version: string; hashes: Buffer; description: string; arch: string; license: string; origin: string; installedSize: number; depends: string[] };
  paths: ApkPath[];
  scripts: Record<string, string>;
  /** Each DATA block: the path and file it names (from 1) and its bytes. */
  data: { path: number; file: number; bytes: Buffer }[];
  /** Router path to bytes, from the DATA blocks and the paths they name. */
  files: Map<string, Buffer>;
}

const SCRIPTS = ['trigger', 'pre-install', 'post-install', 'pre-deinstall', 'post-deinstall', 'pre-upgrade', 'post-upgrade'];

export function readApk(apk: Buffer): ReadApk {
  if (apk.toString('latin1', 0, 4) !== 'ADBd') throw new Error('not a deflated ADB stream');
  const stream = inflateRawSync(apk.subarray(4));
  if (stream.toString('latin1', 0, 4) !== 'ADB.') throw new Error('no ADB. magic');
  const schema = stream.toString('latin1', 4, 8);
  const blocks: { type: number; payload: Buffer }[] = [];
  for (let offset = 8; offset < stream.length; ) {
    if (offset % 8 !== 0) throw new Error(`block at ${offset} is not 8-aligned`);
    const word = stream.readUInt32LE(offset);
    const [type, size] = [word >>> 30, word & 0x3fffffff];
    blocks.push({ type, payload: stream.subarray(offset + 4, offset + size) });
    offset += Math.ceil(size / 8) * 8;
  }
  if (blocks[0]?.type !== 0 || blocks.slice(1).some((block) => block.type !== 2)) throw new Error(`blocks ${blocks.map((b) => b.type)}: one ADB block, then DATA blocks only`);
  const adb = blocks[0].payload;
  if (adb[0] !== 0) throw new Error('ADB compat version is not 0');

  const tag = (value: number) => value >>> 28;
  const at = (value: number) => value & 0x0fffffff;
  // A missing slot (past an object's count) reads as null, 0.
  const int = (value = 0): number => (value === 0 ? 0 : tag(value) === 1 ? at(value) : tag(value) === 2 ? adb.readUInt32LE(at(value)) : NaN);
  const bytes = (value = 0): Buffer => {
    if (value === 0) return Buffer.alloc(0);
    const width = { 8: 1, 9: 2, 10: 4 }[tag(value)];
    if (!width) throw new Error(`value ${value.toString(16)} is not a blob`);
    return adb.subarray(at(value) + width, at(value) + width + adb.readUIntLE(at(value), width));
  };
  const text = (value = 0) => bytes(value).toString();
  /** An object's or array's values from slot 1 (slot 0 holds the count); both tags are read alike. */
  const slots = (value = 0): number[] => {
    if (value === 0) return [];
    if (tag(value) !== 0xd && tag(value) !== 0xe) throw new Error(`value ${value.toString(16)} is not an object`);
    return Array.from({ length: adb.readUInt32LE(at(value)) - 1 }, (_, i) => adb.readUInt32LE(at(value) + 4 * (i + 1)));
  };
  const acl = (value = 0) => {
    const [mode, user, group] = slots(value);
    return { mode: int(mode), user: text(user), group: text(group) };
  };

  const [infoValue, pathsValue, scriptsValue] = slots(adb.readUInt32LE(4));
  const i = slots(infoValue);
  const info = {
    name: text(i[0]),
    version: text(i[1]),
    hashes: bytes(i[2]),
    description: text(i[3]),
    arch: text(i[4]),
    license: text(i[5]),
    origin: text(i[6]),
    installedSize: int(i[11]),
    depends: slots(i[14]).map((dependency) => text(slots(dependency)[0])),
  };
  const paths = slots(pathsValue).map((dir) => {
    const [name, dirAcl, files] = slots(dir);
    return {
      name: text(name),
      ...acl(dirAcl),
      files: slots(files).map((file) => {
        const [fileName, fileAcl, size, mtime, hash] = slots(file);
        return { name: text(fileName), ...acl(fileAcl), size: int(size), mtime: int(mtime), hash: bytes(hash) };
      }),
    };
  });
  const scripts = Object.fromEntries(
    slots(scriptsValue)
      .map((value, index) => [SCRIPTS[index], value] as const)
      .filter(([, value]) => value !== 0)
      .map(([name, value]) => [name, text(value)]),
  );
  const data = blocks.slice(1).map(({ payload }) => ({ path: payload.readUInt32LE(0), file: payload.readUInt32LE(4), bytes: payload.subarray(8) }));
  const files = new Map(
    data.map(({ path, file, bytes: content }) => {
      const dir = paths[path - 1];
      return [`/${dir.name ? `${dir.name}/` : ''}${dir.files[file - 1].name}`, content];
    }),
  );
  return { stream, schema, adb, info, paths, scripts, data, files };
}
