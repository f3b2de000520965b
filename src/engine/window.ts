// Commit-confirm as a write sees it: a write that arms a change (`?confirm_within`), one that joins
// the armed change (`?confirm_id`), and the refusal of every other while a change is armed.
import { armedError, isoTime, keepArmed, readArmed, revert, startHelper, superviseHelper, WINDOW, type Armed } from '../config/armed.js';
import type { Snapshot } from '../config/store.js';
import { ApiError } from '../http/errors.js';
import type { Ports } from '../platform/ports.js';
import { ulid } from '../platform/ulid.js';

export interface Confirming {
  /** `confirm_within`: arms a change whose window is this many seconds. */
  within?: number;
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
  const id = ulid(ports.now(), ports.randomBytes(10));
  return { armed: { id, token: confirm.token, armed_at: now, deadline: now + confirm.within, packages: [], absent: [], services: [] }, arming: true, confirm };
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
