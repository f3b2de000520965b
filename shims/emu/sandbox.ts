import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { docDir, projectRoot } from './project.js';

/** The init scripts of a stock router the service may reload, each emulated by {@link initScript}. */
export const initServices = ['network', 'firewall', 'dnsmasq', 'odhcpd', 'system', 'sysntpd', 'dropbear', 'uhttpd', 'wpad', 'log'];

const seedDir = join(projectRoot, 'shims/emu/seed');
/** What a 25.12 router has instead of opkg's files: apk, its database, world and repositories. */
const apkSeedDir = join(projectRoot, 'shims/emu/seed-apk');
const opkgPaths = ['bin/opkg', 'etc/opkg', 'etc/opkg.conf', 'usr/lib/opkg', 'var/emu/opkg'];

/** The package manager of the emulated router: opkg as OpenWrt 24.10 has it, or apk as 25.12 has it. */
export type PackageManager = 'opkg' | 'apk';
const executableDirs = ['bin', 'sbin', 'usr/bin', 'etc/init.d'];
const emptyDirs = ['var/lock', 'var/log', 'var/emu/wg', 'tmp/hosts', 'www/cgi-bin', 'etc/init.d'];

/**
 * Creates an emulated router filesystem in `root`: stock OpenWrt 24.10 configuration, init scripts
 * that record what they were asked to do in var/log/init.log, stand-ins for ubus, ip, wg, opkg and
 * logger (each documented in its header), an empty syslog var/log/messages, a proc/uptime of one day
 * (as `ubus call system info` says), and DHCP lease files whose leases run for 12 more hours. With
 * `packageManager: 'apk'` the router has apk instead of opkg, as OpenWrt 25.12 has, and says 25.12.0.
 * wrtapi is wired into uhttpd as its package wires it, unless `wired` is false (a router that has
 * not installed it yet).
 */
export function initSandbox(root: string, options: { force?: boolean; packageManager?: PackageManager; wired?: boolean } = {}): void {
  if (!options.force && existsSync(root) && readdirSync(root).length > 0) {
    throw new Error(`${root} is not empty (use --force to seed it anyway)`);
  }
  cpSync(seedDir, root, { recursive: true });
  if (options.packageManager === 'apk') {
    for (const path of opkgPaths) rmSync(join(root, path), { recursive: true, force: true });
    cpSync(apkSeedDir, root, { recursive: true });
    const board = join(root, 'var/emu/ubus/system/board.json');
    writeFileSync(board, readFileSync(board, 'utf8').replace(/24\.10\.0/g, '25.12.0'));
  }
  for (const dir of emptyDirs) mkdirSync(join(root, dir), { recursive: true });
  for (const service of initServices) writeFileSync(join(root, 'etc/init.d', service), initScript(service));
  writeFileSync(join(root, 'usr/bin/qjs'), qjsStandIn());
  // What the package stand-ins install as a daemon's init script, named by them.
  writeFileSync(join(root, 'var/emu/packages/init.d'), initScript('__SERVICE__'));
  // The executable bit is set here because a checkout does not always keep it on the seed files.
  for (const dir of executableDirs) {
    for (const name of readdirSync(join(root, dir))) chmodSync(join(root, dir, name), 0o755);
  }
  // The token store holds every token's salt and hash: 0600, as the package installs it (build/package.ts).
  chmodSync(join(root, 'etc/config/wrtapi'), 0o600);
  writeFileSync(join(root, 'var/log/messages'), '');
  writeLeases(root, Math.floor(Date.now() / 1000) + 12 * 3600);
  if (options.wired !== false) wireApi(root);
}

const API_ALIAS = '/api/v3=/cgi-bin/wrtapi';

/**
 * Installs wrtapi-doc as its package does: its files (the document's prose, build/generators/prose.ts),
 * then what its postinst does, the kept copy of the document removed.
 */
