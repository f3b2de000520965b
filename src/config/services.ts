import type { Ports } from '../platform/ports.js';

export function initScript(service: string): string {
  return `/etc/init.d/${service}`;
}

/** Runs `<init script> reload`; the failure summary, or undefined when it exited 0. */
export function reload(ports: Ports, service: string): string | undefined {
  const { code, stdout, stderr } = ports.run([initScript(service), 'reload']);
  if (code === 0) return undefined;
  const output = (stderr.trim() || stdout.trim()).split('\n').slice(-3).join(' ').slice(0, 300);
  return `${initScript(service)} reload exited ${code}${output ? `: ${output}` : ''}`;
}
