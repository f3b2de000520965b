// The caller's management path: the device and interface its answers leave through, which
// GET /diagnostics reports and X-Mgmt-Path-Warning compares a network write with.
import { callBus } from '../platform/bus.js';
import type { Ports } from '../platform/ports.js';
import type { JsonObject, ResourceMapping } from '../resources/model.js';
import { jsonEqual } from './json-values.js';

/** What `ubus call network.interface dump` says of one interface, the parts read here. */
interface NetifdInterface {
  interface: string;
  device?: string;
  l3_device?: string;
  'ipv4-address'?: { address: string }[];
  'ipv6-address'?: { address: string }[];
  'ipv6-prefix-assignment'?: { 'local-address'?: { address: string } }[];
}

function addressesOf(entry: NetifdInterface): string[] {
  return [
    ...(entry['ipv4-address'] ?? []).map(({ address }) => address),
    ...(entry['ipv6-address'] ?? []).map(({ address }) => address),
    ...(entry['ipv6-prefix-assignment'] ?? []).flatMap((assignment) => (assignment['local-address'] ? [assignment['local-address'].address] : [])),
  ];
}

/**
 * The interface whose device the answer leaves through. Several may share a device (wan and wan6);
 * the one holding the route's source address wins.
 */
function interfaceOf(ports: Ports, device: string, source: string | undefined): string | null {
  const dump = callBus(ports, 'network.interface', 'dump').answer as { interface?: NetifdInterface[] } | undefined;
  const claimants = (dump?.interface ?? []).filter((entry) => (entry.l3_device ?? entry.device) === device);
  const holder = claimants.find((entry) => source !== undefined && addressesOf(entry).includes(source)) ?? claimants[0];
  return holder?.interface ?? null;
}

/**
 * The way back to the caller, by a kernel route lookup of its address, so it holds for IPv6 and for
 * callers beyond every local prefix. An IPv4-mapped caller is looked up as the IPv4 address it is.
 */
export interface ManagementPath {
  address: string;
  device: string | null;
  interface: string | null;
}

export function managementPath(ports: Ports, remoteAddr: string): ManagementPath {
  const address = remoteAddr.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  const route = ports.run(['/sbin/ip', 'route', 'get', address]);
  const device = route.code === 0 ? / dev (\S+)/.exec(route.stdout)?.[1] : undefined;
  const source = / src (\S+)/.exec(route.stdout)?.[1];
  return { address, device: device ?? null, interface: device === undefined ? null : interfaceOf(ports, device, source) };
}


/**
 * X-Mgmt-Path-Warning for a write that touches the caller's own path (spec: advisory, the write is
 * not refused): `interface=<id> changed=<fields>` when it changes the listed fields of the caller's
 * interface or removes it, `device=<name> changed=created|updated|removed` for its device. `path`:
 * the caller's path as it was before the write; `before`/`after`: the read views around the write.
 */
export function pathWarning(path: ManagementPath, definition: ResourceMapping, before?: JsonObject, after?: JsonObject): Record<string, string> {
  const watch = definition.mgmtPath;
  if (!watch) return {};
  const view = (after ?? before)!;
  if (watch.device === undefined) {
    const changed = after ? (watch.fields ?? []).filter((field) => !jsonEqual(before?.[field] ?? null, after[field] ?? null)) : ['removed'];
    if (!before || !changed.length || path.interface !== view.id) return {};
    return { 'X-Mgmt-Path-Warning': `interface=${String(view.id)} changed=${changed.join(',')}` };
  }
  const device = view[watch.device];
  const changed = !before ? 'created' : !after ? 'removed' : jsonEqual(before, after) ? undefined : 'updated';
  if (changed === undefined || typeof device !== 'string' || path.device !== device) return {};
  return { 'X-Mgmt-Path-Warning': `device=${device} changed=${changed}` };
}
