import type { Ports } from '../platform/ports.js';

export type SyslogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'err';

/**
 * One line to the system log through busybox `logger` (facility daemon). The tag makes every line
 * start with `wrtapi:`, the prefix collectors filter on.
 */
export function logLine(ports: Ports, level: SyslogLevel, message: string): void {
  ports.run(['/usr/bin/logger', '-t', 'wrtapi', '-p', `daemon.${level}`, message]);
}
