import { callBus } from '../platform/bus.js';
import type { Context } from './context.js';
import { plainResponse } from '../http/response.js';
import { parseCanonical, readUci } from '../uci/index.js';
import { VERSION } from '../platform/version.js';

type CheckState = 'ok' | 'degraded' | 'unknown';

const BOOT_GRACE_SECONDS = 60;
const EARLIEST_PLAUSIBLE_EPOCH = 1700000000;

/**
 * `GET /healthz`: one `ubus call system info` answers both the bus check and, through the router's
 * own `uptime` and `localtime`, the time-sync check. Hand-built: no security headers, never logged.
 */
export async function GET({ ports }: Context) {
  const errors: string[] = [];
  const checks: Record<string, CheckState> = { ubus: 'ok', uci: 'ok', lock_dir: 'ok', time_sync: 'unknown' };
  const degrade = (check: string, why: string) => {
    checks[check] = 'degraded';
    errors.push(`${check}: ${why}`);
  };

  const info = callBus(ports, 'system', 'info');
  const system = info.answer as { uptime?: unknown; localtime?: unknown } | undefined;
  if (!system) {
    degrade('ubus', info.stderr.trim() || `ubus call system info exited ${info.code}`);
  } else if (typeof system.uptime === 'number' && system.uptime >= BOOT_GRACE_SECONDS) {
    if (typeof system.localtime === 'number' && system.localtime >= EARLIEST_PLAUSIBLE_EPOCH) checks.time_sync = 'ok';
    else degrade('time_sync', `wall clock ${String(system.localtime)} is before ${EARLIEST_PLAUSIBLE_EPOCH}`);
  }

  try {
    const text = ports.readFile('/etc/config/wrtapi');
    if (text === undefined) degrade('uci', '/etc/config/wrtapi is missing');
    // Kept: that the token store parses, made from its SHA-256 (its hashes stay in its file).
    else {
      const digest = ports.sha256Hex?.(text);
      if (!(digest && ports.derived?.('healthz.wrtapi', digest, () => parseCanonical(text) && true))) await readUci(text);
    }
  } catch (error) {
    degrade('uci', (error as Error).message);
  }

  const probe = `/var/lock/wrtapi.healthz.${ports.pid()}`;
  try {
    ports.createExclusive(probe, '');
    ports.remove(probe);
  } catch (error) {
    degrade('lock_dir', (error as Error).message);
  }

  const status = errors.length ? 'degraded' : 'ok';
  const body = errors.length ? { status, version: VERSION, checks, errors } : { status, version: VERSION, checks };
  return plainResponse(errors.length ? 503 : 200, 'application/json', JSON.stringify(body));
}
