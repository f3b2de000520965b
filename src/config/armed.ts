// Commit-confirm's armed change: the packages as they were before it, and its state, on flash so a
// reboot finds them (/tmp is RAM). The state's landing is the commit point of an arm: snapshots are
// written first, the state last, and it is removed first, so no state ever names a missing snapshot.
import { ApiError } from '../http/errors.js';
import type { Ports } from '../platform/ports.js';
import { reload, restorePackage } from './commit.js';
import { ARMED_STATE } from './lock-file.js';
import type { Snapshot } from './store.js';

const DIRECTORY = '/etc/wrtapi/confirm';
/** The running helper's identity; in RAM, so a reboot forgets it with the process. */
export const HELPER_FILE = '/tmp/wrtapi/confirm-helper';
/** The bounds of `confirm_within` and `extend`, in seconds. */
export const WINDOW = { min: 10, max: 3600 };

export interface Armed {
  id: string;
  /** The token that armed it. */
  token: string;
  armed_at: number;
  /** Epoch seconds. */
  deadline: number;
  /** Every package a write of the window changed, snapshotted before its first change. */
  packages: string[];
  /** Those of them that had no file: a rollback removes theirs. */
  absent: string[];
  /** The services the window's writes reloaded, which a rollback reloads again. */
  services: string[];
}

function snapshotPath(pkg: string): string {
  return `${DIRECTORY}/${pkg}.uci`;
}

export function readArmed(ports: Ports): Armed | undefined {
  const text = ports.readFile(ARMED_STATE);
  return text === undefined ? undefined : (JSON.parse(text) as Armed);
}

