// Daemon packages a stock image lacks, installed into a test's router as opkg would leave them for
// the API: the init script (the sandbox's recording stand-in) and the configuration files exactly
// as the package ships them (test/fixtures/uci/upstream/<package>, each naming its source).
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import * as assert from 'uvu/assert';
import type { UciSection } from '../../src/uci/index.js';
import { parseUci } from '../../src/uci/parse.js';
import { initScript } from '../../shims/emu/sandbox.js';
import type { Router } from './router.js';

/** A package's configuration file as it ships. */
export function shipped(pkg: string): string {
  return readFileSync(new URL(`../../../../test/fixtures/uci/upstream/${pkg}`, import.meta.url), 'utf8');
}

/** Installs the init script of `service` and the shipped /etc/config files of `packages`. */
export function installDaemon(router: Router, service: string, packages: string[] = []): void {
  const script = router.path(`/etc/init.d/${service}`);
  writeFileSync(script, initScript(service));
  chmodSync(script, 0o755);
  for (const pkg of packages) writeFileSync(router.path(`/etc/config/${pkg}`), shipped(pkg));
}

/** The daemon packages curated resources drive: their init scripts and the files they ship. */
export const DAEMONS: { service: string; packages: string[] }[] = [
  { service: 'unbound', packages: ['unbound'] },
  { service: 'unbound-uci-ext', packages: ['unbound_srv', 'unbound_ext'] },
  { service: 'lldpd', packages: ['lldpd'] },
  { service: 'prometheus-node-exporter-lua', packages: ['prometheus-node-exporter-lua'] },
  { service: 'vnstat', packages: ['vnstat'] },
  { service: 'usteer', packages: ['usteer'] },
];

/** A router with every daemon package of {@link DAEMONS} installed. */
export function installDaemons(router: Router): void {
  for (const { service, packages } of DAEMONS) installDaemon(router, service, packages);
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
