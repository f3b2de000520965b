import { withMutex } from '../config/lock-file.js';
import { ApiError } from '../http/errors.js';
import type { Ports } from '../platform/ports.js';
import type { UciPackage } from '../uci/index.js';
import { rateLimitStatePath, type Token } from './tokens.js';

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
 * Takes one request from the token's bucket, refilled continuously at `rate` up to `burst`. The
 * bucket lives in a file shared by concurrent request processes, so each update holds its mutex.
 * If the mutex cannot be had the request passes: the limit is an abuse guard, not a security control.
 */
export function takeFromBucket(ports: Ports, tokenName: string, limit: Limit): void {
  const path = rateLimitStatePath(tokenName);
  ports.makeDirectory(path.slice(0, path.lastIndexOf('/')));
  let retryAfter = 0;
  withMutex(ports, `${path}.lock`, () => {
    const now = ports.now();
    const [storedTokens, storedAt] = (ports.readFile(path) ?? '').split(' ').map(Number);
    const elapsedSeconds = storedAt > 0 ? Math.max(0, now - storedAt) / 1000 : Infinity;
    const tokens = Math.min(limit.burst, (storedTokens >= 0 ? storedTokens : limit.burst) + elapsedSeconds * limit.rate);
    if (tokens >= 1) {
      ports.writeFileAtomic(path, `${tokens - 1} ${now}`);
    } else {
      ports.writeFileAtomic(path, `${tokens} ${now}`);
      retryAfter = Math.max(1, Math.ceil((1 - tokens) / limit.rate));
    }
  });
  if (retryAfter) {
    throw new ApiError(429, 'too_many_requests', `Rate limit of ${limit.rate}/s (burst ${limit.burst}) exceeded; retry later`, {
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
}
