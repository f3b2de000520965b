// The record files each request leaves for the fold: written by metrics.ts, read by metrics-totals.ts.

export const RECORD_DIRECTORY = '/tmp/wrtapi/metrics';

/** What one request adds to the counters. */
export interface RequestRecord {
  method: string;
  path: string;
  status: number;
  token: string;
  seconds: number;
  /** A dry run: counted apart from the requests, whose writes it must not seem to be. */
  dryRun?: boolean;
  rateLimitDrop?: boolean;
  lockType?: string;
  validateErrors?: { resource: string; code: string }[];
}