/** RFC 3339 in UTC, to the second. */
export function isoTime(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** What a write is told while a change awaits confirmation: it names the change and how to end it. */
export function armedError(armed: Armed): ApiError {
  return new ApiError(423, 'locked', `Change ${armed.id} awaits confirmation until ${isoTime(armed.deadline)}; confirm it (POST /confirm/${armed.id}), roll it back (DELETE /confirm/${armed.id}), or join it with ?confirm_id=${armed.id}`, {
    headers: { 'Retry-After': '1' },
    confirm_id: armed.id,
    expires_at: isoTime(armed.deadline),
  });
}

/**
 * Records the packages a write of the window is about to change that it has not kept yet (their
 * bytes before the window's first change of them) and the services it reloads. Returns the state
 * as it was, for {@link revert}.
 */
export function keepArmed(ports: Ports, armed: Armed, changing: Snapshot[], services: string[]): Armed {
  const before = { ...armed, packages: [...armed.packages], absent: [...armed.absent], services: [...armed.services] };
  ports.makeDirectory(DIRECTORY);
  for (const { pkg, text } of changing) {
    if (armed.packages.includes(pkg)) continue;
    if (text === undefined) armed.absent.push(pkg);
    // 0600: a package may hold keys its file keeps from other users.
    else ports.writeFileAtomic(snapshotPath(pkg), text, 0o600);
    armed.packages.push(pkg);
  }
  for (const service of services) if (!armed.services.includes(service)) armed.services.push(service);
  writeArmed(ports, armed);
  return before;
}

export function writeArmed(ports: Ports, armed: Armed): void {
  ports.writeFileAtomic(ARMED_STATE, JSON.stringify(armed), 0o600);
}

/**
 * Undoes {@link keepArmed} after the write failed: an arm (`before` undefined) is forgotten, a join
 * leaves the window as it was.
 */
export function revert(ports: Ports, before: Armed | undefined, after: Armed): void {
  if (!before) return disarm(ports, after);
  writeArmed(ports, before);
  for (const pkg of after.packages) if (!before.packages.includes(pkg)) ports.remove(snapshotPath(pkg));
}

/** Forgets the change: the state first, then the snapshots it named. */
export function disarm(ports: Ports, armed: Armed): void {
  ports.remove(ARMED_STATE);
  for (const pkg of armed.packages) ports.remove(snapshotPath(pkg));
}

export interface RolledBack {
  /** Why each service's reload failed; the files are restored all the same. */
  failures: string[];
}

/**
 * Puts every package of the change back as it was before the window, reloads the services its
 * writes reloaded (not at boot: they have not started yet, and will read the restored files), and
 * forgets the change. The caller holds the global lock exclusively. Killed midway, it can run again
 * from the start: the state goes last.
 */
export function rollBack(ports: Ports, armed: Armed, reloading: boolean): RolledBack {
  for (const pkg of armed.packages) {
    const text = armed.absent.includes(pkg) ? undefined : ports.readFile(snapshotPath(pkg));
    if (text === undefined && !armed.absent.includes(pkg)) throw new Error(`the snapshot of ${pkg} is missing from ${DIRECTORY}`);
    restorePackage(ports, { pkg, text });
  }
  const failures: string[] = [];
  if (reloading) {
    for (const service of armed.services) {
      const failure = reload(ports, service);
      if (failure !== undefined) failures.push(failure);
    }
  }
  disarm(ports, armed);
  return { failures };
}

/**
 * Starts a helper again when the one keeping the window was killed (nothing restarts it: wrtapi has
 * no daemon), so the window is kept by whoever next meets it: a write it refuses or joins, and the
 * routes of /confirm. A deadline already passed is then kept at once.
 */
export function superviseHelper(ports: Ports, armed: Armed): void {
  const owner = ports.readFile(HELPER_FILE);
  if (owner === undefined || !ports.isRunning(owner)) startHelper(ports, armed.id);
}

/**
 * Starts the helper that rolls the change back at its deadline: wrtapi's own program, left running
 * as the logger is (its output to /dev/null, so uhttpd does not wait for it).
 */
export function startHelper(ports: Ports, id: string): void {
  const pid = ports.start(['/usr/bin/qjs', '-m', '/usr/share/wrtapi/wrtapi-confirm.js', 'watch', id], '');
  // Until the helper names itself (by its identity, which a reused pid does not share), its pid
  // tells the next request that it is on its way.
  ports.makeDirectory('/tmp/wrtapi');
  ports.writeFileAtomic(HELPER_FILE, String(pid));
}

// A write's side of the window: one that arms a change (`?confirm_within`), one that joins the armed
// change (`?confirm_id`), and the refusal of every other while a change is armed.

export interface Confirming {
  /** `confirm_within`: arms a change whose window is this many seconds, named `id`. */
  within?: number;
  id?: string;
  /** `confirm_id`: joins the armed change of this id. */
  join?: string;
  /** The caller's token. */
  token: string;
  /** Refuses (403) a caller that may not write every one of these packages, so could not confirm them. */
  authorize(packages: string[]): void;
}

/** The change a write arms or joins. */
export interface Window {
  armed: Armed;
  arming: boolean;
  confirm: Confirming;
}

/**
 * The window a write belongs to, or undefined for an ordinary write while nothing is armed. While a
 * change is armed, a write that does not join it is refused with `423 locked` naming it, a second
 * arm included; joining needs the right to confirm what it already holds.
 */
export function admit(ports: Ports, confirm: Confirming | undefined): Window | undefined {
  const armed = readArmed(ports);
  if (armed) {
    superviseHelper(ports, armed);
    if (confirm?.join !== armed.id) throw armedError(armed);
    confirm.authorize(armed.packages);
    return { armed, arming: false, confirm };
  }
  if (confirm?.join !== undefined) {
    throw new ApiError(409, 'conflict', `No change awaits confirmation as ${confirm.join}: it was confirmed or rolled back. Nothing was written`);
  }
  if (confirm?.within === undefined) return undefined;
  const now = Math.floor(ports.now() / 1000);
  return { armed: { id: confirm.id!, token: confirm.token, armed_at: now, deadline: now + confirm.within, packages: [], absent: [], services: [] }, arming: true, confirm };
}

/**
 * Before the write commits: the packages it changes as they were, and the state, on flash; an arm
 * then starts its helper, so the window is kept even if this process is killed by the reload that
 * cuts its client off. Returns what undoes it if the write fails.
 */
export function keep(ports: Ports, window: Window, changing: Snapshot[], services: string[]): () => void {
  window.confirm.authorize(changing.map(({ pkg }) => pkg));
  const before = keepArmed(ports, window.armed, changing, services);
  if (window.arming) startHelper(ports, window.armed.id);
  return () => revert(ports, window.arming ? undefined : before, window.armed);
}

export function windowHeaders({ armed }: Window): Record<string, string> {
  return { 'X-Confirm-Id': armed.id, 'X-Confirm-Deadline': isoTime(armed.deadline) };
}

/** A window's length from a query value: whole seconds within the bounds. */
export function windowSeconds(name: string, value: string | undefined): number {
  const seconds = value !== undefined && /^[0-9]{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(seconds >= WINDOW.min && seconds <= WINDOW.max)) {
    throw new ApiError(400, 'bad_request', `${name} must be a whole number of seconds from ${WINDOW.min} to ${WINDOW.max}`);
  }
  return seconds;
}
