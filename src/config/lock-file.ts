// Lock files name their owner, so one left by a killed process is taken over at once. The write
// locks build on them, and so does the mutex that guards small state files on every request.
// A lock is a symbolic link whose target is the owner's identity (pid and start time): it is
// created with its content in one step, so no kill can leave it empty, and a process that reuses
// a dead owner's pid is not taken for it.
import type { Ports } from '../platform/ports.js';

/**
 * A change armed with `?confirm_within` (config/armed.ts): while it lies there, configuration writes
 * outside its window are refused. Named here, in the module of every write's locks and of the
 * metrics' mutex, so a write and a scrape look for it without loading another module.
 */
export const ARMED_STATE = '/etc/wrtapi/confirm/armed.json';

/** True when the lock's owner no longer runs: a writer killed while holding it. */
export function isStale(ports: Ports, path: string): boolean {
  const owner = ports.readLink(path);
  // Not a link, yet there: no lock of ours, so nothing can be holding it.
  if (owner === undefined) return ports.stat(path) !== undefined;
  return !ports.isRunning(owner);
}

/** Whether the lock is held by a running owner. */
export function isHeld(ports: Ports, path: string): boolean {
  const owner = ports.readLink(path);
  return owner !== undefined && ports.isRunning(owner);
}

/** Creates a lock naming us, taking over one whose owner died; never waits. */
export function tryCreate(ports: Ports, path: string): boolean {
  const identity = ports.identity();
  if (ports.createLink(path, identity)) return true;
  if (!isStale(ports, path)) return false;
  ports.remove(path);
  return ports.createLink(path, identity);
}

const MUTEX_ATTEMPTS = 50;
const MUTEX_WAIT_MS = 2;

/**
 * Runs `critical` while holding a short-lived mutex file, for the read-modify-write of a small state
 * file (a rate-limit bucket). Unlike the write locks it waits, a few milliseconds at a time; false
 * when the mutex could not be had, and then `critical` did not run.
 */
export function withMutex(ports: Ports, path: string, critical: () => void): boolean {
  for (let attempt = 0; attempt < MUTEX_ATTEMPTS; attempt++) {
    if (tryCreate(ports, path)) {
      try {
        critical();
      } finally {
        ports.remove(path);
      }
      return true;
    }
    ports.sleep(MUTEX_WAIT_MS);
  }
  return false;
}