export function installDoc(root: string): void {
  cpSync(docDir, join(root, 'usr/share/wrtapi-doc'), { recursive: true });
  for (const name of readdirSync(join(root, 'tmp'))) if (name.startsWith('wrtapi-openapi.')) rmSync(join(root, 'tmp', name));
}

/**
 * What the package's uci-defaults script leaves on a router (packaging/README.md): the CGI program,
 * commit-confirm's boot hook, and the alias on uhttpd's `main` after its other options, as `setup.js wire` writes it (a test
 * holds the two to the same bytes). Without it uhttpd's self-lockout guard would have nothing to guard.
 */
function wireApi(root: string): void {
  for (const program of ['www/cgi-bin/wrtapi', 'etc/init.d/wrtapi']) {
    cpSync(join(projectRoot, 'packaging/files', program), join(root, program));
    chmodSync(join(root, program), 0o755);
  }
  mkdirSync(join(root, 'etc/rc.d'), { recursive: true });
  rmSync(join(root, 'etc/rc.d/S13wrtapi'), { force: true });
  symlinkSync('../init.d/wrtapi', join(root, 'etc/rc.d/S13wrtapi'));
  const uhttpd = join(root, 'etc/config/uhttpd');
  writeFileSync(uhttpd, readFileSync(uhttpd, 'utf8').replace(/^config uhttpd 'main'\n(?:\t.*\n)*/m, (main) => `${main}\tlist alias '${API_ALIAS}'\n`));
}

/**
 * The router's `qjs`: runs a module on the emulator's engine, the one the program that started it
 * runs on (WRTAPI_EMU_ENGINE), wasm when a person runs it by hand. wrtapi starts it for its confirm
 * helper, which outlives the request: setsid takes it out of the request's process group, which the
 * emulator waits for (engines.ts settled()), and uhttpd does not.
 */
function qjsStandIn(): string {
  return `#!/bin/sh
# Emulated /usr/bin/qjs: \`qjs -m MODULE [ARGS...]\` runs MODULE on the emulator's QuickJS engine
# (WRTAPI_EMU_ENGINE: wasm or native), in a session of its own. wrtapi's modules are found where the
# package installs them (/usr/share/wrtapi), else in the build's bundle. The sandbox is WRTAPI_ROOT,
# or the one this file lies in when run by hand.
root=\${WRTAPI_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
exec setsid -w '${process.execPath}' '${join(projectRoot, 'dist/node/shims/emu/cli.js')}' qjs --root "$root" --engine "\${WRTAPI_EMU_ENGINE:-wasm}" "$@"
`;
}

/**
 * An init script that records its rc.common verbs in var/log/init.log as "<service> <verb>"; tests
 * install one for a daemon package the stock sandbox lacks.
 */
export function initScript(service: string): string {
  return `#!/bin/sh
# Emulated /etc/init.d/${service}: the rc.common verbs succeed and are recorded as "${service} <verb>"
# in var/log/init.log of the sandbox (WRTAPI_ROOT, or the one this file lies in when run by hand);
# other verbs fail.
case "$1" in
boot|start|stop|restart|reload|enable|disable|enabled)
	printf '%s\\n' "${service} $1" >> "\${WRTAPI_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}/var/log/init.log" ;;
*)
	echo "Syntax: /etc/init.d/${service} [command]" >&2
	exit 1 ;;
esac
`;
}

function writeLeases(root: string, expiry: number) {
  writeFileSync(
    join(root, 'tmp/dhcp.leases'),
    `${expiry} 52:54:00:aa:bb:01 192.168.1.100 laptop 01:52:54:00:aa:bb:01\n` +
      `${expiry - 1800} 52:54:00:aa:bb:02 192.168.1.153 * 01:52:54:00:aa:bb:02\n`,
  );
  writeFileSync(
    join(root, 'tmp/hosts/odhcpd'),
    'fd4c:7e19:a3b2::d8e\tlaptop\n' +
      `# br-lan 000100012e5c1a2b525400aabb01 aabb01 laptop ${expiry} d8e 128 fd4c:7e19:a3b2::d8e/128\n`,
  );
}
