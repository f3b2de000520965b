// The .apk for apk-tools 3 (OpenWrt 25.12 and later), read back by test/support/adb.ts; and, when
// WRTAPI_APK names an apk-tools 3 binary, checked by apk itself: dumped, rebuilt by `apk mkpkg` from
// the tree it extracts, installed into an empty root, upgraded and deleted.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBytecodePackage, buildPackage } from '../../build/package.js';
import { bytecodeModule } from '../../shims/emu/engines.js';
import { projectRoot } from '../../shims/emu/project.js';
import { readApk, type ReadApk } from '../support/adb.js';
import { apkTool, runApk, stubApk } from '../support/package-tools.js';
import { newRouter } from '../support/router.js';

const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'));
const built = await buildPackage(projectRoot);
const apk = readApk(built.apk.bytes);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes);
const script = (name: string) => readFileSync(join(projectRoot, 'packaging', name), 'utf8');

/** What 25.12's package-pack.mk adds to a package's files, below /lib/apk/packages. */
function metadata(name: string, files: Map<string, Buffer>, conffiles?: string): Map<string, Buffer> {
  const meta = new Map([[`/lib/apk/packages/${name}.list`, Buffer.from([...files.keys()].sort().map((path) => `${path}\n`).join(''))]]);
  if (conffiles) {
    meta.set(`/lib/apk/packages/${name}.conffiles`, Buffer.from(conffiles));
    const sums = conffiles.split('\n').filter(Boolean).map((path) => `${path} ${sha256(files.get(path)!).digest('hex')}\n`);
    meta.set(`/lib/apk/packages/${name}.conffiles_static`, Buffer.from(sums.join('')));
  }
  return meta;
}

