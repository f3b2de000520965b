// `npm run package`: writes wrtapi, wrtapi-doc (the document's prose) and wrtapi-bytecode (its module
// built for this machine) in the repository root, each in both of OpenWrt's formats from the same files
// and maintainer scripts: <name>_<version>_<arch>.ipk for opkg (24.10 and earlier), laid out as
// scripts/ipkg-build lays one out (a gzipped tar holding ./debian-binary, ./data.tar.gz and
// ./control.tar.gz, every member owned by 0:0), and <name>-<version>.apk for apk-tools 3 (25.12 and
// later), as include/package-pack.mk has `apk mkpkg` build one (build/apk.ts). Entries are in a fixed
// order and carry one fixed mtime, so the same tree always gives the same bytes.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { deflateAsync, gzipAsync } from '@gfx/zopfli';
import { adbPackage, type ApkFile, type ApkInfo, type ApkScript } from './apk.js';
import { BYTECODE_MODULE_PATH, bytecodeModule } from '../shims/emu/engines.js';
import { docDir } from '../shims/emu/project.js';
import { formatReport, sizeReport, type Shipped, type SizeReport } from './package-size.js';

export interface TarEntry {
  /** `./` for the root, `./a/b/` for a directory, `./a/b/c` for a file. */
  name: string;
  mode: number;
  /** Absent for a directory. */
  data?: Buffer;
}

/**
 * Router paths whose mode is not 0644 (every directory is 0755): the programs, and the token store,
 * which holds every token's salt and hash and keeps its mode through every write (config/commit.ts).
 */
const FILE_MODES: Record<string, number> = {
  '/etc/uci-defaults/wrtapi': 0o755,
  '/etc/init.d/wrtapi': 0o755,
  '/usr/bin/wrtapi-token': 0o755,
  '/www/cgi-bin/wrtapi': 0o755,
  '/etc/config/wrtapi': 0o600,
  // wrtapi-bytecode's module, which qjs dlopen()s.
  [`/${BYTECODE_MODULE_PATH}`]: 0o755,
};
const BUNDLE_DIR = '/usr/share/wrtapi';
const BLOCK = 512;

/** A ustar archive: one 512-byte header per entry, data padded to whole blocks, two zero blocks at the end. */
export function tar(entries: TarEntry[], mtime: number): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(tarHeader(entry, mtime));
    if (entry.data) parts.push(entry.data, Buffer.alloc((BLOCK - (entry.data.length % BLOCK)) % BLOCK));
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(parts);
}

function tarHeader(entry: TarEntry, mtime: number): Buffer {
  if (Buffer.byteLength(entry.name) > 100) throw new Error(`tar entry name over 100 bytes: ${entry.name}`);
  const header = Buffer.alloc(BLOCK);
  const text = (offset: number, length: number, value: string) => header.write(value, offset, length, 'utf8');
  const octal = (offset: number, length: number, value: number) =>
    text(offset, length, value.toString(8).padStart(length - 1, '0'));
  text(0, 100, entry.name);
  octal(100, 8, entry.mode);
  octal(108, 8, 0);
  octal(116, 8, 0);
  octal(124, 12, entry.data?.length ?? 0);
  octal(136, 12, mtime);
  text(156, 1, entry.data ? '0' : '5');
  text(257, 8, 'ustar\u000000');
  // The checksum is the byte sum of the header with its own field read as eight spaces.
  text(148, 8, ' '.repeat(8));
  const sum = header.reduce((total, byte) => total + byte, 0);
  text(148, 8, `${sum.toString(8).padStart(6, '0')}\u0000 `);
  return header;
}

/** GNU tar's `--sort=name` order: depth first, the entries of each directory by name. */
function byTarName(a: TarEntry, b: TarEntry): number {
  const segments = (entry: TarEntry) => entry.name.split('/').filter((segment) => segment && segment !== '.');
  const [left, right] = [segments(a), segments(b)];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return left[i] < right[i] ? -1 : 1;
  }
  return left.length - right.length;
}

/** Files (not directories) under `dir`, as paths relative to it with a leading slash. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name), `${prefix}/${entry.name}`) : [`${prefix}/${entry.name}`],
  );
}

/**
 * The order of the data archive's files, by the first pattern a file's path in the bundle matches
 * (none: last). Deflate finds a repeat only in the 32 KB before it, so like goes beside like: the
 * JSON first, the tables, each resource's doc beside its mapping (they name the same members), the
 * patterns, the document's fixed part; then the code, the chunks shared by the others first, the
 * definitions' chunks last. Files outside the bundle go with the code. The package is 2.6 KB smaller
 * than with the files in name order (113,639 to 110,600 B), the core 0.7 KB (58,375 to 57,658).
 */
