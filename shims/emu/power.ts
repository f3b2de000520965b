// What happens to an emulated router when it restarts: its processes die, what it keeps in RAM is
// gone, and its init scripts run their boot in START order, wrtapi's boot hook among them.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runProgram, type Engine } from './engines.js';
import { bundleDir } from './project.js';
import { initServices } from './sandbox.js';

/**
 * The processes running on the router `root`: every program the emulator started for it and what
 * they left running (the confirm helper), known by the environment startProgram gives them.
 */
export function routerProcesses(root: string): number[] {
  const marker = `WRTAPI_ROOT=${resolve(root)}\0`;
  return readdirSync('/proc').flatMap((name) => {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) return [];
    try {
      const environ = `${readFileSync(`/proc/${name}/environ`, 'latin1')}\0`;
      return environ.includes(marker) && environ.includes('WRTAPI_EMU_ENGINE=') ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

export function killRouterProcesses(root: string): void {
  for (const pid of routerProcesses(root)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

// tmpfs on a router: the locks, the run files and wrtapi's state in /tmp (the DHCP leases stay, as
// the clients renew them), and the syslog ring of logd.
const VOLATILE = ['var/lock', 'var/run', 'tmp/wrtapi'];

/**
 * Restarts the emulated router: its processes are killed, RAM is cleared, and each init script's
 * `boot` runs: /etc/init.d/wrtapi's (START 13: after logd, before the services it may roll back),
 * `qjs -m /usr/share/wrtapi/wrtapi-confirm.js boot`, then the stand-ins', which record it in
 * var/log/init.log. The stand-in ubus still says one day of uptime.
 */
export async function reboot(root: string, engine: Engine): Promise<void> {
  killRouterProcesses(root);
  for (const dir of VOLATILE) {
    if (!existsSync(join(root, dir))) continue;
    for (const name of readdirSync(join(root, dir))) rmSync(join(root, dir, name), { recursive: true, force: true });
  }
  for (const name of readdirSync(join(root, 'tmp'))) if (name.startsWith('.wrtapi-run.')) rmSync(join(root, 'tmp', name));
  writeFileSync(join(root, 'var/log/messages'), '');
  if (existsSync(join(root, 'etc/init.d/wrtapi'))) {
    const hook = await runProgram({ root, engine, program: join(bundleDir, 'wrtapi-confirm.js'), args: ['boot'] });
    if (hook.code !== 0) throw new Error(`/etc/init.d/wrtapi boot exited ${hook.code}: ${hook.stderr}`);
  }
  for (const service of initServices) {
    const booted = spawnSync(join(root, 'etc/init.d', service), ['boot'], { env: { PATH: process.env.PATH, WRTAPI_ROOT: resolve(root) }, encoding: 'utf8' });
    if (booted.status !== 0) throw new Error(`/etc/init.d/${service} boot exited ${booted.status}: ${booted.stderr}`);
  }
}
