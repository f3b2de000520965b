import { commitPackage } from '../config/commit.js';
import { acquireLocks } from '../config/locks.js';
import { takeSnapshot } from '../config/store.js';
import type { Ports } from '../platform/ports.js';
import { findSection } from '../uci/index.js';
import { SERVICE_PACKAGE, type Token } from './tokens.js';

/**
 * Stamps `last_used_at`/`last_used_ip`. Best effort: a held lock or any failure skips the stamp,
 * because it must never make the request itself fail.
 */
export async function stampLastUsed(ports: Ports, token: Token, ip: string): Promise<void> {
  const now = Math.floor(ports.now() / 1000);
  try {
    const held = acquireLocks(ports, [SERVICE_PACKAGE], 'shared');
    try {
      const snapshot = await takeSnapshot(ports, SERVICE_PACKAGE);
      const section = findSection(snapshot.model, token.name);
      if (!section) return;
      section.options.set('last_used_at', String(now));
      section.options.set('last_used_ip', ip);
      commitPackage(ports, snapshot, snapshot.model);
    } finally {
      held.release();
    }
  } catch {
    // Skipped; the next request after the interval tries again.
  }
}
