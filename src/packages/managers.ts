// The two package managers an OpenWrt router may have, and what wrtapi asks of them: opkg up to
// 24.10, apk from 25.12 (as LuCI's package manager tells them apart: /usr/bin/apk exists). Every
// call is an argv through Ports.run, a name in it only once grammar.ts has passed it.
import { ApiError } from '../http/errors.js';
import type { Ports, RunResult } from '../platform/ports.js';

/** A package of the database as the API shows it; `id` is its name, the path of its record. */
export interface Installed {
  id: string;
  name: string;
  version: string;
  /** Always true: a package the database does not hold installed is no record. */
  installed: true;
  /** Installed at a request rather than only as another's dependency: named in apk's world, or an opkg stanza without `Auto-Installed: yes`. */
  managed: boolean;
}

export interface Manager {
  tool: 'opkg' | 'apk';
  bin: string;
  /** The package database: the file the tool itself reads and writes. */
  db: string;
  /** apk's world: the packages installed at a request. */
  world?: string;
  add: string;
  del: string;
  /** The custom feeds file, and the other files whose feeds a new one must not repeat. */
  feeds: string;
  feedDirs: string[];
  feedFiles: string[];
  /** What the tool prints for a name no feed offers. */
  unknown(name: string): string;
}

// The database is read, not `opkg list-installed`: every opkg command takes opkg's lock first
// (libopkg/opkg_conf.c), so a listing would fail for as long as an install runs. opkg-lede
// 2024.10.16 (38eccbb): /usr/lib/opkg/status, stanzas of `Package:`, `Version:`, `Status: <want>
// <flag> <state>`.
const OPKG: Manager = {
  tool: 'opkg',
  bin: '/bin/opkg',
  db: '/usr/lib/opkg/status',
  add: 'install',
  del: 'remove',
  feeds: '/etc/opkg/customfeeds.conf',
  feedDirs: ['/etc/opkg'],
  feedFiles: ['/etc/opkg.conf'],
  unknown: (name) => `Unknown package '${name}'`,
};

// apk-tools 3.0 keeps the database as apk 2 did, /lib/apk/db/installed, stanzas of `P:<name>`,
// `V:<version>`, replaced whole when written. The customfeeds.list of OpenWrt's apk package holds
// one URL a line; apk reads every `*.list` of /etc/apk/repositories.d besides /etc/apk/repositories.
const APK: Manager = {
  tool: 'apk',
  bin: '/usr/bin/apk',
  db: '/lib/apk/db/installed',
  world: '/etc/apk/world',
  add: 'add',
  del: 'del',
  feeds: '/etc/apk/repositories.d/customfeeds.list',
  feedDirs: ['/etc/apk/repositories.d'],
  feedFiles: ['/etc/apk/repositories'],
  unknown: (name) => `${name} (no such package)`,
};

/** The router's package manager, decided now: a sysupgrade from 24.10 to 25.12 swaps it. */
export function managerOf(ports: Ports): Manager {
  for (const manager of [APK, OPKG]) if (ports.stat(manager.bin)) return manager;
  throw new ApiError(503, 'service_unavailable', `No package manager: neither ${APK.bin} nor ${OPKG.bin} exists`);
}

export function run(ports: Ports, manager: Manager, args: string[]): RunResult {
  return ports.run([manager.bin, ...args]);
}

/** The last lines the tool printed on stderr (on stdout when stderr is empty), no more. */
export function summary({ stdout, stderr }: RunResult, lines = 8): string {
  const text = stderr.trim() ? stderr : stdout;
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .filter(Boolean)
    .slice(-lines)
    .join('\n');
}

/** `<tool> <args> exited <code>: <summary>`, for an answer's message. */
export function failure(manager: Manager, args: string[], result: RunResult): string {
  const said = summary(result);
  return `${manager.tool} ${args.join(' ')} exited ${result.code}${said ? `: ${said}` : ''}`;
}

const OPKG_FIELDS = [/^Package:[ \t]*(\S+)/m, /^Version:[ \t]*(\S+)/m, /^Status:[ \t]*\S+[ \t]+\S+[ \t]+installed[ \t]*$/m];
const APK_FIELDS = [/^P:(\S+)/m, /^V:(\S+)/m];
// opkg marks what it installs as a dependency (libopkg pkg.c, `auto_installed`).
const OPKG_AUTO = /^Auto-Installed:[ \t]*yes[ \t]*$/m;

/** The names of apk's world (apk-world(5)): `name[@tag][<op>version]` a line; a `!name` conflict is none. */
export function parseWorld(text: string): string[] {
  return text.split(/\s+/).flatMap((word) => /^[^!<>=~@]+/.exec(word)?.[0] ?? []);
}

/**
 * The installed packages of a database's text, sorted by name; a stanza without a name, a version or
 * (opkg) the state `installed` is none. `world`: apk's, which says which were asked for.
 */
export function parseDatabase(tool: Manager['tool'], text: string, world: string[] = []): Installed[] {
  const packages: Installed[] = [];
  for (const stanza of text.split(/\n[ \t]*\n/)) {
    const found = (tool === 'opkg' ? OPKG_FIELDS : APK_FIELDS).map((field) => field.exec(stanza));
    if (!found.every(Boolean)) continue;
    const name = found[0]![1];
    packages.push({ id: name, name, version: found[1]![1], installed: true, managed: tool === 'opkg' ? !OPKG_AUTO.test(stanza) : world.includes(name) });
  }
  return packages.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function listInstalled(ports: Ports, manager: Manager): Installed[] {
  const world = manager.world ? parseWorld(ports.readFile(manager.world) ?? '') : [];
  return parseDatabase(manager.tool, ports.readFile(manager.db) ?? '', world);
}

/** opkg's lists directory: `lists_dir` of /etc/opkg.conf, /var/opkg-lists on OpenWrt (a tmpfs, empty after every boot). */
export function listsDir(ports: Ports): string {
  const dirs = [...(ports.readFile('/etc/opkg.conf') ?? '').matchAll(/^[ \t]*lists_dir[ \t]+\S+[ \t]+(\S+)/gm)];
  return dirs.length ? dirs[dirs.length - 1][1] : '/usr/lib/opkg/lists';
}

/**
 * Whether opkg has no package list to install from: its lists directory holds none, and `opkg
 * install` would call every package unknown. apk needs no such step: a write refreshes indexes
 * missing or older than four hours by itself (apk-tools 3.0, `--cache-max-age`).
 */
export function listsMissing(ports: Ports, manager: Manager): boolean {
  return manager.tool === 'opkg' && !ports.list(listsDir(ports)).some((name) => !name.endsWith('.sig'));
}
