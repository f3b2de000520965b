import type { Ports } from './ports.js';

export const RECORD_DIRECTORY = '/tmp/wrtapi/metrics';
// Records are folded into the totals by GET /metrics, and by about one request in this many so the
// directory stays small between scrapes.
const FOLD_ONE_IN = 64;

/** What one request adds to the counters. */
export interface RequestRecord {
  method: string;
  path: string;
  status: number;
  token: string;
  seconds: number;
  rateLimitDrop?: boolean;
  lockType?: string;
  validateErrors?: { resource: string; code: string }[];
}

/**
 * Requests run as separate processes at the same time, so each one writes its own record file
 * instead of updating a shared counter; nothing is read-modify-written outside the fold's mutex.
 */
export async function recordRequest(ports: Ports, record: RequestRecord): Promise<void> {
  ports.makeDirectory(RECORD_DIRECTORY);
  ports.writeFileAtomic(`${RECORD_DIRECTORY}/${ports.pid()}.${ports.now()}`, JSON.stringify(record));
  if (Math.random() * FOLD_ONE_IN < 1) (await import('./metrics-totals.js')).foldRecords(ports);
}

