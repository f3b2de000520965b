import { withMutex } from '../config/lock-file.js';
import { ApiError } from '../http/errors.js';
import type { Ports } from '../platform/ports.js';
import type { UciPackage } from '../uci/index.js';
import { LAST_USED_INTERVAL_SECONDS, parseTokenState, tokenStatePath, withLastUse, type LastUse, type Token } from './tokens.js';

const DEFAULT_RATE = 100;
const DEFAULT_BURST = 200;

export interface Limit {
  rate: number;
  burst: number;
}

function positive(value: unknown): number | undefined {
  return typeof value === 'string' && /^[1-9]\d*$/.test(value) ? Number(value) : undefined;
}

/** The token's own `rate`/`burst`, else the global `ratelimit` section's, else 100/s with burst 200. */
export function limitFor(config: UciPackage, token: Token): Limit {
  const global = config.sections.find((section) => section.type === 'ratelimit')?.options;
  return {
    rate: token.rate ?? positive(global?.get('rate')) ?? DEFAULT_RATE,
    burst: token.burst ?? positive(global?.get('burst')) ?? DEFAULT_BURST,
  };
}

/**
 * Takes one request from the token's bucket, refilled continuously at `rate` up to `burst`, and
 * with `stamp` stamps the token's last use at most once a minute. Both live in the token's state file under /tmp
 * (RAM): a polling client must not rewrite the router's flash. The file is shared by concurrent
 * request processes, so each update holds its mutex. If the mutex cannot be had the request passes
 * unstamped: the limit is an abuse guard, not a security control. Answers the last use stamped
 * before this request.
 */
export function takeFromBucket(ports: Ports, token: Token, limit: Limit, ip: string, stamp: boolean): LastUse | undefined {
  const path = tokenStatePath(token.name);
  ports.makeDirectory(path.slice(0, path.lastIndexOf('/')));
  let retryAfter = 0;
  let previous: LastUse | undefined;
  withMutex(ports, `${path}.lock`, () => {
    const now = ports.now();
    const state = parseTokenState(ports.readFile(path));
    previous = state.lastUse;
    const elapsedSeconds = state.at > 0 ? Math.max(0, now - state.at) / 1000 : Infinity;
    let tokens = Math.min(limit.burst, (state.tokens >= 0 ? state.tokens : limit.burst) + elapsedSeconds * limit.rate);
    if (tokens >= 1) tokens -= 1;
    else retryAfter = Math.max(1, Math.ceil((1 - tokens) / limit.rate));
    const seconds = Math.floor(now / 1000);
    // Never stamped (NaN) compares false, and stamps.
    const lastUse = !stamp || seconds - withLastUse(token, previous).lastUsedAt! < LAST_USED_INTERVAL_SECONDS ? previous : { at: seconds, ip };
    ports.writeFileAtomic(path, `${tokens} ${now}${lastUse ? ` ${lastUse.at} ${lastUse.ip}` : ''}`);
  });
  if (retryAfter) {
    throw new ApiError(429, 'too_many_requests', `Rate limit of ${limit.rate}/s (burst ${limit.burst}) exceeded; retry later`, {
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
  return previous;
}
