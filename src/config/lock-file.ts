// Lock files hold their owner's pid, so one left by a killed process can be taken over. The write
// locks build on them, and so does the mutex that guards small state files on every request.
import type { Ports } from '../platform/ports.js';

// A lock file is created first and gets its owner's pid a moment later; an empty one older than
// this was left by a process killed in between.
const EMPTY_LOCK_GRACE_MS = 5000;

/** True when the file names a process that is gone: a writer killed while holding its lock. */
export function isStale(ports: Ports, path: string): boolean {
  const owner = Number(ports.readFile(path) ?? '');
  if (owner > 0) return !ports.isAlive(owner);
  const info = ports.stat(path);
  return info !== undefined && ports.now() - info.mtimeMs > EMPTY_LOCK_GRACE_MS;
}

/** Creates a lock file holding our pid, taking over one whose owner died; never waits. */
export function tryCreate(ports: Ports, path: string): boolean {
  const pid = String(ports.pid());
  if (ports.createExclusive(path, pid)) return true;
  if (!isStale(ports, path)) return false;
  ports.remove(path);
  return ports.createExclusive(path, pid);
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