const DATA_ORDER = [
  /^\/(generated\/tables|mappings)\//,
  /^\/(generated\/mappings|docs)\/(?!patterns\.js$)/,
  /^\/docs\/patterns\.js$/,
  /^\/routes\/openapi-fixed\.js$/,
  /^\/routes\//,
  /^(?!\/resources\/)/,
];
/** The group whose files are ordered by file name, so that a resource's doc and mapping sit together. */
const PAIRED = 1;

/**
 * The data archive's entries: every directory above the given router files, in name order, each before
 * what it holds; then the files in DATA_ORDER, each group in name order (the paired one by file name).
 */
function dataEntries(files: Map<string, Buffer>): TarEntry[] {
  const directories = new Set<string>();
  for (const path of files.keys()) {
    for (let slash = path.indexOf('/', 1); slash !== -1; slash = path.indexOf('/', slash + 1)) {
      directories.add(path.slice(0, slash + 1));
    }
  }
  // A file's place in DATA_ORDER, and in the paired group its file name.
  const place = ({ name }: TarEntry): [number, string] => {
    const inBundle = name.startsWith(`.${BUNDLE_DIR}/`) ? name.slice(BUNDLE_DIR.length + 1) : '';
    const found = DATA_ORDER.findIndex((pattern) => pattern.test(inBundle));
    return found === -1 ? [DATA_ORDER.length, ''] : [found, found === PAIRED ? name.slice(name.lastIndexOf('/') + 1) : ''];
  };
  const byPlace = (a: TarEntry, b: TarEntry) => {
    const [[groupA, keyA], [groupB, keyB]] = [place(a), place(b)];
    return groupA - groupB || (keyA < keyB ? -1 : keyA > keyB ? 1 : 0);
  };
  return [
    ...[{ name: './', mode: 0o755 }, ...[...directories].map((dir) => ({ name: `.${dir}`, mode: 0o755 }))].sort(byTarName),
    ...[...files].map(([path, data]) => ({ name: `.${path}`, mode: FILE_MODES[path] ?? 0o644, data })).sort(byTarName).sort(byPlace),
  ];
}

/** The package's files by router path: `packaging/files/` and the bundle under /usr/share/wrtapi. */
function packageFiles(root: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const packaging = join(root, 'packaging/files');
  for (const path of filesUnder(packaging)) files.set(path, readFileSync(join(packaging, path)));
  const bundle = join(root, 'dist/qjs');
  for (const path of filesUnder(bundle)) files.set(BUNDLE_DIR + path, readFileSync(join(bundle, path)));
  return files;
}

type Gzip = (bytes: Buffer) => Promise<Buffer>;

/**
 * The shipped package's gzip: zopfli's deflate, which any gunzip reads, makes it 3.6% smaller than
 * zlib's level 9 (139,716 to 134,695 bytes when it came). Its default 15 iterations gain 130 bytes
 * more for three times the second one takes.
 */
const zopfli: Gzip = async (bytes) => Buffer.from(await gzipAsync(bytes, { numiterations: 1 }));

/**
 * What the budgets are weighed with: zopfli takes about a second a package, and the report weighs
 * one package per group of parts. zlib's stream is a few percent larger for every part, so what the
 * report says a part adds is what it adds to the shipped package, or a little more.
 */
const zlibLevel9: Gzip = async (bytes) => gzipSync(bytes, { level: 9 });

/** A package's control file (`@INSTALLED_SIZE@` to fill in) and maintainer scripts, as control.tar.gz entries. */
interface Control {
  text: string;
  scripts: TarEntry[];
}

/** The .ipk of these files, and its Installed-Size: the uncompressed data archive's length, as ipkg-build measures it. */
async function ipkOf(files: Map<string, Buffer>, control: Control, gzip: Gzip): Promise<{ ipk: Buffer; installedSize: number }> {
  const mtime = Number(process.env.SOURCE_DATE_EPOCH ?? 0);
  const data = tar(dataEntries(files), mtime);
  const controlEntries: TarEntry[] = [
    { name: './', mode: 0o755 },
    { name: './control', mode: 0o644, data: Buffer.from(control.text.replace('@INSTALLED_SIZE@', String(data.length))) },
    ...control.scripts,
  ].sort(byTarName);
  // ipkg-build names the three members in this order on its tar command line.
  const ipk = await gzip(
    tar(
      [
        { name: './debian-binary', mode: 0o644, data: Buffer.from('2.0\n') },
        { name: './data.tar.gz', mode: 0o644, data: await gzip(data) },
        { name: './control.tar.gz', mode: 0o644, data: await gzip(tar(controlEntries, mtime)) },
      ],
      mtime,
    ),
  );
  return { ipk, installedSize: data.length };
}

