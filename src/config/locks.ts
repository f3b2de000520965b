import { ApiError } from '../http/errors.js';
import type { Ports } from '../platform/ports.js';
import { isHeld, isStale, tryCreate } from './lock-file.js';
import { sweepLeftovers } from './leftovers.js';

const LOCK_DIR = '/var/lock';
const GLOBAL_LOCK = `${LOCK_DIR}/wrtapi.global.lock`;
const SHARED_MARKER_PREFIX = 'wrtapi.global.shared.';
export type GlobalMode = 'shared' | 'exclusive';

export interface Held {
  release(): void;
}

function packageLockPath(pkg: string): string {
  return `${LOCK_DIR}/wrtapi.${pkg}.lock`;
}

/**
 * Which locks a running process holds: `global_held` when the exclusive lock or a shared holder's
 * marker does, `per_package` for the given packages and any other package with a held lock. What a
 * killed writer left counts for nothing; the next write removes it.
 */
export function lockState(ports: Ports, packages: string[]) {
  const per_package: Record<string, boolean> = {};
  for (const pkg of packages) per_package[pkg] = false;
  let global_held = false;
  for (const name of ports.list(LOCK_DIR)) {
    const path = `${LOCK_DIR}/${name}`;
    const held = isHeld(ports, path);
    if (path === GLOBAL_LOCK || name.startsWith(SHARED_MARKER_PREFIX)) global_held ||= held;
    else if (/^wrtapi\..+\.lock$/.test(name)) per_package[name.slice('wrtapi.'.length, -'.lock'.length)] ||= held;
  }
  return { global_held, per_package };
}

/** `423 locked`; the lock type feeds `wrtapi_lock_contention_total`. */
export class LockedError extends ApiError {
  constructor(lock: string, readonly lockType: 'global' | 'package') {
    super(423, 'locked', `Another write holds the lock ${lock}; retry`, { headers: { 'Retry-After': '1' } });
  }
}

/**
 * Takes the global lock (shared for configuration writes, exclusive for the non-configuration
 * writers) and then the lock of each package, always in sorted order so two multi-package writers
 * cannot each hold what the other waits for. Locks never block: a held lock answers 423.
 * Shared holders and the exclusive holder each announce themselves before looking at the other
 * side, so they can never both proceed. Once held, the locks' holder clears what killed processes
 * left behind (unless told not to `sweep`), so no leftover outlives the next write.
 */
export function acquireLocks(ports: Ports, packages: string[], global: GlobalMode, sweep = true): Held {
  ports.makeDirectory(LOCK_DIR);
  const held: string[] = [];
  const release = () => {
    for (const path of held.reverse()) ports.remove(path);
    held.length = 0;
  };
  try {
    if (global === 'shared') {
      const marker = `${LOCK_DIR}/${SHARED_MARKER_PREFIX}${ports.pid()}`;
      // A marker of this pid can only be a dead process's: pids are unique among the living.
      if (!ports.createLink(marker, ports.identity())) {
        ports.remove(marker);
        ports.createLink(marker, ports.identity());
      }
      held.push(marker);
      // Not stat: it follows the link to its owner's identity, which names no file.
      if (isHeld(ports, GLOBAL_LOCK)) throw new LockedError(GLOBAL_LOCK, 'global');
    } else {
      if (!tryCreate(ports, GLOBAL_LOCK)) throw new LockedError(GLOBAL_LOCK, 'global');
      held.push(GLOBAL_LOCK);
      for (const name of ports.list(LOCK_DIR)) {
        const path = `${LOCK_DIR}/${name}`;
        if (name.startsWith(SHARED_MARKER_PREFIX) && !isStale(ports, path)) throw new LockedError(GLOBAL_LOCK, 'global');
      }
    }
    for (const pkg of [...new Set(packages)].sort()) {
      const path = packageLockPath(pkg);
      if (!tryCreate(ports, path)) throw new LockedError(path, 'package');
      held.push(path);
    }
  } catch (error) {
    release();
    throw error;
  }
  if (sweep) sweepLeftovers(ports);
  return { release };
}
