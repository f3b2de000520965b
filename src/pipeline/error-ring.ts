import type { Ports } from '../platform/ports.js';

const DIRECTORY = '/tmp/wrtapi/errors';
const RING_SIZE = 20;

export interface RecentError {
  /** Epoch seconds. */
  ts: number;
  request_id: string;
  code: string;
  status: number;
  method: string;
  path: string;
  message: string;
}

// File names sort by time: a fixed-width millisecond stamp, then the pid to keep them unique.
function entryName(ports: Ports): string {
  return `${String(ports.now()).padStart(15, '0')}.${ports.pid()}`;
}

/** Keeps the last 20 error envelopes. Best effort: a storage failure never fails the request. */
export function rememberError(ports: Ports, entry: RecentError): void {
  try {
    ports.makeDirectory(DIRECTORY);
    ports.writeFileAtomic(`${DIRECTORY}/${entryName(ports)}`, JSON.stringify(entry));
    const names = ports.list(DIRECTORY).filter((name) => !name.startsWith('.'));
    for (const name of names.slice(0, Math.max(0, names.length - RING_SIZE))) ports.remove(`${DIRECTORY}/${name}`);
  } catch {
    // The ring is diagnostics only.
  }
}

/** The ring, oldest first; empty when it cannot be read. */
export function recentErrors(ports: Ports): RecentError[] {
  try {
    return ports
      .list(DIRECTORY)
      .filter((name) => !name.startsWith('.'))
      .slice(-RING_SIZE)
      .flatMap((name) => {
        const text = ports.readFile(`${DIRECTORY}/${name}`);
        if (!text) return [];
        const entry = JSON.parse(text) as RecentError;
        // An entry an earlier version kept (the ring lives in /tmp until a reboot) holds RFC 3339.
        return [typeof entry.ts === 'string' ? { ...entry, ts: Math.floor(Date.parse(entry.ts) / 1000) } : entry];
      });
  } catch {
    return [];
  }
}