type Deflate = (bytes: Buffer) => Promise<Buffer>;

/** The .apk's compression, the raw deflate stream after `ADBd`: zopfli's too, 3.7% smaller than mkpkg's zlib level 9. */
const zopfliRaw: Deflate = async (bytes) => Buffer.from(await deflateAsync(bytes, { numiterations: 1 }));

/** A control file's fields by name. */
function controlFields(text: string): Map<string, string> {
  return new Map([...text.matchAll(/^([A-Za-z-]+): (.*)$/gm)].map((match) => [match[1], match[2]]));
}

/** The apk package info of a control file, as include/package-pack.mk passes the same values to `apk mkpkg`. */
function apkInfo(control: Control): ApkInfo {
  const fields = controlFields(control.text);
  const architecture = fields.get('Architecture')!;
  return {
    name: fields.get('Package')!,
    version: fields.get('Version')!,
    description: fields.get('Description')!,
    arch: architecture === 'all' ? 'noarch' : architecture,
    license: fields.get('License')!,
    origin: fields.get('Source')!,
    depends: fields.get('Depends')!.split(',').map((dependency) => dependency.trim()).filter(Boolean),
  };
}

/** The apk scripts each opkg hook is, as include/package-pack.mk passes them: postinst also runs after an upgrade. */
const APK_HOOKS: Record<string, ApkScript[]> = { './postinst': ['post-install', 'post-upgrade'], './prerm': ['pre-deinstall'], './postrm': ['post-deinstall'] };

/**
 * The .apk of these files, and its installed size (the files' bytes, as mkpkg counts them). As 25.12's
 * package-pack.mk, the files gain /lib/apk/packages/<name>.list (every file, which OpenWrt's
 * default_postinst and default_prerm read), and for a package with conffiles <name>.conffiles and
 * <name>.conffiles_static (each with its SHA-256 as built). What keeps a changed conffile through an
 * upgrade is apk itself: it never overwrites a file under /etc that differs from the one it installed.
 */
async function apkOf(files: Map<string, Buffer>, control: Control, deflate: Deflate): Promise<{ apk: Buffer; installedSize: number }> {
  const meta = `/lib/apk/packages/${controlFields(control.text).get('Package')}`;
  const staged = new Map<string, ApkFile>([...files].map(([path, data]) => [path, { mode: FILE_MODES[path] ?? 0o644, data }]));
  const add = (path: string, text: string) => staged.set(path, { mode: 0o644, data: Buffer.from(text) });
  add(`${meta}.list`, [...files.keys()].sort().map((path) => `${path}\n`).join(''));
  const conffiles = control.scripts.find((entry) => entry.name === './conffiles')?.data?.toString();
  if (conffiles) {
    add(`${meta}.conffiles`, conffiles);
    const sums = conffiles.split('\n').filter((path) => files.has(path));
    add(`${meta}.conffiles_static`, sums.map((path) => `${path} ${createHash('sha256').update(files.get(path)!).digest('hex')}\n`).join(''));
  }
  const scripts: Partial<Record<ApkScript, Buffer>> = {};
  for (const entry of control.scripts) for (const type of APK_HOOKS[entry.name] ?? []) scripts[type] = entry.data;
  const { stream, installedSize } = adbPackage(apkInfo(control), staged, scripts, Number(process.env.SOURCE_DATE_EPOCH ?? 0));
  return { apk: Buffer.concat([Buffer.from('ADBd'), await deflate(stream)]), installedSize };
}

/** One package in one format: its file name as OpenWrt names it, its bytes and installed size. */
export interface Built {
  fileName: string;
  bytes: Buffer;
  installedSize: number;
}

/** A package in both formats, from the same files and the same control file and maintainer scripts. */
async function bothFormats(files: Map<string, Buffer>, control: Control): Promise<{ ipk: Built; apk: Built }> {
  const fields = controlFields(control.text);
  const [name, version] = [fields.get('Package')!, fields.get('Version')!];
  const ipk = await ipkOf(files, control, zopfli);
  const apk = await apkOf(files, control, zopfliRaw);
  return {
    ipk: { fileName: `${name}_${version}_${fields.get('Architecture')}.ipk`, bytes: ipk.ipk, installedSize: ipk.installedSize },
    apk: { fileName: `${name}-${version}.apk`, bytes: apk.apk, installedSize: apk.installedSize },
  };
}

