// What a process killed mid-request leaves behind (uhttpd SIGKILLs a CGI program whose client hangs
// up): the temporary of an atomic write, the files of a child process, lock files and health
// probes. Each names its owner, so the next write, once it holds its locks, removes the ones whose
// owner no longer runs.
import type { Ports } from '../platform/ports.js';
import { isStale } from './lock-file.js';

// writeFileAtomic's temporaries, `.<name>.<pid>.<n>.tmp`, in every directory wrtapi writes, and wrtapi-bytecode's, named alike in
// /tmp/wrtapi (its cache folder itself is never listed: a write would pay for every entry). Nor is the
// metrics folder: it holds a record per request until one in 64 folds them, often hundreds, and the
// fold, which lists it anyway, removes its dead temporaries (pipeline/metrics-totals.ts).
const TEMPORARY = /^\..+\.(\d+)\.\d+\.tmp$/;
const TEMPORARY_DIRS = ['/etc/config', '/etc/dropbear', '/etc/wrtapi/confirm', '/tmp/wrtapi/idempotency', '/tmp/wrtapi/errors'];
// The folders of the state files, which hold their mutexes (`*.lock`) beside the temporaries.
const STATE_DIRS = ['/tmp/wrtapi', '/tmp/wrtapi/tokens'];
// run()'s files, straight in /tmp.
const RUN_FILE = /^\.wrtapi-run\.(\d+)\.\d+\.(in|out|err)$/;
// /healthz's writability probe of /var/lock.
const HEALTH_PROBE = /^wrtapi\.healthz\.(\d+)$/;
// Locks, symbolic links naming their owner: the write locks and shared markers in /var/lock, and
// the mutexes of the state files (`*.lock`).
const WRITE_LOCK = /^wrtapi\.(.+\.lock|global\.shared\.\d+)$/;

function removeWhere(ports: Ports, dir: string, deadOwner: (name: string) => boolean): void {
  for (const name of ports.list(dir)) {
    if (deadOwner(name)) ports.remove(`${dir}/${name}`);
  }
}

// A regular expression's exec costs QuickJS about 10,000 instructions, and a sweep reads every name of
// /tmp and /var/lock, most of them other programs': the leading characters every match starts with
// turn nearly all of them away first.
const ownerGone = (ports: Ports, start: string, pattern: RegExp) => (name: string) => {
  const owner = name.startsWith(start) ? pattern.exec(name)?.[1] : undefined;
  return owner !== undefined && !ports.isRunning(owner);
};

/** Whether a name is the temporary of an atomic write whose process no longer runs. */
export const deadTemporary = (ports: Ports) => ownerGone(ports, '.', TEMPORARY);

export function sweepLeftovers(ports: Ports): void {
  const temporaryGone = deadTemporary(ports);
  for (const dir of TEMPORARY_DIRS) removeWhere(ports, dir, temporaryGone);
  for (const dir of STATE_DIRS) removeWhere(ports, dir, (name) => temporaryGone(name) || (name.endsWith('.lock') && isStale(ports, `${dir}/${name}`)));
  removeWhere(ports, '/tmp', ownerGone(ports, '.wrtapi-run.', RUN_FILE));
  const probeGone = ownerGone(ports, 'wrtapi.healthz.', HEALTH_PROBE);
  const staleLock = (name: string) => name.startsWith('wrtapi.') && WRITE_LOCK.test(name) && isStale(ports, `/var/lock/${name}`);
  removeWhere(ports, '/var/lock', (name) => probeGone(name) || staleLock(name));
}
