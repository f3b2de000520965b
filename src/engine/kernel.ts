// The spec's write step 7 for wireguard peers: a netifd reload restarts a wireguard interface only
// when its own section changed, so a peer written alone reaches the running device through `wg set`.
// Keys never go in an argv: the preshared key is read from stdin (`/dev/stdin`).
import { callBus } from '../platform/bus.js';
import type { Ports } from '../platform/ports.js';
import type { JsonObject, ResourceMapping } from '../resources/model.js';
import { findSection, type UciPackage, type UciValue } from '../uci/index.js';
import type { KernelOutcome } from './transaction.js';

const text = (value: UciValue | undefined) => (typeof value === 'string' ? value : undefined);
const items = (value: UciValue | undefined) => (value === undefined ? [] : typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : value);

/** Whether netifd knows the interface and has it up: the only ones whose device takes a `wg set`. */
function isUp(ports: Ports, iface: string): boolean {
  const status = callBus(ports, `network.interface.${iface}`, 'status').answer as { up?: unknown } | undefined;
  return status?.up === true;
}

/** The argv adding or updating a peer, and the preshared key for its stdin. */
function setPeer(iface: string, section: { options: Map<string, UciValue> }): { argv: string[]; stdin?: string } {
  const get = (option: string) => text(section.options.get(option));
  const argv = ['/usr/bin/wg', 'set', iface, 'peer', get('public_key')!];
  const presharedKey = get('preshared_key');
  if (presharedKey) argv.push('preshared-key', '/dev/stdin');
  const host = get('endpoint_host');
  if (host) argv.push('endpoint', `${host.includes(':') ? `[${host}]` : host}:${get('endpoint_port') ?? '51820'}`);
  const keepalive = get('persistent_keepalive');
  if (keepalive) argv.push('persistent-keepalive', keepalive);
  argv.push('allowed-ips', items(section.options.get('allowed_ips')).join(','));
  return { argv, stdin: presharedKey };
}

/**
 * Applies a peer write to its interface's device (and to the one it left, when it moved): the old
 * peer removed when its key rotated, it moved, or it was deleted or disabled; the peer set with its
 * allowed IPs, and a route for each when `route_allowed_ips`. `before`/`after`: the views around
 * the write; `staged`: the packages as committed.
 */
export function applyWireguardPeer(
  ports: Ports,
  definition: ResourceMapping,
  before: JsonObject | undefined,
  after: JsonObject | undefined,
  staged: (pkg: string) => UciPackage,
): KernelOutcome | { failure: string } {
  const outcome: KernelOutcome = { applied: [], skipped: [] };
  const section = after && findSection(staged(definition.package), after.id as string);
  const live = section && after!.disabled !== true && typeof after!.public_key === 'string';
  const interfaces = [...new Set([before?.interface, after?.interface].filter((name): name is string => typeof name === 'string'))];
  for (const iface of interfaces) {
    if (!isUp(ports, iface)) {
      outcome.skipped.push(iface);
      continue;
    }
    const commands: { argv: string[]; stdin?: string }[] = [];
    const oldKey = before?.interface === iface ? before.public_key : undefined;
    const setsHere = live && after!.interface === iface;
    if (typeof oldKey === 'string' && !(setsHere && after!.public_key === oldKey)) commands.push({ argv: ['/usr/bin/wg', 'set', iface, 'peer', oldKey, 'remove'] });
    if (setsHere) {
      commands.push(setPeer(iface, section!));
      if (after!.route_allowed_ips === true) {
        for (const cidr of items(section!.options.get('allowed_ips'))) {
          commands.push({ argv: ['/sbin/ip', ...(cidr.includes(':') ? ['-6'] : []), 'route', 'replace', cidr, 'dev', iface] });
        }
      }
    }
    for (const { argv, stdin } of commands) {
      const { code, stderr } = ports.run(argv, stdin);
      // The failure names the command and the tool's complaint, never a key's bytes.
      if (code !== 0) return { failure: `${argv[0]} ${argv[1]} on ${iface} exited ${code}: ${stderr.trim().split('\n')[0] ?? ''}` };
    }
    outcome.applied.push(iface);
  }
  return outcome;
}
