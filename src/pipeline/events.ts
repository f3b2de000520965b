import type { Ports } from '../platform/ports.js';

export type SyslogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'err';

/**
 * The event category of an answer (spec: Events), as its syslog level and severity word: errors,
 * refused credentials, and successful writes; none for the rest.
 */
export function eventOf(status: number, write: boolean): [SyslogLevel, string] | undefined {
  if (status >= 500) return ['err', 'ERROR'];
  if (status === 401 || status === 403) return ['warning', 'WARN'];
  if (status < 300 && write) return ['notice', 'AUDIT'];
  return undefined;
}

// The lines of this request as runs of one level, each run one text; flushLog sends them.
const pending: [SyslogLevel, string][] = [];

/** Queues one line for the system log (facility daemon); flushLog sends it. */
export function logLine(level: SyslogLevel, message: string): void {
  // One line stays one line: logger takes a line of its input as one message.
  const line = `${message.replace(/[\0-\x1f\x7f]+/g, ' ')}\n`;
  const last = pending[pending.length - 1];
  if (last?.[0] === level) last[1] += line;
  else pending.push([level, line]);
}

/**
 * Hands the queued lines to busybox `logger`, one process per run of one level. Only the last is not
 * waited for, so the lines keep their order: each process has its lines before the answer leaves,
 * and outlives this one if uhttpd kills it. The tag makes every line start with `wrtapi:`, the prefix
 * collectors filter on.
 */
export function flushLog(ports: Ports): void {
  const runs = pending.splice(0);
  runs.forEach(([level, lines], i) => {
    const argv = ['/usr/bin/logger', '-t', 'wrtapi', '-p', `daemon.${level}`];
    if (i < runs.length - 1) ports.run(argv, lines);
    else ports.start(argv, lines);
  });
}