/** Fills in a control file template of packaging/ from package.json. */
function controlText(root: string, template: string, extra: Record<string, string> = {}): string {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const values: Record<string, string> = { VERSION: manifest.version, LICENSE: manifest.license, DESCRIPTION: manifest.description, ...extra };
  return readFileSync(join(root, 'packaging', template), 'utf8').replace(/@(VERSION|LICENSE|DESCRIPTION|ARCH)@/g, (_, key: string) => values[key]);
}

/** wrtapi's control file and hooks; `version` replaces package.json's (a test builds the next version). */
function wrtapiControl(root: string, version?: string): Control {
  const packaging = join(root, 'packaging');
  return {
    text: controlText(root, 'control', version ? { VERSION: version } : {}),
    scripts: [
      { name: './conffiles', mode: 0o644, data: readFileSync(join(packaging, 'conffiles')) },
      { name: './postinst', mode: 0o755, data: readFileSync(join(packaging, 'postinst')) },
      { name: './prerm', mode: 0o755, data: readFileSync(join(packaging, 'prerm')) },
    ],
  };
}

/** wrtapi in both formats, and its files by router path. */
export async function buildPackage(root: string, version?: string): Promise<{ files: Map<string, Buffer>; ipk: Built; apk: Built }> {
  const files = packageFiles(root);
  return { files, ...(await bothFormats(files, wrtapiControl(root, version))) };
}

/** OpenWrt's architecture names for the machines `npm run package` may run on. */
const OPENWRT_ARCH: Record<string, string> = { x64: 'x86_64', arm64: 'aarch64_generic' };

/**
 * wrtapi-bytecode for this machine: the module as the native engine loads it, built against the
 * same QuickJS sources. A router's is built by packaging/wrtapi-bytecode/Makefile against its feed's quickjs.
 */
export async function buildBytecodePackage(root: string, module: string): Promise<{ ipk: Built; apk: Built }> {
  const arch = OPENWRT_ARCH[process.arch] ?? process.arch;
  const files = new Map([[`/${BYTECODE_MODULE_PATH}`, readFileSync(module)]]);
  const control = {
    text: controlText(root, 'wrtapi-bytecode/control', { ARCH: arch }),
    scripts: [{ name: './prerm', mode: 0o755, data: readFileSync(join(root, 'packaging/wrtapi-bytecode/prerm')) }],
  };
  return bothFormats(files, control);
}

/** wrtapi-doc: the document's prose (build/generators/prose.ts), which /openapi.json and /schema merge in when it is installed. */
export async function buildDocPackage(root: string): Promise<{ files: Map<string, Buffer>; ipk: Built; apk: Built }> {
  const files = new Map(filesUnder(docDir).map((path) => [`/usr/share/wrtapi-doc${path}`, readFileSync(join(docDir, path))]));
  const control = {
    text: controlText(root, 'wrtapi-doc/control'),
    scripts: ['postinst', 'postrm'].map((hook) => ({ name: `./${hook}`, mode: 0o755, data: readFileSync(join(root, 'packaging/wrtapi-doc', hook)) })),
  };
  return { files, ...(await bothFormats(files, control)) };
}

const shipped = ({ ipk, apk, files }: { ipk: Built; apk: Built; files: Map<string, Buffer> }): Shipped => ({
  package: ipk.bytes.length,
  apk: apk.bytes.length,
  installed: [...files.values()].reduce((total, data) => total + data.length, 0),
});

/** What the packages cost, and what each resource adds to wrtapi: see package-size.ts. */
export async function packageSizes(root: string): Promise<SizeReport> {
  const control = wrtapiControl(root);
  const [wrtapi, doc] = await Promise.all([buildPackage(root), buildDocPackage(root)]);
  return sizeReport(packageFiles(root), BUNDLE_DIR, async (files) => (await ipkOf(files, control, zlibLevel9)).ipk.length, shipped(wrtapi), shipped(doc));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const [wrtapi, doc] = [await buildPackage(root), await buildDocPackage(root)];
  for (const [name, { files }] of [['wrtapi', wrtapi], ['wrtapi-doc', doc]] as const) {
    console.log(`${name} installs ${[...files.values()].reduce((total, data) => total + data.length, 0)} bytes in ${files.size} files`);
  }
  const bytecode = await buildBytecodePackage(root, await bytecodeModule());
  for (const built of [wrtapi.ipk, wrtapi.apk, doc.ipk, doc.apk, bytecode.ipk, bytecode.apk]) {
    writeFileSync(join(root, built.fileName), built.bytes);
    console.log(`${built.fileName}: ${built.bytes.length} bytes (installed size ${built.installedSize})`);
  }
  console.log('');
  const report = await packageSizes(root);
  console.log(formatReport(report));
  process.exitCode = report.problems.length ? 1 : 0;
}
