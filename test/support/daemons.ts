// A daemon package the stock sandbox lacks, as opkg leaves it installed: its init script (the
// sandbox's recording stand-in) and its configuration file as the package ships it.
import { chmodSync, writeFileSync } from 'node:fs';
import { initScript } from '../../shims/emu/sandbox.js';

export function installDaemon(router: { path(routerPath: string): string }, service: string, config?: { package: string; text: string }): void {
  const script = router.path(`/etc/init.d/${service}`);
  writeFileSync(script, initScript(service));
  chmodSync(script, 0o755);
  if (config) writeFileSync(router.path(`/etc/config/${config.package}`), config.text);
}