/** Every file of the package with its mode, as the paths list them, against the files and modes expected. */
function assertFiles(read: ReadApk, expected: Map<string, { mode: number; data: Buffer }>) {
  const listed = read.paths.flatMap((dir) => dir.files.map((file) => ({ path: `/${dir.name ? `${dir.name}/` : ''}${file.name}`, ...file })));
  assert.equal(listed.map((file) => file.path).sort(), [...expected.keys()].sort());
  for (const file of listed) {
    const { mode, data } = expected.get(file.path)!;
    assert.equal({ path: file.path, mode: file.mode, user: file.user, group: file.group, size: file.size, mtime: file.mtime }, { path: file.path, mode, user: 'root', group: 'root', size: data.length, mtime: 0 });
    assert.ok(file.hash.equals(sha256(data).digest()), `${file.path}: hash`);
    assert.ok((read.files.get(file.path) ?? Buffer.alloc(0)).equals(data), `${file.path}: its DATA block holds its bytes`);
  }
  // Every directory of the tree, the root first, sorted, each root's and 0755; the DATA blocks in their order.
  const directories = new Set(['']);
  for (const path of expected.keys()) for (let i = path.indexOf('/', 1); i !== -1; i = path.indexOf('/', i + 1)) directories.add(path.slice(1, i));
  assert.equal(read.paths.map((dir) => dir.name), [...directories].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
  for (const dir of read.paths) assert.equal({ name: dir.name, mode: dir.mode, user: dir.user, group: dir.group }, { name: dir.name, mode: 0o755, user: 'root', group: 'root' });
  const order = read.paths.flatMap((dir, i) => dir.files.map((file, j) => ({ path: i + 1, file: j + 1, size: file.size }))).filter((file) => file.size > 0);
  assert.equal(read.data.map(({ path, file }) => ({ path, file })), order.map(({ path, file }) => ({ path, file })));
  assert.is(read.info.installedSize, [...expected.values()].reduce((total, { data }) => total + data.length, 0));
}

test('the apk is a deflated ADB stream of the package schema: one ADB block, then a DATA block per file with bytes', () => {
  assert.is(built.apk.fileName, `wrtapi-${manifest.version}.apk`);
  assert.is(apk.stream.toString('latin1', 0, 4), 'ADB.');
  assert.is(apk.schema, 'pckg');
  assert.is(apk.adb.readUInt16LE(0), 0, 'ADB format version 0, compatible with 0');
  // The unique id is the start of the ADB block's SHA-256, taken with the id zero, as apk mkpkg takes it.
  const zeroed = Buffer.from(apk.adb);
  zeroed.fill(0, apk.adb.indexOf(apk.info.hashes), apk.adb.indexOf(apk.info.hashes) + 20);
  assert.ok(apk.info.hashes.equals(sha256(zeroed).digest().subarray(0, 20)));
});

test("the package info carries OpenWrt's fields: name, version, description, noarch, license, origin, dependencies", () => {
  const { hashes, installedSize, ...info } = apk.info;
  assert.equal(info, {
    name: 'wrtapi',
    version: manifest.version,
    description: manifest.description,
    arch: 'noarch',
    license: manifest.license,
    origin: 'wrtapi',
    depends: ['quickjs', 'uhttpd'],
  });
  assert.is(hashes.length, 20);
  assert.ok(installedSize > 0);
});

test('the files are the staged tree with its modes (the token store 0600, the programs 0755), root-owned, plus the list and conffiles 25.12 keeps', () => {
  const modes: Record<string, number> = { '/etc/config/wrtapi': 0o600, '/etc/init.d/wrtapi': 0o755, '/etc/uci-defaults/wrtapi': 0o755, '/usr/bin/wrtapi-token': 0o755, '/www/cgi-bin/wrtapi': 0o755 };
  const expected = new Map([...built.files].map(([path, data]) => [path, { mode: modes[path] ?? 0o644, data }]));
  for (const [path, data] of metadata('wrtapi', built.files, '/etc/config/wrtapi\n')) expected.set(path, { mode: 0o644, data });
  assertFiles(apk, expected);
  assert.match(apk.files.get('/lib/apk/packages/wrtapi.conffiles_static')!.toString(), /^\/etc\/config\/wrtapi [0-9a-f]{64}\n$/);
});

test("the scripts are the ipk's hooks: postinst after an install and after an upgrade, prerm before removal", () => {
  assert.equal(apk.scripts, { 'post-install': script('postinst'), 'pre-deinstall': script('prerm'), 'post-upgrade': script('postinst') });
});

test('the apk is the same bytes every time it is built, and a new version changes only what names it', async () => {
  const again = await buildPackage(projectRoot);
  assert.ok(again.apk.bytes.equals(built.apk.bytes));
  const next = await buildPackage(projectRoot, '3.0.1');
  assert.is(next.apk.fileName, 'wrtapi-3.0.1.apk');
  assert.is(readApk(next.apk.bytes).info.version, '3.0.1');
  assert.equal(readApk(next.apk.bytes).paths, apk.paths);
});

test('wrtapi-bytecode.apk: the module 0755 for this machine, in both formats alike', async () => {
  const bytecode = await buildBytecodePackage(projectRoot, await bytecodeModule());
  const read = readApk(bytecode.apk.bytes);
  const arch = bytecode.ipk.fileName.slice(`wrtapi-bytecode_${manifest.version}_`.length, -'.ipk'.length);
  assert.is(bytecode.apk.fileName, `wrtapi-bytecode-${manifest.version}.apk`);
  assert.equal({ name: read.info.name, arch: read.info.arch, depends: read.info.depends }, { name: 'wrtapi-bytecode', arch, depends: ['quickjs', 'wrtapi'] });
  const module = readFileSync(await bytecodeModule());
  const files = new Map<string, { mode: number; data: Buffer }>([['/usr/lib/wrtapi/bytecode.so', { mode: 0o755, data: module }]]);
  for (const [path, data] of metadata('wrtapi-bytecode', new Map([['/usr/lib/wrtapi/bytecode.so', module]]))) files.set(path, { mode: 0o644, data });
  assertFiles(read, files);
  assert.equal(read.scripts, { 'pre-deinstall': script('wrtapi-bytecode/prerm') });
  assert.ok((await buildBytecodePackage(projectRoot, await bytecodeModule())).apk.bytes.equals(bytecode.apk.bytes), 'the same bytes every time');
});

/** wrtapi's stanza in an apk database: its lines from P: to the blank line. */
const stanza = (database: string) => /^P:wrtapi\n(?:.+\n)*/m.exec(database)?.[0];

test("the emulator's 25.12 router records wrtapi installed as apk records it from this .apk (the lines its apk stand-in keeps)", async () => {
  const router = await newRouter({ packageManager: 'apk' });
  try {
    const { name, version, arch, depends } = apk.info;
    assert.is(stanza(readFileSync(router.path('/lib/apk/db/installed'), 'utf8')), `P:${name}\nV:${version}\nA:${arch}\nD:${depends.join(' ')}\n`);
    assert.match(readFileSync(router.path('/var/emu/apk/available'), 'utf8'), new RegExp(`^wrtapi ${version.replaceAll('.', '\\.')}$`, 'm'));
  } finally {
    await router.cleanup();
  }
});

/** A scratch directory for apk-tools, removed after `use`. */
async function scratch(use: (dir: string) => void | Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), 'wrtapi-apk-'));
  try {
    await use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function apkCommand(args: string[]): string {
  const result = spawnSync(apkTool!, args, { encoding: 'utf8', env: { PATH: process.env.PATH!, SOURCE_DATE_EPOCH: '0' } });
  assert.is(result.status, 0, `apk ${args.join(' ')}: ${result.stdout}${result.stderr}`);
  return result.stdout;
}

if (!apkTool) console.log('package-apk: WRTAPI_APK names no apk-tools 3 binary; the checks by apk itself are skipped');
else {
  test('apk-tools 3 dumps the package, and `apk mkpkg` builds the very same ADB from the tree apk extracts', async () => {
    await scratch((dir) => {
      writeFileSync(join(dir, built.apk.fileName), built.apk.bytes);
      const dump = apkCommand(['adbdump', join(dir, built.apk.fileName)]);
      assert.match(dump, /^#%SCHEMA: 676B6370$/m);
      assert.match(dump, new RegExp(`^  name: wrtapi\\n  version: ${manifest.version.replaceAll('.', '\\.')}$`, 'm'));
      assert.match(dump, /^      - name: wrtapi\n        acl:\n          mode: 0600\n          user: root\n          group: root$/m);
      const tree = join(dir, 'tree');
      mkdirSync(tree, { mode: 0o755 });
      apkCommand(['extract', '--allow-untrusted', '--destination', tree, join(dir, built.apk.fileName)]);
      const scriptArgs = Object.entries(apk.scripts).flatMap(([type, text]) => {
        writeFileSync(join(dir, type), text);
        return ['--script', `${type}:${join(dir, type)}`];
      });
      const info = ['name:wrtapi', `version:${manifest.version}`, `description:${manifest.description}`, 'arch:noarch', `license:${manifest.license}`, 'origin:wrtapi', 'url:', 'maintainer:', 'depends:uhttpd quickjs'];
      const output = join(dir, 'mkpkg.adb');
      apkCommand(['mkpkg', '--compression', 'none', '--no-xattrs', ...info.flatMap((field) => ['--info', field]), ...scriptArgs, '--files', tree, '--output', output]);
      assert.ok(readFileSync(output).equals(apk.stream), 'apk mkpkg wrote other bytes');
    });
  });

  test('apk-tools 3 installs wrtapi and wrtapi-bytecode into an empty root with their modes and owners, upgrades wrtapi and deletes both', async () => {
    await scratch(async (dir) => {
      const root = join(dir, 'root');
      const modes = new Map(apk.paths.flatMap((path) => path.files.map((file) => [`/${path.name}/${file.name}`, file.mode])));
      for (const name of ['quickjs', 'uhttpd']) writeFileSync(join(dir, `${name}.apk`), stubApk(name));
      writeFileSync(join(dir, built.apk.fileName), built.apk.bytes);
      // A router of the architecture wrtapi-bytecode was built for: apk installs no other.
      const bytecode = (await buildBytecodePackage(projectRoot, await bytecodeModule())).apk;
      const arch = readApk(bytecode.bytes).info.arch;
      runApk(root, ['add', '--initdb', '--arch', arch, '--no-scripts', join(dir, 'quickjs.apk'), join(dir, 'uhttpd.apk'), join(dir, built.apk.fileName)]);
      for (const [path, data] of apk.files) {
        const stat = statSync(join(root, path));
        assert.ok(readFileSync(join(root, path)).equals(data), path);
        assert.equal({ path, mode: stat.mode & 0o7777, uid: stat.uid, gid: stat.gid }, { path, mode: modes.get(path), uid: 0, gid: 0 });
      }
      const database = () => readFileSync(join(root, 'lib/apk/db/installed'), 'utf8');
      assert.match(database(), new RegExp(`^P:wrtapi\\nV:${manifest.version.replaceAll('.', '\\.')}\\nA:noarch\\n`, 'm'));
      assert.match(database(), /^D:quickjs uhttpd$/m);
      // The emulator's record of wrtapi is these lines of apk's own.
      const emulated = await newRouter({ packageManager: 'apk' });
      const kept = stanza(database())!.split('\n').filter((line) => /^[PVAD]:/.test(line));
      assert.is(stanza(readFileSync(emulated.path('/lib/apk/db/installed'), 'utf8')), `${kept.join('\n')}\n`);
      await emulated.cleanup();
      assert.match(database(), /^F:etc\/config\nR:wrtapi\na:0:0:600$/m);

      writeFileSync(join(dir, bytecode.fileName), bytecode.bytes);
      runApk(root, ['add', '--no-scripts', join(dir, bytecode.fileName)]);
      assert.is(statSync(join(root, 'usr/lib/wrtapi/bytecode.so')).mode & 0o7777, 0o755);
      assert.match(database(), /^P:wrtapi-bytecode\nV:[^\n]+\nA:[^\n]+\n[^]*?^D:quickjs wrtapi$/m);

      const upgrade = await buildPackage(projectRoot, '3.0.1');
      writeFileSync(join(dir, upgrade.apk.fileName), upgrade.apk.bytes);
      runApk(root, ['add', '--no-scripts', join(dir, upgrade.apk.fileName)]);
      assert.match(database(), /^P:wrtapi\nV:3\.0\.1\n/m);
      assert.is(statSync(join(root, 'etc/config/wrtapi')).mode & 0o777, 0o600);

      runApk(root, ['del', '--no-scripts', 'wrtapi-bytecode', 'wrtapi']);
      assert.not.match(database(), /^P:wrtapi(-bytecode)?$/m);
      assert.not.ok(existsSync(join(root, 'usr/lib/wrtapi/bytecode.so')));
      // Nothing of it is left: its configuration was never changed, so apk deleted that too.
      for (const path of apk.files.keys()) assert.not.ok(existsSync(join(root, path)), path);
    });
  });
}

test.run();
