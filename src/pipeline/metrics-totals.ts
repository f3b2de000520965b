import { ARMED_STATE, withMutex } from '../config/lock-file.js';
import { deadTemporary } from '../config/leftovers.js';
import { RECORD_DIRECTORY as DIRECTORY, type RequestRecord } from './metrics-format.js';
import type { Ports } from '../platform/ports.js';

const TOTALS = '/tmp/wrtapi/metrics.totals';
const FOLD_MUTEX = '/tmp/wrtapi/metrics.lock';
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Totals {
  requests: Record<string, number>;
  dryRuns: Record<string, number>;
  durations: Record<string, number[]>;
  drops: Record<string, number>;
  contention: Record<string, number>;
  validate: Record<string, number>;
}

const SEPARATOR = '\u0000';

function add(counts: Record<string, number>, key: string, by = 1) {
  counts[key] = (counts[key] ?? 0) + by;
}

function emptyTotals(): Totals {
  return { requests: {}, dryRuns: {}, durations: {}, drops: {}, contention: {}, validate: {} };
}

/**
 * Adds every record file to the totals. Holding the fold's mutex it also stores the totals and
 * removes exactly the files it added; without it (another fold is running) it only reads.
 */
export function foldRecords(ports: Ports): Totals {
  let totals = emptyTotals();
  const persisted = withMutex(ports, FOLD_MUTEX, () => {
    totals = collect(ports, true);
  });
  return persisted ? totals : collect(ports, false);
}

function collect(ports: Ports, persist: boolean): Totals {
  const stored = ports.readFile(TOTALS);
  const totals = { ...emptyTotals(), ...(stored ? (JSON.parse(stored) as Partial<Totals>) : {}) };
  const names = ports.list(DIRECTORY);
  const records = names.filter((name) => !name.startsWith('.'));
  for (const name of records) {
    const text = ports.readFile(`${DIRECTORY}/${name}`);
    if (text) foldOne(totals, JSON.parse(text) as RequestRecord);
  }
  if (persist) {
    ports.writeFileAtomic(TOTALS, JSON.stringify(totals));
    // With the records, what a request killed while writing its own left: the writes' sweep leaves this folder to the fold.
    const temporaryGone = deadTemporary(ports);
    for (const name of names) if (!name.startsWith('.') || temporaryGone(name)) ports.remove(`${DIRECTORY}/${name}`);
  }
  return totals;
}

function foldOne(totals: Totals, record: RequestRecord) {
  const key = [record.method, record.path, record.status, record.token].join(SEPARATOR);
  // A dry run's time, without reloads, would make the writes' durations look shorter than they are.
  if (record.dryRun) add(totals.dryRuns, key);
  else {
    add(totals.requests, key);
    const durationKey = [record.method, record.path].join(SEPARATOR);
    const counts = (totals.durations[durationKey] ??= new Array(BUCKETS.length + 1).fill(0));
    const bucket = BUCKETS.findIndex((bound) => record.seconds <= bound);
    counts[bucket < 0 ? BUCKETS.length : bucket]++;
  }
  if (record.rateLimitDrop) add(totals.drops, record.token);
  if (record.lockType) add(totals.contention, record.lockType);
  for (const { resource, code } of record.validateErrors ?? []) add(totals.validate, [resource, code].join(SEPARATOR));
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function labels(names: string[], key: string, extra = ''): string {
  const values = key.split(SEPARATOR);
  const pairs = names.map((name, i) => `${name}="${escapeLabel(values[i])}"`);
  if (extra) pairs.push(extra);
  return `{${pairs.join(',')}}`;
}

/**
 * The text exposition format 0.0.4 of every counter since boot (/tmp is cleared on reboot), and of
 * commit-confirm's armed change, read from flash at each scrape.
 */
export async function renderMetrics(ports: Ports): Promise<string> {
  const totals = foldRecords(ports);
  // As a write looks for it: the state's module is loaded only while a change is armed.
  const armed = ports.stat(ARMED_STATE) ? (await import('../config/armed.js')).readArmed(ports) : undefined;
  const lines: string[] = [];
  const series = (name: string, type: string, help: string) => lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);

  series('wrtapi_requests_total', 'counter', 'Requests answered, dry runs aside, by method, path template, status and token.');
  for (const [key, count] of Object.entries(totals.requests)) {
    lines.push(`wrtapi_requests_total${labels(['method', 'path', 'status', 'token_id'], key)} ${count}`);
  }
  series('wrtapi_dry_runs_total', 'counter', 'Dry runs answered (writes with dry_run=true, counted here only), by method, path template, status and token.');
  for (const [key, count] of Object.entries(totals.dryRuns)) {
    lines.push(`wrtapi_dry_runs_total${labels(['method', 'path', 'status', 'token_id'], key)} ${count}`);
  }
  series('wrtapi_request_duration_seconds', 'histogram', 'Time from request start to answer, by method and path template.');
  for (const [key, counts] of Object.entries(totals.durations)) {
    let cumulative = 0;
    BUCKETS.forEach((bound, i) => {
      cumulative += counts[i];
      lines.push(`wrtapi_request_duration_seconds_bucket${labels(['method', 'path'], key, `le="${bound}"`)} ${cumulative}`);
    });
    cumulative += counts[BUCKETS.length];
    lines.push(`wrtapi_request_duration_seconds_bucket${labels(['method', 'path'], key, 'le="+Inf"')} ${cumulative}`);
    lines.push(`wrtapi_request_duration_seconds_count${labels(['method', 'path'], key)} ${cumulative}`);
  }
  series('wrtapi_rate_limit_drops_total', 'counter', 'Requests refused by the per-token rate limit.');
  for (const [key, count] of Object.entries(totals.drops)) lines.push(`wrtapi_rate_limit_drops_total${labels(['token_id'], key)} ${count}`);
  series('wrtapi_lock_contention_total', 'counter', 'Writes refused with 423 because a lock was held.');
  for (const [key, count] of Object.entries(totals.contention)) lines.push(`wrtapi_lock_contention_total${labels(['lock_type'], key)} ${count}`);
  series('wrtapi_validate_errors_total', 'counter', 'Field errors of refused writes, by resource and code.');
  for (const [key, count] of Object.entries(totals.validate)) lines.push(`wrtapi_validate_errors_total${labels(['resource', 'code'], key)} ${count}`);
  series('wrtapi_confirm_pending', 'gauge', '1 while a change armed with confirm_within awaits confirmation, else 0.');
  lines.push(`wrtapi_confirm_pending ${armed ? 1 : 0}`);
  series('wrtapi_confirm_deadline_seconds', 'gauge', 'The deadline of the change awaiting confirmation, in Unix seconds; only while one does.');
  if (armed) lines.push(`wrtapi_confirm_deadline_seconds ${armed.deadline}`);
  return lines.join('\n') + '\n';
}
