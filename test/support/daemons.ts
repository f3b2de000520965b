// Daemon packages a stock image lacks, installed into a test's router as opkg would leave them for
// the API: the init script (the sandbox's recording stand-in) and the configuration files exactly
// as the package ships them (test/fixtures/uci/upstream/<package>, each naming its source).
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { allResources } from '../../src/engine/tables.js';
import * as assert from 'uvu/assert';
import type { UciSection } from '../../src/uci/index.js';
import { parseUci } from '../../src/uci/parse.js';
import { initScript } from '../../shims/emu/sandbox.js';
import type { Router } from './router.js';

const fixture = (pkg: string) => new URL(`../../../../test/fixtures/uci/upstream/${pkg}`, import.meta.url);

/** A package's configuration file as it ships. */
export function shipped(pkg: string): string {
  return readFileSync(fixture(pkg), 'utf8');
}

/** Other files a package installs that a rule reads, by service: the setup scripts sqm/queues' `script` names. */
const FILES: Record<string, string[]> = {
  sqm: ['simple.qos', 'simplest.qos', 'simplest_tbf.qos', 'piece_of_cake.qos', 'layer_cake.qos'].map((script) => `/usr/lib/sqm/${script}`),
};

/** Installs the init script of `service`, the files its package brings, and the shipped /etc/config files of `packages`. */
export function installDaemon(router: Router, service: string, packages: string[] = []): void {
  const script = router.path(`/etc/init.d/${service}`);
  writeFileSync(script, initScript(service));
  chmodSync(script, 0o755);
  for (const path of FILES[service] ?? []) {
    mkdirSync(router.path(path.slice(0, path.lastIndexOf('/'))), { recursive: true });
    writeFileSync(router.path(path), `# Stand-in for ${path}\n`);
  }
  for (const pkg of packages) writeFileSync(router.path(`/etc/config/${pkg}`), shipped(pkg));
}

/**
 * A router with every daemon package the curated resources drive installed (those with a
 * `daemonPackage`): their init scripts, and the configuration files the packages ship (fixtures).
 */
export async function installDaemons(router: Router): Promise<void> {
  for (const entry of await allResources()) {
    const { mapping } = await entry.module();
    if (!mapping.daemonPackage) continue;
    const packages = existsSync(fixture(mapping.package)) && !existsSync(router.path(`/etc/config/${mapping.package}`)) ? [mapping.package] : [];
    for (const service of mapping.reload) installDaemon(router, service, packages);
  }
}

/**
 * The same sections (those `only` keeps) in the same order, each with the same type, options and
 * values, and the same name unless anonymous; comments and the order of options may differ.
 */
export function assertSameUci(before: string, after: string, only: (section: UciSection) => boolean = () => true): void {
  const view = (text: string) =>
    parseUci(text).sections.filter(only).map((section) => ({
      type: section.type,
      name: section.anonymous ? undefined : section.name,
      options: Object.fromEntries([...section.options].sort(([a], [b]) => (a < b ? -1 : 1))),
    }));
  assert.equal(view(after), view(before));
}
