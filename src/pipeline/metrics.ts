import type { Ports } from '../platform/ports.js';
import { RECORD_DIRECTORY, type RequestRecord } from './metrics-format.js';

// Records are folded into the totals by GET /metrics, and by about one request in this many so the
// directory stays small between scrapes.
const FOLD_ONE_IN = 64;

/**
 * Requests run as separate processes at the same time, so each one writes its own record file
 * instead of updating a shared counter; nothing is read-modify-written outside the fold's mutex.
 */
export async function recordRequest(ports: Ports, record: RequestRecord): Promise<void> {
  ports.makeDirectory(RECORD_DIRECTORY);
  ports.writeFileAtomic(`${RECORD_DIRECTORY}/${ports.pid()}.${ports.now()}`, JSON.stringify(record));
  if (Math.random() * FOLD_ONE_IN < 1) (await import('./metrics-totals.js')).foldRecords(ports);
}

