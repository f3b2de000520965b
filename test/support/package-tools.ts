// What opkg and apk-tools 3 do to a router's files when they install, upgrade and remove wrtapi's
// package, for the package tests: opkg's steps, and apk's, either by apk-tools 3 itself (the binary
// WRTAPI_APK names) or by the same steps done here.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync, gunzipSync } from 'node:zlib';
import * as assert from 'uvu/assert';
import { adbPackage } from '../../build/apk.js';
import type { Built } from '../../build/package.js';
import { findSection } from '../../src/uci/index.js';
import { parseUci } from '../../src/uci/parse.js';
import { readApk } from './adb.js';
import type { Router } from './router.js';

export const API_ALIAS = '/api/v3=/cgi-bin/wrtapi';
/** apk-tools 3, when the environment names one: the checks by apk itself run only then. */
export const apkTool = process.env.WRTAPI_APK;

export interface Member {
  name: string;
  mode: number;
  uid: number;
  gid: number;
  /** '0' a file, '5' a directory. */
  type: string;
  data: Buffer;
}

/** Reads a ustar archive as opkg's unarchiver does, checking every header's checksum on the way. */
export function untar(archive: Buffer): Member[] {
  const members: Member[] = [];
  for (let offset = 0; !archive.subarray(offset, offset + 512).every((byte) => byte === 0); ) {
    const header = archive.subarray(offset, offset + 512);
    const text = (start: number, length: number) => header.toString('utf8', start, start + length).replace(/\0[^]*$/, '');
    const octal = (start: number, length: number) => parseInt(text(start, length), 8);
    const sum = header.reduce((total, byte, i) => total + (i >= 148 && i < 156 ? 0x20 : byte), 0);
    assert.is(sum, octal(148, 8), `checksum of ${text(0, 100)}`);
    assert.is(text(257, 6), 'ustar');
    const size = octal(124, 12);
    const data = archive.subarray(offset + 512, offset + 512 + size);
    members.push({ name: text(0, 100), mode: octal(100, 8), uid: octal(108, 8), gid: octal(116, 8), type: text(156, 1), data });
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return members;
}

export function member(members: Member[], name: string): Member {
  const found = members.find((candidate) => candidate.name === name);
  assert.ok(found, `${name} is missing`);
  return found!;
}

/** An .ipk's data and control archives. */
export function ipkParts(ipk: Buffer): { data: Member[]; control: Member[] } {
  const outer = untar(gunzipSync(ipk));
  return { data: untar(gunzipSync(member(outer, './data.tar.gz').data)), control: untar(gunzipSync(member(outer, './control.tar.gz').data)) };
}

export function apiAliases(router: Router): string[] {
  const main = findSection(parseUci(readFileSync(router.path('/etc/config/uhttpd'), 'utf8')), 'main')!;
  const aliases = main.options.get('alias') ?? [];
  return (typeof aliases === 'string' ? [aliases] : aliases).filter((alias) => alias === API_ALIAS);
}

export function initLog(router: Router): string {
  const log = router.path('/var/log/init.log');
  return existsSync(log) ? readFileSync(log, 'utf8') : '';
}

/** Runs a maintainer script as the tools do, `/bin/sh -c '<script> <arguments>'`, on the router's files. */
export function runScript(router: Router, name: string, script: Buffer | string, args: string, env: Record<string, string> = {}) {
  const path = router.path(`/tmp/wrtapi.${name}`);
  writeFileSync(path, script, { mode: 0o755 });
  // The router's qjs (the sandbox's stand-in) runs the hooks' programs on this run's engine.
  const result = spawnSync('/bin/sh', ['-c', `${path} ${args}`], { env: { PATH: process.env.PATH!, WRTAPI_ROOT: router.root, WRTAPI_EMU_ENGINE: router.engine, ...env }, encoding: 'utf8' });
  rmSync(path);
  assert.is(result.status, 0, `${name} ${args}: ${result.stderr}`);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const onDisk = (router: Router, path: string) => (existsSync(router.path(path)) ? sha256(readFileSync(router.path(path))) : undefined);

/** A package tool's three steps on one router, each with the package built in both formats. */
export interface PackageTool {
  name: string;
  install(built: { ipk: Built; apk: Built }): void;
  upgrade(built: { ipk: Built; apk: Built }): void;
  remove(): void;
}

/**
 * opkg: a package's files written over the router's, but for a conffile changed since its package
 * installed it (opkg records its hash then), which stays as it is; `postinst configure` after each.
 * An upgrade runs no hook of the old package. Removing runs `prerm remove`, then deletes the files
 * but for a changed conffile.
 */
export function opkg(router: Router): PackageTool {
  let installed: { files: Map<string, Member>; conffiles: Map<string, string>; control: Member[] } | undefined;
  const unpack = (ipk: Buffer) => {
    const { data, control } = ipkParts(ipk);
    const files = new Map(data.filter((entry) => entry.type === '0').map((entry) => [entry.name.slice(1), entry]));
    const listed = member(control, './conffiles').data.toString().split('\n').filter(Boolean);
    const conffiles = new Map(listed.map((path) => [path, sha256(files.get(path)!.data)]));
    for (const entry of data.filter((entry) => entry.type === '5')) mkdirSync(router.path(entry.name), { recursive: true });
    for (const [path, entry] of files) {
      const recorded = installed?.conffiles.get(path);
      if (recorded && onDisk(router, path) !== recorded) continue;
      writeFileSync(router.path(path), entry.data);
      chmodSync(router.path(path), entry.mode);
    }
    for (const path of installed?.files.keys() ?? []) if (!files.has(path)) rmSync(router.path(path), { force: true });
    installed = { files, conffiles, control };
    runScript(router, 'postinst', member(control, './postinst').data, 'configure');
  };
  return {
    name: 'opkg',
    install: (built) => unpack(built.ipk.bytes),
    upgrade: (built) => unpack(built.ipk.bytes),
    remove() {
      runScript(router, 'prerm', member(installed!.control, './prerm').data, 'remove');
      for (const path of installed!.files.keys()) {
        const recorded = installed!.conffiles.get(path);
        if (!recorded || onDisk(router, path) === recorded) rmSync(router.path(path), { force: true });
      }
    },
  };
}

/** An empty package of this name, as apk mkpkg builds one: what wrtapi's dependencies are in an apk test. */
export function stubApk(name: string): Buffer {
  const { stream } = adbPackage({ name, version: '1-r1', description: name, arch: 'noarch', license: 'MIT', origin: name, depends: [] }, new Map(), {}, 0);
  return Buffer.concat([Buffer.from('ADBd'), deflateRawSync(stream)]);
}

/**
 * apk-tools 3 as src/database.c installs: a file under /etc (a protected path, but /etc/apk) that is
 * on the router without being the one the installed package recorded is kept, and the package's one,
 * when it differs, written beside it as `.apk-new`; every other file is written. post-install runs
 * after an install (argument: the version), post-upgrade after an upgrade (the new and old version).
 * Removing runs pre-deinstall, then deletes the package's files but for a changed protected one, and
 * the `.apk-new` files under protected paths.
 */
export function apkSteps(router: Router): PackageTool {
  let installed: { version: string; hashes: Map<string, string>; scripts: Record<string, string> } | undefined;
  const isProtected = (path: string) => path.startsWith('/etc/') && !path.startsWith('/etc/apk/');
  const extract = (apk: Buffer) => {
    const { info, paths, files, scripts } = readApk(apk);
    const hashes = new Map<string, string>();
    for (const dir of paths) {
      if (dir.name) mkdirSync(router.path(`/${dir.name}`), { recursive: true, mode: dir.mode });
      for (const file of dir.files) {
        const path = `${dir.name ? `/${dir.name}` : ''}/${file.name}`;
        const data = files.get(path) ?? Buffer.alloc(0);
        hashes.set(path, file.hash.toString('hex'));
        const disk = onDisk(router, path);
        let target = router.path(path);
        if (isProtected(path) && disk !== undefined && disk !== installed?.hashes.get(path)) {
          if (disk === file.hash.toString('hex')) continue;
          target += '.apk-new';
        }
        writeFileSync(target, data);
        chmodSync(target, file.mode);
      }
    }
    for (const path of installed?.hashes.keys() ?? []) if (!hashes.has(path)) rmSync(router.path(path), { force: true });
    return { version: info.version, hashes, scripts };
  };
  return {
    name: 'apk (its steps)',
    install(built) {
      installed = extract(built.apk.bytes);
      runScript(router, 'post-install', installed.scripts['post-install'], installed.version);
    },
    upgrade(built) {
      const old = installed!.version;
      installed = extract(built.apk.bytes);
      runScript(router, 'post-upgrade', installed.scripts['post-upgrade'], `${installed.version} ${old}`);
    },
    remove() {
      runScript(router, 'pre-deinstall', installed!.scripts['pre-deinstall'], installed!.version);
      for (const [path, hash] of installed!.hashes) {
        if (!isProtected(path) || onDisk(router, path) === hash) rmSync(router.path(path), { force: true });
        if (isProtected(path)) rmSync(router.path(`${path}.apk-new`), { force: true });
      }
    },
  };
}

/** Runs apk-tools 3 on a root, offline, trusting unsigned packages, its scripts run with this environment. */
export function runApk(root: string, args: string[], env: Record<string, string> = {}): string {
  const result = spawnSync(apkTool!, ['--root', root, '--allow-untrusted', '--no-network', '--no-cache', '--force-no-chroot', '--preserve-env', ...args], {
    env: { PATH: process.env.PATH!, ...env },
    encoding: 'utf8',
  });
  assert.is(result.status, 0, `apk ${args.join(' ')}: ${result.stdout}${result.stderr}`);
  return result.stdout;
}

/**
 * apk-tools 3 itself, installing from files: wrtapi's dependencies as empty packages, then the package;
 * its scripts run on the router's files (WRTAPI_ROOT) without a chroot, the router having no shell of its own.
 */
export function apkTool3(router: Router): PackageTool {
  const dir = router.path('/tmp/apk-test');
  const scriptEnv = { WRTAPI_ROOT: router.root, WRTAPI_EMU_ENGINE: router.engine };
  const add = (packages: Record<string, Buffer>, options: string[]) => {
    mkdirSync(dir);
    for (const [name, bytes] of Object.entries(packages)) writeFileSync(join(dir, name), bytes);
    runApk(router.root, ['add', ...options, ...Object.keys(packages).map((name) => join(dir, name))], scriptEnv);
    rmSync(dir, { recursive: true });
  };
  return {
    name: 'apk-tools 3',
    install: (built) => add({ 'quickjs.apk': stubApk('quickjs'), 'uhttpd.apk': stubApk('uhttpd'), [built.apk.fileName]: built.apk.bytes }, ['--initdb']),
    upgrade: (built) => add({ [built.apk.fileName]: built.apk.bytes }, []),
    remove: () => void runApk(router.root, ['del', 'wrtapi'], scriptEnv),
  };
}
