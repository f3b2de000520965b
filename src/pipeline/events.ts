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

/**
 * One line to the system log through busybox `logger` (facility daemon). The tag makes every line
 * start with `wrtapi:`, the prefix collectors filter on.
 */
export function logLine(ports: Ports, level: SyslogLevel, message: string): void {
  ports.run(['/usr/bin/logger', '-t', 'wrtapi', '-p', `daemon.${level}`, message]);
}
