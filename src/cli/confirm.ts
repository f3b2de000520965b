// wrtapi-confirm: the helper a write armed with `?confirm_within` leaves running, which rolls the
// change back at its deadline unless it was confirmed, and the boot hook (/etc/init.d/wrtapi) that
// rolls back a change still armed when the router restarted. Neither is a daemon: the helper lives
// for one window, the hook runs once per boot.
import { HELPER_FILE, isoTime, readArmed, rollBack, type Armed } from '../config/armed.js';
import { acquireLocks, LockedError } from '../config/locks.js';
import { flushLog, logLine } from '../pipeline/events.js';
import type { Ports } from '../platform/ports.js';

const TICK_MS = 1000;
// A wall clock that moves by more than this in one tick was stepped (the first NTP sync of a router
// without a real-time clock can move it by years), not time passing.
const STEP_MS = 5000;

export function runConfirm(ports: Ports, args: string[]): number {
  const [command, id] = args;
  if (command === 'watch' && id) return watch(ports, id);
  if (command === 'boot' && !id) return boot(ports);
  ports.writeStderr('Usage: wrtapi-confirm watch <id> | boot\n');
  return 2;
}

/**
 * Keeps the window of change `id`: wakes every second and re-reads the state, so a confirmation
 * ends it and an extension moves its deadline within a tick. The window is counted in the seconds
 * slept, so a stepped clock neither fires it early nor holds it open.
 */
function watch(ports: Ports, id: string): number {
  ports.makeDirectory('/tmp/wrtapi');
  ports.writeFileAtomic(HELPER_FILE, ports.identity());
  let armed = readArmed(ports);
  if (armed?.id !== id) return 0;
  let deadline = armed.deadline;
  let remaining = deadline * 1000 - ports.now();
  let last = ports.now();
  for (;;) {
    if (remaining <= 0) {
      if (rollBackNow(ports, armed, 'deadline')) return 0;
    }
    // Past the deadline only when a write held the lock: try again a tick later, not in a spin.
    const slept = remaining > 0 ? Math.min(TICK_MS, remaining) : TICK_MS;
    ports.sleep(slept);
    const now = ports.now();
    const elapsed = now - last;
    last = now;
    remaining -= elapsed < 0 || elapsed > slept + STEP_MS ? slept : elapsed;
    armed = readArmed(ports);
    if (armed?.id !== id) return 0;
    if (armed.deadline !== deadline) {
      deadline = armed.deadline;
      remaining = deadline * 1000 - now;
    }
  }
}

/**
 * Rolls back a change still armed when the router started, whatever its deadline: nobody confirmed
 * it, and the restart is more likely its doing than chance (a router without a real-time clock
 * cannot even tell whether the deadline passed). It runs before the services start, so they read
 * the restored files and need no reload.
 */
function boot(ports: Ports): number {
  const armed = readArmed(ports);
  if (!armed) return 0;
  return rollBackNow(ports, armed, 'reboot') ? 0 : 1;
}

/** False when a write holds the lock: the helper tries again on its next tick. */
function rollBackNow(ports: Ports, armed: Armed, reason: 'deadline' | 'reboot'): boolean {
  const started = ports.now();
  let held;
  try {
    held = acquireLocks(ports, [], 'exclusive');
  } catch (error) {
    if (error instanceof LockedError) return false;
    throw error;
  }
  try {
    // What a confirmation or an earlier rollback left: nothing to do.
    const current = readArmed(ports);
    if (current?.id !== armed.id) return true;
    const { failures } = rollBack(ports, current, reason === 'deadline');
    const line = `${current.id} ${current.token} AUDIT rolled_back ROLLBACK /confirm/${current.id} - ${ports.now() - started}ms`;
    logLine('notice', `${line} reason=${reason} deadline=${isoTime(current.deadline)} packages=${current.packages.join(',') || '-'} services=${current.services.join(',') || '-'}`);
    for (const failure of failures) logLine('err', `${current.id} ${current.token} ERROR reload_failed ROLLBACK /confirm/${current.id} - ${failure}`);
    return true;
  } finally {
    held.release();
    flushLog(ports);
  }
}
