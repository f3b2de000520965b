import { sha256Hex } from '../auth/hash.js';
import { ApiError } from '../http/errors.js';
import type { Ports } from '../platform/ports.js';
import type { Response } from '../http/response.js';

const DIRECTORY = '/tmp/wrtapi/idempotency';
const WINDOW_MS = 24 * 3600 * 1000;
// Expired entries are swept by about one POST in this many, so a POST rarely pays for a listing.
const SWEEP_ONE_IN = 32;

interface Entry {
  at: number;
  fingerprint: string;
  /** The identity of the process that runs the first request. */
  owner: string;
  response?: Response;
}

/** A key this request now owns; its answer is stored with settleIdempotency. */
export interface Claim {
  path: string;
  entry: Entry;
}

function isReplayable(status: number): boolean {
  // Only a success changed something a retry must not change again. A failure changed nothing: its
  // retry runs again (after a lock or rate limit it must) and answers with its own request id.
  return status < 300;
}

/**
 * `Idempotency-Key` on a POST, per token: a repeat with the same method, path and body gets the
 * stored answer without running the handler; the same key with anything else is a 409. While the
 * first request still runs, a repeat gets 423 and retries.
 */
export function claimIdempotency(
  ports: Ports,
  tokenName: string,
  key: string,
  request: { method: string; path: string; body: string },
): Claim | Response {
  ports.makeDirectory(DIRECTORY);
  const path = `${DIRECTORY}/${sha256Hex(ports, `${tokenName}\n${key}`)}`;
  const fingerprint = sha256Hex(ports, `${request.method} ${request.path}\n${request.body}`);
  if (Math.random() * SWEEP_ONE_IN < 1) sweepExpired(ports);
  for (let attempt = 0; attempt < 2; attempt++) {
    const stored = ports.readFile(path);
    if (stored !== undefined) {
      const entry = parsedEntry(stored);
      // A claim whose owner was killed (before it could even write its entry, or before its answer) is free again.
      const abandoned = !entry || (!entry.response && !ports.isRunning(entry.owner));
      if (entry && !abandoned && ports.now() - entry.at < WINDOW_MS) {
        if (entry.fingerprint !== fingerprint) {
          throw new ApiError(409, 'idempotency_key_conflict', 'This Idempotency-Key was used with a different request');
        }
        if (!entry.response) {
          throw stillRunning();
        }
        const { response } = entry;
        return { ...response, headers: { ...response.headers, 'Idempotent-Replayed': 'true' } };
      }
      ports.remove(path);
    }
    const entry: Entry = { at: ports.now(), fingerprint, owner: ports.identity() };
    if (ports.createExclusive(path, JSON.stringify(entry))) return { path, entry };
  }
  throw stillRunning();
}

function parsedEntry(text: string): Entry | undefined {
  try {
    return JSON.parse(text) as Entry;
  } catch {
    return undefined;
  }
}

function stillRunning(): ApiError {
  return new ApiError(423, 'locked', 'A request with this Idempotency-Key is still running; retry', {
    headers: { 'Retry-After': '1' },
  });
}

export function settleIdempotency(ports: Ports, claim: Claim, response: Response): void {
  if (!isReplayable(response.status)) {
    ports.remove(claim.path);
    return;
  }
  const { replayBody, ...stored } = response;
  if (replayBody !== undefined) stored.body = replayBody;
  ports.writeFileAtomic(claim.path, JSON.stringify({ ...claim.entry, response: stored }));
}

function sweepExpired(ports: Ports): void {
  const now = ports.now();
  for (const name of ports.list(DIRECTORY)) {
    const info = ports.stat(`${DIRECTORY}/${name}`);
    if (info && now - info.mtimeMs > WINDOW_MS) ports.remove(`${DIRECTORY}/${name}`);
  }
}
