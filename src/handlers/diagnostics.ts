import { targetName } from '../auth/scopes.js';
import { SERVICE_PACKAGE } from '../auth/tokens.js';
import { callBus } from '../platform/bus.js';
import { lockState } from '../config/locks.js';
import { recentErrors } from '../pipeline/error-ring.js';
import { ApiError } from '../http/errors.js';
import { RESOURCES } from '../generated/resources.js';
import type { Ports } from '../platform/ports.js';
import type { Context } from './context.js';
import { jsonResponse } from '../http/response.js';
import { VERSION } from '../platform/version.js';

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
function managementPath(ports: Ports, remoteAddr: string) {
  const address = remoteAddr.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  const route = ports.run(['/sbin/ip', 'route', 'get', address]);
  const device = route.code === 0 ? / dev (\S+)/.exec(route.stdout)?.[1] : undefined;
  const source = / src (\S+)/.exec(route.stdout)?.[1];
  return { address, device: device ?? null, interface: device === undefined ? null : interfaceOf(ports, device, source) };
}

/** `GET /diagnostics`, with `?validate=1` the sweep of every section the token may read. */
export async function GET({ ports, request, requestId, caller }: Context) {
  const validate = request.query.get('validate') ?? '0';
  if (validate !== '0' && validate !== '1') throw new ApiError(400, 'bad_request', 'validate must be 0 or 1');
  const body = {
    version: VERSION,
    uptime_seconds: Math.floor(parseFloat(ports.readFile('/proc/uptime')!)),
    resources_loaded: RESOURCES.map((entry) => targetName(entry.scope)),
    lock_state: lockState(ports, [...new Set([SERVICE_PACKAGE, ...RESOURCES.map((entry) => entry.package)])]),
    recent_errors: recentErrors(ports),
    management_path: managementPath(ports, request.remoteAddr),
    request_id: requestId,
  };
  if (validate === '0') return jsonResponse(200, body);
  const { sweep } = await import('../engine/sweep.js');
  return jsonResponse(200, { ...body, ...(await sweep(ports, caller!.token.scopes)) });
}
